package cluster

import (
	"errors"
	"fmt"
	"github.com/podsem/podsem/managedfields"
	"github.com/podsem/podsem/record"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/namespace"
	"github.com/podsem/podsem/nodelifecycle"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
	"github.com/podsem/podsem/workloads"
)

// Config is the cluster's settings. The zero value is a cluster as
// v1.36.3 ships, with the e2e harness's runtime model.
type Config struct {
	// Runtime is what containers do when the kubelets start and stop
	// them.
	Runtime RuntimeModel
	// TolerationSeconds are kube-apiserver's
	// --default-not-ready-toleration-seconds and
	// --default-unreachable-toleration-seconds (DefaultTolerationSeconds
	// admission).
	TolerationSeconds admission.TolerationSeconds
	// NodeLifecycle is the node lifecycle controller's flags
	// (--node-monitor-grace-period, --node-eviction-rate, ...).
	NodeLifecycle nodelifecycle.Config
	// PodGC is pod GC's settings (--terminated-pod-gc-threshold; the
	// orphan quarantine, 40 s, which upstream does not expose).
	PodGC termination.GCConfig
	// Eviction is every kubelet's node-pressure eviction settings
	// (--eviction-hard, --eviction-soft, ...; zero: the defaults).
	Eviction nodepressure.Settings
	// Shutdown is every kubelet's graceful node shutdown settings
	// (--shutdown-grace-period, ...; zero: off).
	Shutdown termination.ShutdownConfig
	// Storage is the PersistentVolume and attach-detach controllers' flags
	// and the volume model (storage.go).
	Storage StorageConfig
	// Cascade is how a cascade of reactions that does not come to rest at
	// one instant is run (cascade.go; zero: the defaults).
	Cascade CascadeConfig
	// QuotaResyncPeriod is the resourcequota controller's full resync
	// period (--resource-quota-sync-period; zero: 5 minutes,
	// QuotaResyncPeriod).
	QuotaResyncPeriod time.Duration
	// LoadLocation is the time zone database of kube-apiserver and
	// kube-controller-manager (time.LoadLocation), which a CronJob's
	// spec.timeZone is checked against and read in; the name "" is
	// kube-controller-manager's own zone, in which a schedule without a
	// time zone runs. Nil is api.LoadLocationUTC: only UTC is known, and
	// the controllers run in UTC (as on the e2e harness).
	LoadLocation func(name string) (*time.Location, error)
}

// ConfigFromFlags reads a scenario's config entries, by upstream flag
// name, into a Config. It returns the keys nothing takes, sorted (the
// harness reports each as an UnusedConfig warning). A value that does not
// parse is an error naming the key.
func ConfigFromFlags(flags map[string]string) (Config, []string, error) {
	var cfg Config
	var unused []string
	for k, v := range flags {
		switch k {
		case "pod-start-latency":
			d, err := parseDuration([]byte(strconv.Quote(v)))
			if err != nil {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %v", api.ErrInvalidInput, k, err)
			}
			cfg.Runtime.PodStartLatency = d
		case "bind-interval":
			d, err := parseDuration([]byte(strconv.Quote(v)))
			if err != nil || d < 0 {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %q (a duration, 0 or more)", api.ErrInvalidInput, k, v)
			}
			cfg.Runtime.BindInterval = d
		case "reaction-latency":
			d, err := parseDuration([]byte(strconv.Quote(v)))
			if err != nil || d <= 0 {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %q (a positive duration)", api.ErrInvalidInput, k, v)
			}
			cfg.Cascade.Latency = d
		case "cascade-rounds":
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %q (a positive integer)", api.ErrInvalidInput, k, v)
			}
			cfg.Cascade.Rounds = n
		case "sigterm-exit-code":
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %q", api.ErrInvalidInput, k, v)
			}
			c := int32(n)
			cfg.Runtime.SigtermExitCode = &c
		case "default-not-ready-toleration-seconds", "default-unreachable-toleration-seconds":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Config{}, nil, fmt.Errorf("cluster: %w: config %s: %q", api.ErrInvalidInput, k, v)
			}
			if k == "default-not-ready-toleration-seconds" {
				cfg.TolerationSeconds.NotReady = &n
			} else {
				cfg.TolerationSeconds.Unreachable = &n
			}
		default:
			ok, err := cfg.kubeletFlag(k, v)
			if err == nil && !ok {
				ok, err = cfg.controllerManagerFlag(k, v)
			}
			if err == nil && !ok {
				ok, err = cfg.Storage.setFlag(k, v)
			}
			if err != nil {
				return Config{}, nil, err
			} else if !ok {
				unused = append(unused, k)
			}
		}
	}
	slices.Sort(unused)
	if err := cfg.checkKubeletFlags(); err != nil {
		return Config{}, nil, err
	}
	return cfg, unused, nil
}

// Input is one input of Machine.Step: scenario actions, or a tick (time
// passed). Build it with Tick, Do or DoAll.
type Input struct {
	actions []Action
}

// Tick is the input "time passed": the machine runs what is due.
func Tick() Input { return Input{} }

// Do is the input "apply this scenario action".
func Do(a Action) Input { return Input{actions: []Action{a}} }

// DoAll is the input "apply these scenario actions, in order, at one
// instant": the components react once all of them are applied. That is
// how a real control plane sees actions a scenario gives the same offset
// (the e2e harness sends them milliseconds apart, and the controllers and
// kube-scheduler react tens of milliseconds later), so Run applies them
// so. An action that fails ends the step there: the actions before it
// stay applied, and nothing reacts until the next step.
func DoAll(actions ...Action) Input { return Input{actions: slices.Clone(actions)} }

// Output is what one Step produced: the event log's records, in order.
type Output struct {
	Records []Record
}

// maxRounds bounds the settle loop of the objects' creation (New), whose
// cascade is not slowed: reaching it is a livelock, reported as an error.
const maxRounds = 10000

// Machine is a whole Kubernetes cluster as one pure, deterministic state
// machine: the API server's object store, kube-scheduler (the scheduling
// loop with DefaultPreemption), the controllers of kube-controller-manager
// (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, disruption, node
// lifecycle, taint eviction, pod GC, the garbage collector), one kubelet per node and the kubectl drains
// in progress, each the podsem machine of that component driven through
// its public API. Step applies an input and lets every component react
// until the cluster is quiet at that instant; NextDeadline says when
// something is next due.
//
// The components read a shared informer cache that a round of the settle
// loop updates from the store's watch events, in the order of the writes,
// then run in a fixed order (DESIGN.md): node lifecycle controller, taint
// eviction, pod GC, garbage collector, disruption controller, Deployment
// controller, ReplicaSet controller, StatefulSet, DaemonSet and Job
// controllers, kube-scheduler (one ScheduleOne per
// tick, while pods are ready), kubelets in node-name order, drains. The
// same inputs at the same times give the same records, byte for byte.
//
// A Machine is not safe for concurrent use. A nil *Machine returns an
// error from Step and the zero time from NextDeadline.
type Machine struct {
	cfg   Config
	start time.Time
	// drivers are the CSI drivers the volume model stands in for
	// (csiDrivers), fixed by the objects the cluster started with.
	drivers []string
	now     time.Time
	store   *store
	cache   *store // the informer cache: the store as delivered
	rec     recorder

	slow     cascade                                           // a slowed cascade (cascade.go)
	owners   map[string]map[string]managedfields.ManagedFields // field ownership of applied objects, by kind and key (apply.go)
	applying bool                                              // the store's write is an apply's

	sched          *scheduling.Loop
	rsc            *workloads.ReplicaSetController
	rsDirty        map[string]bool
	rsGone         map[string]*api.ReplicaSet                 // the ReplicaSets deleted since the controller's last step, by key
	rsEvents       rsEventLog                                 // the pod changes the ReplicaSet controller's next step reads (rsevents.go)
	dcs            map[string]*workloads.DeploymentController // the Deployment controller's memory per Deployment (its work queue key)
	depDirty       map[string]bool
	kubelets       map[string]*kubelet
	kubeletsSorted []string // kubeletOrder's cache
	kq             kubeletQueue
	podAdmit       map[string]admitVerdict // admitsPods's verdicts, by owner uid
	// kubeletCheck, when set (tests), is told of every step where the
	// kubeletQueue answers otherwise than a scan of every kubelet.
	kubeletCheck func(format string, args ...any)
	nodeCount    int

	nlc *nodelifecycle.Controller
	te  *nodelifecycle.TaintEviction
	nsc *namespace.Controller
	// implicitNamespaces counts the namespaces createImplicitNamespaces
	// made (their uids).
	implicitNamespaces int
	// builtins counts the cluster's own objects createBuiltin made, and
	// defaultsDirty are the namespaces whose default ServiceAccount or
	// kube-root-ca.crt ConfigMap is to be created again (builtin.go).
	builtins      int
	defaultsDirty map[string]bool
	// ephemeralDirty are the pods the ephemeral volume controller is to
	// sync (ephemeral.go).
	ephemeralDirty map[string]bool
	gc             *termination.Collector
	gcSeen         bool // the pod GC has seen the caches as they are: no pod or node event since its last step
	// kubeletPhase is the last instant the kubelets ran (runComponents):
	// their Lease renewals at or before it are made. nodeClocks are the
	// Lease clocks of the cache's node list's kubelets, by position, while
	// the cache's node set is nodeClocksSet and no kubelet's clock changed
	// (leaseGen, counted by registerNode, silence and restore: leaseOf).
	kubeletPhase time.Time
	// binds are kube-scheduler's bindings waiting for their slot, in
	// slot order; bindFree is the next free slot (bindSlot).
	binds         []delayedBind
	bindFree      time.Time
	nodeClocks    []leaseClock
	nodeClocksSet uint64
	nodeClocksGen uint64
	leaseGen      uint64
	zones         map[string]nodelifecycle.ZoneReport // as the last monitor pass reported them

	deletedUIDs map[string]bool // owners deleted, for the garbage collector
	gcWork      bool            // an owner being deleted with a GC finalizer (garbage.go)
	gcDangling  map[string]bool // "Kind/key" of objects written with a reference to an absent owner (garbage.go)
	apps        appsState       // StatefulSet, DaemonSet and Job controllers (apps.go)

	pdbDirty   map[string]bool
	pdbRecheck map[string]time.Time
	// evictCharges is, by budget key, the last instant an eviction
	// charged the budget and the budget before it (disruption.go).
	evictCharges map[string]budgetCharge
	drains       []*drainRun
	// eagerStatus makes the kubelets write their periodic node status
	// posts (kubelet.eagerStatus): the tests' reference for the posts
	// computed when read.
	eagerStatus bool

	storage    storageState    // the storage controllers and models (storage.go)
	protection protectionState // the pvc-protection and pv-protection controllers (protection.go)

	// onDeliver, when set (by the package's own tests), sees each watch
	// event as the informers receive it, the cache already updated.
	onDeliver func(w watchEvent)
	shadow    stepWatcher // the package's tests' watcher of every machine step (step.go)
	// answers, when set (by Run, from t=0), accumulates Result.Answers.
	answers *answers
}

// New returns a cluster holding objects at start, created through the
// API server as the harness creates a scenario's objects (in the order
// given), with every component's reaction to them already settled:
// the Output's records are what happened at start.
func New(objects []api.Object, cfg Config, start time.Time) (*Machine, Output, error) {
	m, _, err := newMachine(start, cfg)
	if err != nil {
		return nil, Output{}, err
	}
	if err := m.createSystemPriorityClasses(start); err != nil {
		return nil, Output{}, err
	}
	m.drivers = modelDrivers(objects)
	out, err := m.load(objects, start)
	if err != nil {
		return nil, Output{}, err
	}
	return m, out, nil
}

// leftoverFlushSlack is how much sooner than upstream's exact-clock rule
// the cluster's kube-scheduler flushes a pod out of the unschedulable pool.
// The leftover flush takes pods unschedulable for strictly more than
// 5 minutes, every 30 s; a pod that failed on the flush's grid is exactly
// 5 minutes old at a flush, so the exact rule waits one more (330 s). A
// real scheduler's 30-s timer is a sliding one that fires late by a little
// each time, so its flush comes just after the 5 minutes: the real runs
// retried such a pod 300.003 s and 300.02 s after it failed
// (testdata/e2e/pending-series). The cluster's queue therefore counts
// 5 minutes less 1 ms, so a tie goes to the flush.
const leftoverFlushSlack = time.Millisecond

// newSchedulerLoop is the cluster's kube-scheduler: preemption's default
// PostFilter, the default queue but for leftoverFlushSlack.
func newSchedulerLoop(sc *scheduling.Cluster, start time.Time) (*scheduling.Loop, error) {
	pf, err := preemption.New(preemption.Config{})
	if err != nil {
		return nil, err
	}
	return scheduling.NewLoop(sc, scheduling.LoopConfig{PostFilter: pf,
		Queue: scheduling.QueueConfig{PodMaxInUnschedulablePodsDuration: scheduling.DefaultPodMaxInUnschedulablePodsDuration - leftoverFlushSlack}}, start)
}

// newMachine returns an empty cluster at start.
func newMachine(start time.Time, cfg Config) (*Machine, Output, error) {
	sc, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		return nil, Output{}, err
	}
	loop, err := newSchedulerLoop(sc, start)
	if err != nil {
		return nil, Output{}, err
	}
	nlc, err := nodelifecycle.NewController(slidingMonitor(cfg.NodeLifecycle))
	if err != nil {
		return nil, Output{}, err
	}
	m := &Machine{
		cfg: cfg, start: start, now: start,
		store: newStore(cfg.TolerationSeconds), cache: newStore(cfg.TolerationSeconds),
		rec:   recorder{start: start, last: map[string]*watched{}},
		sched: loop, rsc: workloads.NewIncrementalReplicaSetController(), rsDirty: map[string]bool{},
		dcs: map[string]*workloads.DeploymentController{}, depDirty: map[string]bool{},
		kubelets: map[string]*kubelet{},
		pdbDirty: map[string]bool{}, pdbRecheck: map[string]time.Time{}, evictCharges: map[string]budgetCharge{},
		nlc: nlc, te: nodelifecycle.NewTaintEviction(), nsc: namespace.NewController(), gc: termination.NewCollector(podGCConfig(cfg.PodGC)),
	}
	m.store.loadLocation = cfg.LoadLocation
	m.store.nodeWritten = m.nodeStored
	m.store.written = m.ownedWritten
	m.rec.host = m.eventHost
	m.rec.refused = m.namespaceTerminating
	m.rec.correlate = func(key string, c *record.Correlator, in record.Input, now time.Time) (record.Output, error) {
		return stepMachine(m, "event-correlator", key, c, in, now)
	}
	m.rec.seriesStart = start
	m.rec.seriesStep = func(component string, s *record.Series, in record.SeriesInput, now time.Time) (record.SeriesOutput, error) {
		return stepMachine(m, "event-series", component, s, in, now)
	}
	return m, Output{}, nil
}

// load creates objects at start as the e2e harness creates a scenario's
// objects, and settles the cluster: kinds in the harness's order
// (Namespaces, classes, Nodes, then the rest; a namespaced object without
// a namespace goes to "default"), owners before their dependents;
// uid, resourceVersion, creationTimestamp, generation and deletion fields
// are the API server's to set, ownerReferences are re-pointed at the uids
// the owners got (those to owners not in the scenario dropped), and status
// is dropped except on Nodes (the controllers and kubelets recompute it;
// pods keep spec.nodeName).
func (m *Machine) load(objects []api.Object, start time.Time) (Output, error) {
	type item struct {
		o    api.Object
		kind string
		meta *api.ObjectMeta
		done bool
	}
	items := make([]*item, 0, len(objects))
	inScenario := map[string]bool{}
	for i, o := range objects {
		if o == nil {
			return Output{}, fmt.Errorf("cluster: %w: objects[%d]: nil", api.ErrInvalidInput, i)
		}
		kind, meta := objectMeta(o)
		if meta == nil {
			return Output{}, fmt.Errorf("cluster: %w: objects[%d]: object of type %T", api.ErrInvalidInput, i, o)
		}
		c, err := clone(o)
		if err != nil {
			return Output{}, err
		}
		_, meta = objectMeta(c)
		if meta.Namespace == "" && !clusterScoped[kind] {
			meta.Namespace = "default"
		}
		inScenario[objRef(kind, meta.Namespace, meta.Name)] = true
		items = append(items, &item{o: c, kind: kind, meta: meta})
	}
	// The namespaces the objects are in exist before them, as the harness
	// creates them (and a cluster has default and its system ones): those
	// the scenario does not list itself are created first.
	var implicit []string
	for _, ns := range systemNamespaces {
		if !inScenario[objRef("Namespace", "", ns)] {
			implicit = append(implicit, ns)
		}
	}
	for _, it := range items {
		if ns := it.meta.Namespace; ns != "" && !inScenario[objRef("Namespace", "", ns)] && !slices.Contains(implicit, ns) {
			implicit = append(implicit, ns)
		}
	}
	if err := m.createImplicitNamespaces(implicit, start); err != nil {
		return Output{}, err
	}
	if err := m.createKubernetesService(start); err != nil {
		return Output{}, err
	}
	slices.SortStableFunc(items, func(a, b *item) int { return kindRank(a.kind) - kindRank(b.kind) })
	uids := map[string]string{}
	for pass := 0; pass < 10; pass++ {
		for _, it := range items {
			if it.done {
				continue
			}
			ready := true
			for _, r := range it.meta.OwnerReferences {
				ref := objRef(r.Kind, it.meta.Namespace, r.Name)
				if _, ok := uids[ref]; !ok && inScenario[ref] {
					ready = false
				}
			}
			if !ready && pass < 9 {
				continue
			}
			var refs []api.OwnerReference
			for _, r := range it.meta.OwnerReferences {
				if uid, ok := uids[objRef(r.Kind, it.meta.Namespace, r.Name)]; ok {
					r.UID = uid
					refs = append(refs, r)
				}
			}
			it.meta.OwnerReferences = refs
			it.meta.UID, it.meta.ResourceVersion, it.meta.Generation = "", "", 0
			it.meta.DeletionTimestamp, it.meta.DeletionGracePeriodSeconds = nil, nil
			dropStatus(it.o)
			created, err := m.createObject(it.o, start)
			if errors.Is(err, errAlreadyExists) {
				// The harness keeps the server's object (a built-in class).
				created, err = m.store.get(it.kind, objectKey(it.meta)), nil
			}
			if err != nil {
				return Output{}, fmt.Errorf("cluster: %s: %w", objRef(it.kind, it.meta.Namespace, it.meta.Name), err)
			}
			_, cm := objectMeta(created)
			uids[objRef(it.kind, cm.Namespace, cm.Name)] = cm.UID
			it.done = true
		}
	}
	// The harness starts kube-controller-manager and kube-scheduler once
	// the objects exist and the kubelets have registered their nodes: the
	// informers list what is there before any controller runs.
	for round := 0; len(m.store.watch) > 0; round++ {
		if round == maxRounds {
			return Output{}, fmt.Errorf("cluster: the objects' creation does not settle after %d rounds", maxRounds)
		}
		for _, w := range m.store.drainWatch() {
			if err := m.deliver(w, start); err != nil {
				return Output{}, err
			}
		}
	}
	if err := m.settle(start); err != nil {
		return Output{}, err
	}
	return Output{Records: m.takeRecords()}, nil
}

// clusterScoped are the kinds without a namespace.
var clusterScoped = map[string]bool{"Node": true, "Namespace": true, "PriorityClass": true, "StorageClass": true,
	"CSIDriver": true, "CSINode": true, "PersistentVolume": true, "VolumeAttachment": true,
	"ClusterRole": true, "ClusterRoleBinding": true, "IngressClass": true}

// kindRank is the harness's creation order of kinds (kindOrder in its
// runner.go); every other kind comes last.
func kindRank(kind string) int {
	switch kind {
	case "Namespace":
		return 0
	case "PriorityClass", "StorageClass", "CSIDriver", "RuntimeClass":
		return 1
	case "Node":
		return 2
	case "ServiceAccount", "ConfigMap", "Secret", "Service", "ResourceQuota", "LimitRange":
		return 3
	case "PersistentVolume":
		return 4
	case "PersistentVolumeClaim", "PodDisruptionBudget":
		return 5
	}
	return 6
}

// dropStatus clears the status of every object but a Node, as the
// harness drops it before creating.
func dropStatus(o api.Object) {
	switch x := o.(type) {
	case *api.Pod:
		x.Status = api.PodStatus{}
	case *api.Deployment:
		x.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		x.Status = api.ReplicaSetStatus{}
	case *api.PodDisruptionBudget:
		x.Status = api.PodDisruptionBudgetStatus{}
	case *api.PersistentVolumeClaim:
		x.Status = api.PersistentVolumeClaimStatus{}
	case *api.PersistentVolume:
		x.Status = api.PersistentVolumeStatus{}
	case *api.VolumeAttachment:
		x.Status = api.VolumeAttachmentStatus{}
	}
}

// createObject creates o, keeping a Node's status as given (the harness's
// kubelets register their nodes with their status).
func (m *Machine) createObject(o api.Object, now time.Time) (api.Object, error) {
	if err := supported(o); err != nil {
		return nil, err
	}
	created, err := m.store.create(o, now)
	if err != nil {
		return nil, err
	}
	return created, m.namespaceCreated(created, now)
}

// supported refuses the objects whose controller this version does not
// run yet: holding them without their controller would make a run look
// right and be wrong. Of the kinds the cluster does not model
// (api.Unstructured), it holds those that change nothing a pod lives
// through (inertKinds) and refuses the rest, wrapping
// errors.ErrUnsupported.
func supported(o api.Object) error {
	if u, ok := o.(*api.Unstructured); ok && !inertKinds[u.Kind] {
		return fmt.Errorf("cluster: %s %s: %w: no controller or admission plugin of kind %s runs here, and holding the object without them would make the run look right and be wrong",
			u.Kind, objectKey(&u.ObjectMeta), errors.ErrUnsupported, u.Kind)
	}
	return nil
}

// HoldsKind reports whether the cluster holds objects of kind without
// modelling it (api.Unstructured): a kind no controller or admission
// plugin of which creates, deletes, admits, schedules or stops a pod
// (ConfigMap, Secret, ServiceAccount, RBAC, Ingress, NetworkPolicy, ...).
// Objects of other kinds it does not model stop a run.
func HoldsKind(kind string) bool { return inertKinds[kind] }

// inertKinds are the kinds the cluster holds without modelling them: no
// controller or admission plugin of theirs creates, deletes, admits,
// schedules or stops a pod. They are stored as given, deleted with their
// namespace, and listed by Objects after the modelled kinds. (A
// ServiceAccount is read by the ServiceAccount admission plugin, which
// refuses a pod whose account does not exist.)
var inertKinds = map[string]bool{
	"ConfigMap": true, "Secret": true, "ServiceAccount": true, "Endpoints": true, "EndpointSlice": true,
	"Event": true, "Lease": true, "PodTemplate": true, "Role": true, "RoleBinding": true, "ClusterRole": true,
	"ClusterRoleBinding": true, "Ingress": true, "IngressClass": true, "NetworkPolicy": true,
}

func (m *Machine) takeRecords() []Record { return m.rec.take() }

// Now is the time of the last step.
func (m *Machine) Now() time.Time {
	if m == nil {
		return time.Time{}
	}
	return m.now
}

// Step applies in at now and runs every component until the cluster is
// quiet at now. now must not be before the previous step's time. An action
// the API server refuses (an invalid object, a missing one) gives an
// ActionFailed record, not an error; an action this version does not
// simulate yet is an error wrapping errors.ErrUnsupported.
func (m *Machine) Step(in Input, now time.Time) (Output, error) {
	if m == nil {
		return Output{}, fmt.Errorf("cluster: %w: machine: nil", api.ErrInvalidInput)
	}
	if now.Before(m.now) {
		return Output{}, fmt.Errorf("cluster: %w: now %s is before the last step %s", api.ErrInvalidInput, now.Format(time.RFC3339Nano), m.now.Format(time.RFC3339Nano))
	}
	m.now = now
	for _, a := range in.actions {
		if err := m.apply(a, now); err != nil {
			return Output{Records: m.takeRecords()}, err
		}
	}
	err := m.settle(now)
	return Output{Records: m.takeRecords()}, err
}

// NextDeadline is the earliest time a component must run even if no input
// arrives; the zero time when nothing is pending.
func (m *Machine) NextDeadline() time.Time {
	if m == nil {
		return time.Time{}
	}
	d := m.sched.NextDeadline()
	d = api.EarliestDeadline(d, m.bindsDeadline())
	d = api.EarliestDeadline(d, m.slow.next)
	d = api.EarliestDeadline(d, m.rsc.NextDeadline())
	d = api.EarliestDeadline(d, m.deploymentsDeadline())
	d = api.EarliestDeadline(d, m.appsNextDeadline())
	d = api.EarliestDeadline(d, m.nlc.NextDeadline())
	d = api.EarliestDeadline(d, m.te.NextDeadline())
	d = api.EarliestDeadline(d, m.nsc.NextDeadline())
	d = api.EarliestDeadline(d, m.gcNext(m.now))
	d = api.EarliestDeadline(d, m.kq.next())
	if m.kubeletCheck != nil {
		var scan time.Time
		for _, k := range m.kubelets {
			k.deadlineKnown = false
			scan = api.EarliestDeadline(scan, k.nextDeadline())
		}
		if q := m.kq.next(); !q.Equal(scan) {
			m.kubeletCheck("kubeletQueue: next deadline %v, a scan of every kubelet %v", q, scan)
		}
		if got, want := podKeys(m.cache.podGCPods()), podKeys(m.cache.podGCPodsScan()); !slices.Equal(got, want) {
			m.kubeletCheck("podGCPods: the indexes give %v, a scan of every pod %v", got, want)
		}
	}
	for _, t := range m.pdbRecheck {
		d = api.EarliestDeadline(d, t)
	}
	for _, dr := range m.drains {
		d = api.EarliestDeadline(d, dr.nextDeadline())
	}
	d = api.EarliestDeadline(d, m.storageDeadline())
	d = api.EarliestDeadline(d, m.rec.seriesDeadline())
	if !d.IsZero() && d.Before(m.now) {
		d = m.now
	}
	return d
}

// Objects returns the objects the API server holds, kinds in a fixed
// order and each kind by key. They are the machine's own: do not modify
// them.
func (m *Machine) Objects() []api.Object {
	if m == nil {
		return nil
	}
	var out []api.Object
	for _, kind := range objectKinds {
		objs := slices.DeleteFunc(m.store.list(kind), func(o api.Object) bool { return builtinObject(o) || implicitNamespace(o) })
		if kind == "Node" {
			for i, o := range objs {
				objs[i] = m.withHeartbeats(o.(*api.Node))
			}
		}
		out = append(out, objs...)
	}
	var others []string
	for kind := range m.store.objs {
		if inertKinds[kind] {
			others = append(others, kind)
		}
	}
	slices.Sort(others)
	for _, kind := range others {
		out = append(out, slices.DeleteFunc(m.store.list(kind), builtinObject)...)
	}
	return out
}

// objectKinds is the order of kinds in Objects.
var objectKinds = []string{"Namespace", "PriorityClass", "StorageClass", "CSIDriver", "LimitRange", "Node", "CSINode",
	"PersistentVolume", "PersistentVolumeClaim", "Deployment", "ReplicaSet", "StatefulSet", "ControllerRevision",
	"DaemonSet", "CronJob", "Job", "ResourceQuota", "PodDisruptionBudget", "Service", "Pod", "VolumeAttachment"}

// apply carries out a scenario action through the API server.
func (m *Machine) apply(a Action, now time.Time) error {
	if k := m.kubelets[a.Node]; k != nil {
		// An action on a node (lose, restore, pressure, shutdown, ...)
		// may move its kubelet's deadlines; the rest reach kubelets
		// through the API server (their pods marked dirty), and exit
		// through the pod's machine.
		defer k.forgetDeadline()
	}
	m.rec.scenario(now, "Normal", "Action", "", a.String())
	var err error
	switch a.Kind {
	case ActionApply:
		err = m.applyObject(a.Object, now)
	case ActionDelete:
		err = m.deleteAction(a, now)
	case ActionScale:
		err = m.scale(a.Ref, a.Replicas)
	case ActionCordon, ActionUncordon:
		err = m.cordon(a.Node, a.Kind == ActionCordon)
	case ActionDrain:
		return m.startDrain(a, now)
	case ActionLose:
		err = m.lose(a.Node)
	case ActionRestore:
		err = m.restore(a.Node, now)
	case ActionDeleteNode:
		err = m.deleteNode(a.Node)
	case ActionTaint:
		err = m.taint(a.Node, a.Taint, now)
	case ActionExit:
		err = m.exit(a.Pod, a.Container, a.ExitCode, now)
	case ActionPressure:
		err = m.pressure(a.Node, a.Signal, a.Value, a.Usage, now)
	case ActionShutdown:
		err = m.shutdown(a.Node, now)
	default:
		return fmt.Errorf("cluster: action %s: %w (NEXT.md)", a, errors.ErrUnsupported)
	}
	if err != nil {
		m.rec.scenario(now, "Warning", "ActionFailed", "", a.String()+": "+err.Error())
	}
	return nil
}

// deleteObject deletes the object ref names with default options.
func (m *Machine) deleteObject(ref ObjectRef, now time.Time) error {
	if ref.Kind == "Pod" {
		_, err := m.store.deletePod(ref.key(), nil, now)
		return err
	}
	bg := api.DeletePropagationBackground
	return m.deleteWithOptions(ref.Kind, ref.key(), &api.DeleteOptions{PropagationPolicy: &bg}, now)
}

// scale sets spec.replicas through the scale subresource.
func (m *Machine) scale(ref ObjectRef, replicas int32) error {
	o := m.store.get(ref.Kind, ref.key())
	if o == nil {
		return notFound(ref.Kind, ref.key())
	}
	n, err := clone(o)
	if err != nil {
		return err
	}
	switch x := n.(type) {
	case *api.Deployment:
		x.Spec.Replicas = &replicas
	case *api.ReplicaSet:
		x.Spec.Replicas = &replicas
	case *api.StatefulSet:
		x.Spec.Replicas = &replicas
	default:
		return fmt.Errorf("%s: the scale subresource is not served for %s", ref, ref.Kind)
	}
	_, err = m.store.update(n)
	return err
}

// cordon sets or clears the node's spec.unschedulable, as kubectl cordon
// and uncordon patch it.
func (m *Machine) cordon(node string, on bool) error {
	o, _ := m.store.get("Node", node).(*api.Node)
	if o == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	if o.Spec.Unschedulable == on {
		return nil
	}
	n, err := clone(o)
	if err != nil {
		return err
	}
	n.Spec.Unschedulable = on
	_, err = m.store.update(n)
	return err
}

// settle runs the rounds of delivery and reaction at now until nothing is
// left to deliver and no component is due; a cascade that goes on past
// the round limit is slowed (cascade.go).
func (m *Machine) settle(now time.Time) error {
	limit := m.roundLimit()
	for round := 0; ; round++ {
		if round == limit {
			m.slowDown(now)
			return nil
		}
		for _, w := range m.store.drainWatch() {
			if err := m.deliver(w, now); err != nil {
				return err
			}
		}
		if err := m.runComponents(now); err != nil {
			return err
		}
		if len(m.store.watch) == 0 && !m.anyDue(now) {
			m.atRest(now)
			return nil
		}
	}
}

// takeMarked returns the keys of a set of marks (the objects a component
// must look at again), sorted, and empties the set.
func takeMarked(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	clear(set)
	slices.Sort(keys)
	return keys
}

func (m *Machine) anyDue(now time.Time) bool {
	due := func(d time.Time) bool { return !d.IsZero() && !d.After(now) }
	if len(m.rsDirty) > 0 || len(m.depDirty) > 0 || due(m.rsc.NextDeadline()) || due(m.deploymentsDeadline()) || due(m.sched.NextDeadline()) || due(m.bindsDeadline()) ||
		due(m.nlc.NextDeadline()) || due(m.te.NextDeadline()) || due(m.nsc.NextDeadline()) || m.gcDue(now) {
		return true
	}
	if m.kq.anyDue(now) {
		return true
	}
	if len(m.pdbDirty) > 0 || len(m.deletedUIDs) > 0 || m.gcWork || len(m.gcDangling) > 0 || len(m.ephemeralDirty) > 0 || len(m.defaultsDirty) > 0 || m.appsDue(now) || m.storageDue(now) || m.protectionDue() {
		return true
	}
	if due(m.rec.seriesDeadline()) {
		return true
	}
	for _, t := range m.pdbRecheck {
		if due(t) {
			return true
		}
	}
	for _, dr := range m.drains {
		if due(dr.nextDeadline()) {
			return true
		}
	}
	return false
}

// deliver is one watch event reaching the informers: the cache, the log's
// watch record, and each component's event handler.
func (m *Machine) deliver(w watchEvent, now time.Time) error {
	if w.Type == watchDeleted {
		m.cache.put(w.Kind, w.Key, w.Object, watchDeleted, w.Old)
	} else {
		m.cache.put(w.Kind, w.Key, w.Object, w.Type, w.Old)
	}
	m.cache.watch = m.cache.watch[:0] // nobody drains the cache's: one slot, reused
	m.rsEvents.observe(w)
	if w.Type == watchDeleted {
		if _, meta := objectMeta(w.Object); meta != nil && meta.UID != "" {
			if m.deletedUIDs == nil {
				m.deletedUIDs = map[string]bool{}
			}
			m.deletedUIDs[meta.UID] = true
		}
	}
	if m.onDeliver != nil {
		m.onDeliver(w)
	}
	if m.answers != nil {
		m.answers.observe(m, w, now)
	}
	m.rec.watch(now, w)
	m.appsDeliver(w, now)
	m.gcDeliver(w)
	m.storageDeliver(w)
	m.protectionDeliver(w)
	m.namespaceDefaultsDeliver(w)
	m.ephemeralDeliver(w)
	if err := m.namespaceDeliver(w, now); err != nil {
		return err
	}
	var in scheduling.Input
	switch o := w.Object.(type) {
	case *api.Pod:
		m.gcSeen = false
		switch w.Type {
		case watchAdded:
			in = scheduling.PodAdded(o)
		case watchModified:
			in = scheduling.PodUpdated(o)
		default:
			in = scheduling.PodDeleted(o.Namespace, o.Name)
		}
		m.podChanged(w)
		m.pdbDirtyForPod(o, now)
		tev := nodelifecycle.PodUpdated(o)
		if w.Type == watchDeleted {
			tev = nodelifecycle.PodDeleted(o.Namespace, o.Name)
		}
		if err := m.taintEviction(tev, now); err != nil {
			return err
		}
	case *api.Node:
		m.gcSeen = false
		switch w.Type {
		case watchAdded:
			in = scheduling.NodeAdded(o)
			if m.kubelets[o.Name] == nil {
				k := newKubelet(o.Name, m.nodeCount)
				k.eagerStatus = m.eagerStatus
				m.kq.add(k)
				m.kubelets[o.Name] = k
				k.storedNode, _ = m.store.get("Node", o.Name).(*api.Node)
				m.nodeCount++
				if err := m.registerNode(k, now); err != nil {
					return err
				}
			}
		case watchModified:
			in = scheduling.NodeUpdated(o)
		default:
			in = scheduling.NodeDeleted(o.Name)
		}
		tev := nodelifecycle.NodeUpdated(o)
		if w.Type == watchDeleted {
			tev = nodelifecycle.NodeDeleted(o.Name)
		} else if u := nodelifecycle.NoScheduleTaintPass(o, now); u.Changed() {
			// The node lifecycle controller's node update handler runs
			// the NoSchedule tainting pass at once (its nodeUpdateQueue
			// worker), not at the next monitor pass.
			if err := m.updateTaints(o.Name, u.Added, u.Removed, now); err != nil {
				return err
			}
		}
		if err := m.taintEviction(tev, now); err != nil {
			return err
		}
	case *api.ReplicaSet:
		m.rsDirty[w.Key] = true
		if w.Type == watchDeleted {
			if m.rsGone == nil {
				m.rsGone = map[string]*api.ReplicaSet{}
			}
			m.rsGone[w.Key] = o
		}
		m.ownerDirty(w, &o.ObjectMeta, "Deployment", m.depDirty)
		if w.Type == watchModified {
			// kube-scheduler reads a ReplicaSet for the default spread
			// constraints' selector (helper.DefaultSelector) alone,
			// which an update cannot change (spec.selector is
			// immutable): only its addition and deletion concern it.
			return nil
		}
		if w.Type == watchDeleted {
			in = scheduling.ObjectDeleted(w.Object)
		} else {
			in = scheduling.ObjectSet(w.Object)
		}
	case *api.Deployment:
		m.depDirty[w.Key] = true
		return nil
	case *api.DaemonSet, *api.Job, *api.CronJob, *api.ControllerRevision, *api.PriorityClass, *api.ResourceQuota:
		return nil
	case *api.VolumeAttachment:
		return nil // the attach-detach controller's alone (storageDeliver)
	case *api.Unstructured:
		return nil // no component reads the kinds the cluster holds inert
	case *api.LimitRange:
		return nil // read by the API server's admission alone
	case *api.PodDisruptionBudget:
		m.pdbDirty[w.Key] = true
		if w.Type == watchDeleted {
			in = scheduling.ObjectDeleted(w.Object)
		} else {
			in = scheduling.ObjectSet(w.Object)
		}
	default:
		if w.Type == watchDeleted {
			in = scheduling.ObjectDeleted(w.Object)
		} else {
			in = scheduling.ObjectSet(w.Object)
		}
	}
	res, err := stepMachine(m, "kube-scheduler", "", m.sched, in, now)
	if err != nil {
		return fmt.Errorf("cluster: kube-scheduler: %s: %w", in, err)
	}
	return m.schedulerActions(res.Actions, now)
}

// podChanged marks what a pod's watch event concerns: its ReplicaSet (or,
// for an orphan, the ReplicaSets whose selector matches it: ownerDirty)
// and the kubelets of its node, before and after.
func (m *Machine) podChanged(w watchEvent) {
	p := w.Object.(*api.Pod)
	m.ownerDirty(w, &p.ObjectMeta, "ReplicaSet", m.rsDirty)
	for _, node := range []string{p.Spec.NodeName, nodeOf(w.Old)} {
		if k := m.kubelets[node]; k != nil {
			k.dirty[w.Key] = true
			k.forgetDeadline()
		}
	}
}

func nodeOf(o api.Object) string {
	if p, ok := o.(*api.Pod); ok && p != nil {
		return p.Spec.NodeName
	}
	return ""
}

// ownerDirty marks for a sync what a controller of ownerKind learns from
// the watch event w of one of its objects (a pod, or a Deployment's
// ReplicaSet), as the controllers' event handlers in
// kube-controller-manager do: the object's controller before and after the
// change; and for an orphan (no controller now) that is added, or whose
// labels or controller changed, every owner of its namespace whose
// selector matches its labels (one that may adopt it; a nil or empty
// selector matches nothing). The deletion of an orphan concerns no one.
func (m *Machine) ownerDirty(w watchEvent, meta *api.ObjectMeta, ownerKind string, dirty map[string]bool) {
	cur := meta.ControllerRef()
	var old *api.OwnerReference
	var oldMeta *api.ObjectMeta
	if w.Old != nil {
		_, oldMeta = objectMeta(w.Old)
		old = oldMeta.ControllerRef()
	}
	for i, r := range [2]*api.OwnerReference{cur, old} {
		if r == nil || r.Kind != ownerKind || (i == 1 && cur != nil && cur.Kind == ownerKind && cur.Name == r.Name) {
			continue // not the kind's, or the controller before is the one after
		}
		if !dirty[meta.Namespace+"/"+r.Name] { // a lookup's key is built on the stack
			dirty[meta.Namespace+"/"+r.Name] = true
		}
	}
	if cur != nil || w.Type == watchDeleted {
		return
	}
	if oldMeta != nil && old == nil && maps.Equal(meta.Labels, oldMeta.Labels) {
		return // an orphan's update that changes neither labels nor controller
	}
	for _, k := range m.cache.namespaceKeys(ownerKind, meta.Namespace) {
		if dirty[k] {
			continue
		}
		if sel := ownerSelector(m.cache.get(ownerKind, k)); sel != nil && !sel.Empty() && sel.Matches(api.Set(meta.Labels)) {
			dirty[k] = true
		}
	}
}

// ownerSelector is the compiled spec.selector of a workload that owns
// pods or ReplicaSets; nil for none or one that does not compile.
func ownerSelector(o api.Object) api.Selector {
	var ls *api.LabelSelector
	switch x := o.(type) {
	case *api.ReplicaSet:
		ls = x.Spec.Selector
	case *api.Deployment:
		ls = x.Spec.Selector
	case *api.StatefulSet:
		ls = x.Spec.Selector
	case *api.DaemonSet:
		ls = x.Spec.Selector
	case *api.Job:
		ls = x.Spec.Selector
	}
	if ls == nil {
		return nil
	}
	sel, err := api.LabelSelectorAsSelector(ls)
	if err != nil {
		return nil
	}
	return sel
}

// runComponents runs every dirty or due component once, in the fixed
// order.
func (m *Machine) runComponents(now time.Time) error {
	if err := m.runNodeLifecycle(now); err != nil {
		return err
	}
	if d := m.te.NextDeadline(); !d.IsZero() && !d.After(now) {
		if err := m.taintEviction(nodelifecycle.Tick(), now); err != nil {
			return err
		}
	}
	if err := m.runPodGC(now); err != nil {
		return err
	}
	if err := m.runNamespaces(now); err != nil {
		return err
	}
	if err := m.runNamespaceDefaults(now); err != nil {
		return err
	}
	if err := m.runEphemeral(now); err != nil {
		return err
	}
	if err := m.runGarbageCollector(now); err != nil {
		return err
	}
	// The resourcequota controller before the workload controllers: its
	// recalculation after a pod event is one informer hop, where a
	// workload's create that the freed quota lets through is at least
	// two (the owner's write, then its sync).
	if err := m.runQuotas(now); err != nil {
		return err
	}
	if err := m.runDisruption(now); err != nil {
		return err
	}
	if err := m.runDeployments(now); err != nil {
		return err
	}
	if err := m.runReplicaSets(now); err != nil {
		return err
	}
	if err := m.runApps(now); err != nil {
		return err
	}
	if err := m.runStorage(now); err != nil {
		return err
	}
	if err := m.runProtection(now); err != nil {
		return err
	}
	m.rec.tickSeries(now)
	m.runBinds(now)
	for d := m.sched.NextDeadline(); !d.IsZero() && !d.After(now); d = m.sched.NextDeadline() {
		res, err := stepMachine(m, "kube-scheduler", "", m.sched, scheduling.Tick(), now)
		if err != nil {
			return fmt.Errorf("cluster: kube-scheduler: %w", err)
		}
		if err := m.schedulerActions(res.Actions, now); err != nil {
			return err
		}
	}
	m.kubeletOrder() // the kubelets' ranks, for due's order
	m.kubeletPhase = now
	due := m.kq.due(now)
	if m.kubeletCheck != nil {
		var scan []*kubelet
		for _, n := range m.kubeletOrder() {
			if k := m.kubelets[n]; k.due(now) {
				scan = append(scan, k)
			}
		}
		if !slices.Equal(due, scan) {
			m.kubeletCheck("kubeletQueue: %d kubelets due at %v, a scan of every kubelet finds %d", len(due), now, len(scan))
		}
	}
	for _, k := range due {
		if !k.due(now) {
			continue
		}
		err := k.run(m, now)
		k.q.mark(k) // its heartbeat times moved; run drops its pods' cached deadline itself when they change
		if err != nil {
			return fmt.Errorf("cluster: kubelet %s: %w", k.node, err)
		}
	}
	return m.runDrains(now)
}

// schedulerActions carries out kube-scheduler's API calls.
func (m *Machine) schedulerActions(actions []scheduling.Action, now time.Time) error {
	merged := -1 // the FailedScheduling whose condition went with the nomination's patch
	for i, a := range actions {
		key := a.Pod.Key()
		switch a.Kind {
		case scheduling.ActionBind:
			if a.Volumes != nil && m.preBind(a, now) {
				continue // the binding waits for the claims (storage.go)
			}
			if at := m.bindSlot(now); at.After(now) {
				m.binds = append(m.binds, delayedBind{action: a, at: at})
				continue // written at its slot (runBinds)
			}
			if err := m.bind(key, a.Pod.UID, a.Node, now); err != nil {
				m.rec.scenario(now, "Warning", "BindFailed", objRef("Pod", a.Pod.Namespace, a.Pod.Name), err.Error())
				continue
			}
		case scheduling.ActionNominate, scheduling.ActionClearNomination:
			node := a.Node
			if a.Kind == scheduling.ActionClearNomination {
				node = ""
			}
			// The failure handler writes the nomination and the
			// PodScheduled condition in one status patch (updatePod).
			var cond *api.PodCondition
			if i+1 < len(actions) && actions[i+1].Kind == scheduling.ActionFailedScheduling && actions[i+1].Pod == a.Pod {
				cond = actions[i+1].Condition
				merged = i + 1
			}
			if err := m.patchPodStatus(key, a.Pod.UID, now, func(s *api.PodStatus) {
				s.NominatedNodeName = node
				if cond != nil {
					api.UpdatePodCondition(s, *cond, now)
				}
			}); err != nil {
				return err
			}
		case scheduling.ActionPreempt:
			cond := *a.Condition
			if err := m.patchPodStatus(key, a.Pod.UID, now, func(s *api.PodStatus) { api.UpdatePodCondition(s, cond, now) }); err != nil {
				return err
			}
			if _, err := m.store.deletePod(key, a.DeleteOptions, now); err != nil && !errors.Is(err, errNotFound) {
				return err
			}
		case scheduling.ActionFailedScheduling:
			if a.Condition != nil && merged != i {
				cond := *a.Condition
				if err := m.patchPodStatus(key, a.Pod.UID, now, func(s *api.PodStatus) { api.UpdatePodCondition(s, cond, now) }); err != nil {
					return err
				}
			}
		}
		m.rec.event(now, a.Event)
	}
	return nil
}

// delayedBind is a binding kube-scheduler decided whose write waits for
// its slot (RuntimeModel.BindInterval).
type delayedBind struct {
	action scheduling.Action
	at     time.Time
}

// bindSlot is when a binding decided at now is written: at once, unless
// the last one was written less than a BindInterval ago, then that
// interval after it. It takes the slot.
func (m *Machine) bindSlot(now time.Time) time.Time {
	if m.cfg.Runtime.bindInterval() == 0 {
		return now
	}
	at := now
	if m.bindFree.After(at) {
		at = m.bindFree
	}
	m.bindFree = at.Add(m.cfg.Runtime.bindInterval())
	return at
}

// runBinds writes the delayed bindings whose slot has come, in order,
// with their Scheduled Events.
func (m *Machine) runBinds(now time.Time) {
	n := 0
	for n < len(m.binds) && !m.binds[n].at.After(now) {
		a := m.binds[n].action
		if err := m.bind(a.Pod.Key(), a.Pod.UID, a.Node, now); err != nil {
			m.rec.scenario(now, "Warning", "BindFailed", objRef("Pod", a.Pod.Namespace, a.Pod.Name), err.Error())
		} else {
			m.rec.event(now, a.Event)
		}
		n++
	}
	m.binds = m.binds[n:]
}

// bindsDeadline is the slot of the next delayed binding (zero: none).
func (m *Machine) bindsDeadline() time.Time {
	if len(m.binds) == 0 {
		return time.Time{}
	}
	return m.binds[0].at
}

// bind is the pods/binding subresource: spec.nodeName set and the
// PodScheduled condition True, as the pod registry's binding storage
// writes them; refused for a pod already bound, being deleted, or gone.
func (m *Machine) bind(key, uid, node string, now time.Time) error {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid {
		return notFound("Pod", key)
	}
	if old.Spec.NodeName != "" {
		return fmt.Errorf("pod %s is already assigned to node %q", old.Name, old.Spec.NodeName)
	}
	if old.DeletionTimestamp != nil {
		return fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", old.Name)
	}
	// The bound pod shares the old one's values (never modified in the
	// store) but spec.nodeName and the conditions, copied to be changed.
	p := *old
	p.Spec.NodeName = node
	// PodTopologyLabels admission: the binding carries the node's zone and
	// region labels, which the binding registry writes onto the pod.
	n, _ := m.store.get("Node", node).(*api.Node)
	p.Labels = admission.WithPodTopologyLabels(old.Labels, n)
	p.Status.Conditions = slices.Clone(old.Status.Conditions)
	api.UpdatePodCondition(&p.Status, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}, now)
	// ClearingNominatedNodeNameAfterBinding (on by default since v1.35).
	p.Status.NominatedNodeName = ""
	m.store.nextRV(&p.ObjectMeta)
	m.store.put("Pod", key, &p, watchModified, old)
	return nil
}

// patchPodStatus writes a status change of the pod (a status patch: the
// spec and metadata are kept); a pod gone or replaced is skipped.
func (m *Machine) patchPodStatus(key, uid string, now time.Time, f func(*api.PodStatus)) error {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid {
		return nil
	}
	// Only the status changes: the new pod shares the old one's spec and
	// metadata values (never modified in the store) and gets a copy of the
	// status to change.
	st := *old.Status.DeepCopy()
	f(&st)
	m.putPodStatus(key, old, st)
	return nil
}

// putPodStatus stores old with status st unless it is old's own; it
// returns the pod the store then holds.
func (m *Machine) putPodStatus(key string, old *api.Pod, st api.PodStatus) *api.Pod {
	if specEqual(&st, &old.Status) {
		return old
	}
	p := *old
	p.Status = st
	m.store.nextRV(&p.ObjectMeta)
	m.store.put("Pod", key, &p, watchModified, old)
	return &p
}

// writePodStatus is the kubelet's status manager writing the status its
// pod machine reports: the kubelet's own conditions and container
// statuses replace the stored ones; conditions the kubelet does not own
// (PodScheduled, DisruptionTarget, readiness gates' conditions) and the
// nominated node are kept, as the status manager merges them. It returns
// the pod as stored after the write (nil when the pod is gone or
// replaced).
func (m *Machine) writePodStatus(key, uid string, status api.PodStatus, now time.Time) *api.Pod {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid {
		return nil
	}
	// The reported status replaces the stored one (no copy of the old
	// status to edit): only the kept conditions are taken from it, into a
	// new array.
	st := status
	st.NominatedNodeName = old.Status.NominatedNodeName
	for _, c := range old.Status.Conditions {
		if !kubeletOwnsCondition(c.Type) && condIndex(st.Conditions, c.Type) < 0 {
			st.Conditions = append(slices.Clip(st.Conditions), c)
		}
	}
	return m.putPodStatus(key, old, st)
}

func condIndex(conds []api.PodCondition, t api.PodConditionType) int {
	for i, c := range conds {
		if c.Type == t {
			return i
		}
	}
	return -1
}

// kubeletOwnsCondition reports the pod conditions the kubelet generates
// (its status manager overwrites them).
func kubeletOwnsCondition(t api.PodConditionType) bool {
	switch t {
	case api.PodReady, api.ContainersReady, api.PodInitialized, api.PodReadyToStartContainers:
		return true
	}
	return false
}

// removePod is the kubelet's final DELETE of a terminated pod: grace
// period 0 with its UID as precondition.
func (m *Machine) removePod(key, uid string, now time.Time) error {
	old, _ := m.store.get("Pod", key).(*api.Pod)
	if old == nil || old.UID != uid {
		return nil
	}
	zero := int64(0)
	u := uid
	_, err := m.store.deletePod(key, &api.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &api.Preconditions{UID: &u}}, now)
	return err
}
