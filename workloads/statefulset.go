package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// StatefulSetConfig holds the kube-controller-manager feature gates the
// StatefulSet controller's pod management depends on. The zero value is
// v1.36.3's default.
type StatefulSetConfig struct {
	// MaxUnavailable turns on the MaxUnavailableStatefulSet feature gate
	// (beta, off by default in v1.36.3): a rolling update then deletes up
	// to rollingUpdate.maxUnavailable pods at once instead of one.
	MaxUnavailable bool
}

// StatefulSetActionKind is what one StatefulSet sync does to one pod or
// claim.
type StatefulSetActionKind uint8

// The StatefulSet controller's pod and claim writes.
const (
	// StatefulSetCreate: create the pod of Ordinal (from the revision
	// Revision); Object is the pod sent.
	StatefulSetCreate StatefulSetActionKind = iota + 1
	// StatefulSetDelete: delete the pod (a normal, graceful delete).
	StatefulSetDelete
	// StatefulSetUpdate: rewrite the pod (UpdateStatefulPod): its identity
	// labels, its claim volumes, or — with unchanged labels — after its
	// claims' owner references were repaired. Object is the pod sent.
	StatefulSetUpdate
	// StatefulSetCreateClaim: create the PersistentVolumeClaim Claim from
	// a volumeClaimTemplate, for the pod of Ordinal.
	StatefulSetCreateClaim
	// StatefulSetUpdateClaim: rewrite Claim's owner references for the
	// retention policy (persistentVolumeClaimRetentionPolicy).
	StatefulSetUpdateClaim
	// StatefulSetAdopt: patch the set's controller reference onto an
	// orphan pod that matches it; Object is the pod after the patch.
	StatefulSetAdopt
	// StatefulSetRelease: patch the set's owner reference off a pod it
	// controls that no longer matches it; Object is the pod after the
	// patch.
	StatefulSetRelease
)

// String names the kind.
func (k StatefulSetActionKind) String() string {
	switch k {
	case StatefulSetCreate:
		return "Create"
	case StatefulSetDelete:
		return "Delete"
	case StatefulSetUpdate:
		return "Update"
	case StatefulSetCreateClaim:
		return "CreateClaim"
	case StatefulSetUpdateClaim:
		return "UpdateClaim"
	case StatefulSetAdopt:
		return "Adopt"
	case StatefulSetRelease:
		return "Release"
	}
	return "StatefulSetActionKind(?)"
}

// StatefulSetAction is one write of a sync.
type StatefulSetAction struct {
	Kind StatefulSetActionKind
	// Ordinal is the pod's ordinal (-1 for a pod whose name has none).
	Ordinal int
	// Pod is the pod's name (<set>-<ordinal>); for a claim action, the
	// name of the pod the claim belongs to.
	Pod string
	// Revision is the revision a created pod is stamped with
	// (controller-revision-hash), empty for other kinds.
	Revision string
	// Why says which rule asked for it: "missing", "failed",
	// "succeeded", "scale down", "update", "identity", "storage",
	// "retention", "adopt", "release".
	Why string
	// Object is the pod as sent to the API server, for Create, Update,
	// Adopt and Release; nil from SyncStatefulSet.
	Object *api.Pod
	// Claim is the claim as sent, for CreateClaim and UpdateClaim.
	Claim *api.PersistentVolumeClaim
}

// String renders the action, e.g. "Create web-1 (missing)" or
// "CreateClaim www-web-1 (missing)".
func (a StatefulSetAction) String() string {
	name := a.Pod
	if a.Claim != nil {
		name = a.Claim.Name
	}
	return fmt.Sprintf("%s %s (%s)", a.Kind, name, a.Why)
}

// StatefulSetWait is the pod a sync stopped at, and why.
type StatefulSetWait struct {
	Ordinal int
	Pod     string
	// Reason is one of "terminating" (the pod object must be gone before
	// the ordinal is reused or the next one touched), "created" (the pod
	// just created must become Running and Ready), "not running and
	// ready", "not available" (minReadySeconds), "terminal" (a Failed or
	// Succeeded pod being deleted: its replacement comes once the object
	// is gone), "unavailable" (a rolling update waits for the pod), "too
	// many unavailable" (maxUnavailable reached), "stale claim" (a claim
	// of the pod still belongs to its predecessor: whenScaled=Delete
	// waits for the garbage collector), "error" (a write failed; see
	// StatefulSetSync.Err).
	Reason string
}

// StatefulSetSync is the outcome of one sync of a StatefulSet.
type StatefulSetSync struct {
	// Actions are the pod and claim writes, in the order the controller
	// issues them. Under Parallel management upstream issues the writes
	// of different ordinals concurrently; they are listed by ordinal,
	// adoptions and releases first.
	Actions []StatefulSetAction
	// RevisionActions are the ControllerRevision writes, in order:
	// adoptions, the update revision's creation or renumbering, and the
	// history truncation. Empty from SyncStatefulSet.
	RevisionActions []ControllerRevisionAction
	// Wait is where the sync stopped short, nil when it ran to the end.
	Wait *StatefulSetWait
	// Status is the status the controller computes after the sync.
	Status api.StatefulSetStatus
	// WriteStatus reports whether the controller writes Status: only
	// when it differs from the stored status in a field upstream compares
	// (observedGeneration newer, a replica count, a revision).
	WriteStatus bool
	// CurrentRevision and UpdateRevision are the revisions the sync
	// worked with, after its own writes (nil from SyncStatefulSet).
	CurrentRevision, UpdateRevision *api.ControllerRevision
	// Err is the error upstream's sync returns after the writes listed
	// (a claim being deleted, a pod name already taken by a pod the set
	// does not own): the controller retries the set with back-off. Nil
	// when the sync succeeded.
	Err error
	// RequeueAfter is when the controller looks at the set again without
	// any event, after a successful sync whose status has a replica ready
	// but not yet available (minReadySeconds): when the first of its pods
	// waiting so becomes available (FindMinNextPodAvailabilityCheck), else
	// minReadySeconds on; 0 otherwise.
	RequeueAfter time.Duration
	// Events are the Events the controller records on the set for
	// Actions, in order, each as if its write succeeded
	// (StatefulSetPodEvent, StatefulSetClaimEvent): "Create Claim
	// www-web-0 Pod web-0 in StatefulSet web success", "Create Pod web-0
	// in StatefulSet web successful", "Delete Pod web-2 in StatefulSet
	// web successful", "Update Pod ...". Empty from SyncStatefulSet.
	Events []api.Event
}

// SyncStatefulSet computes one sync of the StatefulSet controller's pod
// management (pkg/controller/statefulset defaultStatefulSetControl
// updateStatefulSet) for set and the pods it owns, at now: which ordinals
// it creates, which pods it deletes, which it waits for.
//
// The rule this is about: a StatefulSet never creates the pod of ordinal N
// while an object named <set>-N exists. A Failed or Succeeded pod is
// deleted and replaced only at a later sync, once the object is gone; a
// terminating pod — one with a deletionTimestamp, for instance on a lost
// node whose kubelet will never confirm the kill — blocks its own
// replacement until the object disappears (pod GC of an orphan or of a
// terminating pod on an out-of-service node, or a force deletion). Under
// OrderedReady management it also blocks every higher ordinal and every
// scale-down. Contrast ReplicaSetSync, which counts a terminating pod as
// gone and replaces it at once.
//
// Modelled, as upstream: the ordinal range (spec.ordinals.start, replicas),
// condemned pods beyond it deleted from the highest ordinal down,
// OrderedReady (stop at the first pod not Running and Ready, or not
// available after minReadySeconds, or terminating; one create per sync)
// versus Parallel, Failed/Succeeded pods deleted, identity repair, the
// RollingUpdate strategy with partition (counted as an index into the
// ordinal range, as upstream does) and, behind the feature gate,
// maxUnavailable; OnDelete; a set being deleted does nothing but report
// status. This is the pod management alone: the revisions are inputs —
// status.updateRevision is taken as the revision of the set's current
// template and status.currentRevision as the one being replaced (empty:
// the update revision) — and pods are matched to the set by name
// (<set>-<ordinal>) and namespace. ReconcileStatefulSet is the whole
// sync: adoption and release, ControllerRevisions (hashing, history,
// rollback), PersistentVolumeClaims from the volumeClaimTemplates and
// their retention policy, the status write.
//
// A nil set, or one without replicas, is an error.
func SyncStatefulSet(set *api.StatefulSet, pods []*api.Pod, cfg StatefulSetConfig, now time.Time) (StatefulSetSync, error) {
	if err := checkStatefulSet(set); err != nil {
		return StatefulSetSync{}, err
	}
	updateRev := set.Status.UpdateRevision
	currentRev := set.Status.CurrentRevision
	if currentRev == "" {
		currentRev = updateRev
	}
	var members []*api.Pod
	for _, p := range pods {
		if p != nil && p.Namespace == set.Namespace && isMemberOf(set, p) {
			members = append(members, p)
		}
	}
	s := &ssSync{
		set: set, currentSet: set, updateSet: set,
		currentRev: currentRev, updateRev: updateRev,
		collisionCount: set.Status.CollisionCount,
		cfg:            cfg, now: now,
		exists: map[string]bool{},
	}
	for _, p := range members {
		s.exists[p.Name] = true
	}
	s.run(members)
	res := s.res
	res.WriteStatus = completeAndCompare(set, &res.Status)
	return res, nil
}

func checkStatefulSet(set *api.StatefulSet) error {
	if set == nil {
		return fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	if set.Spec.Replicas == nil || *set.Spec.Replicas < 0 {
		return fmt.Errorf("%w: statefulset %s/%s: spec.replicas: %v", errInvalidInput, set.Namespace, set.Name, ptrString(set.Spec.Replicas))
	}
	if s := set.Spec.Ordinals; s != nil && s.Start < 0 {
		return fmt.Errorf("%w: statefulset %s/%s: spec.ordinals.start: %d", errInvalidInput, set.Namespace, set.Name, s.Start)
	}
	return nil
}

// ssSync is one run of updateStatefulSet: the set at its current and
// update revisions, what the controller's caches hold, and what the run
// has written so far.
type ssSync struct {
	// createErr refuses every pod create (StatefulSetInput.CreateError),
	// claimErrs the creates of the claims they name
	// (StatefulSetInput.ClaimCreateErrors).
	createErr                  error
	claimErrs                  map[string]error
	set, currentSet, updateSet *api.StatefulSet
	currentRev, updateRev      string
	collisionCount             *int32
	cfg                        StatefulSetConfig
	now                        time.Time

	// storage: claims are modelled (ReconcileStatefulSet); claims is the
	// claim cache by name, which upstream reads and never refreshes
	// within a sync.
	storage bool
	claims  map[string]*api.PersistentVolumeClaim

	// exists: pod names the API server holds in the namespace (a create
	// of one fails with AlreadyExists); created/deleted: this run's own
	// pod writes; createdClaims: this run's claim creations.
	exists, created, deleted, createdClaims map[string]bool

	res StatefulSetSync
	// failed are the Events of a write the sync itself found would fail
	// (StatefulPodControl's recordPodEvent with the error): they follow the
	// Events of the writes made before it.
	failed []api.Event
}

func (s *ssSync) monotonic() bool { return s.set.Spec.PodManagementPolicy != api.ParallelPodManagement }

func (s *ssSync) minReady() int32 { return s.set.Spec.MinReadySeconds }

func (s *ssSync) startOrdinal() int {
	if o := s.set.Spec.Ordinals; o != nil {
		return int(o.Start)
	}
	return 0
}

func (s *ssSync) act(a StatefulSetAction) { s.res.Actions = append(s.res.Actions, a) }

func (s *ssSync) wait(p *api.Pod, reason string) {
	if s.res.Wait == nil && p != nil {
		_, ord := statefulParentAndOrdinal(p.Name)
		s.res.Wait = &StatefulSetWait{Ordinal: ord, Pod: p.Name, Reason: reason}
	}
}

// run is updateStatefulSet over the pods the set owns.
func (s *ssSync) run(pods []*api.Pod) {
	set := s.set
	minReady := s.minReady()
	s.res.Status = api.StatefulSetStatus{CurrentRevision: s.currentRev, UpdateRevision: s.updateRev}
	s.res.Status.ObservedGeneration = set.Generation
	cc := int32(0)
	if s.collisionCount != nil {
		cc = *s.collisionCount
	}
	s.res.Status.CollisionCount = &cc
	s.created, s.deleted, s.createdClaims = map[string]bool{}, map[string]bool{}, map[string]bool{}
	s.setCounts(pods)

	start := s.startOrdinal()
	replicas := &ssReplicas{s: s, start: start, n: int(*set.Spec.Replicas), held: map[int]*api.Pod{}, made: map[int]*api.Pod{}}
	var condemned []*api.Pod
	for _, p := range pods {
		_, ord := statefulParentAndOrdinal(p.Name)
		switch {
		case ord >= start && ord < start+replicas.n:
			replicas.held[ord-start] = p
		case ord >= 0:
			condemned = append(condemned, p)
		}
	}
	sortByOrdinalDescending(condemned)

	firstUnavailable := replicas.firstUnavailable(0)
	for i := len(condemned) - 1; i >= 0; i-- {
		if isUnavailable(condemned[i], minReady, s.now) && firstUnavailable == nil {
			firstUnavailable = condemned[i]
		}
	}

	if set.DeletionTimestamp != nil {
		return
	}
	finish := func() { s.setCounts(replicas.pods(), condemned) }

	if s.runForAll(replicas.n, func(i int) (bool, error) { return s.processReplica(replicas.at(i)) }) {
		finish()
		return
	}
	if s.storage {
		fix := func(i int) (bool, error) {
			if !s.claimsMatchRetention(condemned[i]) {
				s.updateClaimsForRetention(condemned[i])
			}
			return false, nil
		}
		if s.runForAll(len(condemned), fix) {
			finish()
			return
		}
	}
	if s.runForAll(len(condemned), func(i int) (bool, error) {
		return s.processCondemned(condemned[i], firstUnavailable)
	}) {
		finish()
		return
	}
	finish()

	if set.Spec.UpdateStrategy.Type == api.OnDeleteStatefulSetStrategyType {
		return
	}
	if s.cfg.MaxUnavailable {
		s.rollMaxUnavailable(replicas)
		return
	}
	updateMin := s.partition()
	for target := replicas.n - 1; target >= updateMin; target-- {
		p := replicas.at(target)
		if podRevision(p) != s.updateRev && !isTerminating(p) {
			s.deletePod(p, "update")
			s.res.Status.CurrentReplicas--
			return
		}
		if isUnavailable(p, minReady, s.now) {
			s.wait(p, "unavailable")
			return
		}
	}
}

// ssReplicas is the ordinal range [start, start+n): the pods that hold an
// ordinal of it, and — made only when first needed — the pod the
// controller would create for an ordinal nobody holds. Upstream builds
// them all up front; built on demand, a set of a million replicas with
// few pods costs what its pods cost.
type ssReplicas struct {
	s        *ssSync
	start, n int
	held     map[int]*api.Pod // index (ordinal-start) → existing pod
	made     map[int]*api.Pod // index → pod to create
}

func (r *ssReplicas) at(i int) *api.Pod {
	if p := r.held[i]; p != nil {
		return p
	}
	if p := r.made[i]; p != nil {
		return p
	}
	p := r.s.newVersionedPod(r.start + i)
	r.made[i] = p
	return p
}

// firstUnavailable is the lowest-index replica from index from on that
// is unavailable (a missing one is): the loop stops at the first index
// nobody holds.
func (r *ssReplicas) firstUnavailable(from int) *api.Pod {
	for i := from; i < r.n; i++ {
		p := r.held[i]
		if p == nil || isUnavailable(p, r.s.minReady(), r.s.now) {
			return r.at(i)
		}
	}
	return nil
}

// pods are the replicas the sync has looked at: the existing ones and the
// ones made so far (not created yet as far as the status goes).
func (r *ssReplicas) pods() []*api.Pod {
	out := make([]*api.Pod, 0, len(r.held)+len(r.made))
	for _, p := range r.held {
		out = append(out, p)
	}
	for _, p := range r.made {
		out = append(out, p)
	}
	return out
}

// runForAll is upstream's runForAll: in order, stopping at the first
// pod that blocks, under OrderedReady; under Parallel in slowStartBatch's
// batches of 1, 2, 4, ... (at most 500), every pod of a batch handled and
// the run stopped after a batch in which a write failed. It reports
// whether the sync stops here.
func (s *ssSync) runForAll(n int, fn func(i int) (bool, error)) bool {
	if s.monotonic() {
		for i := 0; i < n; i++ {
			exit, err := fn(i)
			if err != nil {
				s.fail(err)
				return true
			}
			if exit {
				return true
			}
		}
		return false
	}
	const maxBatch = 500
	i := 0
	for batch := min(n, 1); batch > 0; batch = min(2*batch, n-i, maxBatch) {
		failed := false
		for end := i + batch; i < end; i++ {
			if _, err := fn(i); err != nil {
				s.fail(err)
				failed = true
			}
		}
		if failed {
			return true
		}
	}
	return false
}

func (s *ssSync) fail(err error) {
	if s.res.Err == nil {
		s.res.Err = err
	}
}

// processReplica is upstream's processReplica for one pod of the ordinal
// range: delete a finished pod, create a missing one, and under
// OrderedReady stop at the first pod that is not yet Running, Ready and
// available; then repair identity, storage and claim ownership.
func (s *ssSync) processReplica(p *api.Pod) (bool, error) {
	if p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
		if p.DeletionTimestamp == nil {
			s.deletePod(p, phaseWhy(p.Status.Phase))
		}
		s.wait(p, "terminal")
		return true, nil
	}
	monotonic := s.monotonic()
	if !isCreated(p) {
		if s.storage && s.podClaimIsStale(p) {
			s.wait(p, "stale claim")
			return true, nil
		}
		if err := s.createPod(p); err != nil {
			s.wait(p, "error")
			return true, err
		}
		if monotonic {
			s.wait(p, "created")
			return true, nil
		}
	}
	if s.storage && p.Status.Phase == api.PodPending {
		if err := s.createClaims(p); err != nil {
			s.wait(p, "error")
			return true, err
		}
		s.updateClaimsForRetention(p)
	}
	if monotonic {
		switch {
		case isTerminating(p):
			s.wait(p, "terminating")
			return true, nil
		case !isRunningAndReady(p):
			s.wait(p, "not running and ready")
			return true, nil
		case !api.IsPodAvailable(p, s.minReady(), s.now):
			s.wait(p, "not available")
			return true, nil
		}
	}
	retention := !s.storage || s.claimsMatchRetention(p)
	if identityMatches(s.set, p) && (!s.storage || storageMatches(s.set, p)) && retention {
		return false, nil
	}
	if err := s.updatePod(p); err != nil {
		s.wait(p, "error")
		return true, err
	}
	return false, nil
}

// processCondemned is upstream's processCondemned for one pod beyond the
// ordinal range: under OrderedReady wait for a terminating one and for
// every pod to be Running, Ready and available unless this one is the
// first unavailable; delete it.
func (s *ssSync) processCondemned(p, firstUnavailable *api.Pod) (bool, error) {
	monotonic := s.monotonic()
	if isTerminating(p) {
		if monotonic {
			s.wait(p, "terminating")
			return true, nil
		}
		return false, nil
	}
	if monotonic && p != firstUnavailable {
		// Upstream names the first unavailable pod as the one waited
		// for; a Ready pod that is not Running is not unavailable, so
		// there may be none, and then this pod is.
		blocker := firstUnavailable
		if blocker == nil {
			blocker = p
		}
		if !isRunningAndReady(p) {
			s.wait(blocker, "not running and ready")
			return true, nil
		}
		if !api.IsPodAvailable(p, s.minReady(), s.now) {
			s.wait(blocker, "not available")
			return true, nil
		}
	}
	s.deletePod(p, "scale down")
	return true, nil
}

// rollMaxUnavailable is the rolling update with the
// MaxUnavailableStatefulSet gate on (updateStatefulSetAfterInvariantEstablished).
func (s *ssSync) rollMaxUnavailable(replicas *ssReplicas) {
	maxUnavailable := 1
	if ru := s.set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.MaxUnavailable != nil {
		n, err := api.ScaledValueFromIntOrPercent(ru.MaxUnavailable, replicas.n, false)
		if err != nil {
			s.fail(fmt.Errorf("%w: statefulset %s/%s: spec.updateStrategy.rollingUpdate.maxUnavailable: %v", errInvalidInput, s.set.Namespace, s.set.Name, err))
			return
		}
		maxUnavailable = max(n, 1)
	}
	// Every ordinal nobody holds counts as unavailable.
	unavailable := replicas.n - len(replicas.held)
	for _, p := range replicas.held {
		if isUnavailable(p, s.minReady(), s.now) {
			unavailable++
		}
	}
	if unavailable >= maxUnavailable {
		s.wait(replicas.firstUnavailable(0), "too many unavailable")
		return
	}
	deleted := 0
	for target := replicas.n - 1; target >= s.partition() && deleted < maxUnavailable-unavailable; target-- {
		p := replicas.held[target]
		if p == nil {
			p = replicas.made[target]
		}
		if p == nil {
			// A pod nobody holds: deleting it finds nothing, but it
			// counts like any pod at another revision.
			if s.revisionFor(replicas.start+target) != s.updateRev {
				deleted++
				s.res.Status.CurrentReplicas--
			}
			continue
		}
		if podRevision(p) != s.updateRev && !isTerminating(p) {
			s.deletePod(p, "update")
			deleted++
			s.res.Status.CurrentReplicas--
		}
	}
}

func (s *ssSync) partition() int {
	if ru := s.set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		return int(*ru.Partition)
	}
	return 0
}

// newVersionedPod is newVersionedStatefulSetPod: the pod the controller
// creates for ordinal, from the current revision below the partition (or,
// with no rollingUpdate block, below status.currentReplicas) and from the
// update revision otherwise — upstream's operator precedence kept, so the
// partition applies whatever the strategy type.
func (s *ssSync) newVersionedPod(ordinal int) *api.Pod {
	if rev := s.revisionFor(ordinal); rev == s.currentRev {
		return newStatefulSetPod(s.currentSet, ordinal, rev)
	}
	return newStatefulSetPod(s.updateSet, ordinal, s.updateRev)
}

// revisionFor is the revision newVersionedStatefulSetPod gives a new pod
// of ordinal.
func (s *ssSync) revisionFor(ordinal int) string {
	set := s.currentSet
	ru := set.Spec.UpdateStrategy.RollingUpdate
	start := s.startOrdinal()
	rolling := set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType
	partition := 0
	if ru != nil && ru.Partition != nil {
		partition = int(*ru.Partition)
	}
	if rolling && ru == nil && ordinal < start+int(set.Status.CurrentReplicas) || ru != nil && ordinal < start+partition {
		return s.currentRev
	}
	return s.updateRev
}

func (s *ssSync) createPod(p *api.Pod) error {
	if s.storage {
		if err := s.createClaims(p); err != nil {
			s.failed = append(s.failed, StatefulSetPodEvent(s.set, "create", p.Name, err))
			return err
		}
	}
	if (s.exists[p.Name] || s.created[p.Name]) && !s.deleted[p.Name] {
		return fmt.Errorf("pods %q already exists", p.Name)
	}
	if s.createErr != nil {
		s.failed = append(s.failed, StatefulSetPodEvent(s.set, "create", p.Name, s.createErr))
		return s.createErr
	}
	_, ord := statefulParentAndOrdinal(p.Name)
	s.act(StatefulSetAction{Kind: StatefulSetCreate, Ordinal: ord, Pod: p.Name, Revision: podRevision(p), Why: "missing", Object: s.sent(p)})
	s.created[p.Name] = true
	if s.storage {
		s.updateClaimsForRetention(p)
	}
	return nil
}

// sent is the object recorded with an action: the pod itself for
// ReconcileStatefulSet, nothing for SyncStatefulSet.
func (s *ssSync) sent(p *api.Pod) *api.Pod {
	if !s.storage {
		return nil
	}
	return p
}

// deletePod records a delete; a pod this run deleted already is not
// found and the call is ignored, as upstream ignores NotFound.
func (s *ssSync) deletePod(p *api.Pod, why string) {
	if s.deleted[p.Name] || !s.exists[p.Name] && !s.created[p.Name] {
		return
	}
	s.deleted[p.Name] = true
	_, ord := statefulParentAndOrdinal(p.Name)
	s.act(StatefulSetAction{Kind: StatefulSetDelete, Ordinal: ord, Pod: p.Name, Why: why})
}

// updatePod is UpdateStatefulPod: repair the pod's identity and claim
// volumes (creating missing claims) and its claims' owner references, and
// write the pod when anything was off.
func (s *ssSync) updatePod(orig *api.Pod) error {
	p := copyPodForUpdate(orig)
	consistent := true
	why := ""
	if !identityMatches(s.updateSet, p) {
		updateIdentity(s.updateSet, p)
		consistent, why = false, "identity"
	}
	if s.storage && !storageMatches(s.updateSet, p) {
		updateStorage(s.updateSet, p)
		consistent = false
		if why == "" {
			why = "storage"
		}
		if err := s.createClaims(p); err != nil {
			s.failed = append(s.failed, StatefulSetPodEvent(s.set, "update", p.Name, err))
			return err
		}
	}
	if s.storage && !s.claimsMatchRetention(p) {
		s.updateClaimsForRetention(p)
		consistent = false
		if why == "" {
			why = "retention"
		}
	}
	if consistent {
		return nil
	}
	_, ord := statefulParentAndOrdinal(p.Name)
	s.act(StatefulSetAction{Kind: StatefulSetUpdate, Ordinal: ord, Pod: p.Name, Why: why, Object: s.sent(p)})
	return nil
}

// setCounts is updateStatus/computeReplicaStatus over the given pods:
// created pods (any phase), Running and Ready ones (terminating ones
// included), available ones, and the created, non-terminating ones at
// the current and at the update revision.
func (s *ssSync) setCounts(lists ...[]*api.Pod) {
	st := &s.res.Status
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, l := range lists {
		for _, p := range l {
			if isCreated(p) {
				st.Replicas++
			}
			if isRunningAndReady(p) {
				st.ReadyReplicas++
				if api.IsPodAvailable(p, s.minReady(), s.now) {
					st.AvailableReplicas++
				}
			}
			if isCreated(p) && !isTerminating(p) {
				rev := podRevision(p)
				if rev == s.currentRev {
					st.CurrentReplicas++
				}
				if rev == s.updateRev {
					st.UpdatedReplicas++
				}
			}
		}
	}
}

// completeAndCompare is updateStatefulSetStatus: complete a finished
// rolling update, then report whether the status differs from the stored
// one in a field upstream compares (inconsistentStatus).
func completeAndCompare(set *api.StatefulSet, st *api.StatefulSetStatus) bool {
	n := *set.Spec.Replicas
	if set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType &&
		st.UpdatedReplicas == n && st.ReadyReplicas == n && st.Replicas == n {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
	old := set.Status
	return st.ObservedGeneration > old.ObservedGeneration ||
		st.Replicas != old.Replicas ||
		st.CurrentReplicas != old.CurrentReplicas ||
		st.ReadyReplicas != old.ReadyReplicas ||
		st.UpdatedReplicas != old.UpdatedReplicas ||
		st.CurrentRevision != old.CurrentRevision ||
		st.AvailableReplicas != old.AvailableReplicas ||
		st.UpdateRevision != old.UpdateRevision
}

// statefulParentAndOrdinal splits a StatefulSet pod name "<parent>-<n>";
// the ordinal is -1 when the name has no such suffix or n is not a 32-bit
// integer (getParentNameAndOrdinal).
func statefulParentAndOrdinal(name string) (string, int) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 || name[i-1] != '-' {
		return "", -1
	}
	n, err := strconv.ParseInt(name[i:], 10, 32)
	if err != nil {
		return name[:i-1], -1
	}
	return name[:i-1], int(n)
}

// isMemberOf is upstream's isMemberOf: the pod's name is "<set>-<n>".
func isMemberOf(set *api.StatefulSet, p *api.Pod) bool {
	parent, _ := statefulParentAndOrdinal(p.Name)
	return parent == set.Name
}

func phaseWhy(ph api.PodPhase) string {
	if ph == api.PodFailed {
		return "failed"
	}
	return "succeeded"
}

func podRevision(p *api.Pod) string { return p.Labels[api.LabelControllerRevisionHash] }

func isCreated(p *api.Pod) bool { return p.Status.Phase != "" }

func isTerminating(p *api.Pod) bool { return p != nil && p.DeletionTimestamp != nil }

func isRunningAndReady(p *api.Pod) bool {
	return p != nil && p.Status.Phase == api.PodRunning && api.IsPodReady(p)
}

// isUnavailable is upstream's isUnavailable: not available (a pod not
// created yet included) or terminating.
func isUnavailable(p *api.Pod, minReady int32, now time.Time) bool {
	return p == nil || !api.IsPodAvailable(p, minReady, now) || p.DeletionTimestamp != nil
}

func sortByOrdinalDescending(pods []*api.Pod) {
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		_, x := statefulParentAndOrdinal(a.Name)
		_, y := statefulParentAndOrdinal(b.Name)
		return y - x
	})
}

func ptrString(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}
