package nodelifecycle

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// A monitor pass does not look again in full at a node listed as the same
// object whose last look changed nothing (knownNode.quiet). Over random
// clusters whose nodes are lost, come back, turn NotReady, lose their
// Ready condition or are deleted, under random rates and thresholds, that
// controller and one looking at every node in full at every pass write the
// same statuses and taints at the same times, report the same passes,
// keep the same memory of every node (probe time, lease, Ready condition,
// tainting set) and the same tainting queues, and name the same deadlines;
// leases read by position (Input.LeaseOf) or by name (Input.Leases) are
// the same leases.
func TestControllerQuietNodesMatchFullLooks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		scripts := drawScripts(t)
		cfg := drawConfig(t)
		const end = 4 * time.Minute

		wa, ca := newWorld(scripts), mustController(cfg)
		wb, cb := newWorld(scripts), mustController(cfg)
		cb.lookAll = true
		for now := t0; now.Sub(t0) <= end; now = ca.NextDeadline() {
			d := now.Sub(t0)
			if d%DefaultMonitorPeriod == 0 {
				wa.advance(int(d / time.Second))
				wb.advance(int(d / time.Second))
			}
			// The quiet controller reads the leases by position (LeaseOf),
			// the other by name.
			nodes := wa.nodes
			ra, err := ca.Step(Input{Nodes: nodes, LeaseOf: func(i int) time.Time { return wa.leases[nodes[i].Name] }}, now)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := cb.Step(Input{Nodes: wb.nodes, Leases: wb.leases}, now)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rb, ra, cmp.AllowUnexported(Report{})); diff != "" {
				t.Fatalf("at %v: the report differs from looking at every node (-full +quiet):\n%s", d, diff)
			}
			wa.apply(ra, d)
			wb.apply(rb, d)
			if diff := cmp.Diff(memory(cb), memory(ca)); diff != "" {
				t.Fatalf("at %v: the controller's memory differs from looking at every node (-full +quiet):\n%s", d, diff)
			}
			if !ca.NextDeadline().Equal(cb.NextDeadline()) {
				t.Fatalf("at %v: next deadline %v, looking at every node %v", d, ca.NextDeadline(), cb.NextDeadline())
			}
		}
	})
}

// memory renders what the controller keeps about each node and zone.
func memory(c *Controller) []string {
	// A quiet pass keeps a node's newest lease and probe time in its row
	// until the node is looked at again (quietRow.dirty).
	newer := map[*knownNode]*quietRow{}
	for i := range c.rows {
		if r := &c.rows[i]; r.dirty {
			newer[r.k] = r
		}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(c.monitor.nodes)) {
		h := c.monitor.nodes[name]
		probe, lease := h.probe, h.lease
		if r := newer[c.known[name]]; r != nil {
			probe, lease = r.probe, r.lease
		}
		out = append(out, fmt.Sprintf("node %s probe=%v transition=%v lease=%v tainted=%v ready=%+v",
			name, probe.Sub(t0), h.readyTransition.Sub(t0), lease, h.tainted, h.ready))
	}
	for _, k := range slices.Sorted(maps.Keys(c.tainter)) {
		z := c.tainter[k]
		var queue []string
		for q := z.first; q != nil; q = q.next {
			if z.live[q.node] != q {
				panic("a queued entry not live")
			}
			queue = append(queue, fmt.Sprintf("%s@%v", q.node, q.processAt.Sub(t0)))
		}
		if len(queue) != len(z.live) {
			panic("live entries not queued")
		}
		out = append(out, fmt.Sprintf("zone %s state=%s qps=%g set=%v queue=%v", k, c.states[k], z.limiter.qps, slices.Sorted(maps.Keys(z.set)), queue))
	}
	return out
}
