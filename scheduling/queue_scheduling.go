package scheduling

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Defaults of kube-scheduler v1.36.3's scheduling queue
// (pkg/scheduler/backend/queue and the KubeSchedulerConfiguration
// defaults).
const (
	// DefaultPodInitialBackoff is podInitialBackoffSeconds: the backoff
	// after a pod's first failed attempt.
	DefaultPodInitialBackoff = 1 * time.Second
	// DefaultPodMaxBackoff is podMaxBackoffSeconds: the cap on the backoff,
	// which doubles with every further failure.
	DefaultPodMaxBackoff = 10 * time.Second
	// DefaultPodMaxInUnschedulablePodsDuration is how long a pod may sit in
	// the unschedulable pool before the periodic leftover flush moves it
	// out even though no cluster event asked for it.
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
)

// The queue's two periodic flushes, as PriorityQueue.Run schedules them.
const (
	// backoffFlushInterval: flushBackoffQCompleted runs at every whole
	// second of the clock (aligned to the backoff ordering window of
	// KEP-5142), moving pods whose backoff ended to the active queue.
	backoffFlushInterval = time.Second
	// unschedulableFlushInterval: flushUnschedulablePodsLeftover runs when
	// the queue starts and every 30 s after.
	unschedulableFlushInterval = 30 * time.Second
)

// Errors the Queue's methods wrap; test for them with errors.Is.
var (
	// ErrNotQueued: the key names no pod the queue holds.
	ErrNotQueued = errors.New("scheduling: pod not in the scheduling queue")
	// ErrNotInFlight: Fail or Done named a pod that is not in flight
	// (popped and not yet failed or done).
	ErrNotInFlight = errors.New("scheduling: pod not in flight")
)

// QueueConfig is the part of KubeSchedulerConfiguration that shapes the
// scheduling queue's timing. The zero value is kube-scheduler v1.36.3's
// default; a zero field means that field's default.
type QueueConfig struct {
	// PodInitialBackoff is podInitialBackoffSeconds (default 1 s): the
	// backoff after a pod's first failure.
	PodInitialBackoff time.Duration
	// PodMaxBackoff is podMaxBackoffSeconds (default 10 s): the backoff
	// doubles with each further failure up to this cap. It may not be
	// below PodInitialBackoff.
	PodMaxBackoff time.Duration
	// PodMaxInUnschedulablePodsDuration (default 5 min) is how long a pod
	// stays in the unschedulable pool, counted from its queue timestamp,
	// before the leftover flush moves it out.
	PodMaxInUnschedulablePodsDuration time.Duration
}

// resolved returns the configuration with defaults filled in, or an error
// naming the field kube-scheduler's configuration validation rejects.
func (cfg QueueConfig) resolved() (QueueConfig, error) {
	for _, f := range []struct {
		name string
		v    time.Duration
	}{
		{"PodInitialBackoff", cfg.PodInitialBackoff},
		{"PodMaxBackoff", cfg.PodMaxBackoff},
		{"PodMaxInUnschedulablePodsDuration", cfg.PodMaxInUnschedulablePodsDuration},
	} {
		if f.v < 0 {
			return cfg, fmt.Errorf("%w: QueueConfig.%s: %v: must not be negative", errInvalidInput, f.name, f.v)
		}
	}
	cfg = cfg.withDefaults()
	if cfg.PodMaxBackoff < cfg.PodInitialBackoff {
		return cfg, fmt.Errorf("%w: QueueConfig.PodMaxBackoff: %v: must be at least PodInitialBackoff (%v)",
			errInvalidInput, cfg.PodMaxBackoff, cfg.PodInitialBackoff)
	}
	return cfg, nil
}

// withDefaults replaces unset (zero or negative) fields with the defaults.
func (cfg QueueConfig) withDefaults() QueueConfig {
	if cfg.PodInitialBackoff <= 0 {
		cfg.PodInitialBackoff = DefaultPodInitialBackoff
	}
	if cfg.PodMaxBackoff <= 0 {
		cfg.PodMaxBackoff = DefaultPodMaxBackoff
	}
	if cfg.PodMaxInUnschedulablePodsDuration <= 0 {
		cfg.PodMaxInUnschedulablePodsDuration = DefaultPodMaxInUnschedulablePodsDuration
	}
	return cfg
}

// Backoff returns how long a pod backs off after count failed attempts
// (count as QueueEntry.BackoffCount defines it): PodInitialBackoff doubled
// count-1 times, capped at PodMaxBackoff; 0 when count is 0 or less. Zero
// fields count as their defaults.
func (cfg QueueConfig) Backoff(count int) time.Duration {
	if count <= 0 {
		return 0
	}
	cfg = cfg.withDefaults()
	d := cfg.PodInitialBackoff
	for i := 1; i < count && d < cfg.PodMaxBackoff; i++ {
		if d > cfg.PodMaxBackoff-d {
			return cfg.PodMaxBackoff
		}
		d += d
	}
	return min(d, cfg.PodMaxBackoff)
}

// QueuePlace says where the scheduling queue holds a pod.
type QueuePlace uint8

// The places of kube-scheduler's PriorityQueue.
const (
	// QueueActive: activeQ, the pods the next Pop chooses from.
	QueueActive QueuePlace = iota + 1
	// QueueBackoff: backoffQ, pods waiting for their backoff to end. Pods
	// whose last attempt was rejected by plugins may still be popped early
	// when activeQ is empty (SchedulerPopFromBackoffQ); pods whose last
	// attempt ended in an error may not.
	QueueBackoff
	// QueueUnschedulable: the unschedulable pool (unschedulablePods), pods
	// rejected by plugins, waiting for a cluster event or an activation,
	// or for the leftover flush.
	QueueUnschedulable
	// QueueGated: pods a PreEnqueue plugin (SchedulingGates) keeps out of
	// activeQ; upstream keeps them in the unschedulable pool, marked gated.
	QueueGated
	// QueueInFlight: popped, being scheduled; Fail or Done ends it.
	QueueInFlight
)

var queuePlaceNames = [...]string{"", "active", "backoff", "unschedulable", "gated", "inFlight"}

// String names the place: "active", "backoff", "unschedulable", "gated"
// or "inFlight".
func (p QueuePlace) String() string {
	if int(p) < len(queuePlaceNames) && p != 0 {
		return queuePlaceNames[p]
	}
	return fmt.Sprintf("QueuePlace(%d)", int(p))
}

// QueueEntry is what the scheduling queue knows of one pod, the
// counterpart of upstream's QueuedPodInfo.
type QueueEntry struct {
	Pod   *api.Pod
	Place QueuePlace
	// Timestamp is the pod's queue timestamp: when it was added, reset to
	// the failure time at each failed attempt. Moves, activation and
	// ungating keep it. Among pods of equal priority the earlier one pops
	// first.
	Timestamp time.Time
	// Attempts counts the times the pod was popped.
	Attempts int
	// UnschedulableCount counts the attempts plugins rejected.
	UnschedulableCount int
	// ConsecutiveErrors counts the attempts in a row, up to the latest,
	// that ended in an error; 0 when the latest failure was a rejection.
	ConsecutiveErrors int
	// UnschedulablePlugins are the plugins that rejected the pod's latest
	// attempt; empty when it ended in an error or never ran.
	UnschedulablePlugins []string
	// BackoffUntil is the instant the pod's current backoff ends: the
	// latest failure time plus Backoff(BackoffCount), truncated to a whole
	// second; zero for a pod that never failed. The pod is backing off at
	// time t while BackoffUntil is not before t truncated to a whole
	// second.
	BackoffUntil time.Time
}

// BackoffCount is the failure count the pod's backoff is computed from:
// ConsecutiveErrors when its latest failures were errors, else
// UnschedulableCount.
func (e QueueEntry) BackoffCount() int {
	if e.ConsecutiveErrors > 0 {
		return e.ConsecutiveErrors
	}
	return e.UnschedulableCount
}

// BackingOffPod is one pod of the backoff queue and when its backoff ends.
type BackingOffPod struct {
	Key   string
	Until time.Time
}

// QueueState lists where every pod of the queue is, by namespace/name key,
// each list sorted by key.
type QueueState struct {
	Active        []string
	Backoff       []BackingOffPod
	Unschedulable []string
	Gated         []string
	InFlight      []string
}

// queueEntry is the queue's record of one pod.
type queueEntry struct {
	key   string
	pod   *api.Pod
	place QueuePlace
	// index is the entry's position in the heap of its place; -1 in
	// flight.
	index int
	// seq orders entries the queue order cannot tell apart: the one that
	// entered its heap first leaves first.
	seq          uint64
	timestamp    time.Time
	attempts     int
	unschedCount int
	errCount     int
	plugins      []string
	// lastFailedWithError routes the pod to the error backoff queue,
	// whose pods are never popped before their backoff ends.
	lastFailedWithError bool
	until               time.Time
	// popEpoch is the queue's moveEpoch when the pod was popped; a larger
	// epoch at failure time means a wildcard event reached it in flight.
	popEpoch uint64
	// activated records an Activate while in flight.
	activated bool
}

func (e *queueEntry) backoffCount() int {
	if e.errCount > 0 {
		return e.errCount
	}
	return e.unschedCount
}

// backingOff reports whether the pod is still backing off at now, as the
// backoff queue's isPodBackingoff decides it: the expiry is compared with
// now truncated to a whole second, so a pod is still backing off during
// the whole second its backoff ends in.
func (e *queueEntry) backingOff(now time.Time) bool {
	return e.backoffCount() > 0 && !e.until.Before(now.Truncate(backoffFlushInterval))
}

// queueOrderLess is the active queue's order (the default QueueSort
// plugin, QueueCompare), ties broken by arrival in the heap.
func queueOrderLess(a, b *queueEntry) bool {
	qa, qb := QueuedPod{Pod: a.pod, Timestamp: a.timestamp}, QueuedPod{Pod: b.pod, Timestamp: b.timestamp}
	if c := QueueCompare(qa, qb); c != 0 {
		return c < 0
	}
	return a.seq < b.seq
}

// backoffLess orders the backoff queue of rejected pods: earliest expiry
// first, then as the active queue (KEP-5142 orders each one-second window
// like activeQ so that popping from it early picks the right pod).
func backoffLess(a, b *queueEntry) bool {
	if !a.until.Equal(b.until) {
		return a.until.Before(b.until)
	}
	return queueOrderLess(a, b)
}

// errorBackoffLess orders the error backoff queue: earliest expiry first.
func errorBackoffLess(a, b *queueEntry) bool {
	if !a.until.Equal(b.until) {
		return a.until.Before(b.until)
	}
	return a.seq < b.seq
}

// timestampLess orders the unschedulable and gated pools for the leftover
// flush: oldest queue timestamp first.
func timestampLess(a, b *queueEntry) bool {
	if !a.timestamp.Equal(b.timestamp) {
		return a.timestamp.Before(b.timestamp)
	}
	return a.seq < b.seq
}

// Queue is kube-scheduler v1.36.3's scheduling queue (the PriorityQueue
// of pkg/scheduler/backend/queue, default profile, feature gates
// SchedulerQueueingHints and SchedulerPopFromBackoffQ on) as a pure state
// machine: it decides which pending pod the scheduler tries next and when
// a pod that failed is tried again. It only orders pods; it never
// schedules them.
//
// Time is an argument: every method that changes the queue takes now,
// and first runs the periodic flushes that upstream's goroutines would
// have run at or before now, oldest first (the backoff flush before the
// leftover flush when both fall on one instant):
//   - the backoff flush, at every whole second after the start time:
//     backoff pods whose BackoffUntil is before that second go to active;
//   - the leftover flush, at the start time and every 30 s after it: pods
//     of the unschedulable pool whose queue timestamp is more than
//     PodMaxInUnschedulablePodsDuration old go to backoff, or to active
//     when no longer backing off. Gated pods past that age stay gated but
//     count as taken: a flush that took any pod is a wildcard cluster
//     event for every pod then in flight (see Fail).
//
// Tick runs the flushes alone. A now earlier than the latest one a method
// saw is taken as that latest time: the queue's clock never runs
// backwards (nor before the start time).
//
// Pods are identified by their namespace/name key (api.Pod.Key). The
// queue keeps the *api.Pod it is given and never modifies it; replace it
// with Update.
//
// Costs: Add, Pop, Fail, Done, Update, Delete and Activate are O(log n)
// plus the flushes they run; a flush or Move costs O(log n) per pod it
// moves, nothing for the pods it leaves; State is O(n log n).
//
// A Queue is not safe for concurrent use.
type Queue struct {
	cfg   QueueConfig
	start time.Time
	now   time.Time
	// nextBackoffFlush and nextLeftoverFlush are the next flush instants
	// not yet run.
	nextBackoffFlush  time.Time
	nextLeftoverFlush time.Time

	entries       map[string]*queueEntry
	active        entryHeap
	backoff       entryHeap // failed by plugins
	errorBackoff  entryHeap // failed with an error
	unschedulable entryHeap
	gated         entryHeap

	// moveEpoch counts wildcard cluster events (Move, a leftover flush
	// that took a pod); in-flight pods compare it with their popEpoch.
	moveEpoch uint64
	seq       uint64
}

// NewQueue returns an empty scheduling queue with configuration cfg (zero
// fields mean v1.36.3's defaults) whose clock starts at start, the moment
// the scheduler's queue started running: the leftover flushes fall on
// start + k·30 s, the backoff flushes on the whole seconds after start.
// An invalid configuration (a negative duration, PodMaxBackoff below
// PodInitialBackoff) is an error wrapping api.ErrInvalidInput.
func NewQueue(cfg QueueConfig, start time.Time) (*Queue, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return nil, err
	}
	q := &Queue{
		cfg:               cfg,
		start:             start,
		now:               start,
		nextBackoffFlush:  start.Truncate(backoffFlushInterval).Add(backoffFlushInterval),
		nextLeftoverFlush: start,
		entries:           map[string]*queueEntry{},
	}
	q.active.less = queueOrderLess
	q.backoff.less = backoffLess
	q.errorBackoff.less = errorBackoffLess
	q.unschedulable.less = timestampLess
	q.gated.less = timestampLess
	return q, nil
}

// errNilQueue is what methods of a nil *Queue return.
var errNilQueue = fmt.Errorf("%w: queue: nil", errInvalidInput)

// Config returns the queue's configuration with defaults filled in.
// A nil queue has the zero configuration.
func (q *Queue) Config() QueueConfig {
	if q == nil {
		return QueueConfig{}
	}
	return q.cfg
}

// Len is the number of pods the queue holds, in flight included. A nil
// queue holds none.
func (q *Queue) Len() int {
	if q == nil {
		return 0
	}
	return len(q.entries)
}

// Add puts a new pending pod in the queue at now, as the pod informer's
// add handler does: into the gated pool when SchedulingGatesPreEnqueue
// holds it back (it has spec.schedulingGates), else into the active
// queue. Its queue timestamp is now. A nil pod, one without a name, or one
// whose key the queue already holds is an error wrapping
// api.ErrInvalidInput.
func (q *Queue) Add(pod *api.Pod, now time.Time) error {
	if q == nil {
		return errNilQueue
	}
	if pod == nil {
		return fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if pod.Name == "" {
		return fmt.Errorf("%w: pod without metadata.name", errInvalidInput)
	}
	key := pod.Key()
	if _, dup := q.entries[key]; dup {
		return fmt.Errorf("%w: duplicate pod %q", errInvalidInput, key)
	}
	now = q.advance(now)
	e := &queueEntry{key: key, pod: pod, timestamp: now, index: -1}
	q.entries[key] = e
	if !SchedulingGatesPreEnqueue(pod).IsSuccess() {
		q.place(e, QueueGated)
	} else {
		q.place(e, QueueActive)
	}
	return nil
}

// Update replaces a queued pod's object at now, as the pod informer's
// update handler does. A gated pod whose new object has no scheduling
// gates left leaves the gated pool for backoff, or for active when it is
// not backing off. Elsewhere the pod keeps its place and its queue
// timestamp: the queueing hints plugins register for pod updates are not
// modelled, so a caller who knows an update makes an unschedulable pod
// schedulable calls Activate or Move. A nil pod is an error wrapping
// api.ErrInvalidInput; an unknown key one wrapping ErrNotQueued.
func (q *Queue) Update(pod *api.Pod, now time.Time) error {
	if q == nil {
		return errNilQueue
	}
	if pod == nil {
		return fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	e, err := q.lookup(pod.Key())
	if err != nil {
		return err
	}
	now = q.advance(now)
	e.pod = pod
	switch e.place {
	case QueueActive, QueueBackoff:
		q.heapOf(e).fix(e.index)
	case QueueGated:
		if SchedulingGatesPreEnqueue(pod).IsSuccess() {
			q.gated.remove(e)
			q.toBackoffOrActive(e, now)
		}
	}
	return nil
}

// Delete removes the pod with key (namespace/name) from the queue
// wherever it is, as the pod informer's delete handler does (a pod in
// flight is forgotten too). An unknown key is an error wrapping
// ErrNotQueued; a nil queue one wrapping api.ErrInvalidInput.
func (q *Queue) Delete(key string, now time.Time) error {
	if q == nil {
		return errNilQueue
	}
	e, err := q.lookup(key)
	if err != nil {
		return err
	}
	q.forget(e, now)
	return nil
}

// Pop hands out the pod the scheduler tries next at now and puts it in
// flight, its Attempts one higher (attempts is that new count): the best
// pod of the active queue by the queue order (QueueCompare: higher priority,
// then earlier queue timestamp); when the active queue is empty, the
// backoff pod whose latest attempt plugins rejected with the earliest
// BackoffUntil (then by the queue order) even though its backoff has not
// ended (SchedulerPopFromBackoffQ). Pods backing off after an error and
// gated pods are never popped. With nothing to pop, ok is false and the
// queue is unchanged (upstream's Pop would block). A nil queue pops
// nothing.
func (q *Queue) Pop(now time.Time) (pod *api.Pod, attempts int, ok bool) {
	if q == nil {
		return nil, 0, false
	}
	q.advance(now)
	var e *queueEntry
	switch {
	case q.active.len() > 0:
		e = q.active.pop()
	case q.backoff.len() > 0:
		e = q.backoff.pop()
	default:
		return nil, 0, false
	}
	e.attempts++
	e.popEpoch = q.moveEpoch
	e.activated = false
	e.place = QueueInFlight
	return e.pod, e.attempts, true
}

// Fail hands an in-flight pod back after a failed attempt at now, as the
// scheduler's failure handler does (AddUnschedulableIfNotPresent). plugins
// are the plugins that rejected the pod: the attempt ended Unschedulable.
// An empty or nil list means the attempt ended in an error (see
// FailWithError).
//
// The pod's queue timestamp becomes now and its backoff is recomputed
// (QueueEntry.BackoffUntil). An error sends it to backoff. A rejection
// sends it to the unschedulable pool, unless a wildcard cluster event
// (Move, or a leftover flush that took a pod) or an Activate of this pod
// arrived while it was in flight: then it goes to backoff, as the queueing
// hints requeue it. (A pod that just failed is always still backing off.)
// A key not in flight is an error wrapping ErrNotInFlight (ErrNotQueued
// when the queue does not hold it at all); a nil queue one wrapping
// api.ErrInvalidInput.
func (q *Queue) Fail(key string, plugins []string, now time.Time) error {
	if q == nil {
		return errNilQueue
	}
	e, err := q.inFlightEntry(key)
	if err != nil {
		return err
	}
	q.fail(e, plugins, now)
	return nil
}

// fail hands e back after a failed attempt at now (see Fail).
func (q *Queue) fail(e *queueEntry, plugins []string, now time.Time) {
	now = q.advance(now)
	e.place = 0
	e.timestamp = now
	if len(plugins) == 0 {
		e.errCount++
		e.plugins = nil
		e.lastFailedWithError = true
	} else {
		e.unschedCount++
		e.errCount = 0
		e.plugins = slices.Clone(plugins)
		e.lastFailedWithError = false
	}
	e.until = now.Add(q.cfg.Backoff(e.backoffCount())).Truncate(backoffFlushInterval)
	if e.lastFailedWithError || e.activated || e.popEpoch != q.moveEpoch {
		q.toBackoffOrActive(e, now)
	} else {
		q.place(e, QueueUnschedulable)
	}
}

// takeDone is Done returning the entry it forgot (nil with the error).
func (q *Queue) takeDone(key string, now time.Time) (*queueEntry, error) {
	e, err := q.inFlightEntry(key)
	if err != nil {
		return nil, err
	}
	q.forget(e, now)
	return e, nil
}

// readdAfterError puts back e, an entry Done took out, with pod its
// object, after an error at now (a failed binding cycle): as
// AddUnschedulableIfNotPresent with an error, it keeps the entry's counts
// and backs off. A pod the queue holds again is left where it is.
func (q *Queue) readdAfterError(e *queueEntry, pod *api.Pod, now time.Time) {
	if _, ok := q.entries[e.key]; ok {
		return
	}
	e.pod, e.index, e.activated = pod, -1, false
	e.popEpoch = q.moveEpoch
	q.entries[e.key] = e
	q.fail(e, nil, now)
}

// FailWithError hands an in-flight pod back after an attempt that ended
// in an error (not a plugin rejection) at now: Fail with no plugins. The
// pod backs off for Backoff(consecutive errors) and, unlike a rejected
// pod, is never popped before its backoff ends. A nil queue is an error
// wrapping api.ErrInvalidInput.
func (q *Queue) FailWithError(key string, now time.Time) error {
	return q.Fail(key, nil, now)
}

// Done ends an in-flight pod's attempt successfully at now: the pod was
// scheduled (assumed and bound) and leaves the queue. A key not in flight
// is an error wrapping ErrNotInFlight (ErrNotQueued when the queue does
// not hold it); a nil queue one wrapping api.ErrInvalidInput.
func (q *Queue) Done(key string, now time.Time) error {
	if q == nil {
		return errNilQueue
	}
	e, err := q.inFlightEntry(key)
	if err != nil {
		return err
	}
	q.forget(e, now)
	return nil
}

// forget takes e out of the queue at now.
func (q *Queue) forget(e *queueEntry, now time.Time) {
	q.advance(now)
	q.unplace(e)
	delete(q.entries, e.key)
}

// Activate forces a pod back into the active queue at now, as a plugin's
// PodsToActivate does: a pod in the unschedulable pool or in backoff goes
// to active at once, keeping its queue timestamp; a pod in flight records
// the activation, so that a rejection of the current attempt sends it to
// backoff instead of the unschedulable pool; gated and active pods stay
// where they are. A key the queue does not hold (a pod already scheduled
// or deleted) is ignored, as upstream ignores it: known is then false. A
// nil queue holds nothing.
func (q *Queue) Activate(key string, now time.Time) (known bool) {
	if q == nil {
		return false
	}
	q.advance(now)
	e, ok := q.entries[key]
	if !ok {
		return false
	}
	switch e.place {
	case QueueUnschedulable, QueueBackoff:
		q.unplace(e)
		q.place(e, QueueActive)
	case QueueInFlight:
		e.activated = true
	}
	return true
}

// Move delivers a cluster event every pod is interested in (upstream's
// wildcard event, as MoveAllToActiveOrBackoffQueue gets it) at now: every
// pod of the unschedulable pool goes to backoff, or to active when it is
// no longer backing off; gated pods stay gated; every pod in flight
// records the event (see Fail). A nil queue does nothing.
func (q *Queue) Move(now time.Time) {
	if q == nil {
		return
	}
	now = q.advance(now)
	q.moveAllUnschedulable(now)
	q.moveEpoch++
}

// Tick runs the periodic flushes due at or before now and nothing else.
// Every other method runs them itself; Tick is for a caller that wants
// the state at a given time (State, Entry). A nil queue does nothing.
func (q *Queue) Tick(now time.Time) {
	if q == nil {
		return
	}
	q.advance(now)
}

// NextFlush returns the next instant at which a periodic flush will move
// a pod if no other call changes the queue before: the backoff flush that
// activates the earliest-expiring backoff pod, or the leftover flush that
// takes the oldest unschedulable pod. A caller whose Pop found nothing
// can wait until then (or until an event). ok is false when no flush will
// move any pod. A nil queue has none.
func (q *Queue) NextFlush() (at time.Time, ok bool) {
	if q == nil {
		return time.Time{}, false
	}
	fb, okb := q.nextBackoffMove()
	fl, okl := q.nextLeftoverMove()
	switch {
	case okb && okl:
		if fl.Before(fb) {
			return fl, true
		}
		return fb, true
	case okb:
		return fb, true
	case okl:
		return fl, true
	}
	return time.Time{}, false
}

// NextDeadline returns the earliest time the queue hands out a pod if no
// other call changes it before: its clock reading (the latest time it was
// given) when Pop would hand out a pod now (a pod in the active queue, or
// a backoff pod a plugin rejected, which SchedulerPopFromBackoffQ pops
// early when the active queue is empty), else the next flush that makes
// one available (NextFlush: a backoff ending after an error, the
// unschedulable pool's leftover flush). The zero time means never, until
// another call changes the queue. A nil queue has none.
func (q *Queue) NextDeadline() time.Time {
	if q == nil {
		return time.Time{}
	}
	if q.active.len() > 0 || q.backoff.len() > 0 {
		return q.now
	}
	at, _ := q.NextFlush()
	return at
}

// moveEntriesIf moves every pod of the unschedulable pool for which worth
// says yes to backoff or active at now: a cluster event that the pod's
// rejecting plugins registered for and whose hints say Queue
// (MoveAllToActiveOrBackoffQueue). Unlike Move it records nothing for
// pods in flight.
func (q *Queue) moveEntriesIf(now time.Time, worth func(e *queueEntry) bool) {
	now = q.advance(now)
	var moved []*queueEntry
	for _, e := range q.unschedulable.items {
		if worth(e) {
			moved = append(moved, e)
		}
	}
	for _, e := range moved {
		q.unschedulable.remove(e)
		e.place = 0
		q.toBackoffOrActive(e, now)
	}
}

// Entry returns what the queue knows of the pod with key (namespace/name)
// as of the latest call (run Tick first for a later time); ok is false
// when the queue does not hold it. A nil queue holds nothing.
func (q *Queue) Entry(key string) (entry QueueEntry, ok bool) {
	if q == nil {
		return QueueEntry{}, false
	}
	e, ok := q.entries[key]
	if !ok {
		return QueueEntry{}, false
	}
	return QueueEntry{
		Pod:                  e.pod,
		Place:                e.place,
		Timestamp:            e.timestamp,
		Attempts:             e.attempts,
		UnschedulableCount:   e.unschedCount,
		ConsecutiveErrors:    e.errCount,
		UnschedulablePlugins: slices.Clone(e.plugins),
		BackoffUntil:         e.until,
	}, true
}

// State lists where every pod is as of the latest call (run Tick first
// for a later time). A nil queue is empty.
func (q *Queue) State() QueueState {
	var s QueueState
	if q == nil {
		return s
	}
	for key, e := range q.entries {
		s.add(key, e.place, e.until)
	}
	s.sort()
	return s
}

// add lists key under place p (until is its backoff expiry).
func (s *QueueState) add(key string, p QueuePlace, until time.Time) {
	switch p {
	case QueueActive:
		s.Active = append(s.Active, key)
	case QueueBackoff:
		s.Backoff = append(s.Backoff, BackingOffPod{Key: key, Until: until})
	case QueueUnschedulable:
		s.Unschedulable = append(s.Unschedulable, key)
	case QueueGated:
		s.Gated = append(s.Gated, key)
	case QueueInFlight:
		s.InFlight = append(s.InFlight, key)
	}
}

func (s *QueueState) sort() {
	slices.Sort(s.Active)
	slices.Sort(s.Unschedulable)
	slices.Sort(s.Gated)
	slices.Sort(s.InFlight)
	slices.SortFunc(s.Backoff, func(a, b BackingOffPod) int { return strings.Compare(a.Key, b.Key) })
}

func (q *Queue) lookup(key string) (*queueEntry, error) {
	e, ok := q.entries[key]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotQueued, key)
	}
	return e, nil
}

// inFlightEntry returns the entry of key, which must be in flight.
func (q *Queue) inFlightEntry(key string) (*queueEntry, error) {
	e, err := q.lookup(key)
	if err == nil && e.place != QueueInFlight {
		err = fmt.Errorf("%w: %q is %s", ErrNotInFlight, key, e.place)
	}
	return e, err
}

// heapOf returns the heap that holds e in its place: nil in flight or
// nowhere; in backoff, the error backoff queue when its latest attempt
// ended in an error.
func (q *Queue) heapOf(e *queueEntry) *entryHeap {
	switch e.place {
	case QueueActive:
		return &q.active
	case QueueBackoff:
		if e.lastFailedWithError {
			return &q.errorBackoff
		}
		return &q.backoff
	case QueueUnschedulable:
		return &q.unschedulable
	case QueueGated:
		return &q.gated
	}
	return nil
}

// place puts e, which is nowhere, into place p (not QueueInFlight).
func (q *Queue) place(e *queueEntry, p QueuePlace) {
	e.place = p
	q.seq++
	e.seq = q.seq
	q.heapOf(e).push(e)
}

// unplace takes e out of its place.
func (q *Queue) unplace(e *queueEntry) {
	if h := q.heapOf(e); h != nil {
		h.remove(e)
	}
	e.place = 0
}

// toBackoffOrActive puts e, which is nowhere, into backoff when it is
// still backing off at now, else into the active queue.
func (q *Queue) toBackoffOrActive(e *queueEntry, now time.Time) {
	if e.backingOff(now) {
		q.place(e, QueueBackoff)
	} else {
		q.place(e, QueueActive)
	}
}

// moveAllUnschedulable sends every pod of the unschedulable pool to
// backoff or active at now.
func (q *Queue) moveAllUnschedulable(now time.Time) {
	for _, e := range q.unschedulable.items {
		e.index = -1
		e.place = 0
		q.toBackoffOrActive(e, now)
	}
	clear(q.unschedulable.items)
	q.unschedulable.items = q.unschedulable.items[:0]
}

// advance runs the periodic flushes due at or before now and returns the
// queue's new clock reading (now, or the previous reading when now is
// earlier).
//
// Flushes that would move nothing are skipped: between two calls only the
// flushes change the backoff heaps and the unschedulable pool, so the loop
// jumps from one flush that moves a pod to the next, in time order. Gated
// pods and in-flight pods do not change between calls, so whether any
// leftover flush in the interval took a gated pod (a wildcard event for
// the pods in flight) is decided once, at the interval's last leftover
// flush.
func (q *Queue) advance(now time.Time) time.Time {
	if now.Before(q.now) {
		now = q.now
	}
	firstLeftover := q.nextLeftoverFlush
	for {
		fb, okb := q.nextBackoffMove()
		fl, okl := q.nextLeftoverMove()
		okb = okb && !fb.After(now)
		okl = okl && !fl.After(now)
		switch {
		case okb && (!okl || !fl.Before(fb)):
			q.flushBackoff(fb)
			q.nextBackoffFlush = fb.Add(backoffFlushInterval)
			continue
		case okl:
			q.flushLeftover(fl)
			q.nextLeftoverFlush = fl.Add(unschedulableFlushInterval)
			continue
		}
		break
	}
	if now.Before(firstLeftover) {
		q.now = now
		return now
	}
	last := q.start.Add(now.Sub(q.start) / unschedulableFlushInterval * unschedulableFlushInterval)
	if g := q.gated.peek(); g != nil && !last.Before(firstLeftover) && last.Sub(g.timestamp) > q.cfg.PodMaxInUnschedulablePodsDuration {
		q.moveEpoch++
	}
	if next := now.Truncate(backoffFlushInterval).Add(backoffFlushInterval); next.After(q.nextBackoffFlush) {
		q.nextBackoffFlush = next
	}
	if next := last.Add(unschedulableFlushInterval); next.After(q.nextLeftoverFlush) {
		q.nextLeftoverFlush = next
	}
	q.now = now
	return now
}

// nextBackoffMove is the first backoff flush not yet run that moves a pod:
// the first whole second after the earliest expiry in the backoff heaps.
func (q *Queue) nextBackoffMove() (time.Time, bool) {
	var earliest *queueEntry
	if e := q.backoff.peek(); e != nil {
		earliest = e
	}
	if e := q.errorBackoff.peek(); e != nil && (earliest == nil || e.until.Before(earliest.until)) {
		earliest = e
	}
	if earliest == nil {
		return time.Time{}, false
	}
	at := earliest.until.Truncate(backoffFlushInterval).Add(backoffFlushInterval)
	if at.Before(q.nextBackoffFlush) {
		at = q.nextBackoffFlush
	}
	return at, true
}

// nextLeftoverMove is the first leftover flush not yet run that takes a
// pod of the unschedulable pool: the first flush instant more than
// PodMaxInUnschedulablePodsDuration after the oldest queue timestamp.
func (q *Queue) nextLeftoverMove() (time.Time, bool) {
	e := q.unschedulable.peek()
	if e == nil {
		return time.Time{}, false
	}
	at := q.start
	if threshold := e.timestamp.Add(q.cfg.PodMaxInUnschedulablePodsDuration); !threshold.Before(q.start) {
		at = q.start.Add((threshold.Sub(q.start)/unschedulableFlushInterval + 1) * unschedulableFlushInterval)
	}
	if at.Before(q.nextLeftoverFlush) {
		at = q.nextLeftoverFlush
	}
	return at, true
}

// flushBackoff is flushBackoffQCompleted at instant at: pods whose backoff
// ended before it go to the active queue.
func (q *Queue) flushBackoff(at time.Time) {
	for _, h := range []*entryHeap{&q.backoff, &q.errorBackoff} {
		for e := h.peek(); e != nil && e.until.Before(at); e = h.peek() {
			h.pop()
			q.place(e, QueueActive)
		}
	}
}

// flushLeftover is flushUnschedulablePodsLeftover at instant at, for the
// unschedulable pool: pods older than PodMaxInUnschedulablePodsDuration go
// to backoff or active, and the flush counts as a wildcard event for the
// pods in flight.
func (q *Queue) flushLeftover(at time.Time) {
	for e := q.unschedulable.peek(); e != nil && at.Sub(e.timestamp) > q.cfg.PodMaxInUnschedulablePodsDuration; e = q.unschedulable.peek() {
		q.unschedulable.pop()
		e.place = 0
		q.toBackoffOrActive(e, at)
	}
	q.moveEpoch++
}
