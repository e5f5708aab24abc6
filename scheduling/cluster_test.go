package scheduling

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// snapDump renders everything the snapshot indexes in a canonical form,
// so that two snapshots holding the same objects compare equal.
func snapDump(c *Cluster) string {
	var b strings.Builder
	for i, n := range c.nodes {
		if n.index != i || c.byName[n.node.Name] != n {
			fmt.Fprintf(&b, "BROKEN INDEX %s\n", n.node.Name)
		}
		var keys []string
		for j, p := range n.pods {
			if p.node != n || p.nodeSlot != j {
				fmt.Fprintf(&b, "BROKEN SLOT %s\n", p.key)
			}
			keys = append(keys, p.key)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "node %s alloc=%s req=%s non0=%d/%d pods=%v aff=%d anti=%d ports=%v\n", n.node.Name,
			snapFmtResource(n.allocatable), snapFmtResource(n.requested), n.non0CPU, n.non0Mem, keys, n.withAffinity, n.withRequiredAntiAffinity, snapFmtPorts(n.ports))
	}
	if c.labels.nNodes != len(c.nodes) {
		fmt.Fprintf(&b, "BROKEN LABEL INDEX SIZE %d\n", c.labels.nNodes)
	}
	for k, col := range c.labels.cols {
		present := 0
		for i, id := range col.ids {
			v, has := c.nodes[i].node.Labels[k]
			if id >= 0 {
				present++
			}
			if has != (id >= 0) || (has && col.values[id] != v) {
				fmt.Fprintf(&b, "BROKEN LABEL %s ON %s\n", k, c.nodes[i].node.Name)
			}
		}
		if present != col.present || present == 0 || len(col.ids) != len(c.nodes) {
			fmt.Fprintf(&b, "BROKEN LABEL COLUMN %s\n", k)
		}
	}
	for _, n := range c.nodes {
		for k := range n.node.Labels {
			if c.labels.cols[k] == nil {
				fmt.Fprintf(&b, "MISSING LABEL COLUMN %s\n", k)
			}
		}
	}
	var nss []string
	for ns := range c.byNamespace {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	for _, ns := range nss {
		var keys []string
		for i, p := range c.byNamespace[ns] {
			if p.nsSlot != i {
				fmt.Fprintf(&b, "BROKEN NS SLOT %s\n", p.key)
			}
			keys = append(keys, p.key)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "ns %s %v\n", ns, keys)
	}
	var aff []string
	for i, p := range c.affinityPods {
		if p.affSlot != i || !p.hasAffinityTerms() {
			fmt.Fprintf(&b, "BROKEN AFF SLOT %s\n", p.key)
		}
		aff = append(aff, p.key)
	}
	sort.Strings(aff)
	fmt.Fprintf(&b, "aff %v\n", aff)
	var lbl []string
	for ns, byPair := range c.byLabel {
		for lp, list := range byPair {
			var keys []string
			for i, p := range list {
				if p.pod.Namespace != ns || p.pod.Labels[lp.key] != lp.value || p.labelSlots[p.labelPos(lp)] != i || p.node == nil {
					fmt.Fprintf(&b, "BROKEN LABEL SLOT %s\n", p.key)
				}
				keys = append(keys, p.key)
			}
			sort.Strings(keys)
			lbl = append(lbl, fmt.Sprintf("%s/%s=%s:%v", ns, lp.key, lp.value, keys))
		}
	}
	sort.Strings(lbl)
	fmt.Fprintf(&b, "labels %v\n", lbl)
	var anti []string
	for i, p := range c.antiAffinityPods {
		if p.antiSlot != i {
			fmt.Fprintf(&b, "BROKEN ANTI SLOT %s\n", p.key)
		}
		anti = append(anti, p.key)
	}
	sort.Strings(anti)
	fmt.Fprintf(&b, "anti %v\n", anti)
	for _, m := range []struct {
		name string
		m    map[string]map[string]*PodInfo
	}{{"orphans", c.orphans}, {"nominated", c.nominated}} {
		var lines []string
		for node, pods := range m.m {
			lines = append(lines, fmt.Sprintf("%s=%v", node, sortedKeys(pods)))
		}
		sort.Strings(lines)
		fmt.Fprintf(&b, "%s %v\n", m.name, lines)
	}
	fmt.Fprintf(&b, "pods %v\n", sortedKeys(c.pods))
	return b.String()
}

func snapFmtResource(r Resource) string {
	var sc []string
	for k, v := range r.Scalar {
		if v != 0 {
			sc = append(sc, fmt.Sprintf("%s:%d", k, v))
		}
	}
	sort.Strings(sc)
	return fmt.Sprintf("{%d %d %d %d %v}", r.MilliCPU, r.Memory, r.EphemeralStorage, r.AllowedPodNumber, sc)
}

func snapFmtPorts(u portUsage) string {
	var out []string
	for p, n := range u.exact {
		out = append(out, fmt.Sprintf("%s/%s/%d*%d", p.ip, p.protocol, p.port, n))
	}
	sort.Strings(out)
	var any []string
	for p, n := range u.any {
		any = append(any, fmt.Sprintf("%s/%d*%d", p.protocol, p.port, n))
	}
	sort.Strings(any)
	return fmt.Sprint(out, any)
}

var snapNodeNames = []string{"n0", "n1", "n2", "n3", "n4"}

func genSnapNode(t *rapid.T, name string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{api.LabelHostname: name}
	if rapid.Bool().Draw(t, "zoned") {
		n.Labels[api.LabelTopologyZone] = rapid.SampledFrom([]string{"za", "zb"}).Draw(t, "zone")
	}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:   api.NewMilliQuantity(int64(rapid.IntRange(0, 4000).Draw(t, "cpu")), api.DecimalSI),
		api.ResourcePods:  api.NewQuantity(int64(rapid.IntRange(0, 5).Draw(t, "maxpods")), api.DecimalSI),
		"example.com/gpu": api.NewQuantity(int64(rapid.IntRange(0, 2).Draw(t, "gpus")), api.DecimalSI),
	}
	if rapid.Bool().Draw(t, "tainted") {
		n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
	}
	return n
}

func genSnapPod(t *rapid.T, name string) *api.Pod {
	p := &api.Pod{}
	p.Name = name
	p.Namespace = rapid.SampledFrom([]string{"ns0", "ns1"}).Draw(t, "ns")
	p.UID = p.Namespace + "-" + name
	p.Labels = map[string]string{}
	if rapid.IntRange(0, 4).Draw(t, "unlabelled") > 0 {
		p.Labels["app"] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "app")
	}
	if rapid.Bool().Draw(t, "tiered") {
		p.Labels["tier"] = rapid.SampledFrom([]string{"web", "db"}).Draw(t, "tier")
	}
	c := api.Container{Name: "c"}
	c.Resources.Requests = api.ResourceList{
		api.ResourceCPU: api.NewMilliQuantity(int64(rapid.IntRange(0, 1500).Draw(t, "reqcpu")), api.DecimalSI),
	}
	if rapid.Bool().Draw(t, "gpu") {
		c.Resources.Requests["example.com/gpu"] = api.NewQuantity(1, api.DecimalSI)
	}
	if rapid.Bool().Draw(t, "hostport") {
		c.Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080,
			HostIP: rapid.SampledFrom([]string{"", "10.0.0.1"}).Draw(t, "hostip")}}
	}
	p.Spec.Containers = []api.Container{c}
	switch rapid.IntRange(0, 3).Draw(t, "affinity") {
	case 1:
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
				TopologyKey:   api.LabelTopologyZone,
			}}}}
	case 2:
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10,
				PodAffinityTerm: api.PodAffinityTerm{
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "b"}},
					TopologyKey:   api.LabelHostname,
				}}}}}
	}
	switch rapid.IntRange(0, 5).Draw(t, "placement") {
	case 0:
	case 1:
		p.Status.NominatedNodeName = rapid.SampledFrom(snapNodeNames).Draw(t, "nominated")
	case 2:
		p.Spec.NodeName = rapid.SampledFrom(snapNodeNames).Draw(t, "node")
		p.Status.Phase = api.PodSucceeded
	default:
		p.Spec.NodeName = rapid.SampledFrom(snapNodeNames).Draw(t, "node")
	}
	if rapid.IntRange(0, 4).Draw(t, "terminating") == 0 {
		p.DeletionTimestamp = &api.Time{}
	}
	prio := int32(rapid.IntRange(0, 2).Draw(t, "prio"))
	p.Spec.Priority = &prio
	return p
}

func snapFilterSummary(d *Decision) []string {
	res := results(d)
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = fmt.Sprintf("%s %s %v", r.Node, r.Status.Code, r.Status.Reasons)
	}
	return out
}

// TestIncrementalEqualsScratch checks that a snapshot kept current through
// any sequence of incremental updates indexes exactly what a snapshot built
// from scratch from the same objects indexes, and answers the same.
func TestIncrementalEqualsScratch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, err := NewCluster(nil, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		podNames := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}
		steps := rapid.IntRange(10, 60).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			switch rapid.IntRange(0, 7).Draw(t, "op") {
			case 0:
				name := rapid.SampledFrom(snapNodeNames).Draw(t, "addnode")
				had := c.byName[name] != nil
				if err := c.AddNode(genSnapNode(t, name)); (err == nil) == had {
					t.Fatalf("AddNode %s: err=%v", name, err)
				}
			case 1:
				name := rapid.SampledFrom(snapNodeNames).Draw(t, "rmnode")
				had := c.byName[name] != nil
				if err := c.RemoveNode(name); (err == nil) != had {
					t.Fatalf("RemoveNode %s: err=%v", name, err)
				}
			case 2:
				name := rapid.SampledFrom(snapNodeNames).Draw(t, "updnode")
				had := c.byName[name] != nil
				if err := c.UpdateNode(genSnapNode(t, name)); (err == nil) != had {
					t.Fatalf("UpdateNode %s: err=%v", name, err)
				}
			case 3:
				p := genSnapPod(t, rapid.SampledFrom(podNames).Draw(t, "addpod"))
				_ = c.AddPod(p) // fails on a duplicate key
			case 4:
				name := rapid.SampledFrom(podNames).Draw(t, "rmpod")
				ns := rapid.SampledFrom([]string{"ns0", "ns1"}).Draw(t, "rmns")
				had := c.pods[ns+"/"+name] != nil
				if err := c.RemovePod(ns, name); (err == nil) != had {
					t.Fatalf("RemovePod %s/%s: err=%v", ns, name, err)
				}
			case 5:
				p := genSnapPod(t, rapid.SampledFrom(podNames).Draw(t, "updpod"))
				had := c.pods[p.Key()] != nil
				if err := c.UpdatePod(p); (err == nil) != had {
					t.Fatalf("UpdatePod %s: err=%v", p.Key(), err)
				}
			case 6:
				// A status update of a pod the cluster holds (the
				// kubelet's, the scheduler's nomination): its spec and
				// labels unchanged, so UpdatePod keeps the PodInfo.
				keys := sortedKeys(c.pods)
				if len(keys) == 0 {
					continue
				}
				p := c.pods[rapid.SampledFrom(keys).Draw(t, "statuspod")].pod.DeepCopy()
				p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed}).Draw(t, "phase")
				p.Status.NominatedNodeName = rapid.SampledFrom(append([]string{""}, snapNodeNames...)).Draw(t, "nominated")
				switch rapid.IntRange(0, 2).Draw(t, "start") {
				case 1:
					p.Status.StartTime = nil
				case 2:
					p.Status.StartTime = api.NewTimePtr(time.Date(2025, 3, 1, 8, 0, rapid.IntRange(0, 59).Draw(t, "second"), 0, time.UTC))
				}
				// Container statuses appear (the kubelet's first status)
				// or change, some reporting resources, which the requests
				// then consult.
				switch rapid.IntRange(0, 2).Draw(t, "statuses") {
				case 1:
					p.Status.ContainerStatuses = nil
					for _, ctr := range p.Spec.Containers {
						cs := api.ContainerStatus{Name: ctr.Name, Ready: rapid.Bool().Draw(t, "ready")}
						if rapid.IntRange(0, 3).Draw(t, "statusres") == 0 {
							cs.Resources = &api.ResourceRequirements{Requests: api.ResourceList{
								api.ResourceCPU: api.NewMilliQuantity(int64(rapid.IntRange(0, 4000).Draw(t, "statuscpu")), api.DecimalSI)}}
						}
						p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
					}
				case 2:
					p.Status.ContainerStatuses = nil
				}
				if err := c.UpdatePod(p); err != nil {
					t.Fatalf("UpdatePod %s (status): %v", p.Key(), err)
				}
			case 7:
				// A kubelet's status post: a new object sharing the
				// node's spec, labels and images, its conditions new.
				if len(c.nodes) == 0 {
					continue
				}
				ni := c.nodes[rapid.IntRange(0, len(c.nodes)-1).Draw(t, "postnode")]
				n := *ni.Node()
				n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
					LastHeartbeatTime: api.NewTime(time.Date(2025, 3, 1, 8, 0, rapid.IntRange(0, 59).Draw(t, "heartbeat"), 0, time.UTC))}}
				if err := c.UpdateNode(&n); err != nil {
					t.Fatalf("UpdateNode %s (status): %v", n.Name, err)
				}
				if c.byName[n.Name].Node() != &n {
					t.Fatalf("UpdateNode %s (status): the snapshot keeps the old object", n.Name)
				}
			}
		}
		var nodes []*api.Node
		for _, n := range c.nodes {
			nodes = append(nodes, n.Node())
		}
		var pods []*api.Pod
		for _, k := range sortedKeys(c.pods) {
			pods = append(pods, c.pods[k].pod)
		}
		scratch, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(snapDump(scratch), snapDump(c)); d != "" {
			t.Fatalf("incremental snapshot differs from scratch (-scratch +incremental):\n%s", d)
		}
		probe := genSnapPod(t, "incoming")
		probe.Spec.NodeName = ""
		probe.Status.NominatedNodeName = ""
		want, got := decide(scratch, probe), decide(c, probe)
		if d := cmp.Diff(snapFilterSummary(want), snapFilterSummary(got)); d != "" {
			t.Fatalf("filters differ (-scratch +incremental):\n%s", d)
		}
		if d := cmp.Diff(want.Scores(nil), got.Scores(nil)); d != "" {
			t.Fatalf("scores differ (-scratch +incremental):\n%s", d)
		}
	})
}
