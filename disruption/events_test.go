package disruption

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
)

func TestEvaluateEvents(t *testing.T) {
	zk := Controllers{StatefulSets: []*api.StatefulSet{statefulSet("zk", 2)}}
	pdbRef := api.ObjectReference{Kind: "PodDisruptionBudget", APIVersion: "policy/v1", Namespace: "ns-1", Name: "pdb", UID: "uid-pdb", ResourceVersion: "5"}
	budget := func(b *api.PodDisruptionBudget) *api.PodDisruptionBudget {
		b.UID, b.ResourceVersion = "uid-pdb", "5"
		return b
	}

	// No pod matches: NoPods, and the sync goes on.
	_, res := Evaluate(budget(pdbMin(api.FromInt32(1))), nil, zk, t0)
	want := []api.Event{{Type: api.EventTypeNormal, Reason: "NoPods", Note: "No matching pods found", Regarding: pdbRef, Source: "controllermanager"}}
	if d := cmp.Diff(want, res.Events); d != "" {
		t.Errorf("no pods (-want +got):\n%s", d)
	}

	// maxUnavailable over a pod without a controller: UnmanagedPods, the
	// selector printed as the API's Go types print it.
	b := budget(pdbMax(api.FromInt32(1)))
	b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"tier": "fe", "app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "env", Operator: "In", Values: []string{"a", "b"}}, {Key: "x", Operator: "Exists"}}}
	pods := append(ssPods("zk", 2, labels("app", "web", "tier", "fe", "env", "a", "x", "")), newPod("bare", labels("app", "web", "tier", "fe", "env", "b", "x", "1")))
	_, res = Evaluate(b, pods, zk, t0)
	want = []api.Event{{Type: api.EventTypeWarning, Reason: "UnmanagedPods",
		Note: "Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,tier: fe,}," +
			"MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:env,Operator:In,Values:[a b],}," +
			"LabelSelectorRequirement{Key:x,Operator:Exists,Values:[],},},}) were found to be unmanaged. As a result, the status of the PDB " +
			"cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set " +
			"\".spec.minAvailable\" field of the PDB to an integer value.",
		Regarding: pdbRef, Source: "controllermanager"}}
	if d := cmp.Diff(want, res.Events); d != "" {
		t.Errorf("unmanaged (-want +got):\n%s", d)
	}

	// An integer minAvailable counts pods, so an unmanaged pod records
	// nothing. A sync that fails on a pod whose controller is gone
	// records CalculateExpectedPodCountFailed, and nothing else.
	if _, res = Evaluate(budget(pdbMin(api.FromInt32(1))), pods[2:], zk, t0); res.Events != nil {
		t.Errorf("integer minAvailable: %+v", res.Events)
	}
	want = []api.Event{{Type: api.EventTypeWarning, Reason: "CalculateExpectedPodCountFailed",
		Note:      `Failed to calculate the number of expected pods: found no controllers for pod "other-0"`,
		Regarding: pdbRef, Source: "controllermanager"}}
	if _, res = Evaluate(budget(pdbMax(api.FromInt32(1))), ssPods("other", 1), zk, t0); !res.SyncFailed {
		t.Errorf("failed sync: %+v", res)
	} else if d := cmp.Diff(want, res.Events); d != "" {
		t.Errorf("failed sync (-want +got):\n%s", d)
	}
	if got := selectorString(nil); got != "nil" {
		t.Errorf("nil selector %q", got)
	}
	if got := selectorString(&api.LabelSelector{}); got != "&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}" {
		t.Errorf("empty selector %q", got)
	}
}
