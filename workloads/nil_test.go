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
		// An incremental controller: a nil set, a pod event without a pod.
		c = workloads.NewIncrementalReplicaSetController()
		r, err = c.Step(workloads.ReplicaSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "replicaset")
		r, err = c.Step(workloads.ReplicaSetInput{PodEvents: []workloads.PodChange{{}}}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "podEvents[0]")
	},
	"(*ReplicaSetController).NextDeadline": func(t *testing.T) {
		var c *workloads.ReplicaSetController
		niltest.Zero(t, c.NextDeadline())
	},
	"(*ReplicaSetController).Queued": func(t *testing.T) {
		var c *workloads.ReplicaSetController
		niltest.Zero(t, c.Queued(time.Time{}))
	},
	"NodeShouldRunDaemonPod": func(t *testing.T) {
		pl, err := workloads.NodeShouldRunDaemonPod(nil, nil)
		niltest.Zero(t, pl)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
		pl, err = workloads.NodeShouldRunDaemonPod(nil, &api.DaemonSet{})
		niltest.Zero(t, pl)
		niltest.Invalid(t, err, api.ErrInvalidInput, "node")
	},
	"DaemonSetIgnoresNodeUpdate": func(t *testing.T) {
		same, err := workloads.DaemonSetIgnoresNodeUpdate(nil, &api.Node{})
		niltest.Zero(t, same)
		niltest.Invalid(t, err, api.ErrInvalidInput, "node")
	},
	"DaemonSetSyncsForNode": func(t *testing.T) {
		sync, err := workloads.DaemonSetSyncsForNode(nil, nil, nil)
		niltest.Zero(t, sync)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
		sync, err = workloads.DaemonSetSyncsForNode(&api.Node{}, &api.DaemonSet{}, []*api.Pod{nil})
		niltest.Zero(t, err)
		if !sync {
			t.Error("a nil pod counted as the DaemonSet's")
		}
	},
	"GenerateJobSelector": func(t *testing.T) { workloads.GenerateJobSelector(nil) },
	"PodCreateFailedEvent": func(t *testing.T) {
		e := workloads.PodCreateFailedEvent(api.ObjectReference{}, workloads.ReplicaSetControllerName, nil)
		if e.Note != "Error creating: <nil>" {
			t.Errorf("note %q", e.Note)
		}
	},
	"ScaledReplicaSetEvent": func(t *testing.T) {
		if e := workloads.ScaledReplicaSetEvent(nil, "web-1", 0, 1); e.Regarding.Name != "" {
			t.Errorf("regarding %+v", e.Regarding)
		}
	},
	"StatefulSetClaimEvent": func(t *testing.T) {
		niltest.Zero(t, workloads.StatefulSetClaimEvent(nil, "create", "www-web-0", "web-0", nil))
	},
	"StatefulSetPodEvent": func(t *testing.T) {
		niltest.Zero(t, workloads.StatefulSetPodEvent(nil, "create", "web-0", nil))
	},
	"WorkloadReference": func(t *testing.T) {
		if r := workloads.WorkloadReference("Job", "batch/v1", nil); r.Kind != "Job" || r.Name != "" {
			t.Errorf("got %+v", r)
		}
	},
	"NewDaemonPod": func(t *testing.T) {
		p, err := workloads.NewDaemonPod(nil, "node-1", "")
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
	},
	"DaemonSetRevisionHash": func(t *testing.T) {
		h, err := workloads.DaemonSetRevisionHash(nil)
		niltest.Zero(t, h)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
	},
	"DaemonSetRevisionData": func(t *testing.T) {
		b, err := workloads.DaemonSetRevisionData(nil)
		niltest.Zero(t, b)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
	},
	"NewDaemonSetRevision": func(t *testing.T) {
		r, err := workloads.NewDaemonSetRevision(nil, 1)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
	},
	"(*DaemonSetController).Step": func(t *testing.T) {
		var c *workloads.DaemonSetController
		r, err := c.Step(workloads.DaemonSetInput{DaemonSet: &api.DaemonSet{}}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset controller")
		r, err = new(workloads.DaemonSetController).Step(workloads.DaemonSetInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "daemonset")
	},
	"(*DaemonSetController).NextDeadline": func(t *testing.T) {
		var c *workloads.DaemonSetController
		niltest.Zero(t, c.NextDeadline())
	},
	// The Job controller: a nil Job, pod or machine is an error naming
	// it; nil pods in a list are skipped.
	"MatchPodFailurePolicy": func(t *testing.T) {
		v, err := workloads.MatchPodFailurePolicy(nil, nil)
		niltest.Zero(t, v)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		if v, err := workloads.MatchPodFailurePolicy(nil, &api.Pod{}); err != nil || !v.CountFailed || v.Action != "" {
			t.Errorf("nil policy: got %+v, %v; want a counted failure, no action", v, err)
		}
	},
	"SyncJob": func(t *testing.T) {
		r, err := workloads.SyncJob(nil, nil, workloads.JobConfig{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job")
		job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", UID: "u"}, Spec: api.JobSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}}}}}
		if r, err := workloads.SyncJob(job, []*api.Pod{nil}, workloads.JobConfig{}, nilT0); err != nil || len(r.Created()) != 1 {
			t.Errorf("nil pod: got %+v, %v; want it skipped and one pod created", r, err)
		}
	},
	"JobPod": func(t *testing.T) {
		p, err := workloads.JobPod(nil, -1, nil)
		niltest.Zero(t, p)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job")
	},
	"(*JobController).Step": func(t *testing.T) {
		var m *workloads.JobController
		r, err := m.Step(workloads.JobInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job controller")
		r, err = workloads.NewJobController(workloads.JobConfig{}).Step(workloads.JobInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job")
	},
	"(*JobController).NextDeadline": func(t *testing.T) {
		var m *workloads.JobController
		niltest.Zero(t, m.NextDeadline())
	},
	"(*JobController).Backoff": func(t *testing.T) {
		var m *workloads.JobController
		niltest.Zero(t, m.Backoff())
	},
	// The ttl-after-finished controller.
	"JobExpiry": func(t *testing.T) {
		f, e, ok, err := workloads.JobExpiry(nil)
		niltest.Zero(t, f)
		niltest.Zero(t, e)
		niltest.Zero(t, ok)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job")
	},
	"(*TTLAfterFinishedController).Step": func(t *testing.T) {
		var m *workloads.TTLAfterFinishedController
		r, err := m.Step(nil, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "ttl-after-finished controller")
		r, err = new(workloads.TTLAfterFinishedController).Step(nil, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "job")
	},
	"(*TTLAfterFinishedController).NextDeadline": func(t *testing.T) {
		var m *workloads.TTLAfterFinishedController
		niltest.Zero(t, m.NextDeadline())
	},
	// The cronjob controller.
	"(*CronJobController).Step": func(t *testing.T) {
		var m *workloads.CronJobController
		r, err := m.Step(workloads.CronJobInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "cronjob controller")
		r, err = new(workloads.CronJobController).Step(workloads.CronJobInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Zero(t, err)
		cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Spec: api.CronJobSpec{Schedule: "* * * * *"}}
		r, err = new(workloads.CronJobController).Step(workloads.CronJobInput{Trigger: workloads.CronJobChanged, CronJob: cj}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "client")
	},
	"(*CronJobController).NextDeadline": func(t *testing.T) {
		var m *workloads.CronJobController
		niltest.Zero(t, m.NextDeadline())
	},
	"CronJobJob": func(t *testing.T) {
		j, err := workloads.CronJobJob(nil, nilT0, nil)
		niltest.Zero(t, j)
		niltest.Invalid(t, err, api.ErrInvalidInput, "cronjob")
	},
	// The Deployment controller.
	"DeploymentReadsPods": func(t *testing.T) {
		if workloads.DeploymentReadsPods(nil) {
			t.Error("a nil Deployment reads pods")
		}
	},
	"SyncDeployment": func(t *testing.T) {
		r, err := workloads.SyncDeployment(nil, nil, nil, workloads.DeploymentOptions{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "deployment")
		one := int32(1)
		d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.DeploymentSpec{Replicas: &one}}
		r, err = workloads.SyncDeployment(d, nil, nil, workloads.DeploymentOptions{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "spec.selector")
		d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
		d.Spec.Strategy.Type = api.RecreateDeploymentStrategyType
		if _, err := workloads.SyncDeployment(d, []*api.ReplicaSet{nil}, []*api.Pod{nil}, workloads.DeploymentOptions{}, nilT0); err != nil {
			t.Errorf("nil ReplicaSet and pod: %v; want them skipped", err)
		}
		r, err = workloads.SyncDeployment(d, []*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "web-1"}}}, nil, workloads.DeploymentOptions{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "spec.replicas")
	},
	"DefaultPodTemplateHash": func(t *testing.T) {
		if h, empty := workloads.DefaultPodTemplateHash(nil, nil), workloads.DefaultPodTemplateHash(&api.PodTemplateSpec{}, nil); h != empty {
			t.Errorf("nil template hashes %q, the empty template %q", h, empty)
		}
	},
	"(*DeploymentController).Step": func(t *testing.T) {
		var c *workloads.DeploymentController
		r, err := c.Step(workloads.DeploymentInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "DeploymentController")
		r, err = workloads.NewDeploymentController(workloads.DeploymentOptions{}).Step(workloads.DeploymentInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "deployment")
	},
	"(*DeploymentController).NextDeadline": func(t *testing.T) {
		var c *workloads.DeploymentController
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
