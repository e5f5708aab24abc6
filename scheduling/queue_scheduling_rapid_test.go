package scheduling

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// refQueue is a plain model of the scheduling queue written straight from
// the rules, with none of Queue's shortcuts: it runs every flush instant
// one by one and finds pods by scanning. The property test holds Queue to
// it.
type refQueue struct {
	cfg            QueueConfig
	start, now     time.Time
	nextBackoff    time.Time
	nextLeftover   time.Time
	pods           map[string]*refPod
	order          []string // keys in add order, for stable scans
	initialB, maxB time.Duration
}

type refPod struct {
	pod          *api.Pod
	place        QueuePlace
	ts           time.Time
	attempts     int
	unsched      int
	errs         int
	lastErr      bool
	until        time.Time
	movedInFight bool
}

func newRefQueue(cfg QueueConfig, start time.Time) *refQueue {
	cfg, _ = cfg.resolved()
	r := &refQueue{cfg: cfg, start: start, now: start, pods: map[string]*refPod{}}
	r.nextBackoff = start.Truncate(time.Second).Add(time.Second)
	r.nextLeftover = start
	return r
}

func (r *refQueue) count(p *refPod) int {
	if p.errs > 0 {
		return p.errs
	}
	return p.unsched
}

func (r *refQueue) backingOff(p *refPod, now time.Time) bool {
	return r.count(p) > 0 && !p.until.Before(now.Truncate(time.Second))
}

func (r *refQueue) backoffOrActive(p *refPod, now time.Time) {
	if r.backingOff(p, now) {
		p.place = QueueBackoff
	} else {
		p.place = QueueActive
	}
}

func (r *refQueue) wildcardInFlight() {
	for _, p := range r.pods {
		if p.place == QueueInFlight {
			p.movedInFight = true
		}
	}
}

func (r *refQueue) advance(now time.Time) time.Time {
	if now.Before(r.now) {
		now = r.now
	}
	for {
		b, l := r.nextBackoff, r.nextLeftover
		if b.After(now) && l.After(now) {
			break
		}
		if !b.After(now) && !b.After(l) {
			for _, k := range r.order {
				if p := r.pods[k]; p != nil && p.place == QueueBackoff && p.until.Before(b) {
					p.place = QueueActive
				}
			}
			r.nextBackoff = b.Add(time.Second)
			continue
		}
		took := false
		for _, k := range r.order {
			p := r.pods[k]
			if p == nil || (p.place != QueueUnschedulable && p.place != QueueGated) || l.Sub(p.ts) <= r.cfg.PodMaxInUnschedulablePodsDuration {
				continue
			}
			took = true
			if p.place == QueueUnschedulable {
				r.backoffOrActive(p, l)
			}
		}
		if took {
			r.wildcardInFlight()
		}
		r.nextLeftover = l.Add(30 * time.Second)
	}
	r.now = now
	return now
}

func (r *refQueue) add(pod *api.Pod, now time.Time) {
	now = r.advance(now)
	p := &refPod{pod: pod, ts: now, place: QueueActive}
	if len(pod.Spec.SchedulingGates) > 0 {
		p.place = QueueGated
	}
	r.pods[pod.Key()] = p
	r.order = append(r.order, pod.Key())
}

func (r *refQueue) pop(now time.Time) (string, int, bool) {
	r.advance(now)
	best := ""
	better := func(a, b *refPod) bool {
		return QueueCompare(QueuedPod{a.pod, a.ts}, QueuedPod{b.pod, b.ts}) < 0
	}
	for _, k := range r.order {
		p := r.pods[k]
		if p != nil && p.place == QueueActive && (best == "" || better(p, r.pods[best])) {
			best = k
		}
	}
	if best == "" {
		for _, k := range r.order {
			p := r.pods[k]
			if p == nil || p.place != QueueBackoff || p.lastErr {
				continue
			}
			if best == "" {
				best = k
				continue
			}
			b := r.pods[best]
			if p.until.Before(b.until) || (p.until.Equal(b.until) && better(p, b)) {
				best = k
			}
		}
	}
	if best == "" {
		return "", 0, false
	}
	p := r.pods[best]
	p.place = QueueInFlight
	p.attempts++
	p.movedInFight = false
	return best, p.attempts, true
}

func (r *refQueue) fail(key string, plugins []string, now time.Time) {
	now = r.advance(now)
	p := r.pods[key]
	p.ts = now
	if len(plugins) == 0 {
		p.errs++
		p.lastErr = true
	} else {
		p.unsched++
		p.errs = 0
		p.lastErr = false
	}
	d := r.cfg.PodInitialBackoff
	for i := 1; i < r.count(p); i++ {
		d *= 2
		if d >= r.cfg.PodMaxBackoff {
			break
		}
	}
	d = min(d, r.cfg.PodMaxBackoff)
	p.until = now.Add(d).Truncate(time.Second)
	if p.lastErr || p.movedInFight {
		r.backoffOrActive(p, now)
	} else {
		p.place = QueueUnschedulable
	}
}

func (r *refQueue) done(key string, now time.Time) {
	r.advance(now)
	delete(r.pods, key)
}

func (r *refQueue) activate(key string, now time.Time) {
	r.advance(now)
	p := r.pods[key]
	if p == nil {
		return
	}
	switch p.place {
	case QueueUnschedulable, QueueBackoff:
		p.place = QueueActive
	case QueueInFlight:
		p.movedInFight = true
	}
}

func (r *refQueue) ungate(key string, now time.Time) {
	now = r.advance(now)
	if p := r.pods[key]; p != nil && p.place == QueueGated {
		r.backoffOrActive(p, now)
	}
}

func (r *refQueue) move(now time.Time) {
	now = r.advance(now)
	for _, p := range r.pods {
		if p.place == QueueUnschedulable {
			r.backoffOrActive(p, now)
		}
	}
	r.wildcardInFlight()
}

func (r *refQueue) state() QueueState {
	var s QueueState
	for k, p := range r.pods {
		s.add(k, p.place, p.until)
	}
	s.sort()
	return s
}

// drawQueueConfig draws a configuration, often the default, sometimes
// short enough for the leftover flush to matter within a few minutes.
func drawQueueConfig(t *rapid.T) QueueConfig {
	var cfg QueueConfig
	if rapid.Bool().Draw(t, "customBackoff") {
		cfg.PodInitialBackoff = time.Duration(rapid.IntRange(1, 5).Draw(t, "initial")) * time.Second
		cfg.PodMaxBackoff = cfg.PodInitialBackoff * time.Duration(rapid.IntRange(1, 20).Draw(t, "maxFactor"))
	}
	if rapid.Bool().Draw(t, "customUnschedulable") {
		cfg.PodMaxInUnschedulablePodsDuration = time.Duration(rapid.IntRange(1, 120).Draw(t, "maxInUnschedulable")) * time.Second
	}
	return cfg
}

// queueScript drives q and the reference model with the same random
// events, checking after each event the invariants and agreement.
func queueScript(t *rapid.T, check func(q *Queue, r *refQueue, op string, now time.Time)) {
	cfg := drawQueueConfig(t)
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	if rapid.Bool().Draw(t, "oddStart") {
		start = start.Add(time.Duration(rapid.IntRange(1, 999).Draw(t, "startMs")) * time.Millisecond)
	}
	q, err := NewQueue(cfg, start)
	if err != nil {
		t.Fatal(err)
	}
	r := newRefQueue(cfg, start)
	now := start
	nPods := 0
	steps := rapid.IntRange(1, 60).Draw(t, "steps")
	for i := 0; i < steps; i++ {
		// Strictly increasing times keep queue timestamps distinct, so the
		// queue order is total and the model needs no tie-break.
		gap := rapid.SampledFrom([]int{1, 7, 250, 999, 1000, 1001, 3000, 29000, 61000, 301000}).Draw(t, "gap")
		now = now.Add(time.Duration(gap+rapid.IntRange(0, 50).Draw(t, "jitter")) * time.Millisecond)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range r.pods {
				if !yield(k) {
					return
				}
			}
		})
		inFlight := []string{}
		gated := []string{}
		for _, k := range keys {
			switch r.pods[k].place {
			case QueueInFlight:
				inFlight = append(inFlight, k)
			case QueueGated:
				gated = append(gated, k)
			}
		}
		op := rapid.SampledFrom([]string{"add", "pop", "pop", "fail", "fail", "error", "done", "activate", "ungate", "move", "tick"}).Draw(t, "op")
		switch op {
		case "add":
			if nPods >= 8 {
				op = "tick"
				q.Tick(now)
				r.advance(now)
				break
			}
			nPods++
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("p%d", nPods)}}
			if rapid.Bool().Draw(t, "hasPriority") {
				prio := int32(rapid.IntRange(-1, 2).Draw(t, "priority") * 100)
				pod.Spec.Priority = &prio
			}
			if rapid.IntRange(0, 3).Draw(t, "gated?") == 0 {
				pod.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}}
			}
			if err := q.Add(pod, now); err != nil {
				t.Fatal(err)
			}
			r.add(pod, now)
		case "pop":
			gotPod, gotAttempts, gotOK := q.Pop(now)
			wantKey, wantAttempts, wantOK := r.pop(now)
			gotKey := ""
			if gotOK {
				gotKey = gotPod.Key()
			}
			if gotKey != wantKey || gotAttempts != wantAttempts || gotOK != wantOK {
				t.Fatalf("pop at %v: got %q (%d, %v), model %q (%d, %v)", now, gotKey, gotAttempts, gotOK, wantKey, wantAttempts, wantOK)
			}
		case "fail", "error", "done":
			if len(inFlight) == 0 {
				op = "tick"
				q.Tick(now)
				r.advance(now)
				break
			}
			key := rapid.SampledFrom(inFlight).Draw(t, "inFlight")
			var err error
			switch op {
			case "fail":
				plugins := []string{rapid.SampledFrom([]string{PluginNodeResourcesFit, PluginTaintToleration}).Draw(t, "plugin")}
				err = q.Fail(key, plugins, now)
				r.fail(key, plugins, now)
			case "error":
				err = q.FailWithError(key, now)
				r.fail(key, nil, now)
			case "done":
				err = q.Done(key, now)
				r.done(key, now)
			}
			if err != nil {
				t.Fatal(err)
			}
		case "activate":
			key := fmt.Sprintf("ns/p%d", rapid.IntRange(1, max(nPods, 1)).Draw(t, "activated"))
			q.Activate(key, now)
			r.activate(key, now)
		case "ungate":
			if len(gated) == 0 {
				op = "tick"
				q.Tick(now)
				r.advance(now)
				break
			}
			key := rapid.SampledFrom(gated).Draw(t, "gated")
			e, _ := q.Entry(key)
			pod := *e.Pod
			pod.Spec.SchedulingGates = nil
			if err := q.Update(&pod, now); err != nil {
				t.Fatal(err)
			}
			r.ungate(key, now)
		case "move":
			q.Move(now)
			r.move(now)
		case "tick":
			q.Tick(now)
			r.advance(now)
		}
		check(q, r, op, now)
	}
}

// The queue agrees with the plain model after every event: what a pop
// returns and where every pod is, backoff expiries included.
func TestQueueMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		queueScript(t, func(q *Queue, r *refQueue, op string, now time.Time) {
			if diff := cmp.Diff(r.state(), q.State()); diff != "" {
				t.Fatalf("after %s at %v, state differs from the model (-model +queue):\n%s", op, now, diff)
			}
		})
	})
}

// Invariants the queue promises at every moment: every pod is in exactly
// one place; no backoff exceeds the maximum; gated pods are never in
// flight (never popped); no pod stays in backoff past the flush after its
// expiry.
func TestQueueInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		queueScript(t, func(q *Queue, _ *refQueue, _ string, now time.Time) {
			s := q.State()
			seen := map[string]QueuePlace{}
			mark := func(keys []string, p QueuePlace) {
				for _, k := range keys {
					if prev, dup := seen[k]; dup {
						t.Fatalf("%s is both %s and %s", k, prev, p)
					}
					seen[k] = p
					if e, ok := q.Entry(k); !ok || e.Place != p {
						t.Fatalf("%s listed %s, entry says %v (known %v)", k, p, e.Place, ok)
					}
				}
			}
			mark(s.Active, QueueActive)
			mark(s.Unschedulable, QueueUnschedulable)
			mark(s.Gated, QueueGated)
			mark(s.InFlight, QueueInFlight)
			for _, b := range s.Backoff {
				mark([]string{b.Key}, QueueBackoff)
			}
			if len(seen) != q.Len() {
				t.Fatalf("%d pods placed, queue holds %d", len(seen), q.Len())
			}
			for k := range seen {
				e, _ := q.Entry(k)
				if e.Place == QueueInFlight && len(e.Pod.Spec.SchedulingGates) > 0 {
					t.Fatalf("gated pod %s was popped", k)
				}
				if e.BackoffCount() > 0 {
					if d := e.BackoffUntil.Sub(e.Timestamp); d > q.Config().PodMaxBackoff {
						t.Fatalf("%s backs off %v, more than the maximum %v", k, d, q.Config().PodMaxBackoff)
					}
				}
			}
			// The backoff flush at the latest whole second moved every pod
			// whose backoff ended before it.
			if flush := now.Truncate(time.Second); flush.After(q.start) {
				for _, b := range s.Backoff {
					if b.Until.Before(flush) {
						t.Fatalf("%s still in backoff at %v, its backoff ended %v", b.Key, now, b.Until)
					}
				}
			}
		})
	})
}

// A pop returns the best pod by the queue order among the active pods, or
// when there are none, the earliest-expiring pod backing off after a
// rejection; gated pods and pods backing off after an error never pop.
func TestQueuePopIsBestEligible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawQueueConfig(t)
		start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		q, _ := NewQueue(cfg, start)
		now := start
		n := rapid.IntRange(1, 12).Draw(t, "pods")
		for i := 0; i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(1, 2000).Draw(t, "gap")) * time.Millisecond)
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("p%d", i)}}
			prio := int32(rapid.IntRange(0, 3).Draw(t, "priority"))
			pod.Spec.Priority = &prio
			if rapid.IntRange(0, 3).Draw(t, "gated?") == 0 {
				pod.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "g"}}
			}
			_ = q.Add(pod, now)
		}
		for step := 0; step < 30; step++ {
			now = now.Add(time.Duration(rapid.IntRange(1, 4000).Draw(t, "gap")) * time.Millisecond)
			q.Tick(now)
			before := q.State()
			pod, _, ok := q.Pop(now)
			if !ok {
				if len(before.Active) > 0 {
					t.Fatalf("nothing popped with %v active", before.Active)
				}
				for _, b := range before.Backoff {
					if e, _ := q.Entry(b.Key); e.ConsecutiveErrors == 0 {
						t.Fatalf("nothing popped with %s backing off after a rejection", b.Key)
					}
				}
				continue
			}
			got, _ := q.Entry(pod.Key())
			if len(pod.Spec.SchedulingGates) > 0 {
				t.Fatalf("gated pod %s popped", pod.Key())
			}
			if len(before.Active) > 0 {
				if !slices.Contains(before.Active, pod.Key()) {
					t.Fatalf("popped %s, not among active %v", pod.Key(), before.Active)
				}
				for _, k := range before.Active {
					e, _ := q.Entry(k)
					if QueueCompare(QueuedPod{e.Pod, e.Timestamp}, QueuedPod{got.Pod, got.Timestamp}) < 0 {
						t.Fatalf("popped %s before the better %s", pod.Key(), k)
					}
				}
			} else {
				for _, b := range before.Backoff {
					e, _ := q.Entry(b.Key)
					if b.Key == pod.Key() {
						if e.ConsecutiveErrors > 0 {
							t.Fatalf("popped %s early though it backs off after an error", b.Key)
						}
						continue
					}
					if e.ConsecutiveErrors == 0 && (b.Until.Before(got.BackoffUntil) ||
						b.Until.Equal(got.BackoffUntil) && QueueCompare(QueuedPod{e.Pod, e.Timestamp}, QueuedPod{got.Pod, got.Timestamp}) < 0) {
						t.Fatalf("popped %s from backoff before the better %s", pod.Key(), b.Key)
					}
				}
			}
			switch rapid.IntRange(0, 3).Draw(t, "outcome") {
			case 0:
				_ = q.Done(pod.Key(), now)
			case 1:
				_ = q.FailWithError(pod.Key(), now)
			default:
				_ = q.Fail(pod.Key(), []string{PluginNodeResourcesFit}, now)
			}
			if rapid.IntRange(0, 4).Draw(t, "move?") == 0 {
				q.Move(now)
			}
		}
	})
}
