package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

var jobNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// examplePolicyJob is the Kubernetes docs' job-pod-failure-policy-example:
// twelve completions, three at a time; exit code 42 from container main
// fails the Job at once, and disruptions (DisruptionTarget) are ignored.
func examplePolicyJob() *api.Job {
	twelve, three, six := int32(12), int32(3), int32(6)
	main := "main"
	labels := map[string]string{workloads.JobControllerUIDLabel: "uid-pfp", workloads.JobNameLabel: "job-pod-failure-policy-example"}
	return &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "job-pod-failure-policy-example", Namespace: "default", UID: "uid-pfp"},
		Spec: api.JobSpec{
			Completions: &twelve, Parallelism: &three, BackoffLimit: &six,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{workloads.JobControllerUIDLabel: "uid-pfp"}},
			PodFailurePolicy: &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{
				{Action: workloads.JobActionFailJob, OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{
					ContainerName: &main, Operator: "In", Values: []int32{42}}},
				{Action: workloads.JobActionIgnore, OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{
					{Type: api.DisruptionTarget, Status: api.ConditionTrue}}},
			}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever,
				Containers:    []api.Container{{Name: "main", Image: "docker.io/library/bash:5"}},
			}},
		},
		Status: api.JobStatus{StartTime: api.NewTimePtr(jobNow.Add(-2 * time.Minute))},
	}
}

// examplePod is one of the Job's pods, running on node-1 or, with a
// terminated state, failed with that exit code.
func examplePod(job *api.Job, name string, exitCode *int32, conds ...api.PodCondition) *api.Pod {
	ref := workloads.NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
			Labels: job.Spec.Template.Labels, OwnerReferences: []api.OwnerReference{ref},
			Finalizers: []string{workloads.JobTrackingFinalizer}},
		Spec:   api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: conds},
	}
	if exitCode != nil {
		p.Status.Phase = api.PodFailed
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
			Terminated: &api.ContainerStateTerminated{ExitCode: *exitCode, FinishedAt: api.NewTime(jobNow.Add(-5 * time.Second))}}}}
	}
	return p
}

// A pod failure policy that ignores disruptions, as in the Kubernetes
// docs: a pod evicted by a node drain (condition DisruptionTarget) matches
// the Ignore rule and does not count towards backoffLimit; a pod whose
// container main exits with 42 matches the FailJob rule, and its message
// becomes the Job's failure message; any other failure counts as usual.
func ExampleMatchPodFailurePolicy() {
	job := examplePolicyJob()
	policy := job.Spec.PodFailurePolicy
	code42, code1, code137 := int32(42), int32(1), int32(137)

	evicted := examplePod(job, "job-pod-failure-policy-example-b2", &code137,
		api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonEvictionByEvictionAPI})
	v, _ := workloads.MatchPodFailurePolicy(policy, evicted)
	fmt.Printf("evicted: action %s, counts %v\n", v.Action, v.CountFailed)

	v, _ = workloads.MatchPodFailurePolicy(policy, examplePod(job, "job-pod-failure-policy-example-a1", &code42))
	fmt.Printf("exit 42: action %s, counts %v\n  %s\n", v.Action, v.CountFailed, v.JobFailureMessage)

	v, _ = workloads.MatchPodFailurePolicy(policy, examplePod(job, "job-pod-failure-policy-example-c3", &code1))
	fmt.Printf("exit 1: no rule (%d), counts %v\n", v.Rule, v.CountFailed)
	// Output:
	// evicted: action Ignore, counts false
	// exit 42: action FailJob, counts true
	//   Container main for pod default/job-pod-failure-policy-example-a1 failed with exit code 42 matching FailJob rule at index 0
	// exit 1: no rule (-1), counts true
}

// One sync of the Job controller after container main of one pod exited
// with 42: the Job gets the FailureTarget condition with the pod failure
// policy's message, the two running pods are deleted (and counted as
// failed), and Failed follows in a later sync once they are gone.
func ExampleSyncJob() {
	job := examplePolicyJob()
	code42 := int32(42)
	ready := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
	pods := []*api.Pod{
		examplePod(job, "job-pod-failure-policy-example-a1", &code42),
		examplePod(job, "job-pod-failure-policy-example-d4", nil, ready),
		examplePod(job, "job-pod-failure-policy-example-e5", nil, ready),
	}
	res, _ := workloads.SyncJob(job, pods, workloads.JobConfig{}, jobNow)
	for _, a := range res.Actions {
		fmt.Println(a)
	}
	st := res.Status
	fmt.Printf("failed %d, terminating %d\n", st.Failed, *st.Terminating)
	for _, c := range st.Conditions {
		fmt.Printf("%s %s: %s\n", c.Type, c.Reason, c.Message)
	}
	// Output:
	// DeletePod job-pod-failure-policy-example-d4
	// DeletePod job-pod-failure-policy-example-e5
	// WriteStatus
	// RemoveFinalizer job-pod-failure-policy-example-a1
	// RemoveFinalizer job-pod-failure-policy-example-d4
	// RemoveFinalizer job-pod-failure-policy-example-e5
	// WriteStatus
	// failed 3, terminating 2
	// FailureTarget PodFailurePolicy: Container main for pod default/job-pod-failure-policy-example-a1 failed with exit code 42 matching FailJob rule at index 0
}

// The pod an Indexed Job creates for index 2: generateName
// "<job>-<index>-", the completion index as annotation and label, the
// hostname "<job>-<index>", JOB_COMPLETION_INDEX from the label and the
// tracking finalizer.
func ExampleJobPod() {
	three, indexed := int32(3), workloads.JobIndexed
	job := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "sample-job", Namespace: "default", UID: "uid-sample"},
		Spec: api.JobSpec{Completions: &three, Parallelism: &three, CompletionMode: &indexed,
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{workloads.JobControllerUIDLabel: "uid-sample"}},
				Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever,
					Containers: []api.Container{{Name: "worker", Image: "docker.io/library/busybox"}}},
			}},
	}
	p, _ := workloads.JobPod(job, 2, nil)
	fmt.Println(p.GenerateName, p.Spec.Hostname, p.Finalizers)
	fmt.Println(p.Annotations[workloads.JobCompletionIndexAnnotation], p.Labels[workloads.JobCompletionIndexAnnotation])
	env := p.Spec.Containers[0].Env[0]
	fmt.Println(env.Name, "from", env.ValueFrom.FieldRef.FieldPath)
	// Output:
	// sample-job-2- sample-job-2 [batch.kubernetes.io/job-tracking]
	// 2 2
	// JOB_COMPLETION_INDEX from metadata.labels['batch.kubernetes.io/job-completion-index']
}

// The Job controller as a machine: a failed pod is replaced only after the
// pod failure back-off, 10 s after the failure; NextDeadline says when to
// step it again.
func ExampleJobController() {
	one, two := int32(1), int32(2)
	labels := map[string]string{workloads.JobControllerUIDLabel: "uid-pi"}
	job := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default", UID: "uid-pi"},
		Spec: api.JobSpec{Completions: &one, Parallelism: &one, BackoffLimit: &two,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "pi", Image: "perl:5.34.0"}}}}},
		Status: api.JobStatus{StartTime: api.NewTimePtr(jobNow)},
	}
	code1 := int32(1)
	failed := examplePod(job, "pi-x7k2m", &code1) // finished 5 s before jobNow
	m := workloads.NewJobController(workloads.JobConfig{})
	res, _ := m.Step(workloads.JobInput{Job: job, Pods: []*api.Pod{failed}}, jobNow)
	fmt.Println(len(res.Created()), "created; next sync at", m.NextDeadline().Sub(jobNow))
	res, _ = m.Step(workloads.JobInput{Job: job, Pods: []*api.Pod{failed}}, m.NextDeadline())
	fmt.Println(len(res.Created()), "created:", res.Created()[0].GenerateName)
	// Output:
	// 0 created; next sync at 5s
	// 1 created: pi-
}
