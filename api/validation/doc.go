// Package validation is the Kubernetes API server's validation, as
// v1.36.3 runs it under default feature gates: what a request must satisfy
// before the object is stored, answered as api.FieldErrors with upstream's
// field paths and error types (its quirks included), so that a refusal
// here is the refusal a real cluster gives. The upstream counterparts are
// pkg/apis/core/validation, pkg/apis/scheduling/validation, apimachinery's
// metadata and DeleteOptions validation, and the pod registry strategy
// (pkg/registry/core/pod) that prepares an object before validating it.
//
// # What it covers
//
// Each request path has one function:
//
//   - POST a pod: ValidatePodCreate. The pod is first prepared as the
//     registry strategy's PrepareForCreate does (status cleared,
//     generation 1, a name from generateName, matchLabelKeys and
//     mismatchLabelKeys merged into topology spread and pod affinity
//     selectors), then validated whole, with the create-only rules.
//   - PUT a pod: ValidatePodUpdate, the update rules (immutable metadata,
//     the few spec fields that may change) over a valid new pod.
//   - Update through the pods/ephemeralcontainers subresource:
//     ValidatePodEphemeralContainersUpdate.
//   - POST or PUT a Deployment, ReplicaSet, StatefulSet, DaemonSet or
//     Job: ValidateWorkloadTemplate, the selector and pod template rules
//     of apps and batch validation; the template alone is
//     ValidatePodTemplateSpec.
//   - POST or PUT a Job: ValidateJob and ValidateJobUpdate, the whole of
//     batch validation as the Job strategy runs it (counts, completion
//     mode, pod failure and success policies, the generated selector,
//     the immutable fields and the suspended-Job template rules).
//   - POST a PriorityClass: ValidatePriorityClass (reserved system-*
//     names, the user-definable maximum, preemptionPolicy).
//   - POST or PUT a ResourceQuota: ValidateResourceQuota and
//     ValidateResourceQuotaUpdate (the names and amounts of spec.hard,
//     scopes and the scope selector, scopes fixed once created); PUT
//     resourcequotas/status: ValidateResourceQuotaStatusUpdate.
//   - POST or PUT a LimitRange: ValidateLimitRange and
//     ValidateLimitRangeUpdate (limit types, resource names, min <=
//     defaultRequest <= default <= max, maxLimitRequestRatio).
//   - DELETE of any object: ValidateDeleteOptions (propagationPolicy,
//     orphanDependents, dryRun).
//   - Object field selectors in a pod, the downward API's field paths:
//     ValidateObjectFieldSelector, ValidateResourceFieldSelector and
//     ValidateDownwardAPIVolumeFile, which the pod checks call for
//     environment variables and downwardAPI volumes; DownwardAPIFieldPaths
//     lists the paths allowed in each mode. Resolving those paths on a
//     node is package downward, which this package imports (never the
//     reverse).
//   - The pod as the API server stores it after a successful create:
//     PrepareForCreate (Pending, the QoS class, the SchedulingGated
//     condition, the label-key merge).
//   - The create path's label-key merge on its own: MergeAffinityLabelKeys,
//     for callers that schedule pods which never went through an API
//     server, as the scheduler only reads the merged selectors.
//
// Pod status updates (pods/status, pods/resize) and PriorityClass
// updates are not covered.
//
// Names follow upstream's: Validate, the API type, and the operation when
// the rules depend on it (ValidatePodCreate, ValidatePodUpdate,
// ValidatePriorityClass for a create).
//
// # Around it
//
// Objects are expected as the API server holds them after decoding and
// v1 defaulting; defaulting is the caller's step (api.DefaultPod,
// api.DefaultPriorityClass, api.DefaultLimitRange). Admission plugins, which mutate or refuse an
// object by what else the cluster holds, are package api/admission, which
// calls into this package. Nothing here modifies its input, reads a
// clock or keeps state; a nil pod or PriorityClass is answered with a
// field error, never a panic (nil DeleteOptions are the empty options).
package validation
