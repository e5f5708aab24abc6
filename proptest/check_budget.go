package proptest

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// CheckEvictionsRespectBudgets checks the PodDisruptionBudget guarantee
// for a burst of evictions — what a drain, a descheduler or a chaos tool
// decides to evict in one go: evictions never take a budget below its
// floor. Each budget is first synced as the disruption controller syncs it
// (disruption.Evaluate over pods and the controllers' scales, at now);
// then the pods named in evicted ("namespace/name", in order) are evicted
// one after another as the Eviction API does (disruption.Evict), each
// accepted eviction charging its budget and leaving its pod terminating.
// Every eviction must be accepted: one the API would refuse (the budget
// has no disruption left, the pod is guarded by several budgets, an
// unhealthy pod under a budget that is itself short) is the violation.
//
// pdbs and pods are not modified. The error wraps ErrViolation and names
// the pod, the budget and the API's answer; an evicted name that is not
// among pods, or a nil budget or pod, wraps api.ErrInvalidInput.
func CheckEvictionsRespectBudgets(pdbs []*api.PodDisruptionBudget, pods []*api.Pod, evicted []string, ctrl disruption.Controllers, now time.Time) error {
	byKey := make(map[string]int, len(pods))
	for i, p := range pods {
		if p == nil {
			return fmt.Errorf("%w: pods[%d]: nil", errInvalidInput, i)
		}
		byKey[p.Key()] = i
	}
	current := make([]*api.PodDisruptionBudget, len(pdbs))
	for i, b := range pdbs {
		if b == nil {
			return fmt.Errorf("%w: pdbs[%d]: nil", errInvalidInput, i)
		}
		synced := *b
		synced.Status, _ = disruption.Evaluate(b, pods, ctrl, now)
		current[i] = &synced
	}
	live := append([]*api.Pod(nil), pods...)
	for _, key := range evicted {
		i, ok := byKey[key]
		if !ok {
			return fmt.Errorf("%w: evicted pod %q is not among the pods", errInvalidInput, key)
		}
		p := live[i]
		ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		d := disruption.Evict(p, ev, current, disruption.EvictOptions{}, now)
		if !d.Allowed {
			return fmt.Errorf("%w: evicting %s: the Eviction API answers %d: %s", ErrViolation, key, d.Code, d.Message)
		}
		if d.BudgetUpdated {
			for j, b := range current {
				if b.Name == d.Budget && b.Namespace == p.Namespace {
					charged := *b
					charged.Status = *d.BudgetStatus
					current[j] = &charged
				}
			}
		}
		if p.DeletionTimestamp == nil {
			gone := *p
			gone.DeletionTimestamp = api.NewTimePtr(now)
			live[i] = &gone
		}
	}
	return nil
}
