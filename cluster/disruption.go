package cluster

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// evict serves the pods/eviction subresource for the pod key as the API
// server does, through disruption.Evict with every budget it holds: on
// 201 the pod gets the DisruptionTarget condition, the budget its new
// status, and the pod is deleted with the decision's options (the
// resourceVersion precondition being the pod's as just updated); a
// refusal changes nothing. A pod that does not exist is a 404 decision.
//
// Requests made at one instant are concurrent, as kubectl drain's
// per-pod goroutines are: each read the budgets as they were before the
// instant. A request whose read would have let it charge a budget that
// an earlier request of the same instant has charged loses the write
// race (a resourceVersion conflict): the API server tries it again
// disruption.EvictionConflictRetry later, and conflict reports it, with
// no decision yet. A retry (retry set) is decided on the budgets as they
// then are: the retries' jitter keeps them apart upstream.
func (m *Machine) evict(namespace, name string, opts *api.DeleteOptions, retry bool, now time.Time) (d disruption.EvictionDecision, conflict bool, err error) {
	key := namespace + "/" + name
	pod, _ := m.store.get("Pod", key).(*api.Pod)
	var pdbs []*api.PodDisruptionBudget
	for _, o := range m.store.list("PodDisruptionBudget") {
		pdbs = append(pdbs, o.(*api.PodDisruptionBudget))
	}
	ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace}, DeleteOptions: opts}
	d = callPure5(m, "disruption.Evict", disruption.Evict, pod, ev, pdbs, disruption.EvictOptions{}, now)
	if !retry {
		if before, charged := m.budgetChargedAt(namespace, d.Budget, now); charged {
			// The request read the budget before this instant's charge.
			stale := slices.Clone(pdbs)
			for i, b := range stale {
				if b != nil && b.Namespace == namespace && b.Name == d.Budget {
					stale[i] = before
				}
			}
			read := callPure5(m, "disruption.Evict", disruption.Evict, pod, ev, stale, disruption.EvictOptions{}, now)
			switch {
			case read.Allowed && read.BudgetUpdated:
				return disruption.EvictionDecision{}, true, nil
			case !read.Allowed:
				return read, false, nil
			}
		}
	}
	if !d.Allowed || d.DryRun {
		return d, false, nil
	}
	if d.BudgetUpdated && d.BudgetStatus != nil {
		st := *d.BudgetStatus
		pdbKey := namespace + "/" + d.Budget
		if pdb, _ := m.store.get("PodDisruptionBudget", pdbKey).(*api.PodDisruptionBudget); pdb != nil {
			if w := m.evictCharges[pdbKey]; !w.at.Equal(now) {
				m.evictCharges[pdbKey] = budgetCharge{at: now, before: pdb}
			}
			if err := m.writeStatus("PodDisruptionBudget", pdbKey, pdb.UID, func(o api.Object) {
				o.(*api.PodDisruptionBudget).Status = st
			}); err != nil {
				return d, false, err
			}
		}
	}
	if !d.Deleted || pod == nil {
		return d, false, nil
	}
	if d.DisruptionTarget != nil {
		cond := *d.DisruptionTarget
		if err := m.patchPodStatus(key, pod.UID, now, func(s *api.PodStatus) { api.UpdatePodCondition(s, cond, now) }); err != nil {
			return d, false, err
		}
	}
	delOpts := d.DeleteOptions
	if delOpts != nil && delOpts.Preconditions != nil && delOpts.Preconditions.ResourceVersion != nil {
		cp := *delOpts
		pre := *cp.Preconditions
		if cur, _ := m.store.get("Pod", key).(*api.Pod); cur != nil {
			rv := cur.ResourceVersion
			pre.ResourceVersion = &rv
		}
		cp.Preconditions = &pre
		delOpts = &cp
	}
	if _, err := m.store.deletePod(key, delOpts, now); err != nil && !errors.Is(err, errNotFound) {
		return d, false, err
	}
	return d, false, nil
}

// budgetCharge is an eviction's charge of a budget: the instant, and the
// budget as it was before the instant's first charge.
type budgetCharge struct {
	at     time.Time
	before *api.PodDisruptionBudget
}

// budgetChargedAt returns the budget namespace/name as it was before now
// when an eviction charged it at now.
func (m *Machine) budgetChargedAt(namespace, name string, now time.Time) (*api.PodDisruptionBudget, bool) {
	if name == "" {
		return nil, false
	}
	w, ok := m.evictCharges[namespace+"/"+name]
	if !ok || !w.at.Equal(now) {
		return nil, false
	}
	return w.before, true
}

// runDisruption is the disruption controller: each budget marked dirty
// (its own change, a pod or workload change in its namespace) or whose
// disruptedPods entry expires is synced with disruption.Evaluate, and its
// status written when it changed, with the Events the sync records.
func (m *Machine) runDisruption(now time.Time) error {
	for key, at := range m.pdbRecheck {
		if !at.After(now) {
			m.pdbDirty[key] = true
			delete(m.pdbRecheck, key)
		}
	}
	if len(m.pdbDirty) == 0 {
		return nil
	}
	for _, key := range takeMarked(m.pdbDirty) {
		pdb, _ := m.cache.get("PodDisruptionBudget", key).(*api.PodDisruptionBudget)
		if pdb == nil {
			delete(m.pdbRecheck, key)
			continue
		}
		ns := pdb.Namespace
		ctrls := disruption.Controllers{
			ReplicaSets:  inNamespace[*api.ReplicaSet](m.cache, "ReplicaSet", ns),
			Deployments:  inNamespace[*api.Deployment](m.cache, "Deployment", ns),
			StatefulSets: inNamespace[*api.StatefulSet](m.cache, "StatefulSet", ns),
		}
		st, res := callPure4x2(m, "disruption.Evaluate", disruption.Evaluate, pdb, inNamespace[*api.Pod](m.cache, "Pod", ns), ctrls, now)
		for i := range res.Events {
			m.rec.event(now, &res.Events[i])
		}
		if !res.RecheckAt.IsZero() {
			m.pdbRecheck[key] = res.RecheckAt
		}
		if err := m.writeStatus("PodDisruptionBudget", key, pdb.UID, func(o api.Object) {
			o.(*api.PodDisruptionBudget).Status = st
		}); err != nil {
			return fmt.Errorf("cluster: disruption controller: %w", err)
		}
	}
	return nil
}

// pdbDirtyForPod marks the budget a pod event concerns, as the disruption
// controller's pod handlers do (getPdbForPod: disruption.BudgetForPod):
// one of those of the pod's namespace that select it, recording the
// controller's Warning on the pod when several do. Only pod and budget
// events reach the controller upstream; workloads are read through
// listers at each sync.
func (m *Machine) pdbDirtyForPod(p *api.Pod, now time.Time) {
	pdbs := inNamespace[*api.PodDisruptionBudget](m.cache, "PodDisruptionBudget", p.Namespace)
	if len(pdbs) == 0 {
		return
	}
	pdb, ev := disruption.BudgetForPod(p, pdbs)
	if pdb != nil {
		m.pdbDirty[objectKey(&pdb.ObjectMeta)] = true
	}
	if ev != nil {
		m.rec.event(now, ev)
	}
}
