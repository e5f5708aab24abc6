package scheduling

import (
	"fmt"

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
// resize state included), and no extended resource is ignored. The check
// builds no snapshot: it sums the pods' requests for the resources the
// pod asks for and scans their host ports, so that a kubelet (or a
// simulation admitting every pod it binds) pays per pod on the node only
// the request formula (api.PodRequests).
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
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: admission check: pods[%d]: nil", errInvalidInput, i)
		}
	}
	if node.Name == "" {
		return nil, fmt.Errorf("admission check: nodes[0]: %w: node without metadata.name", errInvalidInput)
	}
	// The node as the scheduler's cache would hold it, without indexing
	// its pods: only their number, the requests NodeResourcesFit reads
	// and, below, their host ports matter to these checks.
	in := PodInfo{pod: pod, requests: incomingPodRequests(pod)}
	var cfg Config
	fit := newFitPlugin(&cfg, &in)
	var n NodeInfo
	n.setNode(node)
	if !fit.requestsNothing() {
		n.requested = sumRequested(pods, fit.scalars)
	}
	view := nodeView{info: &n, unindexed: len(pods)}
	var out []AdmissionFailure

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
	name := newNodeNamePlugin(&in)
	if !name.fits(&view) {
		out = append(out, AdmissionFailure{Plugin: PluginNodeName, Reason: ReasonNodeName})
	}
	if portConflict(pod, pods) {
		out = append(out, AdmissionFailure{Plugin: PluginNodePorts, Reason: ReasonNodePorts})
	}
	return out, nil
}

// sumRequested sums the requests of pods bound to a node as the
// scheduler's cache does (NodeInfo.account: each pod's boundPodRequests,
// exact sums saturated to the int64 range), for cpu, memory,
// ephemeral-storage and the scalar resources named (the other amounts
// stay zero).
func sumRequested(pods []*api.Pod, scalars []api.ResourceName) Resource {
	var cpu, mem, eph wide
	var sc []wide
	if len(scalars) > 0 {
		sc = make([]wide, len(scalars))
	}
	for _, p := range pods {
		r := newResource(boundPodRequests(p))
		cpu.add(r.MilliCPU, 1)
		mem.add(r.Memory, 1)
		eph.add(r.EphemeralStorage, 1)
		for i, name := range scalars {
			sc[i].add(r.Scalar[name], 1)
		}
	}
	out := Resource{MilliCPU: cpu.sat(), Memory: mem.sat(), EphemeralStorage: eph.sat()}
	for i, name := range scalars {
		if v := sc[i].sat(); v != 0 {
			if out.Scalar == nil {
				out.Scalar = make(map[api.ResourceName]int64, len(scalars))
			}
			out.Scalar[name] = v
		}
	}
	return out
}

// portConflict is NodePorts's filter for pod on a node running pods:
// whether one of pod's host ports conflicts with one of theirs.
func portConflict(pod *api.Pod, pods []*api.Pod) bool {
	return !eachHostPort(pod, func(p hostPort) bool {
		for _, q := range pods {
			if !eachHostPort(q, func(qp hostPort) bool { return !p.conflictsWith(qp) }) {
				return false
			}
		}
		return true
	})
}
