// Package record is the event correlation of client-go's core/v1 event
// recorder (k8s.io/client-go/tools/record, EventCorrelator with its
// default options), which every kube-controller-manager controller and the
// kubelet record their Events through: which Events reach the API server,
// with which count, and when a series of similar Events is combined.
//
// For each Event a component records, in order:
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
// 4096 entries, as client-go does. kube-scheduler records through the
// events.k8s.io API (EventSeries), which this package does not model.
package record

import (
	"container/list"
	"fmt"
	"strings"
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
	groups *lru[*group]
	logs   *lru[int32]
	spam   *lru[*bucket]
}

// NewCorrelator returns a Correlator with client-go's defaults.
func NewCorrelator() *Correlator {
	return &Correlator{groups: newLRU[*group](CacheSize), logs: newLRU[int32](CacheSize), spam: newLRU[*bucket](CacheSize)}
}

type group struct {
	messages []string // distinct messages, oldest first
	last     time.Time
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
	object := strings.Join([]string{e.Source, in.Host, ref.Kind, ref.Namespace, ref.Name}, "\x00")
	eventKey := strings.Join([]string{object, ref.FieldPath, ref.UID, ref.APIVersion, e.Type, e.Reason, e.Note}, "\x00")
	groupKey := strings.Join([]string{object, ref.UID, ref.APIVersion, e.Type, e.Reason, e.Source}, "\x00")
	spamKey := strings.Join([]string{object, ref.UID, ref.APIVersion, e.Type}, "\x00")

	// Aggregation.
	g, ok := c.groups.get(groupKey)
	if !ok || now.Sub(g.last) > AggregateInterval {
		g = &group{}
	}
	if !contains(g.messages, e.Note) {
		g.messages = append(g.messages, e.Note)
	}
	g.last = now
	c.groups.add(groupKey, g)
	out := Output{Event: e}
	key := eventKey
	if len(g.messages) >= AggregateMaxEvents {
		g.messages = g.messages[1:]
		out.Combined = true
		out.Event.Note = CombinedPrefix + e.Note
		key = groupKey
	}

	// Counting.
	count, _ := c.logs.get(key)
	out.Count = count + 1
	c.logs.add(key, out.Count)

	// Spam filter.
	b, ok := c.spam.get(spamKey)
	if !ok {
		b = &bucket{tokens: SpamBurst}
	}
	tokens := b.tokens
	if !b.last.IsZero() && now.After(b.last) {
		tokens += now.Sub(b.last).Seconds() * spamQPS
	}
	if tokens > SpamBurst {
		tokens = SpamBurst
	}
	if tokens-1 >= 0 {
		b.tokens, b.last = tokens-1, now
	} else {
		out.Skip = true
	}
	c.spam.add(spamKey, b)
	if out.Skip {
		return Output{Skip: true}, nil
	}
	return out, nil
}

// NextDeadline is the zero time: a Correlator only acts when an Event is
// recorded.
func (c *Correlator) NextDeadline() time.Time { return time.Time{} }

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// lru is k8s.io/utils/lru's cache: a get makes an entry the most recent,
// an add inserts or refreshes it, and the least recent is evicted beyond
// max entries.
type lru[V any] struct {
	max   int
	order *list.List // front: most recent
	items map[string]*list.Element
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (l *lru[V]) get(key string) (V, bool) {
	if el, ok := l.items[key]; ok {
		l.order.MoveToFront(el)
		return el.Value.(*lruEntry[V]).val, true
	}
	var zero V
	return zero, false
}

func (l *lru[V]) add(key string, v V) {
	if el, ok := l.items[key]; ok {
		l.order.MoveToFront(el)
		el.Value.(*lruEntry[V]).val = v
		return
	}
	l.items[key] = l.order.PushFront(&lruEntry[V]{key: key, val: v})
	if l.order.Len() > l.max {
		old := l.order.Back()
		l.order.Remove(old)
		delete(l.items, old.Value.(*lruEntry[V]).key)
	}
}
