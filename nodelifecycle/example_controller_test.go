package nodelifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodelifecycle"
)

// Zone a's three nodes lose contact at 10:00:00 while zone b stays
// healthy. The controller marks them Unknown at 10:00:55 and queues them in
// the same monitor pass; zone a is fully disrupted, which keeps the
// eviction rate of one node per 10 s, so the NoExecute taints — and with
// them the pods' eviction clocks — come 10 s apart. The caller steps the
// controller only at its deadlines: every monitor pass, and the tainting
// ticks at which a queued zone has a token.
func ExampleController() {
	var nodes []*api.Node
	for _, name := range []string{"a-1", "a-2", "a-3", "b-1", "b-2", "b-3"} {
		nodes = append(nodes, &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelTopologyZone: name[:1]}},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{
				{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(lostAt)},
			}},
		})
	}
	c, err := nodelifecycle.NewController(nodelifecycle.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	write := func(name string, st *api.NodeStatus, taints []api.Taint) {
		for i, n := range nodes {
			if n.Name == name {
				m := *n
				if st != nil {
					m.Status = *st
				}
				m.Spec.Taints = taints
				nodes[i] = &m
			}
		}
	}
	for now := lostAt; now.Sub(lostAt) <= 2*time.Minute; now = c.NextDeadline() {
		leases := map[string]time.Time{}
		for _, n := range nodes {
			leases[n.Name] = now // zone b's kubelets renew their leases
			if n.Name[0] == 'a' {
				leases[n.Name] = lostAt
			}
		}
		r, err := c.Step(nodelifecycle.Input{Nodes: nodes, Leases: leases}, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, rep := range r.Nodes {
			if rep.Status != nil {
				fmt.Printf("%s %s Ready=%s\n", now.Format(time.TimeOnly), rep.Node, rep.CurrentReady.Status)
			}
			write(rep.Node, rep.Status, rep.Taints)
		}
		for _, z := range r.Zones {
			if z.Zone == "a" && z.State == nodelifecycle.ZoneFullDisruption && now.Sub(lostAt) == 55*time.Second {
				fmt.Printf("%s zone a %s, %g taints/s\n", now.Format(time.TimeOnly), z.State, z.Rate)
			}
		}
		for _, w := range r.Tainted {
			write(w.Node, nil, w.Update.Taints)
			fmt.Printf("%s %s tainted %s:%s\n", now.Format(time.TimeOnly), w.Node, w.Update.Added[0].Key, w.Update.Added[0].Effect)
		}
	}
	// Output:
	// 10:00:55 a-1 Ready=Unknown
	// 10:00:55 a-2 Ready=Unknown
	// 10:00:55 a-3 Ready=Unknown
	// 10:00:55 zone a FullDisruption, 0.1 taints/s
	// 10:00:55 a-1 tainted node.kubernetes.io/unreachable:NoExecute
	// 10:01:05 a-2 tainted node.kubernetes.io/unreachable:NoExecute
	// 10:01:15 a-3 tainted node.kubernetes.io/unreachable:NoExecute
}
