package namespace

import (
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// DeletionGracePeriod is how long after each change it sees of a
// namespace being deleted the namespace controller syncs it
// (namespaceDeletionGracePeriod).
const DeletionGracePeriod = 5 * time.Second

// The namespace controller's workqueue back-off for a failed pass: 5 ms,
// doubled with each failure in a row, at most 60 s.
const (
	retryBase = 5 * time.Millisecond
	retryMax  = 60 * time.Second
)

// InputKind is what a Controller input says.
type InputKind int

// The Controller's inputs.
const (
	// Tick: time has passed; Step returns the namespaces due.
	Tick InputKind = iota
	// NamespaceChanged: the informer saw Namespace added or updated.
	NamespaceChanged
	// NamespaceGone: the namespace Name left storage.
	NamespaceGone
	// Synced: the caller ran Sync over the namespace Name (due at this
	// Step's Tick) and Result is what it returned.
	Synced
)

// Input is one input to a Controller.
type Input struct {
	Kind      InputKind
	Namespace *api.Namespace
	Name      string
	Result    Result
}

// Output is a Controller's answer: the namespaces whose pass is due now
// (a Tick's), in name order. The caller runs Sync over each and feeds the
// result back as Synced.
type Output struct {
	Due []string
}

// entry is a namespace in the queue: when it is due (zero: not waiting),
// and its failures in a row.
type entry struct {
	due      time.Time
	failures int
}

// Controller is kube-controller-manager's namespace controller queue as a
// state machine: a namespace being deleted is due DeletionGracePeriod
// after each change of it (an earlier due time is kept), after a pass
// that left objects RequeueAfter later, after a failed pass after the
// back-off. The zero value is not ready: use NewController.
type Controller struct {
	queue map[string]*entry
}

// NewController returns a namespace controller with an empty queue.
func NewController() *Controller { return &Controller{queue: map[string]*entry{}} }

// Step feeds one input at now.
func (c *Controller) Step(in Input, now time.Time) (Output, error) {
	if c == nil || c.queue == nil {
		return Output{}, fmt.Errorf("%w: controller: nil (use NewController)", errInvalidInput)
	}
	switch in.Kind {
	case Tick:
		var due []string
		for name, e := range c.queue {
			if !e.due.IsZero() && !e.due.After(now) {
				due = append(due, name)
				e.due = time.Time{}
			}
		}
		slices.Sort(due)
		return Output{Due: due}, nil
	case NamespaceChanged:
		ns := in.Namespace
		if ns == nil {
			return Output{}, fmt.Errorf("%w: NamespaceChanged: namespace: nil", errInvalidInput)
		}
		if ns.DeletionTimestamp != nil {
			c.addAfter(ns.Name, now.Add(DeletionGracePeriod))
		}
	case NamespaceGone:
		delete(c.queue, in.Name)
	case Synced:
		r := in.Result
		switch {
		case r.Err != nil:
			e := c.entry(in.Name)
			d := retryMax
			if e.failures < 20 {
				d = min(retryBase<<e.failures, retryMax)
			}
			e.failures++
			c.addAfter(in.Name, now.Add(d))
		case r.Estimate > 0:
			// Not a failure: the back-off is not reset either (upstream
			// forgets an item only on success).
			c.addAfter(in.Name, now.Add(r.RequeueAfter()))
		default:
			if e := c.queue[in.Name]; e != nil {
				e.failures = 0
				if e.due.IsZero() {
					delete(c.queue, in.Name)
				}
			}
		}
	default:
		return Output{}, fmt.Errorf("%w: input kind %d", errInvalidInput, in.Kind)
	}
	return Output{}, nil
}

func (c *Controller) entry(name string) *entry {
	e := c.queue[name]
	if e == nil {
		e = &entry{}
		c.queue[name] = e
	}
	return e
}

// addAfter makes name due at t, unless it is due earlier already.
func (c *Controller) addAfter(name string, t time.Time) {
	e := c.entry(name)
	if e.due.IsZero() || t.Before(e.due) {
		e.due = t
	}
}

// NextDeadline is when the earliest namespace is due; zero when none is
// waiting.
func (c *Controller) NextDeadline() time.Time {
	var next time.Time
	if c == nil {
		return next
	}
	for _, e := range c.queue {
		if !e.due.IsZero() && (next.IsZero() || e.due.Before(next)) {
			next = e.due
		}
	}
	return next
}
