package workloads

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
)

// daemonSetAllowsSurge is daemon/util AllowsSurge: a RollingUpdate
// DaemonSet whose maxSurge scales to more than zero (DaemonSetUpdateSurge
// is GA).
func daemonSetAllowsSurge(ds *api.DaemonSet) bool {
	n, err := daemonSetSurgeCount(ds, 1)
	return err == nil && n > 0
}

// daemonSetSurgeCount is daemon/util SurgeCount: maxSurge of total,
// percentages rounded up; 0 unless the strategy is RollingUpdate with a
// maxSurge.
func daemonSetSurgeCount(ds *api.DaemonSet, total int) (int, error) {
	r := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || r == nil || r.MaxSurge == nil {
		return 0, nil
	}
	return api.ScaledValueFromIntOrPercent(r.MaxSurge, total, true)
}

// daemonSetUnavailableCount is daemon/util UnavailableCount: maxUnavailable
// of total, percentages rounded up; 0 unless the strategy is RollingUpdate.
func daemonSetUnavailableCount(ds *api.DaemonSet, total int) (int, error) {
	r := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || r == nil {
		return 0, nil
	}
	return api.ScaledValueFromIntOrPercent(r.MaxUnavailable, total, true)
}

// findUpdatedPodsOnNode returns a node's one new-template and one
// old-template pod among those not being deleted; ok is false when there
// are several of either (the manage loop prunes them first).
func (s *daemonSync) findUpdatedPodsOnNode(pods []*api.Pod) (newPod, oldPod *api.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if s.isPodUpdated(p) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// rollingUpdate is the controller's rollingUpdate (update.go), run only
// when manage had nothing to do. Upstream walks its node-to-pods map in
// map order; here the nodes come in node-list order, then nodes that are
// gone, by name.
func (s *daemonSync) rollingUpdate() error {
	desired := 0
	type nodePods struct {
		name  string
		pods  []*api.Pod
		place *DaemonPlacement
	}
	var walk []nodePods
	seen := map[string]bool{}
	for i, n := range s.nodes {
		seen[n.Name] = true
		pods, exists := s.byNode[n.Name]
		if s.place[i].ShouldRun {
			desired++
		} else if !exists {
			continue
		}
		walk = append(walk, nodePods{n.Name, pods, &s.place[i]})
	}
	var gone []string
	for n := range s.byNode {
		if !seen[n] {
			gone = append(gone, n)
		}
	}
	slices.Sort(gone)
	for _, n := range gone {
		walk = append(walk, nodePods{n, s.byNode[n], nil})
	}

	maxUnavailable, err := daemonSetUnavailableCount(s.ds, desired)
	if err != nil {
		return fmt.Errorf("daemonset %s/%s: invalid value for MaxUnavailable: %w", s.ds.Namespace, s.ds.Name, err)
	}
	maxSurge, err := daemonSetSurgeCount(s.ds, desired)
	if err != nil {
		return fmt.Errorf("daemonset %s/%s: invalid value for MaxSurge: %w", s.ds.Namespace, s.ds.Name, err)
	}
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1 // an impossible configuration falls back to one unavailable
	}
	minReady := s.ds.Spec.MinReadySeconds
	available := func(p *api.Pod) bool { return api.IsPodAvailable(p, minReady, s.now) }
	deleteOld := func(p *api.Pod, node string) DaemonPodDelete {
		return DaemonPodDelete{Pod: p, Node: node, Reason: DaemonDeleteRollingUpdate}
	}

	if maxSurge == 0 {
		// Delete just enough old pods to stay within maxUnavailable; the
		// manage loop of a later sync creates their replacements.
		numUnavailable := 0
		var replace, candidates []DaemonPodDelete
		for _, np := range walk {
			newPod, oldPod, ok := s.findUpdatedPodsOnNode(np.pods)
			switch {
			case !ok:
				numUnavailable++
			case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
			case newPod != nil:
				if !available(newPod) {
					numUnavailable++
				}
			case !available(oldPod):
				replace = append(replace, deleteOld(oldPod, np.name))
				numUnavailable++
			case numUnavailable >= maxUnavailable:
			default:
				candidates = append(candidates, deleteOld(oldPod, np.name))
			}
		}
		remaining := min(max(maxUnavailable-numUnavailable, 0), len(candidates))
		s.syncNodes(nil, append(replace, candidates[:remaining]...))
		return nil
	}

	// Surging: a new pod beside an old one where the old is unavailable,
	// and for up to maxSurge available old ones; an old pod goes once its
	// node's new pod is available.
	var oldToDelete, notRunToDelete []DaemonPodDelete
	var allowedNew, candidateNew []string
	numSurge, numAvailable := 0, 0
	for _, np := range walk {
		newPod, oldPod, ok := s.findUpdatedPodsOnNode(np.pods)
		if !ok {
			numSurge++
			continue
		}
		if oldPod != nil {
			if available(oldPod) {
				numAvailable++
			}
		} else if newPod != nil && available(newPod) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			if np.place == nil {
				return fmt.Errorf("daemonset %s/%s: couldn't get node for nodeName %q: not found", s.ds.Namespace, s.ds.Name, np.name)
			}
			switch {
			case !available(oldPod):
				if !np.place.ShouldRun {
					oldToDelete = append(oldToDelete, deleteOld(oldPod, np.name))
					continue
				}
				allowedNew = append(allowedNew, np.name)
			default:
				if !np.place.ShouldRun {
					notRunToDelete = append(notRunToDelete, deleteOld(oldPod, np.name))
					continue
				}
				if numSurge >= maxSurge {
					continue
				}
				candidateNew = append(candidateNew, np.name)
			}
		default:
			if !available(newPod) {
				numSurge++
				continue
			}
			oldToDelete = append(oldToDelete, deleteOld(oldPod, np.name))
		}
	}
	// Pods on nodes that should no longer run them go only while enough
	// others are available.
	if deletable := min(numAvailable-desired, len(notRunToDelete)); deletable > 0 {
		oldToDelete = append(oldToDelete, notRunToDelete[:deletable]...)
	}
	remaining := min(max(maxSurge-numSurge, 0), len(candidateNew))
	s.syncNodes(append(allowedNew, candidateNew[:remaining]...), oldToDelete)
	return nil
}
