package workloads

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
)

// maxGeneratedNameLength is the longest generateName prefix the API
// server keeps whole (apiserver's names.MaxGeneratedNameLength: 63 less
// the 5 random characters it appends).
const maxGeneratedNameLength = 58

// JobPod is the pod the Job controller sends to the API server's create
// for a new pod of job (pkg/controller/job manageJob with
// CreatePodsWithGenerateName): the template's labels, annotations and
// spec, the tracking finalizer appended (JobTrackingFinalizer), the Job as
// controller owner, generateName "<job>-". For an Indexed Job (index ≥ 0)
// also:
//
//   - generateName "<job>-<index>-" (the name part cut so the prefix stays
//     within 58 characters);
//   - the completion index as annotation and label
//     (JobCompletionIndexAnnotation);
//   - spec.hostname "<job>-<index>", whether or not the template sets a
//     subdomain;
//   - the JOB_COMPLETION_INDEX environment variable, read from that label
//     by the downward API, on every init and regular container that does
//     not set it already;
//   - with backoffLimitPerIndex, JobIndexFailureCountAnnotation (and
//     JobIndexIgnoredFailureCountAnnotation when not 0) carried over from
//     replaced, the failed pod of the index it replaces (nil: none): its
//     counts plus this failure, counted or ignored as the pod failure
//     policy says.
//
// A non-indexed Job takes index -1. A nil Job, an index on a NonIndexed
// Job or outside an Indexed Job's completions, or a template without
// labels is an error.
func JobPod(job *api.Job, index int, replaced *api.Pod) (*api.Pod, error) {
	if job == nil {
		return nil, fmt.Errorf("%w: job: nil", errInvalidInput)
	}
	spec, skip, err := jobDefaults(job)
	if err != nil {
		return nil, err
	}
	if skip != "" {
		return nil, fmt.Errorf("%w: job %s/%s: spec.completionMode: %s", errInvalidInput, job.Namespace, job.Name, skip)
	}
	switch {
	case !spec.indexed && index != noIndex:
		return nil, fmt.Errorf("%w: job %s/%s: index %d of a NonIndexed Job", errInvalidInput, job.Namespace, job.Name, index)
	case spec.indexed && (index < 0 || index >= int(*spec.completions)):
		return nil, fmt.Errorf("%w: job %s/%s: index %d outside completions %d", errInvalidInput, job.Namespace, job.Name, index, *spec.completions)
	}
	return buildJobPod(job, &spec, index, replaced)
}

func buildJobPod(job *api.Job, spec *jobSpec, index int, replaced *api.Pod) (*api.Pod, error) {
	ref := NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
	generateName := ""
	if index != noIndex {
		generateName = indexedGenerateName(job.Name, index)
	}
	pod, err := CreatePodFromTemplate(&job.Spec.Template, job.Name, generateName, &ref)
	if err != nil {
		return nil, err
	}
	if !hasTrackingFinalizer(pod) {
		pod.Finalizers = append(pod.Finalizers, JobTrackingFinalizer)
	}
	if index == noIndex {
		return pod, nil
	}
	for i := range pod.Spec.InitContainers {
		addCompletionIndexEnv(&pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		addCompletionIndexEnv(&pod.Spec.Containers[i])
	}
	ix := strconv.Itoa(index)
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[JobCompletionIndexAnnotation] = ix
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[JobCompletionIndexAnnotation] = ix
	pod.Spec.Hostname = job.Name + "-" + ix
	if spec.perIndex != nil {
		counted, ignored := inheritedFailureCounts(spec, replaced)
		pod.Annotations[JobIndexFailureCountAnnotation] = strconv.Itoa(int(counted))
		if ignored > 0 {
			pod.Annotations[JobIndexIgnoredFailureCountAnnotation] = strconv.Itoa(int(ignored))
		}
	}
	return pod, nil
}

// indexedGenerateName is "<job>-<index>-", the job name cut so the whole
// stays within maxGeneratedNameLength.
func indexedGenerateName(job string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	if len(job)+len(suffix) > maxGeneratedNameLength {
		job = job[:maxGeneratedNameLength-len(suffix)]
	}
	return job + suffix
}

func addCompletionIndexEnv(c *api.Container) {
	for _, e := range c.Env {
		if e.Name == JobCompletionIndexEnv {
			return
		}
	}
	c.Env = append(c.Env, api.EnvVar{Name: JobCompletionIndexEnv, ValueFrom: &api.EnvVarSource{
		FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.labels['" + JobCompletionIndexAnnotation + "']"},
	}})
}

// inheritedFailureCounts are the failure counts a replacement carries: the
// replaced pod's, plus its own failure as counted or ignored.
func inheritedFailureCounts(spec *jobSpec, replaced *api.Pod) (counted, ignored int32) {
	if replaced == nil {
		return 0, 0
	}
	counted = annotationCount(replaced, JobIndexFailureCountAnnotation)
	ignored = annotationCount(replaced, JobIndexIgnoredFailureCountAnnotation)
	if matchPodFailurePolicy(spec.policy, replaced).CountFailed {
		counted++
	} else {
		ignored++
	}
	return counted, ignored
}
