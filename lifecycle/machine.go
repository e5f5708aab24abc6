package lifecycle

import (
	"github.com/podsem/podsem/api"
	"strconv"
	"time"
)

// EventKind says what happened to a pod, as a node agent observes it.
type EventKind uint8

// The events a Machine accepts.
const (
	// EventScheduled: the pod was bound to Event.Node and the node's
	// kubelet admitted it (status.startTime is set then). A pod the
	// kubelet refuses arrives as EventRejected instead.
	EventScheduled EventKind = iota + 1
	// EventSandboxReady: the sandbox requested by ActionCreateSandbox is
	// up, with pod IP Event.IP.
	EventSandboxReady
	// EventSandboxDied: the pod's sandbox went away (node reboot, runtime
	// restart); its containers died with it.
	EventSandboxDied
	// EventImagePulled: the image of Event.Container, requested by
	// ActionPullImage, is now on the node.
	EventImagePulled
	// EventContainerStarted: the runtime started Event.Container, as
	// requested by ActionStartContainer.
	EventContainerStarted
	// EventContainerExited: the running Event.Container exited with
	// Event.ExitCode (Event.Reason, when set, is the runtime's terminated
	// reason, e.g. OOMKilled).
	EventContainerExited
	// EventProbeResult: the probe worker of kind Event.Probe for
	// Event.Container settled on a result (Event.Success), after its
	// thresholds (see package probe).
	EventProbeResult
	// EventDeletionRequested: the pod was deleted through the API with
	// gracePeriodSeconds Event.GraceSeconds in the DeleteOptions
	// (negative: none given, the pod's terminationGracePeriodSeconds
	// applies).
	EventDeletionRequested
	// EventNodeLost: the node stopped reporting; the node lifecycle
	// controller marks the pod not Ready, and nothing more is heard from
	// the kubelet.
	EventNodeLost
	// EventTick: time passed; due back-offs, deadlines and grace periods
	// are acted on.
	EventTick
	// EventPreStopFinished: the preStop hook of Event.Container, started
	// by ActionRunPreStop, completed (an exec or httpGet hook; the Machine
	// times sleep hooks itself). Without it the kubelet waits for the hook
	// until the kill's grace period runs out. Event.Failed reports a hook
	// that failed (the kubelet records the event FailedPreStopHook and goes
	// on with the stop).
	EventPreStopFinished
	// EventRejected: the pod was bound to Event.Node and the node's
	// kubelet refused it at admission with Event.Reason and Event.Message
	// (its admit handlers' verdict, e.g. OutOfcpu): the kubelet sets the
	// pod Failed and never runs it.
	EventRejected
	// EventPostStartFinished: the postStart hook of Event.Container,
	// started by ActionRunPostStart, returned (an exec or httpGet hook;
	// the Machine times sleep hooks itself); Event.Failed reports a hook
	// that failed, with the handler's output in Event.Message.
	EventPostStartFinished
	// EventKilled: the kubelet itself kills the running pod — its
	// eviction manager under node pressure, its node shutdown manager
	// before a shutdown — with the grace-period override
	// Event.GraceSeconds, and writes the final status phase Failed,
	// reason Event.Reason and message Event.Message with a
	// DisruptionTarget condition (see Killed). Nothing of the pod runs
	// again.
	EventKilled
)

var eventNames = [...]string{"", "Scheduled", "SandboxReady", "SandboxDied", "ImagePulled", "ContainerStarted",
	"ContainerExited", "ProbeResult", "DeletionRequested", "NodeLost", "Tick", "PreStopFinished", "Rejected",
	"PostStartFinished", "Killed"}

// String names the event kind.
func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one input of Machine.Step. Build it with the constructors
// (Scheduled, SandboxReady, ...); only the fields of its kind are read.
type Event struct {
	Kind EventKind
	// Node is the node name (EventScheduled, EventRejected).
	Node string
	// IP is the pod IP (EventSandboxReady).
	IP string
	// Container names the container (image, start, exit, probe events).
	Container string
	// ExitCode and Reason describe an exit (EventContainerExited); Reason
	// is also the admission reason of EventRejected and the status reason
	// of EventKilled.
	ExitCode int32
	Reason   string
	// Message is the admission message of EventRejected, the status
	// message of EventKilled and the output of a failed hook
	// (EventPostStartFinished).
	Message string
	// Failed reports a hook that failed (EventPostStartFinished,
	// EventPreStopFinished); the zero value is a hook that succeeded.
	Failed bool
	// Probe and Success describe a probe result (EventProbeResult).
	Probe   api.ProbeKind
	Success bool
	// GraceSeconds is the deletion grace period (EventDeletionRequested)
	// or the kill's grace-period override (EventKilled).
	GraceSeconds int64
}

// String renders the event, e.g. "ContainerExited(app, 1)".
func (e Event) String() string {
	s := e.Kind.String()
	switch e.Kind {
	case EventScheduled:
		return s + "(" + e.Node + ")"
	case EventSandboxReady:
		return s + "(" + e.IP + ")"
	case EventImagePulled, EventContainerStarted:
		return s + "(" + e.Container + ")"
	case EventPreStopFinished:
		if e.Failed {
			return "PreStopFailed(" + e.Container + ")"
		}
		return s + "(" + e.Container + ")"
	case EventPostStartFinished:
		if e.Failed {
			return "PostStartFailed(" + e.Container + ", " + e.Message + ")"
		}
		return s + "(" + e.Container + ")"
	case EventRejected:
		return s + "(" + e.Node + ", " + e.Reason + ", " + e.Message + ")"
	case EventContainerExited:
		s += "(" + e.Container + ", " + strconv.Itoa(int(e.ExitCode))
		if e.Reason != "" {
			s += ", " + e.Reason
		}
		return s + ")"
	case EventProbeResult:
		return s + "(" + e.Container + ", " + e.Probe.String() + ", " + strconv.FormatBool(e.Success) + ")"
	case EventDeletionRequested:
		return s + "(" + strconv.FormatInt(e.GraceSeconds, 10) + ")"
	case EventKilled:
		return s + "(" + strconv.FormatInt(e.GraceSeconds, 10) + ", " + e.Reason + ", " + e.Message + ")"
	}
	return s
}

// Scheduled is the event of the pod being bound to node and admitted by
// its kubelet. It is how a Machine learns both facts at once, as the
// kubelet decides admission the moment the bound pod reaches it
// (HandlePodAdditions): a caller that runs the kubelet's admission (see
// Admission) sends Rejected instead for a pod it refuses; a caller that
// does not takes every pod as admitted, as the Machine always did.
func Scheduled(node string) Event { return Event{Kind: EventScheduled, Node: node} }

// Rejected is the event of the pod being bound to node and refused by its
// kubelet's admission with reason and message (an admit handler's verdict,
// e.g. reason OutOfcpu, message "Node didn't have enough resource: cpu,
// requested: 2000, used: 0, capacity: 1000"). The kubelet (rejectPod)
// records a Warning event with them and sets the pod Failed with that
// reason and the message "Pod was rejected: " + message; nothing of the pod
// ever runs.
func Rejected(node, reason, message string) Event {
	return Event{Kind: EventRejected, Node: node, Reason: reason, Message: message}
}

// Admission is the event of the pod, bound to node, reaching its kubelet
// with the kubelet's admission verdict (the admit handlers' admit, reason
// and message): Scheduled(node) when admitted, Rejected(node, reason,
// message) when not.
func Admission(node string, admit bool, reason, message string) Event {
	if admit {
		return Scheduled(node)
	}
	return Rejected(node, reason, message)
}

// SandboxReady is the event of the pod's sandbox coming up with pod IP ip.
func SandboxReady(ip string) Event { return Event{Kind: EventSandboxReady, IP: ip} }

// SandboxDied is the event of the pod's sandbox going away.
func SandboxDied() Event { return Event{Kind: EventSandboxDied} }

// ImagePulled is the event of the container's image having been pulled.
func ImagePulled(container string) Event { return Event{Kind: EventImagePulled, Container: container} }

// ContainerStarted is the event of the runtime having started container.
func ContainerStarted(container string) Event {
	return Event{Kind: EventContainerStarted, Container: container}
}

// ContainerExited is the event of container exiting with exitCode; reason
// is the runtime's terminated reason ("" lets the kubelet's default apply:
// Completed for 0, Error otherwise).
func ContainerExited(container string, exitCode int32, reason string) Event {
	return Event{Kind: EventContainerExited, Container: container, ExitCode: exitCode, Reason: reason}
}

// ProbeResult is the event of a probe of container settling on success or
// failure.
func ProbeResult(container string, kind api.ProbeKind, success bool) Event {
	return Event{Kind: EventProbeResult, Container: container, Probe: kind, Success: success}
}

// DeletionRequested is the event of a DELETE of the pod whose
// DeleteOptions carry gracePeriodSeconds graceSeconds; a negative value
// means none was given, so the pod's terminationGracePeriodSeconds (30 s by
// default) applies. The Machine records the deletion fields as the API
// server does (termination.APIServerGrace): a later request may only
// shorten the grace period, and 0 is a force deletion, after which the
// kubelet still stops the containers with the 1 s minimum.
func DeletionRequested(graceSeconds int64) Event {
	return Event{Kind: EventDeletionRequested, GraceSeconds: graceSeconds}
}

// Killed is the event of the node's kubelet killing the pod on its own
// initiative, through the pod killer its eviction manager and its node
// shutdown manager share (pkg/kubelet killPodNow, called by the eviction
// manager's evictPod in pkg/kubelet/eviction and by the node shutdown
// manager's killPods in pkg/kubelet/nodeshutdown): the pod worker stops
// every container with the grace period KubeletPodGrace settles on for
// the override graceSeconds (at least 1 s; a deletion already under way
// with a shorter grace period keeps it; a negative graceSeconds is no
// override, as the kubelet's critical-pod preemption passes none, and the
// pod's terminationGracePeriodSeconds applies), and the status it writes from
// then on is the one the kill's status function sets,
// termination.KubeletKillStatus: phase Failed (a pod that already
// Succeeded stays Succeeded, as the shutdown manager leaves it), reason
// and message as given, and the DisruptionTarget condition True with
// reason TerminationByKubelet and the same message (for the critical pod
// admission handler's kill, KilledForCriticalPod, the handler's own
// PreemptedConditionMessage). Whatever the
// restartPolicy, no container of the pod starts again; the pod object
// stays (Failed) until someone deletes it. For the eviction manager the
// arguments are nodepressure.PodEviction's Grace and Message with reason
// Evicted; for a node shutdown, termination.ShutdownKill's grace with
// termination.ReasonNodeShutdown and termination.MessageNodeShutdown. A
// kill of a pod that is not running on the node (not yet bound, rejected,
// already terminal, or on a node that stopped reporting) is ignored.
func Killed(graceSeconds int64, reason, message string) Event {
	return Event{Kind: EventKilled, GraceSeconds: graceSeconds, Reason: reason, Message: message}
}

// KilledForCriticalPod is the kill the kubelet's critical pod admission
// handler carries out on each pod it preempts to admit a critical pod
// (pkg/kubelet/preemption, AdmitResult.Preempted): Killed with no
// grace-period override (the pod's own terminationGracePeriodSeconds),
// reason ReasonPreempting and message PreemptedMessage; the
// DisruptionTarget condition it writes carries PreemptedConditionMessage.
func KilledForCriticalPod() Event {
	return Killed(-1, ReasonPreempting, PreemptedMessage)
}

// PreStopFinished is the event of container's preStop hook having
// completed.
func PreStopFinished(container string) Event {
	return Event{Kind: EventPreStopFinished, Container: container}
}

// PreStopFailed is the event of container's preStop hook having failed:
// the kubelet records the Warning event FailedPreStopHook and stops the
// container as after a hook that completed.
func PreStopFailed(container string) Event {
	return Event{Kind: EventPreStopFinished, Container: container, Failed: true}
}

// PostStartFinished is the event of container's postStart hook having
// returned successfully: the kubelet's start of the container is over and
// the container is reported running.
func PostStartFinished(container string) Event {
	return Event{Kind: EventPostStartFinished, Container: container}
}

// PostStartFailed is the event of container's postStart hook having
// failed with the handler's output message: the kubelet records the
// Warning event FailedPostStartHook, kills the container, and its next
// status shows it waiting with reason PostStartHookError and that
// message until it runs again; the restart policy and the crash-loop
// back-off apply.
func PostStartFailed(container, message string) Event {
	return Event{Kind: EventPostStartFinished, Container: container, Failed: true, Message: message}
}

// NodeUnreachable is the EventNodeLost event: the node stopped reporting.
func NodeUnreachable() Event { return Event{Kind: EventNodeLost} }

// Tick is the event of time passing.
func Tick() Event { return Event{Kind: EventTick} }

// ActionKind says what the caller is asked to do.
type ActionKind uint8

// The actions a Machine asks for.
const (
	// ActionCreateSandbox: create the pod sandbox; report EventSandboxReady.
	ActionCreateSandbox ActionKind = iota + 1
	// ActionPullImage: pull Action.Image for Action.Container; report
	// EventImagePulled.
	ActionPullImage
	// ActionStartContainer: create and start Action.Container; report
	// EventContainerStarted, later EventContainerExited.
	ActionStartContainer
	// ActionRunPreStop: run Action.Container's preStop hook now and report
	// EventPreStopFinished when it completes (a sleep hook is timed by the
	// Machine and needs no report). The kubelet waits for the hook for at
	// most the kill's grace period; the stop signal follows as an
	// ActionKillContainer.
	ActionRunPreStop
	// ActionKillContainer: send Action.Container its stop signal and
	// SIGKILL it Action.GraceSeconds later unless it exits first; report
	// EventContainerExited. GraceSeconds is the stop timeout the kubelet's
	// killContainer hands the runtime (termination.ContainerGrace): the
	// kill's grace period — the pod worker's (termination.KubeletPodGrace)
	// when the pod stops, the probe's or the pod's own for a failed
	// liveness or startup probe — less the whole seconds the preStop hook
	// and, for a sidecar, the wait for its turn took, at least 2 s. When
	// the timeout runs out a kill with GraceSeconds 0 follows: SIGKILL now.
	ActionKillContainer
	// ActionRetryAt: step the machine again (with Tick) at Action.At; for
	// a crash-loop back-off Action.Container and Action.Delay are set,
	// otherwise Action.Reason names the timer (DeadlineExceeded, "preStop
	// hook", "postStart hook", "sidecar stop order", "grace period", or
	// "next sync": the kubelet's sync a second after one that recorded a
	// failed start, whose status shows it).
	// Each timer is announced once, when it is set; Machine.NextDeadline
	// is the earliest of those still pending, so a caller may follow
	// either.
	ActionRetryAt
	// ActionReportStatus: the status Step returned differs from the one
	// last reported; write it to the API server.
	ActionReportStatus
	// ActionRemovePod: the pod was deleted and is terminal with nothing
	// running: remove the API object (the kubelet deletes it with grace 0).
	ActionRemovePod
	// ActionStopSandbox: every container of the terminal pod has stopped;
	// stop its sandbox (the pod keeps its IP in the status).
	ActionStopSandbox
	// ActionRunPostStart: Action.Container was started and has a postStart
	// hook: run it now and report EventPostStartFinished when it returns
	// (a sleep hook is timed by the Machine and needs no report). The
	// kubelet runs the hook inside its start of the container, so until
	// the hook returns the container is not reported running and the
	// kubelet's sync of the pod waits: no other container starts, and the
	// status stays as it was before the start.
	ActionRunPostStart
	// ActionRecordEvent: record the Kubernetes Event Action.Event about
	// the pod (and Action.Container, when set), as the kubelet's event
	// recorder does: Killing, BackOff, FailedPostStartHook,
	// FailedPreStopHook, ErrImageNeverPull, and the admission rejection.
	ActionRecordEvent
)

var actionNames = [...]string{"", "CreateSandbox", "PullImage", "StartContainer", "RunPreStop", "KillContainer",
	"RetryAt", "ReportStatus", "RemovePod", "StopSandbox", "RunPostStart", "Event"}

// String names the action kind.
func (k ActionKind) String() string {
	if int(k) < len(actionNames) && k != 0 {
		return actionNames[k]
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one thing the caller should do after a Step. Only the fields
// of its kind are set.
type Action struct {
	Kind ActionKind
	// Container names the container acted on.
	Container string
	// Image is the image to pull (ActionPullImage).
	Image string
	// GraceSeconds is the termination grace period (ActionKillContainer).
	GraceSeconds int64
	// At is when to step again (ActionRetryAt).
	At time.Time
	// Delay is the crash-loop back-off behind an ActionRetryAt for a
	// container: At is the container's exit plus Delay.
	Delay time.Duration
	// Reason says why, in upstream's words where it has some
	// ("CrashLoopBackOff", "DeadlineExceeded", "liveness probe failed").
	Reason string
	// Event is the Kubernetes Event to record (ActionRecordEvent), with
	// upstream's type, reason and message, regarding the pod or the
	// container (api.ContainerReference), its source "kubelet".
	Event *api.Event
}

// String renders the action, e.g. "KillContainer(app, 30s)".
func (a Action) String() string {
	s := a.Kind.String()
	switch a.Kind {
	case ActionPullImage:
		return s + "(" + a.Container + ", " + a.Image + ")"
	case ActionStartContainer, ActionRunPreStop, ActionRunPostStart:
		return s + "(" + a.Container + ")"
	case ActionRecordEvent:
		if a.Event == nil {
			return s
		}
		return s + "(" + a.Event.String() + ")"
	case ActionKillContainer:
		return s + "(" + a.Container + ", " + strconv.FormatInt(a.GraceSeconds, 10) + "s)"
	case ActionRetryAt:
		s += "(" + a.At.UTC().Format(time.RFC3339)
		if a.Container != "" {
			s += ", " + a.Container + " back-off " + a.Delay.String()
		} else if a.Reason != "" {
			s += ", " + a.Reason
		}
		return s + ")"
	}
	return s
}

// MachineConfig is the node-level configuration a Machine runs with. The
// zero value is the Kubernetes v1.36.3 kubelet's default.
type MachineConfig struct {
	// Backoff is the crash-loop back-off policy (zero: 10 s doubling to
	// 300 s).
	Backoff Backoff
	// ImagesPresent lists images already on the node; containers using
	// them (unless imagePullPolicy is Always) start without a pull.
	ImagesPresent []string
}
