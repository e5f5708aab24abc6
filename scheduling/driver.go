package scheduling

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// StepResult is what one Scheduler.Step did: which pod it tried and where
// it went, or why it stays pending.
type StepResult struct {
	// Pod is the pod popped from the queue; nil when the queue had nothing
	// to pop at that time (the step did nothing).
	Pod *api.Pod
	// Attempts is the pod's attempt count, this one included.
	Attempts int
	// Node is the node the pod was bound to, "" when it fits nowhere.
	Node string
	// Bound is the bound copy of the pod (spec.nodeName set) the step put
	// into the snapshot; nil when the pod was not bound.
	Bound *api.Pod
	// Message is kube-scheduler's FitError message when the pod fits
	// nowhere (the FailedScheduling event without the preemption part),
	// or the error text when the cycle failed.
	Message string
	// UnschedulablePlugins are the plugins that rejected the pod, with
	// which the queue decides which cluster events bring it back.
	UnschedulablePlugins []string
}

// Step is one turn of kube-scheduler's scheduling loop (ScheduleOne) over a
// snapshot and a queue, with nothing performed outside them: it pops the
// next pod at now, makes the placement decision (ScheduleOne, into d, which
// is reused), and then either binds the pod — a copy with spec.nodeName
// set replaces or joins the pod in the snapshot, as the scheduler's cache
// assumes it, and the queue is told Done — or hands it back to the queue
// as unschedulable with the plugins that rejected it (Queue.Fail), or as
// failed with an error (FailWithError) when the cycle could not be run (no
// node, a plugin error). Preemption (the PostFilter) is the caller's to
// run on the decision when the pod fits nowhere, before the next step.
//
// Repeated until Pop has nothing, with now advanced as the caller's clock
// says, this places pending pods one by one as the scheduler would; the
// Scheduler's start index rotates across steps. A nil Cluster, Queue or
// Scheduler, or a Scheduler ScheduleOne refuses, is an error; so is a
// snapshot update that fails (the pod then goes back to the queue as
// failed with an error).
func (s *Scheduler) Step(c *Cluster, q *Queue, d *Decision, now time.Time) (StepResult, error) {
	switch {
	case s == nil:
		return StepResult{}, fmt.Errorf("%w: scheduler: nil", ErrInvalidObject)
	case c == nil:
		return StepResult{}, errNilCluster
	case q == nil:
		return StepResult{}, errNilQueue
	}
	pod, attempts, ok := q.Pop(now)
	if !ok {
		return StepResult{}, nil
	}
	res := StepResult{Pod: pod, Attempts: attempts}
	if d == nil {
		d = &Decision{}
	}
	if _, err := s.ScheduleOne(c.NewCycle(pod), d); err != nil {
		res.Message = err.Error()
		if failErr := q.FailWithError(pod.Key(), now); failErr != nil {
			return res, failErr
		}
		if errors.Is(err, ErrNoNodesAvailable) {
			return res, nil
		}
		return res, err
	}
	if err := d.filterError(); err != nil {
		res.Message = err.Error()
		return res, q.FailWithError(pod.Key(), now)
	}
	i, ok := d.Chosen()
	if !ok {
		res.Message = d.Message()
		res.UnschedulablePlugins = d.UnschedulablePlugins()
		if len(res.UnschedulablePlugins) == 0 {
			return res, q.FailWithError(pod.Key(), now)
		}
		return res, q.Fail(pod.Key(), res.UnschedulablePlugins, now)
	}
	bound := *pod
	bound.Spec.NodeName = c.nodes[i].name
	var err error
	if c.pods[pod.Key()] != nil {
		err = c.UpdatePod(&bound)
	} else {
		err = c.AddPod(&bound)
	}
	if err != nil {
		res.Message = err.Error()
		if failErr := q.FailWithError(pod.Key(), now); failErr != nil {
			return res, failErr
		}
		return res, err
	}
	res.Node, res.Bound = bound.Spec.NodeName, &bound
	return res, q.Done(pod.Key(), now)
}

// statusError is an Error status's error, or its reasons as one.
func statusError(st *Status) error {
	if st.Err != nil {
		return st.Err
	}
	return errors.New(strings.Join(st.Reasons, ", "))
}
