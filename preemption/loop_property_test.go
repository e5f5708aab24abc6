package preemption_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

// TestLoopPreemptionProperty drives the default profile's loop over a
// random cluster with a caller that performs every action at once (a
// preempted victim is gone on the next step) and checks, at every step:
// a pod is bound only to a node its decision found feasible; a pod that is
// not bound gets one FailedScheduling action, last, whose message is the
// FitError followed by the PostFilter's; victims are preempted only when
// DefaultPreemption nominated the pod, each on the nominated node with a
// lower priority than the preemptor and not terminating already; and the
// loop comes to rest (no deadline within the run) in a bounded number of
// steps.
func TestLoopPreemptionProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		for _, pdb := range w.pdbs {
			if err := w.c.SetPodDisruptionBudget(pdb); err != nil {
				t.Fatal(err)
			}
		}
		l, err := preemption.NewLoop(w.c, t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Step(scheduling.PodAdded(w.pod), t0); err != nil {
			t.Fatal(err)
		}
		end := t0.Add(time.Hour)
		for step := 0; ; step++ {
			next := l.NextDeadline()
			if next.IsZero() || next.After(end) {
				break
			}
			if step > 400 {
				t.Fatalf("the loop does not come to rest (next deadline %v)", next)
			}
			res, err := l.Step(scheduling.Tick(), next)
			if err != nil {
				t.Fatal(err)
			}
			if res.Pod == nil {
				continue
			}
			checkAttempt(t, l, res)
			for _, a := range res.Actions {
				if a.Kind == scheduling.ActionPreempt {
					if _, err := l.Step(scheduling.PodDeleted(a.Pod.Namespace, a.Pod.Name), next); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	})
}

func checkAttempt(t *rapid.T, l *scheduling.Loop, res scheduling.StepResult) {
	key := res.Pod.Key()
	if res.Node != "" {
		n := l.Cluster().NodeByName(res.Node)
		if n == nil || !res.Decision.Fits(n.Index()) {
			t.Fatalf("%s bound to %s, which its decision did not find feasible", key, res.Node)
		}
		if len(res.Actions) != 1 || res.Actions[0].Kind != scheduling.ActionBind {
			t.Fatalf("%s bound: actions %v", key, res.Actions)
		}
		return
	}
	last := res.Actions[len(res.Actions)-1]
	if last.Kind != scheduling.ActionFailedScheduling || last.Condition.Message != res.Message ||
		!strings.HasPrefix(res.Message, res.Decision.Message()) {
		t.Fatalf("%s not bound: last action %v, message %q", key, last, res.Message)
	}
	pf := res.PostFilter
	var nominated string
	for _, a := range res.Actions[:len(res.Actions)-1] {
		switch a.Kind {
		case scheduling.ActionNominate:
			nominated = a.Node
			if pf == nil || pf.Code != scheduling.Success || pf.NominatedNodeName != a.Node {
				t.Fatalf("%s nominated to %s, PostFilter said %+v", key, a.Node, pf)
			}
		case scheduling.ActionPreempt:
			if pf == nil || pf.Code != scheduling.Success || a.Node != pf.NominatedNodeName {
				t.Fatalf("%s preempts %s on %s, PostFilter said %+v", key, a.Pod.Key(), a.Node, pf)
			}
			if a.Pod.Spec.NodeName != a.Node || api.PodPriority(a.Pod) >= api.PodPriority(res.Pod) ||
				a.Pod.DeletionTimestamp != nil || a.Condition.Reason != api.PodReasonPreemptionByScheduler {
				t.Fatalf("%s preempts %s (priority %d, on %s, terminating %v) for node %s",
					key, a.Pod.Key(), api.PodPriority(a.Pod), a.Pod.Spec.NodeName, a.Pod.DeletionTimestamp != nil, a.Node)
			}
		case scheduling.ActionClearNomination:
		default:
			t.Fatalf("%s not bound: unexpected action %v", key, a)
		}
	}
	if pf != nil && pf.Code == scheduling.Success && res.Pod.Status.NominatedNodeName != pf.NominatedNodeName && nominated == "" {
		t.Fatalf("%s: preemption chose %s, no nomination asked for", key, pf.NominatedNodeName)
	}
}
