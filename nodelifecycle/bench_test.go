package nodelifecycle

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// zoneOutage is a 5,000-node cluster in three zones, 30 pods a node, whose
// zone-a (1,667 nodes, 50,010 pods) has just become unreachable: its nodes
// carry node.kubernetes.io/unreachable:NoExecute. Most pods have the
// default 300 s tolerations; one in ten tolerates unreachable for 60 s, one
// in ten (the DaemonSet pods) tolerates everything.
type zoneOutage struct {
	nodes    []*api.Node // all nodes; the first lost ones are zone-a's
	lost     int
	pods     []*api.Pod // all pods, those of lost nodes first
	lostPods int
}

func newZoneOutage() *zoneOutage {
	const nodes, perNode = 5000, 30
	z := &zoneOutage{lost: (nodes + 2) / 3}
	def, short := int64(300), int64(60)
	defaults := []api.Toleration{
		{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &def},
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &def},
	}
	fast := []api.Toleration{
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &short},
		defaults[0],
	}
	everything := []api.Toleration{{Operator: api.TolerationOpExists}}
	for i := range nodes {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%04d", i), Labels: map[string]string{api.LabelTopologyZone: fmt.Sprintf("zone-%c", 'a'+i*3/nodes)}}}
		if i < z.lost {
			n.Spec.Taints = []api.Taint{
				{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule, TimeAdded: api.NewTimePtr(t0)},
				{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(t0)},
			}
		}
		z.nodes = append(z.nodes, n)
		for j := range perNode {
			tols := defaults
			switch j % 10 {
			case 0:
				tols = everything
			case 1:
				tols = fast
			}
			z.pods = append(z.pods, &api.Pod{
				ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%04d-%02d", i, j), Namespace: "default"},
				Spec:       api.PodSpec{NodeName: n.Name, Tolerations: tols},
			})
		}
	}
	z.lostPods = z.lost * perNode
	return z
}

// BenchmarkZoneOutageDecisions computes the eviction decision of every pod
// of the lost zone: the target is all 50,000 in ≤ 20 ms on one core.
func BenchmarkZoneOutageDecisions(b *testing.B) {
	z := newZoneOutage()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		evicted := 0
		for _, p := range z.pods[:z.lostPods] {
			node := z.nodes[nodeIndex(p)]
			if d := EvaluateNoExecute(node.Spec.Taints, p.Spec.Tolerations); d.Outcome == NoExecuteDeadline {
				evicted++
			}
		}
		if evicted != z.lostPods*9/10 {
			b.Fatalf("evictions %d", evicted)
		}
	}
	b.ReportMetric(float64(z.lostPods), "pods/op")
}

// BenchmarkZoneOutageTaintEviction feeds the taint eviction controller,
// which knows all 150,000 pods of the cluster, the node updates of the
// 1,667 lost nodes: it schedules the 45,000 evictions the tolerations
// allow. (Clearing the taints between iterations is not timed.)
func BenchmarkZoneOutageTaintEviction(b *testing.B) {
	z := newZoneOutage()
	c := NewTaintEviction()
	for _, p := range z.pods {
		if _, err := c.Step(PodUpdated(p), t0); err != nil {
			b.Fatal(err)
		}
	}
	healthy := make([]*api.Node, z.lost)
	for i := range healthy {
		n := *z.nodes[i]
		n.Spec.Taints = nil
		healthy[i] = &n
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		scheduled := 0
		for _, n := range z.nodes[:z.lost] {
			acts, _ := c.Step(NodeUpdated(n), t0)
			for _, a := range acts {
				if a.Kind == ScheduleEviction {
					scheduled++
				}
			}
		}
		if scheduled != z.lostPods*9/10 {
			b.Fatalf("scheduled %d", scheduled)
		}
		b.StopTimer()
		for _, n := range healthy {
			c.Step(NodeUpdated(n), t0)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(z.lostPods), "pods/op")
}

// nodeIndex reads the node number out of the benchmark's node names.
func nodeIndex(p *api.Pod) int {
	n := 0
	for _, c := range p.Spec.NodeName[len("node-"):] {
		n = n*10 + int(c-'0')
	}
	return n
}

// BenchmarkNodeLifecycleMonitorPass is one monitor pass of the node
// lifecycle controller over 5,000 nodes in three zones, one zone of them
// lost (its nodes Unknown and queued for tainting), followed by a tainting
// pass: one Step at a monitor tick.
func BenchmarkNodeLifecycleMonitorPass(b *testing.B) {
	const n = 5000
	nodes := make([]*api.Node, n)
	leases := map[string]time.Time{}
	for i := range nodes {
		zone := fmt.Sprintf("zone-%c", 'a'+i%3)
		nodes[i] = &api.Node{
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%04d", i), Labels: map[string]string{api.LabelTopologyZone: zone}},
			Status:     api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(t0)}}},
		}
		leases[nodes[i].Name] = t0
	}
	c := mustController(Config{})
	now := t0
	step := func() {
		now = now.Add(DefaultMonitorPeriod)
		for i, node := range nodes {
			if i%3 != 0 {
				leases[node.Name] = now
			}
		}
		r, err := c.Step(Input{Nodes: nodes, Leases: leases}, now)
		if err != nil || !r.MonitorPass || !r.TaintPass {
			b.Fatal(r.MonitorPass, r.TaintPass, err)
		}
		writeReports(nodes, r)
	}
	for range 20 { // past the grace period: zone a is Unknown
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		step()
	}
	b.ReportMetric(n, "nodes/op")
}
