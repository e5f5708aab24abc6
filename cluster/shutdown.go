package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/termination"
)

// shutdownState is a graceful node shutdown under way: the kubelet's node
// shutdown manager (pkg/kubelet/nodeshutdown) killing the node's pods
// group by group.
type shutdownState struct {
	tl termination.ShutdownTimeline
	// group is the priority group being shut down; groupEnd is when the
	// manager stops waiting for it (its start plus its grace period).
	group    int
	groupEnd time.Time
}

func (s *shutdownState) nextDeadline() time.Time {
	if s == nil || s.group >= len(s.tl.Groups) {
		return time.Time{}
	}
	return s.groupEnd
}

// shutdown is the scenario's shutdown action: the node's systemd-logind
// announces its shutdown to the kubelet.
//
// With graceful node shutdown configured (--shutdown-grace-period, and
// --shutdown-grace-period-critical-pods for the critical pods' share),
// the node shutdown manager records the Normal event Shutdown ("Shutdown
// manager detected shutdown event"), the kubelet posts its status at once
// with Ready False (KubeletNotReady, "node is shutting down") and refuses
// every new pod (NodeShutdown), and the manager kills the node's active
// pods in priority groups (termination.BuildShutdownTimeline), lowest
// first: each pod through its machine (lifecycle.Killed with the group's
// grace period or its own shorter terminationGracePeriodSeconds, status
// Failed, reason Terminated, "Pod was terminated in response to imminent
// node shutdown.", DisruptionTarget TerminationByKubelet). It moves to the
// next group once every pod of the group has stopped, or when the group's
// grace period has run out. After the last group the node powers off: its
// kubelet goes silent as with `lose`.
//
// Without it (the default: shutdownGracePeriod 0), the shutdown is not
// graceful: the node just stops. Its kubelet goes silent as with `lose`,
// and its containers are dead (their sandboxes are gone), which nothing
// reports to the API server: the pods stay as last reported until the
// node lifecycle controller and taint eviction act on the silent node.
func (m *Machine) shutdown(node string, now time.Time) error {
	k := m.kubelets[node]
	if k == nil || m.store.get("Node", node) == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	if k.silent || k.shutdown != nil {
		return fmt.Errorf("node %s is not running", node)
	}
	keys := make([]string, 0, len(k.pods))
	for key, r := range k.pods {
		if !r.m.Terminal() && !r.m.Removed() {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	if !m.cfg.Shutdown.Enabled() {
		// The runtime's containers die with the node; the silent kubelet
		// reports nothing of it (until a restore boots the node).
		m.silence(k, now)
		k.poweredOff = true
		return nil
	}
	var active []*api.Pod
	for _, key := range keys {
		if p, _ := m.cache.get("Pod", key).(*api.Pod); p != nil && p.UID == k.pods[key].uid {
			active = append(active, p)
		}
	}
	tl, err := termination.BuildShutdownTimeline(active, m.cfg.Shutdown, now)
	if err != nil {
		return err
	}
	k.nextLease = k.pendingTick(now, m.kubeletPhase) // it ticks from now on
	k.shutdown = &shutdownState{tl: tl, group: -1}
	m.rec.event(now, &api.Event{Type: api.EventTypeNormal, Reason: "Shutdown", Note: "Shutdown manager detected shutdown event",
		Regarding: api.NodeReference(node, ""), Source: api.EventSourceKubelet})
	// The shutdown manager has the node status synced at once.
	if err := m.postNodeStatus(k, now); err != nil {
		return err
	}
	return m.advanceShutdown(k, now)
}

// advanceShutdown moves the shutdown under way on: the next group is shut
// down once every pod of the current one has stopped or its grace period
// ran out; after the last group the node goes silent.
func (m *Machine) advanceShutdown(k *kubelet, now time.Time) error {
	s := k.shutdown
	if s == nil || k.silent {
		return nil
	}
	for {
		if s.group >= 0 && now.Before(s.groupEnd) && !m.groupStopped(k, s.group) {
			return nil
		}
		s.group++
		for s.group < len(s.tl.Groups) && len(s.tl.Groups[s.group].Pods) == 0 {
			s.group++ // a group without pods is skipped
		}
		if s.group >= len(s.tl.Groups) {
			// Every group is done: the node powers off.
			m.silence(k, now)
			k.poweredOff = true
			return nil
		}
		g := s.tl.Groups[s.group]
		s.groupEnd = now.Add(termination.GraceDuration(g.GracePeriodSeconds))
		for _, kill := range s.tl.Pods {
			if kill.Group != s.group {
				continue
			}
			r := k.pods[kill.Pod.Key()]
			if r == nil || r.uid != kill.Pod.UID {
				continue
			}
			if err := k.step(m, r, lifecycle.Killed(kill.GracePeriodSeconds, termination.ReasonNodeShutdown, termination.MessageNodeShutdown), now); err != nil {
				return err
			}
		}
	}
}

// groupStopped reports whether every pod of the shutdown's group i has
// stopped.
func (m *Machine) groupStopped(k *kubelet, i int) bool {
	for _, p := range k.shutdown.tl.Groups[i].Pods {
		if r := k.pods[p.Key()]; r != nil && r.uid == p.UID && !r.m.Terminal() && !r.m.Removed() {
			return false
		}
	}
	return true
}

// boot is a restore of a node that shut down: the node boots again, and
// its kubelet starts afresh — no shutdown under way — and learns at its
// first sync of each pod that the pod's sandbox and containers died with
// the node (reported as exiting at the boot, code 137): it restarts them
// as their restartPolicy says, in a new sandbox; a pod the graceful
// shutdown killed stays Failed. A restore of a node that did not shut
// down (lose) changes nothing here.
func (k *kubelet) boot() {
	if !k.poweredOff {
		return
	}
	k.poweredOff, k.shutdown, k.booting = false, nil, true
}
