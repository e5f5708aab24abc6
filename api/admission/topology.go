package admission

import "github.com/podsem/podsem/api"

// PodTopologyLabels returns the labels the PodTopologyLabels admission
// plugin (plugin/pkg/admission/podtopologylabels; its feature gate
// PodTopologyLabelsAdmission is on by default since v1.35) copies onto a
// pod from the node it is assigned to: the node's
// topology.kubernetes.io/zone and topology.kubernetes.io/region labels,
// those it has. kube-apiserver copies them, overwriting the pod's own
// values of those keys, on a pods/binding request (the binding's labels,
// which the binding registry writes onto the pod) and on a pod create that
// already names spec.nodeName; a node that does not exist copies nothing,
// as does a nil node. The result is a new map (nil when there is nothing
// to copy); the node is not modified.
func PodTopologyLabels(node *api.Node) map[string]string {
	if node == nil {
		return nil
	}
	var out map[string]string
	for _, k := range [...]string{api.LabelTopologyZone, api.LabelTopologyRegion} {
		if v, ok := node.Labels[k]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// WithPodTopologyLabels returns pod's labels with the node's topology
// labels (PodTopologyLabels) merged in, overwriting: the same map when
// there is nothing to copy or every value is already there, else a new
// map (the pod's own is not modified).
func WithPodTopologyLabels(labels map[string]string, node *api.Node) map[string]string {
	copied := PodTopologyLabels(node)
	changed := false
	for k, v := range copied {
		if cur, ok := labels[k]; !ok || cur != v {
			changed = true
		}
	}
	if !changed {
		return labels
	}
	out := make(map[string]string, len(labels)+len(copied))
	for k, v := range labels {
		out[k] = v
	}
	for k, v := range copied {
		out[k] = v
	}
	return out
}
