package cluster

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/admission/podsecurity"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/namespace"
	"github.com/podsem/podsem/resourcequota"
	"github.com/podsem/podsem/termination"
	"github.com/podsem/podsem/workloads"
)

// watchType is the type of a watch event: ADDED, MODIFIED or DELETED, as
// the API server's watch reports them.
type watchType string

// The watch event types.
const (
	watchAdded    watchType = "ADDED"
	watchModified watchType = "MODIFIED"
	watchDeleted  watchType = "DELETED"
)

// watchEvent is one change the store made, delivered to every component's
// informer in the order the writes happened.
type watchEvent struct {
	Type   watchType
	Kind   string
	Key    string
	Object api.Object // as stored after the write; for DELETED the last state
	Old    api.Object // before the write, nil for ADDED
}

// errNotFound is the API server's 404: the object named does not exist.
var errNotFound = errors.New("not found")

// notFound is the API server's 404 for the object kind/key, worded as
// client-go prints it: `pods "web-0" not found`, `deployments.apps "web"
// not found` (the resource and its group, the name without its
// namespace). It is errNotFound, and workloads.ErrNotFound for the
// controllers' clients.
func notFound(kind, key string) error {
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		name = key[i+1:]
	}
	return apiError{fmt.Errorf("%s %q %w", resourceOf(kind), name, errNotFound), workloads.ErrNotFound}
}

// errAlreadyExists is the API server's 409 AlreadyExists on create.
var errAlreadyExists = errors.New("already exists")

// store is the API server with its storage: objects by kind and key, one
// resourceVersion counter, deterministic uids and generateName suffixes, and
// the queue of watch events the writes produced. It never edits a stored
// object: a write stores a new value, so a component holding an old one
// keeps a consistent snapshot, as an informer's cache does.
type store struct {
	objs    map[string]map[string]api.Object
	sorted  map[string][]string // each kind's keys in order; nil when stale
	rv      int64
	uids    int64
	watch   []watchEvent
	lent    []watchEvent // the array drainWatch last returned
	tolSecs admission.TolerationSeconds
	// loadLocation is the time zone database (Config.LoadLocation).
	loadLocation func(string) (*time.Location, error)
	index        storeIndex
	// classWrites counts the writes of PriorityClasses, LimitRanges,
	// Namespaces (Pod Security's labels) and ServiceAccounts, the kinds pod
	// admission reads.
	classWrites uint64
	// refusedNames counts the names generated for refused creates
	// (refusedName).
	refusedNames uint64
	// nodeList is every Node by name (nodes), nil when stale; nodePos
	// each one's position. A write of a node already listed replaces it in
	// place.
	nodeList []*api.Node
	nodePos  map[string]int
	// nodeSet counts the changes of the set of Node names.
	nodeSet uint64
	// nodeWritten, when set, learns of each Node write: the object now
	// stored, nil when deleted.
	nodeWritten func(name string, n *api.Node)
	// written, when set, learns of each write: the object before (nil
	// when created) and after (nil when deleted).
	written func(kind, key string, old, n api.Object)
	// serviceIPs and nodePorts count the cluster IPs and node ports the
	// Service registry allocated.
	serviceIPs, nodePorts int
}

func newStore(tol admission.TolerationSeconds) *store {
	return &store{objs: map[string]map[string]api.Object{}, sorted: map[string][]string{}, tolSecs: tol, index: newStoreIndex()}
}

// objectMeta returns the kind and the metadata of o, nil for a kind the
// store does not hold.
func objectMeta(o api.Object) (string, *api.ObjectMeta) {
	switch o := o.(type) {
	case *api.Pod:
		return "Pod", &o.ObjectMeta
	case *api.Node:
		return "Node", &o.ObjectMeta
	case *api.Namespace:
		return "Namespace", &o.ObjectMeta
	case *api.PodDisruptionBudget:
		return "PodDisruptionBudget", &o.ObjectMeta
	case *api.PriorityClass:
		return "PriorityClass", &o.ObjectMeta
	case *api.Service:
		return "Service", &o.ObjectMeta
	case *api.Deployment:
		return "Deployment", &o.ObjectMeta
	case *api.ReplicaSet:
		return "ReplicaSet", &o.ObjectMeta
	case *api.StatefulSet:
		return "StatefulSet", &o.ObjectMeta
	case *api.ControllerRevision:
		return "ControllerRevision", &o.ObjectMeta
	case *api.DaemonSet:
		return "DaemonSet", &o.ObjectMeta
	case *api.Job:
		return "Job", &o.ObjectMeta
	case *api.ResourceQuota:
		return "ResourceQuota", &o.ObjectMeta
	case *api.CronJob:
		return "CronJob", &o.ObjectMeta
	case *api.PersistentVolumeClaim:
		return "PersistentVolumeClaim", &o.ObjectMeta
	case *api.PersistentVolume:
		return "PersistentVolume", &o.ObjectMeta
	case *api.StorageClass:
		return "StorageClass", &o.ObjectMeta
	case *api.CSINode:
		return "CSINode", &o.ObjectMeta
	case *api.CSIDriver:
		return "CSIDriver", &o.ObjectMeta
	case *api.VolumeAttachment:
		return "VolumeAttachment", &o.ObjectMeta
	case *api.LimitRange:
		return "LimitRange", &o.ObjectMeta
	case *api.Unstructured:
		if o.Kind == "" {
			return "", nil
		}
		return o.Kind, &o.ObjectMeta
	}
	return "", nil
}

// objectKey is the store's key of an object: namespace/name, or name for a
// cluster-scoped one.
func objectKey(m *api.ObjectMeta) string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// clone returns a copy of o sharing nothing with it (the api types'
// DeepCopy).
func clone[T api.Object](o T) (T, error) {
	var zero T
	c := deepCopy(o)
	if c == nil {
		return zero, fmt.Errorf("cluster: %w: object of type %T", api.ErrInvalidInput, o)
	}
	return c.(T), nil
}

func (s *store) get(kind, key string) api.Object { return s.objs[kind][key] }

// list returns the objects of kind in key order.
func (s *store) list(kind string) []api.Object {
	m := s.objs[kind]
	keys, ok := s.sorted[kind]
	if !ok {
		keys = make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		s.sorted[kind] = keys
	}
	out := make([]api.Object, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// listed is every object of kind, by key, as T.
func listed[T api.Object](s *store, kind string) []T {
	objs := s.list(kind)
	if len(objs) == 0 {
		return nil
	}
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(T))
	}
	return out
}

func (s *store) pods() []*api.Pod { return listed[*api.Pod](s, "Pod") }

// nodes is every Node, by name. The slice is the store's own, valid until
// the next write of a Node: do not modify it, and do not keep it (the node
// lifecycle controller and pod GC read it during their step only).
func (s *store) nodes() []*api.Node {
	if s.nodeList == nil {
		s.nodeList = listed[*api.Node](s, "Node")
		s.nodePos = make(map[string]int, len(s.nodeList))
		for i, n := range s.nodeList {
			s.nodePos[n.Name] = i
		}
	}
	return s.nodeList
}

func (s *store) put(kind, key string, o api.Object, typ watchType, old api.Object) {
	if s.objs[kind] == nil {
		s.objs[kind] = map[string]api.Object{}
	}
	prev, existed := s.objs[kind][key]
	if kind == "PriorityClass" || kind == "LimitRange" || kind == "Namespace" || kind == "ServiceAccount" {
		s.classWrites++
	}
	if typ == watchDeleted {
		s.index.update(kind, key, prev, nil)
	} else {
		s.index.update(kind, key, prev, o)
	}
	if typ == watchDeleted {
		delete(s.objs[kind], key)
	} else {
		s.objs[kind][key] = o
	}
	if existed != (typ != watchDeleted) {
		delete(s.sorted, kind) // a key came or went
	}
	if kind == "Node" && s.nodeWritten != nil {
		n, _ := o.(*api.Node)
		if typ == watchDeleted {
			n = nil
		}
		s.nodeWritten(key, n)
	}
	if kind == "Node" && s.nodeList != nil {
		if existed && typ != watchDeleted {
			s.nodeList[s.nodePos[key]] = o.(*api.Node)
		} else {
			s.nodeList, s.nodePos = nil, nil
		}
	}
	if kind == "Node" && existed != (typ != watchDeleted) {
		s.nodeSet++
	}
	if s.written != nil {
		if typ == watchDeleted {
			s.written(kind, key, prev, nil)
		} else {
			s.written(kind, key, prev, o)
		}
	}
	s.watch = append(s.watch, watchEvent{Type: typ, Kind: kind, Key: key, Object: o, Old: old})
}

func (s *store) nextRV(m *api.ObjectMeta) {
	s.rv++
	m.ResourceVersion = strconv.FormatInt(s.rv, 10)
}

// nameSuffixAlphabet is the API server's generateName alphabet (consonants
// and digits without look-alikes: apimachinery's util/rand).
const nameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// generatedName is the name the store gives an object with generateName:
// the prefix and five characters of the API server's alphabet. Upstream
// draws them at random; the store draws them from a hash of the prefix and
// a counter, so that a run is reproducible, and moves on to the next
// counter value on a collision, as a client retrying the create would.
func (s *store) generatedName(kind, namespace, prefix string) string {
	for i := 0; ; i++ {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%s/%s/%d/%d", kind, namespace, prefix, s.uids, i)
		name := prefix + nameSuffix(h.Sum64())
		key := name
		if namespace != "" {
			key = namespace + "/" + name
		}
		if s.objs[kind][key] == nil {
			return name
		}
	}
}

// refusedName is a name the API server generates from prefix for a create
// it then refuses: a new one each time (the store's count of them salts
// it), never the name an accepted create gets.
func (s *store) refusedName(kind, namespace, prefix string) string {
	s.refusedNames++
	h := fnv.New64a()
	fmt.Fprintf(h, "refused/%s/%s/%s/%d", kind, namespace, prefix, s.refusedNames)
	return prefix + nameSuffix(h.Sum64())
}

// nameSuffix is a generated name's 5-character suffix, in the API
// server's alphabet, from a hash.
func nameSuffix(v uint64) string {
	b := make([]byte, 5)
	for j := range b {
		b[j] = nameSuffixAlphabet[v%uint64(len(nameSuffixAlphabet))]
		v /= uint64(len(nameSuffixAlphabet))
	}
	return string(b)
}

// create stores a new object as kube-apiserver does: name from
// generateName, API defaulting, admission (pods, Nodes: TaintNodesByCondition)
// and validation (pods), a uid,
// creationTimestamp (whole seconds), generation 1 and a resourceVersion.
// o is not modified.
func (s *store) create(o api.Object, now time.Time) (api.Object, error) {
	kind, m := objectMeta(o)
	if m == nil {
		return nil, fmt.Errorf("cluster: %w: object of type %T", api.ErrInvalidInput, o)
	}
	o, err := clone(o)
	if err != nil {
		return nil, err
	}
	_, m = objectMeta(o)
	admitName := cmp.Or(m.Name, m.GenerateName) // the name admission plugins see
	if m.Namespace != "" && !clusterScoped[kind] {
		// NamespaceLifecycle (a mutating plugin: before the name is
		// generated, so a generateName create is named by its prefix).
		ns, _ := s.objs["Namespace"][m.Namespace].(*api.Namespace)
		if ns == nil {
			return nil, fmt.Errorf("namespaces %q %w", m.Namespace, errNotFound)
		}
		if err := namespace.Admit(ns, resourceOf(kind).String(), admitName); err != nil {
			return nil, err
		}
	}
	if m.Name == "" && m.GenerateName != "" {
		m.Name = s.generatedName(kind, m.Namespace, m.GenerateName)
	}
	if m.Name == "" {
		return nil, fmt.Errorf("%s: metadata.name: Required value: name or generateName is required", kind)
	}
	key := objectKey(m)
	if s.objs[kind][key] != nil {
		return nil, fmt.Errorf("%s %q: %w", kind, key, errAlreadyExists)
	}
	switch x := o.(type) {
	case *api.Pod:
		p, err := s.admitPod(x, admitName)
		if err != nil {
			return nil, err
		}
		o, m = p, &p.ObjectMeta
	case *api.LimitRange:
		api.DefaultLimitRange(x)
		if errs := validation.ValidateLimitRange(x); len(errs) > 0 {
			return nil, errors.New(validation.InvalidObjectMessage("LimitRange", "", x.Name, errs))
		}
	case *api.ResourceQuota:
		// The resourcequota strategy's PrepareForCreate: the status is
		// the controller's to write.
		x.Status = api.ResourceQuotaStatus{}
		if errs := validation.ValidateResourceQuota(x); len(errs) > 0 {
			return nil, errors.New(validation.InvalidObjectMessage("ResourceQuota", "", x.Name, errs))
		}
	case *api.Node:
		x.Spec.Taints = admission.NodeCreateTaints(x) // TaintNodesByCondition
	case *api.PersistentVolumeClaim:
		if err := s.admitClaimBeforeQuota(x); err != nil {
			return nil, err
		}
	case *api.PersistentVolume, *api.StorageClass, *api.CSIDriver:
		defaultStorage(x)
		s.admitStorage(x)
	case *api.PriorityClass:
		if err := admitPriorityClass(x); err != nil {
			return nil, err
		}
	case *api.Service:
		api.DefaultService(x)
		s.allocateService(x)
	case *api.Namespace:
		namespace.PrepareForCreate(x)
	default:
		if err := prepareWorkload(o, nil, s.loadLocation); err != nil {
			return nil, err
		}
	}
	charged, err := s.admitQuota(o, now)
	if err != nil {
		return nil, err
	}
	for _, q := range charged {
		s.nextRV(&q.ObjectMeta)
		s.put("ResourceQuota", objectKey(&q.ObjectMeta), q, watchModified, s.get("ResourceQuota", objectKey(&q.ObjectMeta)))
	}
	s.uids++
	m.UID = fmt.Sprintf("%08x-0000-4000-8000-%012x", s.uids, s.uids)
	prepareWorkloadUID(o)
	m.CreationTimestamp = api.NewTime(now.Truncate(time.Second))
	m.Generation = 0
	if generationKinds[kind] {
		m.Generation = 1
	}
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	s.nextRV(m)
	s.put(kind, key, o, watchAdded, nil)
	return o, nil
}

// generationKinds are the kinds whose registry strategy starts
// metadata.generation at 1 on create (PrepareForCreate); the others
// (Node, Namespace, Service, the storage kinds, ControllerRevision) have
// none.
var generationKinds = map[string]bool{"Pod": true, "Deployment": true, "ReplicaSet": true, "StatefulSet": true,
	"DaemonSet": true, "Job": true, "CronJob": true, "PodDisruptionBudget": true, "PriorityClass": true}

// admitPod runs a pod create through defaulting, the LimitRanger,
// ServiceAccount, Priority, DefaultTolerationSeconds and PodTopologyLabels
// admission plugins, validation, LimitRanger's validation, Pod Security
// admission (the namespace's enforce labels) and the registry's
// PrepareForCreate, returning the pod as it would be stored. The
// ServiceAccount plugin refuses before the name is generated, naming the
// pod admitName (its generateName when the API server generates its
// name); LimitRanger and Pod Security validate after, naming it by its
// name.
func (s *store) admitPod(p *api.Pod, admitName string) (*api.Pod, error) {
	api.DefaultPod(p)
	ranges := s.limitRanges(p.Namespace)
	admission.LimitRangerDefaults(p, ranges)
	if err := admission.ServiceAccount(p, admitName, s.serviceAccounts(p.Namespace)); err != nil {
		return nil, err
	}
	var classes []api.PriorityClass
	for _, o := range s.list("PriorityClass") {
		classes = append(classes, *o.(*api.PriorityClass))
	}
	prio, err := admission.ResolvePriority(p, classes)
	if err != nil {
		return nil, err
	}
	prio.Apply(p)
	p.Spec.Tolerations = admission.DefaultTolerations(p, s.tolSecs)
	if p.Spec.NodeName != "" {
		n, _ := s.get("Node", p.Spec.NodeName).(*api.Node)
		p.Labels = admission.WithPodTopologyLabels(p.Labels, n)
	}
	if errs := validation.ValidatePodCreate(p); len(errs) > 0 {
		return nil, errors.New(validation.InvalidObjectMessage("Pod", "", p.Name, errs))
	}
	if err := admission.LimitRangerCheck(p, p.Name, ranges); err != nil {
		return nil, err
	}
	ns, _ := s.get("Namespace", p.Namespace).(*api.Namespace)
	var labels map[string]string
	if ns != nil {
		labels = ns.Labels
	}
	if err := podsecurity.Admit(p, podsecurity.NamespacePolicy(labels)); err != nil {
		return nil, err
	}
	return validation.PrepareForCreate(p), nil
}

// serviceAccounts are the names of the ServiceAccounts of namespace (held
// as api.Unstructured).
func (s *store) serviceAccounts(namespace string) []string {
	var out []string
	for _, k := range s.namespaceKeys("ServiceAccount", namespace) {
		if o := s.get("ServiceAccount", k); o != nil {
			_, m := objectMeta(o)
			out = append(out, m.Name)
		}
	}
	return out
}

// quotas are the ResourceQuotas of namespace, by name.
func (s *store) quotas(namespace string) []*api.ResourceQuota {
	if namespace == "" {
		return nil
	}
	return objectsOf[*api.ResourceQuota](s, "ResourceQuota", s.namespaceKeys("ResourceQuota", namespace))
}

// admitQuota is the ResourceQuota admission plugin on a create of o (the
// last validating plugin): the namespace's quotas that count o must have
// room for it (resourcequota.Admit). It returns the quotas whose usage
// the plugin writes when o is stored.
func (s *store) admitQuota(o api.Object, now time.Time) ([]*api.ResourceQuota, error) {
	kind, m := objectMeta(o)
	if m == nil || m.Namespace == "" || clusterScoped[kind] {
		return nil, nil
	}
	quotas := s.quotas(m.Namespace)
	if len(quotas) == 0 {
		return nil, nil
	}
	return resourcequota.Admit(quotas, quotaObject(kind, o), m.Name, now)
}

// admitClaimBeforeQuota is the API server's create path of claim c up to
// ResourceQuota, which store.create runs for every kind last: defaulting,
// the storage admission plugins (c is modified), LimitRanger.
func (s *store) admitClaimBeforeQuota(c *api.PersistentVolumeClaim) error {
	defaultStorage(c)
	s.admitStorage(c)
	return admission.LimitRangerCheckClaim(c, s.limitRanges(c.Namespace))
}

// admitClaim is the API server's create admission of claim c (a copy:
// defaulting, the storage plugins, LimitRanger, then ResourceQuota against
// quotas), without storing it: the quotas it would charge, or its
// refusal.
func (s *store) admitClaim(c *api.PersistentVolumeClaim, quotas []*api.ResourceQuota, now time.Time) ([]*api.ResourceQuota, error) {
	c = c.DeepCopy()
	if err := s.admitClaimBeforeQuota(c); err != nil {
		return nil, err
	}
	if len(quotas) == 0 {
		return nil, nil
	}
	return resourcequota.Admit(quotas, quotaObject("PersistentVolumeClaim", c), c.Name, now)
}

// quotaObject is o as quota sees it.
func quotaObject(kind string, o api.Object) resourcequota.Object {
	return resourcequota.Object{Kind: kind, Resource: resourceOf(kind).String(), Object: o}
}

// limitRanges are the LimitRanges of namespace, by name.
func (s *store) limitRanges(namespace string) []*api.LimitRange {
	if namespace == "" {
		return nil
	}
	return objectsOf[*api.LimitRange](s, "LimitRange", s.namespaceKeys("LimitRange", namespace))
}

// update replaces a stored object with o (matched by kind and key), giving
// it a new resourceVersion; a workload's, a PodDisruptionBudget's or a
// Pod's generation moves when its spec changed. o must be a value no one else holds (the callers
// build a fresh copy); it is stored as given.
func (s *store) update(o api.Object) (api.Object, error) {
	kind, m := objectMeta(o)
	if m == nil {
		return nil, fmt.Errorf("cluster: %w: object of type %T", api.ErrInvalidInput, o)
	}
	key := objectKey(m)
	old := s.objs[kind][key]
	if old == nil {
		return nil, notFound(kind, key)
	}
	_, om := objectMeta(old)
	m.UID, m.CreationTimestamp = om.UID, om.CreationTimestamp
	switch o.(type) {
	case *api.Pod, *api.Deployment, *api.ReplicaSet, *api.StatefulSet, *api.DaemonSet, *api.Job, *api.CronJob, *api.PodDisruptionBudget:
		// Their strategies' PrepareForUpdate: the generation is the
		// stored one (moved on below when the spec changes), whatever
		// the writer sent (a controller's copy may be a write behind).
		m.Generation = om.Generation
	default:
		if m.Generation == 0 {
			m.Generation = om.Generation
		}
	}
	switch x := o.(type) {
	default:
		if err := prepareWorkload(o, old, s.loadLocation); err != nil {
			return nil, err
		}
	case *api.Namespace:
		namespace.PrepareForUpdate(x, old.(*api.Namespace))
	case *api.LimitRange:
		api.DefaultLimitRange(x)
		if errs := validation.ValidateLimitRangeUpdate(x, old.(*api.LimitRange)); len(errs) > 0 {
			return nil, errors.New(validation.InvalidObjectMessage("LimitRange", "", x.Name, errs))
		}
	case *api.ResourceQuota:
		// PrepareForUpdate: an update of the object keeps its status.
		x.Status = old.(*api.ResourceQuota).Status
		if errs := validation.ValidateResourceQuotaUpdate(x, old.(*api.ResourceQuota)); len(errs) > 0 {
			return nil, errors.New(validation.InvalidObjectMessage("ResourceQuota", "", x.Name, errs))
		}
	case *api.Pod:
		prev := old.(*api.Pod)
		if errs := validation.ValidatePodUpdate(x, prev); len(errs) > 0 {
			return nil, errors.New(validation.InvalidObjectMessage("Pod", "", x.Name, errs))
		}
		// The pod strategy's PrepareForUpdate: a spec change moves the
		// generation (PodObservedGenerationTracking).
		if !specEqual(&x.Spec, &prev.Spec) {
			x.Generation = prev.Generation + 1
		}
	}
	s.nextRV(m)
	s.put(kind, key, o, watchModified, old)
	return o, nil
}

// specEqual reports whether a and b encode to the same JSON.
func specEqual(a, b any) bool { return jsonEqual(a, b) }

// deletePod serves a pod DELETE with opts at now through
// termination.APIServerGrace: a graceful deletion stores the deletion
// fields, an immediate one removes the pod. It returns the pod as stored
// after the request (nil when removed).
func (s *store) deletePod(key string, opts *api.DeleteOptions, now time.Time) (*api.Pod, error) {
	old, _ := s.objs["Pod"][key].(*api.Pod)
	if old == nil {
		return nil, notFound("Pod", key)
	}
	d, err := termination.APIServerGrace(old, opts, now)
	if err != nil {
		return nil, err
	}
	if d.Immediate {
		gone, prev := old, old
		if d.Graceful {
			// The generic registry writes the deletion's metadata (grace
			// 0) before it removes the object (Store.Delete,
			// updateForGracefulDeletionAndFinalizers): watchers see a
			// MODIFIED, then the DELETED.
			u := d
			u.Immediate, u.Outcome = false, termination.OutcomeGraceful
			gone = u.Apply(old)
			s.nextRV(&gone.ObjectMeta)
			s.put("Pod", key, gone, watchModified, old)
			prev = gone
		}
		s.put("Pod", key, gone, watchDeleted, prev)
		return nil, nil
	}
	if (!d.Graceful && d.Outcome != termination.OutcomeAwaitingFinalizers) || d.GracefulPending {
		return old, nil
	}
	p := d.Apply(old)
	s.nextRV(&p.ObjectMeta)
	s.put("Pod", key, p, watchModified, old)
	return p, nil
}

// remove deletes a non-pod object at once (the garbage collector's
// propagation to dependents is not modelled yet).
func (s *store) remove(kind, key string) error {
	old := s.objs[kind][key]
	if old == nil {
		return notFound(kind, key)
	}
	s.rv++
	s.put(kind, key, old, watchDeleted, old)
	return nil
}

// drainWatch returns the pending watch events and empties the queue. The
// slice it returned the time before is then read (every caller ranges
// over it before draining again), so it becomes the new queue's array:
// two arrays serve every round instead of one grown per round.
func (s *store) drainWatch() []watchEvent {
	w := s.watch
	s.watch = nil
	if s.lent != nil {
		clear(s.lent)
		s.watch = s.lent[:0]
	}
	s.lent = nil
	if cap(w) <= maxKeptWatch {
		s.lent = w // a burst's array (a large setup) is not kept
	}
	return w
}

// maxKeptWatch bounds the array drainWatch keeps (1.2 MB).
const maxKeptWatch = 1 << 14

// allocateService is what the Service registry adds to a Service it
// creates, in a single-stack IPv4 cluster such as the e2e harness's
// (--service-cluster-ip-range 10.96.0.0/16): the IP family policy
// (RequireDualStack for a headless Service without selector, else
// SingleStack) and families (IPv4) unless set, a cluster IP unless the
// Service is headless or names one (clusterIPs with it), and a node port
// for each port of a NodePort Service, or of a LoadBalancer one that
// allocates them, that names none. An ExternalName Service gets none of
// these. Upstream picks the cluster IP and the node ports at random in
// their ranges; here they are handed out in order from 10.96.0.10 and
// 30000, so that a run is deterministic.
func (s *store) allocateService(svc *api.Service) {
	sp := &svc.Spec
	if sp.Type == api.ServiceTypeExternalName {
		return
	}
	if sp.IPFamilyPolicy == nil {
		p := api.IPFamilyPolicySingleStack
		if sp.ClusterIP == api.ClusterIPNone && len(sp.Selector) == 0 {
			p = api.IPFamilyPolicyRequireDualStack
		}
		sp.IPFamilyPolicy = &p
	}
	if len(sp.IPFamilies) == 0 {
		sp.IPFamilies = []api.IPFamily{api.IPv4Protocol}
	}
	if sp.ClusterIP == "" {
		n := 10 + s.serviceIPs
		s.serviceIPs++
		sp.ClusterIP = fmt.Sprintf("10.96.%d.%d", (n>>8)&255, n&255)
	}
	if len(sp.ClusterIPs) == 0 {
		sp.ClusterIPs = []string{sp.ClusterIP}
	}
	nodePorts := sp.Type == api.ServiceTypeNodePort ||
		sp.Type == api.ServiceTypeLoadBalancer && (sp.AllocateLoadBalancerNodePorts == nil || *sp.AllocateLoadBalancerNodePorts)
	for i := range sp.Ports {
		if p := &sp.Ports[i]; nodePorts && p.NodePort == 0 {
			p.NodePort = int32(30000 + s.nodePorts%2768)
			s.nodePorts++
		}
	}
}
