package nodelifecycle

import (
	"container/heap"
	"time"
)

// tokenBucket is the tainting queue's rate limiter (client-go's token
// bucket over golang.org/x/time/rate, burst 1): it starts full, refills at
// qps tokens a second, and a try takes a token when a whole one is there.
// A qps of 0 never lets anything through.
type tokenBucket struct {
	qps    float32
	tokens float64
	last   time.Time
	used   bool // last and tokens are set (a fresh bucket is full)
}

// tokensAt is how many tokens the bucket holds at now (at most one).
func (b *tokenBucket) tokensAt(now time.Time) float64 {
	if !b.used {
		return 1
	}
	elapsed := max(now.Sub(b.last), 0)
	return min(1, b.tokens+elapsed.Seconds()*float64(b.qps))
}

// hasToken reports whether a try at now would take a token, without
// taking it.
func (b *tokenBucket) hasToken(now time.Time) bool {
	return b.qps > 0 && b.tokensAt(now) >= 1
}

func (b *tokenBucket) tryAccept(now time.Time) bool {
	if !b.hasToken(now) {
		return false
	}
	b.tokens, b.last, b.used = b.tokensAt(now)-1, now, true
	return true
}

// firstToken returns the first tick start + k·period, not before from and
// before limit, at which a try takes a token; false when there is none in
// that span (a rate of 0 never has one). The tainting pass tries only at
// its ticks, so the token becomes usable at the first tick after it is
// whole — with the float32 rate, 0.1/s refills a token in a hair under
// 10 s, and the tick that finds it is the one 10 s after the last.
func (b *tokenBucket) firstToken(start time.Time, period time.Duration, from, limit time.Time) (time.Time, bool) {
	if b.qps <= 0 || !from.Before(limit) {
		return time.Time{}, false
	}
	t := tickAtOrAfter(start, period, from)
	if !b.hasToken(t) {
		// Jump close to the refill time, then walk the ticks: the estimate
		// may be off by a rounding either way, the predicate is exact.
		need := (1 - b.tokensAt(b.last)) / float64(b.qps) // seconds after last
		if need > limit.Sub(b.last).Seconds()+1 {
			return time.Time{}, false
		}
		if est := b.last.Add(time.Duration(need * float64(time.Second))).Add(-period); est.After(t) {
			t = tickAtOrAfter(start, period, est)
		}
		for !b.hasToken(t) {
			if t = t.Add(period); !t.Before(limit) {
				return time.Time{}, false
			}
		}
	}
	if !t.Before(limit) {
		return time.Time{}, false
	}
	return t, true
}

// queued is one entry of a zone's tainting queue.
type queued struct {
	node      string
	processAt time.Time
	seq       uint64 // insertion order, for equal processAt; identifies the entry
}

// zoneTainter is a zone's RateLimitedTimedQueue: the nodes waiting for
// their NoExecute taint, ordered by processAt, and the set of nodes added
// and not since removed (a tainted node stays in the set, so it is not
// queued again until it is Ready again or loses its taint). The heap may
// hold entries no longer queued; live names each queued node's entry, and
// head drops the others.
type zoneTainter struct {
	limiter tokenBucket
	heap    queueHeap
	live    map[string]uint64
	set     map[string]bool
}

func newZoneTainter(qps float32) *zoneTainter {
	return &zoneTainter{limiter: tokenBucket{qps: qps}, live: map[string]uint64{}, set: map[string]bool{}}
}

// add queues node unless it is in the set; it reports whether it did.
func (z *zoneTainter) add(node string, now time.Time, seq uint64) bool {
	if z.set[node] {
		return false
	}
	z.set[node] = true
	z.live[node] = seq
	heap.Push(&z.heap, queued{node: node, processAt: now, seq: seq})
	return true
}

// remove takes node out of the queue and the set.
func (z *zoneTainter) remove(node string) {
	delete(z.set, node)
	delete(z.live, node)
}

// head is the queued node to process first; false when none is queued.
func (z *zoneTainter) head() (queued, bool) {
	for len(z.heap) > 0 {
		if q := z.heap[0]; z.live[q.node] == q.seq {
			return q, true
		}
		heap.Pop(&z.heap)
	}
	return queued{}, false
}

// done takes the head out of the queue; it stays in the set.
func (z *zoneTainter) done() {
	q := heap.Pop(&z.heap).(queued)
	delete(z.live, q.node)
}

// retry moves the head to a later processAt.
func (z *zoneTainter) retry(at time.Time, seq uint64) {
	q := heap.Pop(&z.heap).(queued)
	q.processAt, q.seq = at, seq
	z.live[q.node] = seq
	heap.Push(&z.heap, q)
}

// queueHeap orders queue entries by processAt, then insertion.
type queueHeap []queued

func (h queueHeap) Len() int { return len(h) }
func (h queueHeap) Less(i, j int) bool {
	if !h[i].processAt.Equal(h[j].processAt) {
		return h[i].processAt.Before(h[j].processAt)
	}
	return h[i].seq < h[j].seq
}
func (h queueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *queueHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *queueHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	*h = old[:len(old)-1]
	return q
}

// swapLimiter is SwapLimiter: a new rate gets a fresh bucket, drained at
// once when the old one had no token left.
func (z *zoneTainter) swapLimiter(qps float32, now time.Time) {
	if z.limiter.qps == qps {
		return
	}
	fresh := tokenBucket{qps: qps}
	if qps > 0 && !z.limiter.tryAccept(now) {
		fresh.tryAccept(now)
	}
	z.limiter = fresh
}
