package workloads_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

// drawDaemonSet draws a DaemonSet whose template may carry a nodeSelector,
// required and preferred node affinity, tolerations (some equal to the
// automatic ones, with tolerationSeconds) and hostNetwork.
func drawDaemonSet(t *rapid.T) *api.DaemonSet {
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "ds-agent", Generation: 1,
			Annotations: map[string]string{workloads.AnnotationDaemonSetTemplateGeneration: "1"}},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "agent", Image: "agent:1"}}},
			},
		},
	}
	spec := &ds.Spec.Template.Spec
	spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	if rapid.Bool().Draw(t, "nodeSelector") {
		spec.NodeSelector = map[string]string{"kubernetes.io/os": rapid.SampledFrom([]string{"linux", "windows"}).Draw(t, "os")}
	}
	aff := &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
	if rapid.Bool().Draw(t, "required") {
		op := rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn, api.NodeSelectorOpExists}).Draw(t, "op")
		req := api.NodeSelectorRequirement{Key: api.LabelTopologyZone, Operator: op}
		if op != api.NodeSelectorOpExists {
			req.Values = []string{rapid.SampledFrom([]string{"us-east-1a", "us-east-1b", "eu-west-1a"}).Draw(t, "zone")}
		}
		aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{req}},
			{MatchFields: []api.NodeSelectorRequirement{{Key: api.NodeFieldName, Operator: api.NodeSelectorOpIn, Values: []string{"some-other-node"}}}},
		}}
	}
	if rapid.Bool().Draw(t, "preferred") {
		aff.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = []api.PreferredSchedulingTerm{{Weight: 10,
			Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "node.kubernetes.io/instance-type", Operator: api.NodeSelectorOpExists}}}}}
	}
	if rapid.Bool().Draw(t, "affinity") {
		spec.Affinity = aff
	}
	sec := int64(300)
	pool := []api.Toleration{
		{Operator: api.TolerationOpExists},
		{Key: "nvidia.com/gpu", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
		{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "infra"},
		{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &sec},
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute},
		{Key: "node-role.kubernetes.io/control-plane", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	}
	for _, tol := range pool {
		if rapid.IntRange(0, 3).Draw(t, "tol") == 0 {
			spec.Tolerations = append(spec.Tolerations, tol)
		}
	}
	return ds
}

// drawNodes draws up to eight nodes with distinct names.
func drawNodes(t *rapid.T) []*api.Node {
	gen := proptest.Node(proptest.NodeOptions{})
	n := rapid.IntRange(1, 8).Draw(t, "nodes")
	seen := map[string]bool{}
	var nodes []*api.Node
	for range n {
		node := gen.Draw(t, "node")
		if !seen[node.Name] {
			seen[node.Name] = true
			nodes = append(nodes, node)
		}
	}
	return nodes
}

// A DaemonSet pod's affinity admits exactly its node: the pod the
// controller creates for a node has required node affinity that the node
// satisfies and every other node fails, whatever the template's own
// affinity said; and the pod tolerates every NoSchedule and NoExecute
// taint of a node the controller chose to run it on.
func TestRapidDaemonPodAffinityAdmitsExactlyItsNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ds := drawDaemonSet(t)
		nodes := drawNodes(t)
		r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes}, time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
		if err != nil || r.Err != nil {
			t.Fatalf("sync: %v %v", err, r.Err)
		}
		want := 0
		for _, n := range nodes {
			pl, err := workloads.NodeShouldRunDaemonPod(n, ds)
			if err != nil {
				t.Fatal(err)
			}
			if pl.ShouldRun {
				want++
			}
		}
		if len(r.Create) != want {
			t.Fatalf("created %d pods, %d nodes should run one", len(r.Create), want)
		}
		for _, c := range r.Create {
			a := c.Pod.Spec.Affinity
			if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
				t.Fatalf("pod for %s has no required node affinity", c.Node)
			}
			m, err := api.NewNodeSelectorMatcher(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range nodes {
				if got := m.Match(n.Name, n.Labels); got != (n.Name == c.Node) {
					t.Fatalf("pod for %s: its affinity admits node %s: %v", c.Node, n.Name, got)
				}
				if n.Name != c.Node {
					continue
				}
				if taint, bad := api.FindUntoleratedTaint(n.Spec.Taints, c.Pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); bad {
					t.Fatalf("pod for %s does not tolerate %s:%s", c.Node, taint.Key, taint.Effect)
				}
			}
			if ds.Spec.Template.Spec.Affinity != nil && ds.Spec.Template.Spec.Affinity == c.Pod.Spec.Affinity {
				t.Fatalf("the pod shares its affinity with the template")
			}
		}
	})
}
