package cluster

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// DefaultSettleTimeout is how long Run lets the scenario's objects settle
// before t=0, the e2e harness's --settle-timeout default.
const DefaultSettleTimeout = 4 * time.Minute

// Unsettled says why the cluster is not in the steady state the e2e
// harness waits for before t=0 (its runner's settle step), "" when it is:
// no slowed cascade of reactions is running (cascade.go),
// no node carries the not-ready taint, every pod is Ready and none is
// terminating, every Deployment has observed its generation with every
// replica updated and available, every ReplicaSet and StatefulSet has
// observed its generation with every replica ready, every DaemonSet has
// observed its generation with every scheduled pod ready, every
// PersistentVolumeClaim is Bound, every budget has observed its
// generation. (The harness's leader-lease check has no counterpart: the
// simulated components lead from the start.)
func (m *Machine) Unsettled() string {
	if m == nil {
		return ""
	}
	if !m.slow.next.IsZero() {
		return "a cascade of reactions is still running"
	}
	for _, o := range m.store.list("Node") {
		n := o.(*api.Node)
		for _, t := range n.Spec.Taints {
			if t.Key == api.TaintNodeNotReady {
				return "node " + n.Name + " still has " + t.Key
			}
		}
	}
	for _, p := range m.store.pods() {
		if p.DeletionTimestamp != nil {
			return "pod " + p.Name + " terminating"
		}
		if !api.IsPodReady(p) {
			return "pod " + p.Name + " not ready"
		}
	}
	for _, o := range m.store.list("Deployment") {
		d := o.(*api.Deployment)
		want := desiredReplicas(d.Spec.Replicas)
		if s := d.Status; s.ObservedGeneration < d.Generation || s.AvailableReplicas != want || s.UpdatedReplicas != want || s.Replicas != want {
			return "deployment " + d.Name
		}
	}
	for _, o := range m.store.list("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		if rs.Status.ObservedGeneration < rs.Generation || rs.Status.ReadyReplicas != desiredReplicas(rs.Spec.Replicas) {
			return "replicaset " + rs.Name
		}
	}
	for _, o := range m.store.list("StatefulSet") {
		ss := o.(*api.StatefulSet)
		if ss.Status.ObservedGeneration < ss.Generation || ss.Status.ReadyReplicas != desiredReplicas(ss.Spec.Replicas) {
			return "statefulset " + ss.Name
		}
	}
	for _, o := range m.store.list("DaemonSet") {
		ds := o.(*api.DaemonSet)
		if ds.Status.ObservedGeneration < ds.Generation || ds.Status.NumberReady != ds.Status.DesiredNumberScheduled {
			return "daemonset " + ds.Name
		}
	}
	for _, o := range m.store.list("PersistentVolumeClaim") {
		c := o.(*api.PersistentVolumeClaim)
		if c.Status.Phase != api.ClaimBound {
			return "pvc " + c.Name
		}
	}
	for _, o := range m.store.list("PodDisruptionBudget") {
		p := o.(*api.PodDisruptionBudget)
		if p.Status.ObservedGeneration < p.Generation {
			return "pdb " + p.Name
		}
	}
	return ""
}

// desiredReplicas is spec.replicas as the API server defaults it (1 when unset).
func desiredReplicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// settleBefore steps the machine from deadline to deadline until it is
// settled (Unsettled is "") or timeout has passed since its start, and
// returns t=0: the first instant it is settled, or the timeout's end with
// the reason it is not.
func (m *Machine) settleBefore(timeout time.Duration) (time.Time, string, []Record, error) {
	var log []Record
	end := m.now.Add(timeout)
	for {
		why := m.Unsettled()
		if why == "" {
			return m.now, "", log, nil
		}
		d := m.NextDeadline()
		if d.IsZero() || d.After(end) {
			if end.After(m.now) {
				out, err := m.Step(Tick(), end)
				log = append(log, out.Records...)
				if err != nil {
					return time.Time{}, "", log, err
				}
				if why = m.Unsettled(); why == "" {
					return m.now, "", log, nil
				}
			}
			return m.now, fmt.Sprintf("not settled after %v: %s", timeout, why), log, nil
		}
		out, err := m.Step(Tick(), d)
		log = append(log, out.Records...)
		if err != nil {
			return time.Time{}, "", log, err
		}
	}
}
