package cluster

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/namespace"
	"github.com/podsem/podsem/resourcequota"
	"github.com/podsem/podsem/workloads"
)

// replicaSetsDue returns the keys of the ReplicaSets to sync at now, sorted:
// those an event concerns and those whose requeue has come
// (ReplicaSetController.Queued); rsDirty is emptied.
func (m *Machine) replicaSetsDue(now time.Time) []string {
	keys := m.rsc.Queued(now)
	for k := range m.rsDirty {
		keys = append(keys, k)
	}
	clear(m.rsDirty)
	slices.Sort(keys)
	return slices.Compact(keys)
}

// inNamespace returns the cached objects of kind in namespace.
func inNamespace[T api.Object](c *store, kind, namespace string) []T {
	keys := c.namespaceKeys(kind, namespace)
	if len(keys) == 0 {
		return nil
	}
	return objectsOf[T](c, kind, keys)
}

// runReplicaSets syncs the due ReplicaSets with the ReplicaSet
// controller's machine and carries out each sync's writes.
func (m *Machine) runReplicaSets(now time.Time) error {
	for _, key := range m.replicaSetsDue(now) {
		rs, _ := m.cache.get("ReplicaSet", key).(*api.ReplicaSet)
		if gone := m.rsGone[key]; gone != nil && (rs == nil || rs.UID != gone.UID) {
			// The controller forgets the deleted set before it syncs one
			// of the same name.
			delete(m.rsGone, key)
			in := workloads.ReplicaSetInput{ReplicaSet: gone, PodEvents: m.rsEvents.take(), Deleted: true}
			if _, err := stepMachine(m, "replicaset-controller", key, m.rsc, in, now); err != nil {
				return err
			}
		}
		if rs == nil {
			continue
		}
		var others []*api.ReplicaSet
		for _, o := range inNamespace[*api.ReplicaSet](m.cache, "ReplicaSet", rs.Namespace) {
			if o.Name != rs.Name {
				others = append(others, o)
			}
		}
		in := workloads.ReplicaSetInput{
			ReplicaSet: rs, PodEvents: m.rsEvents.take(), OtherReplicaSets: others,
		}
		accept, refused := m.admitsPods(replicaSetPods(rs))
		if refused != nil {
			in.AcceptCreates, in.CreateError = &accept, m.refusedPod(replicaSetPods(rs), refused)
		}
		sync, err := stepMachine(m, "replicaset-controller", key, m.rsc, in, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("ReplicaSet", rs.Namespace, rs.Name), err.Error())
			continue
		}
		if err := m.replicaSetWrites(rs, sync, refused, now); err != nil {
			return err
		}
	}
	return nil
}

// podOwner is a workload whose controller creates its pods from one
// template: the API server admits each of them the same way (but for its
// generated name and, for a DaemonSet, its node), so one verdict serves a
// whole sync. uid and generation key the verdict; prefix is the pods'
// generateName; pod builds the pod the controller sends, unnamed.
type podOwner struct {
	uid        string
	generation int64
	namespace  string
	prefix     string
	pod        func() (*api.Pod, error)
}

func replicaSetPods(rs *api.ReplicaSet) podOwner {
	return podOwner{uid: rs.UID, generation: rs.Generation, namespace: rs.Namespace, prefix: rs.Name + "-", pod: func() (*api.Pod, error) {
		ref := workloads.NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
		return workloads.CreatePodFromTemplate(&rs.Spec.Template, rs.Name, "", &ref)
	}}
}

func daemonSetPods(ds *api.DaemonSet, node string) podOwner {
	return podOwner{uid: ds.UID, generation: ds.Generation, namespace: ds.Namespace, prefix: ds.Name + "-", pod: func() (*api.Pod, error) {
		return workloads.NewDaemonPod(ds, node, "")
	}}
}

// admitsPods reports whether the API server would accept a new pod of o
// (defaulting, admission, validation of the pod the controller sends), so
// that the controller's sync learns how many of its creates succeed, as it
// does from the API's answers: every pod of a sync is the same pod but for
// its generated name, so all pass or all fail — but for the namespace's
// ResourceQuotas, which admit pods until one has no room left: accept is
// then how many pass before the refusal (0 for any other refusal).
//
// Without quotas the verdict is kept per owner until its generation (its
// template), the PriorityClasses, the LimitRanges, the Namespaces or the
// ServiceAccounts change: nothing else it reads does (the generated
// name's suffix is always valid).
func (m *Machine) admitsPods(o podOwner) (accept int, refused error) {
	if ns, _ := m.store.get("Namespace", o.namespace).(*api.Namespace); ns.Terminating() {
		return 0, namespace.Admit(ns, resourceOf("Pod").String(), o.prefix)
	}
	if quotas := m.store.quotas(o.namespace); len(quotas) > 0 {
		return m.admitsPodsUnderQuota(o, quotas)
	}
	return 0, m.admitsPodsCached(o)
}

// quotaCreatesMax bounds how many creates of one sync the quota verdict
// counts (the ReplicaSet controller's burst is 500).
const quotaCreatesMax = 500

// admitsPodsUnderQuota is admitsPods in a namespace with quotas: the pod
// passes admission but for quota, then the quotas are charged one pod at a
// time, on copies, until one refuses.
func (m *Machine) admitsPodsUnderQuota(o podOwner, quotas []*api.ResourceQuota) (int, error) {
	p, err := m.admittedPod(o, "")
	if err != nil || p == nil {
		return 0, err
	}
	obj := quotaObject("Pod", p)
	for k := 0; k < quotaCreatesMax; k++ {
		charged, err := resourcequota.Admit(quotas, obj, p.Name, m.now)
		if err != nil {
			return k, quotaRefusal{err}
		}
		if len(charged) == 0 {
			return 0, nil // no quota counts the pod
		}
		quotas = withCharged(quotas, charged)
	}
	return 0, nil
}

// admitsPodsCached is admitsPods's verdict outside quota, kept per owner.
func (m *Machine) admitsPodsCached(o podOwner) error {
	if v, ok := m.podAdmit[o.uid]; ok && v.generation == o.generation && v.classWrites == m.store.classWrites {
		return v.err
	}
	err := m.admitPodAs(o, "")
	if m.podAdmit == nil {
		m.podAdmit = map[string]admitVerdict{}
	}
	m.podAdmit[o.uid] = admitVerdict{generation: o.generation, classWrites: m.store.classWrites, err: err}
	return err
}

// admitVerdict is admitsPods's answer for an owner at a generation and a
// count of the writes of what pod admission reads.
type admitVerdict struct {
	generation  int64
	classWrites uint64
	err         error
}

// quotaRefusal is the ResourceQuota plugin's verdict on the next create
// of a sync: its message holds for each later create of the sync (the
// quota is as full), each naming a pod of its own (refusedPod).
type quotaRefusal struct{ error }

func (r quotaRefusal) Unwrap() error { return r.error }

// refusedPod is the error of one refused create of a pod of o whose
// verdict is refused: a refusal after the API server generated the pod's
// name (validation, LimitRanger, Pod Security, ResourceQuota) names a new
// pod each time, as each request's random suffix does upstream; one before it
// (NamespaceLifecycle, ServiceAccount: naming the generateName) is the
// verdict itself.
func (m *Machine) refusedPod(o podOwner, refused error) error {
	var ae *admission.Error
	if q, ok := refused.(quotaRefusal); ok && errors.As(q.error, &ae) {
		renamed := *ae
		renamed.Name = m.store.refusedName("Pod", o.namespace, o.prefix)
		return quotaRefusal{&renamed}
	}
	if errors.Is(refused, namespace.ErrTerminating) || errors.As(refused, &ae) && ae.Name == o.prefix {
		return refused
	}
	if err := m.admitPodAs(o, m.store.refusedName("Pod", o.namespace, o.prefix)); err != nil {
		return err
	}
	return refused
}

// admitPodAs runs a pod of o named name ("": the name the API server
// would generate now) through the API server's create admission.
func (m *Machine) admitPodAs(o podOwner, name string) error {
	p, err := m.admittedPod(o, name)
	if err != nil || p == nil {
		return err
	}
	_, err = m.store.admitQuota(p, m.now)
	return err
}

// admittedPod is a pod of o named name ("": the name the API server would
// generate now) as the API server's create admission leaves it before
// quota, or its refusal; nil when o has no pod to send (the sync refuses
// it itself).
func (m *Machine) admittedPod(o podOwner, name string) (*api.Pod, error) {
	p, err := o.pod()
	if err != nil {
		return nil, nil // the sync itself refuses it, with its own error
	}
	if p, err = clone(p); err != nil {
		return nil, err
	}
	p.Namespace = o.namespace
	if name != "" {
		p.Name = name
	}
	if p.Name == "" {
		p.Name = m.store.generatedName("Pod", p.Namespace, p.GenerateName)
	}
	// Mutating admission sees a generated pod by its generateName, a named
	// one (a StatefulSet's) by its name.
	return m.store.admitPod(p, cmp.Or(p.GenerateName, p.Name))
}

// replicaSetWrites carries out a sync's writes and records its Events;
// refused is the verdict on the sync's creates (admitsPods): each
// refused create after the first names a new pod (refusedPod).
func (m *Machine) replicaSetWrites(rs *api.ReplicaSet, sync workloads.ReplicaSetSync, refused error, now time.Time) error {
	ref := workloads.NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
	for _, p := range sync.Adopted {
		if err := m.patchPodMeta(p.Key(), p.UID, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.AdoptOwnerReferences(meta.OwnerReferences, ref)
		}); err != nil {
			return err
		}
	}
	for _, p := range sync.Released {
		if err := m.patchPodMeta(p.Key(), p.UID, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.ReleaseOwnerReferences(meta.OwnerReferences, rs.UID)
		}); err != nil {
			return err
		}
	}
	owner := workloads.WorkloadReference("ReplicaSet", "apps/v1", &rs.ObjectMeta)
	for i := 0; i < sync.Created && sync.NewPod != nil; i++ {
		p, err := m.store.create(sync.NewPod, now)
		if err != nil {
			return fmt.Errorf("cluster: ReplicaSet %s: a create admitted beforehand failed: %w", rs.Name, err)
		}
		_, meta := objectMeta(p)
		e := workloads.PodCreatedEvent(owner, workloads.ReplicaSetControllerName, meta.Name)
		m.rec.event(now, &e)
	}
	for _, p := range sync.Delete {
		if _, err := m.store.deletePod(p.Key(), nil, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	failed := 0
	for i := range sync.Events {
		e := &sync.Events[i]
		if refused != nil && e.Reason == workloads.ReasonFailedCreate {
			if failed++; failed > 1 {
				fresh := workloads.PodCreateFailedEvent(e.Regarding, e.Source, m.refusedPod(replicaSetPods(rs), refused))
				e = &fresh
			}
		}
		m.rec.event(now, e)
	}
	if sync.StatusUpdated {
		if err := m.writeStatus("ReplicaSet", objectKey(&rs.ObjectMeta), rs.UID, func(o api.Object) {
			o.(*api.ReplicaSet).Status = sync.Status
		}); err != nil {
			return err
		}
	}
	return nil
}

// runDeployments syncs the due Deployments with the Deployment
// controller's machine and carries out each sync's writes.
func (m *Machine) runDeployments(now time.Time) error {
	for _, key := range m.dueDeployments(now) {
		d, _ := m.cache.get("Deployment", key).(*api.Deployment)
		if d == nil {
			delete(m.dcs, key) // gone: its work queue entry with it
			continue
		}
		dc := m.dcs[key]
		if dc == nil {
			dc = workloads.NewDeploymentController(workloads.DeploymentOptions{})
			m.dcs[key] = dc
		}
		sets := inNamespace[*api.ReplicaSet](m.cache, "ReplicaSet", d.Namespace)
		var pods []*api.Pod
		if workloads.DeploymentReadsPods(d) {
			pods = deploymentPods(m.cache, d, sets)
		}
		sync, err := stepMachine(m, "deployment-controller", key, dc, workloads.DeploymentInput{
			Deployment: d, ReplicaSets: sets, Pods: pods,
		}, now)
		if err != nil && !hasWrites(sync) {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("Deployment", d.Namespace, d.Name), err.Error())
			continue
		}
		if err := m.deploymentWrites(d, sync, now); err != nil {
			return err
		}
	}
	return nil
}

// dueDeployments are the Deployments to sync at now, in key order: those
// an informer event marked, and those whose controller's deadline (a
// progress-deadline check, a retry) has come. Upstream's work queue keeps
// a key's requeue and back-off per Deployment; so does dcs.
func (m *Machine) dueDeployments(now time.Time) []string {
	return dueObjects(m.depDirty, m.dcs, now)
}

// deploymentsDeadline is the earliest deadline of the Deployments'
// controllers.
func (m *Machine) deploymentsDeadline() time.Time { return earliestOf(time.Time{}, m.dcs) }

func hasWrites(s workloads.DeploymentSync) bool {
	return len(s.Adopted)+len(s.Released)+len(s.Updates)+len(s.Deleted) > 0 || s.NewReplicaSet != nil || s.StatusUpdated
}

func (m *Machine) deploymentWrites(d *api.Deployment, sync workloads.DeploymentSync, now time.Time) error {
	ref := workloads.NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")
	for _, name := range sync.Adopted {
		if err := m.patchMeta("ReplicaSet", d.Namespace+"/"+name, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.AdoptOwnerReferences(meta.OwnerReferences, ref)
		}); err != nil {
			return err
		}
	}
	for _, name := range sync.Released {
		if err := m.patchMeta("ReplicaSet", d.Namespace+"/"+name, func(meta *api.ObjectMeta) {
			meta.OwnerReferences = workloads.ReleaseOwnerReferences(meta.OwnerReferences, d.UID)
		}); err != nil {
			return err
		}
	}
	events := sync.Events
	if rs := sync.NewReplicaSet; rs != nil {
		if _, err := m.store.create(rs, now); err != nil {
			m.rec.scenario(now, "Warning", "FailedCreate", objRef("Deployment", d.Namespace, d.Name), err.Error())
			if rs.Spec.Replicas != nil && *rs.Spec.Replicas > 0 && len(events) > 0 {
				events = events[1:] // its "Scaled up ... from 0" is recorded on success only
			}
		}
	}
	for _, u := range sync.Updates {
		n, err := clone(u.ReplicaSet)
		if err != nil {
			return err
		}
		stored, _ := m.store.get("ReplicaSet", d.Namespace+"/"+u.Name).(*api.ReplicaSet)
		if stored == nil {
			continue
		}
		n.Status, n.OwnerReferences = stored.Status, stored.OwnerReferences
		if _, err := m.store.update(n); err != nil {
			m.rec.scenario(now, "Warning", "UpdateFailed", objRef("ReplicaSet", d.Namespace, u.Name), err.Error())
			continue
		}
	}
	for i := range events {
		m.rec.event(now, &events[i])
	}
	for _, name := range sync.Deleted {
		if err := m.store.remove("ReplicaSet", d.Namespace+"/"+name); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	if sync.StatusUpdated {
		if err := m.writeStatus("Deployment", objectKey(&d.ObjectMeta), d.UID, func(o api.Object) {
			x := o.(*api.Deployment)
			x.Status = sync.Status
			if sync.Revision != "" {
				x.Annotations = maps.Clone(x.Annotations) // the stored object's map is not edited
				if x.Annotations == nil {
					x.Annotations = map[string]string{}
				}
				x.Annotations[workloads.AnnotationDeploymentRevision] = sync.Revision
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// patchPodMeta patches a pod's metadata (owner references).
func (m *Machine) patchPodMeta(key, uid string, f func(*api.ObjectMeta)) error {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid {
		return nil
	}
	return m.patchMeta("Pod", key, f)
}

// patchMeta patches an object's metadata; an object gone is skipped.
func (m *Machine) patchMeta(kind, key string, f func(*api.ObjectMeta)) error {
	old := m.store.get(kind, key)
	if old == nil {
		return nil
	}
	n, err := clone(old)
	if err != nil {
		return err
	}
	_, meta := objectMeta(n)
	f(meta)
	m.store.nextRV(meta)
	m.store.put(kind, key, n, watchModified, old)
	return nil
}

// writeStatus writes an object's status subresource (the spec and
// generation stay); an object gone or replaced is skipped. f gets a
// shallow copy of the stored object: it must replace what it changes, not
// edit a value the copy shares with the stored object.
func (m *Machine) writeStatus(kind, key, uid string, f func(api.Object)) error {
	old := m.store.get(kind, key)
	if old == nil {
		return nil
	}
	if _, om := objectMeta(old); om.UID != uid {
		return nil
	}
	// A shallow copy: f replaces what it writes (the status, an
	// annotations map) and edits nothing it shares with the stored object,
	// which the store never edits; the no-op check then walks only what f
	// replaced.
	cp := reflect.New(reflect.TypeOf(old).Elem())
	cp.Elem().Set(reflect.ValueOf(old).Elem())
	n := cp.Interface().(api.Object)
	f(n)
	if specEqual(n, old) {
		return nil
	}
	_, meta := objectMeta(n)
	m.store.nextRV(meta)
	m.store.put(kind, key, n, watchModified, old)
	return nil
}
