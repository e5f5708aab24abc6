package termination_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/termination"
)

var finT0 = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)

func finalizerPod(finalizers ...string) *api.Pod {
	grace := int64(30)
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "default", UID: "u1", ResourceVersion: "7", Generation: 1, Finalizers: finalizers,
			CreationTimestamp: api.NewTime(finT0.Add(-time.Hour))},
		Spec: api.PodSpec{
			NodeName:      "node-1",
			Containers:    []api.Container{{Name: "db", Image: "postgres:17", ImagePullPolicy: api.PullIfNotPresent, TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File"}},
			RestartPolicy: api.RestartPolicyAlways, DNSPolicy: api.DNSClusterFirst, SchedulerName: "default-scheduler",
			TerminationGracePeriodSeconds: &grace,
		},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
}

// A pod with a finalizer of its own: `kubectl delete` marks it, the
// kubelet's final DELETE (grace 0) cannot remove it, and only the
// finalizer's removal does.
func ExampleUpdateFinalizers() {
	pod := finalizerPod("example.com/backup")
	d, _ := termination.APIServerGrace(pod, &api.DeleteOptions{}, finT0)
	fmt.Println("kubectl delete:", d.Outcome, "until", d.DeletionTimestamp.Format(time.TimeOnly))
	pod = d.Apply(pod)

	zero := int64(0)
	d, _ = termination.APIServerGrace(pod, &api.DeleteOptions{GracePeriodSeconds: &zero}, finT0.Add(12*time.Second))
	fmt.Println("the kubelet's DELETE with grace 0:", d.Outcome, d.Finalizers)
	pod = d.Apply(pod)

	_, err := termination.UpdateFinalizers(pod, []string{"example.com/backup", "example.com/audit"})
	fmt.Println("adding one:", err)
	u, _ := termination.UpdateFinalizers(pod, nil)
	fmt.Println("removing the last one: removed", u.Removed)
	// Output:
	// kubectl delete: Graceful until 00:00:30
	// the kubelet's DELETE with grace 0: AwaitingFinalizers [example.com/backup]
	// adding one: Pod "db-0" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/audit"}
	// removing the last one: removed true
}

func TestDeletePropagationFinalizers(t *testing.T) {
	pol := func(s string) *string { return &s }
	zero := int64(0)
	tests := []struct {
		name    string
		pod     *api.Pod
		opts    *api.DeleteOptions
		want    []string
		outcome termination.DeleteOutcome
	}{
		{"orphan on a bare pod keeps it with grace 0", finalizerPod(), &api.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: pol(api.DeletePropagationOrphan)}, []string{"orphan"}, termination.OutcomeAwaitingFinalizers},
		{"foreground replaces orphan", finalizerPod("a.io/x", "orphan"), &api.DeleteOptions{PropagationPolicy: pol(api.DeletePropagationForeground)}, []string{"a.io/x", "foregroundDeletion"}, termination.OutcomeGraceful},
		{"background removes both", finalizerPod("orphan", "a.io/x"), &api.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: pol(api.DeletePropagationBackground)}, []string{"a.io/x"}, termination.OutcomeAwaitingFinalizers},
		{"background on the last GC finalizer removes the pod", finalizerPod("orphan"), &api.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: pol(api.DeletePropagationBackground)}, []string{}, termination.OutcomeImmediate},
		{"no policy keeps the object's", finalizerPod("foregroundDeletion"), &api.DeleteOptions{}, []string{"foregroundDeletion"}, termination.OutcomeGraceful},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := termination.APIServerGrace(tt.pod, tt.opts, finT0)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Finalizers; !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("finalizers %v, want %v", got, tt.want)
			}
			if d.Outcome != tt.outcome || d.Immediate != (tt.outcome == termination.OutcomeImmediate) {
				t.Errorf("outcome %s immediate %v, want %s", d.Outcome, d.Immediate, tt.outcome)
			}
		})
	}
	// A pending deletion leaves even the GC finalizers alone.
	p := finalizerPod()
	d, _ := termination.APIServerGrace(p, &api.DeleteOptions{}, finT0)
	p = d.Apply(p)
	d, _ = termination.APIServerGrace(p, &api.DeleteOptions{PropagationPolicy: pol(api.DeletePropagationOrphan)}, finT0.Add(time.Second))
	if d.Outcome != termination.OutcomePending || len(d.Finalizers) != 0 {
		t.Errorf("pending delete: %s %v", d.Outcome, d.Finalizers)
	}
}

func TestTimelineAwaitsFinalizers(t *testing.T) {
	tl, err := termination.BuildTimeline(finalizerPod("example.com/backup"), termination.DeleteRequest{}, finT0)
	if err != nil {
		t.Fatal(err)
	}
	last := tl.Events[len(tl.Events)-1]
	if last.Kind != termination.TimelineAwaitingFinalizers || last.Offset != 30*time.Second {
		t.Errorf("last event %+v", last)
	}
	for _, e := range tl.Events {
		if e.Kind == termination.TimelineObjectRemoved {
			t.Errorf("object reported removed while a finalizer stands: %+v", e)
		}
	}
	// A force delete of it does not remove it either: the kubelet still
	// sees it and stops its containers.
	zero := int64(0)
	tl, _ = termination.BuildTimeline(finalizerPod("example.com/backup"), termination.DeleteRequest{Options: &api.DeleteOptions{GracePeriodSeconds: &zero}}, finT0)
	if tl.ForceDeleted || tl.Events[len(tl.Events)-1].Kind != termination.TimelineAwaitingFinalizers {
		t.Errorf("force delete with a finalizer: %v", tl)
	}
}

// Whatever sequence of DELETEs and finalizer updates a pod goes through,
// it is never removed while a finalizer stands, and once marked for
// deletion it never gets a new finalizer.
func TestFinalizersHoldTheObjectRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"a.io/x", "b.io/y", "orphan", "foregroundDeletion"}
		pod := finalizerPod(rapid.SliceOfNDistinct(rapid.SampledFrom(names), 0, 2, rapid.ID[string]).Draw(t, "finalizers")...)
		if rapid.Bool().Draw(t, "unscheduled") {
			pod.Spec.NodeName = ""
		}
		now := finT0
		for i := range rapid.IntRange(1, 8).Draw(t, "ops") {
			now = now.Add(time.Duration(rapid.IntRange(0, 40).Draw(t, fmt.Sprintf("wait%d", i))) * time.Second)
			if rapid.Bool().Draw(t, fmt.Sprintf("delete%d", i)) {
				o := &api.DeleteOptions{}
				if rapid.Bool().Draw(t, fmt.Sprintf("grace?%d", i)) {
					g := int64(rapid.IntRange(-1, 40).Draw(t, fmt.Sprintf("grace%d", i)))
					o.GracePeriodSeconds = &g
				}
				if rapid.Bool().Draw(t, fmt.Sprintf("policy?%d", i)) {
					p := rapid.SampledFrom([]string{api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground}).Draw(t, fmt.Sprintf("policy%d", i))
					o.PropagationPolicy = &p
				}
				d, err := termination.APIServerGrace(pod, o, now)
				if err != nil {
					t.Fatal(err)
				}
				if d.Immediate && len(d.Finalizers) > 0 {
					t.Fatalf("removed with finalizers %v", d.Finalizers)
				}
				pod = d.Apply(pod)
			} else {
				fins := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 0, 3, rapid.ID[string]).Draw(t, fmt.Sprintf("update%d", i))
				u, err := termination.UpdateFinalizers(pod, fins)
				var ae *admission.Error
				if err != nil && !errors.As(err, &ae) {
					t.Fatal(err)
				}
				if err == nil && u.Removed && len(fins) > 0 {
					t.Fatalf("removed by an update keeping %v", fins)
				}
				if err == nil && pod.DeletionTimestamp != nil {
					for _, f := range fins {
						if !slices.Contains(pod.Finalizers, f) {
							t.Fatalf("new finalizer %s accepted on a pod being deleted", f)
						}
					}
				}
				if err == nil {
					pod = u.Pod
				}
			}
			if pod == nil {
				return
			}
		}
	})
}
