package scheduling

import (
	"fmt"
	"maps"
	"time"

	"github.com/podsem/podsem/api"
)

// clusterEvent is an event of an assigned pod or of another object that
// the scheduling queue moves pods from the unschedulable pool for
// (framework.ClusterEvent, coarsened); node events are nodeChange.
type clusterEvent uint8

const (
	eventAssignedPodAdd clusterEvent = iota // added, bound, or relabelled
	eventAssignedPodDelete
	eventStorage
	eventNamespace
)

// eventPlugins lists, per event, the default profile's plugins that
// register for it (their EventsToRegister with queueing hints on); a pod
// comes back when one of the plugins that rejected it is listed and its
// hint, where the loop models one, says Queue.
var eventPlugins = [...][]string{
	eventAssignedPodAdd: {PluginInterPodAffinity, PluginPodTopologySpread},
	eventAssignedPodDelete: {PluginNodeResourcesFit, PluginNodePorts, PluginInterPodAffinity,
		PluginPodTopologySpread, PluginVolumeRestrictions, PluginNodeVolumeLimits},
	eventStorage: {PluginVolumeRestrictions, PluginNodeVolumeLimits, PluginVolumeBinding, PluginVolumeZone,
		PluginDynamicResources},
	eventNamespace: {PluginInterPodAffinity},
}

// requeue delivers an event of another object (storage, a Namespace) to
// the queue at now: a pod moves when no plugin rejected it or a plugin
// that did registered for ev (their hints are not modelled: Queue).
func (l *Loop) requeue(ev clusterEvent, now time.Time) {
	l.moveWorth(eventPlugins[ev], func(string, *queueEntry) bool { return true }, now)
}

// podAdded is the pod informer's add: an assigned pod joins its node (an
// assigned-pod add for the queue), a pending one the queue.
func (l *Loop) podAdded(p *api.Pod, now time.Time) error {
	if p == nil {
		return fmt.Errorf("%w: input.Pod: nil", errInvalidInput)
	}
	key := l.podKey(p)
	if l.c.pods[key] != nil {
		return l.podUpdatedKey(key, p, now)
	}
	return l.podAddedKey(key, p, now)
}

// podAddedKey is podAdded of a pod the snapshot does not hold, key its
// namespace/name.
func (l *Loop) podAddedKey(key string, p *api.Pod, now time.Time) error {
	var err error
	if p.Name == "" {
		err = l.c.AddPod(p) // the error naming the missing name
	} else {
		err = l.c.addPod(key, p)
	}
	if err != nil {
		return err
	}
	switch {
	case p.Spec.NodeName != "" && counted(p):
		l.requeueForPod(eventAssignedPodAdd, podChange{cur: p}, now)
	case l.queues(p):
		return l.q.Add(p, now)
	}
	return nil
}

// podUpdated is the pod informer's update. An update that would clear
// spec.nodeName of a pod the snapshot has bound (the API server never
// allows it: it is a stale view of a pod the loop bound) is ignored.
func (l *Loop) podUpdated(p *api.Pod, now time.Time) error {
	if p == nil {
		return fmt.Errorf("%w: input.Pod: nil", errInvalidInput)
	}
	return l.podUpdatedKey(l.podKey(p), p, now)
}

// podUpdatedKey is podUpdated with the pod's key (namespace/name).
func (l *Loop) podUpdatedKey(key string, p *api.Pod, now time.Time) error {
	cur := l.c.pods[key]
	if cur == nil {
		return l.podAddedKey(key, p, now)
	}
	old := cur.pod
	if old.Spec.NodeName != "" && p.Spec.NodeName == "" {
		return nil
	}
	var err error
	if p.Name == "" {
		err = l.c.UpdatePod(p) // the error naming the missing name
	} else {
		err = l.c.updatePod(key, p)
	}
	if err != nil {
		return err
	}
	_, queued := l.q.entries[key]
	switch {
	case p.Spec.NodeName != "":
		if queued {
			l.q.Delete(key, now) // bound by someone else, or its waiting binding confirmed
		}
		delete(l.binding, key)
		confirmed := l.assumed[key]
		delete(l.assumed, key)
		switch {
		case confirmed && counted(p):
			l.requeueForPod(eventAssignedPodAdd, podChange{cur: p}, now) // the loop's binding, shown bound
		case !counted(old):
		case !counted(p):
			// Finished: gone from the informer, which lists no
			// Succeeded or Failed pod.
			l.requeueForPod(eventAssignedPodDelete, podChange{old: old, oldInfo: l.c.pods[key]}, now)
		case old.Spec.NodeName == "":
			l.requeueForPod(eventAssignedPodAdd, podChange{cur: p}, now) // bound: added to the informer
		case !maps.Equal(old.Labels, p.Labels):
			l.requeueForPod(eventAssignedPodAdd, podChange{old: old, cur: p}, now) // UpdatePodLabel
		}
	case !l.queues(p):
		if queued {
			l.q.Delete(key, now)
		}
	case queued:
		return l.q.Update(p, now)
	default:
		return l.q.Add(p, now)
	}
	return nil
}

// podDeleted is the pod informer's delete.
func (l *Loop) podDeleted(namespace, name string, now time.Time) error {
	key := namespace + "/" + name
	cur := l.c.pods[key]
	if cur == nil {
		return fmt.Errorf("%w: no pod %q", errInvalidInput, key)
	}
	old := cur.pod
	if err := l.c.removePod(key); err != nil {
		return err
	}
	if _, queued := l.q.entries[key]; queued {
		l.q.Delete(key, now)
	}
	delete(l.binding, key)
	delete(l.assumed, key)
	if old.Spec.NodeName != "" && counted(old) {
		l.requeueForPod(eventAssignedPodDelete, podChange{old: old, oldInfo: cur}, now)
	}
	return nil
}

func (l *Loop) nodeAdded(n *api.Node, now time.Time) error {
	if n == nil {
		return fmt.Errorf("%w: input.Node: nil", errInvalidInput)
	}
	if err := l.c.AddNode(n); err != nil {
		return err
	}
	l.requeueForNode(nodeAdd, nil, n, now)
	return nil
}

// nodeUpdated delivers a node's update to the queue as the scheduler's
// node handler does: one event per kind of change the plugins register
// for (labels, taints or becoming schedulable, allocatable).
func (l *Loop) nodeUpdated(n *api.Node, now time.Time) error {
	if n == nil {
		return fmt.Errorf("%w: input.Node: nil", errInvalidInput)
	}
	var old *api.Node
	if ni := l.c.byName[n.Name]; ni != nil {
		old = ni.node
	}
	if err := l.c.UpdateNode(n); err != nil {
		return err
	}
	if old == nil {
		l.requeueForNode(nodeAdd, nil, n, now)
		return nil
	}
	for _, ch := range nodeChanges(old, n) {
		l.requeueForNode(ch, old, n, now)
	}
	return nil
}

// sameResources compares two resource lists by value.
func sameResources(a, b api.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, qa := range a {
		qb, ok := b[name]
		if !ok || qa.Cmp(qb) != 0 {
			return false
		}
	}
	return true
}

func (l *Loop) nodeDeleted(name string, now time.Time) error {
	var old *api.Node
	if ni := l.c.byName[name]; ni != nil {
		old = ni.node
	}
	if err := l.c.RemoveNode(name); err != nil {
		return err
	}
	if old != nil {
		l.requeueForNode(nodeDelete, old, nil, now)
	}
	return nil
}

// objectChanged delivers the event of another object set or deleted.
func (l *Loop) objectChanged(o api.Object, now time.Time) {
	switch o.(type) {
	case *api.Namespace:
		l.requeue(eventNamespace, now)
	case *api.PersistentVolumeClaim, *api.PersistentVolume, *api.StorageClass, *api.CSINode, *api.CSIDriver:
		l.requeue(eventStorage, now)
	}
}

// nodeSchedulingChanged reports whether a node update changes what the
// snapshot reads for filtering: labels, taints, the unschedulable flag,
// allocatable.
func nodeSchedulingChanged(old, n *api.Node) bool {
	if old == nil {
		return true
	}
	return !maps.Equal(old.Labels, n.Labels) ||
		!api.TaintsEqual(old.Spec.Taints, n.Spec.Taints) ||
		old.Spec.Unschedulable != n.Spec.Unschedulable ||
		!sameResources(old.Status.Allocatable, n.Status.Allocatable)
}
