package disruption_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// Zone a's three nodes lose contact at 10:00:00 while zone b stays
// healthy. The controller marks them Unknown at 10:00:55 and queues them at
// the next monitor pass; zone a is fully disrupted, which keeps the
// eviction rate of one node per 10 s, so the NoExecute taints — and with
// them the pods' eviction clocks — come 10 s apart.
func ExampleNodeLifecycle() {
	var nodes []*api.Node
	for _, name := range []string{"a-1", "a-2", "a-3", "b-1", "b-2", "b-3"} {
		nodes = append(nodes, &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelTopologyZone: name[:1]}},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{
				{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(lostAt)},
			}},
		})
	}
	c := disruption.NewNodeLifecycle(disruption.NodeLifecycleConfig{})
	write := func(i int, st *api.NodeStatus, taints []api.Taint) {
		n := *nodes[i]
		if st != nil {
			n.Status = *st
		}
		n.Spec.Taints = taints
		nodes[i] = &n
	}
	for d := time.Duration(0); d <= 2*time.Minute; d += disruption.DefaultNodeEvictionPeriod {
		now := lostAt.Add(d)
		if d%disruption.DefaultNodeMonitorPeriod == 0 {
			leases := map[string]time.Time{}
			for _, n := range nodes {
				leases[n.Name] = now // zone b's kubelets renew their leases
				if n.Name[0] == 'a' {
					leases[n.Name] = lostAt
				}
			}
			pass, _ := c.MonitorPass(nodes, leases, now)
			for i, rep := range pass.Nodes {
				if rep.Status != nil {
					fmt.Printf("%s %s Ready=%s\n", now.Format(time.TimeOnly), nodes[i].Name, rep.CurrentReady.Status)
				}
				write(i, rep.Status, rep.Taints)
			}
			for _, z := range pass.Zones {
				if z.Zone == "a" && z.State == disruption.ZoneFullDisruption && d == 55*time.Second {
					fmt.Printf("%s zone a %s, %g taints/s\n", now.Format(time.TimeOnly), z.State, z.Rate)
				}
			}
		}
		results, _ := c.TaintPass(nodes, now)
		for _, r := range results {
			for i, n := range nodes {
				if n.Name == r.Node {
					write(i, nil, r.Update.Taints)
				}
			}
			fmt.Printf("%s %s tainted %s:%s\n", now.Format(time.TimeOnly), r.Node, r.Update.Added[0].Key, r.Update.Added[0].Effect)
		}
	}
	// Output:
	// 10:00:55 a-1 Ready=Unknown
	// 10:00:55 a-2 Ready=Unknown
	// 10:00:55 a-3 Ready=Unknown
	// 10:00:55 zone a FullDisruption, 0.1 taints/s
	// 10:01:00 a-1 tainted node.kubernetes.io/unreachable:NoExecute
	// 10:01:10 a-2 tainted node.kubernetes.io/unreachable:NoExecute
	// 10:01:20 a-3 tainted node.kubernetes.io/unreachable:NoExecute
}
