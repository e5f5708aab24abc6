package workloads

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
)

func webRS(replicas int32) *api.ReplicaSet {
	labels := map[string]string{"app": "web"}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "uid-web", Generation: 1},
		Spec: api.ReplicaSetSpec{Replicas: ptr(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}}},
	}
}

func podNames(ps []*api.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

var mine = ownedBy("uid-web", true)

// The case: an unrelated pod matching the selector, owned by
// another controller, does not count; a matching orphan is adopted and
// counts.
func TestSyncReplicaSetOwnership(t *testing.T) {
	rs := webRS(3)
	pods := []*api.Pod{
		newPod("web-a", mine),
		newPod("theirs", ownedBy("uid-other", true)),
		newPod("elsewhere", mine, func(p *api.Pod) { p.Namespace = "ns-2" }),
	}
	res, err := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, ReplicaSetExpectations{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Created != 2 || res.CreateAttempts != 2 || res.Status.Replicas != 1 {
		t.Errorf("want 2 created over 1 replica, got %+v", res)
	}
	if res.NewPod == nil || res.NewPod.GenerateName != "web-" || res.NewPod.Namespace != "ns-1" || res.NewPod.ControllerRef().UID != "uid-web" {
		t.Errorf("new pod %+v", res.NewPod)
	}

	pods = append(pods, newPod("orphan"), newPod("relabeled", mine, withLabels("app", "db")))
	res, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, ReplicaSetExpectations{}, t0)
	got := [][]string{podNames(res.Adopted), podNames(res.Released)}
	if d := cmp.Diff([][]string{{"orphan"}, {"relabeled"}}, got); d != "" {
		t.Errorf("adopted, released -want +got:\n%s", d)
	}
	if res.Created != 1 || res.Status.Replicas != 2 {
		t.Errorf("created %d over %d replicas, want 1 over 2", res.Created, res.Status.Replicas)
	}
}

func TestSyncReplicaSetSlowStart(t *testing.T) {
	tests := []struct {
		want, accept              int
		attempts, created, expect int
	}{
		{6, 2, 3, 2, 2},  // batches 1, 2: the second batch's extra one fails
		{6, 0, 1, 0, 0},  // the first batch fails
		{7, 3, 3, 3, 3},  // batches 1, 2 succeed, the 4 of the third stop short: 1+2+4
		{10, 4, 7, 4, 4}, // 1, 2, then a batch of 4 with one success
	}
	for _, tt := range tests {
		res, _ := SyncReplicaSet(ReplicaSetInput{ReplicaSet: webRS(int32(tt.want)), AcceptCreates: ptr(tt.accept)}, ReplicaSetExpectations{}, t0)
		if tt.want == 7 {
			tt.attempts = 7
		}
		if res.CreateAttempts != tt.attempts || res.Created != tt.created || res.Expectations.Add != tt.expect || res.Err == nil {
			t.Errorf("need %d, accept %d: attempts %d created %d expect %d err %v", tt.want, tt.accept, res.CreateAttempts, res.Created, res.Expectations.Add, res.Err)
		}
		c := findWorkloadCondition(res.Status.Conditions, ReplicaFailure)
		if c == nil || c.Reason != ReasonFailedCreate || !errors.Is(res.Err, ErrPodCreateRefused) || c.Message != ErrPodCreateRefused.Error() {
			t.Errorf("condition %+v", c)
		}
	}
	// A sync without error removes the condition; a failing one keeps an
	// existing condition as it is.
	rs := webRS(0)
	rs.Status.Conditions = []api.WorkloadCondition{{Type: ReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate", Message: "old"}}
	res, _ := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs}, ReplicaSetExpectations{}, t0)
	if len(res.Status.Conditions) != 0 || !res.StatusUpdated {
		t.Errorf("conditions %+v", res.Status.Conditions)
	}
	rs.Spec.Replicas = ptr(int32(2))
	res, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, AcceptCreates: ptr(0)}, ReplicaSetExpectations{}, t0)
	if len(res.Status.Conditions) != 1 || res.Status.Conditions[0].Message != "old" {
		t.Errorf("conditions %+v", res.Status.Conditions)
	}
}

func TestSyncReplicaSetStatusAndExpectations(t *testing.T) {
	rs := webRS(3)
	rs.Spec.MinReadySeconds = 30
	readyAt := func(d time.Duration) podOpt {
		return func(p *api.Pod) { p.Status.Conditions[0].LastTransitionTime = api.NewTime(t0.Add(-d)) }
	}
	pods := []*api.Pod{
		newPod("a", mine, readyAt(time.Minute)),
		newPod("b", mine, readyAt(10*time.Second)),
		newPod("c", mine, readyAt(time.Hour), func(p *api.Pod) { p.Labels = map[string]string{"app": "web", "extra": "x"} }),
		newPod("gone", mine, terminating),
		newPod("done", mine, phase(api.PodSucceeded), terminating),
	}
	// Pending expectations: status only.
	res, _ := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, ReplicaSetExpectations{Add: 1}, t0)
	want := api.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 2, TerminatingReplicas: ptr(int32(1)), ObservedGeneration: 1}
	if d := cmp.Diff(want, res.Status, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("status -want +got:\n%s", d)
	}
	// b, ready for 10 s, is available 20 s on: the next look.
	if res.Managed || res.Expectations != (ReplicaSetExpectations{Add: 1}) || res.RequeueAfter != 20*time.Second {
		t.Errorf("managed %v expectations %+v requeue %v", res.Managed, res.Expectations, res.RequeueAfter)
	}
	// The same status again, observedGeneration current: not written.
	rs.Status = res.Status
	res, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, ReplicaSetExpectations{}, t0)
	if res.StatusUpdated || !res.Managed {
		t.Errorf("status written again: %+v", res)
	}
	// A set being deleted neither creates nor deletes nor adopts.
	rs.DeletionTimestamp = api.NewTimePtr(t0)
	res, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: webRS(5), Pods: append(pods, newPod("orphan"))}, ReplicaSetExpectations{}, t0)
	if len(res.Adopted) != 1 {
		t.Errorf("a live set adopts the orphan: %v", podNames(res.Adopted))
	}
	deleting := webRS(5)
	deleting.DeletionTimestamp = api.NewTimePtr(t0)
	res, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: deleting, Pods: append(pods, newPod("orphan"))}, ReplicaSetExpectations{}, t0)
	if len(res.Adopted)+res.Create+len(res.Delete) != 0 || res.Managed || !res.StatusUpdated {
		t.Errorf("a set being deleted: %+v", res)
	}
}

func TestSyncReplicaSetBadInput(t *testing.T) {
	for _, tt := range []struct {
		in   ReplicaSetInput
		want string
	}{
		{ReplicaSetInput{}, "replicaset: nil"},
		{ReplicaSetInput{ReplicaSet: &api.ReplicaSet{}}, "spec.replicas: nil"},
		{ReplicaSetInput{ReplicaSet: &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: ptr(int32(-1))}}}, "spec.replicas: -1"},
		{ReplicaSetInput{ReplicaSet: &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: ptr(int32(1)), Selector: &api.LabelSelector{MatchLabels: map[string]string{"a b": "c"}}}}}, "spec.selector"},
	} {
		res, err := SyncReplicaSet(tt.in, ReplicaSetExpectations{}, t0)
		if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v", tt.want, err)
		}
		if d := cmp.Diff(ReplicaSetSync{}, res, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: a result came back: %s", tt.want, d)
		}
	}
	// Nil pods and ReplicaSets in the lists are skipped.
	rs := webRS(2)
	rs.OwnerReferences = []api.OwnerReference{{Kind: "Deployment", UID: "dep", Controller: ptr(true)}}
	res, err := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: []*api.Pod{nil, newPod("a", mine), newPod("b", mine), newPod("c", mine)}, OtherReplicaSets: []*api.ReplicaSet{nil}}, ReplicaSetExpectations{}, t0)
	if err != nil || len(res.Delete) != 1 {
		t.Errorf("nil entries: %+v %v", res, err)
	}
	var c *ReplicaSetController
	if _, err := c.Step(ReplicaSetInput{ReplicaSet: rs}, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil controller: %v", err)
	}
	if !c.NextDeadline().IsZero() {
		t.Error("nil controller has a deadline")
	}
	if _, err := (&ReplicaSetController{}).Step(ReplicaSetInput{}, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil set: %v", err)
	}
}

func TestPodDeletionCost(t *testing.T) {
	for v, want := range map[string]int32{"": 0, "0": 0, "10": 10, "-5": -5, "+10": 0, "08": 0, "1.5": 0, "3000000000": 0, "-2147483648": -2147483648, "abc": 0} {
		p := newPod("a", func(p *api.Pod) { p.Annotations = map[string]string{AnnotationPodDeletionCost: v} })
		if got := PodDeletionCost(p); got != want {
			t.Errorf("%q: got %d, want %d", v, got, want)
		}
	}
}

func TestRankPodsForDeletion(t *testing.T) {
	now := t0
	ready := func(ago time.Duration) podOpt {
		return func(p *api.Pod) { p.Status.Conditions[0].LastTransitionTime = api.NewTime(now.Add(-ago)) }
	}
	created := func(ago time.Duration) podOpt {
		return func(p *api.Pod) { p.CreationTimestamp = api.NewTime(now.Add(-ago)) }
	}
	restarts := func(n int32) podOpt {
		return func(p *api.Pod) { p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", RestartCount: n}} }
	}
	pods := []*api.Pod{
		newPod("old-ready", ready(3*time.Hour), created(4*time.Hour)),
		newPod("costly", ready(time.Minute), func(p *api.Pod) { p.Annotations = map[string]string{AnnotationPodDeletionCost: "100"} }),
		newPod("unassigned", func(p *api.Pod) { p.Spec.NodeName = ""; p.Status.Phase = api.PodPending }),
		newPod("pending", phase(api.PodPending)),
		newPod("unknown", phase(api.PodUnknown)),
		newPod("not-ready", unready),
		newPod("new-ready", ready(time.Minute), created(time.Hour)),
		newPod("restarted", ready(3*time.Hour+time.Minute), created(4*time.Hour), restarts(5)),
		newPod("restarted-same-time", ready(2*time.Hour), created(4*time.Hour), restarts(5)),
		newPod("same-time", ready(2*time.Hour), created(4*time.Hour)),
	}
	// Same bucket for "old-ready" and "restarted" (3 h): the uid decides,
	// before restarts are looked at; the same ready time lets restarts
	// decide.
	RankPodsForDeletion(pods, nil, now)
	want := []string{"unassigned", "pending", "unknown", "not-ready", "new-ready", "restarted-same-time", "same-time", "old-ready", "restarted", "costly"}
	if d := cmp.Diff(want, podNames(pods)); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	// Co-location: the pod on the crowded node goes first.
	a, b := newPod("a", ready(time.Hour)), newPod("b", ready(time.Hour))
	b.Spec.NodeName = "node-2"
	ps := []*api.Pod{a, b}
	RankPodsForDeletion(ps, []int{1, 3}, now)
	if ps[0].Name != "b" {
		t.Errorf("co-location: %v", podNames(ps))
	}
}

// TestReplicaSetControllerForgetsDeletedSet: a set whose creates fail is
// requeued with back-off; once it is deleted (Deleted), the controller
// forgets it and names no deadline, while another set of the same name
// (a new uid) is untouched by the old one's deletion.
func TestReplicaSetControllerForgetsDeletedSet(t *testing.T) {
	for _, mk := range []struct {
		name string
		new  func() *ReplicaSetController
	}{{"whole", NewReplicaSetController}, {"incremental", NewIncrementalReplicaSetController}} {
		t.Run(mk.name, func(t *testing.T) {
			c := mk.new()
			rs := webRS(2)
			res, err := c.Step(ReplicaSetInput{ReplicaSet: rs, AcceptCreates: ptr(0)}, t0)
			if err != nil || res.Err == nil {
				t.Fatalf("refused sync: %v, %v", err, res.Err)
			}
			if d := c.NextDeadline(); !d.Equal(t0.Add(5 * time.Millisecond)) {
				t.Fatalf("back-off deadline %v, want t0+5ms", d)
			}
			if q := c.Queued(t0); len(q) != 0 {
				t.Errorf("queued before the back-off: %v", q)
			}
			if q := c.Queued(t0.Add(5 * time.Millisecond)); !slices.Equal(q, []string{"ns-1/web"}) {
				t.Errorf("queued at the back-off: %v, want [ns-1/web]", q)
			}
			// The deletion of another set of the same name forgets nothing.
			other := webRS(2)
			other.UID = "uid-other"
			if res, err := c.Step(ReplicaSetInput{ReplicaSet: other, Deleted: true}, t0); err != nil || res.Create != 0 {
				t.Fatalf("deleting another set: %+v, %v", res, err)
			}
			if c.NextDeadline().IsZero() {
				t.Fatal("the deletion of another uid dropped the set's back-off")
			}
			res, err = c.Step(ReplicaSetInput{ReplicaSet: rs, Deleted: true}, t0.Add(time.Millisecond))
			if err != nil || res.Create != 0 || res.StatusUpdated || res.Err != nil {
				t.Fatalf("deleted set's sync: %+v, %v", res, err)
			}
			if d := c.NextDeadline(); !d.IsZero() {
				t.Errorf("deadline %v after the set's deletion, want none", d)
			}
			if q := c.Queued(t0.Add(time.Hour)); len(q) != 0 {
				t.Errorf("queued after the set's deletion: %v", q)
			}
			// Recreated, the set starts afresh: its first failure waits 5 ms.
			rs2 := webRS(2)
			rs2.UID = "uid-web-2"
			now := t0.Add(time.Second)
			if _, err := c.Step(ReplicaSetInput{ReplicaSet: rs2, AcceptCreates: ptr(0)}, now); err != nil {
				t.Fatal(err)
			}
			if d := c.NextDeadline(); !d.Equal(now.Add(5 * time.Millisecond)) {
				t.Errorf("recreated set's deadline %v, want now+5ms", d)
			}
			if _, err := c.Step(ReplicaSetInput{Deleted: true}, now); err == nil {
				t.Error("Deleted without a ReplicaSet: no error")
			}
		})
	}
}
