package scheduling

import (
	"testing"

	"github.com/podsem/podsem/api"
)

// hintLoop is a loop over one node, n1, running the bound pods given, with
// pending in the unschedulable pool after one failed attempt.
func hintLoop(t *testing.T, bound []*api.Pod, pending *api.Pod) *Loop {
	t.Helper()
	c := ftCluster(t, []*api.Node{ftNode("n1", 4000, 110, map[string]string{api.LabelTopologyZone: "z1"})}, bound, Config{})
	l, err := NewLoop(c, LoopConfig{}, queueStart)
	if err != nil {
		t.Fatal(err)
	}
	mustStep(t, l, PodAdded(pending), 0)
	if res := mustStep(t, l, Tick(), 0); res.Node != "" {
		t.Fatalf("%s bound to %s", pending.Name, res.Node)
	}
	if got := place(l, pending.Key()); got != QueueUnschedulable {
		t.Fatalf("%s is %v", pending.Name, got)
	}
	return l
}

// The plugins' queueing hints decide which assigned pod events bring a
// rejected pod back (SchedulerQueueingHints): the rejecting plugin's hint
// must say Queue, not only its registration for the event.
func TestQueueingHints(t *testing.T) {
	web := func(name string) *api.Pod { return ftPod("d", name, "n1", 0, map[string]string{"app": "web"}) }
	antiWeb := func(name string) *api.Pod {
		p := ftPod("d", name, "", 0, map[string]string{"app": "web"})
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: api.LabelHostname}}}}
		return p
	}
	spread := func(name string) *api.Pod {
		p := ftPod("d", name, "", 0, map[string]string{"app": "web"})
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "missing", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
		return p
	}
	withPort := func(p *api.Pod, port int32) *api.Pod {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: port, Protocol: api.ProtocolTCP}}
		return p
	}
	withDisk := func(p *api.Pod, pd string) *api.Pod {
		p.Spec.Volumes = []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: pd}}}}
		return p
	}
	other := ftPod("d", "other", "n1", 0, map[string]string{"app": "db"})
	elsewhere := ftPod("e", "web-e", "n1", 0, map[string]string{"app": "web"})
	for _, tc := range []struct {
		name    string
		bound   []*api.Pod
		pending *api.Pod
		event   Input
		moved   bool
	}{
		{"anti-affinity: the pod it avoids is deleted", []*api.Pod{web("w1"), other}, antiWeb("new"), PodDeleted("d", "w1"), true},
		{"anti-affinity: an unrelated pod is deleted", []*api.Pod{web("w1"), other}, antiWeb("new"), PodDeleted("d", "other"), false},
		{"anti-affinity: the pod it avoids is relabelled away", []*api.Pod{web("w1")}, antiWeb("new"), PodUpdated(ftPod("d", "w1", "n1", 0, map[string]string{"app": "old"})), true},
		{"anti-affinity: a pod is added", []*api.Pod{web("w1")}, antiWeb("new"), PodAdded(web("w2")), false},
		{"spread: a selected pod of the namespace is added", nil, spread("new"), PodAdded(web("w1")), true},
		{"spread: a pod of another namespace is added", nil, spread("new"), PodAdded(elsewhere), false},
		{"spread: an unselected pod is deleted", []*api.Pod{other}, spread("new"), PodDeleted("d", "other"), false},
		{"ports: the pod holding the port is deleted", []*api.Pod{withPort(ftPod("d", "h", "n1", 0, nil), 8080), other}, withPort(ftPod("d", "new", "", 0, nil), 8080), PodDeleted("d", "h"), true},
		{"volumes: the pod holding the disk is deleted", []*api.Pod{withDisk(ftPod("d", "h", "n1", 0, nil), "pd-1"), other}, withDisk(ftPod("d", "new", "", 0, nil), "pd-1"), PodDeleted("d", "h"), true},
		{"volumes: a pod without the disk is deleted", []*api.Pod{withDisk(ftPod("d", "h", "n1", 0, nil), "pd-1"), other}, withDisk(ftPod("d", "new", "", 0, nil), "pd-1"), PodDeleted("d", "other"), false},
		{"ports: a pod without ports is deleted", []*api.Pod{withPort(ftPod("d", "h", "n1", 0, nil), 8080), other}, withPort(ftPod("d", "new", "", 0, nil), 8080), PodDeleted("d", "other"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := hintLoop(t, tc.bound, tc.pending)
			mustStep(t, l, tc.event, 5000)
			if got := place(l, tc.pending.Key()) != QueueUnschedulable; got != tc.moved {
				t.Errorf("moved %v (now %v), want %v", got, place(l, tc.pending.Key()), tc.moved)
			}
		})
	}
}

// The loop's own binding, once the pod informer shows it, is an assigned
// pod's addition for the queue, even though the snapshot already holds the
// pod bound (and the API server's binding may have added labels).
func TestQueueingHintsBindingConfirmed(t *testing.T) {
	spread := ftPod("d", "a-spread", "", 0, map[string]string{"app": "web"})
	spread.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "missing", WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	l := hintLoop(t, nil, spread)
	mustStep(t, l, PodAdded(ftPod("d", "b-web", "", 0, map[string]string{"app": "web"})), 1000)
	res := mustStep(t, l, Tick(), 1000)
	if res.Node != "n1" {
		t.Fatalf("b-web: bound to %q", res.Node)
	}
	if got := place(l, "d/a-spread"); got != QueueUnschedulable {
		t.Fatalf("a-spread moved by the assume itself: %v", got)
	}
	confirmed := *res.Bound
	confirmed.Labels = map[string]string{"app": "web", api.LabelTopologyZone: "z1"}
	mustStep(t, l, PodUpdated(&confirmed), 1010)
	if got := place(l, "d/a-spread"); got == QueueUnschedulable {
		t.Error("the binding's confirmation did not move a-spread")
	}
}

// Node events ask the rejecting plugins' node hints: the event must be one
// a rejecting plugin registers for (with queueing hints on) and its hint
// must say Queue.
func TestQueueingHintsNodeEvents(t *testing.T) {
	node := func(mod func(n *api.Node)) *api.Node {
		n := ftNode("n1", 4000, 110, map[string]string{api.LabelTopologyZone: "z1"})
		if mod != nil {
			mod(n)
		}
		return n
	}
	tainted := func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}} }
	otherTaint := func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "other", Effect: api.TaintEffectNoSchedule}} }
	cordoned := func(n *api.Node) { n.Spec.Unschedulable = true }
	gpu := func(n *api.Node) { n.Labels["gpu"] = "yes" }
	big := ftPod("d", "big", "", 8000, nil)
	gpuPod := ftPod("d", "gpu", "", 0, nil)
	gpuPod.Spec.NodeSelector = map[string]string{"gpu": "yes"}
	plain := ftPod("d", "plain", "", 0, nil)
	for _, tc := range []struct {
		name    string
		start   *api.Node
		pending *api.Pod
		event   Input
		moved   bool
	}{
		{"taint removed", node(tainted), plain, NodeUpdated(node(nil)), true},
		{"taint swapped for another", node(tainted), plain, NodeUpdated(node(otherTaint)), false},
		{"uncordoned", node(cordoned), plain, NodeUpdated(node(nil)), true},
		{"a cordoned node relabelled", node(cordoned), plain, NodeUpdated(node(func(n *api.Node) { cordoned(n); gpu(n) })), false},
		{"label the selector wants added", node(nil), gpuPod, NodeUpdated(node(gpu)), true},
		{"an unrelated label added", node(nil), gpuPod, NodeUpdated(node(func(n *api.Node) { n.Labels["x"] = "y" })), false},
		{"a node too small added", node(nil), big, NodeAdded(ftNode("n2", 2000, 110, nil)), false},
		{"a node large enough added", node(nil), big, NodeAdded(ftNode("n2", 16000, 110, nil)), true},
		{"the small node tainted (every Node/Add plugin gets UpdateNodeTaint)", node(nil), big, NodeUpdated(node(tainted)), true},
		{"the small node relabelled", node(nil), big, NodeUpdated(node(gpu)), false},
		{"the small node grown", node(nil), big, NodeUpdated(ftNode("n1", 16000, 110, map[string]string{api.LabelTopologyZone: "z1"})), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ftCluster(t, []*api.Node{tc.start}, nil, Config{})
			l, err := NewLoop(c, LoopConfig{}, queueStart)
			if err != nil {
				t.Fatal(err)
			}
			mustStep(t, l, PodAdded(tc.pending), 0)
			if res := mustStep(t, l, Tick(), 0); res.Node != "" {
				t.Fatalf("bound to %s", res.Node)
			}
			mustStep(t, l, tc.event, 5000)
			if got := place(l, tc.pending.Key()) != QueueUnschedulable; got != tc.moved {
				t.Errorf("moved %v (now %v), want %v", got, place(l, tc.pending.Key()), tc.moved)
			}
		})
	}
}
