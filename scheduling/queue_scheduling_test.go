package scheduling

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

var queueStart = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// at is queueStart plus ms milliseconds.
func at(ms int64) time.Time { return queueStart.Add(time.Duration(ms) * time.Millisecond) }

func pendingPod(name string, prio int32, gates ...string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}}
	p.Spec.Priority = &prio
	for _, g := range gates {
		p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, api.PodSchedulingGate{Name: g})
	}
	return p
}

func newTestQueue(t *testing.T, cfg QueueConfig) *Queue {
	t.Helper()
	q, err := NewQueue(cfg, queueStart)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustQ(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func placeOf(t *testing.T, q *Queue, key string) QueuePlace {
	t.Helper()
	e, ok := q.Entry(key)
	if !ok {
		t.Fatalf("%s not in the queue", key)
	}
	return e.Place
}

func mustPop(t *testing.T, q *Queue, now time.Time, want string) {
	t.Helper()
	pod, _, ok := q.Pop(now)
	if !ok {
		t.Fatalf("pop at %v: nothing, want %s", now, want)
	}
	if pod.Key() != want {
		t.Fatalf("pop at %v: %s, want %s", now, pod.Key(), want)
	}
}

func TestQueueConfigBackoff(t *testing.T) {
	for _, tc := range []struct {
		cfg   QueueConfig
		count int
		want  time.Duration
	}{
		{QueueConfig{}, 0, 0},
		{QueueConfig{}, 1, time.Second},
		{QueueConfig{}, 2, 2 * time.Second},
		{QueueConfig{}, 3, 4 * time.Second},
		{QueueConfig{}, 4, 8 * time.Second},
		{QueueConfig{}, 5, 10 * time.Second},
		{QueueConfig{}, 1000, 10 * time.Second},
		{QueueConfig{PodInitialBackoff: 3 * time.Second, PodMaxBackoff: 20 * time.Second}, 3, 12 * time.Second},
		{QueueConfig{PodInitialBackoff: 3 * time.Second, PodMaxBackoff: 20 * time.Second}, 4, 20 * time.Second},
		{QueueConfig{PodInitialBackoff: time.Second, PodMaxBackoff: time.Second}, 7, time.Second},
		{QueueConfig{PodInitialBackoff: time.Duration(1) << 61, PodMaxBackoff: time.Duration(1<<63 - 1)}, 5, time.Duration(1<<63 - 1)},
	} {
		if got := tc.cfg.Backoff(tc.count); got != tc.want {
			t.Errorf("%+v.Backoff(%d) = %v, want %v", tc.cfg, tc.count, got, tc.want)
		}
	}
}

func TestNewQueueRejectsBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg   QueueConfig
		field string
	}{
		{QueueConfig{PodInitialBackoff: -time.Second}, "PodInitialBackoff"},
		{QueueConfig{PodMaxBackoff: -time.Second}, "PodMaxBackoff"},
		{QueueConfig{PodMaxInUnschedulablePodsDuration: -time.Second}, "PodMaxInUnschedulablePodsDuration"},
		{QueueConfig{PodInitialBackoff: 20 * time.Second}, "PodMaxBackoff"},
		{QueueConfig{PodInitialBackoff: 2 * time.Second, PodMaxBackoff: time.Second}, "PodMaxBackoff"},
	} {
		q, err := NewQueue(tc.cfg, queueStart)
		if q != nil || !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("NewQueue(%+v) = %v, %v; want an api.ErrInvalidInput naming %s", tc.cfg, q, err, tc.field)
		}
	}
	q := newTestQueue(t, QueueConfig{PodInitialBackoff: 5 * time.Second})
	want := QueueConfig{PodInitialBackoff: 5 * time.Second, PodMaxBackoff: 10 * time.Second, PodMaxInUnschedulablePodsDuration: 5 * time.Minute}
	if diff := cmp.Diff(want, q.Config()); diff != "" {
		t.Errorf("resolved config (-want +got):\n%s", diff)
	}
}

// The backoff expiry is truncated to a whole second and the pod still
// backs off during that second, so the flush one second later activates
// it.
func TestQueueBackoffExpiryTruncated(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("a", 0), at(100)))
	mustPop(t, q, at(200), "default/a")
	mustQ(t, q.FailWithError("default/a", at(12_901)))
	e, _ := q.Entry("default/a")
	if want := at(13_000); !e.BackoffUntil.Equal(want) || e.Place != QueueBackoff {
		t.Fatalf("after the error: %v until %v, want backoff until %v", e.Place, e.BackoffUntil, want)
	}
	q.Tick(at(13_999))
	if p := placeOf(t, q, "default/a"); p != QueueBackoff {
		t.Fatalf("at 13.999 s the pod is %s, want backoff", p)
	}
	q.Tick(at(14_000))
	if p := placeOf(t, q, "default/a"); p != QueueActive {
		t.Fatalf("at the 14 s flush the pod is %s, want active", p)
	}
	// A second consecutive error doubles the backoff; a rejection after
	// errors counts rejections again.
	mustPop(t, q, at(14_500), "default/a")
	mustQ(t, q.FailWithError("default/a", at(14_600)))
	if e, _ := q.Entry("default/a"); e.BackoffCount() != 2 || !e.BackoffUntil.Equal(at(16_000)) {
		t.Fatalf("second error: count %d until %v, want 2 and %v", e.BackoffCount(), e.BackoffUntil, at(16_000))
	}
	mustPop(t, q, at(20_000), "default/a")
	mustQ(t, q.Fail("default/a", []string{PluginNodeResourcesFit}, at(20_000)))
	if e, _ := q.Entry("default/a"); e.BackoffCount() != 1 || e.Place != QueueUnschedulable || e.ConsecutiveErrors != 0 {
		t.Fatalf("rejection after errors: %+v, want count 1 in the unschedulable pool", e)
	}
}

// With the active queue empty, Pop takes a pod backing off after a
// rejection before its backoff ends, never one backing off after an error.
func TestQueuePopFromBackoff(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("rejected", 0), at(0)))
	mustQ(t, q.Add(pendingPod("errored", 100), at(1)))
	mustPop(t, q, at(10), "default/errored")
	mustPop(t, q, at(20), "default/rejected")
	q.Move(at(30)) // reaches the rejected pod in flight
	mustQ(t, q.Fail("default/rejected", []string{PluginTaintToleration}, at(40)))
	mustQ(t, q.FailWithError("default/errored", at(50)))
	want := QueueState{Backoff: []BackingOffPod{{"default/errored", at(1000)}, {"default/rejected", at(1000)}}}
	if diff := cmp.Diff(want, q.State()); diff != "" {
		t.Fatalf("state (-want +got):\n%s", diff)
	}
	pod, attempts, ok := q.Pop(at(60))
	if !ok || pod.Name != "rejected" || attempts != 2 {
		t.Fatalf("pop = %v %d %v, want the rejected pod early, attempt 2", pod, attempts, ok)
	}
	if pod, _, ok := q.Pop(at(70)); ok {
		t.Fatalf("popped %s backing off after an error", pod.Key())
	}
	mustPop(t, q, at(2000), "default/errored")
}

// The leftover flush runs at the start and every 30 s, and takes pods
// unschedulable for strictly more than the limit.
func TestQueueLeftoverFlush(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("a", 0), at(0)))
	mustQ(t, q.Add(pendingPod("b", 0), at(1)))
	mustPop(t, q, at(10), "default/a")
	mustQ(t, q.Fail("default/a", []string{PluginNodeAffinity}, at(10_500)))
	mustPop(t, q, at(20_000), "default/b")
	mustQ(t, q.Fail("default/b", []string{PluginNodeAffinity}, at(30_000)))
	if next, ok := q.NextFlush(); !ok || !next.Equal(at(330_000)) {
		t.Fatalf("NextFlush = %v %v, want %v", next, ok, at(330_000))
	}
	q.Tick(at(329_999))
	if p := placeOf(t, q, "default/a"); p != QueueUnschedulable {
		t.Fatalf("before the 330 s flush a is %s", p)
	}
	q.Tick(at(330_000))
	if p := placeOf(t, q, "default/a"); p != QueueActive {
		t.Fatalf("after the 330 s flush a is %s, want active", p)
	}
	// b failed at exactly 30 s: 300 s old at the 330 s flush is not more
	// than 300 s.
	if p := placeOf(t, q, "default/b"); p != QueueUnschedulable {
		t.Fatalf("after the 330 s flush b is %s, want still unschedulable", p)
	}
	q.Tick(at(360_000))
	if p := placeOf(t, q, "default/b"); p != QueueActive {
		t.Fatalf("after the 360 s flush b is %s, want active", p)
	}
}

// A leftover flush that takes a gated pod (which stays gated) is a
// wildcard event for the pods in flight: a rejection then goes to backoff.
func TestQueueLeftoverFlushOfGatedPodIsWildcard(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("gated", 0, "example.com/quota"), at(500)))
	mustQ(t, q.Add(pendingPod("p", 0), at(301_000)))
	mustPop(t, q, at(301_100), "default/p")
	mustQ(t, q.Fail("default/p", []string{PluginNodeResourcesFit}, at(329_000)))
	if p := placeOf(t, q, "default/p"); p != QueueUnschedulable {
		t.Fatalf("rejected before the 330 s flush: %s, want unschedulable", p)
	}
	q.Activate("default/p", at(329_500))
	mustPop(t, q, at(329_600), "default/p")
	mustQ(t, q.Fail("default/p", []string{PluginNodeResourcesFit}, at(331_000)))
	if p := placeOf(t, q, "default/p"); p != QueueBackoff {
		t.Fatalf("rejected after the 330 s flush took the gated pod: %s, want backoff", p)
	}
	if p := placeOf(t, q, "default/gated"); p != QueueGated {
		t.Fatalf("gated pod is %s after the flush, want gated", p)
	}
}

// Activating a pod in flight sends its rejection to backoff; activating a
// pod in the pool or in backoff makes it active at once.
func TestQueueActivate(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("a", 0), at(0)))
	mustQ(t, q.Add(pendingPod("g", 0, "gate"), at(0)))
	mustPop(t, q, at(10), "default/a")
	if !q.Activate("default/a", at(20)) {
		t.Fatal("Activate of a pod in flight: not known")
	}
	mustQ(t, q.Fail("default/a", []string{PluginNodePorts}, at(30)))
	if p := placeOf(t, q, "default/a"); p != QueueBackoff {
		t.Fatalf("rejected after activation in flight: %s, want backoff", p)
	}
	q.Activate("default/a", at(40))
	q.Activate("default/g", at(40))
	if diff := cmp.Diff(QueueState{Active: []string{"default/a"}, Gated: []string{"default/g"}}, q.State()); diff != "" {
		t.Fatalf("after activation (-want +got):\n%s", diff)
	}
	if q.Activate("default/unknown", at(50)) {
		t.Fatal("Activate of an unknown pod reported known")
	}
}

// Ungating keeps the add time as the queue timestamp, so an early pod
// ungated late still goes before later ones of its priority.
func TestQueueUngateKeepsTimestamp(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("early", 0, "gate"), at(0)))
	mustQ(t, q.Add(pendingPod("late", 0), at(1000)))
	mustQ(t, q.Update(pendingPod("early", 0), at(5000)))
	mustPop(t, q, at(6000), "default/early")
}

func TestQueueErrors(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("a", 0), at(0)))
	for name, err := range map[string]error{
		"duplicate add":       q.Add(pendingPod("a", 0), at(1)),
		"nil add":             q.Add(nil, at(1)),
		"nameless add":        q.Add(&api.Pod{}, at(1)),
		"nil update":          q.Update(nil, at(1)),
		"fail of active pod":  q.Fail("default/a", nil, at(1)),
		"done of active pod":  q.Done("default/a", at(1)),
		"fail of unknown pod": q.Fail("default/x", nil, at(1)),
		"update unknown":      q.Update(pendingPod("x", 0), at(1)),
		"delete unknown":      q.Delete("default/x", at(1)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := q.Done("default/a", at(1)); !errors.Is(err, ErrNotInFlight) {
		t.Errorf("Done of an active pod: %v, want ErrNotInFlight", err)
	}
	if err := q.Done("default/x", at(1)); !errors.Is(err, ErrNotQueued) {
		t.Errorf("Done of an unknown pod: %v, want ErrNotQueued", err)
	}
	if err := q.Add(nil, at(1)); !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), "pod: nil") {
		t.Errorf("Add(nil) = %v", err)
	}
	mustQ(t, q.Delete("default/a", at(2)))
	if q.Len() != 0 {
		t.Errorf("Len after Delete = %d", q.Len())
	}
}

func TestQueueNil(t *testing.T) {
	var q *Queue
	if err := q.Add(pendingPod("a", 0), at(0)); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil queue Add: %v", err)
	}
	if _, _, ok := q.Pop(at(0)); ok {
		t.Error("nil queue popped")
	}
	q.Move(at(0))
	q.Tick(at(0))
	if q.Activate("default/a", at(0)) || q.Len() != 0 {
		t.Error("nil queue holds pods")
	}
	if diff := cmp.Diff(QueueState{}, q.State()); diff != "" {
		t.Error(diff)
	}
	if _, ok := q.NextFlush(); ok {
		t.Error("nil queue has a flush")
	}
}

// The clock never runs backwards: an earlier now is the latest one.
func TestQueueClockNeverRunsBackwards(t *testing.T) {
	q := newTestQueue(t, QueueConfig{})
	mustQ(t, q.Add(pendingPod("a", 0), at(0)))
	mustPop(t, q, at(5000), "default/a")
	mustQ(t, q.Fail("default/a", []string{PluginNodeName}, at(1000)))
	if e, _ := q.Entry("default/a"); !e.Timestamp.Equal(at(5000)) {
		t.Fatalf("failure stamped %v, want the latest clock reading %v", e.Timestamp, at(5000))
	}
}

func TestSchedulingGatesPreEnqueue(t *testing.T) {
	st := SchedulingGatesPreEnqueue(pendingPod("a", 0, "example.com/quota", "example.com/approval"))
	want := Status{Code: UnschedulableAndUnresolvable, Plugin: PluginSchedulingGates,
		Reasons: []string{"waiting for scheduling gates: [example.com/quota example.com/approval]"}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("gated pod (-want +got):\n%s", diff)
	}
	for _, pod := range []*api.Pod{nil, pendingPod("b", 0)} {
		if st := SchedulingGatesPreEnqueue(pod); !st.IsSuccess() {
			t.Errorf("pod %v: %v, want success", pod, st)
		}
	}
}
