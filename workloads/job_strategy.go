package workloads

import "github.com/podsem/podsem/api"

// The legacy, unprefixed forms of the Job's pod labels, which the API
// server's Job strategy still writes beside JobNameLabel and
// JobControllerUIDLabel (k8s.io/api batch/v1 LegacyJobNameLabel,
// LegacyControllerUidLabel).
const (
	LegacyJobNameLabel       = api.LabelLegacyJobName
	LegacyJobControllerLabel = api.LabelLegacyJobControllerUID
)

// GenerateJobSelector is what kube-apiserver's Job strategy does to a Job
// on create unless spec.manualSelector is true (pkg/registry/batch/job
// generateSelectorIfNeeded): the template gets the job-name and
// controller-uid labels, legacy and prefixed, where unset, with the Job's
// name and uid; the selector gets matchLabels
// batch.kubernetes.io/controller-uid = uid where unset. It runs after the
// API server has given the Job its uid. A nil Job is left alone.
func GenerateJobSelector(job *api.Job) {
	if job == nil || (job.Spec.ManualSelector != nil && *job.Spec.ManualSelector) {
		return
	}
	if job.Spec.Template.Labels == nil {
		job.Spec.Template.Labels = map[string]string{}
	}
	for _, kv := range [][2]string{
		{LegacyJobNameLabel, job.Name}, {JobNameLabel, job.Name},
		{LegacyJobControllerLabel, job.UID}, {JobControllerUIDLabel, job.UID},
	} {
		if _, ok := job.Spec.Template.Labels[kv[0]]; !ok {
			job.Spec.Template.Labels[kv[0]] = kv[1]
		}
	}
	if job.Spec.Selector == nil {
		job.Spec.Selector = &api.LabelSelector{}
	}
	if job.Spec.Selector.MatchLabels == nil {
		job.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := job.Spec.Selector.MatchLabels[JobControllerUIDLabel]; !ok {
		job.Spec.Selector.MatchLabels[JobControllerUIDLabel] = job.UID
	}
}
