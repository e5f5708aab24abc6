package scheduling

import (
	"time"

	"github.com/podsem/podsem/api"
)

// PostFilter is kube-scheduler's PostFilter extension point
// (framework.PostFilterPlugin): what the scheduling loop calls when a
// cycle found no node for its pod, to make the pod schedulable in a later
// cycle. The default profile's PostFilter is DefaultPreemption, which
// package preemption implements (preemption.New); a custom preemption or
// descheduling policy implements this interface in its own package.
//
// The loop calls PostFilter with the cycle and the Decision that cycle's
// walk wrote (ScheduleOne's, so d.Cycle() is cy and d.Status gives every
// node's filter status), and the loop's clock; the snapshot must not be
// changed by the plugin. The loop turns the result into actions: it
// deletes the victims (after giving each the DisruptionTarget condition
// with reason PreemptionByScheduler), clears the nominations the result
// lists, updates the pod's status.nominatedNodeName as Nominate says, and
// appends Message to the pod's FailedScheduling message, after the
// DynamicResources plugin's own PostFilter answer (see Loop). A nil
// PostFilter in LoopConfig is a profile without DefaultPreemption.
type PostFilter interface {
	PostFilter(cy *Cycle, d *Decision, now time.Time) PostFilterResult
}

// PostFilterResult is what a PostFilter plugin answers: upstream's
// PostFilterResult (the nominating info) and the plugin's Status, with
// the side effects upstream's plugin performs itself (preempting victims,
// clearing lower-priority nominations) returned as values.
type PostFilterResult struct {
	// Code is the status code: Success when the plugin made room (the pod
	// is nominated and should fit once the victims are gone),
	// Unschedulable when it could not help, Error when it failed.
	Code Code
	// Nominate is true when the pod's status.nominatedNodeName is to be
	// set to NominatedNodeName (upstream's NominatingMode Override; ""
	// clears it); false leaves it as it is (ModeNoop).
	Nominate          bool
	NominatedNodeName string
	// Victims are the pods to preempt on NominatedNodeName. The loop
	// deletes those not already terminating (deletionTimestamp unset).
	Victims []*api.Pod
	// ClearNominations are pending pods whose status.nominatedNodeName the
	// loop clears (DefaultPreemption: those of lower priority nominated to
	// the chosen node).
	ClearNominations []*api.Pod
	// Message is the status message, appended after a space to the
	// FailedScheduling message ("preemption: 0/3 nodes are available:
	// ..."); "" adds nothing.
	Message string
	// Err is the error of an Error status.
	Err error
}
