package main

// Workloads: a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job is
// explained through the pods its controller would create from its
// template, or, read from a cluster together with its pods, through the
// pods that already belong to it.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/workloads"
)

// subject is one thing explain reports on: a pod, or a workload.
type subject struct {
	at       where
	pod      *api.Pod
	workload api.Object
}

// isWorkload reports whether explain explains o through its pods.
func isWorkload(o api.Object) bool {
	switch o.(type) {
	case *api.Deployment, *api.ReplicaSet, *api.StatefulSet, *api.DaemonSet, *api.Job:
		return true
	}
	return false
}

// subjects are the pods and workloads of the explained files, in the order
// read.
func (w *world) subjects(in *input, explained map[string]bool) []subject {
	var out []subject
	for _, d := range in.objects {
		if !explained[d.at.file] {
			continue
		}
		if p, ok := d.obj.(*api.Pod); ok {
			out = append(out, subject{at: d.at, pod: p})
		} else if isWorkload(d.obj) {
			out = append(out, subject{at: d.at, workload: d.obj})
		}
	}
	return out
}

// selectPod keeps the one pod named "NAMESPACE/NAME" (or "NAME" in
// default), or says it is missing and names close matches.
func selectPod(subjects []subject, want string) ([]subject, error) {
	ns, name, ok := strings.Cut(want, "/")
	if !ok {
		ns, name = "default", want
	}
	var all []string
	for _, s := range subjects {
		if s.pod == nil {
			continue
		}
		if s.pod.Namespace == ns && s.pod.Name == name {
			return []subject{s}, nil
		}
		all = append(all, s.pod.Namespace+"/"+s.pod.Name)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no pod %s/%s: no pod was read from the files to explain", ns, name)
	}
	close := closeMatches(ns+"/"+name, name, all)
	if len(close) == 0 {
		return nil, fmt.Errorf("no pod %s/%s among the %d pods read", ns, name, len(all))
	}
	return nil, fmt.Errorf("no pod %s/%s among the %d pods read; close matches: %s", ns, name, len(all), strings.Join(close, ", "))
}

// closeMatches are the pods whose NAMESPACE/NAME is within a few edits of
// want, or whose name contains (or is contained in) name, closest first, at
// most five.
func closeMatches(want, name string, all []string) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	limit := max(2, len(want)/4)
	for _, s := range all {
		_, n, _ := strings.Cut(s, "/")
		d := editDistance(want, s)
		if d <= limit || strings.Contains(n, name) || strings.Contains(name, n) {
			cs = append(cs, cand{s, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < 5; i++ {
		out = append(out, cs[i].s)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// workloadReport is everything explain says about one workload.
type workloadReport struct {
	at    where
	kind  string
	meta  *api.ObjectMeta
	owner string // "Deployment shop/web" when another workload controls it

	// existing are the pods read that belong to the workload, by their
	// ownerReferences (through its ReplicaSets for a Deployment): read
	// from a cluster, its pods are explained as they are, none invented.
	existing []ownedPod

	// When no pod of it was read: the pods its controller would create.
	count  int      // how many
	names  string   // their names, or generateName
	how    []string // how the controller creates them
	nodes  []daemonNode
	err    error   // the pods could not be built
	pod    *report // the first of them, explained
	podFor string  // which of them pod is

	budgets []budgetForecast
	// sequence is the node each of the pods would be scheduled to, taken
	// one after another; stuck is why the next one fits nowhere.
	sequence []string
	stuck    string
	seqErr   error
	// claims are the PersistentVolumeClaims a StatefulSet's controller
	// creates with its pods; the scheduler meets them.
	claims []*api.PersistentVolumeClaim

	// balance compares the pods read with what the controller wants,
	// for a workload read with its pods.
	balance []string
}

// ownedPod is a pod read that belongs to a workload.
type ownedPod struct {
	pod *api.Pod
	via string // the ReplicaSet between a Deployment and its pod, or ""
}

// daemonNode is the DaemonSet controller's verdict for one node.
type daemonNode struct {
	node string
	run  bool
	why  string
}

// budgetForecast is a PodDisruptionBudget selecting the workload's pods
// and the status the disruption controller would give it once they all
// run and are Ready.
type budgetForecast struct {
	pdb    *api.PodDisruptionBudget
	status api.PodDisruptionBudgetStatus
	result disruption.Result
}

// explainWorkload builds the report of one workload.
func (w *world) explainWorkload(at where, o api.Object) *workloadReport {
	m := objectMeta(o)
	r := &workloadReport{at: at, kind: kindOf(o), meta: m}
	if ref := m.ControllerRef(); ref != nil {
		r.owner = ref.Kind + " " + m.Namespace + "/" + ref.Name
	}
	r.existing = w.ownedPods(r.kind, m)
	if len(r.existing) > 0 {
		r.balance, r.err = w.balance(r, o)
		return r
	}
	var pods []*api.Pod
	pods, r.err = w.wouldCreate(r, o)
	if r.err != nil {
		return r
	}
	r.count = len(pods)
	if len(pods) == 0 {
		return r
	}
	first := deepCopy(pods[0])
	first.Namespace = m.Namespace
	r.podFor = "the first of them"
	if len(pods) == 1 {
		r.podFor = "the pod"
	}
	if first.Name == "" {
		// The API server generates the name: generateName and five random
		// characters.
		first.Name = first.GenerateName + "xxxxx"
		r.podFor += fmt.Sprintf(", named %s here (the API server appends five random characters to generateName %s),", first.Name, first.GenerateName)
	}
	pat := at
	pat.kind, pat.namespace, pat.name = "Pod", first.Namespace, first.Name
	pw := w
	if len(r.claims) > 0 {
		cp := *w
		cp.storage = append(append([]api.Object(nil), w.storage...), claimObjects(r.claims)...)
		cp.sched, cp.schedErr = nil, nil // a cluster of its own, with the claims
		pw = &cp
	}
	r.pod = pw.explain(pat, first)
	if _, daemon := o.(*api.DaemonSet); !daemon && len(pods) > 1 && len(w.nodes) > 0 {
		r.sequence, r.stuck, r.seqErr = pw.placeSequence(pw.storedPods(pods, m.Namespace))
	}
	r.pod.origin = fmt.Sprintf("a pod %s %s/%s would create", r.kind, m.Namespace, m.Name)
	r.budgets = w.forecastBudgets(o, pods)
	return r
}

// balance compares the workload's active pods read with what its
// controller wants: spec.replicas, or for a DaemonSet one pod on each node
// that should run one.
func (w *world) balance(r *workloadReport, o api.Object) ([]string, error) {
	active := 0
	for _, op := range r.existing {
		p := op.pod
		if p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			active++
		}
	}
	want := -1
	switch x := o.(type) {
	case *api.ReplicaSet:
		want = int(ptrOr(x.Spec.Replicas, 1))
	case *api.Deployment:
		want = int(ptrOr(x.Spec.Replicas, 1))
	case *api.StatefulSet:
		want = int(ptrOr(x.Spec.Replicas, 1))
	case *api.DaemonSet:
		return w.daemonBalance(r, x)
	}
	if want < 0 {
		return nil, nil
	}
	switch {
	case active < want:
		return []string{fmt.Sprintf("spec.replicas is %d and %d active pod(s) were read: its controller would create %d more", want, active, want-active)}, nil
	case active > want:
		return []string{fmt.Sprintf("spec.replicas is %d and %d active pod(s) were read: its controller would delete %d", want, active, active-want)}, nil
	}
	return []string{fmt.Sprintf("spec.replicas is %d: as many active pods were read", want)}, nil
}

// daemonBalance is each node's DaemonSet verdict and the daemon pod read
// there, if any.
func (w *world) daemonBalance(r *workloadReport, ds *api.DaemonSet) ([]string, error) {
	on := map[string]string{}
	for _, op := range r.existing {
		if n := op.pod.Spec.NodeName; n != "" {
			on[n] = op.pod.Name
		}
	}
	var out []string
	if len(w.nodes) > 0 {
		out = append(out, "nodes (the DaemonSet controller's NodeShouldRunDaemonPod) and the pods read on them:")
	}
	for _, n := range w.nodes {
		pl, err := workloads.NodeShouldRunDaemonPod(n, ds)
		if err != nil {
			return nil, err
		}
		pod, has := on[n.Name]
		switch {
		case pl.ShouldRun && has:
			out = append(out, fmt.Sprintf("  %-10s runs %s", n.Name, pod))
		case pl.ShouldRun:
			out = append(out, fmt.Sprintf("  %-10s should run one and has none: the controller would create it", n.Name))
		case has && pl.ShouldContinueRunning:
			out = append(out, fmt.Sprintf("  %-10s runs %s, which may stay: %s", n.Name, pod, placementWhy(pl)))
		case has:
			out = append(out, fmt.Sprintf("  %-10s runs %s, which the controller would delete: %s", n.Name, pod, placementWhy(pl)))
		default:
			out = append(out, fmt.Sprintf("  %-10s none: %s", n.Name, placementWhy(pl)))
		}
	}
	return out, nil
}

// placementWhy says why a DaemonSet's pod should not run on a node.
func placementWhy(pl workloads.DaemonPlacement) string {
	switch pl.Reason {
	case workloads.DaemonPlacementNodeName:
		return "the template's spec.nodeName names another node"
	case workloads.DaemonPlacementNodeAffinity:
		return "its labels fail the template's nodeSelector or required node affinity"
	case workloads.DaemonPlacementTaint:
		why := "an untolerated taint"
		if pl.Taint != nil {
			why += fmt.Sprintf(" %s=%s:%s", pl.Taint.Key, pl.Taint.Value, pl.Taint.Effect)
		}
		return why
	}
	return string(pl.Reason)
}

func ptrOr(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}

// owns reports whether ref names the workload (kind, meta): same kind and
// name, and the same uid when both have one.
func owns(ref *api.OwnerReference, kind string, m *api.ObjectMeta) bool {
	return ref != nil && ref.Kind == kind && ref.Name == m.Name && (ref.UID == "" || m.UID == "" || ref.UID == m.UID)
}

// ownedPods are the pods read whose controller is the workload, or, for a
// Deployment, one of the ReplicaSets it controls.
func (w *world) ownedPods(kind string, m *api.ObjectMeta) []ownedPod {
	owners := map[string]string{} // "kind/name" -> via
	owners[kind+"/"+m.Name] = ""
	if kind == "Deployment" {
		for _, rs := range w.controls.ReplicaSets {
			if rs.Namespace == m.Namespace && owns(rs.ControllerRef(), kind, m) {
				owners["ReplicaSet/"+rs.Name] = "ReplicaSet " + rs.Name
			}
		}
	}
	var out []ownedPod
	for _, p := range w.pods {
		ref := p.ControllerRef()
		if p.Namespace != m.Namespace || ref == nil {
			continue
		}
		via, ok := owners[ref.Kind+"/"+ref.Name]
		if !ok {
			continue
		}
		if via == "" && !owns(ref, kind, m) {
			continue
		}
		out = append(out, ownedPod{pod: p, via: via})
	}
	return out
}

// wouldCreate returns the pods the workload's controller creates from its
// template for a workload without pods, and says how.
func (w *world) wouldCreate(r *workloadReport, o api.Object) ([]*api.Pod, error) {
	readUID := objectMeta(o).UID != ""
	o = withUID(o)
	switch x := o.(type) {
	case *api.ReplicaSet:
		n, err := replicas(x.Spec.Replicas)
		if err != nil {
			return nil, err
		}
		pods, err := replicaSetPods(x, n)
		r.names = "generateName " + x.Name + "-"
		if n == 0 {
			r.how = append(r.how, "spec.replicas is 0: the ReplicaSet controller keeps no pod (a Deployment scales its old ReplicaSets down to 0)")
		} else {
			r.how = append(r.how, fmt.Sprintf("the ReplicaSet controller creates spec.replicas = %d pod(s) from the template, up to %d per sync", n, workloads.BurstReplicas))
		}
		return pods, err
	case *api.Deployment:
		if _, err := replicas(x.Spec.Replicas); err != nil {
			return nil, err
		}
		rs, pods, err := deploymentPods(x, w.controls.ReplicaSets, w.now)
		if err != nil {
			return nil, err
		}
		r.names = "generateName " + rs.Name + "-"
		r.how = append(r.how, fmt.Sprintf("one sync of the Deployment controller creates the ReplicaSet %s (the template with its pod-template-hash label, spec.replicas %d), whose controller creates the pods", rs.Name, ptrOr(rs.Spec.Replicas, 0)))
		return pods, nil
	case *api.StatefulSet:
		n, err := replicas(x.Spec.Replicas)
		if err != nil {
			return nil, err
		}
		pods, claims, err := statefulSetPods(x, n)
		if err != nil {
			return nil, err
		}
		r.claims = claims
		names := make([]string, len(pods))
		for i, p := range pods {
			names[i] = p.Name
		}
		r.names = listNames(names)
		if x.Spec.PodManagementPolicy == "Parallel" {
			r.how = append(r.how, fmt.Sprintf("the StatefulSet controller creates %d pod(s) at once (podManagementPolicy Parallel)", n))
		} else {
			r.how = append(r.how, fmt.Sprintf("the StatefulSet controller creates %d pod(s) one at a time in ordinal order, each once the one before is Running and Ready (podManagementPolicy OrderedReady)", n))
		}
		if x.Spec.ServiceName != "" {
			r.how = append(r.how, fmt.Sprintf("each pod's hostname is its name, subdomain %s (the headless Service)", x.Spec.ServiceName))
		}
		if len(claims) > 0 {
			names := make([]string, len(claims))
			for i, c := range claims {
				names[i] = c.Name
			}
			r.how = append(r.how, "before each pod the controller creates its PersistentVolumeClaims from spec.volumeClaimTemplates: "+listNames(names))
		}
		return pods, nil
	case *api.Job:
		x, err := jobAsCreated(x, readUID)
		if err != nil {
			return nil, err
		}
		if !readUID {
			r.how = append(r.how, "the API server labels the template with the Job's name and uid (job-name, controller-uid and their batch.kubernetes.io/ forms) and selects on the uid, as its Job strategy does on create")
		}
		n, why, err := jobFirstWave(x)
		if err != nil {
			return nil, err
		}
		r.how = append(r.how, why)
		pods, err := jobPods(x, n)
		if err != nil {
			return nil, err
		}
		var names []string
		for i, p := range pods {
			if i > 0 && p == pods[i-1] {
				continue
			}
			names = append(names, p.GenerateName)
		}
		r.names = "generateName " + listNames(names)
		return pods, nil
	case *api.DaemonSet:
		return w.daemonPods(r, x)
	}
	return nil, fmt.Errorf("%s is no workload explain reads", kindOf(o))
}

// withUID returns the workload itself when it has a uid, else a shallow
// copy carrying the stand-in uid of a workload read from a manifest (the
// API server assigns the real one on create; its pods' owner reference
// needs one).
func withUID(o api.Object) api.Object {
	m := objectMeta(o)
	if m.UID != "" {
		return o
	}
	uid := manifestUID(kindOf(o), m.Name)
	switch x := o.(type) {
	case *api.ReplicaSet:
		return copyWithUID(x, uid)
	case *api.Deployment:
		return copyWithUID(x, uid)
	case *api.StatefulSet:
		return copyWithUID(x, uid)
	case *api.DaemonSet:
		return copyWithUID(x, uid)
	case *api.Job:
		return copyWithUID(x, uid)
	}
	return o
}

// copyWithUID is a shallow copy of a workload with its uid set.
func copyWithUID[T any](x *T, uid string) *T {
	cp := *x
	objectMeta(&cp).UID = uid
	return &cp
}

// storedPods are a workload's new pods as the API server would store them
// (defaults, priority), in namespace, each with a distinct name: the
// generated ones stand as generateName plus a counter.
func (w *world) storedPods(pods []*api.Pod, namespace string) []*api.Pod {
	n := min(len(pods), maxSequence)
	out := make([]*api.Pod, n)
	for i := range out {
		p := deepCopy(pods[i])
		p.Namespace = namespace
		if p.Name == "" {
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, i)
		}
		out[i] = w.store(&report{}, p)
	}
	return out
}

// claimObjects turns claims into the objects the scheduler reads.
func claimObjects(claims []*api.PersistentVolumeClaim) []api.Object {
	out := make([]api.Object, len(claims))
	for i, c := range claims {
		out[i] = c
	}
	return out
}

// replicas is spec.replicas, 1 when unset as the API server defaults it.
func replicas(r *int32) (int, error) {
	if r == nil {
		return 1, nil
	}
	if *r < 0 {
		return 0, fmt.Errorf("spec.replicas: %d: must be greater than or equal to 0", *r)
	}
	return int(*r), nil
}

// jobFirstWave is how many pods the Job controller's first sync creates:
// parallelism (default 1), at most completions; none while suspended.
func jobFirstWave(j *api.Job) (int, string, error) {
	if j.Spec.Suspend != nil && *j.Spec.Suspend {
		return 0, "spec.suspend is true: the Job controller creates no pod until it is resumed", nil
	}
	par := int32(1)
	if j.Spec.Parallelism != nil {
		par = *j.Spec.Parallelism
	}
	if par < 0 {
		return 0, "", fmt.Errorf("spec.parallelism: %d: must be greater than or equal to 0", par)
	}
	n := par
	why := fmt.Sprintf("the Job controller's first sync creates spec.parallelism = %d pod(s)", par)
	if j.Spec.Completions != nil {
		if *j.Spec.Completions < 0 {
			return 0, "", fmt.Errorf("spec.completions: %d: must be greater than or equal to 0", *j.Spec.Completions)
		}
		if *j.Spec.Completions < n {
			n = *j.Spec.Completions
			why = fmt.Sprintf("the Job controller's first sync creates spec.completions = %d pod(s) (parallelism %d is more)", n, par)
		} else {
			why += fmt.Sprintf(", then more as they succeed until %d have", *j.Spec.Completions)
		}
	}
	return int(n), why, nil
}

// daemonPods are a DaemonSet's pods: one for each node read whose labels,
// and taints, the DaemonSet controller accepts.
func (w *world) daemonPods(r *workloadReport, ds *api.DaemonSet) ([]*api.Pod, error) {
	hash, err := workloads.DaemonSetRevisionHash(ds)
	if err != nil {
		return nil, err
	}
	r.how = append(r.how, "the DaemonSet controller creates one pod per node that passes the template's nodeSelector, node affinity and taints (with the tolerations it adds), each pinned to its node by node affinity")
	var pods []*api.Pod
	var names []string
	for _, n := range w.nodes {
		pl, err := workloads.NodeShouldRunDaemonPod(n, ds)
		if err != nil {
			return nil, err
		}
		dn := daemonNode{node: n.Name, run: pl.ShouldRun, why: placementWhy(pl)}
		r.nodes = append(r.nodes, dn)
		if !pl.ShouldRun {
			continue
		}
		p, err := daemonPod(ds, n.Name, hash)
		if err != nil {
			return nil, err
		}
		pods = append(pods, p)
		names = append(names, n.Name)
	}
	if len(w.nodes) == 0 {
		r.how = append(r.how, "no node was read: the pod explained is the one it would create for a node named \"node\"")
		p, err := daemonPod(ds, "node", hash)
		if err != nil {
			return nil, err
		}
		return []*api.Pod{p}, nil
	}
	r.names = "generateName " + ds.Name + "-, one on each of " + listNames(names)
	return pods, nil
}

// listNames lists names, the middle of a long list cut.
func listNames(names []string) string {
	if len(names) > 6 {
		return fmt.Sprintf("%s, ... (%d more), %s", strings.Join(names[:3], ", "), len(names)-4, names[len(names)-1])
	}
	return strings.Join(names, ", ")
}

// forecastBudgets are the budgets of the workload's namespace that select
// its pods, each with the status the disruption controller would compute
// once every pod runs and is Ready.
func (w *world) forecastBudgets(o api.Object, pods []*api.Pod) []budgetForecast {
	if len(pods) == 0 {
		return nil
	}
	m := objectMeta(o)
	ready := make([]*api.Pod, len(pods))
	for i, p := range pods {
		cp := deepCopy(p)
		cp.Namespace = m.Namespace
		if cp.Name == "" {
			cp.Name = fmt.Sprintf("%s%d", cp.GenerateName, i)
		}
		cp.Status.Phase = api.PodRunning
		cp.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		ready[i] = cp
	}
	// The workload itself, with the uid its pods' owner reference carries,
	// for budgets that read its scale.
	controls := w.controls
	switch x := o.(type) {
	case *api.ReplicaSet:
		cp := *x
		cp.UID = ready[0].ControllerRef().UID
		controls.ReplicaSets = append(append([]*api.ReplicaSet(nil), controls.ReplicaSets...), &cp)
	case *api.StatefulSet:
		cp := *x
		cp.UID = ready[0].ControllerRef().UID
		controls.StatefulSets = append(append([]*api.StatefulSet(nil), controls.StatefulSets...), &cp)
	case *api.Deployment:
		ref := ready[0].ControllerRef()
		cp := *x
		cp.UID = controllerRef(&x.ObjectMeta, "apps/v1", "Deployment").UID
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: ref.Name, Namespace: m.Namespace, UID: ref.UID,
			OwnerReferences: []api.OwnerReference{controllerRef(&cp.ObjectMeta, "apps/v1", "Deployment")}}}
		rs.Spec.Replicas = x.Spec.Replicas
		controls.Deployments = append(append([]*api.Deployment(nil), controls.Deployments...), &cp)
		controls.ReplicaSets = append(append([]*api.ReplicaSet(nil), controls.ReplicaSets...), rs)
	}
	var out []budgetForecast
	for _, b := range w.pdbs {
		if b.Namespace != m.Namespace || b.Spec.Selector == nil {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(b.Spec.Selector)
		if err != nil || !sel.Matches(api.Set(ready[0].Labels)) {
			continue
		}
		st, res := disruption.Evaluate(b, ready, controls, w.now)
		out = append(out, budgetForecast{pdb: b, status: st, result: res})
	}
	return out
}

// writeWorkloadText prints a workload's report, then its first pod's.
func writeWorkloadText(b *strings.Builder, r *workloadReport) {
	fmt.Fprintf(b, "== %s %s/%s (%s, %s)\n\n", r.kind, r.meta.Namespace, r.meta.Name, r.at.file, docText(r.at))
	for _, l := range r.lines() {
		fmt.Fprintf(b, "  %s\n", l)
	}
	b.WriteString("\n")
	if r.pod != nil {
		writeText(b, r.pod, r.pod.now)
	}
}

// writeWorkloadMermaid prints a workload's report as Markdown, then its
// first pod's.
func writeWorkloadMermaid(b *strings.Builder, r *workloadReport) {
	fmt.Fprintf(b, "## %s %s/%s\n\n", r.kind, r.meta.Namespace, r.meta.Name)
	fmt.Fprintf(b, "From %s, %s.\n\n", r.at.file, docText(r.at))
	for _, l := range r.lines() {
		indent := ""
		if strings.HasPrefix(l, "  ") {
			indent = "  "
		}
		fmt.Fprintf(b, "%s- %s\n", indent, mdEscape(strings.Join(strings.Fields(l), " ")))
	}
	b.WriteString("\n")
	if r.pod != nil {
		writeMermaid(b, r.pod)
	}
}

// lines are the workload's own part of the report, one statement a line
// (indented lines belong to the line before).
func (r *workloadReport) lines() []string {
	var out []string
	if r.owner != "" {
		out = append(out, "controlled by "+r.owner+" (its controller reference)")
	}
	if len(r.existing) > 0 {
		out = append(out, fmt.Sprintf("%d pod(s) read belong to it (by their ownerReferences), so none is invented; each is explained as read:", len(r.existing)))
		for _, o := range r.existing {
			l := fmt.Sprintf("  %s/%s  %s", o.pod.Namespace, o.pod.Name, phaseOrPending(o.pod))
			if o.pod.Spec.NodeName != "" {
				l += " on " + o.pod.Spec.NodeName
			} else {
				l += ", bound to no node"
			}
			if o.via != "" {
				l += " (through " + o.via + ")"
			}
			out = append(out, l)
		}
		if r.err != nil {
			out = append(out, fmt.Sprintf("what its controller wants cannot be told: %v", r.err))
		}
		return append(out, r.balance...)
	}
	if r.err != nil {
		return append(out, fmt.Sprintf("its pods cannot be built: %v", r.err))
	}
	switch {
	case r.count == 0:
		out = append(out, "no pod of it was read, and it would create none now")
	case r.names != "":
		out = append(out, fmt.Sprintf("%sit would create %d pod(s): %s", r.noneRead(), r.count, r.names))
	default:
		out = append(out, fmt.Sprintf("%sit would create %d pod(s)", r.noneRead(), r.count))
	}
	out = append(out, r.how...)
	if len(r.nodes) > 0 {
		out = append(out, "nodes (the DaemonSet controller's NodeShouldRunDaemonPod):")
		for _, n := range r.nodes {
			if n.run {
				out = append(out, fmt.Sprintf("  %-10s gets a pod", n.node))
			} else {
				out = append(out, fmt.Sprintf("  %-10s none: %s", n.node, n.why))
			}
		}
	}
	for _, f := range r.budgets {
		st := f.status
		l := fmt.Sprintf("PodDisruptionBudget %s/%s selects them: %s; once all %d run and are Ready, the disruption controller computes expected %d, healthy %d, desired %d, disruptions allowed %d",
			f.pdb.Namespace, f.pdb.Name, budgetSpecText(f.pdb), r.count, st.ExpectedPods, st.CurrentHealthy, st.DesiredHealthy, st.DisruptionsAllowed)
		if f.result.SyncFailed && f.result.Err != nil {
			l += fmt.Sprintf(" (its sync fails: %v)", f.result.Err)
		}
		out = append(out, l)
	}
	if r.count > 0 && len(r.budgets) == 0 {
		out = append(out, "no PodDisruptionBudget read selects its pods: the Eviction API lets each be evicted")
	}
	switch {
	case r.seqErr != nil:
		out = append(out, fmt.Sprintf("where they would all go cannot be told: %v", r.seqErr))
	case len(r.sequence) > 0 || r.stuck != "":
		placed := len(r.sequence)
		l := fmt.Sprintf("kube-scheduler, taking them one after another (each seeing those before), binds them to %s", listNames(r.sequence))
		if placed == 0 {
			l = "kube-scheduler finds no node for the first of them"
		}
		switch {
		case r.stuck != "":
			l += fmt.Sprintf("; pod %d fits nowhere: %s", placed+1, r.stuck)
		case placed < r.count:
			l += fmt.Sprintf(" (the first %d of %d)", placed, r.count)
		}
		out = append(out, l)
	}
	if r.pod != nil {
		out = append(out, r.podFor+" is explained next")
	}
	return out
}

// noneRead says, for a workload read from a cluster, that none of its
// pods was read: the pods shown are the ones its controller would create.
func (r *workloadReport) noneRead() string {
	if r.meta.UID == "" && r.meta.ResourceVersion == "" {
		return ""
	}
	return "no pod of it was read (it comes from a cluster, its pods were not dumped with it): "
}

// phaseOrPending is a pod's phase as read, "Pending" (not yet written by a
// kubelet) when it has none.
func phaseOrPending(p *api.Pod) string {
	if p.Status.Phase == "" {
		return "no phase read"
	}
	return string(p.Status.Phase)
}
