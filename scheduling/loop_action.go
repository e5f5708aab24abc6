package scheduling

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// noteLengthLimit is the longest Event note the scheduler records
// (validation.NoteLengthLimit); longer FailedScheduling messages are cut.
const noteLengthLimit = 1024

// ActionKind says what the caller of Loop.Step is asked to do.
type ActionKind uint8

// The actions of the scheduling loop: the API calls kube-scheduler makes,
// each with the Event it records.
const (
	// ActionBind: bind Action.Pod to Action.Node (the pods/binding
	// subresource, the DefaultBinder plugin) and record the Normal event
	// Scheduled ("Successfully assigned <ns>/<name> to <node>"). When
	// Action.Volumes is set, VolumeBinding's PreBind comes first: the
	// claim and volume writes it lists, then a wait until those claims
	// are bound; the binding and its event follow.
	ActionBind ActionKind = iota + 1
	// ActionNominate: set Action.Pod's status.nominatedNodeName to
	// Action.Node (a status patch): preemption made room for it there.
	ActionNominate
	// ActionClearNomination: clear Action.Pod's status.nominatedNodeName
	// (a status patch): its nomination is stale (the pod fits nowhere any
	// more, or a higher-priority pod took its node by preemption).
	ActionClearNomination
	// ActionPreempt: preempt Action.Pod, a victim on Action.Node, for
	// Action.Preemptor: patch its status with Action.Condition (the
	// DisruptionTarget condition, reason PreemptionByScheduler), then
	// DELETE it with Action.DeleteOptions, and record the Normal event
	// Preempted.
	ActionPreempt
	// ActionFailedScheduling: the attempt for Action.Pod failed: patch its
	// status with Action.Condition (PodScheduled=False, reason
	// Unschedulable or SchedulerError, the FailedScheduling message) and
	// record the Warning event FailedScheduling. Condition is nil when only
	// the event is recorded (a pod being deleted is not tried).
	ActionFailedScheduling
)

var actionNames = [...]string{"", "Bind", "Nominate", "ClearNomination", "Preempt", "FailedScheduling"}

// String names the action kind.
func (k ActionKind) String() string {
	if int(k) < len(actionNames) && k != 0 {
		return actionNames[k]
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one thing the caller of Loop.Step is asked to do. Only the
// fields of its kind are set.
type Action struct {
	Kind ActionKind
	// Pod is the pod acted on: the pod bound, nominated or failed, or the
	// victim preempted, as the loop held it when it acted.
	Pod *api.Pod
	// Node is the node bound to (ActionBind), nominated (ActionNominate),
	// or the victim's node (ActionPreempt).
	Node string
	// Preemptor is the pod a victim makes room for (ActionPreempt).
	Preemptor *api.Pod
	// Condition is the pod condition to write with the pod condition
	// update rule (lastTransitionTime moves only when the status changes):
	// DisruptionTarget=True for ActionPreempt, PodScheduled=False for
	// ActionFailedScheduling.
	Condition *api.PodCondition
	// DeleteOptions are the options of the victim's DELETE
	// (ActionPreempt): empty, as kube-scheduler sends them, so the API
	// server gives the victim its own terminationGracePeriodSeconds
	// (termination.APIServerGrace(Pod, DeleteOptions, now) says how).
	DeleteOptions *api.DeleteOptions
	// Volumes is VolumeBinding's PreBind for ActionBind: the claims to
	// annotate with the selected node and the volumes to pre-bind before
	// the binding, which then waits for the claims to be bound; nil when
	// the pod has no unbound WaitForFirstConsumer claim.
	Volumes *PreBindVolumes
	// Event is the Event recorded with the action (nil for the status
	// patches, which record none): Scheduled, FailedScheduling or
	// Preempted, regarding Pod (and, for Preempted, related to the
	// preemptor), its action Binding, Scheduling or Preempting, its note
	// cut to 1024 bytes (" ..." ending a cut one) as the Events API
	// requires, its source the profile's schedulerName.
	Event *api.Event
}

// String renders the action on one line, e.g. `Bind(default/web-1, node-a)`
// or `Preempt(default/batch-1 on node-a for default/api-0)`.
func (a Action) String() string {
	s := a.Kind.String() + "(" + a.Pod.Key()
	switch a.Kind {
	case ActionBind, ActionNominate:
		s += ", " + a.Node
	case ActionPreempt:
		s += " on " + a.Node + " for " + a.Preemptor.Key()
	case ActionFailedScheduling:
		if a.Condition != nil {
			s += ", " + a.Condition.Reason
		}
		if a.Event != nil {
			s += ": " + a.Event.Note
		}
	}
	return s + ")"
}

// StepResult is what one Loop.Step did: for a Tick that ran a scheduling
// attempt, which pod it tried and where it went or why it stays pending;
// for every input, the actions to perform.
type StepResult struct {
	// Pod is the pod the step's scheduling attempt was for, as popped from
	// the queue; nil when the step ran none (an input other than Tick, or
	// nothing to pop).
	Pod *api.Pod
	// Attempts is the pod's attempt count, this one included.
	Attempts int
	// Node is the node the pod was bound to, "" when it was not.
	Node string
	// Bound is the bound copy of the pod (spec.nodeName set) the loop put
	// into its snapshot; nil when the pod was not bound.
	Bound *api.Pod
	// Message is the FailedScheduling message when the pod was not bound:
	// kube-scheduler's FitError with the PostFilter's message after it
	// ("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes
	// are available: 3 No preemption victims found for incoming pod."), or
	// the error's text when the attempt failed with one.
	Message string
	// UnschedulablePlugins are the plugins that rejected the pod, which
	// decide which cluster events bring it back from the unschedulable
	// pool.
	UnschedulablePlugins []string
	// Decision is the attempt's decision (ScheduleOne's, in the loop's
	// reused buffer: valid until the next Step); nil when no cycle ran.
	Decision *Decision
	// PostFilter is what the PostFilter plugin answered, nil when it was
	// not called (the pod fit, the cycle failed with an error, or the loop
	// has no PostFilter).
	PostFilter *PostFilterResult
	// Actions are what the caller performs, in order.
	Actions []Action
}

// String renders the result on one line per action, after a first line
// naming the pod tried ("" when the step did nothing).
func (r StepResult) String() string {
	var b strings.Builder
	if r.Pod != nil {
		fmt.Fprintf(&b, "attempt %d of %s", r.Attempts, r.Pod.Key())
	}
	for _, a := range r.Actions {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(a.String())
	}
	return b.String()
}

// truncateNote cuts an Event note to noteLengthLimit bytes, as the
// scheduler's truncateMessage does.
func truncateNote(msg string) string {
	if len(msg) <= noteLengthLimit {
		return msg
	}
	const suffix = " ..."
	return msg[:noteLengthLimit-len(suffix)] + suffix
}
