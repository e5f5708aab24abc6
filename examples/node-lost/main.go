// Command node-lost answers "my node died at 10:00: what happens to each of
// my pods, and when?" for a three-node cluster running a StatefulSet (db),
// a Deployment's ReplicaSet (web) and a DaemonSet pod (node-exporter).
//
// node-2's kubelet stops heartbeating at t=0. The program replays, second
// by second, what Kubernetes v1.36.3's controllers do about it, using only
// podsem's public API:
//
//   - the node lifecycle controller (nodelifecycle.Monitor) looks every
//     5 s, marks the node Unknown once the 50 s grace period is over, taints
//     it node.kubernetes.io/unreachable:NoSchedule and marks its pods not
//     ready; the NoExecute taint comes at the same look, whose NoExecute
//     pass reads the Ready=Unknown it has just written;
//   - the pods carry the tolerations the DefaultTolerationSeconds admission
//     plugin gave them at creation (admission.DefaultTolerations);
//   - the taint eviction controller (nodelifecycle.TaintEviction) deletes each
//     pod when its toleration runs out — web's 60 s, db's default 300 s —
//     and never the DaemonSet pod, which tolerates everything;
//   - the ReplicaSet (workloads.SyncReplicaSet) replaces its deleted pod at
//     once, while the StatefulSet (workloads.SyncStatefulSet) cannot: the
//     object db-1 still exists, Terminating, because the kubelet that would
//     confirm the kill is gone;
//   - pod GC (termination.Collector) finally removes it, in one of two
//     endings at t=600 s: the cloud provider deletes the Node object, or an
//     operator taints the node node.kubernetes.io/out-of-service.
//
// Run it with
//
//	go run ./examples/node-lost
package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/nodelifecycle"
	"github.com/podsem/podsem/termination"
	"github.com/podsem/podsem/workloads"
)

// webLabels are web's pod labels, which its ReplicaSet selects.
var webLabels = map[string]string{"app": "web"}

// webTolerations are the tolerations of web's pod template: unreachable
// for 60 s (the admission plugin adds the default not-ready one).
var webTolerations = []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &[]int64{60}[0]}}

// t0 is the moment node-2's kubelet posts its last heartbeat.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

const (
	// deadline is when the scenario ends.
	deadline = 700
	// ending is the second at which the two endings part.
	ending = 600
)

type event struct {
	at   int // seconds after t0
	text string
}

// world is the cluster as the API server holds it, plus the controllers.
type world struct {
	nodes    map[string]*api.Node
	pods     []*api.Pod
	lease    map[string]time.Time
	monitor  *nodelifecycle.Monitor
	evictor  *nodelifecycle.TaintEviction
	gc       *termination.Collector
	sts      *api.StatefulSet
	rs       *api.ReplicaSet
	created  int
	lastWait string
	events   []event
	now      int
}

func (w *world) logf(format string, args ...any) {
	w.events = append(w.events, event{w.now, fmt.Sprintf(format, args...)})
}

func main() {
	a := run("cloud")
	b := run("out-of-service")
	shared := 0
	for shared < len(a) && shared < len(b) && a[shared] == b[shared] {
		shared++
	}
	fmt.Println("The pods on node-2 and the NoExecute tolerations they were admitted with:")
	w := newWorld()
	for _, p := range w.pods {
		if p.Spec.NodeName != "node-2" {
			continue
		}
		var tols []string
		for _, t := range p.Spec.Tolerations {
			tols = append(tols, describeToleration(t))
		}
		d := nodelifecycle.EvaluateNoExecute([]api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}, p.Spec.Tolerations)
		verdict := "never evicted for it"
		if d.Outcome == nodelifecycle.NoExecuteDeadline {
			verdict = fmt.Sprintf("evicted %s after the taint is noticed", d.After)
		}
		fmt.Printf("  %-20s %s\n  %-20s → on an unreachable node: %s\n", p.Name, strings.Join(tols, "; "), "", verdict)
	}
	fmt.Println()
	fmt.Println("node-2's kubelet stops heartbeating at t=0 (10:00:00).")
	fmt.Println()
	print(a[:shared])
	fmt.Printf("\nEnding 1: at t=%ds the cloud provider deletes the Node object node-2.\n", ending)
	print(a[shared:])
	fmt.Printf("\nEnding 2: at t=%ds an operator taints node-2 node.kubernetes.io/out-of-service:NoExecute.\n", ending)
	print(b[shared:])
}

func describeToleration(t api.Toleration) string {
	key := t.Key
	if key == "" {
		key = "*"
	}
	effect := string(t.Effect)
	if effect == "" {
		effect = "*"
	}
	secs := "forever"
	if t.TolerationSeconds != nil {
		secs = fmt.Sprintf("%ds", *t.TolerationSeconds)
	}
	return fmt.Sprintf("%s:%s %s", strings.TrimPrefix(key, "node.kubernetes.io/"), effect, secs)
}

func print(evs []event) {
	for _, e := range evs {
		fmt.Printf("t=%4ds  %s\n", e.at, e.text)
	}
}

func run(endingKind string) []event {
	w := newWorld()
	for s := -60; s <= deadline; s++ {
		w.now = s
		now := t0.Add(time.Duration(s) * time.Second)
		// Kubelets renew their node Lease every 10 s; node-2's stops at 0.
		if s%10 == 0 {
			for name := range w.nodes {
				if name != "node-2" || s <= 0 {
					w.lease[name] = now
				}
			}
		}
		if s == ending {
			w.endScenario(endingKind, now)
		}
		if s%int(nodelifecycle.DefaultMonitorPeriod/time.Second) == 0 {
			w.monitorNodes(now)
		}
		w.handleEvictions(w.evict(nodelifecycle.Tick(), now), now)
		if s%int(termination.GCCheckPeriod/time.Second) == 0 {
			w.collectGarbage(now)
		}
		w.syncReplicaSet(now)
		w.syncStatefulSet(now)
	}
	w.now = deadline
	var where []string
	for _, p := range w.pods {
		state := ""
		if p.DeletionTimestamp != nil {
			state = ", Terminating"
		}
		where = append(where, fmt.Sprintf("%s@%s%s", p.Name, p.Spec.NodeName, state))
	}
	slices.Sort(where)
	w.logf("pods: %s", strings.Join(where, " "))
	return w.events
}

func newWorld() *world {
	w := &world{
		nodes:   map[string]*api.Node{},
		lease:   map[string]time.Time{},
		monitor: new(nodelifecycle.Monitor), // the zero value: v1.36.3's defaults
		evictor: nodelifecycle.NewTaintEviction(),
		gc:      termination.NewCollector(termination.GCConfig{}),
	}
	created := api.NewTime(t0.Add(-24 * time.Hour))
	for _, name := range []string{"node-1", "node-2", "node-3"} {
		w.nodes[name] = &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, CreationTimestamp: created},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{{
				Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: api.NewTime(t0.Add(-time.Minute)), LastTransitionTime: created,
			}}},
		}
	}
	replicas := int32(3)
	w.sts = &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec:       api.StatefulSetSpec{Replicas: &replicas},
		Status:     api.StatefulSetStatus{CurrentRevision: "db-5d8c7", UpdateRevision: "db-5d8c7"},
	}
	w.rs = &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web-7d9f8", Namespace: "default", UID: "uid-web-7d9f8"},
		Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: webLabels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: webLabels}}},
	}
	for i, node := range []string{"node-1", "node-2", "node-3"} {
		w.addPod(w.statefulPod(i, node, t0.Add(-time.Hour)))
		w.addPod(w.newPod(fmt.Sprintf("web-7d9f8-%c%c%c%c%c", 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i), node, "ReplicaSet", "web-7d9f8", webTolerations, t0.Add(-time.Hour)))
	}
	w.addPod(w.newPod("node-exporter-x7k2p", "node-2", "DaemonSet", "node-exporter", []api.Toleration{{Operator: api.TolerationOpExists}}, t0.Add(-time.Hour)))
	// The controllers start before the story and see everything once.
	for _, p := range w.pods {
		w.evict(nodelifecycle.PodUpdated(p), t0.Add(-time.Hour))
	}
	return w
}

// evict feeds the taint eviction controller one event.
func (w *world) evict(ev nodelifecycle.Event, now time.Time) []nodelifecycle.TaintEvictionAction {
	acts, err := w.evictor.Step(ev, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return acts
}

// newPod is a pod as the API server stores it after admission: the
// DefaultTolerationSeconds plugin has added what the pod did not cover.
func (w *world) newPod(name, node, ownerKind, owner string, tolerations []api.Toleration, started time.Time) *api.Pod {
	yes := true
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name: name, Namespace: "default", Generation: 1, CreationTimestamp: api.NewTime(started),
			UID:             "uid-" + name,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: ownerKind, Name: owner, UID: "uid-" + owner, Controller: &yes}},
		},
		Spec: api.PodSpec{NodeName: node, Tolerations: tolerations},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
			{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(started)},
		}},
	}
	if ownerKind == "ReplicaSet" {
		p.Labels = maps.Clone(webLabels)
	}
	api.DefaultPod(p) // terminationGracePeriodSeconds 30, as the API server stores it
	p.Spec.Tolerations = admission.DefaultTolerations(p, admission.TolerationSeconds{})
	return p
}

func (w *world) statefulPod(ordinal int, node string, started time.Time) *api.Pod {
	name := fmt.Sprintf("db-%d", ordinal)
	p := w.newPod(name, node, "StatefulSet", "db", nil, started)
	p.Labels = map[string]string{
		api.LabelStatefulSetPodName:     name,
		api.LabelControllerRevisionHash: w.sts.Status.UpdateRevision,
	}
	return p
}

func (w *world) addPod(p *api.Pod) { w.pods = append(w.pods, p) }

// replacePod swaps in a changed copy: the controllers keep the objects they
// were given, as informers do, so a change is always a new object.
func (w *world) replacePod(old, p *api.Pod) {
	i := slices.Index(w.pods, old)
	w.pods[i] = p
}

func (w *world) removePod(key string) {
	w.pods = slices.DeleteFunc(w.pods, func(p *api.Pod) bool { return p.Key() == key })
}

func (w *world) podByKey(key string) *api.Pod {
	for _, p := range w.pods {
		if p.Key() == key {
			return p
		}
	}
	return nil
}

func sortedNodeNames(nodes map[string]*api.Node) []string {
	var names []string
	for n := range nodes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// monitorNodes is one pass of the node lifecycle controller.
func (w *world) monitorNodes(now time.Time) {
	for _, name := range sortedNodeNames(w.nodes) {
		node := w.nodes[name]
		rep, err := w.monitor.Step(nodelifecycle.MonitorInput{Node: node, LeaseRenew: w.lease[name]}, now)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if rep.Status == nil && !rep.NoSchedule.Changed() && !rep.NoExecute.Changed() {
			continue
		}
		n := *node
		if rep.Status != nil {
			n.Status = *rep.Status
			w.logf("%s: Ready=%s (%s), no sign of life for more than %s since the controller's probe time t=%ds",
				name, rep.CurrentReady.Status, rep.CurrentReady.Reason, rep.GracePeriod, int(rep.ProbeTime.Sub(t0).Seconds()))
		}
		n.Spec.Taints = rep.Taints
		for _, t := range slices.Concat(rep.NoSchedule.Added, rep.NoExecute.Added) {
			w.logf("%s: tainted %s:%s", name, t.Key, t.Effect)
		}
		for _, t := range slices.Concat(rep.NoSchedule.Removed, rep.NoExecute.Removed) {
			w.logf("%s: taint %s:%s removed", name, t.Key, t.Effect)
		}
		w.nodes[name] = &n
		if rep.MarkPodsNotReady {
			w.markPodsNotReady(name, now)
		}
		w.handleEvictions(w.evict(nodelifecycle.NodeUpdated(&n), now), now)
	}
}

func (w *world) markPodsNotReady(node string, now time.Time) {
	var names []string
	for _, p := range slices.Clone(w.pods) {
		if p.Spec.NodeName != node {
			continue
		}
		c := nodelifecycle.MarkPodNotReady(p, now)
		if c == nil {
			continue
		}
		np := *p
		np.Status.Conditions = slices.Clone(p.Status.Conditions)
		*api.FindCondition(np.Status.Conditions, api.PodReady) = *c
		w.replacePod(p, &np)
		w.evict(nodelifecycle.PodUpdated(&np), now)
		names = append(names, p.Name)
	}
	if len(names) > 0 {
		w.logf("%s: pods marked Ready=False: %s", node, strings.Join(names, ", "))
	}
}

func (w *world) handleEvictions(acts []nodelifecycle.TaintEvictionAction, now time.Time) {
	for _, a := range acts {
		p := w.podByKey(a.Pod)
		if p == nil {
			continue
		}
		switch a.Kind {
		case nodelifecycle.ScheduleEviction:
			w.logf("taint eviction: %s scheduled for deletion at t=%ds (%s)", p.Name, int(a.At.Sub(t0).Seconds()), tolerationOf(p))
		case nodelifecycle.CancelEviction:
			w.logf("taint eviction: deletion of %s cancelled", p.Name)
		case nodelifecycle.EvictPod:
			np := *p
			what := "DisruptionTarget=True (DeletionByTaintManager) written, then DELETE"
			if a.DisruptionTarget != nil {
				np.Status.Conditions = append(slices.Clone(p.Status.Conditions), *a.DisruptionTarget)
			} else {
				what = "DisruptionTarget already there, DELETE again"
			}
			if p.DeletionTimestamp != nil {
				w.logf("taint eviction: %s: %s (already terminating: nothing changes)", p.Name, what)
				continue
			}
			d, err := termination.APIServerGrace(&np, nil, now)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			ts := api.NewTime(*d.DeletionTimestamp)
			np.DeletionTimestamp, np.DeletionGracePeriodSeconds = &ts, d.DeletionGracePeriodSeconds
			w.replacePod(p, &np)
			w.evict(nodelifecycle.PodUpdated(&np), now)
			w.logf("taint eviction: %s: %s; Terminating with %ds grace, but no kubelet on %s will ever confirm it",
				p.Name, what, *d.DeletionGracePeriodSeconds, p.Spec.NodeName)
		}
	}
}

func tolerationOf(p *api.Pod) string {
	for _, t := range p.Spec.Tolerations {
		if t.Key == api.TaintNodeUnreachable && t.TolerationSeconds != nil {
			return fmt.Sprintf("tolerates unreachable for %ds", *t.TolerationSeconds)
		}
	}
	return "does not tolerate the taint"
}

func (w *world) endScenario(kind string, now time.Time) {
	switch kind {
	case "cloud":
		delete(w.nodes, "node-2")
		w.evict(nodelifecycle.NodeDeleted("node-2"), now)
		w.logf("node-2: Node object deleted by the cloud provider")
	case "out-of-service":
		n := *w.nodes["node-2"]
		n.Spec.Taints = append(slices.Clone(n.Spec.Taints), api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(now)})
		w.nodes["node-2"] = &n
		w.logf("node-2: tainted %s:NoExecute by an operator", api.TaintNodeOutOfService)
		w.handleEvictions(w.evict(nodelifecycle.NodeUpdated(&n), now), now)
	}
}

func (w *world) collectGarbage(now time.Time) {
	var nodes []*api.Node
	for _, name := range sortedNodeNames(w.nodes) {
		nodes = append(nodes, w.nodes[name])
	}
	res := w.gc.Step(termination.GCInput{Pods: w.pods, Nodes: nodes, NodeExists: func(name string) bool { return w.nodes[name] != nil }}, now)
	for _, a := range res.Actions {
		w.removePod(a.Pod)
		ns, name, _ := strings.Cut(a.Pod, "/")
		w.handleEvictions(w.evict(nodelifecycle.PodDeleted(ns, name), now), now)
		w.logf("pod GC: %s force-deleted (%s: %s)", name, a.Reason, a.Explanation)
	}
	for _, q := range res.Quarantined {
		if now.Sub(t0) == ending*time.Second {
			w.logf("pod GC: pods name the missing node %s; quarantined for %s before a direct check", q, termination.DefaultOrphanQuarantine)
		}
	}
}

func (w *world) owned(kind, name string) []*api.Pod {
	var out []*api.Pod
	for _, p := range w.pods {
		if ref := p.ControllerRef(); ref != nil && ref.Kind == kind && ref.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// schedule picks a live node for a replacement: the first Ready one
// without NoSchedule taints (the scheduler's filters would agree here).
func (w *world) schedule() string {
	for _, name := range sortedNodeNames(w.nodes) {
		if !slices.ContainsFunc(w.nodes[name].Spec.Taints, func(t api.Taint) bool { return t.Effect == api.TaintEffectNoSchedule }) && name != "node-1" {
			return name
		}
	}
	return "node-1"
}

func (w *world) syncReplicaSet(now time.Time) {
	// The ReplicaSet controller sees every pod of the namespace and counts
	// the ones it controls (by ownerReference uid) that its selector matches.
	res, err := workloads.SyncReplicaSet(workloads.ReplicaSetInput{ReplicaSet: w.rs, Pods: w.pods}, workloads.ReplicaSetExpectations{}, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for range res.Created {
		w.created++
		node := w.schedule()
		p := w.newPod(fmt.Sprintf("web-7d9f8-r%d", w.created), node, "ReplicaSet", w.rs.Name, webTolerations, now)
		w.addPod(p)
		w.evict(nodelifecycle.PodUpdated(p), now)
		w.logf("ReplicaSet web-7d9f8: %d active of 3 (%d terminating counted as gone): created %s on %s at once", res.Status.Replicas, *res.Status.TerminatingReplicas, p.Name, node)
	}
}

func (w *world) syncStatefulSet(now time.Time) {
	res, err := workloads.SyncStatefulSet(w.sts, w.owned("StatefulSet", w.sts.Name), workloads.StatefulSetConfig{}, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	waitText := ""
	if res.Wait != nil {
		waitText = fmt.Sprintf("StatefulSet db waits: %s is %s", res.Wait.Pod, res.Wait.Reason)
		if res.Wait.Reason == "terminating" {
			waitText += " — no new db-1 while the object db-1 exists"
		}
	}
	if waitText != w.lastWait && waitText != "" && res.Wait.Reason != "created" {
		w.logf("%s", waitText)
	}
	w.lastWait = waitText
	for _, a := range res.Actions {
		if a.Kind != workloads.StatefulSetCreate {
			continue
		}
		node := w.schedule()
		w.addPod(w.statefulPod(a.Ordinal, node, now))
		w.evict(nodelifecycle.PodUpdated(w.pods[len(w.pods)-1]), now)
		w.logf("StatefulSet db: the object %s is gone: created %s on %s", a.Pod, a.Pod, node)
		w.lastWait = ""
	}
}
