package admission

import "github.com/podsem/podsem/api"

// The kube-apiserver defaults of --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds: how long a pod stays bound to a
// node that turned NotReady or unreachable before the taint eviction
// controller deletes it, unless the pod says otherwise.
const (
	DefaultNotReadyTolerationSeconds    int64 = 300
	DefaultUnreachableTolerationSeconds int64 = 300
)

// TolerationSeconds configures the DefaultTolerationSeconds admission
// plugin. The zero value is kube-apiserver v1.36.3's default: 300 s for
// both. The flags accept any integer, so 0 and negative values are kept as
// given (the taint eviction controller treats ≤ 0 as "evict at once").
type TolerationSeconds struct {
	// NotReady is --default-not-ready-toleration-seconds; nil means
	// DefaultNotReadyTolerationSeconds.
	NotReady *int64
	// Unreachable is --default-unreachable-toleration-seconds; nil means
	// DefaultUnreachableTolerationSeconds.
	Unreachable *int64
}

// DefaultTolerations returns the tolerations a pod has after the
// DefaultTolerationSeconds admission plugin
// (plugin/pkg/admission/defaulttolerationseconds), which runs on every pod
// create and update. The pod's own tolerations come first, unchanged and in
// order; then
//
//	{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: cfg.NotReady}
//	{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: cfg.Unreachable}
//
// are appended, each unless the pod already covers it. The plugin's notion
// of "covers" is coarser than toleration matching: a toleration covers the
// key when its key is that key or empty and its effect is NoExecute or
// empty — its operator, value and tolerationSeconds are not looked at, so
// an Equal toleration with a value still blocks the default, while a
// NoSchedule toleration of the same key does not.
//
// The result is a new slice; the pod is not modified. A nil pod has no
// tolerations: the result is nil.
func DefaultTolerations(pod *api.Pod, cfg TolerationSeconds) []api.Toleration {
	if pod == nil {
		return nil
	}
	own := pod.Spec.Tolerations
	notReady, unreachable := coversKey(own, api.TaintNodeNotReady), coversKey(own, api.TaintNodeUnreachable)
	out := make([]api.Toleration, len(own), len(own)+2)
	copy(out, own)
	if !notReady {
		out = append(out, noExecuteToleration(api.TaintNodeNotReady, cfg.NotReady, DefaultNotReadyTolerationSeconds))
	}
	if !unreachable {
		out = append(out, noExecuteToleration(api.TaintNodeUnreachable, cfg.Unreachable, DefaultUnreachableTolerationSeconds))
	}
	return out
}

// coversKey is the plugin's own test of whether some toleration already
// deals with the NoExecute taint key.
func coversKey(tols []api.Toleration, key string) bool {
	for i := range tols {
		t := &tols[i]
		if (t.Key == key || t.Key == "") && (t.Effect == api.TaintEffectNoExecute || t.Effect == "") {
			return true
		}
	}
	return false
}

func noExecuteToleration(key string, seconds *int64, def int64) api.Toleration {
	s := def
	if seconds != nil {
		s = *seconds
	}
	return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &s}
}
