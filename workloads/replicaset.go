package workloads

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// BurstReplicas is the most pods one ReplicaSet sync creates or deletes
// (pkg/controller/replicaset BurstReplicas, the value kube-controller-manager
// starts the controller with); the rest wait for the next sync.
const BurstReplicas = 500

// ReplicaFailure is the ReplicaSet condition type the controller sets
// when it failed to create or delete pods (apps/v1
// ReplicaSetReplicaFailure), with reason FailedCreate or FailedDelete and
// the API error as message.
const ReplicaFailure = "ReplicaFailure"

// The ReplicaFailure reasons.
const (
	ReasonFailedCreate = "FailedCreate"
	ReasonFailedDelete = "FailedDelete"
)

// ReplicaSetInput is what one sync of the ReplicaSet controller reads: the
// ReplicaSet and what the controller's informer caches hold, plus how the
// API server answers this sync's pod creations.
type ReplicaSetInput struct {
	// ReplicaSet is the set being synced, as stored (spec.replicas set:
	// the API server defaults it to 1).
	ReplicaSet *api.ReplicaSet
	// Pods are the pods the controller's cache holds; those outside the
	// set's namespace are ignored, and so are pods controlled by another
	// owner. Nil entries are skipped. A controller made by
	// NewIncrementalReplicaSetController reads PodEvents instead: Pods
	// must be nil.
	Pods []*api.Pod
	// PodEvents are, for a controller made by
	// NewIncrementalReplicaSetController, the changes of the pod informer
	// cache since the controller's previous Step, in the order they
	// happened (each pod's changes in order; only the last state of each
	// pod matters). A controller given whole caches refuses them.
	PodEvents []PodChange
	// OtherReplicaSets are the other ReplicaSets the cache holds. Those
	// controlled by the set's own controller (the other ReplicaSets of
	// its Deployment) decide the co-location rank of the deletion
	// ranking; the rest are ignored. Nil entries are skipped.
	OtherReplicaSets []*api.ReplicaSet
	// AcceptCreates, when not nil, is how many pod creations the API
	// server accepts during this sync (a ResourceQuota nearly used up,
	// say); the later ones fail with CreateError. Nil accepts all.
	AcceptCreates *int
	// CreateError is the API error a refused creation returns; nil gives
	// ErrPodCreateRefused.
	CreateError error
	// Deleted says the set is gone from the informer cache, ReplicaSet
	// being its last state: the controller forgets it — expectations,
	// failure count, requeue — as upstream's sync of a key whose set is
	// not found deletes its expectations and forgets its back-off, and
	// the sync is empty (an incremental controller still applies
	// PodEvents). A retry queued for a deleted set thus does nothing.
	Deleted bool
}

// ErrPodCreateRefused is the error of a pod creation the API server
// refuses when ReplicaSetInput.CreateError does not say which.
var ErrPodCreateRefused = errors.New("pods is forbidden: pod creation refused")

// ReplicaSetExpectations are the pod creations and deletions a ReplicaSet
// controller has asked for and not yet seen in its cache
// (pkg/controller ControlleeExpectations). While any is pending (and not
// expired, 5 minutes after it was set), a sync only writes status.
type ReplicaSetExpectations struct {
	Add, Del int
}

// Satisfied reports whether nothing is pending: both counts at or below 0.
func (e ReplicaSetExpectations) Satisfied() bool { return e.Add <= 0 && e.Del <= 0 }

// ReplicaSetSync is the outcome of one sync of a ReplicaSet: the patches,
// creates and deletes it sends, in upstream's order, and the status.
type ReplicaSetSync struct {
	// Adopted are the matching orphans the controller claims by patching
	// its controller reference onto them (AdoptOwnerReferences), in the
	// order given; Released the owned pods that no longer match, whose
	// reference it patches away (ReleaseOwnerReferences).
	Adopted, Released []*api.Pod
	// Managed reports whether the sync managed replicas at all: false
	// while expectations are pending or the set is being deleted.
	Managed bool
	// Create is how many pods the sync wanted to create (the deficit, at
	// most BurstReplicas); CreateAttempts how many create requests it
	// sent, in slow-start batches of 1, 2, 4, … that stop after a batch
	// with a failure; Created how many the API server accepted.
	Create, CreateAttempts, Created int
	// NewPod is the pod each creation sends (CreatePodFromTemplate; the
	// API server names each one from its generateName), nil when the
	// sync creates nothing.
	NewPod *api.Pod
	// Delete are the pods deleted, first the most preferred victim of the
	// deletion ranking (see RankPodsForDeletion).
	Delete []*api.Pod
	// Status is the set's status after the sync: the one written when
	// StatusUpdated, else the input's.
	Status api.ReplicaSetStatus
	// StatusUpdated reports whether the controller writes the status: it
	// does unless nothing changed and status.observedGeneration already
	// equals metadata.generation.
	StatusUpdated bool
	// Err is the error the sync returns (a failed create, say; the
	// controller requeues the set with back-off). It is not bad input.
	Err error
	// Expectations are what the controller waits to observe after the
	// sync: the successful creations or the requested deletions, or the
	// pending ones when it did not manage replicas.
	Expectations ReplicaSetExpectations
	// RequeueAfter is, when the sync succeeded, minReadySeconds is set
	// and some replica is ready but not yet available, the time until
	// the first such replica becomes available: upstream syncs the set
	// again then (FindMinNextPodAvailabilityCheck), in case no pod event
	// comes. 0 otherwise.
	RequeueAfter time.Duration
	// Events are the Events the controller records on the ReplicaSet
	// (RealPodControl, source ReplicaSetControllerName): FailedCreate
	// "Error creating: <error>" per refused create, then SuccessfulDelete
	// "Deleted pod: <name>" per delete. The SuccessfulCreate of each
	// accepted create names the pod the API server generated: the caller
	// records PodCreatedEvent once it has it.
	Events []api.Event
}

// SyncReplicaSet is one sync of the ReplicaSet controller
// (kube-controller-manager's pkg/controller/replicaset syncReplicaSet) for
// in.ReplicaSet at now, with pending the expectations left by earlier
// syncs. As v1.36.3 does it, with the default feature gates
// (PodDeletionCost, LogarithmicScaleDown,
// DeploymentReplicaSetTerminatingReplicas):
//
//   - Ownership first. Of the pods in the set's namespace, the active ones
//     (not Succeeded, Failed or terminating) are claimed (ClaimPods): pods
//     the set controls and its selector matches are its replicas;
//     matching orphans are adopted and count at once; controlled pods that
//     no longer match are released; pods of other controllers never count,
//     whatever their labels.
//   - Unless expectations are pending or the set is being deleted, the
//     replicas are compared with spec.replicas: a deficit is created (at
//     most BurstReplicas) in slow-start batches 1, 2, 4, … that stop after
//     a batch with a failure; an excess is deleted (at most BurstReplicas),
//     the victims chosen by RankPodsForDeletion with co-location counted
//     over the pods of every ReplicaSet sharing this set's controller.
//   - The status counts the claimed replicas before this sync's creates and
//     deletes: replicas, fullyLabeledReplicas (every template label
//     present), readyReplicas, availableReplicas (ready for
//     minReadySeconds at now), terminatingReplicas (controlled, matching,
//     terminating and not terminal); a failed create adds the
//     ReplicaFailure condition (FailedCreate, the API error) unless one is
//     there already, a sync without error removes it; observedGeneration
//     is the generation when the status is written.
//
// Not modelled: failed deletes and failed adoption patches (every delete
// and patch succeeds). A nil set, a missing or negative
// spec.replicas or a selector that does not compile is an error wrapping
// api.ErrInvalidInput (upstream skips such a set).
func SyncReplicaSet(in ReplicaSetInput, pending ReplicaSetExpectations, now time.Time) (ReplicaSetSync, error) {
	v, err := newRSView(in.ReplicaSet)
	if err != nil {
		return ReplicaSetSync{}, err
	}
	var res ReplicaSetSync
	claimed := make([]*api.Pod, 0, len(in.Pods))
	// The status counts the replicas as they were before this sync acted
	// (calculateStatus over the claimed pods), in the same pass, and
	// next is when the first of them waiting out minReadySeconds becomes
	// available.
	var t rsTally
	var next time.Time
	for _, p := range in.Pods {
		if p == nil {
			continue
		}
		c := v.classify(p, now)
		t.add(c, 1)
		switch c.role {
		case rsAdopted:
			res.Adopted = append(res.Adopted, p)
		case rsReleased:
			res.Released = append(res.Released, p)
		}
		if c.claimed() {
			claimed = append(claimed, p)
			if c.ready && !c.available {
				next = nextAvailability(next, p, in.ReplicaSet.Spec.MinReadySeconds, now)
			}
		}
	}
	v.finish(&res, in, pending, t, next, func() ([]*api.Pod, []*api.Pod) { return claimed, in.Pods }, now)
	return res, nil
}

// nextAvailability is next or, when sooner, the time pod — ready, not
// yet available at now — becomes available: minReadySeconds after its
// Ready condition's lastTransitionTime (the controllers'
// FindMinNextPodAvailabilityCheck takes the earliest over the pods).
func nextAvailability(next time.Time, pod *api.Pod, minReadySeconds int32, now time.Time) time.Time {
	c := api.FindCondition(pod.Status.Conditions, api.PodReady)
	if c == nil || c.Status != api.ConditionTrue || c.LastTransitionTime.IsZero() {
		return next
	}
	at := c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second)
	if !at.After(now) {
		return next
	}
	return api.EarliestDeadline(next, at)
}

// rsView is a ReplicaSet read once for the classification of many pods:
// its compiled selector and its template labels.
type rsView struct {
	rs  *api.ReplicaSet
	sel api.Selector
	// tmpl are the template labels; tmplInSelector reports that the
	// selector's matchLabels require every one of them, so that a pod it
	// matches is fully labeled.
	tmpl           labelPairs
	tmplInSelector bool
}

// newRSView reads rs, refusing what SyncReplicaSet refuses: a nil set, a
// missing or negative spec.replicas, a selector that does not compile.
func newRSView(rs *api.ReplicaSet) (rsView, error) {
	if rs == nil {
		return rsView{}, fmt.Errorf("%w: replicaset: nil", errInvalidInput)
	}
	if rs.Spec.Replicas == nil || *rs.Spec.Replicas < 0 {
		return rsView{}, fmt.Errorf("%w: replicaset %s/%s: spec.replicas: %v", errInvalidInput, rs.Namespace, rs.Name, ptrString(rs.Spec.Replicas))
	}
	sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		return rsView{}, fmt.Errorf("%w: replicaset %s/%s: spec.selector: %v", errInvalidInput, rs.Namespace, rs.Name, err)
	}
	v := rsView{rs: rs, sel: sel, tmpl: newLabelPairs(rs.Spec.Template.Labels), tmplInSelector: rs.Spec.Selector != nil}
	for _, w := range v.tmpl {
		if !v.tmplInSelector {
			break
		}
		if val, ok := rs.Spec.Selector.MatchLabels[w.key]; !ok || val != w.value {
			v.tmplInSelector = false
		}
	}
	return v, nil
}

// rsRole is what a pod is to a sync of one ReplicaSet.
type rsRole uint8

const (
	// rsIgnored: outside the namespace, of another controller, or
	// inactive and not a terminating replica.
	rsIgnored rsRole = iota
	// rsTerminating: controlled, matching, being deleted and not
	// terminal (terminatingReplicas).
	rsTerminating
	// rsOwned: an active replica, controlled and matching.
	rsOwned
	// rsAdopted: an active matching orphan the sync adopts (a replica).
	rsAdopted
	// rsReleased: an active controlled pod the selector no longer
	// matches, which the sync releases.
	rsReleased
)

// rsPodClass is what one pod contributes to a sync of one ReplicaSet: its
// role and, for a replica, whether it counts as fully labeled, ready and
// available.
type rsPodClass struct {
	role                           rsRole
	fullyLabeled, ready, available bool
}

// claimed reports a replica: owned or adopted.
func (c rsPodClass) claimed() bool { return c.role == rsOwned || c.role == rsAdopted }

// classify is p's part in a sync of the set at now (ClaimPods' claim of
// an active pod, calculateStatus' counts of a replica, the terminating
// count of an inactive one).
func (v *rsView) classify(p *api.Pod, now time.Time) rsPodClass {
	rs := v.rs
	if p == nil || p.Namespace != rs.Namespace {
		return rsPodClass{}
	}
	matches := v.sel.Matches(api.Set(p.Labels))
	if !isPodActive(p) {
		if p.DeletionTimestamp != nil && !isPodTerminal(p) {
			if ref := p.ControllerRef(); ref != nil && ref.UID == rs.UID && matches {
				return rsPodClass{role: rsTerminating}
			}
		}
		return rsPodClass{}
	}
	var c rsPodClass
	switch ClaimObject(&rs.ObjectMeta, &p.ObjectMeta, matches) {
	case ClaimAdopt:
		c.role = rsAdopted
	case ClaimRelease:
		return rsPodClass{role: rsReleased}
	case ClaimIgnored:
		return rsPodClass{}
	default:
		c.role = rsOwned
	}
	// A claimed pod matches the selector; when the selector requires
	// every template label, it carries them all.
	c.fullyLabeled = v.tmplInSelector || v.tmpl.allIn(p.Labels)
	c.ready, c.available = api.PodReadiness(p, rs.Spec.MinReadySeconds, now)
	return c
}

// rsTally are the counts of the set's status, summed over the pods'
// classes.
type rsTally struct {
	replicas, fullyLabeled, ready, available, terminating int32
}

// add adds c's counts to t, sign times (1 to add, -1 to take away).
func (t *rsTally) add(c rsPodClass, sign int32) {
	if c.role == rsTerminating {
		t.terminating += sign
	}
	if !c.claimed() {
		return
	}
	t.replicas += sign
	if c.fullyLabeled {
		t.fullyLabeled += sign
	}
	if c.ready {
		t.ready += sign
	}
	if c.available {
		t.available += sign
	}
}

// finish completes the sync of v's set into res, which holds the
// adoptions and releases: the status from t, the management of the
// replicas unless expectations are pending (pool gives the claimed pods
// and the pods to rank them among, in the cache's order; called only to
// scale down), the events, the ReplicaFailure condition and the
// minReadySeconds requeue.
func (v *rsView) finish(res *ReplicaSetSync, in ReplicaSetInput, pending ReplicaSetExpectations, t rsTally, next time.Time, pool func() (claimed, pods []*api.Pod), now time.Time) {
	rs := v.rs
	res.Expectations = pending
	status := rs.Status
	status.Replicas = t.replicas
	status.FullyLabeledReplicas, status.ReadyReplicas, status.AvailableReplicas = t.fullyLabeled, t.ready, t.available
	terminating := t.terminating
	status.TerminatingReplicas = &terminating

	var manageErr error
	if pending.Satisfied() && rs.DeletionTimestamp == nil {
		res.Managed = true
		manageErr = manageReplicas(res, in, int(t.replicas), pool, now)
	}
	res.Err = manageErr
	owner := WorkloadReference("ReplicaSet", "apps/v1", &rs.ObjectMeta)
	for i := res.Created; manageErr != nil && i < res.CreateAttempts; i++ {
		res.Events = append(res.Events, PodCreateFailedEvent(owner, ReplicaSetControllerName, manageErr))
	}
	for _, p := range res.Delete {
		res.Events = append(res.Events, PodDeletedEvent(owner, ReplicaSetControllerName, p.Name))
	}

	failure := findWorkloadCondition(rs.Status.Conditions, ReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		reason := ""
		if diff := int(t.replicas) - int(*rs.Spec.Replicas); diff < 0 {
			reason = ReasonFailedCreate
		} else if diff > 0 {
			reason = ReasonFailedDelete
		}
		status.Conditions = append(withoutCondition(rs.Status.Conditions, ReplicaFailure), api.WorkloadCondition{
			Type: ReplicaFailure, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now), Reason: reason, Message: manageErr.Error(),
		})
	case manageErr == nil && failure != nil:
		status.Conditions = withoutCondition(rs.Status.Conditions, ReplicaFailure)
	default:
		status.Conditions = rs.Status.Conditions
	}

	old := &rs.Status
	if old.Replicas == status.Replicas && old.FullyLabeledReplicas == status.FullyLabeledReplicas &&
		old.ReadyReplicas == status.ReadyReplicas && old.AvailableReplicas == status.AvailableReplicas &&
		equalInt32Ptr(old.TerminatingReplicas, status.TerminatingReplicas) &&
		rs.Generation == old.ObservedGeneration && equalWorkloadConditions(old.Conditions, status.Conditions) {
		res.Status = rs.Status
	} else {
		status.ObservedGeneration = rs.Generation
		res.Status = status
		res.StatusUpdated = true
	}

	if manageErr == nil {
		res.RequeueAfter = availabilityRequeue(rs.Spec.MinReadySeconds, res.Status.ReadyReplicas, res.Status.AvailableReplicas, next, now)
	}
}

// availabilityRequeue is when a ReplicaSet or StatefulSet controller
// plans its next look after a sync that wrote (or kept) status counts
// ready and available: with minReadySeconds and a replica ready but not
// yet available, when the first such one (next) becomes available, else
// minReadySeconds on as the fallback; 0 for no requeue (v1.36.3's
// syncReplicaSet and syncStatefulSet: the "last line of defense" of the
// availability check).
func availabilityRequeue(minReadySeconds, ready, available int32, next, now time.Time) time.Duration {
	if minReadySeconds <= 0 || ready == available {
		return 0
	}
	if next.After(now) {
		return next.Sub(now)
	}
	return time.Duration(minReadySeconds) * time.Second
}

// manageReplicas creates or deletes pods so the set, which has replicas
// claimed pods, heads for spec.replicas, recording in res what it sends;
// pool lists the claimed pods and the pods that rank them (see finish).
func manageReplicas(res *ReplicaSetSync, in ReplicaSetInput, replicas int, pool func() (claimed, pods []*api.Pod), now time.Time) error {
	rs := in.ReplicaSet
	diff := replicas - int(*rs.Spec.Replicas)
	switch {
	case diff < 0:
		n := min(-diff, BurstReplicas)
		res.Create = n
		ref := NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
		pod, err := CreatePodFromTemplate(&rs.Spec.Template, rs.Name, "", &ref)
		if err != nil {
			// Refused before any request is sent: the first batch fails.
			res.Expectations = ReplicaSetExpectations{}
			return err
		}
		pod.Namespace = rs.Namespace
		res.NewPod = pod
		accept := n
		if in.AcceptCreates != nil {
			accept = max(*in.AcceptCreates, 0)
		}
		createErr := in.CreateError
		if createErr == nil {
			createErr = ErrPodCreateRefused
		}
		if accept < n && errors.Is(createErr, namespace.ErrTerminating) {
			// The namespace is being deleted: upstream's create callback
			// takes the refusal for success, so the creates are expected
			// (until the expectations expire) and nothing is recorded.
			res.CreateAttempts, res.Created = n, accept
			res.Expectations = ReplicaSetExpectations{Add: n}
			return nil
		}
		var err2 error
		remaining := n
		for batch := min(remaining, 1); batch > 0; batch = min(2*batch, remaining) {
			res.CreateAttempts += batch
			ok := min(batch, accept-res.Created)
			res.Created += ok
			if ok < batch {
				err2 = createErr
				break
			}
			remaining -= batch
		}
		res.Expectations = ReplicaSetExpectations{Add: res.Created}
		return err2
	case diff > 0:
		n := min(diff, BurstReplicas)
		// Upstream sorts only when it keeps some pods (when all go, they go
		// in its cache's order, which is no order); they are listed in the
		// ranking's order either way.
		claimed, pods := pool()
		if len(claimed) > 1 {
			rankClaimedForDeletion(rs, in.OtherReplicaSets, pods, claimed, now)
		}
		res.Delete = claimed[:n:n]
		res.Expectations = ReplicaSetExpectations{Del: n}
	}
	return nil
}

// labelPairs are a label map read once into a list, so that checking
// many pods against it iterates no map. The pairs are in key order, so
// that two readings of one map are equal (a controller keeps them).
type labelPairs []struct{ key, value string }

func newLabelPairs(m map[string]string) labelPairs {
	out := make(labelPairs, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, struct{ key, value string }{k, m[k]})
	}
	return out
}

// allIn reports whether labels carries every pair (the template's labels
// as an exact-match selector: fullyLabeledReplicas).
func (l labelPairs) allIn(labels map[string]string) bool {
	for _, w := range l {
		if got, ok := labels[w.key]; !ok || got != w.value {
			return false
		}
	}
	return true
}

// isPodActive is pkg/controller IsPodActive: not Succeeded or Failed, and
// not being deleted.
func isPodActive(p *api.Pod) bool { return !isPodTerminal(p) && p.DeletionTimestamp == nil }

func isPodTerminal(p *api.Pod) bool { return p.Status.Phase.IsTerminal() }

func findWorkloadCondition(conds []api.WorkloadCondition, t string) *api.WorkloadCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// withoutCondition returns a new list without the conditions of type t,
// nil when none remain.
func withoutCondition(conds []api.WorkloadCondition, t string) []api.WorkloadCondition {
	var out []api.WorkloadCondition
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

func equalWorkloadConditions(a, b []api.WorkloadCondition) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastTransitionTime.Equal(y.LastTransitionTime.Time) || !x.LastUpdateTime.Equal(y.LastUpdateTime.Time) ||
			!x.LastProbeTime.Equal(y.LastProbeTime.Time) {
			return false
		}
	}
	return true
}

func equalInt32Ptr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
