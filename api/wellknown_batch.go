package api

// Label keys kube-apiserver's Job strategy writes on a Job's pod template
// when it generates the Job's selector (pkg/registry/batch/job
// generateSelector; k8s.io/api batch/v1 JobNameLabel, ControllerUidLabel
// and their legacy, unprefixed forms), and that the batch validation
// checks (pkg/apis/batch/validation validateGeneratedSelector).
const (
	// LabelJobControllerUID carries the Job's uid on its pods; the
	// generated selector matches on it.
	LabelJobControllerUID = "batch.kubernetes.io/controller-uid"
	// LabelJobName carries the Job's name on its pods.
	LabelJobName = "batch.kubernetes.io/job-name"
	// LabelLegacyJobControllerUID is the unprefixed form of
	// LabelJobControllerUID, still written and required.
	LabelLegacyJobControllerUID = "controller-uid"
	// LabelLegacyJobName is the unprefixed form of LabelJobName.
	LabelLegacyJobName = "job-name"
)

// JobConditionSuspended is the type of the Job condition the Job
// controller sets while spec.suspend holds (k8s.io/api batch/v1
// JobSuspended); the Job strategy reads it to decide whether a suspended
// Job's pod template may change.
const JobConditionSuspended = "Suspended"
