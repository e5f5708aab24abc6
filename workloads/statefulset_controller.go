package workloads

import (
	"fmt"
	"time"
)

// StatefulSetController is the StatefulSet controller for one set, as a
// state machine of the one convention: Step it with what the
// controller's caches hold and the time, perform the writes it returns,
// and step it again when the objects change or at NextDeadline.
//
// Each Step is one sync (ReconcileStatefulSet); the machine adds the
// controller's memory between syncs, which upstream keeps in its work
// queue: a failed sync is retried with exponential back-off (5 ms,
// doubling, at most 1000 s; a success forgets the failures), and a
// successful sync that leaves fewer available replicas than desired is
// looked at again minReadySeconds later (the controller's
// enqueueSSAfter), when pods Ready since the last sync may have become
// available. The StatefulSet controller keeps no expectations: it trusts
// its caches, and a write not yet seen is simply repeated or refused by
// the API server (a pod name taken, a claim already there). As in the
// work queue, a requeue already waiting is kept and a later one merged
// into it: NextDeadline is always the earliest.
//
// The zero value is ready to use with v1.36.3's default feature gates.
type StatefulSetController struct {
	cfg      StatefulSetConfig
	failures int
	next     time.Time
}

// NewStatefulSetController returns a controller with the given feature
// gates (the zero StatefulSetConfig is v1.36.3's defaults).
func NewStatefulSetController(cfg StatefulSetConfig) *StatefulSetController {
	return &StatefulSetController{cfg: cfg}
}

// Step runs one sync of in.Set at now (see ReconcileStatefulSet) and
// returns its writes, status and wait. A sync that failed (Err set) is
// retried at NextDeadline. A nil controller, or input ReconcileStatefulSet
// refuses, is an error wrapping api.ErrInvalidInput; the controller's
// memory is then unchanged.
func (c *StatefulSetController) Step(in StatefulSetInput, now time.Time) (StatefulSetSync, error) {
	if c == nil {
		return StatefulSetSync{}, fmt.Errorf("%w: statefulset controller: nil", errInvalidInput)
	}
	res, err := ReconcileStatefulSet(in, c.cfg, now)
	if err != nil {
		return res, err
	}
	// A requeue already waiting in the work queue stays; a new one that
	// comes later than it is dropped (the delaying queue keeps the
	// earliest time per key).
	pending := c.next
	if !pending.After(now) {
		pending = time.Time{}
	}
	var again time.Time
	switch {
	case res.Err != nil:
		c.failures++
		again = now.Add(retryDelay(c.failures))
	case res.RequeueAfter > 0:
		c.failures = 0
		again = now.Add(res.RequeueAfter)
	default:
		c.failures = 0
	}
	switch {
	case again.IsZero():
		c.next = pending
	case pending.IsZero() || again.Before(pending):
		c.next = again
	default:
		c.next = pending
	}
	return res, nil
}

// NextDeadline is when the controller syncs the set again without any
// change to the objects: the retry of a failed sync, or the
// minReadySeconds look at pods becoming available. The zero time means
// none: the next sync comes with the next change. A nil controller has
// none.
func (c *StatefulSetController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}
