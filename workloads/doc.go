// Package workloads is kube-controller-manager's workload controllers, the
// controllers that make and replace pods, as Kubernetes v1.36.3 runs them:
// ReplicaSet (pkg/controller/replicaset), Deployment
// (pkg/controller/deployment), StatefulSet (pkg/controller/statefulset),
// DaemonSet (pkg/controller/daemon) and Job (pkg/controller/job). Each
// controller is a pure one-shot sync — the objects the controller's
// informers hold and now in, the API writes it makes and the status it
// writes out — and a machine of podsem's one convention (Step, NextDeadline)
// that adds what the controller remembers between syncs: expectations,
// requeues, back-offs.
//
// The building blocks every controller shares: NewControllerRef and
// ClaimObject, ClaimPods, ClaimReplicaSets (adoption and release by
// controller reference, pkg/controller's ControllerRefManager), and
// PodFromTemplate / CreatePodFromTemplate (the pod a controller sends for a
// new replica, GetPodFromTemplate).
//
// A ReplicaSet (SyncReplicaSet; ReplicaSetController) counts only the active
// pods it controls: matching orphans are adopted, relabeled pods released,
// other controllers' pods ignored. A pod the taint eviction controller
// deleted on an unreachable node stays Terminating, no kubelet confirming
// the kill: the ReplicaSet counts it as gone (terminatingReplicas) and
// replaces it at once. On scale-down it deletes by upstream's ranking
// (RankPodsForDeletion): unscheduled, pending and not-ready pods first, then
// by pod-deletion-cost, co-location with the Deployment's other pods, and
// the most recently ready.
// NewIncrementalReplicaSetController is the same controller fed the pod
// informer's events (ReplicaSetInput.PodEvents) instead of the whole cache
// at every sync: it keeps each set's counts up to date as pods change, so
// a sync costs what changed, and answers exactly as the other.
//
// The Deployment controller manages ReplicaSets, not pods: one sync
// (SyncDeployment; DeploymentController) finds or creates the ReplicaSet of
// the current template and moves pods between it and the old ones within
// maxSurge and maxUnavailable, scales them proportionally when the
// Deployment is scaled mid-rollout, and reports the Progressing and
// Available conditions. The name it gives a new ReplicaSet carries
// upstream's hash of the template (DefaultPodTemplateHash: FNV-32a over the
// Go dump of the core/v1 object), so the names are a real cluster's;
// DeploymentOptions.PodTemplateHash replaces it.
//
// A StatefulSet's pod names are identities: its controller never creates
// pod N while an object named N exists, so its replacement of a pod lost
// with its node waits until pod garbage collection or a force deletion
// removes the object (package termination). ReconcileStatefulSet is its
// whole sync (StatefulSetController the machine): it claims pods and
// ControllerRevisions, hashes the template into a revision exactly as
// kube-controller-manager names it, creates each pod's PersistentVolumeClaims
// before the pod, keeps the claims' owner references as the retention policy
// asks, rolls updates from the highest ordinal down to the partition, and
// writes the status. SyncStatefulSet is the pod management alone, with the
// revisions read from the set's status.
//
// The DaemonSet controller runs one pod per eligible node.
// NodeShouldRunDaemonPod says whether a node should get one and whether one
// already there may stay: the template's nodeSelector and required node
// affinity must match, and its tolerations — plus those the controller adds
// to every daemon pod, so that a node agent survives a not-ready,
// unreachable, cordoned or pressured node — must cover the node's NoSchedule
// and NoExecute taints (only NoExecute ones for staying). NewDaemonPod is
// the pod created for a node, pinned to it by a matchFields metadata.name
// term; SyncDaemonSet is one sync, and DaemonSetController the controller
// with its expectations and failed-pod back-off.
//
// The Job controller is SyncJob for one sync and JobController for the
// controller over time. A Job's pods carry the tracking finalizer until the
// controller has counted them: a finished pod is first recorded in
// status.uncountedTerminatedPods, its finalizer is removed, and only then do
// status.succeeded and status.failed move. Terminal conditions come in two
// steps: FailureTarget (or SuccessCriteriaMet) when the outcome is decided
// and the remaining pods are deleted, Failed (or Complete) once none is left
// terminating. MatchPodFailurePolicy is the pod failure policy's verdict on
// one failed pod. TTLAfterFinishedController is the ttl-after-finished
// controller: a finished Job with spec.ttlSecondsAfterFinished is deleted
// (propagationPolicy Foreground) once the TTL has run out from its finish
// time (JobExpiry).
//
// CronJobController is the cronjob controller (pkg/controller/cronjob):
// its work queue entry for one CronJob and its sync, which calls the API
// server through a CronJobClient (live reads, Job creates and deletes) in
// upstream's order and returns the status to write and the Events. A
// CronJob's Job for the run scheduled at t is CronJobJob, named
// CronJobJobName; the schedule is api.ParseCronSchedule's, read in the
// CronJob's time zone.
//
// Nothing is written anywhere and inputs are never modified. What a
// controller does not model is listed on its functions. Bad input — a nil
// object, a missing spec.replicas — is an error wrapping api.ErrInvalidInput.
package workloads
