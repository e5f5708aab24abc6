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
	// kubelet admitted it (status.startTime is set then).
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
	// until the kill's grace period runs out.
	EventPreStopFinished
)

var eventNames = [...]string{"", "Scheduled", "SandboxReady", "SandboxDied", "ImagePulled", "ContainerStarted",
	"ContainerExited", "ProbeResult", "DeletionRequested", "NodeLost", "Tick", "PreStopFinished"}

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
	// Node is the node name (EventScheduled).
	Node string
	// IP is the pod IP (EventSandboxReady).
	IP string
	// Container names the container (image, start, exit, probe events).
	Container string
	// ExitCode and Reason describe an exit (EventContainerExited).
	ExitCode int32
	Reason   string
	// Probe and Success describe a probe result (EventProbeResult).
	Probe   api.ProbeKind
	Success bool
	// GraceSeconds is the deletion grace period (EventDeletionRequested).
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
	case EventImagePulled, EventContainerStarted, EventPreStopFinished:
		return s + "(" + e.Container + ")"
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
	}
	return s
}

// Scheduled is the event of the pod being bound to node and admitted by
// its kubelet.
func Scheduled(node string) Event { return Event{Kind: EventScheduled, Node: node} }

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

// PreStopFinished is the event of container's preStop hook having
// completed.
func PreStopFinished(container string) Event {
	return Event{Kind: EventPreStopFinished, Container: container}
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
	// a crash-loop back-off Action.Container and Action.Delay are set.
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
)

var actionNames = [...]string{"", "CreateSandbox", "PullImage", "StartContainer", "RunPreStop", "KillContainer",
	"RetryAt", "ReportStatus", "RemovePod", "StopSandbox"}

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
}

// String renders the action, e.g. "KillContainer(app, 30s)".
func (a Action) String() string {
	s := a.Kind.String()
	switch a.Kind {
	case ActionPullImage:
		return s + "(" + a.Container + ", " + a.Image + ")"
	case ActionStartContainer, ActionRunPreStop:
		return s + "(" + a.Container + ")"
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
