// Package record is what client-go's event recorders do between a
// component's Event and the API server: which Events reach it, when, with
// which count.
//
// Correlator is the core/v1 recorder's correlation
// (k8s.io/client-go/tools/record, EventCorrelator with its default
// options), which every kube-controller-manager controller and the kubelet
// record their Events through; Series is the events.k8s.io recorder's
// series cache (k8s.io/client-go/tools/events), which kube-scheduler
// records through. Both are pure state machines: an Event and now in,
// what is written out.
//
// The Correlator, for each Event a component records:
//
//  1. aggregation: Events alike but for their message — same source and
//     host, involved object (kind, namespace, name, uid, API version),
//     type and reason — are counted within 10 minutes of the previous one;
//     from the 10th distinct message on, the Event is replaced by one
//     whose message is "(combined from similar events): " and the new
//     message, one Event for the group;
//  2. counting: an Event identical to one already sent (same key, message
//     included, or the same combined group) is sent again as an update of
//     that Event with its count one higher;
//  3. spam filtering: each source, host, object and type has a token
//     bucket of 25 Events refilled at one per 5 minutes; an Event that
//     finds it empty is dropped (after steps 1 and 2 counted it, so a
//     later count jumps).
//
// Each of the three keeps its records in a least-recently-used cache of
// 4096 entries, as client-go does. (A Correlator also keeps a small id
// for every object it has seen an Event about, which its caches key by:
// that table grows with the objects, not with the Events.)
//
// The Series: an Event isomorphic to one written within the last minutes
// (same type, action, reason and regarding and related objects, the
// objects' resourceVersion included, whatever the note) joins its series,
// written once with count 2 and afterwards only by the periodic passes
// (every 30 minutes, and when the series ends 6 minutes after its last
// Event); see Series.
package record

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// The defaults of client-go's EventCorrelator.
const (
	// CacheSize is the size of each least-recently-used cache.
	CacheSize = 4096
	// AggregateMaxEvents is the number of distinct messages of a group
	// from which Events are combined.
	AggregateMaxEvents = 10
	// AggregateInterval is how long a group lasts after its last Event.
	AggregateInterval = 600 * time.Second
	// SpamBurst is the token bucket's size per source and object.
	SpamBurst = 25
	// CombinedPrefix starts the message of a combined Event.
	CombinedPrefix = "(combined from similar events): "
)

// spamQPS is the refill rate, one Event per 300 s, as the float32
// client-go holds it.
var spamQPS = float64(float32(1.0 / 300.0))

// Input is one Event a component records.
type Input struct {
	// Event is the Event as the component records it (Source is its
	// component).
	Event api.Event
	// Host is the event source's host: the node name for the kubelet, ""
	// for controllers.
	Host string
}

// Output is what the recorder sends.
type Output struct {
	// Skip says the spam filter dropped the Event: nothing is sent.
	Skip bool
	// Event is the Event sent: the input's, or the combined one (its Note
	// starting with CombinedPrefix).
	Event api.Event
	// Count is the Event's count: 1 for a new Event, more for an update
	// of one sent before.
	Count int32
	// Combined says the Event stands for its aggregation group.
	Combined bool
}

// Correlator is one recorder's EventCorrelator (one per event broadcaster:
// a controller, a kubelet). Its zero value is not ready: use
// NewCorrelator.
type Correlator struct {
	// objects interns each involved object (source, host and type
	// included) to a small id the three caches key by.
	objects map[objectKey]int32
	groups  *lru[groupKey, group]
	logs    *lru[logKey, int32]
	spam    *lru[int32, bucket]
}

// NewCorrelator returns a Correlator with client-go's defaults.
func NewCorrelator() *Correlator {
	return &Correlator{objects: map[objectKey]int32{}, groups: newLRU[groupKey, group](CacheSize),
		logs: newLRU[logKey, int32](CacheSize), spam: newLRU[int32, bucket](CacheSize)}
}

// objectKey is the spam filter's key: the source, the involved object and
// the type.
type objectKey struct {
	source, host, kind, namespace, name, uid, apiVersion, typ string
}

// groupKey is the aggregation key: the object and the reason.
type groupKey struct {
	object int32
	reason string
}

// logKey is the count's key: an Event's (its group's, the field path and
// the message) or, for a combined Event, its group's alone.
type logKey struct {
	group     groupKey
	fieldPath string
	note      string
	combined  bool
}

type group struct {
	// first and more are the group's distinct messages, oldest first:
	// most groups hold one, kept without a slice.
	first string
	n     int
	more  []string
	last  time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// errNil is the error of a nil Correlator.
var errNil = fmt.Errorf("record: %w: correlator: nil (use NewCorrelator)", api.ErrInvalidInput)

// Step correlates one Event recorded at now (EventCorrelate).
//
// When a group already holds 10 distinct messages, client-go forgets one
// of them at random (a set's PopAny) before combining; this Correlator
// forgets the oldest, so that an old message seen again is combined or
// not deterministically. For groups whose messages are all distinct (a
// controller's "Created pod: ..." or "Scaled up ..."), the two agree.
func (c *Correlator) Step(in Input, now time.Time) (Output, error) {
	if c == nil || c.groups == nil {
		return Output{}, errNil
	}
	e := in.Event
	ref := e.Regarding
	ok := objectKey{source: e.Source, host: in.Host, kind: ref.Kind, namespace: ref.Namespace, name: ref.Name,
		uid: ref.UID, apiVersion: ref.APIVersion, typ: e.Type}
	obj, seen := c.objects[ok]
	if !seen {
		obj = int32(len(c.objects))
		c.objects[ok] = obj
	}
	gk := groupKey{object: obj, reason: e.Reason}

	// Aggregation.
	g, found := c.groups.touch(gk)
	if !found || now.Sub(g.last) > AggregateInterval {
		g.first, g.n, g.more = "", 0, g.more[:0]
	}
	if !g.has(e.Note) {
		g.add(e.Note)
	}
	g.last = now
	out := Output{Event: e}
	lk := logKey{group: gk, fieldPath: ref.FieldPath, note: e.Note}
	if g.n >= AggregateMaxEvents {
		g.dropOldest()
		out.Combined = true
		out.Event.Note = CombinedPrefix + e.Note
		lk = logKey{group: gk, combined: true}
	}

	// Counting.
	count, _ := c.logs.touch(lk)
	*count++
	out.Count = *count

	// Spam filter.
	b, found := c.spam.touch(obj)
	if !found {
		*b = bucket{tokens: SpamBurst}
	}
	tokens := b.tokens
	if !b.last.IsZero() && now.After(b.last) {
		tokens += now.Sub(b.last).Seconds() * spamQPS
	}
	if tokens > SpamBurst {
		tokens = SpamBurst
	}
	// x/time/rate accepts when the deficit would take no measurable time
	// (under a nanosecond) to refill.
	if tokens-1 >= 0 || time.Duration((1-tokens)/spamQPS*float64(time.Second)) == 0 {
		b.tokens, b.last = tokens-1, now
		return out, nil
	}
	return Output{Skip: true}, nil
}

func (g *group) has(m string) bool {
	if g.n > 0 && g.first == m {
		return true
	}
	for _, x := range g.more {
		if x == m {
			return true
		}
	}
	return false
}

func (g *group) add(m string) {
	if g.n == 0 {
		g.first = m
	} else {
		g.more = append(g.more, m)
	}
	g.n++
}

func (g *group) dropOldest() {
	if len(g.more) > 0 {
		g.first = g.more[0]
		g.more = append(g.more[:0], g.more[1:]...)
	} else {
		g.first = ""
	}
	g.n--
}

// NextDeadline is the zero time: a Correlator only acts when an Event is
// recorded.
func (c *Correlator) NextDeadline() time.Time { return time.Time{} }

// lru is k8s.io/utils/lru's cache as the correlator uses it (a get, then
// an add of the same key): touch makes the key the most recent, inserting
// it with a zero value when absent and evicting the least recent beyond
// max entries. Slots are reused, so a full cache allocates nothing.
type lru[K comparable, V any] struct {
	max        int
	idx        map[K]int32
	slots      []slot[K, V]
	head, tail int32 // most and least recent; -1 when empty
}

type slot[K comparable, V any] struct {
	key        K
	val        V
	prev, next int32
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, idx: map[K]int32{}, head: -1, tail: -1}
}

// touch returns the key's value, made the most recent, and whether it
// was there.
func (l *lru[K, V]) touch(key K) (*V, bool) {
	if i, ok := l.idx[key]; ok {
		l.unlink(i)
		l.pushFront(i)
		return &l.slots[i].val, true
	}
	var i int32
	if len(l.slots) < l.max {
		l.slots = append(l.slots, slot[K, V]{})
		i = int32(len(l.slots) - 1)
	} else {
		i = l.tail
		l.unlink(i)
		delete(l.idx, l.slots[i].key)
		var zero V
		l.slots[i].val = zero
	}
	l.slots[i].key = key
	l.idx[key] = i
	l.pushFront(i)
	return &l.slots[i].val, false
}

func (l *lru[K, V]) unlink(i int32) {
	s := &l.slots[i]
	if s.prev >= 0 {
		l.slots[s.prev].next = s.next
	} else {
		l.head = s.next
	}
	if s.next >= 0 {
		l.slots[s.next].prev = s.prev
	} else {
		l.tail = s.prev
	}
}

func (l *lru[K, V]) pushFront(i int32) {
	s := &l.slots[i]
	s.prev, s.next = -1, l.head
	if l.head >= 0 {
		l.slots[l.head].prev = i
	}
	l.head = i
	if l.tail < 0 {
		l.tail = i
	}
}
