package workloads_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// genJob draws a Job as stored: NonIndexed or Indexed, with or without
// completions, backoffLimit, backoffLimitPerIndex, a pod failure policy
// (FailJob on exit 42 from main, Ignore on DisruptionTarget, FailIndex on
// exit 3 for per-index Jobs) and either podReplacementPolicy.
func genJob(t *rapid.T) *api.Job {
	indexed := rapid.Bool().Draw(t, "indexed")
	par := rapid.Int32Range(1, 3).Draw(t, "parallelism")
	var completions *int32
	if indexed || rapid.Bool().Draw(t, "hasCompletions") {
		c := rapid.Int32Range(1, 5).Draw(t, "completions")
		completions = &c
	}
	limit := rapid.Int32Range(0, 3).Draw(t, "backoffLimit")
	mode := workloads.JobNonIndexed
	if indexed {
		mode = workloads.JobIndexed
	}
	labels := map[string]string{workloads.JobControllerUIDLabel: "uid-job"}
	job := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "job", Namespace: "default", UID: "uid-job"},
		Spec: api.JobSpec{Parallelism: &par, Completions: completions, BackoffLimit: &limit, CompletionMode: &mode,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "main", Image: "busybox"}}}}},
	}
	if indexed && rapid.Bool().Draw(t, "perIndex") {
		per := rapid.Int32Range(0, 2).Draw(t, "backoffLimitPerIndex")
		job.Spec.BackoffLimitPerIndex = &per
	}
	replace := workloads.JobReplaceTerminatingOrFailed
	if rapid.Bool().Draw(t, "policy") {
		main := "main"
		rules := []api.PodFailurePolicyRule{
			{Action: workloads.JobActionFailJob, OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{ContainerName: &main, Operator: "In", Values: []int32{42}}},
			{Action: workloads.JobActionIgnore, OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: api.DisruptionTarget, Status: api.ConditionTrue}}},
		}
		if job.Spec.BackoffLimitPerIndex != nil {
			rules = append(rules, api.PodFailurePolicyRule{Action: workloads.JobActionFailIndex,
				OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: "In", Values: []int32{3}}})
		}
		job.Spec.PodFailurePolicy = &api.PodFailurePolicy{Rules: rules}
		replace = workloads.JobReplaceFailed
	} else if rapid.Bool().Draw(t, "replaceFailed") {
		replace = workloads.JobReplaceFailed
	}
	job.Spec.PodReplacementPolicy = &replace
	return job
}

// TestRapidJobCountsNeverDecrease drives a JobController through random
// pod exits, evictions and syncs (the story world of TestStoriesJob): the
// Job's failed and succeeded counts never decrease, it never reports more
// active pods than its parallelism, and a finished Job creates no pod.
func TestRapidJobCountsNeverDecrease(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &jobStory{m: workloads.NewJobController(workloads.JobConfig{}), job: genJob(t)}
		par := *s.job.Spec.Parallelism
		at := time.Duration(0)
		prev := api.JobStatus{}
		for step := range rapid.IntRange(1, 25).Draw(t, "steps") {
			input := "Sync"
			var running []string
			for _, p := range s.pods {
				if !p.Status.Phase.IsTerminal() {
					running = append(running, p.Name)
				}
			}
			if len(running) > 0 && rapid.Bool().Draw(t, fmt.Sprint("event", step)) {
				name := rapid.SampledFrom(running).Draw(t, fmt.Sprint("pod", step))
				switch rapid.IntRange(0, 4).Draw(t, fmt.Sprint("kind", step)) {
				case 0, 1:
					input = "Succeed(" + name + ")"
				case 2:
					input = "Evict(" + name + ")"
				default:
					input = fmt.Sprintf("Fail(%s, %d)", name, rapid.SampledFrom([]int{1, 3, 42}).Draw(t, fmt.Sprint("code", step)))
				}
			}
			at += time.Duration(rapid.IntRange(0, 30).Draw(t, fmt.Sprint("wait", step))) * time.Second
			finished := jobIsFinished(s.job)
			before := len(s.pods)
			if _, err := s.Step(at, input); err != nil {
				t.Fatal(err)
			}
			st := s.job.Status
			if st.Failed < prev.Failed || st.Succeeded < prev.Succeeded {
				t.Fatalf("step %d (%s): failed %d→%d, succeeded %d→%d", step, input, prev.Failed, st.Failed, prev.Succeeded, st.Succeeded)
			}
			if st.Active > par {
				t.Fatalf("step %d: active %d above parallelism %d", step, st.Active, par)
			}
			if finished && len(s.pods) > before {
				t.Fatalf("step %d: a finished Job created pods", step)
			}
			prev = st
		}
	})
}

func jobIsFinished(job *api.Job) bool {
	return slices.ContainsFunc(job.Status.Conditions, func(c api.WorkloadCondition) bool {
		return (c.Type == workloads.JobConditionFailed || c.Type == workloads.JobConditionComplete) && c.Status == api.ConditionTrue
	})
}

// TestRapidJobIgnoredFailuresNotCounted: a failed pod that the pod
// failure policy's Ignore rule matches (an evicted pod, DisruptionTarget
// True) never counts. Added to any sync of a Job without
// backoffLimitPerIndex, it changes neither status.failed nor the Job's
// conditions (so never reaches backoffLimit). With backoffLimitPerIndex
// the replacement of such a pod inherits its job-index-failure-count
// unchanged (only the ignored count grows); the sync's own counts may
// differ there, because upstream's choice of the failed pod whose
// finalizer waits for the index's replacement considers every failed pod
// of the index, ignored ones included.
func TestRapidJobIgnoredFailuresNotCounted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		job := genJob(t)
		if job.Spec.PodFailurePolicy == nil {
			job.Spec.PodFailurePolicy = &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: workloads.JobActionIgnore,
				OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: api.DisruptionTarget, Status: api.ConditionTrue}}}}}
			failed := workloads.JobReplaceFailed
			job.Spec.PodReplacementPolicy = &failed
		}
		job.Status.StartTime = api.NewTimePtr(jobNow.Add(-time.Hour))
		job.Status.Failed = rapid.Int32Range(0, 3).Draw(t, "alreadyFailed")
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 6).Draw(t, "pods") {
			pods = append(pods, genJobPod(t, job, fmt.Sprintf("job-%d", i), false))
		}
		if job.Spec.BackoffLimitPerIndex != nil {
			evicted := genJobPod(t, job, "job-evicted", true)
			evicted.Annotations[workloads.JobIndexFailureCountAnnotation] = fmt.Sprint(rapid.IntRange(0, 5).Draw(t, "count"))
			ix, _ := strconv.Atoi(evicted.Annotations[workloads.JobCompletionIndexAnnotation])
			repl, err := workloads.JobPod(job, ix, evicted)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := repl.Annotations[workloads.JobIndexFailureCountAnnotation], evicted.Annotations[workloads.JobIndexFailureCountAnnotation]; got != want {
				t.Fatalf("replacement's failure count %s, the ignored pod's %s", got, want)
			}
			return
		}
		base, err := workloads.SyncJob(job, pods, workloads.JobConfig{}, jobNow)
		if err != nil {
			t.Fatal(err)
		}
		with := append(slices.Clone(pods), genJobPod(t, job, "job-evicted", true))
		got, err := workloads.SyncJob(job, with, workloads.JobConfig{}, jobNow)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.Failed != base.Status.Failed {
			t.Fatalf("failed %d with the ignored pod, %d without", got.Status.Failed, base.Status.Failed)
		}
		conds := func(s workloads.JobSync) []string {
			var out []string
			for _, c := range s.Status.Conditions {
				out = append(out, c.Type+"/"+c.Reason)
			}
			return out
		}
		if !slices.Equal(conds(got), conds(base)) {
			t.Fatalf("conditions %v with the ignored pod, %v without", conds(got), conds(base))
		}
	})
}

// genJobPod draws one pod of job: running, succeeded or failed with exit 1,
// or (evicted) failed with exit 137 and DisruptionTarget True; Indexed
// Jobs' pods carry an index among the completions.
func genJobPod(t *rapid.T, job *api.Job, name string, evicted bool) *api.Pod {
	ref := workloads.NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: job.Spec.Template.Labels,
			OwnerReferences: []api.OwnerReference{ref}, Finalizers: []string{workloads.JobTrackingFinalizer},
			CreationTimestamp: api.NewTime(jobNow.Add(-10 * time.Minute))},
		Spec:   api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
	if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == workloads.JobIndexed {
		ix := fmt.Sprint(rapid.Int32Range(0, *job.Spec.Completions-1).Draw(t, name+"-index"))
		p.Annotations = map[string]string{workloads.JobCompletionIndexAnnotation: ix}
	}
	exit := func(code int32) {
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
			Terminated: &api.ContainerStateTerminated{ExitCode: code, FinishedAt: api.NewTime(jobNow.Add(-time.Minute))}}}}
	}
	switch {
	case evicted:
		p.Status.Phase = api.PodFailed
		p.Status.Conditions = []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue}}
		exit(137)
	default:
		switch rapid.IntRange(0, 2).Draw(t, name+"-state") {
		case 1:
			p.Status.Phase = api.PodSucceeded
			exit(0)
		case 2:
			p.Status.Phase = api.PodFailed
			exit(1)
		}
	}
	return p
}

// TestRapidJobSyncAnyPods: one sync over any mix of pods (any phase,
// readiness, deletion, finalizer, index annotation — valid, repeated, out
// of range or garbage — and uncounted UIDs in the status) never panics,
// writes the status at most twice, deletes only pods it was given that are
// not finished, and creates at most parallelism pods.
func TestRapidJobSyncAnyPods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		job := genJob(t)
		job.Status.StartTime = api.NewTimePtr(jobNow.Add(-time.Duration(rapid.IntRange(0, 900).Draw(t, "age")) * time.Second))
		if rapid.Bool().Draw(t, "deadline") {
			ads := int64(rapid.IntRange(1, 600).Draw(t, "activeDeadlineSeconds"))
			job.Spec.ActiveDeadlineSeconds = &ads
		}
		if rapid.Bool().Draw(t, "suspend") {
			yes := true
			job.Spec.Suspend = &yes
		}
		ref := workloads.NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
		var pods []*api.Pod
		given := map[string]*api.Pod{}
		for i := range rapid.IntRange(0, 8).Draw(t, "pods") {
			name := fmt.Sprintf("job-%d", i)
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
				Labels: job.Spec.Template.Labels, OwnerReferences: []api.OwnerReference{ref}}}
			if rapid.Bool().Draw(t, name+"-finalizer") {
				p.Finalizers = []string{workloads.JobTrackingFinalizer}
			}
			p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}).Draw(t, name+"-phase")
			if rapid.Bool().Draw(t, name+"-ready") {
				p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
			}
			if rapid.IntRange(0, 3).Draw(t, name+"-deleted") == 0 {
				p.DeletionTimestamp = api.NewTimePtr(jobNow.Add(-time.Second))
			}
			p.Annotations = map[string]string{
				workloads.JobCompletionIndexAnnotation:   rapid.SampledFrom([]string{"0", "1", "2", "4", "9", "-1", "x", ""}).Draw(t, name+"-index"),
				workloads.JobIndexFailureCountAnnotation: rapid.SampledFrom([]string{"0", "1", "3", "-2", "99999999999", "y"}).Draw(t, name+"-count"),
			}
			code := rapid.SampledFrom([]int32{0, 1, 3, 42, 137}).Draw(t, name+"-exit")
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
				Terminated: &api.ContainerStateTerminated{ExitCode: code, FinishedAt: api.NewTime(jobNow.Add(-time.Duration(i) * time.Second))}}}}
			if rapid.Bool().Draw(t, name+"-uncounted") {
				u := &job.Status.UncountedTerminatedPods
				if *u == nil {
					*u = &api.UncountedTerminatedPods{}
				}
				(*u).Failed = append((*u).Failed, p.UID)
			}
			pods = append(pods, p)
			given[name] = p
		}
		res, err := workloads.SyncJob(job, pods, workloads.JobConfig{}, jobNow)
		if err != nil {
			t.Fatal(err)
		}
		if n := res.StatusWrites(); n > 2 {
			t.Fatalf("%d status writes", n)
		}
		for _, p := range res.Deleted() {
			if given[p.Name] != p || p.Status.Phase.IsTerminal() {
				t.Fatalf("deleted %s (%s), not a running pod it was given", p.Name, p.Status.Phase)
			}
		}
		if n := len(res.Created()); n > int(*job.Spec.Parallelism) {
			t.Fatalf("created %d pods, parallelism %d", n, *job.Spec.Parallelism)
		}
	})
}
