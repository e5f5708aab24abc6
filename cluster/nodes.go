package cluster

import (
	"errors"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodelifecycle"
	"github.com/podsem/podsem/termination"
)

// The kubelet's heartbeats, v1.36.3 defaults (the e2e harness's fake
// kubelet keeps them too): the node's Lease in kube-node-lease is renewed
// every NodeLeaseRenewInterval (a quarter of its 40 s duration), and the
// node status, unchanged, is posted every NodeStatusReportFrequency
// (--node-status-report-frequency). Both are computed when read rather than
// written: an unchanged post changes only heartbeat times (see
// kubelet.statusAt).
const (
	NodeLeaseRenewInterval    = 10 * time.Second
	NodeStatusReportFrequency = 5 * time.Minute
)

// SourcePodsem marks the records of state changes upstream records no
// Event for, under podsem's own documented reasons (issue 22): a pod
// force-deleted by pod GC (PodGCForceDeleted), an eviction refused with
// 429 and the budget that refused it (EvictionRefused), a taint the node
// lifecycle controller added (TaintAdded), a cascade of reactions slowed
// and come to rest (CascadeSlowed, CascadeSettled).
const SourcePodsem = "podsem"

// monitorPassDuration is how long the node lifecycle controller's monitor
// pass takes in the simulation. Upstream runs the pass with
// wait.UntilWithContext, a sliding period: the next pass starts
// --node-monitor-period after the previous one ended, so passes drift
// later by their own duration (milliseconds), and the pass k periods
// after the one that saw a node's last heartbeat is strictly more than k
// periods later. With the 50-s grace and the 5-s period, a silent node is
// marked Unknown at the 10th pass after its last renewal was seen, not the
// 11th that passes on an exact grid would need (now > probe + grace is
// false at equality).
const monitorPassDuration = time.Millisecond

// slidingMonitor is the controller's configuration with the monitor
// period stretched by monitorPassDuration (the sliding period).
func slidingMonitor(c nodelifecycle.Config) nodelifecycle.Config {
	p := c.MonitorPeriod
	if p == 0 {
		p = nodelifecycle.DefaultMonitorPeriod
	}
	c.MonitorPeriod = p + monitorPassDuration
	return c
}

// podGCConfig is pod GC's configuration in the simulation: the orphan
// quarantine is a millisecond longer than upstream's 40 s. Upstream puts a
// missing node's name in a delaying queue (AddAfter 40 s) during a pass,
// some time after the pass began, and the pass 40 s later (its period
// slides by the passes' own durations) checks the queue either before or
// just after the queue's timer goroutine has moved the entry in: a race.
// The real runs show both: the pods went at the pass 60 s after the one
// that saw the node missing in node-deleted, node-deleted@2 (67.6 s and
// 68.8 s after the Node's deletion) and healthy-node-deleted, at the pass
// 40 s after it in node-deleted@3, sts-node-deleted, ds-node-deleted,
// rs-node-deleted and pod-ghost-node; the simulation takes the first
// (taking the second, tried, moves three goldens and the node-lost
// example's story and no real run's verdict), and TestE2E's tolerance (one
// pod GC period) holds both.
func podGCConfig(c termination.GCConfig) termination.GCConfig {
	if c.Quarantine == 0 {
		c.Quarantine = termination.DefaultOrphanQuarantine + time.Millisecond
	}
	return c
}

// registerNode is the kubelet's registration of its node: the status with
// fresh conditions, as the harness's kubelet (and a real one) posts it.
func (m *Machine) registerNode(k *kubelet, now time.Time) error {
	k.leaseAnchor, k.nextLease, k.nextStatus = now, now, now
	m.leaseGen++
	k.tick(now) // the registration renews the Lease and posts the status itself
	k.forgetDeadline()
	return m.postNodeStatus(k, now)
}

// silence makes the kubelet go silent at now, its Lease left at its last
// renewal.
func (m *Machine) silence(k *kubelet, now time.Time) {
	if !k.silent {
		k.silencedLease = k.leaseAt(now, m.kubeletPhase)
		k.silencedStatus = k.statusAt(now, m.kubeletPhase)
	}
	k.silent = true
	m.leaseGen++
	k.forgetDeadline()
}

// nodeStored tells the node's kubelet which Node object the API server
// now holds (nil: none): a status check is due at its next tick when the
// kubelet neither posted nor checked it.
func (m *Machine) nodeStored(name string, n *api.Node) {
	k := m.kubelets[name]
	if k == nil {
		return
	}
	k.storedNode = n
	if !k.silent && k.ticking() {
		k.nextLease = k.pendingTick(m.now, m.kubeletPhase)
	}
	if k.q != nil {
		k.q.mark(k) // its heartbeat deadline may move; its pods' did not
	}
}

// leaseOf is the node lifecycle controller's Lease reader for nodes, the
// cache's node list at now: the Lease of nodes[i] as its kubelet's
// cadence has renewed it (kubelet.leaseAt), computed when read.
func (m *Machine) leaseOf(nodes []*api.Node, now time.Time) func(int) time.Time {
	if m.nodeClocksSet != m.cache.nodeSet || m.nodeClocksGen != m.leaseGen || len(m.nodeClocks) != len(nodes) {
		m.nodeClocks = m.nodeClocks[:0]
		for _, n := range nodes {
			c := leaseClock{silent: true, silenced: noTime, statusAnchor: noTime, silencedStatus: noTime, read: noTime} // no kubelet: no Lease
			if k := m.kubelets[n.Name]; k != nil {
				c = k.clock(m.start)
			}
			m.nodeClocks = append(m.nodeClocks, c)
		}
		m.nodeClocksSet, m.nodeClocksGen = m.cache.nodeSet, m.leaseGen
	}
	cs, base := m.nodeClocks, m.start
	off, early := now.Sub(base), m.kubeletPhase.Before(now)
	return func(i int) time.Time {
		c := &cs[i]
		if s := c.sign(off, early); s != c.read {
			c.read, c.readAt = s, atOffset(base, s)
		}
		return c.readAt // a sign moves every 10 s: most reads are the last one's
	}
}

// heartbeat writes the node's periodic status post when it is due, for a
// kubelet that writes them (eagerStatus; otherwise they are computed when
// read: kubelet.statusAt); a silent kubelet (lost node) posts none.
func (m *Machine) heartbeat(k *kubelet, now time.Time) error {
	if k.silent || !k.eagerStatus {
		return nil
	}
	if !k.nextStatus.After(now) {
		return m.postNodeStatus(k, now)
	}
	return nil
}

// runNodeLifecycle runs the node lifecycle controller when a pass is due
// and carries out its report: node status, taints, pods marked not ready,
// Events.
func (m *Machine) runNodeLifecycle(now time.Time) error {
	if d := m.nlc.NextDeadline(); !d.IsZero() && d.After(now) {
		return nil
	}
	nodes := m.cache.nodes()
	// The controller reads the leases during its step and keeps none of
	// them: the kubelets' renewals are written between steps.
	rep, err := stepMachine(m, "node-lifecycle-controller", "", m.nlc, nodelifecycle.Input{Nodes: nodes, LeaseOf: m.leaseOf(nodes, now)}, now)
	if err != nil {
		return fmt.Errorf("cluster: node lifecycle controller: %w", err)
	}
	for i := range rep.Events {
		m.rec.event(now, &rep.Events[i])
	}
	for _, h := range rep.Nodes {
		name := h.Node
		if h.Status != nil {
			st := *h.Status
			n, _ := m.cache.get("Node", name).(*api.Node)
			if n == nil {
				return fmt.Errorf("cluster: node lifecycle controller wrote the status of Node/%s, not in the cache", name)
			}
			if err := m.writeStatus("Node", name, n.UID, func(o api.Object) { o.(*api.Node).Status = st }); err != nil {
				return err
			}
		}
		for j := range h.Events {
			m.rec.event(now, &h.Events[j])
		}
		for _, u := range []nodelifecycle.TaintUpdate{h.NoSchedule, h.NoExecute} {
			if err := m.updateTaints(name, u.Added, u.Removed, now); err != nil {
				return err
			}
		}
		if h.MarkPodsNotReady {
			for _, p := range nodelifecycle.MarkPodsNotReady(name, inNodePods(m.cache, name), now) {
				cond := p.Condition
				if err := m.patchPodStatus(p.Pod.Key(), p.Pod.UID, now, func(s *api.PodStatus) { api.UpdatePodCondition(s, cond, now) }); err != nil {
					return err
				}
				e := p.Event
				m.rec.event(now, &e)
			}
		}
	}
	m.zoneRecords(rep, now)
	for _, w := range rep.Tainted {
		if err := m.updateTaints(w.Node, w.Update.Added, w.Update.Removed, now); err != nil {
			return err
		}
	}
	return nil
}

// zoneRecords records podsem's FullDisruption and ZoneStateChanged for a
// monitor pass's zone report: the controller logs these transitions and
// records no Event for them. A zone seen for the first time is recorded
// only when it is not Normal.
func (m *Machine) zoneRecords(rep nodelifecycle.Report, now time.Time) {
	if !rep.MonitorPass {
		return
	}
	rec := func(reason, msg string) {
		m.rec.add(now, Record{Component: "node-controller", Type: api.EventTypeNormal, Reason: reason, Message: msg, Source: SourcePodsem})
	}
	if rep.EnteredFullDisruption {
		rec("FullDisruption", "every zone is fully disrupted: the controller removes the NoExecute taints it added and stops tainting")
	}
	if rep.ExitedFullDisruption {
		rec("FullDisruption", "a zone has a Ready node again: every node's grace period restarts now, tainting resumes")
	}
	if m.zones == nil {
		m.zones = map[string]nodelifecycle.ZoneReport{}
	}
	for _, z := range rep.Zones {
		last, seen := m.zones[z.Key]
		m.zones[z.Key] = z
		if seen && last.State == z.State && last.Rate == z.Rate || !seen && z.State == nodelifecycle.ZoneNormal {
			continue
		}
		name := z.Zone
		if name == "" {
			name = "(no zone)"
		}
		rec("ZoneStateChanged", fmt.Sprintf("zone %s: %s, %d of %d nodes not Ready, %g NoExecute taints/s", name, z.State, z.NotReady, z.Nodes, z.Rate))
	}
}

// taintsAdded records podsem's TaintAdded for each taint the node
// lifecycle controller put on a node (upstream records no Event for it).
func (m *Machine) taintsAdded(node string, taints []api.Taint, now time.Time) {
	for _, t := range taints {
		m.rec.add(now, Record{Component: "node-controller", Type: api.EventTypeNormal, Reason: "TaintAdded", Object: "Node/" + node,
			Message: fmt.Sprintf("%s:%s", t.Key, t.Effect), Source: SourcePodsem})
	}
}

// inNodePods are the cached pods bound to node.
func inNodePods(c *store, node string) []*api.Pod { return c.podsOnNode(node) }

// updateTaints applies a taint pass's writes to the node as the API
// server holds it now, as the controller's taint helpers do (they read the
// node again and patch: AddOrUpdateTaintOnNode, RemoveTaintOffNode): the
// removed taints (by key and effect) go, the added ones replace a taint of
// the same key and effect or are appended. Applying the delta, not the
// pass's whole list, keeps a write made since the pass read the node.
//
// It records podsem's TaintAdded for each added taint the node did not
// carry (by key and effect).
func (m *Machine) updateTaints(node string, added, removed []api.Taint, now time.Time) error {
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	var fresh []api.Taint
	err := m.patchNode(node, func(n *api.Node) {
		fresh = nil
		var out []api.Taint
		for _, t := range n.Spec.Taints {
			gone := false
			for _, r := range removed {
				if r.Key == t.Key && r.Effect == t.Effect {
					gone = true
				}
			}
			if !gone {
				out = append(out, t)
			}
		}
		for _, a := range added {
			replaced := false
			for i := range out {
				if out[i].Key == a.Key && out[i].Effect == a.Effect {
					out[i], replaced = a, true
				}
			}
			if !replaced {
				out = append(out, a)
				fresh = append(fresh, a)
			}
		}
		n.Spec.Taints = out
	})
	if err != nil {
		return err
	}
	m.taintsAdded(node, fresh, now)
	return nil
}

// patchNode writes a change of a stored node; a node gone is skipped.
func (m *Machine) patchNode(node string, f func(*api.Node)) error {
	old, _ := m.store.get("Node", node).(*api.Node)
	if old == nil {
		return nil
	}
	n, err := clone(old)
	if err != nil {
		return err
	}
	f(n)
	if specEqual(n, old) {
		return nil
	}
	m.store.nextRV(&n.ObjectMeta)
	m.store.put("Node", node, n, watchModified, old)
	return nil
}

// taintEviction feeds one informer event to the taint eviction
// controller and carries out its actions.
func (m *Machine) taintEviction(ev nodelifecycle.Event, now time.Time) error {
	acts, err := stepMachine(m, "taint-eviction-controller", "", m.te, ev, now)
	if err != nil {
		return fmt.Errorf("cluster: taint eviction controller: %w", err)
	}
	for _, a := range acts {
		switch a.Kind {
		case nodelifecycle.EvictPod:
			cur, _ := m.store.get("Pod", a.Pod).(*api.Pod)
			if cur == nil {
				break
			}
			if a.DisruptionTarget != nil {
				cond := *a.DisruptionTarget
				if err := m.patchPodStatus(a.Pod, cur.UID, now, func(s *api.PodStatus) { api.UpdatePodCondition(s, cond, now) }); err != nil {
					return err
				}
			}
			if _, err := m.store.deletePod(a.Pod, nil, now); err != nil && !errors.Is(err, errNotFound) {
				return err
			}
		}
		m.rec.event(now, a.Event)
	}
	return nil
}

// runPodGC runs the pod garbage collector's pass when due: each pod it
// deletes gets its status patch, then a force delete (grace 0), and a
// PodGCForceDeleted record (podsem's own reason: podgc records no Event).
func (m *Machine) runPodGC(now time.Time) error {
	if !m.gcDue(now) {
		return nil
	}
	m.gcSeen = true
	pods := m.cache.podGCPods()
	res := stepMachine1(m, "pod-garbage-collector", "", m.gc, termination.GCInput{Pods: pods, Nodes: m.cache.nodes(), NodeExists: func(name string) bool {
		return m.store.get("Node", name) != nil
	}}, now)
	for _, a := range res.Actions {
		cur, _ := m.store.get("Pod", a.Pod).(*api.Pod)
		if cur == nil {
			continue
		}
		if a.Patched != nil {
			st := *a.Patched
			if err := m.patchPodStatus(a.Pod, cur.UID, now, func(s *api.PodStatus) { *s = st }); err != nil {
				return err
			}
		}
		g := a.GracePeriodSeconds
		if _, err := m.store.deletePod(a.Pod, &api.DeleteOptions{GracePeriodSeconds: &g}, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
		m.rec.add(now, Record{Component: "pod-garbage-collector", Type: api.EventTypeNormal, Reason: "PodGCForceDeleted",
			Object: objRef("Pod", cur.Namespace, cur.Name), Message: a.Explanation, Source: SourcePodsem})
	}
	return nil
}

// gcDue reports whether pod GC is to be stepped at now: at its deadline,
// or, when a pod or node event came since its last step, at its rhythm's
// pass time (termination.Collector.NextPass: a step between pass times
// would only look for the work the pass time finds anyway).
func (m *Machine) gcDue(now time.Time) bool {
	d := m.gcNext(now)
	return !d.IsZero() && !d.After(now)
}

// gcNext is when pod GC is next to be stepped, as seen at now: the
// earlier of its deadline and, when a pod or node event came since its
// last step, its next pass time; the zero time for not until an event.
func (m *Machine) gcNext(now time.Time) time.Time {
	d := m.gc.NextDeadline()
	if !m.gcSeen {
		d = api.EarliestDeadline(d, m.gc.NextPass(now))
	}
	return d
}

// lose silences a node's kubelet: no Lease renewal, no status, no pod
// status or deletion; its containers keep running (as the harness's lose).
func (m *Machine) lose(node string) error {
	k := m.kubelets[node]
	if k == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	m.silence(k, m.now)
	return nil
}

// restore resumes a lost node's kubelet: it renews its Lease and posts
// its status at once, then syncs every pod against the API server.
func (m *Machine) restore(node string, now time.Time) error {
	k := m.kubelets[node]
	if k == nil || m.store.get("Node", node) == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	if !k.silent {
		return nil
	}
	k.silent = false
	m.leaseGen++
	k.boot()
	for key := range k.pods {
		k.dirty[key] = true
	}
	for _, p := range inNodePods(m.cache, node) {
		k.dirty[p.Key()] = true
	}
	k.forgetDeadline()
	return m.registerNode(k, now)
}

// deleteNode silences the node's kubelet and deletes the Node object.
func (m *Machine) deleteNode(node string) error {
	if k := m.kubelets[node]; k != nil {
		m.silence(k, m.now)
	}
	return m.store.remove("Node", node)
}

// taint adds t to the node as `kubectl taint nodes <node> key=value:effect`
// does: the new taint first, then the node's others (one of the same key
// and effect is replaced). Neither kubectl nor the API server sets
// timeAdded on a Node's taint (only the node lifecycle controller does, on
// the taints it adds).
func (m *Machine) taint(node string, t api.Taint, _ time.Time) error {
	if m.store.get("Node", node) == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	return m.patchNode(node, func(n *api.Node) {
		out := []api.Taint{t}
		for _, x := range n.Spec.Taints {
			if x.Key != t.Key || x.Effect != t.Effect {
				out = append(out, x)
			}
		}
		n.Spec.Taints = out
	})
}
