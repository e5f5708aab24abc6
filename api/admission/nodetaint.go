package admission

import "github.com/podsem/podsem/api"

// NodeCreateTaints returns the taints a Node is stored with after the
// TaintNodesByCondition admission plugin
// (plugin/pkg/admission/nodetaint/admission.go), which kube-apiserver
// v1.36.3 runs on every Node create — never on an update, nor on the
// status subresource. The node's own taints come first, unchanged and in
// order; then
//
//	{key: node.kubernetes.io/not-ready, effect: NoSchedule}
//
// is appended unless the node already has a taint of that key and effect
// (whatever its value or timeAdded). The added taint has no value and no
// timeAdded, and the plugin adds it whatever the node's conditions say: a
// node registering with Ready=True gets it too. The node lifecycle
// controller's NoSchedule tainting pass (nodelifecycle.NoScheduleTaintPass,
// run from its node add/update handlers) removes it once the node's
// conditions do not call for it, so that no pod is scheduled to a node
// before the controller has looked at it.
//
// The result is a new slice; the node is not modified. A nil node has no
// taints: the result is nil.
func NodeCreateTaints(node *api.Node) []api.Taint {
	if node == nil {
		return nil
	}
	own := node.Spec.Taints
	out := make([]api.Taint, len(own), len(own)+1)
	copy(out, own)
	for i := range own {
		if own[i].Key == api.TaintNodeNotReady && own[i].Effect == api.TaintEffectNoSchedule {
			return out
		}
	}
	return append(out, api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule})
}
