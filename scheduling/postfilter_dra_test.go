package scheduling

import (
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// countingPostFilter is a PostFilter that could not help, counting its
// calls: it clears the pod's nomination, as DefaultPreemption does when it
// finds no candidate.
type countingPostFilter struct{ calls int }

func (p *countingPostFilter) PostFilter(*Cycle, *Decision, time.Time) PostFilterResult {
	p.calls++
	return PostFilterResult{Code: Unschedulable, Nominate: true, Message: "preemption: no help"}
}

// TestPostFilterAfterUnresolvablePreFilter: when a PreFilter before
// DynamicResources' rejects the pod as UnschedulableAndUnresolvable (here
// VolumeBinding: an unbound claim without a class), DynamicResources'
// PreFilter never writes its cycle state, so its PostFilter fails with
// "not found" and the profile's PostFilter is not called: the message
// ends in "not found", and the pod's nomination is kept. A pod that gets
// through PreFilter (too large for the node) gets both PostFilters, and
// the second clears its nomination.
func TestPostFilterAfterUnresolvablePreFilter(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"},
		Status: api.NodeStatus{Allocatable: api.ResourceList{"cpu": api.MustParseQuantity("1"), "memory": api.MustParseQuantity("2Gi"), "pods": api.MustParseQuantity("10")}}}
	c, err := NewCluster([]*api.Node{node}, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	post := &countingPostFilter{}
	l, err := NewLoop(c, LoopConfig{PostFilter: post}, now)
	if err != nil {
		t.Fatal(err)
	}
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default", UID: "uid-data"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}},
		Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}
	if _, err := l.Step(ObjectSet(claim), now); err != nil {
		t.Fatal(err)
	}
	schedule := func(p *api.Pod) StepResult {
		t.Helper()
		if _, err := l.Step(PodAdded(p), now); err != nil {
			t.Fatal(err)
		}
		res, err := l.Step(Tick(), now)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	kinds := func(res StepResult) []ActionKind {
		var out []ActionKind
		for _, a := range res.Actions {
			out = append(out, a.Kind)
		}
		return out
	}

	db := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default", UID: "uid-db"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}},
			Volumes: []api.Volume{{Name: "d", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}},
		Status: api.PodStatus{NominatedNodeName: "node-1"}}
	res := schedule(db)
	const want = "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found"
	if res.Message != want {
		t.Errorf("message %q, want %q", res.Message, want)
	}
	if post.calls != 0 || res.PostFilter != nil {
		t.Errorf("the profile's PostFilter ran (%d calls, result %+v); DynamicResources' error ends RunPostFilterPlugins", post.calls, res.PostFilter)
	}
	if k := kinds(res); len(k) != 1 || k[0] != ActionFailedScheduling {
		t.Errorf("actions %v, want FailedScheduling alone (the nomination kept)", k)
	}

	big := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "big", Namespace: "default", UID: "uid-big"},
		Spec:   api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("2")}}}}},
		Status: api.PodStatus{NominatedNodeName: "node-1"}}
	res = schedule(big)
	if !strings.HasSuffix(res.Message, " no new claims to deallocate, preemption: no help") || post.calls != 1 {
		t.Errorf("message %q after %d PostFilter calls, want both PostFilters' reasons after one call", res.Message, post.calls)
	}
	if k := kinds(res); len(k) != 2 || k[0] != ActionClearNomination || k[1] != ActionFailedScheduling {
		t.Errorf("actions %v, want ClearNomination, FailedScheduling", k)
	}
}
