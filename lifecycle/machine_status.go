package lifecycle

import (
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// containerLostMessage is the message the kubelet's status manager gives a
// container with no terminated state when the pod ends
// (pkg/kubelet/status TerminatePod).
const containerLostMessage = "The container could not be located when the pod was terminated"

// buildStatus regenerates the pod status as the kubelet's
// generateAPIPodStatus and status manager would, and reports whether it
// differs from the previous one.
func (m *Machine) buildStatus(now time.Time) bool {
	prev := m.pod.Status
	st := api.PodStatus{QOSClass: prev.QOSClass, StartTime: prev.StartTime, PodIP: prev.PodIP, PodIPs: prev.PodIPs}
	switch {
	case !m.scheduled:
		st.Phase = m.phase
	case m.rejected:
		m.rejectedStatus(&st)
	case m.nodeLost:
		// The node controller only marks the pod not Ready; the rest is
		// what the kubelet last reported.
		st = prev
		st.Conditions = append([]api.PodCondition(nil), prev.Conditions...)
		if c := api.FindCondition(st.Conditions, api.PodReady); c != nil && c.Status != api.ConditionFalse {
			c.Status = api.ConditionFalse
			c.LastTransitionTime = api.NewTime(now)
		}
	case m.frozen:
		// The kubelet's sync is inside a container's start: no status is
		// generated; the last one stands, but for what the probe results
		// change in it.
		st = prev
		m.probeUpdates(&st, &prev, now)
	default:
		m.kubeletStatus(&st, &prev, now)
	}
	m.pod.Status = st
	return !sameStatus(&prev, &st)
}

func (m *Machine) kubeletStatus(st, prev *api.PodStatus, now time.Time) {
	st.InitContainerStatuses = m.apiStatuses(0)
	st.ContainerStatuses = m.apiStatuses(1)
	if len(m.ephemeral) > 0 {
		st.EphemeralContainerStatuses = m.apiStatuses(2)
	}
	if m.finalized {
		// Marked on copies: the lists are shared with earlier statuses.
		st.InitContainerStatuses = append([]api.ContainerStatus{}, st.InitContainerStatuses...)
		st.ContainerStatuses = append([]api.ContainerStatus{}, st.ContainerStatuses...)
		markLostContainers(&m.pod.Spec, st)
	}

	m.phase = m.mergePhase(st)
	st.Phase, st.Reason, st.Message = m.phase, m.reason, m.message
	k := m.kubeletConditions(st, prev, now)
	// The kubelet's order: its four conditions (as KubeletConditions.List
	// gives them), then PodScheduled.
	var buf [6]api.PodCondition
	conds := append(buf[:0], k.ReadyToStartContainers, k.Initialized, k.Ready, k.ContainersReady,
		api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, ObservedGeneration: m.pod.Generation,
			LastTransitionTime: api.NewTime(m.scheduledAt)})
	if m.killed {
		// The kill's status function appends DisruptionTarget.
		conds = append(conds, m.killCond)
	}
	if sameConditions(conds, prev.Conditions) {
		// Unchanged: the previous list is kept (statuses share lists and
		// never edit them), not copied again.
		st.Conditions = prev.Conditions
	} else {
		st.Conditions = slices.Clone(conds)
	}
}

// kubeletConditions computes the kubelet's conditions for the container
// statuses in st. Readiness gates are looked up in the conditions others
// set, which the previous status carries.
func (m *Machine) kubeletConditions(st, prev *api.PodStatus, now time.Time) KubeletConditions {
	pod := &m.view
	*pod = m.pod
	pod.Status = *st
	pod.Status.Conditions = prev.Conditions
	return conditions(pod, ConditionsInput{Phase: st.Phase, Previous: prev, Sandboxes: m.sandboxes}, now, m.pos)
}

// probeUpdates applies to the status st, copied from prev while the
// kubelet's sync is inside a container's start, what the probe results
// change in it: the status manager writes a running container's ready and
// started flags, and the Ready and ContainersReady conditions, as the
// readiness and startup probe workers report them (SetContainerReadiness,
// SetContainerStartup), sync or no sync.
func (m *Machine) probeUpdates(st, prev *api.PodStatus, now time.Time) {
	changed := false
	patch := func(list []mcontainer, statuses *[]api.ContainerStatus) {
		copied := false
		for i := range list {
			c := &list[i]
			if i >= len(*statuses) || c.state != runRunning || c.postStart || (*statuses)[i].State.Running == nil {
				continue
			}
			started := c.startupOK
			ready := started && (c.spec.ReadinessProbe == nil || c.readyOK) &&
				(c.kind == api.ContainerKindRegular || c.kind == api.ContainerKindSidecar)
			cs := &(*statuses)[i]
			if cs.Ready == ready && cs.Started != nil && *cs.Started == started {
				continue
			}
			if !copied {
				*statuses = append([]api.ContainerStatus(nil), *statuses...)
				copied = true
			}
			cs = &(*statuses)[i]
			cs.Ready, cs.Started = ready, &started
			changed = true
		}
	}
	patch(m.init, &st.InitContainerStatuses)
	patch(m.regular, &st.ContainerStatuses)
	if !changed {
		return
	}
	k := m.kubeletConditions(st, prev, now)
	st.Conditions = append([]api.PodCondition(nil), prev.Conditions...)
	for i := range st.Conditions {
		switch st.Conditions[i].Type {
		case api.PodReady:
			st.Conditions[i] = k.Ready
		case api.ContainersReady:
			st.Conditions[i] = k.ContainersReady
		}
	}
}

// computePhase is the phase the kubelet would report at now, before
// anything else happens.
func (m *Machine) computePhase(now time.Time) api.PodPhase {
	st := api.PodStatus{
		InitContainerStatuses: m.apiStatuses(0),
		ContainerStatuses:     m.apiStatuses(1),
	}
	return m.mergePhase(&st)
}

// mergePhase computes the phase from the container statuses in st (see
// Phase) and merges it with the phase reported so far: a phase that would
// go backwards, or leave Succeeded or Failed, is not taken
// (ValidPhaseTransition).
func (m *Machine) mergePhase(st *api.PodStatus) api.PodPhase {
	pod := &m.view
	*pod = m.pod
	pod.Status = *st
	var counts PhaseCounts
	ph := phase(pod, PhaseOptions{PodIsTerminal: m.terminating, PodHasInitialized: m.hasInitialized()}, &counts, m.pos)
	if m.finalized && !ph.IsTerminal() && !api.IsStaticPod(&m.pod) {
		ph = api.PodFailed // a stopped pod always ends terminal
	}
	if m.reason == DeadlineExceeded || m.killed {
		ph = m.phase // the phase the deadline or the kill wrote stands
		if !ph.IsTerminal() {
			ph = api.PodFailed
		}
	}
	if ValidPhaseTransition(m.phase, ph) != nil {
		return m.phase
	}
	return ph
}

// hasInitialized: some regular container started in the current sandbox.
func (m *Machine) hasInitialized() bool {
	for i := range m.regular {
		if c := &m.regular[i]; c.starts > 0 && c.sandbox == m.sandboxGen {
			return true
		}
	}
	return false
}

// apiStatuses renders the container statuses the kubelet reports
// (convertToAPIContainerStatuses): running with its start, terminated with
// its exit, or waiting for a first run (PodInitializing in a pod with init
// containers, else ContainerCreating) — except that a container the
// kubelet will start again and whose latest start failed is waiting with
// the reason and message of that failure from the reason cache
// (CrashLoopBackOff while the back-off held it, PostStartHookError,
// ErrImageNeverPull) until a start succeeds. A container purged with an
// old sandbox keeps showing its last termination until it runs again.
//
// The statuses of kind k (0 init, 1 regular, 2 ephemeral) are kept in
// m.statuses[k] and each container's in its record: only a container
// whose record changed since is rendered again, and the list is copied
// only when one of them renders differently, so a step costs a
// comparison per container and a copy of the list when something changed.
func (m *Machine) apiStatuses(k int) []api.ContainerStatus {
	list := [3][]mcontainer{m.init, m.regular, m.ephemeral}[k]
	hasInit := len(m.init) > 0
	out := m.statuses[k]
	first := out == nil // nothing rendered yet
	if first {
		out = make([]api.ContainerStatus, len(list))
	}
	copied := first // out is not shared with an earlier status
	for i := range list {
		c := &list[i]
		key := m.renderKeyOf(c)
		if key == c.rendered && !first {
			continue
		}
		c.rendered = key
		cs := m.renderStatus(c, hasInit)
		if !first && sameContainerStatus(&cs, &out[i]) {
			continue
		}
		if !copied {
			out = append(make([]api.ContainerStatus, 0, len(list)), out...)
			copied = true
		}
		out[i] = cs
	}
	m.statuses[k] = out
	return out
}

// renderKey is what a container's API status is rendered from, besides
// the spec and the pod's name, which do not change.
type renderKey struct {
	state          runState
	starts         int
	started        time.Time
	last, previous *api.ContainerStateTerminated
	startupOK      bool
	readyOK        bool
	reason         reasonEntry // shown only when waiting applies
	waiting        bool        // the reason applies (see waitingShown)
}

func (m *Machine) renderKeyOf(c *mcontainer) renderKey {
	return renderKey{state: c.state, starts: c.starts, started: c.started, last: c.last,
		previous: c.previous, startupOK: c.startupOK, readyOK: c.readyOK, reason: c.reason, waiting: m.waitingShown(c)}
}

// waitingShown reports whether c's status shows its reason cache entry:
// it has one, and the kubelet would start it again
// (ShouldContainerBeRestarted: the pod is not being stopped, and the
// container never ran or its restart policy restarts it after its last
// exit; an init container that completed never runs again).
func (m *Machine) waitingShown(c *mcontainer) bool {
	if c.reason.reason == "" || m.terminating || c.state == runRunning {
		return false
	}
	if c.last == nil {
		return true
	}
	return ShouldRestart(&m.pod.Spec, c.kind, c.spec, c.last.ExitCode).Restart
}

// renderStatus renders one container's status (see apiStatuses).
func (m *Machine) renderStatus(c *mcontainer, hasInit bool) api.ContainerStatus {
	var cs api.ContainerStatus
	cs.Name, cs.Image = c.spec.Name, c.spec.Image
	cs.RestartCount = int32(max(c.starts-1, 0))
	if c.starts > 0 {
		// Each run is a new container instance with its own ID, as
		// the runtime reports it; probe workers key on it.
		cs.ContainerID = containerID(&m.pod, c.spec.Name, c.starts)
	}
	started := false
	switch {
	case c.state == runRunning:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(c.started)}
		cs.LastTerminationState.Terminated = c.previous
		started = c.startupOK
		switch c.kind {
		case api.ContainerKindRegular, api.ContainerKindSidecar:
			cs.Ready = started && (c.spec.ReadinessProbe == nil || c.readyOK)
		}
	case c.last != nil:
		if m.waitingShown(c) {
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: c.reason.reason, Message: c.reason.message}
			cs.LastTerminationState.Terminated = c.last
		} else {
			cs.State.Terminated = c.last
			cs.LastTerminationState.Terminated = c.previous
		}
		cs.Ready = c.kind == api.ContainerKindInit && c.last.ExitCode == 0
	default:
		reason := ContainerCreating
		if hasInit {
			reason = PodInitializing
		}
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: reason}
		if m.waitingShown(c) {
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: c.reason.reason, Message: c.reason.message}
		}
	}
	cs.Started = &started
	return cs
}

// containerID names run n of a container of pod in the runtime's
// "<type>://<id>" form.
func containerID(pod *api.Pod, name string, n int) string {
	owner := pod.UID
	if owner == "" {
		owner = pod.Namespace + "_" + pod.Name
	}
	return "podsem://" + owner + "/" + name + "/" + strconv.Itoa(n)
}

// markLostContainers gives a terminated state to the containers of a
// stopped pod that have none, as the kubelet's status manager does when a
// pod ends (TerminatePod): every regular container once the pod has
// initialized, and every init container up to the last one that ever
// started. They are reported as exit code 137, ContainerStatusUnknown, so
// the pod is never taken for successful by mistake.
func markLostContainers(spec *api.PodSpec, st *api.PodStatus) {
	lost := func(cs *api.ContainerStatus) {
		if cs.State.Terminated != nil {
			return
		}
		cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{
			ExitCode: ContainerStatusUnknownExitCode, Reason: ContainerStatusUnknown, Message: containerLostMessage}}
	}
	if terminationInitialized(spec, st) {
		for i := range st.ContainerStatuses {
			lost(&st.ContainerStatuses[i])
		}
	}
	inits := st.InitContainerStatuses
	n := 0
	for i := len(inits) - 1; i >= 0; i-- {
		if inits[i].State.Waiting == nil || inits[i].LastTerminationState.Terminated != nil {
			n = i + 1
			break
		}
	}
	if n == 0 && len(inits) > 0 {
		n = 1
	}
	for i := 0; i < n; i++ {
		lost(&inits[i])
	}
}

// terminationInitialized is the status manager's test of whether a pod
// being terminated had initialized: it has no init containers, or some
// regular container left the waiting state or has a previous termination,
// or its last init container completed (or, for a sidecar, started).
func terminationInitialized(spec *api.PodSpec, st *api.PodStatus) bool {
	if len(spec.InitContainers) == 0 {
		return true
	}
	for i := range st.ContainerStatuses {
		cs := &st.ContainerStatuses[i]
		if cs.LastTerminationState.Terminated != nil || cs.State.Waiting == nil {
			return true
		}
	}
	l := len(st.InitContainerStatuses)
	if l == 0 || l > len(spec.InitContainers) {
		return false
	}
	cs := &st.InitContainerStatuses[l-1]
	if spec.InitContainers[l-1].IsSidecar() {
		return cs.State.Running != nil && cs.Started != nil && *cs.Started
	}
	for _, t := range []*api.ContainerStateTerminated{cs.LastTerminationState.Terminated, cs.State.Terminated} {
		if t != nil && t.ExitCode == 0 {
			return true
		}
	}
	return false
}
