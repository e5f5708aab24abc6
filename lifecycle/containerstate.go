package lifecycle

import (
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// Reasons the kubelet writes into a container status's state (waiting or
// terminated) or into the pod status, as pkg/kubelet and its container
// runtime manager (pkg/kubelet/kuberuntime, pkg/kubelet/images) spell them.
// kubectl's STATUS column shows them as they are.
const (
	// ContainerCreating: waiting; the kubelet is creating the container (no
	// earlier termination to report).
	ContainerCreating = "ContainerCreating"
	// PodInitializing: waiting; a regular container of a pod whose init
	// containers have not all completed, or an init container not yet
	// reached.
	PodInitializing = "PodInitializing"
	// CrashLoopBackOff: waiting; the container exited and is held back by
	// the crash-loop back-off (see Backoff).
	CrashLoopBackOff = "CrashLoopBackOff"
	// ImagePullBackOff: waiting; an image pull failed and is being retried
	// with back-off.
	ImagePullBackOff = "ImagePullBackOff"
	// ErrImagePull: waiting; the last image pull failed.
	ErrImagePull = "ErrImagePull"
	// ErrImageNeverPull: waiting; the image is absent and imagePullPolicy is
	// Never.
	ErrImageNeverPull = "ErrImageNeverPull"
	// InvalidImageName: waiting; the image reference does not parse.
	InvalidImageName = "InvalidImageName"
	// CreateContainerConfigError: waiting; the container's configuration
	// (e.g. a missing ConfigMap key in env) could not be built.
	CreateContainerConfigError = "CreateContainerConfigError"
	// CreateContainerError: waiting; the runtime refused to create it.
	CreateContainerError = "CreateContainerError"
	// PreStartHookError: waiting; the internal pre-start hook failed.
	PreStartHookError = "PreStartHookError"
	// PostStartHookError: waiting; the postStart hook failed and the
	// container was killed.
	PostStartHookError = "PostStartHookError"
	// RunContainerError: waiting; the runtime failed to start it.
	RunContainerError = "RunContainerError"

	// Completed: terminated with exit code 0.
	Completed = "Completed"
	// Error: terminated with a non-zero exit code.
	Error = "Error"
	// OOMKilled: terminated by the kernel's out-of-memory killer.
	OOMKilled = "OOMKilled"
	// ContainerCannotRun: terminated; the runtime could not run the command.
	ContainerCannotRun = "ContainerCannotRun"
	// StartError: terminated; the runtime failed while starting it.
	StartError = "StartError"
	// ContainerStatusUnknown: terminated; the kubelet lost track of a
	// container that was running (reported with exit code 137).
	ContainerStatusUnknown = "ContainerStatusUnknown"
	// RestartingAllContainers: terminated by the kubelet because a
	// restartPolicyRules entry with action RestartAllContainers fired; such
	// a container counts as restartable for the pod phase.
	RestartingAllContainers = "RestartingAllContainers"

	// DeadlineExceeded: pod status reason when activeDeadlineSeconds has
	// passed; the kubelet fails the pod.
	DeadlineExceeded = "DeadlineExceeded"
	// NodeLost: pod status reason the node lifecycle controller once set
	// on pods of an unreachable node; kubectl shows such a terminating pod
	// as Unknown.
	NodeLost = "NodeLost"
)

// ContainerStatusUnknownExitCode is the exit code the kubelet reports for a
// container whose state it lost (ContainerStatusUnknown): 128+SIGKILL.
const ContainerStatusUnknownExitCode int32 = 137

// StateKind is which of the three container states a status holds.
type StateKind uint8

// The container states. A status with none of waiting, running or
// terminated set is StateUnknown; the API documents it as Waiting and
// the kubelet's phase computation counts it as unknown.
const (
	StateUnknown StateKind = iota
	StateWaiting
	StateRunning
	StateTerminated
)

// String returns "Waiting", "Running", "Terminated" or "Unknown".
func (k StateKind) String() string {
	switch k {
	case StateWaiting:
		return "Waiting"
	case StateRunning:
		return "Running"
	case StateTerminated:
		return "Terminated"
	}
	return "Unknown"
}

// StateSummary describes one container state: its kind, the kubelet's reason
// and, for a terminated container, how it ended.
type StateSummary struct {
	Kind StateKind
	// Reason is the waiting or terminated reason (may be empty).
	Reason string
	// Message is the waiting or terminated message.
	Message string
	// ExitCode and Signal describe a terminated container.
	ExitCode int32
	Signal   int32
	// Since is when the container started running (running), or finished
	// (terminated); zero otherwise.
	Since time.Time
}

// Describe summarises a container state. When a state carries more than
// one of waiting, running and terminated (which the kubelet never writes),
// the first set in the order running, terminated, waiting wins — the order
// the kubelet's phase computation tests them. A nil state is unknown: the
// result is the zero StateSummary.
func Describe(s *api.ContainerState) StateSummary {
	switch {
	case s == nil:
		return StateSummary{}
	case s.Running != nil:
		return StateSummary{Kind: StateRunning, Since: s.Running.StartedAt.Time}
	case s.Terminated != nil:
		t := s.Terminated
		return StateSummary{Kind: StateTerminated, Reason: t.Reason, Message: t.Message,
			ExitCode: t.ExitCode, Signal: t.Signal, Since: t.FinishedAt.Time}
	case s.Waiting != nil:
		return StateSummary{Kind: StateWaiting, Reason: s.Waiting.Reason, Message: s.Waiting.Message}
	}
	return StateSummary{}
}

// Succeeded reports a terminated state with exit code 0.
func (s StateSummary) Succeeded() bool { return s.Kind == StateTerminated && s.ExitCode == 0 }

// Failed reports a terminated state with a non-zero exit code.
func (s StateSummary) Failed() bool { return s.Kind == StateTerminated && s.ExitCode != 0 }

// String renders the state the way `kubectl describe` words it:
// "Running", "Waiting (CrashLoopBackOff)", "Terminated (Error, exit code 1)",
// "Terminated (signal 9)".
func (s StateSummary) String() string {
	switch s.Kind {
	case StateRunning:
		return "Running"
	case StateWaiting:
		if s.Reason == "" {
			return "Waiting"
		}
		return "Waiting (" + s.Reason + ")"
	case StateTerminated:
		out := "Terminated ("
		if s.Reason != "" {
			out += s.Reason + ", "
		}
		if s.Signal != 0 {
			out += "signal " + strconv.Itoa(int(s.Signal))
		} else {
			out += "exit code " + strconv.Itoa(int(s.ExitCode))
		}
		return out + ")"
	}
	return "Unknown"
}

// ContainerSummary describes one container status: its current state, its
// previous termination, readiness and restarts.
type ContainerSummary struct {
	Name  string
	State StateSummary
	// Last is the previous run's end (lastState); Kind is StateUnknown when
	// the container has not restarted.
	Last         StateSummary
	Ready        bool
	Started      bool
	RestartCount int32
}

// DescribeStatus summarises a container status as the kubelet reported it.
// A nil status is an unknown container: the result is the zero
// ContainerSummary.
func DescribeStatus(cs *api.ContainerStatus) ContainerSummary {
	if cs == nil {
		return ContainerSummary{}
	}
	return ContainerSummary{
		Name:         cs.Name,
		State:        Describe(&cs.State),
		Last:         Describe(&cs.LastTerminationState),
		Ready:        cs.Ready,
		Started:      cs.Started != nil && *cs.Started,
		RestartCount: cs.RestartCount,
	}
}

// String renders the summary in one line, e.g. "app: Waiting
// (CrashLoopBackOff), not ready, 3 restarts, last Terminated (Error, exit
// code 1)".
func (c ContainerSummary) String() string {
	out := c.Name + ": " + c.State.String()
	if c.Ready {
		out += ", ready"
	} else {
		out += ", not ready"
	}
	switch c.RestartCount {
	case 0:
	case 1:
		out += ", 1 restart"
	default:
		out += ", " + strconv.Itoa(int(c.RestartCount)) + " restarts"
	}
	if c.Last.Kind != StateUnknown {
		out += ", last " + c.Last.String()
	}
	return out
}

// TerminatedReason is the reason the kubelet gives a container that exited
// with code when the runtime supplied none: Completed for 0, Error
// otherwise; OOMKilled when the runtime reported an out-of-memory kill.
func TerminatedReason(code int32, oomKilled bool) string {
	switch {
	case oomKilled:
		return OOMKilled
	case code == 0:
		return Completed
	}
	return Error
}
