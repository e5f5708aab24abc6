package workloads

import "github.com/podsem/podsem/api"

// The names the Job controller (pkg/controller/job, k8s.io/api/batch/v1)
// writes on the pods it creates and on the Job's status: label, annotation
// and finalizer keys, the condition types and their reasons, the pod
// failure policy actions. Each is spelled here once.

// Keys the Job controller and the API server's Job strategy put on a Job's
// pods.
const (
	// JobControllerUIDLabel carries the Job's UID on its pods; the API
	// server's generated selector matches on it.
	JobControllerUIDLabel = api.LabelJobControllerUID
	// JobNameLabel carries the Job's name on its pods.
	JobNameLabel = api.LabelJobName
	// JobCompletionIndexAnnotation is an Indexed Job pod's completion
	// index, written both as an annotation and (PodIndexLabel, GA) as a
	// label of the same key.
	JobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index"
	// JobIndexFailureCountAnnotation counts the failed pods of one index
	// before this one (backoffLimitPerIndex): a replacement inherits it
	// from the pod it replaces, plus one.
	JobIndexFailureCountAnnotation = "batch.kubernetes.io/job-index-failure-count"
	// JobIndexIgnoredFailureCountAnnotation counts the failures of one
	// index that an Ignore rule of the pod failure policy did not count.
	JobIndexIgnoredFailureCountAnnotation = "batch.kubernetes.io/job-index-ignored-failure-count"
	// JobTrackingFinalizer keeps a finished pod's object until the Job
	// controller has counted it in the Job's status.
	JobTrackingFinalizer = "batch.kubernetes.io/job-tracking"
	// JobCompletionIndexEnv is the environment variable an Indexed Job's
	// containers read their completion index from.
	JobCompletionIndexEnv = "JOB_COMPLETION_INDEX"
)

// Values of a Job's spec.completionMode and spec.podReplacementPolicy.
const (
	// JobNonIndexed: the Job completes after spec.completions successful
	// pods, whichever they are (the API default).
	JobNonIndexed = api.NonIndexedCompletion
	// JobIndexed: each pod has a completion index 0..completions-1 and
	// the Job completes when every index has succeeded once.
	JobIndexed = api.IndexedCompletion
	// JobReplaceTerminatingOrFailed: a pod is replaced as soon as it is
	// terminating (the API default without a pod failure policy).
	JobReplaceTerminatingOrFailed = api.TerminatingOrFailed
	// JobReplaceFailed: a pod is replaced only once it has reached phase
	// Failed (the API default with a pod failure policy).
	JobReplaceFailed = api.FailedPodReplacement
)

// The actions of a pod failure policy rule (batch/v1
// PodFailurePolicyAction).
const (
	// JobActionFailJob fails the whole Job at once and terminates its
	// running pods.
	JobActionFailJob = "FailJob"
	// JobActionFailIndex fails the pod's index (backoffLimitPerIndex
	// only): the index is not retried.
	JobActionFailIndex = "FailIndex"
	// JobActionIgnore does not count the failure towards backoffLimit
	// (or backoffLimitPerIndex); the pod is replaced.
	JobActionIgnore = "Ignore"
	// JobActionCount counts the failure in the usual way.
	JobActionCount = "Count"
)

// The Job condition types (batch/v1 JobConditionType).
const (
	// JobConditionSuspended: spec.suspend holds the Job's pods back.
	JobConditionSuspended = api.JobConditionSuspended
	// JobConditionFailureTarget: the Job will fail; its pods are being
	// terminated. Failed follows once none is left.
	JobConditionFailureTarget = "FailureTarget"
	// JobConditionFailed: the Job has failed (terminal).
	JobConditionFailed = "Failed"
	// JobConditionSuccessCriteriaMet: the Job will succeed; Complete
	// follows once no pod is left running.
	JobConditionSuccessCriteriaMet = "SuccessCriteriaMet"
	// JobConditionComplete: the Job has succeeded (terminal).
	JobConditionComplete = "Complete"
)

// The reasons of the Job controller's conditions, with their messages.
const (
	JobReasonPodFailurePolicy          = "PodFailurePolicy"
	JobReasonBackoffLimitExceeded      = "BackoffLimitExceeded"
	JobReasonDeadlineExceeded          = "DeadlineExceeded"
	JobReasonMaxFailedIndexesExceeded  = "MaxFailedIndexesExceeded"
	JobReasonFailedIndexes             = "FailedIndexes"
	JobReasonSuccessPolicy             = "SuccessPolicy"
	JobReasonCompletionsReached        = "CompletionsReached"
	JobReasonSuspended                 = "JobSuspended"
	JobReasonResumed                   = "JobResumed"
	JobMessageBackoffLimitExceeded     = "Job has reached the specified backoff limit"
	JobMessageDeadlineExceeded         = "Job was active longer than specified deadline"
	JobMessageMaxFailedIndexesExceeded = "Job has exceeded the specified maximal number of failed indexes"
	JobMessageFailedIndexes            = "Job has failed indexes"
	JobMessageCompletionsReached       = "Reached expected number of succeeded pods"
	JobMessageSuspended                = "Job suspended"
	JobMessageResumed                  = "Job resumed"
)
