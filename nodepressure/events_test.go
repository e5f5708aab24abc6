package nodepressure_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

func TestManagerEvents(t *testing.T) {
	crit := critical(epod("critical", 0, "", ""))
	best := epod("besteffort", 0, "", "")
	best.ResourceVersion = "42"
	sum := nodeSummary(t0, 80*mi, 4096*mi, gi(50), gi(100))
	sum.Pods = []nodepressure.PodStats{memStats("besteffort", 500*mi), memStats("critical", 900*mi)}
	sum.Pods[0].Containers = []nodepressure.ContainerStats{{Name: "app", Memory: &nodepressure.MemoryStats{WorkingSetBytes: u(500 * mi)}}}

	var m nodepressure.Manager
	st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{crit, best}}, t0)
	const msg = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. " +
		"Container app was using 500Mi, request is 0, has larger consumption of memory. "
	want := []api.Event{
		{Type: "Warning", Reason: "EvictionThresholdMet", Note: "Attempting to reclaim memory",
			Regarding: api.ObjectReference{Kind: "Node", APIVersion: "v1", Name: "node-1"}, Source: "kubelet"},
		{Type: "Warning", Reason: "Evicted", Note: msg,
			Regarding:   api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "besteffort", UID: "uid-besteffort", ResourceVersion: "42"},
			Source:      "kubelet",
			Annotations: map[string]string{"starved_resource": "memory", "offending_containers": "app", "offending_containers_usage": "500Mi"}},
	}
	if d := cmp.Diff(want, st.Events); d != "" {
		t.Errorf("hard memory eviction (-want +got):\n%s", d)
	}

	// Only critical pods: the threshold event, no eviction, no pod event.
	var m2 nodepressure.Manager
	st = m2.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{crit}}, t0)
	if len(st.Events) != 1 || st.Events[0].Reason != "EvictionThresholdMet" {
		t.Errorf("critical pods only: %+v", st.Events)
	}
	// Nothing in force: no events at all.
	var m3 nodepressure.Manager
	if st = m3.Step(nodepressure.Observation{Summary: nodeSummary(t0, 3000*mi, 1096*mi, gi(50), gi(100)), Pods: []*api.Pod{best}}, t0); st.Events != nil {
		t.Errorf("no pressure: %+v", st.Events)
	}
}

// A pod without statistics: the message stops after the threshold, and
// the annotations are an empty map, as the kubelet's are. A pod whose
// pod-level memory request is exceeded is named in the annotations too.
func TestManagerEvictedAnnotations(t *testing.T) {
	sum := nodeSummary(t0, 80*mi, 4096*mi, gi(50), gi(100))
	var m nodepressure.Manager
	st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{epod("nostats", 0, "", "")}}, t0)
	if len(st.Events) != 2 || st.Events[1].Annotations == nil || len(st.Events[1].Annotations) != 0 ||
		st.Events[1].Note != "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. " {
		t.Errorf("no statistics: %+v", st.Events)
	}

	p := epod("big", 0, "", "")
	p.Spec.Resources = &api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("256Mi")}}
	sum.Pods = []nodepressure.PodStats{memStats("big", 700*mi)}
	sum.Pods[0].Containers = []nodepressure.ContainerStats{{Name: "app", Memory: &nodepressure.MemoryStats{WorkingSetBytes: u(700 * mi)}}}
	var m2 nodepressure.Manager
	st = m2.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{p}}, t0)
	want := map[string]string{"starved_resource": "memory", "offending_containers": "app", "offending_containers_usage": "700Mi",
		"offending_pod": "big", "offending_pod_usage": "700Mi"}
	if len(st.Events) != 2 {
		t.Fatalf("events %+v", st.Events)
	}
	if d := cmp.Diff(want, st.Events[1].Annotations); d != "" {
		t.Errorf("pod-level request (-want +got):\n%s", d)
	}
}
