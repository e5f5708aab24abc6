package workloads

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func stsFixture(replicas int32, policy api.PodManagementPolicyType) *api.StatefulSet {
	return &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "ns-1"},
		Spec: api.StatefulSetSpec{Replicas: &replicas, PodManagementPolicy: policy,
			UpdateStrategy: api.StatefulSetUpdateStrategy{Type: api.RollingUpdateStatefulSetStrategyType, RollingUpdate: &api.RollingUpdateStatefulSetStrategy{Partition: ptr(int32(0))}}},
		Status: api.StatefulSetStatus{CurrentRevision: "rev-1", UpdateRevision: "rev-1"},
	}
}

func statefulPod(ordinal int, opts ...podOpt) *api.Pod {
	name := "db-" + strconv.Itoa(ordinal)
	p := newPod(name, opts...)
	p.Labels = map[string]string{api.LabelStatefulSetPodName: name, api.LabelControllerRevisionHash: "rev-1"}
	return p
}

func actionStrings(s StatefulSetSync) []string {
	var out []string
	for _, a := range s.Actions {
		out = append(out, a.String())
	}
	return out
}

func TestSyncStatefulSet(t *testing.T) {
	tests := []struct {
		name   string
		set    *api.StatefulSet
		pods   []*api.Pod
		want   []string
		waitOn string
	}{
		{"scale up one at a time", stsFixture(3, ""), []*api.Pod{statefulPod(0)}, []string{"Create db-1 (missing)"}, "db-1 created"},
		{"Parallel creates every missing ordinal", stsFixture(3, api.ParallelPodManagement), []*api.Pod{statefulPod(1)}, []string{"Create db-0 (missing)", "Create db-2 (missing)"}, "db-2 unavailable"},
		{"a terminating pod blocks its replacement and every later ordinal", stsFixture(3, ""), []*api.Pod{statefulPod(0), statefulPod(1, terminating)}, nil, "db-1 terminating"},
		{"Parallel: the terminating pod still blocks its own ordinal", stsFixture(3, api.ParallelPodManagement), []*api.Pod{statefulPod(0), statefulPod(1, terminating)}, []string{"Create db-2 (missing)"}, "db-2 unavailable"},
		{"a failed pod is deleted, replaced later", stsFixture(2, ""), []*api.Pod{statefulPod(0, phase(api.PodFailed)), statefulPod(1)}, []string{"Delete db-0 (failed)"}, "db-0 terminal"},
		{"not ready blocks OrderedReady", stsFixture(3, ""), []*api.Pod{statefulPod(0, unready)}, nil, "db-0 not running and ready"},
		{"scale down from the highest ordinal", stsFixture(1, ""), []*api.Pod{statefulPod(0), statefulPod(1), statefulPod(2)}, []string{"Delete db-2 (scale down)"}, ""},
		{"identity repair", stsFixture(1, ""), []*api.Pod{func() *api.Pod { p := statefulPod(0); p.Labels = nil; return p }()}, []string{"Update db-0 (identity)", "Delete db-0 (update)"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := SyncStatefulSet(tt.set, tt.pods, StatefulSetConfig{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, actionStrings(res), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("actions -want +got:\n%s", d)
			}
			wait := ""
			if res.Wait != nil {
				wait = res.Wait.Pod + " " + res.Wait.Reason
			}
			if wait != tt.waitOn {
				t.Errorf("wait %q, want %q", wait, tt.waitOn)
			}
		})
	}
	if _, err := SyncStatefulSet(nil, nil, StatefulSetConfig{}, t0); err == nil {
		t.Error("nil set: want an error")
	}
}

func TestRollingUpdate(t *testing.T) {
	set := stsFixture(3, "")
	set.Status.UpdateRevision = "rev-2"
	pods := []*api.Pod{statefulPod(0), statefulPod(1), statefulPod(2)}
	res, _ := SyncStatefulSet(set, pods, StatefulSetConfig{}, t0)
	if d := cmp.Diff([]string{"Delete db-2 (update)"}, actionStrings(res)); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	set.Spec.UpdateStrategy.RollingUpdate.Partition = ptr(int32(3))
	if res, _ = SyncStatefulSet(set, pods, StatefulSetConfig{}, t0); len(res.Actions) != 0 {
		t.Errorf("partition 3: %v", actionStrings(res))
	}
	set.Spec.UpdateStrategy.RollingUpdate.Partition = ptr(int32(0))
	set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ptr(api.FromInt32(2))
	res, _ = SyncStatefulSet(set, pods, StatefulSetConfig{MaxUnavailable: true}, t0)
	if d := cmp.Diff([]string{"Delete db-2 (update)", "Delete db-1 (update)"}, actionStrings(res)); d != "" {
		t.Errorf("maxUnavailable 2: -want +got:\n%s", d)
	}
	if res.Status.CurrentReplicas != 1 {
		t.Errorf("currentReplicas %d", res.Status.CurrentReplicas)
	}
}

// The contrast the issue is about: the same lost pod, a ReplicaSet replaces
// it at once, a StatefulSet waits for the object to be gone.
func TestReplacementContrast(t *testing.T) {
	lost := statefulPod(1, terminating)
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "uid-web"},
		Spec: api.ReplicaSetSpec{Replicas: ptr(int32(3)), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}}}}
	mine := ownedBy("uid-web", true)
	r, err := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: []*api.Pod{newPod("web-a", mine), newPod("web-b", mine, terminating), newPod("web-c", mine), newPod("web-d", mine, phase(api.PodFailed))}}, ReplicaSetExpectations{}, t0)
	if err != nil || r.Created != 1 || r.Status.Replicas != 2 || *r.Status.TerminatingReplicas != 1 {
		t.Errorf("ReplicaSet: %+v %v", r, err)
	}
	s, _ := SyncStatefulSet(stsFixture(3, api.ParallelPodManagement), []*api.Pod{statefulPod(0), lost, statefulPod(2)}, StatefulSetConfig{}, t0)
	if len(s.Actions) != 0 {
		t.Errorf("StatefulSet: %v", actionStrings(s))
	}
	s, _ = SyncStatefulSet(stsFixture(3, api.ParallelPodManagement), []*api.Pod{statefulPod(0), statefulPod(2)}, StatefulSetConfig{}, t0)
	if d := cmp.Diff([]string{"Create db-1 (missing)"}, actionStrings(s)); d != "" {
		t.Errorf("after the object is gone: %s", d)
	}
	if _, err := SyncReplicaSet(ReplicaSetInput{}, ReplicaSetExpectations{}, t0); err == nil {
		t.Error("nil ReplicaSet: want an error")
	}
	r, _ = SyncReplicaSet(ReplicaSetInput{ReplicaSet: &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: ptr(int32(1000)), Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}}}}}, ReplicaSetExpectations{}, t0)
	if r.Created != BurstReplicas {
		t.Errorf("burst: %d", r.Created)
	}
}

// A StatefulSet sync never yields two live pods with the same ordinal: in a
// random world where deleted pods linger Terminating for a while, fail, get
// ready or not, and the set is rescaled and updated, no sync ever asks to
// create a pod whose name an existing object holds.
func TestStatefulSetAtMostOnePerOrdinal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := stsFixture(int32(rapid.IntRange(0, 5).Draw(t, "replicas")), rapid.SampledFrom([]api.PodManagementPolicyType{"", api.ParallelPodManagement}).Draw(t, "policy"))
		set.Spec.MinReadySeconds = int32(rapid.SampledFrom([]int{0, 10}).Draw(t, "minReady"))
		objects := map[string]*api.Pod{} // the API server's pods by name
		gone := map[string]int{}         // terminating pods: steps until removed
		now := t0
		for step := range 12 {
			now = now.Add(5 * time.Second)
			// The world moves: pods become ready or fail, terminating
			// ones may disappear, the set may be scaled or updated.
			for _, name := range slices.Sorted(maps.Keys(objects)) {
				p := objects[name]
				if p.DeletionTimestamp != nil {
					gone[name]--
					if gone[name] <= 0 {
						delete(objects, name)
					}
					continue
				}
				switch rapid.IntRange(0, 5).Draw(t, "fate "+name) {
				case 0:
					np := *p
					np.Status.Phase = api.PodFailed
					objects[name] = &np
				case 1:
					np := *p
					np.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
					objects[name] = &np
				}
			}
			if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("rescale %d", step)) == 0 {
				set.Spec.Replicas = ptr(int32(rapid.IntRange(0, 5).Draw(t, "replicas")))
			}
			if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("update %d", step)) == 0 {
				set.Status.UpdateRevision = fmt.Sprintf("rev-%d", step+2)
			}
			var pods []*api.Pod
			for _, name := range slices.Sorted(maps.Keys(objects)) {
				pods = append(pods, objects[name])
			}
			res, err := SyncStatefulSet(set, pods, StatefulSetConfig{}, now)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.Actions {
				switch a.Kind {
				case StatefulSetCreate:
					if _, exists := objects[a.Pod]; exists {
						t.Fatalf("step %d: create %s while the object exists", step, a.Pod)
					}
					p := statefulPod(a.Ordinal)
					p.Namespace = set.Namespace
					p.Labels[api.LabelControllerRevisionHash] = a.Revision
					p.Status.Conditions[0].LastTransitionTime = api.NewTime(now.Add(-time.Minute))
					objects[a.Pod] = p
				case StatefulSetDelete:
					p := objects[a.Pod]
					if p == nil {
						t.Fatalf("step %d: delete of missing %s", step, a.Pod)
					}
					if p.DeletionTimestamp == nil {
						np := *p
						np.DeletionTimestamp = api.NewTimePtr(now)
						objects[a.Pod] = &np
						gone[a.Pod] = rapid.IntRange(1, 4).Draw(t, "linger "+a.Pod)
					}
				}
			}
		}
	})
}

// TestStatefulSetRefusedCreate: a set whose pod creates the API server
// refuses fails its sync at the first create, with that pod's FailedCreate
// Event, and the controller retries it with its back-off.
func TestStatefulSetRefusedCreate(t *testing.T) {
	set := nginxSet(3)
	refusal := errors.New(`pods "web-0" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)`)
	c := NewStatefulSetController(StatefulSetConfig{})
	res, err := c.Step(StatefulSetInput{Set: set, CreateError: refusal}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Actions {
		if a.Kind == StatefulSetCreate {
			t.Errorf("a refused create was sent: %+v", a)
		}
	}
	var notes []string
	for _, e := range res.Events {
		if e.Reason == "FailedCreate" {
			notes = append(notes, e.Note)
		}
	}
	if !errors.Is(res.Err, refusal) || len(notes) != 1 || !strings.Contains(notes[0], "Create Pod web-0 in StatefulSet web failed error: "+refusal.Error()) {
		t.Errorf("err %v, events %v", res.Err, notes)
	}
	if d := c.NextDeadline(); d.IsZero() || !d.After(t0) {
		t.Errorf("no retry: %v", d)
	}
}

// TestStatefulSetRefusedClaim: a claim the API server refuses (a quota
// with no room for it) is not sent; the sync fails at its pod with the
// claim's FailedCreate Event, then the pod's ("failed to create PVC"), and
// the controller retries it with its back-off. The pods whose claims pass
// are created before it.
func TestStatefulSetRefusedClaim(t *testing.T) {
	set := nginxSet(3)
	set.Spec.PodManagementPolicy = api.ParallelPodManagement
	claims, err := StatefulSetClaims(set, 1)
	if err != nil || len(claims) != 1 {
		t.Fatalf("claims of web-1: %v, %v", claims, err)
	}
	refusal := errors.New(`persistentvolumeclaims "` + claims[0].Name + `" is forbidden: exceeded quota: storage, requested: requests.storage=1Gi, used: requests.storage=1Gi, limited: requests.storage=1Gi`)
	c := NewStatefulSetController(StatefulSetConfig{})
	res, err := c.Step(StatefulSetInput{Set: set, ClaimCreateErrors: map[string]error{claims[0].Name: refusal}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Actions {
		if a.Kind == StatefulSetCreateClaim && a.Claim.Name == claims[0].Name || a.Kind == StatefulSetCreate && a.Pod == "web-1" {
			t.Errorf("a refused create was sent: %v", a)
		}
	}
	var notes []string
	for _, e := range res.Events {
		if e.Reason == "FailedCreate" {
			notes = append(notes, e.Note)
		}
	}
	want := []string{
		"Create Claim " + claims[0].Name + " for Pod web-1 in StatefulSet web failed error: " + refusal.Error(),
		"Create Pod web-1 in StatefulSet web failed error: failed to create PVC " + claims[0].Name + ": " + refusal.Error(),
	}
	if res.Err == nil || !slices.Equal(notes, want) {
		t.Errorf("err %v, FailedCreate events:\n%q\nwant\n%q", res.Err, notes, want)
	}
	if d := c.NextDeadline(); d.IsZero() || !d.After(t0) {
		t.Errorf("no retry: %v", d)
	}
}
