package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/admission/podsecurity"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/downward"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/resourcequota"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
)

// world is what the explained pods meet: every object read, sorted by
// kind, and the time "now".
type world struct {
	now        time.Time
	pods       []*api.Pod // every pod read, explained or not
	nodes      []*api.Node
	pdbs       []*api.PodDisruptionBudget
	classes    []api.PriorityClass
	workloads  scheduling.SpreadWorkloads
	controls   disruption.Controllers
	namespaces []*api.Namespace
	limits     map[string][]*api.LimitRange // by namespace, API-defaulted
	// quotas are the ResourceQuotas read, by namespace, each with the
	// status the admission plugin reads (see quotaStatus).
	quotas  map[string][]*api.ResourceQuota
	storage []api.Object // claims, volumes, classes, CSI nodes and drivers, for the scheduler
	lookup  downward.Objects
	// budgets are the PodDisruptionBudgets with the status they have now:
	// as read when they carry one, else as the disruption controller
	// computes it from the pods read (see budgetStatus).
	budgets []budget

	// sched is the scheduler's view of the cluster, built on first use
	// (see cluster).
	sched    *scheduling.Cluster
	schedErr error
}

// budget is one PodDisruptionBudget with its status now.
type budget struct {
	pdb      *api.PodDisruptionBudget
	computed bool              // the status was computed here, not read
	result   disruption.Result // when computed
}

func newWorld(in *input, now time.Time) *world {
	w := &world{now: now, lookup: downward.Objects{ConfigMaps: in.configMaps, Secrets: in.secrets}}
	for _, d := range in.objects {
		switch o := d.obj.(type) {
		case *api.Pod:
			w.pods = append(w.pods, o)
		case *api.Node:
			w.nodes = append(w.nodes, o)
		case *api.PodDisruptionBudget:
			w.pdbs = append(w.pdbs, o)
		case *api.PriorityClass:
			w.classes = append(w.classes, *o)
		case *api.Namespace:
			w.namespaces = append(w.namespaces, o)
		case *api.LimitRange:
			lr := o.DeepCopy()
			api.DefaultLimitRange(lr)
			if w.limits == nil {
				w.limits = map[string][]*api.LimitRange{}
			}
			w.limits[lr.Namespace] = append(w.limits[lr.Namespace], lr)
		case *api.ResourceQuota:
			if w.quotas == nil {
				w.quotas = map[string][]*api.ResourceQuota{}
			}
			w.quotas[o.Namespace] = append(w.quotas[o.Namespace], o)
		case *api.Service:
			w.workloads.Services = append(w.workloads.Services, o)
		case *api.ReplicationController:
			w.workloads.ReplicationControllers = append(w.workloads.ReplicationControllers, o)
			w.controls.ReplicationControllers = append(w.controls.ReplicationControllers, o)
		case *api.ReplicaSet:
			w.workloads.ReplicaSets = append(w.workloads.ReplicaSets, o)
			w.controls.ReplicaSets = append(w.controls.ReplicaSets, o)
		case *api.StatefulSet:
			w.workloads.StatefulSets = append(w.workloads.StatefulSets, o)
			w.controls.StatefulSets = append(w.controls.StatefulSets, o)
		case *api.Deployment:
			w.controls.Deployments = append(w.controls.Deployments, o)
		case *api.PersistentVolumeClaim, *api.PersistentVolume, *api.StorageClass, *api.CSINode, *api.CSIDriver:
			w.storage = append(w.storage, o)
		}
	}
	for _, p := range w.pdbs {
		w.budgets = append(w.budgets, w.budgetStatus(p))
	}
	for ns, qs := range w.quotas {
		for i, q := range qs {
			qs[i] = w.quotaStatus(q)
		}
		w.quotas[ns] = qs
	}
	return w
}

// quotaStatus is a quota with the status the ResourceQuota admission
// plugin reads. A quota read with one (its status.hard, written by the
// resourcequota controller) keeps it; one without (a manifest) gets the
// status the controller's first sync writes, from the pods read from a
// cluster in its namespace (a manifest's pods are not created yet). The
// quota read is not modified.
func (w *world) quotaStatus(q *api.ResourceQuota) *api.ResourceQuota {
	if q.Status.Hard != nil {
		return q
	}
	var objs []resourcequota.Object
	for _, p := range w.pods {
		if p.Namespace == q.Namespace && readFromCluster(p) {
			objs = append(objs, resourcequota.PodObject(p))
		}
	}
	st, _, err := resourcequota.Status(q, objs, w.now)
	if err != nil {
		return q // the admission plugin then counts nothing against it, as before its first sync
	}
	c := q.DeepCopy()
	c.Status = st
	return c
}

// defaultNamespace puts namespaced objects read without a namespace into
// "default", as kubectl does with a context that names none.
func defaultNamespace(in *input) {
	for i := range in.objects {
		d := &in.objects[i]
		var m *api.ObjectMeta
		switch o := d.obj.(type) {
		case *api.Pod:
			m = &o.ObjectMeta
		case *api.PodDisruptionBudget:
			m = &o.ObjectMeta
		case *api.Service:
			m = &o.ObjectMeta
		case *api.ReplicationController:
			m = &o.ObjectMeta
		case *api.ReplicaSet:
			m = &o.ObjectMeta
		case *api.StatefulSet:
			m = &o.ObjectMeta
		case *api.Deployment:
			m = &o.ObjectMeta
		case *api.DaemonSet:
			m = &o.ObjectMeta
		case *api.Job:
			m = &o.ObjectMeta
		case *api.PersistentVolumeClaim:
			m = &o.ObjectMeta
		case *api.Eviction:
			m = &o.ObjectMeta
		case *api.LimitRange:
			m = &o.ObjectMeta
		case *api.ResourceQuota:
			m = &o.ObjectMeta
		}
		if m != nil && m.Namespace == "" {
			m.Namespace = "default"
			d.at.namespace = "default"
		}
	}
}

// budgetStatus is a budget's status now. A budget read with a status (one
// the disruption controller has written: an observedGeneration or
// conditions) keeps it; one without (a manifest) gets the status the
// controller's next sync writes, from the pods and controllers read.
func (w *world) budgetStatus(p *api.PodDisruptionBudget) budget {
	if p.Status.ObservedGeneration != 0 || len(p.Status.Conditions) > 0 {
		return budget{pdb: p}
	}
	cp := *p
	st, res := disruption.Evaluate(p, w.pods, w.controls, w.now)
	cp.Status = st
	return budget{pdb: &cp, computed: true, result: res}
}

func (w *world) budgetPointers() []*api.PodDisruptionBudget {
	out := make([]*api.PodDisruptionBudget, len(w.budgets))
	for i, b := range w.budgets {
		out[i] = b.pdb
	}
	return out
}

func (w *world) node(name string) *api.Node {
	for _, n := range w.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// report is everything explain says about one pod.
type report struct {
	at  where
	now time.Time
	pod *api.Pod // as read
	// origin says where a pod that was not read comes from ("a pod
	// Deployment shop/web would create"); "" for a pod read.
	origin string
	// stored is the pod as the API server would store it: defaulted
	// (api.DefaultPod), its priority resolved by the Priority admission
	// plugin when spec.priority is unset, and, when it has no status (it
	// was never created), its resources defaulted by the LimitRanger
	// admission plugin from the LimitRanges read for its namespace (Pod
	// Security admission judging it by its namespace's labels), phase
	// Pending; the affinity label keys merged.
	stored   *api.Pod
	priority string // how the priority was set
	// admission is an admission plugin's refusal, admissionPlugin the
	// plugin's name (Priority, LimitRanger).
	admission       error
	admissionPlugin string
	findings        api.FieldErrors
	// privileged is true when the pod was read from a cluster and is
	// accepted only because explain assumed that cluster's API server runs
	// with --allow-privileged=true (kube-apiserver's default is false).
	privileged bool

	requests, limits api.ResourceList
	qos              api.PodQOSClass

	// statusOf is the pod the status section reads: the pod as read, or
	// stored when it was read without a status (a manifest).
	statusOf   *api.Pod
	phase      lifecycle.PhaseResult
	conditions []api.PodCondition
	bound      bool // the pod names a node: the kubelet's view applies
	row        lifecycle.DisplayRow

	story  []storyStep
	probes []probeSchedule

	// running is stored bound to a node: its own, the scheduler's choice,
	// or none (runningOn explains which).
	running   *api.Pod
	runningOn string

	deleteFlags string
	asGiven     *termination.APIServerDecision // the pod as read is not bound: the API server's answer for it
	timeline    termination.Timeline
	timelineErr error

	env   []containerEnv
	files []volumeFiles

	place *placement // nil without nodes

	budgets  []budget // the budgets whose selector matches the pod
	eviction disruption.EvictionDecision
}

type containerEnv struct {
	container string
	vars      []downward.EnvVar
	err       error
}

type volumeFiles struct {
	volume string
	files  []downward.File
	err    error
}

// explain builds the report of one pod.
func (w *world) explain(at where, pod *api.Pod) *report {
	r := &report{at: at, now: w.now, pod: pod}
	r.stored = w.store(r, pod)
	apiserver := validation.Options{AllowPrivileged: readFromCluster(pod)}
	r.findings = apiserver.ValidatePodCreate(r.stored)
	r.privileged = apiserver.AllowPrivileged && len(validation.ValidatePodCreate(r.stored)) > len(r.findings)

	r.requests = api.PodRequests(r.stored, scheduling.FitRequestOptions())
	r.limits = api.PodLimits(r.stored, api.PodResourcesOptions{})
	r.qos = api.ComputePodQOS(r.stored)
	if r.refused() {
		// The API server refuses the pod: it never exists, let alone runs.
		return r
	}

	r.statusOf = pod
	if pod.Status.Phase == "" {
		r.statusOf = r.stored
	}
	r.phase = lifecycle.ExplainPhase(r.statusOf, lifecycle.PhaseOptions{})
	r.bound = pod.Spec.NodeName != ""
	if r.bound {
		kc := lifecycle.Conditions(r.statusOf, lifecycle.ConditionsInput{Phase: r.phase.Phase, Sandboxes: sandboxes(r.statusOf)}, w.now)
		r.conditions = kc.List()
	}
	r.row = lifecycle.DisplayStatus(r.statusOf, w.now)

	if len(w.nodes) > 0 || !r.bound {
		// With no node read, the scheduler's answer is still the one a
		// pod meets on a cluster without nodes: it stays Pending.
		r.place = w.place(r.stored)
	}
	r.running, r.runningOn = w.bind(r)

	r.story = replay(r.running, w.now)
	r.probes = probeSchedules(r.stored, w.now)

	r.deleteFlags = "kubectl delete pod " + pod.Name
	opts, _, err := termination.KubectlDeleteOptions(termination.KubectlDeleteFlags{})
	if err != nil {
		r.timelineErr = err
	} else {
		if !r.bound {
			d, err := termination.APIServerGrace(r.stored, &opts, w.now)
			if err == nil {
				r.asGiven = &d
			}
		}
		r.timeline, r.timelineErr = termination.BuildTimeline(r.running, termination.DeleteRequest{Options: &opts}, w.now)
	}

	r.env, r.files = w.downwardValues(r.running)

	for _, b := range w.budgets {
		if b.pdb.Namespace != pod.Namespace || b.pdb.Spec.Selector == nil {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(b.pdb.Spec.Selector)
		if err == nil && sel.Matches(api.Set(pod.Labels)) {
			r.budgets = append(r.budgets, b)
		}
	}
	ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: r.stored.Name, Namespace: r.stored.Namespace}}
	r.eviction = disruption.Evict(r.stored, ev, w.budgetPointers(), disruption.EvictOptions{}, w.now)
	return r
}

// refused reports whether the API server would refuse to create the pod.
func (r *report) refused() bool { return len(r.findings) > 0 || r.admission != nil }

// privilegedNote says why a privileged pod read from a cluster passes.
const privilegedNote = "assumed --allow-privileged=true: the pod was read from a cluster, whose API server accepted its privileged containers (kube-apiserver's default, false, refuses them)"

// readFromCluster reports whether pod was read from a cluster (kubectl get
// -o yaml) rather than from a manifest: it has a uid, a resourceVersion or
// a status phase, which only the API server writes.
func readFromCluster(pod *api.Pod) bool {
	return pod.UID != "" || pod.ResourceVersion != "" || pod.Status.Phase != ""
}

// store returns the pod as the API server would store it on create (see
// report.stored). The pod read is not modified.
func (w *world) store(r *report, pod *api.Pod) *api.Pod {
	p := deepCopy(pod)
	api.DefaultPod(p)
	if p.Spec.Priority == nil {
		classes := append(api.SystemPriorityClasses(), w.classes...)
		pr, err := admission.ResolvePriority(p, classes)
		if err != nil {
			r.admission, r.admissionPlugin = err, "Priority"
		} else {
			pr.Apply(p)
			if pr.ClassName != "" {
				r.priority = fmt.Sprintf("%d from PriorityClass %s (Priority admission)", pr.Value, pr.ClassName)
			} else {
				r.priority = fmt.Sprintf("%d (no PriorityClass: the default)", pr.Value)
			}
		}
	} else {
		r.priority = fmt.Sprintf("%d (spec.priority as read)", *p.Spec.Priority)
	}
	if p.Status.Phase == "" {
		// A pod that was never created has no status: store it as the
		// API server's create path does (its namespace's LimitRanges,
		// Pending, its QoS class, label keys merged).
		ranges := w.limits[p.Namespace]
		admission.LimitRangerDefaults(p, ranges)
		if err := admission.LimitRangerCheck(p, cmp.Or(p.Name, p.GenerateName), ranges); err != nil && r.admission == nil {
			r.admission, r.admissionPlugin = err, "LimitRanger"
		}
		if err := podsecurity.Admit(p, podsecurity.NamespacePolicy(w.namespaceLabels(p.Namespace))); err != nil && r.admission == nil {
			r.admission, r.admissionPlugin = err, "PodSecurity"
		}
		if _, err := resourcequota.Admit(w.quotas[p.Namespace], resourcequota.PodObject(p), cmp.Or(p.Name, p.GenerateName), w.now); err != nil && r.admission == nil {
			r.admission, r.admissionPlugin = err, "ResourceQuota"
		}
		return validation.PrepareForCreate(p)
	}
	return validation.MergeAffinityLabelKeys(p)
}

// bind returns the stored pod bound to a node for the sections that need
// one (termination, downward API): the pod's own node, else the node the
// scheduler picks (or nominates after preemption), else a placeholder.
func (w *world) bind(r *report) (*api.Pod, string) {
	if r.stored.Spec.NodeName != "" {
		return r.stored, r.stored.Spec.NodeName
	}
	p := deepCopy(r.stored)
	node := ""
	if r.place != nil {
		node = r.place.chosen
	}
	if node == "" {
		p.Spec.NodeName = "node"
		return p, ""
	}
	p.Spec.NodeName = node
	return p, node
}

// sandboxes is what explain assumes the runtime holds for a pod read from
// a cluster: one ready sandbox with the pod's IP when the pod has an IP or
// a running container, none otherwise.
func sandboxes(pod *api.Pod) []lifecycle.Sandbox {
	running := pod.Status.PodIP != ""
	for _, cs := range append(append([]api.ContainerStatus(nil), pod.Status.InitContainerStatuses...), pod.Status.ContainerStatuses...) {
		if cs.State.Running != nil {
			running = true
		}
	}
	if !running {
		return nil
	}
	mode := lifecycle.NamespacePod
	if pod.Spec.HostNetwork {
		mode = lifecycle.NamespaceNode
	}
	return []lifecycle.Sandbox{{Ready: true, Network: mode, HasNetworkStatus: true, IP: pod.Status.PodIP}}
}

// downwardValues resolves the environment of every container that has env
// or envFrom, and the files of every downwardAPI or projected volume, on
// the pod's node.
func (w *world) downwardValues(pod *api.Pod) ([]containerEnv, []volumeFiles) {
	node := w.node(pod.Spec.NodeName)
	ctx := &downward.Context{Node: node, PodIP: pod.Status.PodIP}
	for _, ip := range pod.Status.PodIPs {
		ctx.PodIPs = append(ctx.PodIPs, ip.IP)
	}
	var envs []containerEnv
	all := append(append([]api.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...)
	for _, c := range all {
		if len(c.Env) == 0 && len(c.EnvFrom) == 0 {
			continue
		}
		vars, err := downward.Environment(pod, c.Name, ctx, w.lookup)
		envs = append(envs, containerEnv{container: c.Name, vars: vars, err: err})
	}
	var alloc api.ResourceList
	if node != nil {
		alloc = node.Status.Allocatable
	}
	var files []volumeFiles
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		if v.DownwardAPI == nil && v.Projected == nil {
			continue
		}
		fs, err := downward.VolumeFiles(pod, v, alloc, w.lookup)
		files = append(files, volumeFiles{volume: v.Name, files: fs, err: err})
	}
	return envs, files
}

// deepCopy copies a pod through its JSON form.
func deepCopy(p *api.Pod) *api.Pod {
	b, err := json.Marshal(p)
	if err != nil {
		panic(fmt.Sprintf("encoding a decoded pod: %v", err)) // cannot happen: it was decoded from JSON
	}
	var out api.Pod
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("decoding an encoded pod: %v", err))
	}
	return &out
}

// sortedNames returns a resource list's names sorted.
func sortedNames(l api.ResourceList) []api.ResourceName {
	n := l.Names()
	sort.Slice(n, func(i, j int) bool { return n[i] < n[j] })
	return n
}

// errNothingToExplain is what explain says when the files hold no pod and
// no workload whose pods it could explain.
var errNothingToExplain = errors.New("nothing to explain: no Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet or Job was read from the files to explain")

// namespaceLabels are the labels of the namespace read named name (nil
// when it was not read).
func (w *world) namespaceLabels(name string) map[string]string {
	for _, ns := range w.namespaces {
		if ns.Name == name {
			return ns.Labels
		}
	}
	return nil
}
