package validation_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/workloads"
)

// A Job with a pod failure policy must not restart its containers in
// place: the policy judges a failed pod, so the template's restartPolicy
// has to be Never, as the Job docs' "Pod failure policy" section says.
// The API server refuses the OnFailure one.
func ExampleValidateJob() {
	main := "main"
	job := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "job-pod-failure-policy-example", Namespace: "default", UID: "3f1c0b9e"},
		Spec: api.JobSpec{
			PodFailurePolicy: &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{
				Action:      "FailJob",
				OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{ContainerName: &main, Operator: "In", Values: []int32{42}},
			}}},
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyOnFailure,
				Containers:    []api.Container{{Name: "main", Image: "docker.io/library/bash:5"}},
			}},
		},
	}
	api.DefaultJob(job)                // as the API server decodes it
	workloads.GenerateJobSelector(job) // the Job strategy's generated selector
	errs := validation.ValidateJob(job)
	fmt.Println(validation.InvalidObjectMessage("Job", "batch", job.Name, errs))

	job.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever
	fmt.Println(len(validation.ValidateJob(job)), "errors")
	// Output:
	// Job.batch "job-pod-failure-policy-example" is invalid: spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified
	// 0 errors
}

// A running Job's completions cannot change; an Indexed Job's can, when
// parallelism changes with them (the "Elastic Indexed Jobs" of the Job
// docs).
func ExampleValidateJobUpdate() {
	indexed := api.IndexedCompletion
	three := int32(3)
	old := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: "sample", Namespace: "default", UID: "7a2e", ResourceVersion: "12"},
		Spec: api.JobSpec{
			CompletionMode: &indexed, Completions: &three, Parallelism: &three,
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicyNever,
				Containers:    []api.Container{{Name: "worker", Image: "busybox"}},
			}},
		},
	}
	api.DefaultJob(old)
	workloads.GenerateJobSelector(old)

	grow := old.DeepCopy()
	five := int32(5)
	grow.Spec.Completions = &five
	fmt.Println(validation.InvalidObjectMessage("Job", "batch", grow.Name, validation.ValidateJobUpdate(grow, old)))

	grow.Spec.Parallelism = &five
	fmt.Println(len(validation.ValidateJobUpdate(grow, old)), "errors")
	// Output:
	// Job.batch "sample" is invalid: spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism
	// 0 errors
}
