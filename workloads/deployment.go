package workloads

import (
	"fmt"
	"math"
	"time"

	"github.com/podsem/podsem/api"
)

// The annotations the Deployment controller keeps on a Deployment and its
// ReplicaSets (pkg/controller/deployment/util).
const (
	// AnnotationDeploymentRevision is the rollout sequence number of a
	// ReplicaSet, and on the Deployment the revision of its new ReplicaSet.
	AnnotationDeploymentRevision = "deployment.kubernetes.io/revision"
	// AnnotationDeploymentRevisionHistory lists the earlier revisions a
	// ReplicaSet served before a rollback made it new again.
	AnnotationDeploymentRevisionHistory = "deployment.kubernetes.io/revision-history"
	// AnnotationDeploymentDesiredReplicas is the Deployment's spec.replicas
	// when the controller last sized the ReplicaSet: a ReplicaSet whose
	// value differs from today's spec.replicas marks a scaling event.
	AnnotationDeploymentDesiredReplicas = "deployment.kubernetes.io/desired-replicas"
	// AnnotationDeploymentMaxReplicas is spec.replicas + maxSurge at that
	// time: the base of the ReplicaSet's share in proportional scaling.
	AnnotationDeploymentMaxReplicas = "deployment.kubernetes.io/max-replicas"
	// AnnotationDeprecatedRollbackTo is the annotation that carries the
	// removed extensions/v1beta1 spec.rollbackTo; it is never copied to a
	// ReplicaSet.
	AnnotationDeprecatedRollbackTo = "deprecated.deployment.rollback.to"
	// AnnotationLastAppliedConfig is kubectl apply's record of the applied
	// manifest; the Deployment controller does not copy it to ReplicaSets.
	AnnotationLastAppliedConfig = "kubectl.kubernetes.io/last-applied-configuration"
)

// The reasons of a Deployment's Progressing and Available conditions
// (pkg/controller/deployment/util).
const (
	// DeploymentReasonReplicaSetUpdated: Progressing True, the rollout
	// made progress (more updated, ready or available pods, fewer old
	// ones); its lastUpdateTime restarts the progress deadline.
	DeploymentReasonReplicaSetUpdated = "ReplicaSetUpdated"
	// DeploymentReasonReplicaSetCreateError: Progressing False, the new
	// ReplicaSet could not be created.
	DeploymentReasonReplicaSetCreateError = "ReplicaSetCreateError"
	// DeploymentReasonNewReplicaSetCreated: Progressing True, the sync
	// created the new ReplicaSet.
	DeploymentReasonNewReplicaSetCreated = "NewReplicaSetCreated"
	// DeploymentReasonFoundNewReplicaSet: Progressing True, set when a
	// Deployment with a deadline but no Progressing condition yet already
	// has its new ReplicaSet.
	DeploymentReasonFoundNewReplicaSet = "FoundNewReplicaSet"
	// DeploymentReasonNewReplicaSetAvailable: Progressing True, the
	// rollout is complete (every replica updated and available).
	DeploymentReasonNewReplicaSetAvailable = "NewReplicaSetAvailable"
	// DeploymentReasonProgressDeadlineExceeded: Progressing False, no
	// progress for progressDeadlineSeconds.
	DeploymentReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	// DeploymentReasonDeploymentPaused: Progressing Unknown while paused.
	DeploymentReasonDeploymentPaused = "DeploymentPaused"
	// DeploymentReasonDeploymentResumed: Progressing Unknown once resumed,
	// so the paused time does not count against the deadline.
	DeploymentReasonDeploymentResumed = "DeploymentResumed"
	// DeploymentReasonMinimumReplicasAvailable: Available True, at least
	// replicas − maxUnavailable pods are available.
	DeploymentReasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	// DeploymentReasonMinimumReplicasUnavailable: Available False, fewer.
	DeploymentReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
)

// The Deployment condition types (apps/v1).
const (
	// DeploymentAvailable: the Deployment has its minimum availability.
	DeploymentAvailable = "Available"
	// DeploymentProgressing: how the rollout is going.
	DeploymentProgressing = "Progressing"
	// DeploymentReplicaFailure: a ReplicaSet's ReplicaFailure condition
	// (say, pods forbidden by a quota) copied to the Deployment.
	DeploymentReplicaFailure = "ReplicaFailure"
)

// maxRevisionHistoryChars bounds the revision-history annotation
// (kube-controller-manager's deployment controller keeps at most 2000
// characters, dropping the oldest revisions first).
const maxRevisionHistoryChars = 2000

// PodTemplateHashFunc computes the pod-template-hash of the ReplicaSet a
// Deployment creates for template, given the Deployment's
// status.collisionCount (nil when none). The value names the ReplicaSet
// (<deployment>-<hash>) and is added to its labels, selector and pod
// template labels.
type PodTemplateHashFunc func(template *api.PodTemplateSpec, collisionCount *int32) string

// DeploymentOptions configures SyncDeployment. The zero value is the
// Deployment controller as kube-controller-manager v1.36.3 ships it,
// naming ReplicaSets with upstream's own hash (DefaultPodTemplateHash).
type DeploymentOptions struct {
	// PodTemplateHash names new ReplicaSets; nil means
	// DefaultPodTemplateHash, the value a real cluster computes. A caller
	// may plug in another function (a cheaper stand-in in a test, say).
	PodTemplateHash PodTemplateHashFunc
}

// safeEncodeString maps each byte of s onto the alphabet apimachinery's
// rand.SafeEncodeString uses, so the result cannot spell words.
func safeEncodeString(s string) string {
	const alphanums = "bcdfghjklmnpqrstvwxz2456789"
	b := []byte(s)
	for i, c := range b {
		b[i] = alphanums[int(c)%len(alphanums)]
	}
	return string(b)
}

// ReplicaSetUpdate is one update of an existing ReplicaSet the Deployment
// controller sends: a new spec.replicas, annotations or minReadySeconds.
type ReplicaSetUpdate struct {
	// Name is the ReplicaSet's name; PreviousReplicas its spec.replicas in
	// the controller's cache, the input of the sync (the same for every
	// update of one ReplicaSet in a sync).
	Name             string
	PreviousReplicas int32
	// ReplicaSet is the object as written: a copy of the cached one with
	// the new spec.replicas, annotations and spec.minReadySeconds (its
	// template, selector and status shared with the input object).
	ReplicaSet *api.ReplicaSet
}

// DeploymentSync is what one sync of the Deployment controller does, as
// values for the caller to carry out, in the order upstream sends them.
type DeploymentSync struct {
	// Adopted and Released name the ReplicaSets whose controller
	// ownerReference the sync patches on (an orphan matching the selector)
	// or off (an owned one that no longer matches), in cache order.
	Adopted, Released []string
	// NewReplicaSet is the ReplicaSet the sync creates (nil when none):
	// named <deployment>-<pod-template-hash>, controlled by the
	// Deployment, with the template and selector carrying the hash label;
	// it shares no map or slice with the inputs.
	NewReplicaSet *api.ReplicaSet
	// Updates are the updates of existing ReplicaSets in the order sent;
	// one ReplicaSet may appear more than once.
	Updates []ReplicaSetUpdate
	// Deleted names the old ReplicaSets the revision history cleanup
	// deletes, oldest revision first.
	Deleted []string
	// StatusUpdated reports whether the sync wrote the Deployment's status
	// (and with it its revision annotation); StatusWrites counts the
	// writes.
	StatusUpdated bool
	StatusWrites  int
	// Revision is the Deployment's deployment.kubernetes.io/revision
	// annotation after the sync ("" when none).
	Revision string
	// Status is the Deployment status last written, else the input's.
	Status api.DeploymentStatus
	// NextCheck is when the controller requeues the Deployment for a
	// progress-deadline check after a rollout step (zero when it does
	// not: no deadline, rollout complete or timed out, a paused or
	// scaling sync): the Progressing condition's lastUpdateTime +
	// progressDeadlineSeconds + 1 s, as upstream's requeueStuckDeployment
	// schedules it.
	NextCheck time.Time
	// Events are the Events the controller records on the Deployment, in
	// order (ScaledReplicaSetEvent): "Scaled up replica set <new> from 0
	// to <n>" for NewReplicaSet (when n > 0; upstream records it once the
	// create succeeded), then one per update that changes a ReplicaSet's
	// spec.replicas.
	Events []api.Event
}

// DeploymentReadsPods reports whether SyncDeployment may read the pods it
// is given for d: only a Recreate rollout does (upstream's
// rolloutRecreate waits until no old pod runs); a RollingUpdate, paused
// or scaling sync reads ReplicaSets alone, whatever the pods, so a caller
// may leave DeploymentInput.Pods empty for such a Deployment and get the
// same sync. A nil Deployment reads nothing.
func DeploymentReadsPods(d *api.Deployment) bool {
	return d != nil && d.Spec.Strategy.Type == api.RecreateDeploymentStrategyType
}

// SyncDeployment runs one sync of the Deployment controller
// (kube-controller-manager's pkg/controller/deployment syncDeployment,
// v1.36.3 with its default feature gates) for d at now, given every
// ReplicaSet in d's namespace in the controller's cache and, for a
// Recreate rollout, the pods of those ReplicaSets. It returns what the
// sync writes; nothing is modified, inputs included.
//
// In order, as upstream: a Deployment selecting everything only records
// its generation; the ReplicaSets are claimed (orphans matching the
// selector adopted, owned ones no longer matching released); a Deployment
// being deleted only gets its status; a paused one, or one whose
// ReplicaSets' desired-replicas annotation differs from spec.replicas (a
// scaling event), is scaled proportionally without rolling out; otherwise
// the Recreate or RollingUpdate strategy takes one step. The new
// ReplicaSet is the oldest whose template equals the Deployment's once
// the pod-template-hash label is ignored; when there is none, the rollout
// creates it, named with opts.PodTemplateHash (DefaultPodTemplateHash by default,
// the name a real cluster gives it). The status carries upstream's counts
// and the Progressing/Available conditions with their reasons and
// messages, Progressing timing out when its lastUpdateTime plus
// progressDeadlineSeconds is before now. Old ReplicaSets beyond
// revisionHistoryLimit are deleted when the Deployment is paused, or when
// its input status already shows the rollout complete (and, for
// RollingUpdate, the step scaled nothing; for Recreate, no old pod
// runs).
//
// Cost: the sync reads ReplicaSets, not pods — only Recreate passes once
// over the pods, allocating nothing per pod — so a 10,000-replica
// Deployment syncs in about 0.1 ms (BenchmarkSyncDeployment).
//
// Like upstream's controller, which reads its informer cache, the sync
// works on the objects as given for the whole sync: the existing new
// ReplicaSet's annotations are synced each time upstream looks it up, so
// an update may be listed twice. A new ReplicaSet whose name is taken in
// the namespace by a ReplicaSet that is not this Deployment's with this
// template is a hash collision: status.collisionCount goes up (written)
// and the sync fails, so the next one hashes differently. Not modelled:
// the deprecated rollback annotation deprecated.deployment.rollback.to
// (an error wrapping errors.ErrUnsupported; a paused Deployment is only
// scaled), API errors.
//
// Bad input — a nil Deployment, a missing spec.replicas or selector, a
// RollingUpdate without rollingUpdate.maxSurge/maxUnavailable (the API
// server defaults them) or with an unparsable or negative one, a
// ReplicaSet without spec.replicas — is an error wrapping
// api.ErrInvalidInput with the zero result. An error upstream's sync
// itself returns (an unknown strategy type, an invalid selector, a hash
// collision) comes back with the writes made before it.
func SyncDeployment(d *api.Deployment, replicaSets []*api.ReplicaSet, pods []*api.Pod, opts DeploymentOptions, now time.Time) (DeploymentSync, error) {
	if err := validateDeploymentInput(d, replicaSets); err != nil {
		return DeploymentSync{}, err
	}
	s := newDeploymentSyncer(d, opts, now)
	err := s.syncDeployment(replicaSets, pods)
	s.res.Revision = s.d.Annotations[AnnotationDeploymentRevision]
	s.res.Status = s.d.Status
	return s.res, err
}

func validateDeploymentInput(d *api.Deployment, replicaSets []*api.ReplicaSet) error {
	if d == nil {
		return fmt.Errorf("%w: deployment: nil", errInvalidInput)
	}
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 0 {
		return fmt.Errorf("%w: deployment %s/%s: spec.replicas: %s", errInvalidInput, d.Namespace, d.Name, ptrString(d.Spec.Replicas))
	}
	if d.Spec.Selector == nil {
		return fmt.Errorf("%w: deployment %s/%s: spec.selector: nil", errInvalidInput, d.Namespace, d.Name)
	}
	if d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType {
		ru := d.Spec.Strategy.RollingUpdate
		if ru == nil {
			return fmt.Errorf("%w: deployment %s/%s: spec.strategy.rollingUpdate: nil (the API server defaults it)", errInvalidInput, d.Namespace, d.Name)
		}
		for _, f := range []struct {
			name string
			v    *api.IntOrString
		}{{"maxSurge", ru.MaxSurge}, {"maxUnavailable", ru.MaxUnavailable}} {
			if f.v == nil {
				return fmt.Errorf("%w: deployment %s/%s: spec.strategy.rollingUpdate.%s: nil (the API server defaults it to 25%%)", errInvalidInput, d.Namespace, d.Name, f.name)
			}
			n, err := api.ScaledValueFromIntOrPercent(f.v, int(*d.Spec.Replicas), true)
			if err != nil || n < 0 || n > math.MaxInt32 {
				return fmt.Errorf("%w: deployment %s/%s: spec.strategy.rollingUpdate.%s: %q", errInvalidInput, d.Namespace, d.Name, f.name, f.v.String())
			}
		}
	}
	for i, rs := range replicaSets {
		if rs == nil {
			continue
		}
		if rs.Spec.Replicas == nil || *rs.Spec.Replicas < 0 {
			return fmt.Errorf("%w: replicaSets[%d] %s/%s: spec.replicas: %s", errInvalidInput, i, rs.Namespace, rs.Name, ptrString(rs.Spec.Replicas))
		}
	}
	return nil
}
