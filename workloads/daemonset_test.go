package workloads_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
	"github.com/podsem/podsem/workloads"
)

var dsT0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func dsNodes(names ...string) []*api.Node {
	var out []*api.Node
	for _, n := range names {
		out = append(out, exampleNode(n, false))
	}
	return out
}

// dsPod is a running, ready daemon pod of ds bound to node.
func dsPod(t *testing.T, ds *api.DaemonSet, name, node string, age time.Duration) *api.Pod {
	t.Helper()
	p, err := workloads.NewDaemonPod(ds, node, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Name, p.Namespace, p.UID = name, ds.Namespace, "uid-"+name
	p.CreationTimestamp = api.NewTime(dsT0.Add(-age))
	p.Spec.NodeName = node
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(dsT0.Add(-age))}}
	return p
}

func dsSync(t *testing.T, in workloads.DaemonSetInput) workloads.DaemonSetSync {
	t.Helper()
	r, err := workloads.SyncDaemonSet(in, dsT0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func dsDeleted(r workloads.DaemonSetSync) []string {
	var out []string
	for _, d := range r.Delete {
		out = append(out, d.Pod.Name+":"+string(d.Reason))
	}
	return out
}

func dsCreated(r workloads.DaemonSetSync) []string {
	var out []string
	for _, c := range r.Create {
		out = append(out, c.Node)
	}
	return out
}

func TestDaemonPodTolerations(t *testing.T) {
	ds := fluentd()
	sec := int64(60)
	ds.Spec.Template.Spec.HostNetwork = true
	ds.Spec.Template.Spec.Tolerations = []api.Toleration{
		// Equal in key, operator, value and effect: replaced in place,
		// losing its tolerationSeconds.
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &sec},
		// An empty operator is not Exists: kept beside the added one.
		{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute},
	}
	pod, err := workloads.NewDaemonPod(ds, "n1", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tol := range pod.Spec.Tolerations {
		s := fmt.Sprintf("%s/%s/%s", strings.TrimPrefix(tol.Key, "node.kubernetes.io/"), tol.Operator, tol.Effect)
		if tol.TolerationSeconds != nil {
			s += fmt.Sprintf("/%ds", *tol.TolerationSeconds)
		}
		got = append(got, s)
	}
	want := []string{
		"unreachable/Exists/NoExecute", "not-ready//NoExecute", "not-ready/Exists/NoExecute",
		"disk-pressure/Exists/NoSchedule", "memory-pressure/Exists/NoSchedule", "pid-pressure/Exists/NoSchedule",
		"unschedulable/Exists/NoSchedule", "network-unavailable/Exists/NoSchedule",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tolerations (-want +got):\n%s", d)
	}
	if ds.Spec.Template.Spec.Tolerations[0].TolerationSeconds == nil || len(ds.Spec.Template.Spec.Tolerations) != 2 {
		t.Errorf("the template's tolerations were modified: %+v", ds.Spec.Template.Spec.Tolerations)
	}
}

func TestDaemonPodAffinityAndLabels(t *testing.T) {
	ds := fluentd()
	pref := []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpExists}}}}}
	podAff := &api.PodAffinity{}
	required := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: api.NodeSelectorOpIn, Values: []string{"ssd"}}}}}}
	ds.Spec.Template.Spec.Affinity = &api.Affinity{
		NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required, PreferredDuringSchedulingIgnoredDuringExecution: pref},
		PodAffinity:  podAff,
	}
	ds.Annotations[workloads.AnnotationDaemonSetTemplateGeneration] = "not-a-number"
	pod, err := workloads.NewDaemonPod(ds, "n1", "")
	if err != nil {
		t.Fatal(err)
	}
	a := pod.Spec.Affinity
	wantReq := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n1"}}}}}}
	if d := cmp.Diff(wantReq, a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution); d != "" {
		t.Errorf("required node affinity (-want +got):\n%s", d)
	}
	if d := cmp.Diff(pref, a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution); d != "" || a.PodAffinity == nil {
		t.Errorf("preferred terms or pod affinity lost: %s %v", d, a.PodAffinity)
	}
	if ds.Spec.Template.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != required || len(required.NodeSelectorTerms[0].MatchFields) != 0 {
		t.Errorf("the template's affinity was modified")
	}
	if _, ok := pod.Labels[workloads.LabelPodTemplateGeneration]; ok {
		t.Errorf("an unparsable generation annotation gave a label: %v", pod.Labels)
	}
	if pod.Namespace != "" || pod.Name != "" || pod.Spec.NodeName != "" {
		t.Errorf("the pod is sent without name, namespace or nodeName: %q %q %q", pod.Name, pod.Namespace, pod.Spec.NodeName)
	}

	// No template labels, no generation, no hash: upstream refuses.
	bare := fluentd()
	bare.Spec.Template.Labels = nil
	delete(bare.Annotations, workloads.AnnotationDaemonSetTemplateGeneration)
	if _, err := workloads.NewDaemonPod(bare, "n1", ""); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("a pod without labels: got %v, want an error", err)
	}
}

func TestDaemonPlacement(t *testing.T) {
	ds := fluentd()
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"os": "linux"}
	linux := func(name string, taints ...api.Taint) *api.Node {
		n := exampleNode(name, false, taints...)
		n.Labels = map[string]string{"os": "linux"}
		return n
	}
	for _, c := range []struct {
		node      *api.Node
		run, keep bool
		reason    workloads.DaemonPlacementReason
	}{
		{linux("plain"), true, true, workloads.DaemonPlacementFits},
		{exampleNode("no-label", false), false, false, workloads.DaemonPlacementNodeAffinity},
		{linux("prefer", api.Taint{Key: "x", Effect: api.TaintEffectPreferNoSchedule}), true, true, workloads.DaemonPlacementFits},
		{linux("pressure", api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}), true, true, workloads.DaemonPlacementFits},
		{linux("network", api.Taint{Key: api.TaintNodeNetworkUnavailable, Effect: api.TaintEffectNoSchedule}), false, true, workloads.DaemonPlacementTaint},
		{linux("unreachable-noschedule", api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}), false, true, workloads.DaemonPlacementTaint},
		{linux("both", api.Taint{Key: "a", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "b", Effect: api.TaintEffectNoExecute}), false, false, workloads.DaemonPlacementTaint},
	} {
		pl, err := workloads.NodeShouldRunDaemonPod(c.node, ds)
		if err != nil {
			t.Fatal(err)
		}
		if pl.ShouldRun != c.run || pl.ShouldContinueRunning != c.keep || pl.Reason != c.reason {
			t.Errorf("%s: got %+v, want run=%v keep=%v reason=%q", c.node.Name, pl, c.run, c.keep, c.reason)
		}
	}
	ds.Spec.Template.Spec.NodeName = "other"
	if pl, _ := workloads.NodeShouldRunDaemonPod(linux("plain"), ds); pl.ShouldRun || pl.ShouldContinueRunning || pl.Reason != workloads.DaemonPlacementNodeName {
		t.Errorf("template nodeName elsewhere: got %+v", pl)
	}
}

func TestSyncDaemonSetSkips(t *testing.T) {
	ds := fluentd()
	ds.Spec.Selector = &api.LabelSelector{}
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1")})
	if len(r.Create) != 0 || r.StatusUpdated || len(r.Events) != 1 || r.Events[0].Reason != workloads.DaemonReasonSelectingAll {
		t.Errorf("empty selector: got %+v", r)
	}
	ds = fluentd()
	ds.DeletionTimestamp = api.NewTimePtr(dsT0)
	if r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1")}); len(r.Create) != 0 || r.StatusUpdated {
		t.Errorf("deleting DaemonSet: got %+v", r)
	}
	ds = fluentd()
	ds.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}}}
	if r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1")}); r.Err == nil || r.StatusUpdated || len(r.Create) != 0 {
		t.Errorf("invalid selector: got %+v", r)
	}
	if r := dsSync(t, workloads.DaemonSetInput{DaemonSet: fluentd(), Nodes: []*api.Node{nil}, Pods: []*api.Pod{nil}}); r.Err != nil {
		t.Errorf("nil node and pod: %v; want them skipped", r.Err)
	}
}

func TestSyncDaemonSetPods(t *testing.T) {
	ds := fluentd()
	old := dsPod(t, ds, "old", "n1", 2*time.Hour)
	young := dsPod(t, ds, "young", "n1", time.Hour)
	failed := dsPod(t, ds, "failed", "n2", time.Hour)
	failed.Status.Phase = api.PodFailed
	done := dsPod(t, ds, "done", "n2", time.Hour)
	done.Status.Phase = api.PodSucceeded
	goneDone := dsPod(t, ds, "gone-done", "n2", time.Hour)
	goneDone.Status.Phase = api.PodSucceeded
	goneDone.DeletionTimestamp = api.NewTimePtr(dsT0)
	unbound := dsPod(t, ds, "unbound", "vanished", time.Hour)
	unbound.Spec.NodeName = ""
	bound := dsPod(t, ds, "bound", "vanished-too", time.Hour)
	orphan := dsPod(t, ds, "orphan", "n3", time.Hour)
	orphan.OwnerReferences = nil
	elsewhere := dsPod(t, ds, "elsewhere", "n3", time.Hour)
	elsewhere.Namespace = "default"
	stray := dsPod(t, ds, "stray", "n3", time.Hour)
	stray.Labels = map[string]string{"name": "other"}

	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1", "n2", "n3", "n4"),
		Pods: []*api.Pod{old, young, failed, done, goneDone, unbound, bound, orphan, elsewhere, stray}})
	if d := cmp.Diff([]string{"n4"}, dsCreated(r)); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}
	wantDel := []string{"young:Excess", "failed:Failed", "done:Succeeded", "unbound:NodeGone"}
	if d := cmp.Diff(wantDel, dsDeleted(r)); d != "" {
		t.Errorf("deleted (-want +got):\n%s", d)
	}
	if len(r.Adopt) != 1 || r.Adopt[0] != orphan || len(r.Release) != 1 || r.Release[0] != stray {
		t.Errorf("adopt %v, release %v; want orphan and stray", r.Adopt, r.Release)
	}
	st := r.Status
	if st.DesiredNumberScheduled != 4 || st.CurrentNumberScheduled != 3 || st.NumberReady != 3 || !r.StatusUpdated {
		t.Errorf("status %+v (written %v)", st, r.StatusUpdated)
	}

	// The same status again with observedGeneration reached: not written.
	ds.Status = st
	r = dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1", "n2", "n3", "n4"),
		Pods: []*api.Pod{old, young, failed, done, goneDone, unbound, bound, orphan, elsewhere, stray}})
	if r.StatusUpdated || !cmp.Equal(r.Status, st) {
		t.Errorf("unchanged status written: %+v", r.Status)
	}
}

func TestSyncDaemonSetBurst(t *testing.T) {
	var names []string
	for i := range workloads.DaemonSetBurstReplicas + 10 {
		names = append(names, fmt.Sprintf("n%03d", i))
	}
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: fluentd(), Nodes: dsNodes(names...)})
	if len(r.Create) != workloads.DaemonSetBurstReplicas || r.Create[0].Node != "n000" {
		t.Errorf("created %d pods, first on %s; want %d from n000", len(r.Create), r.Create[0].Node, workloads.DaemonSetBurstReplicas)
	}
}

func TestSyncDaemonSetSurge(t *testing.T) {
	ds := fluentd()
	one := api.FromInt32(1)
	zero := api.FromInt32(0)
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
		RollingUpdate: &api.RollingUpdateDaemonSet{MaxSurge: &one, MaxUnavailable: &zero}}
	a := dsPod(t, ds, "a", "n1", time.Hour)
	b := dsPod(t, ds, "b", "n2", time.Hour)
	for _, p := range []*api.Pod{a, b} {
		p.Labels[workloads.LabelPodTemplateGeneration] = "0"
	}
	in := workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1", "n2"), Pods: []*api.Pod{a, b}}
	h2, err := workloads.DaemonSetRevisionHash(ds)
	if err != nil {
		t.Fatal(err)
	}
	// Both pods are old and available: one new pod beside an old one.
	r := dsSync(t, in)
	if d := cmp.Diff([]string{"n1"}, dsCreated(r)); d != "" || len(r.Delete) != 0 {
		t.Errorf("surge: created (-want +got):\n%s deleted %v", d, dsDeleted(r))
	}
	// The new pod on n1 is available: the old one goes.
	n := dsPod(t, ds, "a2", "n1", time.Minute)
	n.Labels[api.LabelControllerRevisionHash] = h2
	in.Pods = []*api.Pod{a, b, n}
	r = dsSync(t, in)
	if d := cmp.Diff([]string{"a:Excess"}, dsDeleted(r)); d != "" {
		t.Errorf("deleted (-want +got):\n%s", d)
	}
}

func TestDaemonSetControllerExpectations(t *testing.T) {
	ds := fluentd()
	nodes := dsNodes("n1", "n2")
	var c workloads.DaemonSetController
	step := func(at time.Duration, pods ...*api.Pod) workloads.DaemonSetSync {
		t.Helper()
		r, err := c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, Pods: pods}, dsT0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := step(0); len(r.Create) != 2 {
		t.Fatalf("first sync: %v", dsCreated(r))
	}
	// One of the two creates is observed: still waiting.
	p1 := dsPod(t, ds, "p1", "n1", 0)
	if r := step(time.Second, p1); len(r.Create) != 0 {
		t.Errorf("synced with a create unobserved: %v", dsCreated(r))
	}
	// Five minutes on, the expectations expire and the missing pod is
	// created again.
	if r := step(5*time.Minute+2*time.Second, p1); !slices.Equal(dsCreated(r), []string{"n2"}) {
		t.Errorf("after the expiry: %v", dsCreated(r))
	}
	// Another DaemonSet of the same name starts afresh.
	ds2 := fluentd()
	ds2.UID = "ds-fluentd-2"
	r, err := c.Step(workloads.DaemonSetInput{DaemonSet: ds2, Nodes: nodes}, dsT0.Add(5*time.Minute+3*time.Second))
	if err != nil || len(r.Create) != 2 {
		t.Errorf("a new DaemonSet: %v %v", dsCreated(r), err)
	}
}

func TestDaemonSetRevisionHash(t *testing.T) {
	a, _ := workloads.DaemonSetRevisionHash(fluentd())
	b, _ := workloads.DaemonSetRevisionHash(fluentd())
	ds := fluentd()
	ds.Spec.Template.Spec.Containers[0].Image = "fluentd:v6"
	c, _ := workloads.DaemonSetRevisionHash(ds)
	one := int32(1)
	ds = fluentd()
	ds.Status.CollisionCount = &one
	d, _ := workloads.DaemonSetRevisionHash(ds)
	if a == "" || a != b || a == c || a == d || strings.ContainsAny(a, "aeiou013") {
		t.Errorf("hashes %q %q %q %q: want stable, changing with the template and the collision count, safe-encoded", a, b, c, d)
	}
}

// TestDaemonSetControllerMinReadyRequeues: with minReadySeconds 5, a
// pod turning ready at 1 s makes the controller ask to look again at
// 1+5+1 s (updatePod's requeue, a second later for clock skew) and at
// 1+5 s (the status: ready but not available); the delaying queue keeps
// one time per key, the earliest, and keeps it across the syncs in
// between (a sync at 2 s asks again for 7 s, and 6 s is kept). The 6-s
// look finds the pod available (ready for 5 s, the bound included) and
// needs no other: the 7-s time was merged into it.
func TestDaemonSetControllerMinReadyRequeues(t *testing.T) {
	ds := fluentd()
	ds.Spec.MinReadySeconds = 5
	nodes := dsNodes("n1")
	var c workloads.DaemonSetController
	step := func(at time.Duration, pod *api.Pod) time.Duration {
		t.Helper()
		if _, err := c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, Pods: []*api.Pod{pod}}, dsT0.Add(at)); err != nil {
			t.Fatal(err)
		}
		if d := c.NextDeadline(); !d.IsZero() {
			return d.Sub(dsT0)
		}
		return 0
	}
	pending := dsPod(t, ds, "p1", "n1", 0)
	pending.Status.Conditions = nil
	ready := dsPod(t, ds, "p1", "n1", 0)
	ready.Status.Conditions[0].LastTransitionTime = api.NewTime(dsT0.Add(time.Second))
	for _, s := range []struct {
		at   time.Duration
		pod  *api.Pod
		want time.Duration
	}{
		{0, pending, 0},
		{time.Second, ready, 6 * time.Second},
		{2 * time.Second, ready, 6 * time.Second},
		{6 * time.Second, ready, 0},
	} {
		if got := step(s.at, s.pod); got != s.want {
			t.Errorf("after the sync at %v: next look at %v, want %v", s.at, got, s.want)
		}
	}
}

func TestDaemonSetNodeEvents(t *testing.T) {
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"},
		Spec: api.DaemonSetSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{
			NodeSelector: map[string]string{"role": "worker"}}}}}
	yes := true
	own := func(kind, name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default",
			OwnerReferences: []api.OwnerReference{{Kind: kind, Name: name, Controller: &yes}}}}
	}
	worker := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"role": "worker"}}}
	other := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"role": "db"}}}
	noSched := &api.Node{ObjectMeta: worker.ObjectMeta, Spec: api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}}}
	noExec := &api.Node{ObjectMeta: worker.ObjectMeta, Spec: api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: api.TaintEffectNoExecute}}}}
	misscheduled := *ds
	misscheduled.Status.NumberMisscheduled = 1
	for _, tc := range []struct {
		name string
		node *api.Node
		ds   *api.DaemonSet
		pods []*api.Pod
		want bool
	}{
		{"should run, none there", worker, ds, nil, true},
		{"should run, one there", worker, ds, []*api.Pod{own("DaemonSet", "agent")}, false},
		{"another DaemonSet's pod does not count", worker, ds, []*api.Pod{own("DaemonSet", "other")}, true},
		{"a ReplicaSet of the same name does not count", worker, ds, []*api.Pod{own("ReplicaSet", "agent")}, true},
		{"label lost under the pod", other, ds, []*api.Pod{own("DaemonSet", "agent")}, true},
		{"label lost, no pod", other, ds, nil, false},
		{"NoSchedule under the pod", noSched, ds, []*api.Pod{own("DaemonSet", "agent")}, false},
		{"NoSchedule under the pod, misscheduled counted", noSched, &misscheduled, []*api.Pod{own("DaemonSet", "agent")}, true},
		{"NoExecute under the pod", noExec, ds, []*api.Pod{own("DaemonSet", "agent")}, true},
		{"NoExecute, no pod", noExec, ds, nil, false},
	} {
		got, err := workloads.DaemonSetSyncsForNode(tc.node, tc.ds, tc.pods)
		if err != nil || got != tc.want {
			t.Errorf("%s: DaemonSetSyncsForNode = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := workloads.DaemonSetSyncsForNode(nil, ds, nil); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil node: %v", err)
	}
	now := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	later := api.NewTime(now.Add(time.Second))
	withTime := func(at api.Time) *api.Node {
		return &api.Node{ObjectMeta: worker.ObjectMeta, Spec: api.NodeSpec{Taints: []api.Taint{{Key: "k", Effect: api.TaintEffectNoExecute, TimeAdded: &at}}}}
	}
	empty := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{}}}
	bare := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n"}, Status: api.NodeStatus{Phase: "Running"}}
	for _, tc := range []struct {
		name     string
		old, cur *api.Node
		want     bool
	}{
		{"status only, nil and empty labels alike", empty, bare, true},
		{"label changed", worker, other, false},
		{"taint added", worker, noSched, false},
		{"same taint, same instant", withTime(now), withTime(now), true},
		{"taint re-added later", withTime(now), withTime(later), false},
	} {
		got, err := workloads.DaemonSetIgnoresNodeUpdate(tc.old, tc.cur)
		if err != nil || got != tc.want {
			t.Errorf("%s: DaemonSetIgnoresNodeUpdate = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := workloads.DaemonSetIgnoresNodeUpdate(worker, nil); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil node: %v", err)
	}
}

// TestDaemonSetRefusedCreates: creates the API server refuses end the
// slow-start batches at the first failing one (its refusals are
// FailedCreates with an Event each, the rest not sent), the sync fails
// and the controller retries it with the workqueue's back-off (5 ms,
// doubling); accepted creates are expected as usual. A refusal because the
// namespace is being deleted is no failure: nothing is recorded and the
// creates stay expected.
func TestDaemonSetRefusedCreates(t *testing.T) {
	ds := fluentd()
	nodes := dsNodes("n1", "n2", "n3", "n4", "n5")
	refusal := errors.New(`pods "fluentd-abcde" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)`)
	var c workloads.DaemonSetController
	step := func(at time.Duration, accept int, err error) workloads.DaemonSetSync {
		t.Helper()
		r, serr := c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, AcceptCreates: &accept, CreateError: err}, dsT0.Add(at))
		if serr != nil {
			t.Fatal(serr)
		}
		return r
	}
	r := step(0, 0, refusal)
	if len(r.Create) != 0 || len(r.FailedCreates) != 1 || !errors.Is(r.Err, refusal) {
		t.Fatalf("all refused: created %v, failed %d, err %v", dsCreated(r), len(r.FailedCreates), r.Err)
	}
	var failed []string
	for _, e := range r.Events {
		if e.Reason == workloads.ReasonFailedCreate {
			failed = append(failed, e.Note)
		}
	}
	if !slices.Equal(failed, []string{"Error creating: " + refusal.Error()}) {
		t.Errorf("events: %v", failed)
	}
	if got := c.NextDeadline(); !got.Equal(dsT0.Add(5 * time.Millisecond)) {
		t.Errorf("first retry at %v, want 5 ms later", got.Sub(dsT0))
	}
	r = step(5*time.Millisecond, 0, refusal)
	if got := c.NextDeadline(); !got.Equal(dsT0.Add(15 * time.Millisecond)) {
		t.Errorf("second retry at %v, want 10 ms after the second failure", got.Sub(dsT0))
	}
	// One create accepted: the first batch (1) goes, the second (2) fails,
	// the last two are not sent.
	r = step(15*time.Millisecond, 1, refusal)
	if !slices.Equal(dsCreated(r), []string{"n1"}) || len(r.FailedCreates) != 2 {
		t.Errorf("one accepted: created %v, failed %d", dsCreated(r), len(r.FailedCreates))
	}

	var term workloads.DaemonSetController
	zero := 0
	tr, err := term.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, AcceptCreates: &zero,
		CreateError: fmt.Errorf("forbidden: %w", namespace.ErrTerminating)}, dsT0)
	if err != nil || tr.Err != nil || len(tr.FailedCreates) != 0 || len(tr.Create) != 0 || !term.NextDeadline().IsZero() {
		t.Errorf("namespace terminating: %+v, next %v", tr, term.NextDeadline())
	}
	for _, e := range tr.Events {
		if e.Reason == workloads.ReasonFailedCreate {
			t.Errorf("namespace terminating recorded %v", e)
		}
	}
	// The creates stay expected: a later sync does not create again.
	if tr, _ = term.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes}, dsT0.Add(time.Second)); len(tr.Create) != 0 {
		t.Errorf("created again while the refused creates are expected: %v", dsCreated(tr))
	}
}
