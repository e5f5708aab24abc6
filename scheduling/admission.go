package scheduling

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
)

// AdmissionFailure is one failure of AdmissionCheck: the plugin whose
// check the pod fails and its reason text, with the numbers of the
// shortfall for NodeResourcesFit (framework AdmissionResult).
type AdmissionFailure struct {
	// Plugin is PluginNodeResourcesFit, PluginNodeAffinity,
	// PluginNodeName or PluginNodePorts.
	Plugin string
	// Reason is the plugin's reason text: ReasonNodeAffinity,
	// ReasonNodeName, ReasonNodePorts, or for NodeResourcesFit
	// Insufficient's reason ("Too many pods", "Insufficient cpu", ...).
	Reason string
	// Insufficient is the resource that falls short, for NodeResourcesFit
	// only (nil otherwise).
	Insufficient *InsufficientResource
}

// AdmissionCheck runs for pod, on node with pods bound to it, the checks
// kube-scheduler shares with the kubelet's admission (pkg/scheduler
// AdmissionCheck, which the kubelet's predicate admit handler calls for
// its GeneralPredicates): NodeResourcesFit, then NodeAffinity (the pod's
// nodeSelector and required node affinity), NodeName and NodePorts, and
// returns every failure in that order — for NodeResourcesFit one per
// insufficient resource, the pod count first, then cpu, memory,
// ephemeral-storage and the scalar resources by name. Taints are not
// checked: the kubelet checks NoExecute taints itself.
//
// Every one of pods counts as bound to node whatever its spec.nodeName
// (the kubelet hands over the pods it runs), terminal ones included; pods
// may repeat a name. The pod's requests are counted as kube-scheduler's
// PreFilter computes them, the other pods' as its cache does (in-place
// resize state included), and no extended resource is ignored.
//
// A nil pod or node, a node without a name, or a nil element of pods is
// an error wrapping api.ErrInvalidInput.
func AdmissionCheck(pod *api.Pod, node *api.Node, pods []*api.Pod) ([]AdmissionFailure, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: admission check: pod: nil", errInvalidInput)
	}
	if node == nil {
		return nil, fmt.Errorf("%w: admission check: node: nil", errInvalidInput)
	}
	placed := make([]*api.Pod, len(pods))
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: admission check: pods[%d]: nil", errInvalidInput, i)
		}
		// A copy named by its position, bound to the node: the check reads
		// only requests and host ports, and the kubelet's pods need not
		// have unique names or name the node.
		q := *p
		q.Namespace, q.Name, q.Spec.NodeName = "", "pod-"+strconv.Itoa(i), node.Name
		placed[i] = &q
	}
	c, err := NewCluster([]*api.Node{node}, placed, Config{})
	if err != nil {
		return nil, fmt.Errorf("admission check: %w", err)
	}
	n := c.NodeAt(0)
	in := newIncomingPodInfo(pod)
	view := nodeView{info: n}
	var out []AdmissionFailure

	fit := newFitPlugin(c, in)
	if st := fit.filter(&view); !st.IsSuccess() {
		for i := range st.Insufficient {
			r := st.Insufficient[i]
			out = append(out, AdmissionFailure{Plugin: PluginNodeResourcesFit, Reason: r.Reason, Insufficient: &r})
		}
	}
	affinity, _ := newRequiredNodeAffinity(pod) // invalid terms match nothing, as upstream
	if !affinity.match(node) {
		out = append(out, AdmissionFailure{Plugin: PluginNodeAffinity, Reason: ReasonNodeAffinity})
	}
	name := newNodeNamePlugin(in)
	if !name.fits(&view) {
		out = append(out, AdmissionFailure{Plugin: PluginNodeName, Reason: ReasonNodeName})
	}
	ports := newNodePortsPlugin(in)
	if !ports.fits(&view) {
		out = append(out, AdmissionFailure{Plugin: PluginNodePorts, Reason: ReasonNodePorts})
	}
	return out, nil
}
