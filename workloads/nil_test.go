package workloads_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/workloads"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function of workloads that can be handed
// nil with nil arguments: a nil ReplicaSet or StatefulSet is an error
// wrapping api.ErrInvalidInput that names it, with the zero result; nil
// pods in the list are skipped. Keyed by the names niltest.Nilable lists;
// TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"SyncStatefulSet": func(t *testing.T) {
		r, err := workloads.SyncStatefulSet(nil, nil, workloads.StatefulSetConfig{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	// The shared base of the workload controllers: controller references
	// and pods from templates.
	"NewControllerRef": func(t *testing.T) {
		ref := workloads.NewControllerRef(nil, "apps/v1", "ReplicaSet")
		if ref.Name != "" || ref.UID != "" || ref.Kind != "ReplicaSet" {
			t.Errorf("nil owner: %+v", ref)
		}
	},
	"ClaimObject": func(t *testing.T) {
		if c := workloads.ClaimObject(nil, nil, true); c != workloads.ClaimIgnored {
			t.Errorf("nil: %v", c)
		}
		if c := workloads.ClaimObject(&api.ObjectMeta{UID: "u"}, nil, true); c != workloads.ClaimIgnored {
			t.Errorf("nil object: %v", c)
		}
	},
	"ClaimPods": func(t *testing.T) {
		niltest.Zero(t, workloads.ClaimPods(nil, nil, nil))
		c := workloads.ClaimPods(&api.ObjectMeta{UID: "u"}, api.Everything(), []*api.Pod{nil})
		niltest.Zero(t, c)
	},
	"ClaimReplicaSets": func(t *testing.T) {
		niltest.Zero(t, workloads.ClaimReplicaSets(nil, nil, nil))
		niltest.Zero(t, workloads.ClaimReplicaSets(&api.ObjectMeta{UID: "u"}, api.Everything(), []*api.ReplicaSet{nil}))
	},
	"AdoptOwnerReferences": func(t *testing.T) {
		if got := workloads.AdoptOwnerReferences(nil, api.OwnerReference{UID: "u"}); len(got) != 1 {
			t.Errorf("nil refs: %v", got)
		}
	},
	"ReleaseOwnerReferences": func(t *testing.T) {
		niltest.Zero(t, workloads.ReleaseOwnerReferences(nil, "u"))
	},
	"PodFromTemplate": func(t *testing.T) {
		p, err := workloads.PodFromTemplate(nil, "web", nil)
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "template")
	},
	"CreatePodFromTemplate": func(t *testing.T) {
		p, err := workloads.CreatePodFromTemplate(nil, "web", "", nil)
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "controllerRef")
		ref := workloads.NewControllerRef(&api.ObjectMeta{Name: "web", UID: "u"}, "apps/v1", "ReplicaSet")
		p, err = workloads.CreatePodFromTemplate(nil, "web", "", &ref)
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "template")
	},
	// The ReplicaSet controller (SyncReplicaSet takes its objects in a
	// ReplicaSetInput value; its nil cases are in replicaset_test.go).
	"PodDeletionCost": func(t *testing.T) {
		niltest.Zero(t, workloads.PodDeletionCost(nil))
	},
	"RankPodsForDeletion": func(t *testing.T) {
		workloads.RankPodsForDeletion(nil, nil, nilT0)
		pods := []*api.Pod{{ObjectMeta: api.ObjectMeta{Name: "b"}}, nil}
		workloads.RankPodsForDeletion(pods, nil, nilT0)
		if pods[0].Name != "b" || pods[1] != nil {
			t.Errorf("a list with a nil pod is left as it is: %v", pods)
		}
	},
	"(*ReplicaSetController).Step": func(t *testing.T) {
		var c *workloads.ReplicaSetController
		r, err := c.Step(workloads.ReplicaSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "controller")
		r, err = workloads.NewReplicaSetController().Step(workloads.ReplicaSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "replicaset")
	},
	"(*ReplicaSetController).NextDeadline": func(t *testing.T) {
		var c *workloads.ReplicaSetController
		niltest.Zero(t, c.NextDeadline())
	},
	"StatefulSetRevisionData": func(t *testing.T) {
		b, err := workloads.StatefulSetRevisionData(nil)
		niltest.Zero(t, b)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	"HashControllerRevision": func(t *testing.T) {
		if got := workloads.HashControllerRevision(nil, 0); got != workloads.HashControllerRevision([]byte{}, 0) || got == "" {
			t.Errorf("nil data: %q", got)
		}
	},
	"NewStatefulSetRevision": func(t *testing.T) {
		r, err := workloads.NewStatefulSetRevision(nil, 1, 0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	"ApplyStatefulSetRevision": func(t *testing.T) {
		s, err := workloads.ApplyStatefulSetRevision(nil, nil)
		niltest.Zero(t, s)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
		s, err = workloads.ApplyStatefulSetRevision(&api.StatefulSet{}, nil)
		niltest.Zero(t, s)
		niltest.Invalid(t, err, api.ErrInvalidInput, "controllerrevision")
	},
	"StatefulSetPod": func(t *testing.T) {
		p, err := workloads.StatefulSetPod(nil, 0, "")
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	"StatefulSetClaims": func(t *testing.T) {
		c, err := workloads.StatefulSetClaims(nil, 0)
		niltest.Zero(t, c)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	"(*StatefulSetController).Step": func(t *testing.T) {
		var c *workloads.StatefulSetController
		r, err := c.Step(workloads.StatefulSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset controller")
		r, err = workloads.NewStatefulSetController(workloads.StatefulSetConfig{}).Step(workloads.StatefulSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
	"(*StatefulSetController).NextDeadline": func(t *testing.T) {
		var c *workloads.StatefulSetController
		niltest.Zero(t, c.NextDeadline())
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// workloads that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
