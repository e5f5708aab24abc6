package cluster

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// rsEventLog is the ReplicaSet controller's pod informer handler: the pod
// cache's changes since the controller's last step, which its next step
// reads (workloads.NewIncrementalReplicaSetController). The changes of one
// pod are kept as one, from its state before the first to its state
// after the last (nil: absent), since the controller reads only the
// last state of each pod: the log holds at most one entry per pod
// however long no ReplicaSet is synced.
type rsEventLog struct {
	changes []workloads.PodChange
	at      map[string]int // pod key → its entry in changes
}

// observe logs a Pod watch event as the informer delivers it.
func (l *rsEventLog) observe(w watchEvent) {
	if w.Kind != "Pod" {
		return
	}
	var old, cur *api.Pod
	if w.Type == watchDeleted {
		old, _ = w.Object.(*api.Pod)
	} else {
		old, _ = w.Old.(*api.Pod)
		cur, _ = w.Object.(*api.Pod)
	}
	if i, ok := l.at[w.Key]; ok {
		l.changes[i].New = cur // from the state before the first change
		return
	}
	if l.at == nil {
		l.at = map[string]int{}
	}
	l.at[w.Key] = len(l.changes)
	l.changes = append(l.changes, workloads.PodChange{Old: old, New: cur})
}

// maxKeptLog bounds the index map take keeps for the next changes.
const maxKeptLog = 1024

// take returns the changes logged, in the order of each pod's first
// change, and empties the log. A pod added and deleted since the last
// take is no change.
func (l *rsEventLog) take() []workloads.PodChange {
	// Filtered in place: the array goes to the caller, and the log starts
	// a new one (the index map is kept, emptied).
	out := l.changes[:0]
	for _, c := range l.changes {
		if c.Old != nil || c.New != nil {
			out = append(out, c)
		}
	}
	clear(l.changes[len(out):])
	l.changes = nil
	if len(l.at) > maxKeptLog {
		l.at = nil // a burst's map (a large setup) is not kept: clearing it costs its size
	} else {
		clear(l.at)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
