package cluster

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/termination"
	"github.com/podsem/podsem/workloads"
)

// The StatefulSet, DaemonSet and Job controllers of
// kube-controller-manager (pkg/controller/statefulset, daemon, job), each
// a workloads machine per object (StatefulSetController,
// DaemonSetController, JobController) keeping that object's controller
// memory (expectations, back-off, requeues). Their keys are marked dirty
// by the informer events upstream's handlers enqueue for: the object
// itself; a pod's or ControllerRevision's controller (before and after
// the change), or every object of the kind in the namespace for an orphan
// one may adopt; on a Node added, or updated in its labels or taints, the
// DaemonSets workloads.DaemonSetSyncsForNode names (upstream's node-update
// worker; a deleted node enqueues none). A key is also synced when its
// machine's deadline is due.

// appsState is the three controllers' memory: one machine and one dirty
// set per kind. The zero value is the controllers just started.
type appsState struct {
	ss       map[string]*workloads.StatefulSetController
	ds       map[string]*workloads.DaemonSetController
	jobs     map[string]*workloads.JobController
	ssDirty  map[string]bool
	dsDirty  map[string]bool
	jobDirty map[string]bool
	// jobBatched are the Jobs queued with the Job controller's batching
	// delay (syncJobBatchPeriod, 1 s): by a pod event or a write of a
	// Job's status, each due at the earliest time it was queued for.
	jobBatched map[string]time.Time
	jobScratch map[string]bool
	// ttl and ttlDirty are the ttl-after-finished controller's machine
	// per Job and the Jobs it is to look at (every add or update).
	ttl      map[string]*workloads.TTLAfterFinishedController
	ttlDirty map[string]bool
	// orphans are pods carrying the Job tracking finalizer whose Job is
	// gone: the Job controller's orphan pod handling removes it.
	orphans map[string]bool
	// cron and cronDirty are the cronjob controller's machine per CronJob
	// and what its informers saw since each one's last step (cronjobs.go).
	cron      map[string]*workloads.CronJobController
	cronDirty map[string]cronTrigger
	// quotaDirty are the ResourceQuotas the resourcequota controller is to
	// sync, and quotaResync its next full resync (quota.go).
	quotaDirty  map[string]bool
	quotaResync time.Time
	// uids are the uids the machines were made for ("Kind/key"): an
	// object replaced by another of the same name starts afresh.
	uids map[string]string
}

// fresh reports whether the machine of kind/key must start afresh for
// the object with uid (none yet, or made for another object).
func (a *appsState) fresh(kind, key, uid string) bool {
	k := kind + "/" + key
	if a.uids[k] == uid {
		return false
	}
	a.uids[k] = uid
	return true
}

func (a *appsState) init() {
	if a.ss == nil {
		a.ss, a.ds, a.jobs = map[string]*workloads.StatefulSetController{}, map[string]*workloads.DaemonSetController{}, map[string]*workloads.JobController{}
		a.ssDirty, a.dsDirty, a.jobDirty, a.orphans = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
		a.ttl, a.ttlDirty = map[string]*workloads.TTLAfterFinishedController{}, map[string]bool{}
		a.jobBatched = map[string]time.Time{}
		a.uids = map[string]string{}
		a.cron, a.cronDirty = map[string]*workloads.CronJobController{}, map[string]cronTrigger{}
		a.quotaDirty = map[string]bool{}
	}
}

// batchJob queues the Job key after the Job controller's batching delay
// (enqueueSyncJobBatched: AddAfter keeps an earlier time it waits for).
func (a *appsState) batchJob(key string, now time.Time) {
	t := now.Add(workloads.JobSyncBatchPeriod)
	if d, ok := a.jobBatched[key]; !ok || t.Before(d) {
		a.jobBatched[key] = t
	}
}

// appsDeliver is the three controllers' informer event handlers.
func (m *Machine) appsDeliver(w watchEvent, now time.Time) {
	a := &m.apps
	a.init()
	m.cronDeliver(w)
	m.quotaDeliver(w, now)
	switch o := w.Object.(type) {
	case *api.StatefulSet:
		a.ssDirty[w.Key] = true
	case *api.DaemonSet:
		a.dsDirty[w.Key] = true
	case *api.Job:
		if old, ok := w.Old.(*api.Job); ok && w.Type == watchModified && old.Generation == o.Generation {
			a.batchJob(w.Key, now)
		} else {
			a.jobDirty[w.Key] = true
		}
		if w.Type != watchDeleted {
			a.ttlDirty[w.Key] = true
		}
	case *api.ControllerRevision:
		m.ownerDirty(w, &o.ObjectMeta, "StatefulSet", a.ssDirty)
		m.ownerDirty(w, &o.ObjectMeta, "DaemonSet", a.dsDirty)
	case *api.Node:
		// The node-update worker: a deleted node enqueues nothing, an
		// update only when its labels or taints changed, and then only the
		// DaemonSets whose pod there the node's change can concern.
		if w.Type == watchDeleted {
			break
		}
		if old, ok := w.Old.(*api.Node); ok && w.Type == watchModified {
			if same, _ := workloads.DaemonSetIgnoresNodeUpdate(old, o); same {
				break
			}
		}
		var pods []*api.Pod
		for i, d := range m.cache.list("DaemonSet") {
			if i == 0 {
				pods = m.cache.podsOnNode(o.Name)
			}
			ds := d.(*api.DaemonSet)
			if sync, _ := workloads.DaemonSetSyncsForNode(o, ds, pods); sync {
				a.dsDirty[objectKey(&ds.ObjectMeta)] = true
			}
		}
	case *api.Pod:
		m.ownerDirty(w, &o.ObjectMeta, "StatefulSet", a.ssDirty)
		m.ownerDirty(w, &o.ObjectMeta, "DaemonSet", a.dsDirty)
		clear(a.jobScratch)
		if a.jobScratch == nil {
			a.jobScratch = map[string]bool{}
		}
		m.ownerDirty(w, &o.ObjectMeta, "Job", a.jobScratch)
		for k := range a.jobScratch {
			a.batchJob(k, now)
		}
		if w.Type != watchDeleted && slices.Contains(o.Finalizers, workloads.JobTrackingFinalizer) {
			a.orphans[w.Key] = true
		}
	}
}

// appsDue reports whether one of the three controllers has work at now.
func (m *Machine) appsDue(now time.Time) bool {
	a := &m.apps
	if len(a.ssDirty)+len(a.dsDirty)+len(a.jobDirty)+len(a.ttlDirty)+len(a.cronDirty)+len(a.quotaDirty) > 0 {
		return true
	}
	if d := a.jobBatchDeadline(); !d.IsZero() && !d.After(now) {
		return true
	}
	d := m.appsNextDeadline()
	return !d.IsZero() && !d.After(now)
}

// appsNextDeadline is the earliest deadline of the three controllers'
// machines.
func (m *Machine) appsNextDeadline() time.Time {
	d := earliestOf(time.Time{}, m.apps.ss)
	d = earliestOf(d, m.apps.ds)
	d = earliestOf(d, m.apps.jobs)
	d = earliestOf(d, m.apps.ttl)
	d = earliestOf(d, m.apps.cron)
	d = api.EarliestDeadline(d, m.apps.quotaResync)
	return api.EarliestDeadline(d, m.apps.jobBatchDeadline())
}

// jobBatchDeadline is the earliest time a batched Job is queued for.
func (a *appsState) jobBatchDeadline() time.Time {
	var d time.Time
	for _, t := range a.jobBatched {
		d = api.EarliestDeadline(d, t)
	}
	return d
}

// earliestOf is the earliest of d and the deadlines of machines (the zero
// time stands for none).
func earliestOf[C interface{ NextDeadline() time.Time }](d time.Time, machines map[string]C) time.Time {
	for _, c := range machines {
		d = api.EarliestDeadline(d, c.NextDeadline())
	}
	return d
}

// dueObjects returns the keys to sync now: the dirty ones and those whose
// machine's deadline has come, sorted; dirty is emptied.
func dueObjects[C interface{ NextDeadline() time.Time }](dirty map[string]bool, machines map[string]C, now time.Time) []string {
	keys := make([]string, 0, len(dirty))
	for k := range dirty {
		keys = append(keys, k)
	}
	for k, c := range machines {
		if d := c.NextDeadline(); !d.IsZero() && !d.After(now) && !dirty[k] {
			keys = append(keys, k)
		}
	}
	clear(dirty)
	slices.Sort(keys)
	return keys
}

// machineFor returns the machine of key in machines for obj, the object
// of that key the cache holds: made with mk when there is none, or, when
// kind is not "", when obj is another object of the same name than the one
// the machine was made for (a new uid). A nil obj (gone) drops the key's
// machine, and ok is false.
func machineFor[C any](m *Machine, kind, key string, obj api.Object, machines map[string]C, mk func() C) (c C, ok bool) {
	if obj == nil {
		delete(machines, key)
		return c, false
	}
	c, ok = machines[key]
	if kind != "" {
		_, meta := objectMeta(obj)
		if m.apps.fresh(kind, key, meta.UID) {
			ok = false
		}
	}
	if !ok {
		c = mk()
		machines[key] = c
	}
	return c, true
}

// runApps runs the StatefulSet, DaemonSet and Job controllers, in that
// order.
func (m *Machine) runApps(now time.Time) error {
	m.apps.init()
	if err := m.runStatefulSets(now); err != nil {
		return err
	}
	if err := m.runDaemonSets(now); err != nil {
		return err
	}
	if err := m.runJobs(now); err != nil {
		return err
	}
	if err := m.runCronJobs(now); err != nil {
		return err
	}
	return m.runTTLAfterFinished(now)
}

// runStatefulSets syncs the due StatefulSets (workloads.StatefulSetController)
// and carries out their writes: ControllerRevisions, claims, pods and
// status, each through the API server.
func (m *Machine) runStatefulSets(now time.Time) error {
	for _, key := range dueObjects(m.apps.ssDirty, m.apps.ss, now) {
		obj := m.cache.get("StatefulSet", key)
		c, ok := machineFor(m, "StatefulSet", key, obj, m.apps.ss, func() *workloads.StatefulSetController {
			return workloads.NewStatefulSetController(workloads.StatefulSetConfig{})
		})
		if !ok {
			continue
		}
		set := obj.(*api.StatefulSet)
		in := workloads.StatefulSetInput{
			Set: set, Pods: inNamespace[*api.Pod](m.cache, "Pod", set.Namespace),
			Claims:    inNamespace[*api.PersistentVolumeClaim](m.cache, "PersistentVolumeClaim", set.Namespace),
			Revisions: inNamespace[*api.ControllerRevision](m.cache, "ControllerRevision", set.Namespace),
		}
		// The API server's verdict on the set's pods, named after the
		// first ordinal missing (the one a sync creates first).
		pods := statefulSetPods(set, firstMissingOrdinal(set, in.Pods))
		if _, refused := m.admitsPods(pods); refused != nil {
			in.CreateError = m.admitPodAs(pods, pods.prefix)
		}
		in.ClaimCreateErrors = m.claimCreateErrors(set, in.Claims, now)
		sync, err := stepMachine(m, "statefulset-controller", key, c, in, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("StatefulSet", set.Namespace, set.Name), err.Error())
			continue
		}
		if err := m.statefulSetWrites(set, sync, now); err != nil {
			return err
		}
	}
	return nil
}

// controllerRevisionWrites carries out a StatefulSet's or DaemonSet's
// ControllerRevision writes, in order, through the API server: adoptions
// and releases patch the owner references, updates replace the object,
// creates and deletes go as they are. A revision already gone or already
// there is skipped, as the controllers see it in their next sync.
func (m *Machine) controllerRevisionWrites(actions []workloads.ControllerRevisionAction, now time.Time) error {
	for _, ra := range actions {
		r := ra.Revision
		if r == nil {
			continue
		}
		key := objectKey(&r.ObjectMeta)
		var err error
		switch ra.Kind {
		case workloads.RevisionAdopt, workloads.RevisionRelease:
			refs := r.OwnerReferences
			err = m.patchMeta("ControllerRevision", key, func(meta *api.ObjectMeta) { meta.OwnerReferences = refs })
		case workloads.RevisionCreate:
			_, err = m.store.create(r, now)
		case workloads.RevisionUpdate:
			var n *api.ControllerRevision
			if n, err = clone(r); err == nil {
				n.ResourceVersion = ""
				_, err = m.store.update(n)
			}
		case workloads.RevisionDelete:
			err = m.store.remove("ControllerRevision", key)
		}
		if err != nil && !errors.Is(err, errNotFound) && !errors.Is(err, errAlreadyExists) {
			return err
		}
	}
	return nil
}

func (m *Machine) statefulSetWrites(set *api.StatefulSet, sync workloads.StatefulSetSync, now time.Time) error {
	if err := m.controllerRevisionWrites(sync.RevisionActions, now); err != nil {
		return err
	}
	// The sync's events go with its pod and claim writes, one each, in
	// order; a write the API server refuses records the failure instead
	// and ends the sync, as upstream's returns its error.
	events := sync.Events
	next := func(failed error, verb, pod, claim string) {
		var e api.Event
		switch {
		case failed != nil && claim != "":
			e = workloads.StatefulSetClaimEvent(set, verb, claim, pod, failed)
		case failed != nil:
			e = workloads.StatefulSetPodEvent(set, verb, pod, failed)
		case len(events) > 0:
			e, events = events[0], events[1:]
		default:
			return
		}
		m.rec.event(now, &e)
	}
writes:
	for _, a := range sync.Actions {
		var err error
		switch a.Kind {
		case workloads.StatefulSetAdopt, workloads.StatefulSetRelease:
			if a.Object != nil {
				refs := a.Object.OwnerReferences
				key := set.Namespace + "/" + a.Pod
				old, _ := m.store.get("Pod", key).(*api.Pod)
				if old != nil {
					err = m.patchPodMeta(key, old.UID, func(meta *api.ObjectMeta) { meta.OwnerReferences = refs })
				}
			}
			if err != nil {
				return err
			}
			continue
		case workloads.StatefulSetCreateClaim:
			if a.Claim != nil {
				_, err = m.store.create(a.Claim, now)
				next(err, "create", a.Pod, a.Claim.Name)
			}
		case workloads.StatefulSetUpdateClaim:
			if a.Claim != nil {
				var n *api.PersistentVolumeClaim
				if n, err = clone(a.Claim); err == nil {
					n.ResourceVersion = ""
					_, err = m.store.update(n)
				}
			}
		case workloads.StatefulSetCreate:
			if a.Object != nil {
				p, cerr := clone(a.Object)
				if cerr != nil {
					return cerr
				}
				p.Namespace = set.Namespace
				_, err = m.store.create(p, now)
				if !errors.Is(err, errAlreadyExists) {
					next(err, "create", a.Pod, "")
				}
			}
		case workloads.StatefulSetUpdate:
			if a.Object != nil {
				var n *api.Pod
				if n, err = clone(a.Object); err == nil {
					n.ResourceVersion = ""
					_, err = m.store.update(n)
				}
				next(err, "update", a.Pod, "")
			}
		case workloads.StatefulSetDelete:
			_, err = m.store.deletePod(set.Namespace+"/"+a.Pod, nil, now)
			if errors.Is(err, errNotFound) {
				err = nil
			}
			next(err, "delete", a.Pod, "")
		}
		if err != nil {
			// The sync stops at its first failed write (the controller
			// retries the set with back-off, at its next deadline); the
			// status it computed is written all the same, as upstream's
			// UpdateStatefulSet writes it after a failed sync.
			events = nil
			break writes
		}
	}
	// Once every write went through, what is left is the Event of the
	// write the sync itself failed (a claim being deleted).
	for i := range events {
		m.rec.event(now, &events[i])
	}
	if sync.WriteStatus {
		st := sync.Status
		return m.writeStatus("StatefulSet", objectKey(&set.ObjectMeta), set.UID, func(o api.Object) { o.(*api.StatefulSet).Status = st })
	}
	return nil
}

// claimCreateErrors is the API server's verdict on the claims a sync of
// set may create — those of its templates, for its ordinals, that the
// cache lacks — in ordinal order, as the creates would come: LimitRanger
// and the namespace's ResourceQuotas, charged claim by claim on copies.
// It returns the refused ones, by name (nil when none is).
func (m *Machine) claimCreateErrors(set *api.StatefulSet, have []*api.PersistentVolumeClaim, now time.Time) map[string]error {
	if len(set.Spec.VolumeClaimTemplates) == 0 || set.Spec.Replicas == nil {
		return nil
	}
	quotas, ranges := m.store.quotas(set.Namespace), m.store.limitRanges(set.Namespace)
	if len(quotas) == 0 && len(ranges) == 0 {
		return nil
	}
	exists := make(map[string]bool, len(have))
	for _, c := range have {
		exists[c.Name] = true
	}
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	var out map[string]error
	for ord := start; ord < start+int(*set.Spec.Replicas); ord++ {
		claims, err := workloads.StatefulSetClaims(set, ord)
		if err != nil {
			return nil
		}
		for _, c := range claims {
			if exists[c.Name] {
				continue
			}
			charged, err := m.store.admitClaim(c, quotas, now)
			if err != nil {
				if out == nil {
					out = map[string]error{}
				}
				out[c.Name] = err
				continue
			}
			quotas = withCharged(quotas, charged)
		}
	}
	return out
}

// withCharged is quotas with the ones charged replaced by their charged
// copies.
func withCharged(quotas, charged []*api.ResourceQuota) []*api.ResourceQuota {
	if len(charged) == 0 {
		return quotas
	}
	next := slices.Clone(quotas)
	for _, c := range charged {
		for i, q := range next {
			if q.UID == c.UID && q.Name == c.Name {
				next[i] = c
			}
		}
	}
	return next
}

// statefulSetPods is the podOwner of a StatefulSet's pod of ordinal:
// prefix is the pod's name (StatefulSet pods are named, not generated).
func statefulSetPods(set *api.StatefulSet, ordinal int) podOwner {
	return podOwner{uid: set.UID, generation: set.Generation, namespace: set.Namespace,
		prefix: fmt.Sprintf("%s-%d", set.Name, ordinal), pod: func() (*api.Pod, error) {
			return workloads.StatefulSetPod(set, ordinal, "")
		}}
}

// firstMissingOrdinal is the lowest ordinal of set's range without a pod
// among pods.
func firstMissingOrdinal(set *api.StatefulSet, pods []*api.Pod) int {
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	have := map[string]bool{}
	for _, p := range pods {
		if p != nil && p.Namespace == set.Namespace {
			have[p.Name] = true
		}
	}
	for ord := start; ; ord++ {
		if !have[fmt.Sprintf("%s-%d", set.Name, ord)] {
			return ord
		}
	}
}

// runDaemonSets syncs the due DaemonSets (workloads.DaemonSetController)
// over every node and the namespace's pods, and carries out their writes.
func (m *Machine) runDaemonSets(now time.Time) error {
	var nodes []*api.Node // listed once, when a DaemonSet is due
	for _, key := range dueObjects(m.apps.dsDirty, m.apps.ds, now) {
		if nodes == nil {
			nodes = listed[*api.Node](m.cache, "Node")
		}
		obj := m.cache.get("DaemonSet", key)
		// The DaemonSet controller starts afresh for a new uid itself.
		c, ok := machineFor(m, "", key, obj, m.apps.ds, func() *workloads.DaemonSetController { return &workloads.DaemonSetController{} })
		if !ok {
			continue
		}
		ds := obj.(*api.DaemonSet)
		in := workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes,
			Pods:      inNamespace[*api.Pod](m.cache, "Pod", ds.Namespace),
			Revisions: inNamespace[*api.ControllerRevision](m.cache, "ControllerRevision", ds.Namespace)}
		// The API server's verdict on the daemon pods (one pod for a node
		// stands for all: admission reads nothing of the node).
		var pods podOwner
		var refused error
		if len(nodes) > 0 {
			pods = daemonSetPods(ds, nodes[0].Name)
			var accept int
			if accept, refused = m.admitsPods(pods); refused != nil {
				in.AcceptCreates, in.CreateError = &accept, m.refusedPod(pods, refused)
			}
		}
		sync, err := stepMachine(m, "daemonset-controller", key, c, in, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("DaemonSet", ds.Namespace, ds.Name), err.Error())
			continue
		}
		if err := m.daemonSetWrites(ds, sync, pods, refused, now); err != nil {
			return err
		}
	}
	return nil
}

// daemonSetWrites carries out a DaemonSet sync's writes and records its
// Events; refused is the verdict on its pods' creates (admitsPods on
// pods): each refused create after the first names a new pod (refusedPod).
func (m *Machine) daemonSetWrites(ds *api.DaemonSet, sync workloads.DaemonSetSync, pods podOwner, refused error, now time.Time) error {
	// The history first (upstream's constructHistory), with the pods
	// moved onto a deduplicated revision's hash; its cleanup, listed
	// last, goes with it.
	if err := m.controllerRevisionWrites(sync.RevisionActions, now); err != nil {
		return err
	}
	for _, p := range sync.Relabel {
		hash := p.Labels[api.LabelControllerRevisionHash]
		if err := m.patchPodMeta(p.Key(), p.UID, func(meta *api.ObjectMeta) {
			meta.Labels = maps.Clone(meta.Labels)
			if meta.Labels == nil {
				meta.Labels = map[string]string{}
			}
			meta.Labels[api.LabelControllerRevisionHash] = hash
		}); err != nil {
			return err
		}
	}
	ref := workloads.NewControllerRef(&ds.ObjectMeta, "apps/v1", "DaemonSet")
	if err := m.ownershipPatches(sync.Adopt, sync.Release, ref, ""); err != nil {
		return err
	}
	owner := workloads.WorkloadReference("DaemonSet", "apps/v1", &ds.ObjectMeta)
	// As upstream's sync records them: what it found on the nodes
	// (SelectingAll, FailedDaemonPod, SucceededDaemonPod), then the
	// creates, then the deletes.
	failed := 0
	for i := range sync.Events {
		e := &sync.Events[i]
		if e.Reason == workloads.ReasonSuccessfulDelete {
			continue
		}
		if refused != nil && e.Reason == workloads.ReasonFailedCreate {
			if failed++; failed > 1 {
				fresh := workloads.PodCreateFailedEvent(e.Regarding, e.Source, m.refusedPod(pods, refused))
				e = &fresh
			}
		}
		m.rec.event(now, e)
	}
	for _, c := range sync.Create {
		if err := m.createOwnedPod(c.Pod, ds.Namespace, owner, workloads.DaemonSetControllerName, now); err != nil {
			return err
		}
	}
	for _, d := range sync.Delete {
		if _, err := m.store.deletePod(d.Pod.Key(), nil, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	for i := range sync.Events {
		if sync.Events[i].Reason == workloads.ReasonSuccessfulDelete {
			m.rec.event(now, &sync.Events[i])
		}
	}
	if sync.StatusUpdated {
		st := sync.Status
		return m.writeStatus("DaemonSet", objectKey(&ds.ObjectMeta), ds.UID, func(o api.Object) { o.(*api.DaemonSet).Status = st })
	}
	return nil
}

// createOwnedPod creates a pod a controller sent (generateName; the
// namespace is the request's) and records RealPodControl's event for it:
// SuccessfulCreate with the name the API server gave, or FailedCreate.
func (m *Machine) createOwnedPod(pod *api.Pod, namespace string, owner api.ObjectReference, source string, now time.Time) error {
	if pod == nil {
		return nil
	}
	p, err := clone(pod)
	if err != nil {
		return err
	}
	p.Namespace = namespace
	var e api.Event
	if created, err := m.store.create(p, now); err != nil {
		e = workloads.PodCreateFailedEvent(owner, source, err)
	} else {
		_, meta := objectMeta(created)
		e = workloads.PodCreatedEvent(owner, source, meta.Name)
	}
	m.rec.event(now, &e)
	return nil
}

// ownershipPatches patches a controller's reference onto the orphans it
// adopts and off the pods it releases; finalizer, when not empty, is added
// on adoption and removed on release with the same patch (the Job
// controller's tracking finalizer).
func (m *Machine) ownershipPatches(adopt, release []*api.Pod, ref api.OwnerReference, finalizer string) error {
	for _, p := range adopt {
		if err := m.patchPodMeta(p.Key(), p.UID, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.AdoptOwnerReferences(meta.OwnerReferences, ref)
			if finalizer != "" && !slices.Contains(meta.Finalizers, finalizer) {
				meta.Finalizers = append(slices.Clone(meta.Finalizers), finalizer)
			}
		}); err != nil {
			return err
		}
	}
	for _, p := range release {
		if err := m.patchPodMeta(p.Key(), p.UID, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.ReleaseOwnerReferences(meta.OwnerReferences, ref.UID)
			if finalizer != "" {
				meta.Finalizers = slices.DeleteFunc(slices.Clone(meta.Finalizers), func(f string) bool { return f == finalizer })
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// runJobs syncs the due Jobs (workloads.JobController) and carries out
// their requests in order, then strips the tracking finalizer from the
// orphan pods of Jobs that are gone.
func (m *Machine) runJobs(now time.Time) error {
	for k, t := range m.apps.jobBatched {
		if !t.After(now) {
			m.apps.jobDirty[k] = true
			delete(m.apps.jobBatched, k)
		}
	}
	for _, key := range dueObjects(m.apps.jobDirty, m.apps.jobs, now) {
		obj := m.cache.get("Job", key)
		c, ok := machineFor(m, "Job", key, obj, m.apps.jobs, func() *workloads.JobController {
			return workloads.NewJobController(workloads.JobConfig{})
		})
		if !ok {
			continue
		}
		job := obj.(*api.Job)
		in := workloads.JobInput{Job: job, Pods: inNamespace[*api.Pod](m.cache, "Pod", job.Namespace)}
		pods := jobPods(job, nil)
		accept, refused := m.admitsPods(pods)
		if refused != nil {
			in.AcceptCreates, in.CreateError = &accept, m.refusedPod(pods, refused)
		}
		sync, err := stepMachine(m, "job-controller", key, c, in, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("Job", job.Namespace, job.Name), err.Error())
			continue
		}
		if err := m.jobWrites(job, sync, refused, now); err != nil {
			return err
		}
	}
	return m.releaseOrphanJobPods()
}

// runTTLAfterFinished runs the ttl-after-finished controller over the
// Jobs it is to look at (workloads.TTLAfterFinishedController): a
// finished Job whose ttlSecondsAfterFinished has run out is deleted with
// propagationPolicy Foreground and a precondition on its uid.
func (m *Machine) runTTLAfterFinished(now time.Time) error {
	for _, key := range dueObjects(m.apps.ttlDirty, m.apps.ttl, now) {
		obj := m.cache.get("Job", key)
		c, ok := machineFor(m, "TTL/Job", key, obj, m.apps.ttl, func() *workloads.TTLAfterFinishedController {
			return new(workloads.TTLAfterFinishedController)
		})
		if !ok {
			continue
		}
		job := obj.(*api.Job)
		sync, err := stepMachine(m, workloads.TTLAfterFinishedControllerName, key, c, job, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("Job", job.Namespace, job.Name), err.Error())
			continue
		}
		if !sync.Delete {
			continue
		}
		if cur, _ := m.store.get("Job", key).(*api.Job); cur == nil || cur.UID != job.UID {
			continue // the uid precondition fails: gone, or another Job now
		}
		fg := api.DeletePropagationForeground
		if err := m.deleteWithOptions("Job", key, &api.DeleteOptions{PropagationPolicy: &fg, Preconditions: &api.Preconditions{UID: &job.UID}}, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	return nil
}

// jobPods is the podOwner of a Job's pods: pod, or one from its template
// (named by the Job's name) when nil.
func jobPods(job *api.Job, pod *api.Pod) podOwner {
	prefix := job.Name + "-"
	if pod != nil {
		prefix = pod.GenerateName
	}
	return podOwner{uid: job.UID, generation: job.Generation, namespace: job.Namespace, prefix: prefix, pod: func() (*api.Pod, error) {
		if pod != nil {
			return pod, nil
		}
		ref := workloads.NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
		return workloads.CreatePodFromTemplate(&job.Spec.Template, job.Name, "", &ref)
	}}
}

// jobWrites carries out a Job sync's requests and records its Events;
// refused is the verdict on its pods' creates (admitsPods): each refused
// create names a pod of its own (refusedPod on the pod sent).
func (m *Machine) jobWrites(job *api.Job, sync workloads.JobSync, refused error, now time.Time) error {
	ref := workloads.NewControllerRef(&job.ObjectMeta, "batch/v1", "Job")
	owner := workloads.WorkloadReference("Job", "batch/v1", &job.ObjectMeta)
	for _, a := range sync.Actions {
		var err error
		switch a.Kind {
		case workloads.JobAdoptPod:
			err = m.ownershipPatches([]*api.Pod{a.Pod}, nil, ref, workloads.JobTrackingFinalizer)
		case workloads.JobReleasePod:
			err = m.ownershipPatches(nil, []*api.Pod{a.Pod}, ref, workloads.JobTrackingFinalizer)
		case workloads.JobCreatePod:
			err = m.createOwnedPod(a.Pod, job.Namespace, owner, workloads.JobControllerName, now)
		case workloads.JobDeletePod:
			if _, err = m.store.deletePod(a.Pod.Key(), nil, now); errors.Is(err, errNotFound) {
				err = nil
			}
		case workloads.JobRemoveFinalizer:
			err = m.removePodFinalizer(a.Pod.Key(), a.Pod.UID, workloads.JobTrackingFinalizer, now)
		case workloads.JobWriteStatus:
			st := *a.Status
			err = m.writeStatus("Job", objectKey(&job.ObjectMeta), job.UID, func(o api.Object) { o.(*api.Job).Status = st })
		}
		if err != nil {
			return err
		}
	}
	failed := 0
	for i := range sync.Events {
		e := &sync.Events[i]
		if refused != nil && e.Reason == workloads.ReasonFailedCreate && failed < len(sync.FailedCreates) {
			fresh := workloads.PodCreateFailedEvent(e.Regarding, e.Source, m.refusedPod(jobPods(job, sync.FailedCreates[failed]), refused))
			failed++
			e = &fresh
		}
		m.rec.event(now, e)
	}
	return nil
}

// releaseOrphanJobPods removes the tracking finalizer from pods whose
// controller is not a Job the cache holds (the Job was deleted, or the
// pod never had one), as the Job controller's orphan pod sync does: the
// Job that would count them is gone.
func (m *Machine) releaseOrphanJobPods() error {
	for _, key := range takeMarked(m.apps.orphans) {
		p, _ := m.cache.get("Pod", key).(*api.Pod)
		if p == nil || !slices.Contains(p.Finalizers, workloads.JobTrackingFinalizer) {
			continue
		}
		if r := p.ControllerRef(); r != nil && r.Kind == "Job" {
			if j, _ := m.cache.get("Job", p.Namespace+"/"+r.Name).(*api.Job); j != nil && j.UID == r.UID {
				continue
			}
		}
		if err := m.removePodFinalizer(key, p.UID, workloads.JobTrackingFinalizer, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// removePodFinalizer is a patch removing finalizer from the pod, through
// termination.UpdateFinalizers: the pod leaves storage when it was being
// deleted with grace 0 and this was its last finalizer.
func (m *Machine) removePodFinalizer(key, uid, finalizer string, _ time.Time) error {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid || !slices.Contains(old.Finalizers, finalizer) {
		return nil
	}
	rest := slices.DeleteFunc(slices.Clone(old.Finalizers), func(f string) bool { return f == finalizer })
	u, err := termination.UpdateFinalizers(old, rest)
	if err != nil {
		return err
	}
	if u.Removed {
		m.store.rv++
		m.store.put("Pod", key, old, watchDeleted, old)
		return nil
	}
	p := u.Pod
	m.store.nextRV(&p.ObjectMeta)
	m.store.put("Pod", key, p, watchModified, old)
	return nil
}

// prepareWorkload is what kube-apiserver does to a workload object on
// create (old nil) or update before storing it: the apps/v1 or batch/v1
// defaulting (api.DefaultDeployment, ...), its validation (the whole of
// an apps kind's or a Job's:
// validateWorkloadTemplate; a refusal is the 422
// "Deployment.apps \"web\" is invalid: ..." text), and on update the
// generation bump of a spec change; a DaemonSet's deprecated.daemonset.template.generation
// annotation starts at 1 and moves with each template change (the
// DaemonSet strategy's templateGeneration). A PodDisruptionBudget's
// generation moves with a spec change; other kinds pass unchanged.
func prepareWorkload(o, old api.Object, load func(string) (*time.Location, error)) error {
	var spec, oldSpec any
	switch x := o.(type) {
	case *api.Deployment:
		api.DefaultDeployment(x)
		spec = x.Spec
		if old != nil {
			oldSpec = old.(*api.Deployment).Spec
		}
	case *api.ReplicaSet:
		api.DefaultReplicaSet(x)
		spec = x.Spec
		if old != nil {
			oldSpec = old.(*api.ReplicaSet).Spec
		}
	case *api.StatefulSet:
		api.DefaultStatefulSet(x)
		// The apps/v1 conversion writes every claim template's apiVersion
		// and kind (Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec),
		// so the API serves them set.
		for i := range x.Spec.VolumeClaimTemplates {
			x.Spec.VolumeClaimTemplates[i].APIVersion = "v1"
			x.Spec.VolumeClaimTemplates[i].Kind = "PersistentVolumeClaim"
		}
		spec = x.Spec
		if old != nil {
			oldSpec = old.(*api.StatefulSet).Spec
		}
	case *api.DaemonSet:
		api.DefaultDaemonSet(x)
		spec = x.Spec
		gen := int64(1)
		if old != nil {
			o := old.(*api.DaemonSet)
			oldSpec = o.Spec
			gen, _ = strconv.ParseInt(o.Annotations[workloads.AnnotationDaemonSetTemplateGeneration], 10, 64)
			if !specEqual(x.Spec.Template, o.Spec.Template) {
				gen++
			}
		}
		if x.Annotations == nil {
			x.Annotations = map[string]string{}
		}
		x.Annotations[workloads.AnnotationDaemonSetTemplateGeneration] = strconv.FormatInt(max(gen, 1), 10)
	case *api.Job:
		// SetDefaults_Job gives a new Job without labels its template's
		// labels map itself, not a copy, so the labels the Job strategy
		// then adds to the template (the generated selector's) show in
		// the Job's own labels too: left unset here, the Job gets the
		// template's labels once they are added (prepareWorkloadUID).
		shared := old == nil && len(x.Labels) == 0 && x.Spec.Template.Labels != nil
		api.DefaultJob(x)
		if shared {
			x.Labels = nil
		}
		spec = x.Spec
		if old != nil {
			oldSpec = old.(*api.Job).Spec
		} else {
			x.Status = api.JobStatus{}
		}
	case *api.CronJob:
		api.DefaultCronJob(x)
		spec = x.Spec
		if old != nil {
			oldSpec = old.(*api.CronJob).Spec
		} else {
			x.Status = api.CronJobStatus{}
		}
	case *api.PodDisruptionBudget:
		// The PodDisruptionBudget strategy's PrepareForUpdate: a spec
		// change moves the generation (the disruption controller's
		// status then observes it).
		if prev, ok := old.(*api.PodDisruptionBudget); ok && !specEqual(x.Spec, prev.Spec) {
			x.Generation = prev.Generation + 1
		}
		return nil
	default:
		return nil
	}
	if err := validateWorkloadTemplate(o, old, load); err != nil {
		return err
	}
	if old != nil {
		_, m := objectMeta(o)
		_, om := objectMeta(old)
		if !specEqual(spec, oldSpec) {
			m.Generation = om.Generation + 1
		}
	}
	return nil
}

// validateWorkloadTemplate refuses a workload the API server refuses,
// with the API server's message (validation.InvalidObjectMessage). A
// Deployment, ReplicaSet, DaemonSet or StatefulSet gets the whole apps
// validation (validation.ValidateDeployment, ValidateReplicaSet,
// ValidateDaemonSet, ValidateStatefulSet and their Update forms:
// metadata, replicas, strategy, selector, template, ...); a Job the whole
// batch validation (validation.ValidateJob, ValidateJobUpdate). An update without
// a resourceVersion is unconditional: it is checked with the stored
// object's, as the registry fills it in. A new Job is checked as its
// selector will be generated (with a stand-in uid: the uid's value does
// not change the answer).
func validateWorkloadTemplate(o, old api.Object, load func(string) (*time.Location, error)) error {
	kind, m := objectMeta(o)
	if old != nil && m.ResourceVersion == "" {
		_, om := objectMeta(old)
		m.ResourceVersion = om.ResourceVersion
	}
	group := "apps"
	var errs api.FieldErrors
	switch x := o.(type) {
	case *api.Deployment:
		if old == nil {
			errs = validation.ValidateDeployment(x)
		} else {
			errs = validation.ValidateDeploymentUpdate(x, old.(*api.Deployment))
		}
	case *api.ReplicaSet:
		if old == nil {
			errs = validation.ValidateReplicaSet(x)
		} else {
			errs = validation.ValidateReplicaSetUpdate(x, old.(*api.ReplicaSet))
		}
	case *api.StatefulSet:
		if old == nil {
			errs = validation.ValidateStatefulSet(x)
		} else {
			errs = validation.ValidateStatefulSetUpdate(x, old.(*api.StatefulSet))
		}
	case *api.DaemonSet:
		if old == nil {
			errs = validation.ValidateDaemonSet(x)
		} else {
			errs = validation.ValidateDaemonSetUpdate(x, old.(*api.DaemonSet))
		}
	case *api.Job:
		group = "batch"
		if old == nil {
			x = x.DeepCopy()
			x.UID = "00000000-0000-4000-8000-000000000000"
			workloads.GenerateJobSelector(x)
			errs = validation.ValidateJob(x)
		} else {
			errs = validation.ValidateJobUpdate(x, old.(*api.Job))
		}
	case *api.CronJob:
		group = "batch"
		o := validation.Options{LoadLocation: load}
		if old == nil {
			errs = o.ValidateCronJob(x)
		} else {
			errs = o.ValidateCronJobUpdate(x, old.(*api.CronJob))
		}
	default:
		errs = validation.ValidateWorkloadTemplate(o)
	}
	if len(errs) > 0 {
		return errors.New(validation.InvalidObjectMessage(kind, group, m.Name, errs))
	}
	return nil
}

// prepareWorkloadUID is the part of the API server's create that needs
// the uid: a Job's generated selector (workloads.GenerateJobSelector).
// A Job created without labels gets its template's, the generated ones
// included: SetDefaults_Job gives it the template's labels map itself
// when the template has labels, and when it has none the API server's
// defaulting of what it decodes from storage copies them, so the Job is
// served with them either way (real run pdb-job-percent).
func prepareWorkloadUID(o api.Object) {
	if j, ok := o.(*api.Job); ok {
		workloads.GenerateJobSelector(j)
		api.DefaultJob(j)
	}
}
