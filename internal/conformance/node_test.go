package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/nodelifecycle"
)

func init() {
	register("node.default-tolerations", runDefaultTolerations)
	register("node.taint-eviction", runTaintEviction)
	register("node.lifecycle-taints", runLifecycleTaints)
}

// --- node.default-tolerations ---

type defaultTolerationsInput struct {
	Op                 string  `json:"op"`
	Pod                api.Pod `json:"pod"`
	NotReadySeconds    *int64  `json:"notReadySeconds"`
	UnreachableSeconds *int64  `json:"unreachableSeconds"`
}

func runDefaultTolerations(input, want json.RawMessage) error {
	var in defaultTolerationsInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if in.Op != "create" && in.Op != "update" {
		return fmt.Errorf("unknown op %q", in.Op)
	}
	got := admission.DefaultTolerations(&in.Pod, admission.TolerationSeconds{NotReady: in.NotReadySeconds, Unreachable: in.UnreachableSeconds})
	return sameAnswer(want, map[string]any{"tolerations": got})
}

// sameAnswer compares want with got encoded as JSON, with SameJSON's rules
// (absent equals empty, times by instant).
func sameAnswer(want json.RawMessage, got any) error {
	w, err := DecodeNumbers(want)
	if err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		return err
	}
	g, err := DecodeNumbers(b)
	if err != nil {
		return err
	}
	if d := SameJSON(w, g, "want"); d != "" {
		return fmt.Errorf("%s\n    want %s\n    got  %s", d, want, b)
	}
	return nil
}

// --- node.taint-eviction ---

type taintEvictionInput struct {
	Node    api.Node  `json:"node"`
	Pod     api.Pod   `json:"pod"`
	Now     time.Time `json:"now"`
	Updates []struct {
		At          time.Time         `json:"at"`
		Taints      *[]api.Taint      `json:"taints"`
		Tolerations *[]api.Toleration `json:"tolerations"`
	} `json:"updates"`
}

func runTaintEviction(input, want json.RawMessage) error {
	var in taintEvictionInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	c := nodelifecycle.NewTaintEviction()
	pod, node := &in.Pod, &in.Node
	var acts []nodelifecycle.TaintEvictionAction
	step := func(ev nodelifecycle.Event, now time.Time) error {
		a, err := c.Step(ev, now)
		acts = append(acts, a...)
		return err
	}
	if err := step(nodelifecycle.PodUpdated(pod), in.Now); err != nil {
		return err
	}
	if err := step(nodelifecycle.NodeUpdated(node), in.Now); err != nil {
		return err
	}
	for _, u := range in.Updates {
		if u.Tolerations != nil {
			p := *pod
			p.Spec.Tolerations = *u.Tolerations
			pod = &p
			if err := step(nodelifecycle.PodUpdated(pod), u.At); err != nil {
				return err
			}
			continue
		}
		n := *node
		n.Spec.Taints = nil
		if u.Taints != nil {
			n.Spec.Taints = *u.Taints
		}
		node = &n
		if err := step(nodelifecycle.NodeUpdated(node), u.At); err != nil {
			return err
		}
	}
	for next := c.NextDeadline(); !next.IsZero(); next = c.NextDeadline() {
		if err := step(nodelifecycle.Tick(), next); err != nil {
			return err
		}
	}
	got := map[string]any{"outcome": "never"}
	for _, a := range acts {
		if a.Kind != nodelifecycle.EvictPod || a.Pod != in.Pod.Key() {
			continue
		}
		got["outcome"] = "evict-later"
		if a.At.Equal(in.Now) {
			got["outcome"] = "evict-now"
		}
		got["evictAt"] = a.At
		got["statusPatched"] = a.DisruptionTarget != nil
		if a.DisruptionTarget != nil {
			dt := *a.DisruptionTarget
			dt.LastTransitionTime = api.Time{}
			got["disruptionTarget"] = dt
		}
		break
	}
	return sameAnswer(want, got)
}

// --- node.lifecycle-taints ---

type lifecycleTaintsInput struct {
	Op                            string    `json:"op"`
	Node                          api.Node  `json:"node"`
	ObservedAt                    time.Time `json:"observedAt"`
	Now                           time.Time `json:"now"`
	NodeMonitorGracePeriodSeconds *int64    `json:"nodeMonitorGracePeriodSeconds"`
	NodeStartupGracePeriodSeconds *int64    `json:"nodeStartupGracePeriodSeconds"`
}

type wantTaint struct {
	Key         string          `json:"key"`
	Value       string          `json:"value,omitempty"`
	Effect      api.TaintEffect `json:"effect"`
	Preexisting bool            `json:"preexisting"`
}

func runLifecycleTaints(input, want json.RawMessage) error {
	var in lifecycleTaintsInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	switch in.Op {
	case "taints":
		// The controller's wall clock: any instant differs from every
		// timeAdded in the input.
		now := time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
		ns := nodelifecycle.NoScheduleTaintPass(&in.Node, now)
		after := in.Node
		after.Spec.Taints = ns.Taints
		ne := nodelifecycle.NoExecuteTaintPass(&after, now)
		return sameAnswer(want, map[string]any{
			"afterNoSchedulePass": asWantTaints(ns.Taints, in.Node.Spec.Taints),
			"taints":              asWantTaints(ne.Taints, in.Node.Spec.Taints),
		})
	case "heartbeat":
		var cfg nodelifecycle.Config
		if in.NodeMonitorGracePeriodSeconds != nil {
			cfg.MonitorGracePeriod = time.Duration(*in.NodeMonitorGracePeriodSeconds) * time.Second
		}
		if in.NodeStartupGracePeriodSeconds != nil {
			cfg.StartupGracePeriod = time.Duration(*in.NodeStartupGracePeriodSeconds) * time.Second
		}
		m, err := nodelifecycle.NewMonitor(cfg)
		if err != nil {
			return err
		}
		node := in.Node
		got := map[string]any{}
		for _, look := range []struct {
			name string
			at   time.Time
		}{{"first", in.ObservedAt}, {"second", in.Now}} {
			rep, err := m.Step(nodelifecycle.MonitorInput{Node: &node}, look.at)
			if err != nil {
				return err
			}
			if rep.Status != nil {
				node.Status = *rep.Status
			}
			got[look.name] = map[string]any{"gracePeriodSeconds": int64(rep.GracePeriod / time.Second), "conditions": node.Status.Conditions}
		}
		return sameAnswer(want, got)
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

func asWantTaints(taints, input []api.Taint) []wantTaint {
	out := make([]wantTaint, 0, len(taints))
	for _, t := range taints {
		pre := slices.ContainsFunc(input, func(o api.Taint) bool {
			return o.Key == t.Key && o.Value == t.Value && o.Effect == t.Effect &&
				(o.TimeAdded == nil) == (t.TimeAdded == nil) && (o.TimeAdded == nil || o.TimeAdded.Equal(t.TimeAdded.Time))
		})
		out = append(out, wantTaint{Key: t.Key, Value: t.Value, Effect: t.Effect, Preexisting: pre})
	}
	slices.SortStableFunc(out, func(a, b wantTaint) int {
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return cmp.Compare(a.Effect, b.Effect)
	})
	return out
}
