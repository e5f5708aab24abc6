package workloads

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

func TestIndexRanges(t *testing.T) {
	for _, c := range []struct {
		in          string
		completions int
		want        string
		total       int
	}{
		{"", 5, "", 0},
		{"0,1", 5, "0,1", 2},
		{"0-2,4", 5, "0-2,4", 4},
		{"0,1,2", 5, "0-2", 3},
		{"1-9", 4, "1-3", 3},   // clipped to completions
		{"1,x,3", 5, "1,3", 2}, // a corrupt interval is skipped
		{"2,7", 5, "2", 1},     // indexes beyond completions end the list
	} {
		r := parseIndexRanges(c.in, c.completions)
		if r.String() != c.want || r.total() != c.total {
			t.Errorf("parse(%q, %d) = %q (%d), want %q (%d)", c.in, c.completions, r.String(), r.total(), c.want, c.total)
		}
	}
	r := parseIndexRanges("0,4-5", 10).withIndexes([]int{1, 3, 8})
	if r.String() != "0,1,3-5,8" || !r.has(4) || r.has(2) || r.has(9) {
		t.Errorf("merge: %q", r.String())
	}
}

func TestMatchSuccessPolicy(t *testing.T) {
	idx, two := "0,2-3", int32(2)
	sp := &api.SuccessPolicy{Rules: []api.SuccessPolicyRule{{SucceededIndexes: &idx}, {SucceededCount: &two}}}
	if msg, ok := matchSuccessPolicy(sp, 5, parseIndexRanges("0,2,3", 5)); !ok || msg != "Matched rules at index 0" {
		t.Errorf("all listed indexes: %q %v", msg, ok)
	}
	if msg, ok := matchSuccessPolicy(sp, 5, parseIndexRanges("1,4", 5)); !ok || msg != "Matched rules at index 1" {
		t.Errorf("count: %q %v", msg, ok)
	}
	if _, ok := matchSuccessPolicy(sp, 5, parseIndexRanges("1", 5)); ok {
		t.Error("one index met a policy of two")
	}
}

func TestJobBackoffDoubles(t *testing.T) {
	last := t0
	for n, want := range map[int32]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 4: 80 * time.Second, 7: 10 * time.Minute, 30: 10 * time.Minute} {
		if got := backoffRemaining(JobConfig{}, n, last, last); got != want {
			t.Errorf("%d failures: %v, want %v", n, got, want)
		}
	}
	if got := backoffRemaining(JobConfig{}, 1, last, last.Add(time.Minute)); got != 0 {
		t.Errorf("after the delay: %v", got)
	}
}

// testJob is a Job as stored with its generated selector.
func testJob(mut func(*api.Job)) *api.Job {
	labels := map[string]string{JobControllerUIDLabel: "uid-j"}
	three := int32(3)
	j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "j", Namespace: "ns-1", UID: "uid-j"},
		Spec: api.JobSpec{Parallelism: &three, Completions: &three,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "main"}}}}},
		Status: api.JobStatus{StartTime: api.NewTimePtr(t0.Add(-time.Minute))}}
	if mut != nil {
		mut(j)
	}
	return j
}

func jobPod(j *api.Job, name string, opts ...podOpt) *api.Pod {
	p := newPod(name, opts...)
	p.Namespace = j.Namespace
	p.Labels = j.Spec.Template.Labels
	p.OwnerReferences = []api.OwnerReference{NewControllerRef(&j.ObjectMeta, "batch/v1", "Job")}
	p.Finalizers = []string{JobTrackingFinalizer}
	return p
}

func index(ix string) podOpt {
	return func(p *api.Pod) { p.Annotations = map[string]string{JobCompletionIndexAnnotation: ix} }
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

func TestSyncJobScenarios(t *testing.T) {
	indexed := func(j *api.Job) { m := JobIndexed; j.Spec.CompletionMode = &m }
	for _, c := range []struct {
		name      string
		job       *api.Job
		pods      func(*api.Job) []*api.Pod
		created   int
		deleted   []string
		condTypes []string
		skipped   string
	}{
		{name: "scale down deletes the pods earliest in their life",
			job: testJob(func(j *api.Job) { one := int32(1); j.Spec.Parallelism = &one }),
			pods: func(j *api.Job) []*api.Pod {
				return []*api.Pod{jobPod(j, "ready"), jobPod(j, "pending", phase(api.PodPending), unready), jobPod(j, "unready", unready)}
			},
			deleted: []string{"pending", "unready"}},
		{name: "an Indexed Job deletes the extra pod of a repeated index and a pod outside its completions (creations wait for a later sync)",
			job: testJob(indexed),
			pods: func(j *api.Job) []*api.Pod {
				return []*api.Pod{jobPod(j, "a0", index("0")), jobPod(j, "b0", index("0"), unready), jobPod(j, "c1", index("1")), jobPod(j, "x", index("7"))}
			},
			deleted: []string{"b0", "x"}},
		{name: "orphans matching the selector are adopted and counted",
			job: testJob(nil),
			pods: func(j *api.Job) []*api.Pod {
				p := jobPod(j, "orphan")
				p.OwnerReferences, p.Finalizers = nil, nil
				return []*api.Pod{p}
			},
			created: 2},
		{name: "restartPolicy OnFailure counts restarts against backoffLimit",
			job: testJob(func(j *api.Job) {
				two := int32(2)
				j.Spec.BackoffLimit = &two
				j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure
			}),
			pods: func(j *api.Job) []*api.Pod {
				p := jobPod(j, "crashy")
				p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", RestartCount: 2}}
				return []*api.Pod{p}
			},
			deleted: []string{"crashy"}, condTypes: []string{JobConditionFailureTarget}},
		{name: "a successPolicy ends an Indexed Job early",
			job: testJob(func(j *api.Job) {
				indexed(j)
				one := int32(1)
				j.Spec.SuccessPolicy = &api.SuccessPolicy{Rules: []api.SuccessPolicyRule{{SucceededCount: &one}}}
			}),
			pods: func(j *api.Job) []*api.Pod {
				return []*api.Pod{jobPod(j, "p0", index("0"), phase(api.PodSucceeded)), jobPod(j, "p1", index("1"))}
			},
			deleted: []string{"p1"}, condTypes: []string{JobConditionSuccessCriteriaMet}},
		{name: "a Job managed elsewhere is left alone",
			job:     testJob(func(j *api.Job) { m := "example.com/other"; j.Spec.ManagedBy = &m }),
			pods:    func(*api.Job) []*api.Pod { return nil },
			skipped: "managed by example.com/other"},
		{name: "a finished Job is left alone",
			job: testJob(func(j *api.Job) {
				j.Status.Conditions = []api.WorkloadCondition{{Type: JobConditionComplete, Status: api.ConditionTrue}}
			}),
			pods:    func(*api.Job) []*api.Pod { return nil },
			skipped: "finished", condTypes: []string{JobConditionComplete}},
		{name: "without completions, the first success stops new pods and completes the Job once the rest end",
			job: testJob(func(j *api.Job) { j.Spec.Completions = nil }),
			pods: func(j *api.Job) []*api.Pod {
				return []*api.Pod{jobPod(j, "done", phase(api.PodSucceeded)), jobPod(j, "failed", phase(api.PodFailed))}
			},
			condTypes: []string{JobConditionSuccessCriteriaMet, JobConditionComplete}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := SyncJob(c.job, c.pods(c.job), JobConfig{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if res.Skipped != c.skipped {
				t.Errorf("skipped %q, want %q", res.Skipped, c.skipped)
			}
			if got := len(res.Created()); got != c.created {
				t.Errorf("created %d, want %d", got, c.created)
			}
			if got := names(res.Deleted()); !slices.Equal(got, c.deleted) {
				t.Errorf("deleted %v, want %v", got, c.deleted)
			}
			var types []string
			for _, cond := range res.Status.Conditions {
				types = append(types, cond.Type)
			}
			if !slices.Equal(types, c.condTypes) {
				t.Errorf("conditions %v, want %v", types, c.condTypes)
			}
		})
	}
}

func TestSyncJobRefusesBadSpecs(t *testing.T) {
	neg := int32(-1)
	for name, mut := range map[string]func(*api.Job){
		"parallelism":               func(j *api.Job) { j.Spec.Parallelism = &neg },
		"completions":               func(j *api.Job) { j.Spec.Completions = &neg },
		"Indexed needs completions": func(j *api.Job) { m := JobIndexed; j.Spec.CompletionMode = &m; j.Spec.Completions = nil },
		"selector": func(j *api.Job) {
			j.Spec.Selector.MatchExpressions = []api.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}
		},
	} {
		if _, err := SyncJob(testJob(mut), nil, JobConfig{}, t0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestJobControllerRetriesFailedCreates(t *testing.T) {
	j := testJob(func(j *api.Job) { j.Spec.Template.Labels = nil; j.Spec.Selector = &api.LabelSelector{} })
	m := NewJobController(JobConfig{})
	var waits []time.Duration
	now := t0
	for range 8 {
		res, err := m.Step(JobInput{Job: j}, now)
		if err != nil || res.Err == nil {
			t.Fatalf("want a create error, got %v, %v", res.Err, err)
		}
		waits = append(waits, m.NextDeadline().Sub(now))
		now = m.NextDeadline()
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute}
	if !slices.Equal(waits, want) {
		t.Errorf("retries %v, want %v", waits, want)
	}
}

// A pod carrying a completion index annotation under a NonIndexed Job
// without completions is just a pod.
func TestSyncJobIndexAnnotationOnNonIndexedJob(t *testing.T) {
	j := testJob(func(j *api.Job) { j.Spec.Completions = nil })
	pods := []*api.Pod{jobPod(j, "a", index("0"), phase(api.PodFailed)), jobPod(j, "b", index("1"))}
	res, err := SyncJob(j, pods, JobConfig{}, t0)
	if err != nil || res.Status.Failed != 1 {
		t.Fatalf("got %+v, %v", res.Status, err)
	}
}

// TestJobControllerRefusedCreates: creates the API server refuses end the
// slow-start batches at the first failing one (its refusals are
// FailedCreates with an Event each, the rest not sent); the status counts
// only the accepted pods active, the sync fails and is retried after the
// back-off. A refusal because the namespace is being deleted is no
// failure: nothing is recorded and the creates stay expected.
func TestJobControllerRefusedCreates(t *testing.T) {
	five := int32(5)
	j := testJob(func(j *api.Job) { j.Spec.Parallelism, j.Spec.Completions = &five, &five })
	refusal := errors.New(`pods "j-abcde" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)`)
	m := NewJobController(JobConfig{})
	one := 1
	res, err := m.Step(JobInput{Job: j, AcceptCreates: &one, CreateError: refusal}, t0)
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for _, a := range res.Actions {
		if a.Kind == JobCreatePod {
			created++
		}
	}
	var events int
	for _, e := range res.Events {
		if e.Reason == ReasonFailedCreate && e.Note == "Error creating: "+refusal.Error() {
			events++
		}
	}
	if created != 1 || len(res.FailedCreates) != 2 || events != 2 || !errors.Is(res.Err, refusal) || res.Status.Active != 1 {
		t.Errorf("one accepted of five: created %d, failed %d, events %d, err %v, active %d", created, len(res.FailedCreates), events, res.Err, res.Status.Active)
	}
	if got := m.NextDeadline(); !got.Equal(t0.Add(time.Second)) {
		t.Errorf("retry at %v, want 1 s later", got.Sub(t0))
	}

	m = NewJobController(JobConfig{})
	zero := 0
	res, err = m.Step(JobInput{Job: j, AcceptCreates: &zero, CreateError: fmt.Errorf("forbidden: %w", namespace.ErrTerminating)}, t0)
	if err != nil || res.Err != nil || len(res.FailedCreates) != 0 || res.Status.Active != 5 {
		t.Fatalf("namespace terminating: err %v/%v, failed %d, active %d", err, res.Err, len(res.FailedCreates), res.Status.Active)
	}
	res, _ = m.Step(JobInput{Job: j}, t0.Add(2*time.Second))
	for _, a := range res.Actions {
		if a.Kind == JobCreatePod {
			t.Fatalf("created again while the refused creates are expected")
		}
	}
}
