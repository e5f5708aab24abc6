package scheduling

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// ftNode builds a node with allocatable cpu (milli), pods and labels.
func ftNode(name string, milliCPU, pods int64, labels map[string]string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		n.Labels[k] = v
	}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:  api.NewMilliQuantity(milliCPU, api.DecimalSI),
		api.ResourcePods: api.NewQuantity(pods, api.DecimalSI),
	}
	return n
}

// ftPod builds a pod requesting milli-cpu, bound to node (or pending).
func ftPod(ns, name, node string, milliCPU int64, labels map[string]string) *api.Pod {
	p := &api.Pod{}
	p.Namespace, p.Name, p.UID = ns, name, ns+"-"+name
	p.Labels = labels
	p.Spec.NodeName = node
	c := api.Container{Name: "c"}
	if milliCPU > 0 {
		c.Resources.Requests = api.ResourceList{api.ResourceCPU: api.NewMilliQuantity(milliCPU, api.DecimalSI)}
	}
	p.Spec.Containers = []api.Container{c}
	return p
}

func ftCluster(t *testing.T, nodes []*api.Node, pods []*api.Pod, cfg Config) *Cluster {
	t.Helper()
	c, err := NewCluster(nodes, pods, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ftStatus(code Code, plugin string, reasons ...string) Status {
	return Status{Code: code, Plugin: plugin, Reasons: reasons}
}

func TestFilterPlugins(t *testing.T) {
	zoneA := map[string]string{api.LabelTopologyZone: "a"}
	zoneB := map[string]string{api.LabelTopologyZone: "b"}
	withTaint := func(n *api.Node, effect api.TaintEffect) *api.Node {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "k", Value: "v", Effect: effect})
		return n
	}
	withPort := func(p *api.Pod, ip, proto string, port int32) *api.Pod {
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports,
			api.ContainerPort{ContainerPort: port, HostPort: port, HostIP: ip, Protocol: api.Protocol(proto)})
		return p
	}
	antiAffinity := func(p *api.Pod, key string, match map[string]string) *api.Pod {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: match}, TopologyKey: key}}}}
		return p
	}
	affinity := func(p *api.Pod, key string, match map[string]string) *api.Pod {
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: match}, TopologyKey: key}}}}
		return p
	}
	web := map[string]string{"app": "web"}

	tests := []struct {
		name  string
		nodes []*api.Node
		pods  []*api.Pod
		pod   *api.Pod
		want  []Status // per node
	}{{
		name:  "cpu short but preemption could help: Unschedulable",
		nodes: []*api.Node{ftNode("n1", 2000, 10, nil)},
		pods:  []*api.Pod{ftPod("d", "a", "n1", 1500, nil)},
		pod:   ftPod("d", "in", "", 1000, nil),
		want: []Status{{Code: Unschedulable, Plugin: PluginNodeResourcesFit, Reasons: []string{"Insufficient cpu"},
			Insufficient: []InsufficientResource{{Resource: "cpu", Reason: "Insufficient cpu", Requested: 1000, Used: 1500, Capacity: 2000}}}},
	}, {
		name:  "request above the whole allocatable: UnschedulableAndUnresolvable",
		nodes: []*api.Node{ftNode("n1", 500, 10, nil)},
		pod:   ftPod("d", "in", "", 1000, nil),
		want: []Status{{Code: UnschedulableAndUnresolvable, Plugin: PluginNodeResourcesFit, Reasons: []string{"Insufficient cpu"},
			Insufficient: []InsufficientResource{{Resource: "cpu", Reason: "Insufficient cpu", Requested: 1000, Capacity: 500, Unresolvable: true}}}},
	}, {
		name:  "pod count full; a pod without requests is still counted",
		nodes: []*api.Node{ftNode("n1", 500, 1, nil)},
		pods:  []*api.Pod{ftPod("d", "a", "n1", 0, nil)},
		pod:   ftPod("d", "in", "", 0, nil),
		want: []Status{{Code: Unschedulable, Plugin: PluginNodeResourcesFit, Reasons: []string{"Too many pods"},
			Insufficient: []InsufficientResource{{Resource: "pods", Reason: "Too many pods", Requested: 1, Used: 1, Capacity: 1}}}},
	}, {
		name:  "zero request fits an overcommitted node",
		nodes: []*api.Node{ftNode("n1", 500, 10, nil)},
		pods:  []*api.Pod{ftPod("d", "a", "n1", 900, nil)},
		pod:   ftPod("d", "in", "", 0, nil),
		want:  []Status{{}},
	}, {
		name:  "succeeded pods do not count",
		nodes: []*api.Node{ftNode("n1", 1000, 10, nil)},
		pods: []*api.Pod{func() *api.Pod {
			p := ftPod("d", "done", "n1", 1000, nil)
			p.Status.Phase = api.PodSucceeded
			return p
		}()},
		pod:  ftPod("d", "in", "", 1000, nil),
		want: []Status{{}},
	}, {
		name:  "NoSchedule and NoExecute reject, PreferNoSchedule does not",
		nodes: []*api.Node{withTaint(ftNode("n1", 1000, 10, nil), api.TaintEffectNoSchedule), withTaint(ftNode("n2", 1000, 10, nil), api.TaintEffectNoExecute), withTaint(ftNode("n3", 1000, 10, nil), api.TaintEffectPreferNoSchedule)},
		pod:   ftPod("d", "in", "", 0, nil),
		want:  []Status{ftStatus(UnschedulableAndUnresolvable, PluginTaintToleration, ReasonTaints), ftStatus(UnschedulableAndUnresolvable, PluginTaintToleration, ReasonTaints), {}},
	}, {
		name: "cordoned node",
		nodes: []*api.Node{func() *api.Node {
			n := ftNode("n1", 1000, 10, nil)
			n.Spec.Unschedulable = true
			return n
		}()},
		pod:  ftPod("d", "in", "", 0, nil),
		want: []Status{ftStatus(UnschedulableAndUnresolvable, PluginNodeUnschedulable, ReasonNodeUnschedulable)},
	}, {
		name:  "nodeName",
		nodes: []*api.Node{ftNode("n1", 1000, 10, nil), ftNode("n2", 1000, 10, nil)},
		pod:   ftPod("d", "in", "n2", 0, nil),
		want:  []Status{ftStatus(UnschedulableAndUnresolvable, PluginNodeName, ReasonNodeName), {}},
	}, {
		name:  "host port on 0.0.0.0 conflicts with any IP, not another protocol",
		nodes: []*api.Node{ftNode("n1", 1000, 10, nil), ftNode("n2", 1000, 10, nil)},
		pods:  []*api.Pod{withPort(ftPod("d", "a", "n1", 0, nil), "10.0.0.1", "TCP", 80), withPort(ftPod("d", "b", "n2", 0, nil), "", "UDP", 80)},
		pod:   withPort(ftPod("d", "in", "", 0, nil), "", "", 80),
		want:  []Status{ftStatus(Unschedulable, PluginNodePorts, ReasonNodePorts), {}},
	}, {
		name:  "anti-affinity keeps the pod out of the zone of a matching pod",
		nodes: []*api.Node{ftNode("n1", 1000, 10, zoneA), ftNode("n2", 1000, 10, zoneA), ftNode("n3", 1000, 10, zoneB)},
		pods:  []*api.Pod{ftPod("d", "a", "n1", 0, web)},
		pod:   antiAffinity(ftPod("d", "in", "", 0, web), api.LabelTopologyZone, web),
		want:  []Status{ftStatus(Unschedulable, PluginInterPodAffinity, ReasonPodAntiAffinity), ftStatus(Unschedulable, PluginInterPodAffinity, ReasonPodAntiAffinity), {}},
	}, {
		name:  "an existing pod's anti-affinity keeps the pod out",
		nodes: []*api.Node{ftNode("n1", 1000, 10, zoneA), ftNode("n2", 1000, 10, zoneB)},
		pods:  []*api.Pod{antiAffinity(ftPod("d", "a", "n1", 0, nil), api.LabelTopologyZone, web)},
		pod:   ftPod("d", "in", "", 0, web),
		want:  []Status{ftStatus(Unschedulable, PluginInterPodAffinity, ReasonExistingPodsAntiAffinity), {}},
	}, {
		name:  "affinity needs a matching pod in the domain",
		nodes: []*api.Node{ftNode("n1", 1000, 10, zoneA), ftNode("n2", 1000, 10, zoneB), ftNode("n3", 1000, 10, nil)},
		pods:  []*api.Pod{ftPod("d", "a", "n1", 0, web)},
		pod:   affinity(ftPod("d", "in", "", 0, nil), api.LabelTopologyZone, web),
		want: []Status{{}, ftStatus(UnschedulableAndUnresolvable, PluginInterPodAffinity, ReasonPodAffinity),
			ftStatus(UnschedulableAndUnresolvable, PluginInterPodAffinity, ReasonPodAffinity)},
	}, {
		name:  "self-affine first pod goes anywhere with the topology key",
		nodes: []*api.Node{ftNode("n1", 1000, 10, zoneA), ftNode("n2", 1000, 10, nil)},
		pod:   affinity(ftPod("d", "in", "", 0, web), api.LabelTopologyZone, web),
		want:  []Status{{}, ftStatus(UnschedulableAndUnresolvable, PluginInterPodAffinity, ReasonPodAffinity)},
	}, {
		name:  "affinity terms select only the pod's namespace by default",
		nodes: []*api.Node{ftNode("n1", 1000, 10, zoneA), ftNode("n2", 1000, 10, zoneB)},
		pods:  []*api.Pod{ftPod("other", "a", "n1", 0, web), ftPod("d", "x", "n2", 0, nil)},
		pod:   affinity(ftPod("d", "in", "", 0, nil), api.LabelTopologyZone, web),
		want: []Status{ftStatus(UnschedulableAndUnresolvable, PluginInterPodAffinity, ReasonPodAffinity),
			ftStatus(UnschedulableAndUnresolvable, PluginInterPodAffinity, ReasonPodAffinity)},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ftCluster(t, tc.nodes, tc.pods, Config{})
			res := results(decide(c, tc.pod))
			var got []Status
			for _, r := range res {
				got = append(got, r.Status)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Filter (-want +got):\n%s", d)
			}
		})
	}
}

func TestNodeAffinityFilter(t *testing.T) {
	nodes := []*api.Node{
		ftNode("n1", 1000, 10, map[string]string{"gen": "3", "disk": "ssd"}),
		ftNode("n2", 1000, 10, map[string]string{"gen": "5"}),
		ftNode("n3", 1000, 10, map[string]string{"gen": "x"}),
	}
	c := ftCluster(t, nodes, nil, Config{Plugins: []string{PluginNodeAffinity}})
	fits := func(p *api.Pod) []bool {
		var out []bool
		for _, r := range results(decide(c, p)) {
			out = append(out, r.Fits())
		}
		return out
	}
	required := func(terms ...api.NodeSelectorTerm) *api.Pod {
		p := ftPod("d", "in", "", 0, nil)
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}
		return p
	}
	expr := func(key string, op api.NodeSelectorOperator, vals ...string) api.NodeSelectorTerm {
		return api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}}}
	}
	sel := ftPod("d", "in", "", 0, nil)
	sel.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	for _, tc := range []struct {
		name string
		pod  *api.Pod
		want []bool
	}{
		{"nodeSelector", sel, []bool{true, false, false}},
		{"Gt parses the label as an integer", required(expr("gen", api.NodeSelectorOpGt, "4")), []bool{false, true, false}},
		{"Lt", required(expr("gen", api.NodeSelectorOpLt, "4")), []bool{true, false, false}},
		{"terms are ORed", required(expr("gen", api.NodeSelectorOpIn, "5"), expr("disk", api.NodeSelectorOpExists)), []bool{true, true, false}},
		{"DoesNotExist", required(expr("disk", api.NodeSelectorOpDoesNotExist)), []bool{false, true, true}},
		{"matchFields metadata.name", required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n3"}}}}), []bool{false, false, true}},
		{"empty term matches nothing", required(api.NodeSelectorTerm{}), []bool{false, false, false}},
	} {
		if got := fits(tc.pod); !cmp.Equal(got, tc.want) {
			t.Errorf("%s: fits = %v, want %v", tc.name, got, tc.want)
		}
	}
	conflict := required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{
		{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n1"}},
		{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n2"}},
	}})
	res := results(decide(c, conflict))
	if len(res) == 0 {
		t.Fatalf("conflicting matchFields: no node in the decision")
	}
	if want := ftStatus(UnschedulableAndUnresolvable, PluginNodeAffinity, ReasonNodeAffinityConflict); !cmp.Equal(res[0].Status, want) {
		t.Errorf("conflicting matchFields: %v, want %v", res[0].Status, want)
	}
}

func TestWhatIfRemovesVictims(t *testing.T) {
	zoneA := map[string]string{api.LabelTopologyZone: "a"}
	web := map[string]string{"app": "web"}
	victim := ftPod("d", "victim", "n1", 1500, web)
	other := ftPod("d", "other", "n1", 200, nil)
	in := ftPod("d", "in", "", 1000, nil)
	in.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchLabels: web}, TopologyKey: api.LabelTopologyZone}}}}
	c := ftCluster(t, []*api.Node{ftNode("n1", 2000, 10, zoneA)}, []*api.Pod{victim, other}, Config{})
	cy := c.NewCycle(in)
	if st := cy.WhatIf(c.NodeAt(0)).Filter(); st.Code != Unschedulable {
		t.Fatalf("before: %v, want Unschedulable", st)
	}
	w := cy.WhatIf(c.NodeAt(0))
	w.RemovePod(w.Pod("d", "victim"))
	if st := w.Filter(); st.Code != Success {
		t.Fatalf("victim removed: %v, want Success", st)
	}
	w.RemovePod(w.Pod("d", "victim")) // a second removal is ignored
	w.RemovePod(nil)
	w.AddPod(nil)
	w.AddPod(w.Pod("d", "other")) // already on the node: ignored
	w.AddPod(w.Pod("d", "victim"))
	if st := w.Filter(); st.Code != Unschedulable {
		t.Fatalf("victim reprieved: %v, want Unschedulable", st)
	}
	w.RemovePod(w.Pod("d", "other"))
	if st := w.Filter(); st.Code != Unschedulable || st.Plugin != PluginNodeResourcesFit {
		t.Fatalf("victim reprieved, other removed: %v, want NodeResourcesFit Unschedulable", st)
	}
	// The snapshot itself is untouched.
	if got := c.NodeAt(0).Requested().MilliCPU; got != 1700 {
		t.Fatalf("snapshot requested cpu = %d, want 1700", got)
	}
}

func TestNominatedPodsAreAccounted(t *testing.T) {
	nominated := ftPod("d", "nominated", "", 1500, nil)
	nominated.Status.NominatedNodeName = "n1"
	prio := int32(10)
	nominated.Spec.Priority = &prio
	c := ftCluster(t, []*api.Node{ftNode("n1", 2000, 10, nil)}, []*api.Pod{nominated}, Config{})
	low := ftPod("d", "low", "", 1000, nil)
	if st := decide(c, low).Status(0); st.Code != Unschedulable || len(st.Reasons) == 0 || st.Reasons[0] != "Insufficient cpu" {
		t.Errorf("lower-priority pod: %v, want Insufficient cpu", st)
	}
	high := ftPod("d", "high", "", 1000, nil)
	p := int32(20)
	high.Spec.Priority = &p
	if st := decide(c, high).Status(0); st.Code != Success {
		t.Errorf("higher-priority pod: %v, want Success", st)
	}
	if st := decide(c, nominated).Status(0); st.Code != Success {
		t.Errorf("the nominated pod itself: %v, want Success", st)
	}
}

func TestScores(t *testing.T) {
	tainted := ftNode("n1", 1000, 10, map[string]string{"disk": "ssd"})
	tainted.Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectPreferNoSchedule}}
	plain := ftNode("n2", 1000, 10, nil)
	c := ftCluster(t, []*api.Node{tainted, plain}, nil, Config{})
	pod := ftPod("d", "in", "", 0, nil)
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
		Weight: 7, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: api.NodeSelectorOpIn, Values: []string{"ssd"}}}}}}}}
	scores := decide(c, pod).Scores(nil)
	want := []NodeScore{
		// NodeResourcesFit: (1000m - 100m non-zero default) / 1000m free;
		// BalancedAllocation skips best-effort pods.
		// VolumeBinding, DynamicResources and ImageLocality score 0.
		{Node: "n1", Index: 0, Total: 0*3 + 100*2 + 90, Plugins: []PluginScore{{PluginTaintToleration, 0, 3}, {PluginNodeAffinity, 100, 2},
			{PluginNodeResourcesFit, 90, 1}, {PluginVolumeBinding, 0, 1}, {PluginPodTopologySpread, 0, 2}, {PluginInterPodAffinity, 0, 2},
			{PluginDynamicResources, 0, 2}, {PluginNodeResourcesBalancedAllocation, 0, 1}, {PluginImageLocality, 0, 1}}},
		{Node: "n2", Index: 1, Total: 100*3 + 0*2 + 90, Plugins: []PluginScore{{PluginTaintToleration, 100, 3}, {PluginNodeAffinity, 0, 2},
			{PluginNodeResourcesFit, 90, 1}, {PluginVolumeBinding, 0, 1}, {PluginPodTopologySpread, 0, 2}, {PluginInterPodAffinity, 0, 2},
			{PluginDynamicResources, 0, 2}, {PluginNodeResourcesBalancedAllocation, 0, 1}, {PluginImageLocality, 0, 1}}},
	}
	if d := cmp.Diff(want, scores); d != "" {
		t.Errorf("Score (-want +got):\n%s", d)
	}
}

func TestInvalidSelectorIsAnError(t *testing.T) {
	c := ftCluster(t, []*api.Node{ftNode("n1", 1000, 10, nil)}, nil, Config{})
	pod := ftPod("d", "in", "", 0, nil)
	pod.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}}, TopologyKey: "zone"}}}}
	st := decide(c, pod).Status(0)
	if st.Code != Error || st.Err == nil || st.Plugin != PluginInterPodAffinity {
		t.Fatalf("status = %v, want an InterPodAffinity Error", st)
	}
}

func TestClusterUpdateErrors(t *testing.T) {
	c := ftCluster(t, []*api.Node{ftNode("n1", 1000, 10, nil)}, nil, Config{})
	for name, err := range map[string]error{
		"duplicate node": c.AddNode(ftNode("n1", 1, 1, nil)),
		"unnamed node":   c.AddNode(&api.Node{}),
		"unknown node":   c.RemoveNode("nope"),
		"update unknown": c.UpdateNode(ftNode("nope", 1, 1, nil)),
		"unnamed pod":    c.AddPod(&api.Pod{}),
		"remove unknown": c.RemovePod("d", "nope"),
		"nil pod":        c.AddPod(nil),
		"nil namespace":  c.SetNamespace(nil),
		"update no pod":  c.UpdatePod(ftPod("d", "nope", "", 0, nil)),
		"unknown plugin": func() error {
			_, err := NewCluster(nil, nil, Config{Plugins: []string{"Bogus"}})
			return err
		}(),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestWhatIfEqualsRebuiltSnapshot checks that removing pods from a node
// through WhatIf answers exactly as a snapshot built without those pods.
func TestWhatIfEqualsRebuiltSnapshot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for _, name := range snapNodeNames[:3] {
			nodes = append(nodes, genSnapNode(t, name))
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
			p := genSnapPod(t, fmt.Sprintf("p%d", i))
			if p.Spec.NodeName == "" && p.Status.NominatedNodeName == "" {
				p.Spec.NodeName = "n0"
			}
			pods = append(pods, p)
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		in := genSnapPod(t, "incoming")
		in.Spec.NodeName, in.Status.NominatedNodeName = "", ""
		node := c.NodeAt(rapid.IntRange(0, 2).Draw(t, "node"))
		cy := c.NewCycle(in)
		w := cy.WhatIf(node)
		removed := map[string]bool{}
		for _, p := range node.Pods() {
			if rapid.Bool().Draw(t, "remove") {
				w.RemovePod(p)
				removed[p.key] = true
			}
		}
		// Pods not in the snapshot may be added (as the framework adds
		// nominated pods); the rebuilt snapshot binds them to the node.
		var extra []*api.Pod
		for i := range rapid.IntRange(0, 2).Draw(t, "extra") {
			p := genSnapPod(t, fmt.Sprintf("x%d", i))
			p.Spec.NodeName, p.Status.NominatedNodeName, p.Status.Phase = "", "", ""
			// A plugin whose PreFilter said Skip stays skipped whatever is
			// added (as in the framework), so added pods carry no required
			// anti-affinity, which could turn InterPodAffinity's Skip into
			// a check in a rebuilt snapshot.
			if p.Spec.Affinity != nil {
				p.Spec.Affinity.PodAntiAffinity = nil
			}
			w.AddPod(newPodInfo(p.Namespace+"/"+p.Name, p))
			q := *p
			q.Spec.NodeName = node.Name()
			extra = append(extra, &q)
		}
		var kept []*api.Pod
		for _, p := range pods {
			if removed[p.Key()] {
				continue
			}
			kept = append(kept, p)
		}
		kept = append(kept, extra...)
		rebuilt, err := NewCluster(nodes, kept, Config{})
		if err != nil {
			t.Fatal(err)
		}
		want := rebuilt.NewCycle(in).WhatIf(rebuilt.NodeByName(node.Name())).Filter()
		got := w.Filter()
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("what-if without %v, with %d more (-rebuilt +what-if):\n%s", removed, len(extra), d)
		}
	})
}

func TestExplainMessage(t *testing.T) {
	empty := ftCluster(t, nil, nil, Config{})
	if got := empty.NewCycle(ftPod("d", "in", "", 0, nil)).Explain().Message; got != "0/0 nodes are available:" {
		t.Errorf("empty cluster: %q", got)
	}
	c := ftCluster(t, []*api.Node{ftNode("n1", 1000, 10, nil), ftNode("n2", 100, 10, nil)}, nil, Config{})
	conflict := ftPod("d", "in", "", 0, nil)
	conflict.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n1"}},
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"n2"}},
		}}}}}}
	e := c.NewCycle(conflict).Explain()
	if e.Message != "0/2 nodes are available: pod affinity terms conflict." {
		t.Errorf("prefilter rejection: %q", e.Message)
	}
	if len(e.Nodes) != 2 {
		t.Fatalf("explained %d nodes, want 2", len(e.Nodes))
	}
	if len(e.Nodes[0].Rejections) != 1 || e.Nodes[0].Rejections[0].Plugin != PluginNodeAffinity {
		t.Errorf("rejections: %v", e.Nodes[0].Rejections)
	}
	big := ftPod("d", "in", "", 500, nil)
	big.Spec.Tolerations = nil
	e = c.NewCycle(big).Explain()
	if len(e.Nodes) != 2 {
		t.Fatalf("explained %d nodes, want 2", len(e.Nodes))
	}
	if want := "0/2 nodes are available: 1 Insufficient cpu."; e.Message != "" || !e.Nodes[0].Fits() || e.Nodes[1].Fits() {
		t.Errorf("one feasible node: message %q (want none, not %q), nodes %v", e.Message, want, e.Nodes)
	}
}

func TestFitScalarResourcesAndSidecarPorts(t *testing.T) {
	n := ftNode("n1", 4000, 10, nil)
	n.Status.Allocatable["example.com/gpu"] = api.MustParseQuantity("2")
	n.Status.Allocatable["hugepages-2Mi"] = api.MustParseQuantity("64Mi")
	used := ftPod("d", "used", "n1", 0, nil)
	used.Spec.Containers[0].Resources.Requests = api.ResourceList{"example.com/gpu": api.MustParseQuantity("1")}
	always := api.RestartPolicyAlways
	sidecar := ftPod("d", "sidecar", "n1", 0, nil)
	sidecar.Spec.InitContainers = []api.Container{{Name: "proxy", RestartPolicy: &always,
		Ports: []api.ContainerPort{{ContainerPort: 15001, HostPort: 15001}}}}
	c := ftCluster(t, []*api.Node{n}, []*api.Pod{used, sidecar}, Config{})
	in := ftPod("d", "in", "", 0, nil)
	in.Spec.Containers[0].Resources.Requests = api.ResourceList{
		"example.com/gpu": api.MustParseQuantity("2"),
		"hugepages-2Mi":   api.MustParseQuantity("128Mi"),
		"other.io/fpga":   api.MustParseQuantity("1"),
	}
	st := decide(c, in).Status(0)
	want := Status{Code: UnschedulableAndUnresolvable, Plugin: PluginNodeResourcesFit,
		Reasons: []string{"Insufficient example.com/gpu", "Insufficient hugepages-2Mi", "Insufficient other.io/fpga"},
		Insufficient: []InsufficientResource{
			{Resource: "example.com/gpu", Reason: "Insufficient example.com/gpu", Requested: 2, Used: 1, Capacity: 2},
			{Resource: "hugepages-2Mi", Reason: "Insufficient hugepages-2Mi", Requested: 128 << 20, Capacity: 64 << 20, Unresolvable: true},
			{Resource: "other.io/fpga", Reason: "Insufficient other.io/fpga", Requested: 1, Unresolvable: true},
		}}
	if d := cmp.Diff(want, st); d != "" {
		t.Errorf("scalar resources (-want +got):\n%s", d)
	}
	ignoring := ftCluster(t, []*api.Node{n}, []*api.Pod{used, sidecar}, Config{IgnoredResources: []string{"example.com/gpu"}, IgnoredResourceGroups: []string{"other.io"}})
	if st := decide(ignoring, in).Status(0); len(st.Reasons) != 1 || st.Reasons[0] != "Insufficient hugepages-2Mi" {
		t.Errorf("ignored extended resources: %v", st)
	}
	ports := &c.NodeAt(0).ports
	if got, want := ports.exact, map[hostPort]int{{ip: "0.0.0.0", protocol: "TCP", port: 15001}: 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("used host ports = %v, want %v", got, want)
	}
	if ports.conflictCount(hostPort{"10.0.0.1", "TCP", 15001}) == 0 || ports.conflictCount(hostPort{"0.0.0.0", "UDP", 15001}) != 0 {
		t.Error("host port conflicts")
	}
	port := ftPod("d", "port", "", 0, nil)
	port.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 15001, HostPort: 15001}}
	if st := decide(c, port).Status(0); st.Plugin != PluginNodePorts {
		t.Errorf("a sidecar's host port is in use: %v", st)
	}
}

// Native resources written with a domain prefix (kubernetes.io/...) are
// scalar resources to the scheduler, as extended ones are
// (IsScalarResourceName via IsPrefixedNativeResource).
func TestFitPrefixedNativeResourceIsScalar(t *testing.T) {
	n := ftNode("n1", 4000, 10, nil)
	n.Status.Allocatable["kubernetes.io/foo"] = api.MustParseQuantity("2")
	used := ftPod("d", "used", "n1", 0, nil)
	used.Spec.Containers[0].Resources.Requests = api.ResourceList{"kubernetes.io/foo": api.MustParseQuantity("1")}
	c := ftCluster(t, []*api.Node{n}, []*api.Pod{used}, Config{})
	if got := c.NodeAt(0).Requested().Scalar["kubernetes.io/foo"]; got != 1 {
		t.Errorf("requested kubernetes.io/foo = %d, want 1", got)
	}
	in := ftPod("d", "in", "", 0, nil)
	in.Spec.Containers[0].Resources.Requests = api.ResourceList{"kubernetes.io/foo": api.MustParseQuantity("2")}
	st := decide(c, in).Status(0)
	want := []InsufficientResource{{Resource: "kubernetes.io/foo", Reason: "Insufficient kubernetes.io/foo", Requested: 2, Used: 1, Capacity: 2}}
	if d := cmp.Diff(want, st.Insufficient); d != "" {
		t.Errorf("prefixed native resource (-want +got):\n%s", d)
	}
}
