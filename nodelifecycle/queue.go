package nodelifecycle

import (
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
	node       string
	processAt  time.Time
	seq        uint64  // insertion order, for equal processAt
	prev, next *queued // the neighbours in processing order
}

// before reports whether q is processed before r: earlier processAt, then
// earlier insertion.
func (q *queued) before(r *queued) bool {
	if !q.processAt.Equal(r.processAt) {
		return q.processAt.Before(r.processAt)
	}
	return q.seq < r.seq
}

// zoneTainter is a zone's RateLimitedTimedQueue: the nodes waiting for
// their NoExecute taint, ordered by processAt (a list: nodes are added at
// the time of the pass that adds them, so an entry almost always goes
// last), and the set of nodes added and not since removed (a tainted node
// stays in the set, so it is not queued again until it is Ready again or
// loses its taint). live holds each queued node's entry.
type zoneTainter struct {
	limiter     tokenBucket
	first, last *queued
	live        map[string]*queued
	set         map[string]bool
}

func newZoneTainter(qps float32) *zoneTainter {
	return &zoneTainter{limiter: tokenBucket{qps: qps}, live: map[string]*queued{}, set: map[string]bool{}}
}

// add queues node unless it is in the set; it reports whether it did.
func (z *zoneTainter) add(node string, now time.Time, seq uint64) bool {
	if z.set[node] {
		return false
	}
	z.set[node] = true
	q := &queued{node: node, processAt: now, seq: seq}
	z.live[node] = q
	z.insert(q)
	return true
}

// requeue is a remove followed by an add: node goes to the back of the
// queue, to be processed at now.
func (z *zoneTainter) requeue(node string, now time.Time, seq uint64) {
	q := z.live[node]
	if q == nil {
		delete(z.set, node)
		z.add(node, now, seq)
		return
	}
	z.unlink(q)
	q.processAt, q.seq = now, seq
	z.insert(q)
}

// remove takes node out of the queue and the set.
func (z *zoneTainter) remove(node string) {
	delete(z.set, node)
	if q := z.live[node]; q != nil {
		z.unlink(q)
		delete(z.live, node)
	}
}

// head is the queued node to process first; false when none is queued.
func (z *zoneTainter) head() (queued, bool) {
	if z.first == nil {
		return queued{}, false
	}
	return *z.first, true
}

// done takes the head out of the queue; it stays in the set.
func (z *zoneTainter) done() {
	q := z.first
	z.unlink(q)
	delete(z.live, q.node)
}

// retry moves the head to a later processAt.
func (z *zoneTainter) retry(at time.Time, seq uint64) {
	q := z.first
	z.unlink(q)
	q.processAt, q.seq = at, seq
	z.insert(q)
}

// insert links q in at its place, looking from the back.
func (z *zoneTainter) insert(q *queued) {
	p := z.last
	for p != nil && q.before(p) {
		p = p.prev
	}
	q.prev = p
	if p == nil {
		q.next, z.first = z.first, q
	} else {
		q.next, p.next = p.next, q
	}
	if q.next == nil {
		z.last = q
	} else {
		q.next.prev = q
	}
}

// unlink takes q out of the list.
func (z *zoneTainter) unlink(q *queued) {
	if q.prev == nil {
		z.first = q.next
	} else {
		q.prev.next = q.next
	}
	if q.next == nil {
		z.last = q.prev
	} else {
		q.next.prev = q.prev
	}
	q.prev, q.next = nil, nil
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
