// Command zone-outage answers "a whole zone went dark: when is each node
// tainted and each pod evicted?" for a cluster of three zones, four nodes
// each, two pods per node admitted with the default tolerations (300 s).
//
// The node lifecycle controller does not taint a lost zone all at once: it
// queues each node and lets one through per 10 s per zone
// (--node-eviction-rate), fewer or none when a large share of a zone is
// down, and none at all when every zone is down — then the control plane,
// not the nodes, is the likely culprit. The program replays two outages
// with podsem's public API only:
//
//   - zone-a loses contact at t=0 while zone-b and zone-c stay healthy
//     (nodelifecycle.Controller, nodelifecycle.TaintEviction);
//   - every node loses contact at t=0, and zone-a's network comes back at
//     t=180 s while zone-b and zone-c stay cut off.
//
// Run it with
//
//	go run ./examples/zone-outage
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/nodelifecycle"
)

var t0 = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

// cluster is what the API server holds, and the two controllers.
type cluster struct {
	nodes     []*api.Node
	pods      []*api.Pod
	lifecycle *nodelifecycle.Controller
	evictor   *nodelifecycle.TaintEviction
	evicted   map[string]int                      // node -> pods deleted by taint eviction
	zones     map[string]nodelifecycle.ZoneReport // as last reported
}

func newCluster() *cluster {
	c := &cluster{
		lifecycle: new(nodelifecycle.Controller), // the zero value: v1.36.3's defaults
		evictor:   nodelifecycle.NewTaintEviction(),
		evicted:   map[string]int{},
		zones:     map[string]nodelifecycle.ZoneReport{},
	}
	for _, zone := range []string{"a", "b", "c"} {
		for i := 1; i <= 4; i++ {
			name := fmt.Sprintf("%s-%d", zone, i)
			c.nodes = append(c.nodes, &api.Node{
				ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
					api.LabelTopologyRegion: "eu-west", api.LabelTopologyZone: "zone-" + zone}},
				Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
					LastHeartbeatTime: api.NewTime(t0.Add(-time.Minute)), LastTransitionTime: api.NewTime(t0.Add(-time.Hour))}}},
			})
			for j := 1; j <= 2; j++ {
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%s-%d", name, j), Namespace: "shop"}}
				p.Spec.NodeName = name
				p.Spec.Tolerations = admission.DefaultTolerations(p, admission.TolerationSeconds{})
				p.Status.Phase = api.PodRunning
				c.pods = append(c.pods, p)
				c.evict(nodelifecycle.PodUpdated(p), t0)
			}
		}
	}
	for _, n := range c.nodes {
		c.evict(nodelifecycle.NodeUpdated(n), t0)
	}
	return c
}

// evict feeds the taint eviction controller one event.
func (c *cluster) evict(ev nodelifecycle.Event, now time.Time) []nodelifecycle.TaintEvictionAction {
	acts, err := c.evictor.Step(ev, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return acts
}

// next is the earlier of the two controllers' deadlines (the node
// lifecycle controller always has one: its next monitor pass).
func (c *cluster) next() time.Time {
	next := c.lifecycle.NextDeadline()
	if e := c.evictor.NextDeadline(); !e.IsZero() && e.Before(next) {
		next = e
	}
	return next
}

// run replays the cluster from t0 to end, jumping from one controller
// deadline to the next: lost reports whether a node's kubelet is silent at
// a time. Kubelets come back only at monitor passes, which are deadlines.
func (c *cluster) run(end time.Duration, lost func(node string, d time.Duration) bool) {
	for now := t0; now.Sub(t0) <= end; now = c.next() {
		d := now.Sub(t0)
		leases := map[string]time.Time{}
		var back []string
		for i, n := range c.nodes {
			leases[n.Name] = now
			if lost(n.Name, d) {
				leases[n.Name] = t0
				continue
			}
			// A kubelet that is back posts Ready again.
			if r := n.FindCondition(api.NodeReady); r != nil && r.Status != api.ConditionTrue {
				m := *n
				m.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
					Reason: "KubeletReady", LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}}
				c.nodes[i] = &m
				back = append(back, n.Name)
			}
		}
		if len(back) > 0 {
			c.logf(d, "the kubelets post Ready again: %s", strings.Join(back, " "))
		}
		r, err := c.lifecycle.Step(nodelifecycle.Input{Nodes: c.nodes, Leases: leases}, now)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var unknown []string
		for i, rep := range r.Nodes {
			if rep.Status != nil && rep.CurrentReady.Status == api.ConditionUnknown {
				unknown = append(unknown, c.nodes[i].Name)
			}
			c.write(i, rep.Status, rep.Taints, rep.NoExecute, d)
		}
		if len(unknown) > 0 {
			c.logf(d, "Ready=Unknown (no sign of life for 50 s): %s", strings.Join(unknown, " "))
		}
		if r.EnteredFullDisruption {
			c.logf(d, "every zone is fully disrupted: NoExecute taints come off, tainting stops")
		}
		if r.ExitedFullDisruption {
			c.logf(d, "a zone has a Ready node again: every node's grace period restarts now")
		}
		for _, z := range r.Zones {
			last, seen := c.zones[z.Zone]
			c.zones[z.Zone] = z
			if seen && (last.State != z.State || last.Rate != z.Rate) {
				c.logf(d, "%s: %s, %d of %d nodes not Ready, %g NoExecute taints/s", z.Zone, z.State, z.NotReady, z.Nodes, z.Rate)
			}
		}
		for _, w := range r.Tainted {
			i := slices.IndexFunc(c.nodes, func(n *api.Node) bool { return n.Name == w.Node })
			c.write(i, nil, w.Update.Taints, w.Update, d)
		}
		for _, a := range c.evict(nodelifecycle.Tick(), now) {
			if a.Kind != nodelifecycle.EvictPod {
				continue
			}
			i := slices.IndexFunc(c.pods, func(p *api.Pod) bool { return p.Namespace+"/"+p.Name == a.Pod })
			p := *c.pods[i]
			p.DeletionTimestamp = api.NewTimePtr(now)
			c.pods[i] = &p
			c.evict(nodelifecycle.PodUpdated(&p), now)
			c.evicted[p.Spec.NodeName]++
			if c.evicted[p.Spec.NodeName] == 2 {
				c.logf(d, "%s: both its pods deleted by taint eviction (300 s after the taint)", p.Spec.NodeName)
			}
		}
	}
}

// write stores node i's new status and taints and tells taint eviction.
func (c *cluster) write(i int, st *api.NodeStatus, taints []api.Taint, u nodelifecycle.TaintUpdate, d time.Duration) {
	if st == nil && !u.Changed() {
		return
	}
	m := *c.nodes[i]
	if st != nil {
		m.Status = *st
	}
	m.Spec.Taints = taints
	c.nodes[i] = &m
	for _, t := range u.Added {
		if t.Effect == api.TaintEffectNoExecute {
			c.logf(d, "%s: tainted %s:NoExecute", m.Name, t.Key)
		}
	}
	for _, t := range u.Removed {
		if t.Effect == api.TaintEffectNoExecute {
			c.logf(d, "%s: %s:NoExecute removed", m.Name, t.Key)
		}
	}
	for _, a := range c.evict(nodelifecycle.NodeUpdated(&m), t0.Add(d)) {
		if a.Kind == nodelifecycle.CancelEviction {
			c.logf(d, "taint eviction: %s's deletion cancelled", strings.TrimPrefix(a.Pod, "shop/"))
		}
	}
}

func (c *cluster) logf(d time.Duration, format string, args ...any) {
	fmt.Printf("t=%5.1fs  %s\n", d.Seconds(), fmt.Sprintf(format, args...))
}

func main() {
	fmt.Println("Outage 1: zone-a's four nodes lose contact at t=0; zone-b and zone-c stay healthy.")
	fmt.Println()
	c := newCluster()
	c.run(7*time.Minute, func(node string, _ time.Duration) bool { return strings.HasPrefix(node, "a-") })
	fmt.Println()
	fmt.Println("zone-a has no Ready node (FullDisruption) but the other zones do, so it keeps the")
	fmt.Println("normal rate: one node every 10 s, and each node's pods go 300 s after its taint.")
	fmt.Println()
	fmt.Println("Outage 2: every node loses contact at t=0 (a partition around the control plane?);")
	fmt.Println("zone-a's network comes back at t=180 s, zone-b's and zone-c's do not.")
	fmt.Println()
	c = newCluster()
	c.run(9*time.Minute, func(node string, d time.Duration) bool {
		return !strings.HasPrefix(node, "a-") || d < 180*time.Second
	})
	fmt.Println()
	fmt.Println("With every zone down the controller blames itself and taints nothing. Once zone-a is")
	fmt.Println("back, the others are zones without a Ready node among healthy ones: tainting resumes")
	fmt.Println("at the normal rate, from an empty bucket, in each zone.")
}
