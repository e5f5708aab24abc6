package workloads

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// StatefulSetInput is what the StatefulSet controller sees when it syncs
// one set: the set and its namespace's pods, PersistentVolumeClaims and
// ControllerRevisions, as its informers' caches hold them. Objects of
// other namespaces and nil entries are ignored.
type StatefulSetInput struct {
	Set       *api.StatefulSet
	Pods      []*api.Pod
	Claims    []*api.PersistentVolumeClaim
	Revisions []*api.ControllerRevision
	// CreateError, when not nil, is the API server's refusal of every pod
	// create of the set (an admission plugin refusing its pods): the sync
	// fails at its first pod create, with the FailedCreate Event of that
	// pod, and the controller retries with its back-off. Nil accepts them.
	CreateError error
	// ClaimCreateErrors are the API server's refusals of the creates of
	// these PersistentVolumeClaims, by claim name (a ResourceQuota with no
	// room left for them, say): the sync fails at the first pod one of
	// whose claims is refused, with the FailedCreate Events of the claim
	// and of the pod ("failed to create PVC <name>: <error>"), and the
	// controller retries with its back-off. Claims not named are
	// accepted.
	ClaimCreateErrors map[string]error
}

// ControllerRevisionActionKind is what a sync does to one
// ControllerRevision.
type ControllerRevisionActionKind uint8

// The ControllerRevision writes.
const (
	// RevisionAdopt: patch the owner's controller reference onto an
	// orphan revision matching its selector.
	RevisionAdopt ControllerRevisionActionKind = iota + 1
	// RevisionCreate: create the revision of the owner's current template.
	RevisionCreate
	// RevisionUpdate: update the revision to the object given: renumber
	// an older revision equal to the current template (a rollback) to the
	// next revision number, or (DaemonSet) add the controller-revision-hash
	// label a revision lacks.
	RevisionUpdate
	// RevisionDelete: delete a revision beyond revisionHistoryLimit, or
	// (DaemonSet) a duplicate of the current revision.
	RevisionDelete
	// RevisionRelease: (DaemonSet) patch the owner's reference away from
	// a revision it controls that no longer matches its selector.
	RevisionRelease
)

// String names the kind.
func (k ControllerRevisionActionKind) String() string {
	switch k {
	case RevisionAdopt:
		return "AdoptRevision"
	case RevisionCreate:
		return "CreateRevision"
	case RevisionUpdate:
		return "UpdateRevision"
	case RevisionDelete:
		return "DeleteRevision"
	case RevisionRelease:
		return "ReleaseRevision"
	}
	return "ControllerRevisionActionKind(?)"
}

// ControllerRevisionAction is one ControllerRevision write: the revision
// as sent (created, renumbered, adopted) or deleted.
type ControllerRevisionAction struct {
	Kind     ControllerRevisionActionKind
	Revision *api.ControllerRevision
}

// String renders the action, e.g. "CreateRevision web-6949bfdf68 1".
func (a ControllerRevisionAction) String() string {
	if a.Revision == nil {
		return a.Kind.String()
	}
	return fmt.Sprintf("%s %s %d", a.Kind, a.Revision.Name, a.Revision.Revision)
}

// ReconcileStatefulSet computes one whole sync of the StatefulSet
// controller (pkg/controller/statefulset StatefulSetController.sync, v1.36.3
// with default feature gates) for in.Set at now, from the objects its
// caches hold:
//
//  1. ControllerRevisions matching the selector that no controller owns
//     are adopted (refused while the set is being deleted: the sync
//     fails).
//  2. Pods are claimed: an orphan pod named "<set>-<n>" matching the
//     selector is adopted, a pod the set controls that no longer matches
//     (selector or name) is released; pods of other controllers are left
//     alone.
//  3. The revisions: the set's template is hashed into a ControllerRevision
//     (NewStatefulSetRevision, StatefulSetRevisionData). If the newest
//     revision restores the same template (compared by value, the
//     StatefulSetSemanticRevisionComparison gate), it is the update
//     revision; an older equal one is renumbered (a rollback); otherwise
//     one is created — a name taken by a revision with other data bumps
//     the collision count and rehashes. The current revision is the one
//     status.currentRevision names (else the update revision).
//  4. The pods, as SyncStatefulSet describes, with storage: each pod's
//     claims from the volumeClaimTemplates are created before it and for
//     a Pending pod; a claim being deleted fails the sync; a pod whose
//     claim still belongs to a predecessor (whenScaled=Delete) is not
//     created; the claims' owner references are kept as
//     persistentVolumeClaimRetentionPolicy asks (whenDeleted=Delete: the
//     set; whenScaled=Delete: the pod once scaled away), which also
//     rewrites the pod; a pod name taken by a pod the set does not own
//     fails the sync.
//  5. The status (replicas counted before this sync's own creates, a
//     rolling update's delete already counted) is written when it
//     differs from the stored one; a rolling update that reached every
//     replica makes the update revision current.
//  6. History beyond revisionHistoryLimit is deleted, oldest first,
//     except the current and update revisions and those a pod uses.
//
// A sync that fails reports why in Err and still lists the writes made
// before the failure (a revision whose data restores no template fails
// it too, before any pod is touched). in.Set nil, without replicas or
// with a negative ordinals.start is an error wrapping api.ErrInvalidInput.
// The revision's name is upstream's byte for byte for templates whose
// every field api models (see StatefulSetRevisionData).
//
// The result is Kubernetes' answer for v1.36.3's default feature gates;
// cfg turns on MaxUnavailableStatefulSet. Pod and claim writes under
// Parallel management are listed by ordinal (upstream issues them
// concurrently, in batches of 1, 2, 4, ...: a failure stops the sync
// after its batch).
func ReconcileStatefulSet(in StatefulSetInput, cfg StatefulSetConfig, now time.Time) (StatefulSetSync, error) {
	set := in.Set
	if err := checkStatefulSet(set); err != nil {
		return StatefulSetSync{}, err
	}
	var res StatefulSetSync
	selector, err := api.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil {
		// Upstream drops a set with an invalid selector without retrying.
		return res, nil
	}

	// 1. Revisions: list (selector, not another controller's) and adopt
	// orphans.
	var revisions []*api.ControllerRevision
	taken := map[string]*api.ControllerRevision{}
	for _, r := range in.Revisions {
		if r == nil || r.Namespace != set.Namespace {
			continue
		}
		taken[r.Name] = r
		if !selector.Matches(api.Set(r.Labels)) {
			continue
		}
		if ref := r.ControllerRef(); ref == nil || ref.UID == set.UID {
			revisions = append(revisions, r)
		}
	}
	var orphans []int
	for i, r := range revisions {
		if r.ControllerRef() == nil {
			orphans = append(orphans, i)
		}
	}
	// Upstream lists them in its cache's (random) order; by name here, as
	// the pod adoptions.
	slices.SortFunc(orphans, func(a, b int) int { return strings.Compare(revisions[a].Name, revisions[b].Name) })
	if len(orphans) > 0 {
		if set.DeletionTimestamp != nil {
			res.Err = fmt.Errorf("can't adopt ControllerRevisions: %s/%s has just been deleted at %s", set.Namespace, set.Name, set.DeletionTimestamp.UTC().Format(time.RFC3339))
			return res, nil
		}
		for _, i := range orphans {
			r := *revisions[i]
			r.OwnerReferences = AdoptOwnerReferences(r.OwnerReferences, statefulSetRef(set))
			revisions[i] = &r
			res.RevisionActions = append(res.RevisionActions, ControllerRevisionAction{Kind: RevisionAdopt, Revision: &r})
		}
	}

	// 2. Pods: claim.
	var nsPods []*api.Pod
	exists := map[string]bool{}
	for _, p := range in.Pods {
		if p == nil || p.Namespace != set.Namespace {
			continue
		}
		nsPods = append(nsPods, p)
		exists[p.Name] = true
	}
	var claimed []*api.Pod
	var ownership []StatefulSetAction
	for _, p := range nsPods {
		switch ClaimObject(&set.ObjectMeta, &p.ObjectMeta, selector.Matches(api.Set(p.Labels)) && isMemberOf(set, p)) {
		case ClaimOwned:
			claimed = append(claimed, p)
		case ClaimAdopt:
			q := *p
			q.OwnerReferences = AdoptOwnerReferences(p.OwnerReferences, statefulSetRef(set))
			claimed = append(claimed, &q)
			_, ord := statefulParentAndOrdinal(p.Name)
			ownership = append(ownership, StatefulSetAction{Kind: StatefulSetAdopt, Ordinal: ord, Pod: p.Name, Why: "adopt", Object: &q})
		case ClaimRelease:
			q := *p
			q.OwnerReferences = ReleaseOwnerReferences(p.OwnerReferences, set.UID)
			_, ord := statefulParentAndOrdinal(p.Name)
			ownership = append(ownership, StatefulSetAction{Kind: StatefulSetRelease, Ordinal: ord, Pod: p.Name, Why: "release", Object: &q})
		}
	}
	slices.SortStableFunc(ownership, func(a, b StatefulSetAction) int { return strings.Compare(a.Pod, b.Pod) })
	res.Actions = ownership

	// 3. The current and update revisions.
	sortRevisions(revisions)
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	next := nextRevisionNumber(revisions)
	candidate, err := NewStatefulSetRevision(set, next, cc)
	if err != nil {
		return StatefulSetSync{}, err
	}
	key, err := revisionTemplateKey(&set.Spec.Template)
	if err != nil {
		return StatefulSetSync{}, fmt.Errorf("%w: statefulset %s/%s: spec.template: %v", errInvalidInput, set.Namespace, set.Name, err)
	}
	equal, _ := splitRevisions(revisions, func(r *api.ControllerRevision) bool { return revisionRestoresTemplate(r, candidate.Data, key) })
	var update *api.ControllerRevision
	switch {
	case len(equal) > 0 && equal[len(equal)-1] == revisions[len(revisions)-1]:
		update = revisions[len(revisions)-1]
	case len(equal) > 0:
		r := *equal[len(equal)-1]
		r.Revision = next
		update = &r
		res.RevisionActions = append(res.RevisionActions, ControllerRevisionAction{Kind: RevisionUpdate, Revision: &r})
	default:
		for {
			have := taken[candidate.Name]
			if have == nil {
				res.RevisionActions = append(res.RevisionActions, ControllerRevisionAction{Kind: RevisionCreate, Revision: candidate})
				update = candidate
				break
			}
			if bytes.Equal(have.Data, candidate.Data) {
				update = have
				break
			}
			cc++
			candidate.Name = ControllerRevisionName(set.Name, HashControllerRevision(candidate.Data, cc))
		}
	}
	current := update
	for _, r := range revisions {
		if r.Name == set.Status.CurrentRevision {
			current = r
			break
		}
	}
	res.CurrentRevision, res.UpdateRevision = current, update
	// 4, 5. The pods and claims, the status. A revision whose data does
	// not restore a template fails the sync before any pod is touched
	// (upstream's ApplyRevision error); the history is still truncated.
	currentSet, errCurrent := ApplyStatefulSetRevision(set, current)
	updateSet, errUpdate := ApplyStatefulSetRevision(set, update)
	var failed []api.Event
	if err := errors.Join(errCurrent, errUpdate); err != nil {
		res.Err = err
	} else {
		claims := map[string]*api.PersistentVolumeClaim{}
		for _, c := range in.Claims {
			if c != nil && c.Namespace == set.Namespace {
				claims[c.Name] = c
			}
		}
		s := &ssSync{
			set: set, currentSet: currentSet, updateSet: updateSet,
			currentRev: current.Name, updateRev: update.Name,
			collisionCount: &cc, cfg: cfg, now: now,
			storage: true, claims: claims, exists: exists, createErr: in.CreateError, claimErrs: in.ClaimCreateErrors,
		}
		s.run(claimed)
		res.Actions = append(res.Actions, s.res.Actions...)
		res.Wait, res.Status, res.Err = s.res.Wait, s.res.Status, s.res.Err
		failed = s.failed
		res.WriteStatus = completeAndCompare(set, &res.Status)
	}

	// 6. History.
	live := map[string]bool{current.Name: true, update.Name: true}
	for _, p := range claimed {
		live[podRevision(p)] = true
	}
	isLive := func(r *api.ControllerRevision) bool { return live[r.Name] }
	history := 0
	for _, r := range revisions {
		if !isLive(r) {
			history++
		}
	}
	if limit := revisionHistoryLimit(set.Spec.RevisionHistoryLimit); limit >= 0 {
		for _, r := range revisionsToPrune(revisions, isLive, history-limit) {
			res.RevisionActions = append(res.RevisionActions, ControllerRevisionAction{Kind: RevisionDelete, Revision: r})
		}
	}

	res.Events = append(statefulSetEvents(set, res.Actions), failed...)
	if res.Err == nil && set.Spec.MinReadySeconds > 0 {
		var next time.Time
		for _, p := range claimed {
			next = nextAvailability(next, p, set.Spec.MinReadySeconds, now)
		}
		res.RequeueAfter = availabilityRequeue(set.Spec.MinReadySeconds, res.Status.ReadyReplicas, res.Status.AvailableReplicas, next, now)
	}
	return res, nil
}

// statefulSetEvents are the Events StatefulPodControl records for the
// writes of a sync, each as if it succeeded: a claim created, then its
// pod; a pod updated or deleted. Adoptions, releases and claim owner
// updates record none.
func statefulSetEvents(set *api.StatefulSet, actions []StatefulSetAction) []api.Event {
	var out []api.Event
	for _, a := range actions {
		switch a.Kind {
		case StatefulSetCreate:
			out = append(out, StatefulSetPodEvent(set, "create", a.Pod, nil))
		case StatefulSetUpdate:
			out = append(out, StatefulSetPodEvent(set, "update", a.Pod, nil))
		case StatefulSetDelete:
			out = append(out, StatefulSetPodEvent(set, "delete", a.Pod, nil))
		case StatefulSetCreateClaim:
			if a.Claim != nil {
				out = append(out, StatefulSetClaimEvent(set, "create", a.Claim.Name, a.Pod, nil))
			}
		}
	}
	return out
}
