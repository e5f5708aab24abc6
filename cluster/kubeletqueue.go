package cluster

import (
	"cmp"
	"slices"
	"time"
)

// kubeletQueue finds the kubelets a step must run without asking every
// kubelet of the cluster: a min-heap of the kubelets by their next
// deadline (kubelet.nextDeadline, kept while nothing of the kubelet
// changed) and the set of kubelets with pods to observe (kubelet.dirty).
// A kubelet whose state changes is marked stale (kubelet.forgetDeadline)
// and re-filed at the next refresh, so a step costs O(kubelets it
// touches · log kubelets), not O(kubelets).
//
// It is the scheduling of the kubelets' own deadlines, no rule of theirs:
// the same kubelets run in the same order as a scan of every kubelet by
// name would run them.
type kubeletQueue struct {
	// heap holds each filed kubelet with its deadline, so that sifting
	// compares deadlines without reading the kubelets.
	heap []filed
	// stale are the kubelets changed since the last refresh.
	stale []*kubelet
	// dirty are the kubelets, not silent, with pods to observe.
	dirty map[*kubelet]bool
}

// filed is a kubelet in the heap, under its deadline (queued.at).
type filed struct {
	at time.Time
	k  *kubelet
}

// queued is a kubelet's place in the queue.
type queued struct {
	q *kubeletQueue
	// at is the deadline the kubelet is filed under (zero: none, not in
	// the heap); pos its index in the heap.
	at    time.Time
	pos   int
	stale bool
	// rank is the kubelet's place in node-name order (Machine.kubeletOrder
	// keeps it).
	rank int
}

// add files a new kubelet.
func (q *kubeletQueue) add(k *kubelet) {
	k.queued = queued{q: q, pos: -1}
	q.mark(k)
}

// mark notes that k's deadlines or dirty pods may have changed (its pods'
// cached deadline, kubelet.deadline, is dropped by forgetDeadline where
// they change).
func (q *kubeletQueue) mark(k *kubelet) {
	if k.stale {
		return
	}
	k.stale = true
	q.stale = append(q.stale, k)
}

// refresh re-files the stale kubelets.
func (q *kubeletQueue) refresh() {
	for _, k := range q.stale {
		k.stale = false
		if len(k.dirty) > 0 && !k.silent {
			if q.dirty == nil {
				q.dirty = map[*kubelet]bool{}
			}
			q.dirty[k] = true
		} else {
			delete(q.dirty, k)
		}
		at := k.nextDeadline()
		switch {
		case at.IsZero() && k.pos >= 0:
			q.remove(k.pos)
			k.at = at
		case at.IsZero():
		case k.pos < 0:
			k.at = at
			k.pos = len(q.heap)
			q.heap = append(q.heap, filed{at: at, k: k})
			q.up(k.pos)
		case !at.Equal(k.at):
			k.at = at
			q.heap[k.pos].at = at
			q.down(q.up(k.pos))
		}
	}
	q.stale = q.stale[:0]
}

// next is the earliest kubelet deadline, zero when none.
func (q *kubeletQueue) next() time.Time {
	q.refresh()
	if len(q.heap) == 0 {
		return time.Time{}
	}
	return q.heap[0].at
}

// anyDue reports whether some kubelet is due at now.
func (q *kubeletQueue) anyDue(now time.Time) bool {
	q.refresh()
	return len(q.dirty) > 0 || (len(q.heap) > 0 && !q.heap[0].at.After(now))
}

// due lists the kubelets due at now, by node name (their rank: call
// Machine.kubeletOrder first).
func (q *kubeletQueue) due(now time.Time) []*kubelet {
	q.refresh()
	var out []*kubelet
	for k := range q.dirty {
		out = append(out, k)
	}
	out = q.collect(out, 0, now)
	slices.SortFunc(out, func(a, b *kubelet) int { return cmp.Compare(a.rank, b.rank) })
	return slices.Compact(out)
}

// collect appends the kubelets of the heap under i due at now.
func (q *kubeletQueue) collect(out []*kubelet, i int, now time.Time) []*kubelet {
	if i >= len(q.heap) || q.heap[i].at.After(now) {
		return out
	}
	out = append(out, q.heap[i].k)
	out = q.collect(out, 2*i+1, now)
	return q.collect(out, 2*i+2, now)
}

// less orders the heap by deadline alone: kubelets of one deadline may
// sit in any order, since due collects every kubelet due and sorts them.
func (q *kubeletQueue) less(i, j int) bool {
	return q.heap[i].at.Before(q.heap[j].at)
}

func (q *kubeletQueue) swap(i, j int) {
	q.heap[i], q.heap[j] = q.heap[j], q.heap[i]
	q.heap[i].k.pos, q.heap[j].k.pos = i, j
}

func (q *kubeletQueue) up(i int) int {
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.swap(i, p)
		i = p
	}
	return i
}

func (q *kubeletQueue) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(q.heap) {
			return
		}
		c := l
		if r := l + 1; r < len(q.heap) && q.less(r, l) {
			c = r
		}
		if !q.less(c, i) {
			return
		}
		q.swap(i, c)
		i = c
	}
}

func (q *kubeletQueue) remove(i int) {
	last := len(q.heap) - 1
	k := q.heap[i].k
	if i != last {
		q.swap(i, last)
	}
	q.heap = q.heap[:last]
	k.pos = -1
	if i < len(q.heap) {
		q.down(q.up(i))
	}
}
