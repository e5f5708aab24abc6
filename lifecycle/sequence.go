package lifecycle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// StartReason says why the sequencer wants a container started.
type StartReason uint8

// The start reasons.
const (
	// StartFirstRun: the container has not run in the current sandbox
	// and its turn has come.
	StartFirstRun StartReason = iota + 1
	// StartAfterInit: the init container (or sidecar) before it in
	// spec.initContainers completed (or started, for a sidecar).
	StartAfterInit
	// StartRestart: the container exited and its restart policy runs it
	// again (after the crash-loop back-off, which the sequencer does not
	// apply).
	StartRestart
	// StartSandboxRecreated: a new sandbox is being created and the pod
	// starts over in it.
	StartSandboxRecreated
)

// String names the reason.
func (r StartReason) String() string {
	switch r {
	case StartFirstRun:
		return "FirstRun"
	case StartAfterInit:
		return "AfterInit"
	case StartRestart:
		return "Restart"
	case StartSandboxRecreated:
		return "SandboxRecreated"
	}
	return "StartReason(" + strconv.Itoa(int(r)) + ")"
}

// ContainerStart is one container the kubelet is to start now.
type ContainerStart struct {
	// Name is the container's name.
	Name string
	// Kind is the spec list it comes from: api.ContainerKindInit, api.ContainerKindSidecar,
	// api.ContainerKindRegular or api.ContainerKindEphemeral.
	Kind api.ContainerKind
	// Index is its position in that list.
	Index int
	// Reason is why it starts now.
	Reason StartReason
}

// String renders the start as "init container init-mydb (AfterInit)".
func (c ContainerStart) String() string {
	return c.Kind.String() + " " + c.Name + " (" + c.Reason.String() + ")"
}

// SequencePlan is the sequencer's answer: what to start now and why the
// rest waits. It is the part of the kubelet's per-sync plan
// (computePodActions) that concerns starting containers; killing
// unhealthy containers and the crash-loop back-off are left to the caller
// (the Machine applies both).
type SequencePlan struct {
	// CreateSandbox is set when the pod needs a (new) sandbox first; Start
	// then lists what starts once it is ready.
	CreateSandbox bool
	// Start lists the containers to start, in the order the kubelet starts
	// them: ephemeral containers, then init containers (sidecars
	// included) in spec order, then regular containers in spec order.
	Start []ContainerStart
	// Initialized is true when every regular init container has completed
	// and every sidecar has started in the current sandbox, so regular
	// containers may run.
	Initialized bool
	// Done is set when the kubelet will run nothing more in this pod:
	// every regular container has stopped for good (the kubelet then stops
	// the sidecars too), or an init container failed and will not be
	// restarted, or the sandbox is gone and the pod may not restart.
	Done bool
	// FailedInit names the regular init container whose failure ended the
	// pod (restart policy Never); empty otherwise.
	FailedInit string
	// Why explains the plan in one sentence: what started, or what the pod
	// is waiting for.
	Why string
}

// seqState is how the sequencer sees one container, from its API status.
type seqState uint8

const (
	seqNone    seqState = iota // no status, no state, or waiting for its first run
	seqRunning                 // running now
	seqExited                  // terminated, or waiting after a termination
)

// containerSeqState classifies a status the way the kubelet's runtime view
// does: a container waiting without any earlier termination has never been
// created in this sandbox; one waiting after a termination (for example in
// CrashLoopBackOff) has exited, and its last exit code counts.
func containerSeqState(cs *api.ContainerStatus) (seqState, int32) {
	if cs == nil {
		return seqNone, 0
	}
	switch {
	case cs.State.Running != nil:
		return seqRunning, 0
	case cs.State.Terminated != nil:
		return seqExited, cs.State.Terminated.ExitCode
	case cs.LastTerminationState.Terminated != nil:
		return seqExited, cs.LastTerminationState.Terminated.ExitCode
	}
	return seqNone, 0
}

// sidecarStarted reports whether a running sidecar has started in the
// kubelet's sense: it passed its startup probe, or has none.
func sidecarStarted(c *api.Container, cs *api.ContainerStatus) bool {
	if c.StartupProbe == nil {
		return true
	}
	return cs.Started != nil && *cs.Started
}

// Sequence decides which containers of pod the kubelet starts next, given
// the pod's container statuses (status.initContainerStatuses,
// status.containerStatuses, status.ephemeralContainerStatuses, matched by
// name) and the runtime's sandboxes for the pod, newest first (as for
// Conditions; SandboxChanged decides whether a new one is needed). It
// follows the kubelet's computePodActions
// and computeInitContainerActions (pkg/kubelet/kuberuntime) in v1.36.3:
//
//   - when SandboxChanged says a new sandbox is needed (none yet, the
//     newest not ready, ...), one is created and the pod starts over:
//     its first init container, or, with none, every regular container
//     (under restartPolicy OnFailure those that already succeeded are
//     skipped). Under restartPolicy Never a pod whose sandbox died after
//     containers ran is Done instead, and so is a pod whose regular
//     containers ran and have nothing left to start;
//   - ephemeral containers start as soon as the sandbox is ready, once
//     each: they are never restarted;
//   - init containers run one at a time in spec order; each must exit 0
//     before the next starts. A failed one is restarted per its restart
//     policy (under pod restartPolicy Always an init container behaves as
//     OnFailure); when it may not be restarted the pod is Done, with
//     FailedInit naming it;
//   - a sidecar (init container with restartPolicy Always) must be running
//     and have passed its startup probe, if it has one, before the next init
//     container starts; it is restarted whenever it exits, also after the
//     pod initialized;
//   - regular containers start only once every init container is through,
//     all together, and are restarted per restart policy (container-level
//     restartPolicy and restartPolicyRules included); when none is
//     running and none will start, the pod is Done;
//   - a pod being deleted (deletionTimestamp set) or in a terminal phase
//     starts nothing.
//
// The crash-loop back-off is not applied: a container listed with reason
// StartRestart starts when Backoff allows. Liveness and startup probe
// failures, which make the kubelet kill a running container, are not seen
// here either; once the container has exited it is restarted as above.
// A nil pod has nothing to run: the result is the zero SequencePlan.
func Sequence(pod *api.Pod, sandboxes []Sandbox) SequencePlan {
	var plan SequencePlan
	if pod == nil {
		return plan
	}
	if sequence(pod, sandboxes, &plan, nil) {
		plan.Why += describeStarts(plan.Start)
	}
	return plan
}

// sequence fills plan (whose Start it appends to) as Sequence describes,
// with the positions of the status lists when the caller knows them (see
// specPositions). It reports whether plan.Why is a prefix that the list
// of plan.Start completes (describeStarts), which it leaves to the caller
// since a plan may start thousands of containers.
func sequence(pod *api.Pod, sandboxes []Sandbox, plan *SequencePlan, pos *specPositions) (whyListsStarts bool) {
	spec, st := &pod.Spec, &pod.Status
	if pod.DeletionTimestamp != nil {
		plan.Why = "the pod is being deleted: nothing starts"
		return false
	}
	if st.Phase.IsTerminal() {
		plan.Done = true
		plan.Why = "the pod is " + string(st.Phase) + ": nothing starts"
		return false
	}
	if ch := SandboxChanged(pod, sandboxes); ch.NeedNew {
		sequenceNewSandbox(pod, ch.Attempt, plan, pos)
		return false
	}

	ephemeral := pos.ephemeralIndex(st.EphemeralContainerStatuses)
	for i := range spec.EphemeralContainers {
		c := &spec.EphemeralContainers[i]
		if s, _ := containerSeqState(ephemeral.find(c.Name)); s == seqNone {
			plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: api.ContainerKindEphemeral, Index: i, Reason: StartFirstRun})
		}
	}

	if initialized, why := sequenceInit(pod, plan, pos); !initialized {
		return why
	}
	plan.Initialized = true
	return sequenceRegular(pod, plan, pos)
}

// sequenceNewSandbox plans a pod whose sandbox must be created first.
func sequenceNewSandbox(pod *api.Pod, attempt uint32, plan *SequencePlan, pos *specPositions) {
	spec, st := &pod.Spec, &pod.Status
	reason := StartFirstRun
	if attempt > 0 {
		reason = StartSandboxRecreated
		if PodRestartPolicy(spec) == api.RestartPolicyNever && anyContainerRan(st) {
			plan.Done = true
			plan.Why = "the sandbox is gone and restartPolicy Never forbids running the pod again"
			return
		}
	}
	onFailure := PodRestartPolicy(spec) == api.RestartPolicyOnFailure
	var regular []ContainerStart
	statuses := pos.regularIndex(st.ContainerStatuses)
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if onFailure {
			if s, code := containerSeqState(statuses.find(c.Name)); s == seqExited && code == 0 {
				continue
			}
		}
		regular = append(regular, ContainerStart{Name: c.Name, Kind: api.ContainerKindRegular, Index: i, Reason: reason})
	}
	if len(regular) == 0 && anyRegularRan(pod, &statuses) {
		plan.Done = true
		plan.Why = "every container succeeded under restartPolicy OnFailure: no new sandbox"
		return
	}
	plan.CreateSandbox = true
	if len(spec.InitContainers) > 0 {
		c := &spec.InitContainers[0]
		plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: api.InitContainerKind(c), Index: 0, Reason: reason})
		plan.Why = "create the pod sandbox, then start the first init container " + c.Name
		return
	}
	plan.Start = append(plan.Start, regular...)
	plan.Why = "create the pod sandbox, then start the containers"
}

// anyContainerRan reports whether the runtime ever created a container of
// the pod: some status is running or records a termination.
func anyContainerRan(st *api.PodStatus) bool {
	for _, list := range [][]api.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for i := range list {
			if s, _ := containerSeqState(&list[i]); s != seqNone {
				return true
			}
		}
	}
	return false
}

// anyRegularRan reports whether some regular container ran (is running or
// has exited).
func anyRegularRan(pod *api.Pod, statuses *statusIndex) bool {
	for i := range pod.Spec.Containers {
		if s, _ := containerSeqState(statuses.find(pod.Spec.Containers[i].Name)); s != seqNone {
			return true
		}
	}
	return false
}

// sequenceInit plans the init containers and reports whether the pod has
// initialized (regular containers may run). The statuses are read from the
// last init container backwards: the runtime may already have removed the
// records of early init containers, so the furthest one with a record tells
// how far initialization got; every init container before it is taken as
// done, except sidecars, which must keep running.
func sequenceInit(pod *api.Pod, plan *SequencePlan, pos *specPositions) (initialized, whyListsStarts bool) {
	spec, st := &pod.Spec, &pod.Status
	n := len(spec.InitContainers)
	if n == 0 {
		return true, false
	}
	// A running regular container means initialization finished at some
	// point in this sandbox. An exited one does not: it may be left over
	// from a sandbox that has since been replaced.
	statuses := pos.regularIndex(st.ContainerStatuses)
	for i := range spec.Containers {
		if s, _ := containerSeqState(statuses.find(spec.Containers[i].Name)); s == seqRunning {
			initialized = true
			break
		}
	}
	reached := initialized // some later init container has a record
	first := len(plan.Start)
	waiting := ""
	inits := pos.initIndex(st.InitContainerStatuses)
	for i := n - 1; i >= 0; i-- {
		c := &spec.InitContainers[i]
		kind := api.InitContainerKind(c)
		cs := inits.find(c.Name)
		s, code := containerSeqState(cs)
		if s == seqNone {
			if reached && kind == api.ContainerKindSidecar {
				plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: kind, Index: i, Reason: StartRestart})
			}
			continue
		}
		if reached && kind == api.ContainerKindInit {
			continue
		}
		switch {
		case s == seqRunning && kind == api.ContainerKindInit:
			waiting = "init container " + c.Name + " is running"
		case s == seqRunning && !sidecarStarted(c, cs):
			waiting = "sidecar " + c.Name + " has not passed its startup probe"
		case s == seqRunning: // a started sidecar
			if i == n-1 {
				initialized = true
			} else if !reached {
				next := &spec.InitContainers[i+1]
				plan.Start = append(plan.Start, ContainerStart{Name: next.Name, Kind: api.InitContainerKind(next), Index: i + 1, Reason: StartAfterInit})
			}
		case kind == api.ContainerKindSidecar: // exited sidecar
			plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: kind, Index: i, Reason: StartRestart})
		case code != 0: // failed init container
			if !ShouldRestart(spec, kind, c, code).Restart {
				plan.Start = plan.Start[:first]
				plan.Done = true
				plan.FailedInit = c.Name
				plan.Why = fmt.Sprintf("init container %s failed with exit code %d and may not be restarted: the pod fails", c.Name, code)
				return false, false
			}
			plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: kind, Index: i, Reason: StartRestart})
		default: // completed init container
			if i == n-1 {
				initialized = true
			} else {
				next := &spec.InitContainers[i+1]
				plan.Start = append(plan.Start, ContainerStart{Name: next.Name, Kind: api.InitContainerKind(next), Index: i + 1, Reason: StartAfterInit})
			}
		}
		reached = true
	}
	if !reached {
		c := &spec.InitContainers[0]
		plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: api.InitContainerKind(c), Index: 0, Reason: StartFirstRun})
	}
	// The loop walked backwards; start in spec order.
	started := plan.Start[first:]
	for i, j := 0, len(started)-1; i < j; i, j = i+1, j-1 {
		started[i], started[j] = started[j], started[i]
	}
	if !initialized {
		switch {
		case len(plan.Start) > 0:
			plan.Why = "initializing: start "
			whyListsStarts = true
		case waiting != "":
			plan.Why = "initializing: " + waiting
		default:
			plan.Why = "initializing"
		}
	}
	return initialized, whyListsStarts
}

// sequenceRegular plans the regular containers of an initialized pod.
func sequenceRegular(pod *api.Pod, plan *SequencePlan, pos *specPositions) (whyListsStarts bool) {
	spec, st := &pod.Spec, &pod.Status
	running := 0
	first := len(plan.Start)
	statuses := pos.regularIndex(st.ContainerStatuses)
	for i := range spec.Containers {
		c := &spec.Containers[i]
		s, code := containerSeqState(statuses.find(c.Name))
		switch s {
		case seqRunning:
			running++
		case seqNone:
			plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: api.ContainerKindRegular, Index: i, Reason: StartFirstRun})
		case seqExited:
			if ShouldRestart(spec, api.ContainerKindRegular, c, code).Restart {
				plan.Start = append(plan.Start, ContainerStart{Name: c.Name, Kind: api.ContainerKindRegular, Index: i, Reason: StartRestart})
			}
		}
	}
	if running == 0 && len(plan.Start) == first {
		// Nothing runs and nothing will: the kubelet stops the pod, and
		// sidecars are not restarted to keep it alive.
		plan.Start = plan.Start[:0]
		plan.Done = true
		plan.Why = "every container has stopped and none will be restarted"
		return false
	}
	if len(plan.Start) > 0 {
		plan.Why = "initialized: start "
		return true
	}
	plan.Why = "initialized: containers running, nothing to start"
	return false
}

// describeStarts lists the starts as "init container a (FirstRun),
// regular container b (FirstRun)".
func describeStarts(starts []ContainerStart) string {
	var out strings.Builder
	for i, s := range starts {
		if i > 0 {
			out.WriteString(", ")
		}
		out.WriteString(s.Kind.String())
		out.WriteByte(' ')
		out.WriteString(s.Name)
		out.WriteString(" (")
		out.WriteString(s.Reason.String())
		out.WriteByte(')')
	}
	return out.String()
}
