package workloads

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// An incremental controller refuses what it cannot read, naming the
// field, and a controller given whole caches refuses pod events; a
// refused step changes nothing.
func TestIncrementalReplicaSetControllerBadInput(t *testing.T) {
	a, b := newPod("a", mine), newPod("b", mine)
	for _, tc := range []struct {
		name string
		c    *ReplicaSetController
		in   ReplicaSetInput
		want string
	}{
		{"pods given", NewIncrementalReplicaSetController(), ReplicaSetInput{ReplicaSet: webRS(1), Pods: []*api.Pod{a}}, "pods: 1 given to an incremental controller"},
		{"empty pods given", NewIncrementalReplicaSetController(), ReplicaSetInput{ReplicaSet: webRS(1), Pods: []*api.Pod{}}, "pods: 0 given"},
		{"event of two pods", NewIncrementalReplicaSetController(), ReplicaSetInput{ReplicaSet: webRS(1), PodEvents: []PodChange{{New: a}, {Old: a, New: b}}}, "podEvents[1]: old ns-1/a and new ns-1/b are two pods"},
		{"events to a full controller", NewReplicaSetController(), ReplicaSetInput{ReplicaSet: webRS(1), PodEvents: []PodChange{{New: a}}}, "podEvents: 1 given to a controller that is given its pods whole"},
		{"bad set", NewIncrementalReplicaSetController(), ReplicaSetInput{ReplicaSet: webRS(-1)}, "spec.replicas: -1"},
	} {
		res, err := tc.c.Step(tc.in, t0)
		if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
		if res.Status.Replicas != 0 || len(res.Events) != 0 || !tc.c.NextDeadline().IsZero() {
			t.Errorf("%s: a refused step answered %+v", tc.name, res)
		}
	}

	// The events of a step refused for its set are the cache's: the
	// next step counts them.
	c := NewIncrementalReplicaSetController()
	if _, err := c.Step(ReplicaSetInput{ReplicaSet: webRS(-1), PodEvents: []PodChange{{New: a}, {New: b}}}, t0); err == nil {
		t.Fatal("a negative spec.replicas accepted")
	}
	res, err := c.Step(ReplicaSetInput{ReplicaSet: webRS(2)}, t0)
	if err != nil || res.Status.Replicas != 2 || res.Create+len(res.Delete) != 0 {
		t.Errorf("after a refused step: %+v %v, want the 2 pods counted", res.Status, err)
	}
	// A malformed event changes nothing, not even the events before it.
	if _, err := c.Step(ReplicaSetInput{ReplicaSet: webRS(2), PodEvents: []PodChange{{Old: a}, {}}}, t0); err == nil {
		t.Fatal("an empty pod event accepted")
	}
	if res, _ := c.Step(ReplicaSetInput{ReplicaSet: webRS(2)}, t0); res.Status.Replicas != 2 {
		t.Errorf("a refused step's events were applied: %d replicas", res.Status.Replicas)
	}
}
