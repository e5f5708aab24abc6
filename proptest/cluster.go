package proptest

import (
	"fmt"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

// ClusterOptions configure Cluster. The zero value draws small clusters
// (one to eight nodes, up to five pods a node) of the default Topology.
type ClusterOptions struct {
	// Nodes is the number of nodes; 0 draws one to eight.
	Nodes int
	// Pods is the number of pods; 0 draws up to five per node.
	Pods int
	// Pending is how many of the Pods (the last ones created) the
	// scheduler has not looked at yet: they stay unbound, as just created.
	// Pods no node fits are left Pending as well, whatever this says.
	Pending int
	// Topology is shared by the nodes and the pods' constraints.
	Topology Topology
	// Pod shapes the pods. Its Topology, NodeNames, AsWritten and Now are
	// ignored: the cluster's own are used, and its pods are stored
	// objects. Its Apps are the base names of the workloads' app labels.
	Pod PodOptions
	// Scheduler is the profile pods are placed with.
	Scheduler scheduling.Config
	// Now is the moment the cluster is observed at; zero means
	// 2025-06-01T12:00:00Z.
	Now time.Time
}

// ClusterState is a consistent set of a cluster's objects, as an informer
// cache would hold them at one moment: every pod bound to a node that
// exists, each placed by kube-scheduler's filters on the cluster as it was
// when the pod was bound (so no node's pods request more than its
// allocatable), budgets whose status is what the disruption controller
// computes.
//
// Pods of one workload share their template: their spec's slices, maps and
// pointers are the same values. Copy before modifying one pod's containers
// (a shallow copy of the Pod suffices to change spec.nodeName or the
// status).
type ClusterState struct {
	// Now is the moment the cluster is observed at.
	Now time.Time
	// Namespaces hold the kubernetes.io/metadata.name label the API server
	// sets, which namespaceSelector terms select on.
	Namespaces      []*api.Namespace
	PriorityClasses []api.PriorityClass
	Nodes           []*api.Node
	// Pods holds the bound pods (running, a few not ready, Job pods
	// sometimes completed) and the pending ones (spec.nodeName empty).
	Pods []*api.Pod
	// ReplicaSets and StatefulSets own most pods; their replicas are the
	// numbers of pods they own.
	ReplicaSets  []*api.ReplicaSet
	StatefulSets []*api.StatefulSet
	// PDBs select the pods of some of those workloads.
	PDBs []*api.PodDisruptionBudget
}

// Snapshot builds kube-scheduler's view of the cluster: its nodes, its
// pods and the labels of its namespaces, evaluated with cfg. A nil state
// is an error wrapping api.ErrInvalidInput; a nil node, pod or namespace in
// it gives scheduling's error for it.
func (c *ClusterState) Snapshot(cfg scheduling.Config) (*scheduling.Cluster, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: cluster state: nil", errInvalidInput)
	}
	snap, err := scheduling.NewCluster(c.Nodes, c.Pods, cfg)
	if err != nil {
		return nil, err
	}
	for _, ns := range c.Namespaces {
		if err := snap.SetNamespace(ns); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// Controllers are the workload objects of the cluster, as the disruption
// controller reads their scales (disruption.Evaluate). A nil state has
// none.
func (c *ClusterState) Controllers() disruption.Controllers {
	if c == nil {
		return disruption.Controllers{}
	}
	return disruption.Controllers{ReplicaSets: c.ReplicaSets, StatefulSets: c.StatefulSets}
}

// Pending returns the pods not bound to a node, in the order of Pods. A
// nil state has none, and nil entries of Pods are left out.
func (c *ClusterState) Pending() []*api.Pod {
	if c == nil {
		return nil
	}
	var out []*api.Pod
	for _, p := range c.Pods {
		if p != nil && p.Spec.NodeName == "" {
			out = append(out, p)
		}
	}
	return out
}

// Cluster returns a generator of whole clusters: nodes as Node draws them,
// the namespaces and priority classes pods refer to, workloads
// (ReplicaSets, StatefulSets, Jobs and bare pods) whose pods share a
// template drawn as Pod draws pods, every pod but the last opts.Pending
// placed one after another on a node drawn among those kube-scheduler's
// filters accept (scheduling.Cluster's cycle, with opts.Scheduler) and
// given a running status there, pods no node accepts left Pending with
// the scheduler's message, and PodDisruptionBudgets over some workloads
// with the status the disruption controller computes.
//
// A 500-node, 5,000-pod cluster takes a few hundred milliseconds to draw.
func Cluster(opts ClusterOptions) *rapid.Generator[*ClusterState] {
	return rapid.Custom(func(t *rapid.T) *ClusterState {
		return drawCluster(newDrawer(t), opts)
	})
}

// workload is a set of pods drawn from one template.
type workload struct {
	id       identity
	replicas int
}

func drawCluster(d *drawer, opts ClusterOptions) *ClusterState {
	now := nowOr(opts.Now)
	cs := &ClusterState{Now: now}

	nNodes := opts.Nodes
	if nNodes <= 0 {
		nNodes = intIn(d, "nodes", 1, 8)
	}
	nodeOpts := NodeOptions{Topology: opts.Topology, Now: now}
	names := make([]string, nNodes)
	for i := range nNodes {
		n := drawNode(d, &nodeOpts, i)
		cs.Nodes = append(cs.Nodes, n)
		names[i] = n.Name
	}

	po := opts.Pod
	po.Topology, po.NodeNames, po.AsWritten, po.Now = presentTopology(opts.Topology, cs.Nodes), names, false, now
	g := newPodGen(po)
	cs.PriorityClasses = g.classes
	for _, ns := range g.namespaces {
		cs.Namespaces = append(cs.Namespaces, &api.Namespace{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: api.ObjectMeta{Name: ns, UID: uidOf("Namespace", "", ns), Labels: map[string]string{labelNamespaceName: ns}},
		})
	}

	nPods := opts.Pods
	if nPods <= 0 {
		nPods = intIn(d, "pods", 0, 5*nNodes)
	}
	workloads := planWorkloads(d, g, nPods)
	// Pod affinity selects among the apps created before (and the pod's
	// own), so that it can be met.
	g.appsIn = map[string][]string{}
	seen := map[string]bool{}
	for _, w := range workloads {
		g.appsIn[w.id.namespace] = append(g.appsIn[w.id.namespace], w.id.app)
		pods := g.drawWorkloadPods(d, w, seen)
		cs.Pods = append(cs.Pods, pods...)
		cs.addController(w, pods)
	}

	place(d, cs, opts, now)
	cs.drawBudgets(d, workloads)
	return cs
}

// presentTopology is the part of tp the nodes have: the zones and
// instance types pods' node selection may name, so that in a small
// cluster it names nodes that exist.
func presentTopology(tp Topology, nodes []*api.Node) Topology {
	zones, types := map[string]bool{}, map[string]bool{}
	for _, n := range nodes {
		zones[n.Labels[api.LabelTopologyZone]] = true
		types[n.Labels[labelInstanceType]] = true
	}
	var out Topology
	for _, z := range tp.zones() {
		if zones[z.Name] {
			out.Zones = append(out.Zones, z)
		}
	}
	for _, it := range tp.instanceTypes() {
		if types[it.Name] {
			out.InstanceTypes = append(out.InstanceTypes, it)
		}
	}
	return out
}

// planWorkloads splits n pods into workloads of various kinds, each with
// an app label unique in its namespace.
func planWorkloads(d *drawer, g *podGen, n int) []workload {
	used := map[string]bool{}
	var out []workload
	for remaining := n; remaining > 0; {
		id := identity{
			namespace: pick(d, "workload-namespace", g.namespaces),
			kind:      pick(d, "workload-kind", []string{kindReplicaSet, kindReplicaSet, kindStatefulSet, kindJob, kindBare}),
		}
		base := pick(d, "workload-app", g.apps)
		id.app = base
		// A second web in a namespace is web-v2: a numeric suffix would
		// collide with a StatefulSet's pod names.
		for i := 2; used[id.namespace+"/"+id.app]; i++ {
			id.app = base + "-v" + strconv.Itoa(i)
		}
		used[id.namespace+"/"+id.app] = true
		id.hash = templateHash(id.namespace, id.app, 0)
		switch id.kind {
		case kindReplicaSet:
			id.owner = id.app + "-" + id.hash
		case kindStatefulSet, kindJob:
			id.owner = id.app
		}
		replicas := 1
		if id.kind != kindBare {
			replicas = min(remaining, pick(d, "replicas", []int{3, 1, 2, 5, 10, 4, 6, 8}))
		}
		remaining -= replicas
		out = append(out, workload{id: id, replicas: replicas})
	}
	return out
}

// drawWorkloadPods draws the workload's template once and stamps out its
// pods, each with its own name, labels and uid.
func (g *podGen) drawWorkloadPods(d *drawer, w workload, seen map[string]bool) []*api.Pod {
	id := w.id
	id.name = id.app
	tmpl := g.drawPod(d, id)
	g.finish(d, tmpl)
	pods := make([]*api.Pod, 0, w.replicas)
	for r := range w.replicas {
		p := *tmpl
		name := id.app
		switch id.kind {
		case kindReplicaSet, kindJob:
			for salt := 0; ; salt++ {
				name = id.owner + "-" + encode(hashOf(id.namespace, id.owner, strconv.Itoa(r), strconv.Itoa(salt)), 5)
				if !seen[id.namespace+"/"+name] {
					break
				}
			}
		case kindStatefulSet:
			name = id.app + "-" + strconv.Itoa(r)
		}
		seen[id.namespace+"/"+name] = true
		p.Name = name
		p.UID = uidOf("Pod", id.namespace, name)
		p.Labels = make(map[string]string, len(tmpl.Labels))
		for k, v := range tmpl.Labels {
			p.Labels[k] = v
		}
		if id.kind == kindStatefulSet {
			p.Labels[api.LabelStatefulSetPodName] = name
			p.Labels[api.LabelPodIndex] = strconv.Itoa(r)
			p.Spec.Hostname = name
		}
		pods = append(pods, &p)
	}
	return pods
}

// addController records the ReplicaSet or StatefulSet that owns pods.
func (c *ClusterState) addController(w workload, pods []*api.Pod) {
	if len(pods) == 0 {
		return
	}
	id, tmpl := w.id, pods[0]
	replicas := int32(len(pods))
	template := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: tmpl.Labels}, Spec: tmpl.Spec}
	template.Spec.NodeName = ""
	switch id.kind {
	case kindReplicaSet:
		c.ReplicaSets = append(c.ReplicaSets, &api.ReplicaSet{
			TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: kindReplicaSet},
			ObjectMeta: api.ObjectMeta{Name: id.owner, Namespace: id.namespace, UID: uidOf(kindReplicaSet, id.namespace, id.owner), Generation: 1,
				Labels: map[string]string{"app": id.app, workloads.LabelPodTemplateHash: id.hash}},
			Spec: api.ReplicaSetSpec{
				Replicas: &replicas,
				Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": id.app, workloads.LabelPodTemplateHash: id.hash}},
				Template: template,
			},
			Status: api.ReplicaSetStatus{ObservedGeneration: 1, Replicas: replicas},
		})
	case kindStatefulSet:
		c.StatefulSets = append(c.StatefulSets, &api.StatefulSet{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: kindStatefulSet},
			ObjectMeta: api.ObjectMeta{Name: id.owner, Namespace: id.namespace, UID: uidOf(kindStatefulSet, id.namespace, id.owner), Generation: 1, Labels: map[string]string{"app": id.app}},
			Spec: api.StatefulSetSpec{
				Replicas:    &replicas,
				Selector:    &api.LabelSelector{MatchLabels: map[string]string{"app": id.app}},
				Template:    template,
				ServiceName: id.app,
			},
			Status: api.StatefulSetStatus{ObservedGeneration: 1, Replicas: replicas},
		})
	}
}

// place binds every pod but the last opts.Pending, one after another, to
// a node drawn among those the scheduler's filters accept on the cluster
// as it stands, and gives it a running status there; a pod no node
// accepts keeps a Pending status with the scheduler's message.
func place(d *drawer, cs *ClusterState, opts ClusterOptions, now time.Time) {
	// Placement draws among the feasible nodes, so the scores do not
	// matter: the inter-pod affinity scores that cost most are turned off.
	cfg := opts.Scheduler
	cfg.IgnorePreferredTermsOfExistingPods, cfg.HardPodAffinityWeight = true, ptr(int32(0))
	snap, err := (&ClusterState{Nodes: cs.Nodes, Namespaces: cs.Namespaces}).Snapshot(cfg)
	if err != nil {
		d.t.Fatalf("proptest: cannot build the scheduler's snapshot: %v", err)
	}
	podsOn := make([]int, len(cs.Nodes))
	var dec scheduling.Decision
	last := len(cs.Pods) - max(opts.Pending, 0)
	for i, p := range cs.Pods {
		if i >= last {
			continue
		}
		k, ok := placeOne(d, snap, p, &dec)
		if !ok {
			p.Status = unschedulableStatus(p, dec.Message(), now)
			continue
		}
		node := snap.NodeAt(k)
		p.Spec.NodeName = node.Name()
		podsOn[k]++
		ip := fmt.Sprintf("10.%d.%d.%d", 100+k/256, k%256, podsOn[k]+1)
		p.Status = runningStatus(d, p, node.Node(), ip, now)
		if err := snap.AddPod(p); err != nil {
			d.t.Fatalf("proptest: cannot add %s to the scheduler's snapshot: %v", p.Key(), err)
		}
	}
}

// placeOne draws a node the scheduler's filters accept for p: the first
// that fits among a few probed from a drawn start (the common case, cheap),
// else one drawn among all feasible nodes of a full decision, which when
// none is feasible is left in dec for its message.
func placeOne(d *drawer, snap *scheduling.Cluster, p *api.Pod, dec *scheduling.Decision) (int, bool) {
	const probes = 8
	cy := newCycle(snap, p)
	n := snap.NumNodes()
	if n == 0 {
		decide(cy, dec)
		return 0, false
	}
	// rapid favours small numbers; a hash of the pod's name salted with a
	// small draw spreads the starting node evenly and still shrinks.
	salt := strconv.Itoa(intIn(d, "placement", 0, 3))
	start := int(hashOf(p.Namespace, p.Name, salt) % uint64(n))
	for j := range min(probes, n) {
		if k := (start + j) % n; fitsNode(cy, snap, k) {
			return k, true
		}
	}
	decide(cy, dec)
	feasible := dec.Feasible()
	if len(feasible) == 0 {
		return 0, false
	}
	return feasible[hashOf(p.Namespace, p.Name, salt, "feasible")%uint64(len(feasible))], true
}

// drawBudgets draws PodDisruptionBudgets over some ReplicaSets and
// StatefulSets — minAvailable or maxUnavailable, as a count or a
// percentage, now and then with unhealthyPodEvictionPolicy AlwaysAllow —
// and gives each the status disruption.Evaluate computes.
func (c *ClusterState) drawBudgets(d *drawer, workloads []workload) {
	// A budget selects by its app label, which only its workload's pods
	// carry in its namespace: Evaluate is given those and their owner, not
	// every pod and controller of the cluster.
	owners := map[string]disruption.Controllers{}
	for _, rs := range c.ReplicaSets {
		owners[rs.Namespace+"/"+rs.Name] = disruption.Controllers{ReplicaSets: []*api.ReplicaSet{rs}}
	}
	for _, ss := range c.StatefulSets {
		owners[ss.Namespace+"/"+ss.Name] = disruption.Controllers{StatefulSets: []*api.StatefulSet{ss}}
	}
	byApp := map[string][]*api.Pod{}
	for _, p := range c.Pods {
		k := p.Namespace + "/" + p.Labels["app"]
		byApp[k] = append(byApp[k], p)
	}
	for _, w := range workloads {
		id := w.id
		if id.kind != kindReplicaSet && id.kind != kindStatefulSet || !flip(d, "pdb") {
			continue
		}
		pdb := &api.PodDisruptionBudget{
			TypeMeta:   api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
			ObjectMeta: api.ObjectMeta{Name: id.app, Namespace: id.namespace, UID: uidOf("PodDisruptionBudget", id.namespace, id.app), Generation: 1},
			Spec:       api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": id.app}}},
		}
		var v api.IntOrString
		if flip(d, "pdb-percent") {
			v = api.FromString(pick(d, "pdb-percent-value", []string{"50%", "25%", "80%", "100%", "0%"}))
		} else {
			v = api.FromInt32(int32(intIn(d, "pdb-count", 0, w.replicas)))
		}
		if flip(d, "pdb-max-unavailable") {
			pdb.Spec.MaxUnavailable = &v
		} else {
			pdb.Spec.MinAvailable = &v
		}
		if chance(d, "pdb-always-allow", 4) {
			pdb.Spec.UnhealthyPodEvictionPolicy = ptr(api.AlwaysAllow)
		}
		pdb.Status, _ = disruption.Evaluate(pdb, byApp[id.namespace+"/"+id.app], owners[id.namespace+"/"+id.owner], c.Now)
		c.PDBs = append(c.PDBs, pdb)
	}
}
