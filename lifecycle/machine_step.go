package lifecycle

import (
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// runState is where one container is in the runtime, as the Machine
// tracks it.
type runState uint8

const (
	runNone     runState = iota // no container in the current sandbox
	runPulling                  // ActionPullImage sent, waiting for the image
	runStarting                 // ActionStartContainer sent, waiting for the start
	runRunning                  // running
	runExited                   // exited, still known to the runtime
)

// mcontainer is the Machine's record of one container of the pod.
type mcontainer struct {
	spec  *api.Container
	kind  api.ContainerKind
	index int // position in its spec list

	state    runState
	prior    runState // state to return to when a pull or start is abandoned
	starts   int      // times started over the pod's life
	sandbox  int      // sandbox generation of the latest start
	started  time.Time
	last     *api.ContainerStateTerminated // latest termination
	previous *api.ContainerStateTerminated // termination before the current run

	startupOK, readyOK bool
	// kill is the kubelet's killContainer in progress for the current
	// run, nil when none is.
	kill       *containerKill
	preStopRun bool // the preStop hook ran in the current run
	cancelled  bool // a start was abandoned when the pod began terminating
	pulled     bool // image pulled for the next start (imagePullPolicy Always)

	// postStart: the postStart hook of the current run has not returned
	// yet; postStartEnd is when a sleep hook ends (zero for exec and
	// httpGet hooks, whose end the caller reports).
	postStart    bool
	postStartEnd time.Time

	// reason is the kubelet's reason cache entry for the container as the
	// status generated at this sync reads it; nextReason is the entry as
	// this sync leaves it, which the next sync's status shows
	// (commitReasons).
	reason, nextReason reasonEntry

	backoff        BackoffEntry
	hasBackoff     bool
	backoffCleared bool // the back-off let the pending restart through
	retrySent      bool // the back-off holding the pending restart was announced

	// rendered is what the container's status in Machine.statuses was
	// rendered from: a step renders again only the containers whose
	// record changed.
	rendered renderKey
	// rtStarted and rtRunning back the runtime view's status of a
	// running container (runtimeStatuses), sparing an allocation each.
	rtStarted bool
	rtRunning api.ContainerStateRunning
}

// Machine is the pod lifecycle as one node's kubelet drives it, as a pure
// state machine in the style of go.etcd.io/raft: the caller feeds it events
// with the current time through Step and gets back the pod status the
// kubelet would report and the actions to perform (create the sandbox,
// pull, start, kill, retry later). The Machine performs nothing itself and
// never reads the clock.
//
// It composes the package's rules: Sequence for init and sidecar ordering,
// ShouldRestart for restarts, Backoff for the crash-loop back-off,
// PastActiveDeadline for activeDeadlineSeconds, Phase and
// ValidPhaseTransition for the phase (which never goes back and never
// leaves Succeeded or Failed), and Conditions for the kubelet-owned
// conditions. Stopping follows package termination: the API server's
// deletion bookkeeping (APIServerGrace), the pod worker's grace period
// (KubeletPodGrace) and each container's stop timeout (ContainerGrace),
// with the preStop hooks run in parallel and sidecars signalled after the
// regular containers and the sidecars declared after them have stopped, so
// a deletion gives each container the stop signal and SIGKILL at the times
// termination.BuildTimeline lays out. Events that do not fit the current state (a start nobody
// asked for, an exit of a container that is not running, a probe result
// for a probe the container does not have) are ignored. Probe results come
// settled (after the probe's thresholds), as probe.Report.MachineEvent
// gives them.
//
// Admission: the pod reaches the node's kubelet as Scheduled (admitted) or
// Rejected (refused by its admit handlers, with their reason and message;
// Admission turns a verdict into one or the other). A rejected pod is
// Failed at once with the status the kubelet's rejectPod writes, and
// nothing of it ever runs. A Machine fed Scheduled, as every caller did
// before admission was modelled, runs the pod as admitted.
//
// Each Step is one sync of the pod by the kubelet, which generates the
// status it reports before it syncs the containers
// (generateAPIPodStatus, then the runtime's SyncPod): a start that the
// crash-loop back-off holds back, or that fails, enters the kubelet's
// reason cache only at the end of the sync, so the status shows it as the
// container's waiting reason from the next sync on, until a start
// succeeds. After an exit held back by the back-off the reported
// container reads Error, then CrashLoopBackOff from the next sync (the
// Machine asks to be stepped a second later, taking the kubelet to sync
// the pod every second), then Running once restarted.
//
// Hooks: a postStart hook runs inside the kubelet's start of the
// container (ActionRunPostStart, answered with PostStartFinished or
// PostStartFailed; a sleep hook the Machine times): until it returns the
// container is not reported running nor started, and the sync waits — no
// other container starts and no new status is generated, except what the
// readiness and startup probes change — as it does for the kill that
// follows a failed hook. A preStop hook runs at the head of every kill
// (ActionRunPreStop, answered with PreStopFinished or PreStopFailed), for
// at most the kill's grace period. The Kubernetes Events the kubelet
// records come out as ActionRecordEvent: Killing, BackOff,
// FailedPostStartHook, FailedPreStopHook, ErrImageNeverPull and the
// admission rejection.
//
// Not modelled: a restartPolicyRules action RestartAllContainers restarts
// only the container that exited (the kubelet restarts the whole pod in
// place); image pull failures and their back-off; ephemeral containers
// added after NewMachine. When a later DELETE shortens the grace period
// mid-stop, every container still running is killed again with the new
// grace period from that moment, without running its preStop hook a
// second time. A liveness or startup probe failure kills its container at
// once even while the sync waits on another container's postStart hook
// (the kubelet would act at its next sync). The kubelet records BackOff at
// every sync the back-off holds a restart (its event recorder counts
// them); the Machine records it once per held-back exit. A container that
// exits while its postStart hook runs keeps the sync waiting until the
// hook's end is reported; a failed hook then kills nothing. As in the
// kubelet, a pod whose postStart hook never returns is never stopped.
//
// A Machine is not safe for concurrent use.
type Machine struct {
	pod    api.Pod // spec and metadata; Status is the last status built
	cfg    MachineConfig
	images map[string]bool

	init, regular, ephemeral []mcontainer
	// byName finds a container's record as api.PodSpec.FindContainer
	// does: init containers first, then regular, then ephemeral.
	byName map[string]*mcontainer
	// pos finds a container's entry in the status lists below, which
	// hold one status per spec container in spec order.
	pos *specPositions
	// statuses holds the container statuses last reported, one list per
	// kind in spec order. They are shared with the statuses Step returned,
	// so a step that changes a container reports fresh lists rather than
	// writing into these.
	statuses [3][]api.ContainerStatus
	// runtime holds the runtime's view of the containers that Sequence
	// plans from, rebuilt in place each step (runtimePod).
	runtime [3][]api.ContainerStatus
	// starts holds the sequencer's plan of the latest step; when
	// whyListsStarts is set, why is completed by their list.
	starts         []ContainerStart
	whyListsStarts bool

	scheduled, nodeLost bool
	// rejected: the kubelet refused the pod at admission (EventRejected);
	// the pod is Failed and nothing of it runs.
	rejected     bool
	scheduledAt  time.Time
	sandboxes    []Sandbox // newest first
	sandboxGen   int       // sandboxes created so far
	creating     bool      // ActionCreateSandbox sent
	deadlineSent bool

	terminating bool // the kubelet is stopping the pod (deletion, deadline, or nothing left to run)
	deleted     bool
	finalized   bool // every container stopped; the pod is terminal
	removed     bool
	// podGrace is the pod worker's grace period for the stop under way
	// (termination.KubeletPodGrace); round counts the kill rounds, a new
	// one starting whenever the grace period is shortened.
	podGrace int64
	round    int
	// killed: the kubelet killed the pod itself (EventKilled); override
	// is the kill's grace-period override, killCond the DisruptionTarget
	// condition its status carries from then on.
	killed   bool
	override *int64
	killCond api.PodCondition
	// wakes holds the times ActionRetryAt was issued for kill timers.
	wakes map[time.Time]bool
	// blocked is the container whose start the kubelet's sync of the pod
	// is inside: started with a postStart hook that has not returned, or
	// being killed after that hook failed. Until it is over nothing else
	// is synced and no status is generated; frozen marks a step that
	// generated none for that reason.
	blocked *mcontainer
	frozen  bool
	// syncWake is the latest ActionRetryAt issued for the kubelet's next
	// sync (a reason recorded for the next status).
	syncWake time.Time
	// next is the earliest timer the latest Step left waiting (the
	// active deadline, a crash-loop back-off, a kill's preStop, ordering
	// or grace limit), zero when none: what NextDeadline reports. Each
	// Step rebuilds it from the timers it looked at anyway.
	next time.Time

	why string // the latest plan's explanation

	phase           api.PodPhase
	reason, message string
	reported        bool
}

// NewMachine returns a Machine for pod, which is read as created: its spec
// and metadata (a status already present is ignored; the Machine starts
// from the status the API server stores on create, api.InitialPodStatus),
// with an unset terminationGracePeriodSeconds taken as the API server's
// default (termination.StoredGracePeriodSeconds, as BuildTimeline reads it).
// The pod's spec must not be modified afterwards. A nil pod has no
// machine: the result is nil, whose methods answer with zero values.
func NewMachine(pod *api.Pod, cfg MachineConfig) *Machine {
	if pod == nil {
		return nil
	}
	m := &Machine{cfg: cfg, phase: api.PodPending} // images and wakes are made at their first entry
	m.pod.TypeMeta, m.pod.ObjectMeta, m.pod.Spec = pod.TypeMeta, pod.ObjectMeta, pod.Spec
	m.pod.DeletionTimestamp, m.pod.DeletionGracePeriodSeconds = nil, nil
	if m.pod.Spec.TerminationGracePeriodSeconds == nil {
		// The pod is read as the API server stored it, which defaults
		// this field on create.
		g := termination.StoredGracePeriodSeconds(pod)
		m.pod.Spec.TerminationGracePeriodSeconds = &g
	}
	for _, img := range cfg.ImagesPresent {
		m.imagePresent(img)
	}
	spec := &m.pod.Spec
	m.init = make([]mcontainer, len(spec.InitContainers))
	for i := range spec.InitContainers {
		m.init[i] = mcontainer{spec: &spec.InitContainers[i], kind: api.InitContainerKind(&spec.InitContainers[i]), index: i}
	}
	m.regular = make([]mcontainer, len(spec.Containers))
	for i := range spec.Containers {
		m.regular[i] = mcontainer{spec: &spec.Containers[i], kind: api.ContainerKindRegular, index: i}
	}
	m.ephemeral = make([]mcontainer, len(spec.EphemeralContainers))
	for i := range spec.EphemeralContainers {
		m.ephemeral[i] = mcontainer{spec: &spec.EphemeralContainers[i].Container, kind: api.ContainerKindEphemeral, index: i}
	}
	m.pos = newSpecPositions(spec)
	m.byName = make(map[string]*mcontainer, len(m.init)+len(m.regular)+len(m.ephemeral))
	m.eachContainer(func(c *mcontainer) {
		if _, dup := m.byName[c.spec.Name]; !dup {
			m.byName[c.spec.Name] = c
		}
	})
	m.pod.Status = api.InitialPodStatus(pod)
	return m
}

// Pod returns the pod as the Machine sees it now: the spec with
// spec.nodeName set once scheduled, metadata with the deletion fields once
// deleted, and the status of the latest Step. The result shares slices with
// the Machine and must not be modified; it is what DisplayStatus takes.
// A nil Machine has no pod.
func (m *Machine) Pod() *api.Pod {
	if m == nil {
		return nil
	}
	p := m.pod
	return &p
}

// Why explains what the machine did at the latest Step: the sequencer's
// reason for what it started or waits for, or why the pod is being
// stopped. A nil Machine explains nothing: the result is "".
func (m *Machine) Why() string {
	switch {
	case m == nil:
		return ""
	case m.removed:
		return "the pod was removed"
	case m.rejected:
		return "the kubelet rejected the pod at admission: " + m.reason + ": " + m.message
	case m.nodeLost:
		return "the node is unreachable: the pod is marked not ready"
	case m.finalized:
		return "the pod is " + string(m.phase) + ": every container has stopped"
	case m.blocked != nil && m.blocked.postStart:
		return "starting container " + m.blocked.spec.Name + ": waiting for its postStart hook"
	case m.blocked != nil && m.blocked.state == runStarting:
		return "starting container " + m.blocked.spec.Name + ", which has a postStart hook"
	case m.blocked != nil:
		return "starting container " + m.blocked.spec.Name + ": its postStart hook failed, stopping it"
	case m.terminating:
		return "stopping the pod: " + m.stopReason()
	case !m.scheduled:
		return "waiting to be scheduled"
	case m.whyListsStarts:
		return m.why + describeStarts(m.starts)
	}
	return m.why
}

// Terminal reports whether the pod reached Succeeded or Failed; a nil
// Machine's has not.
func (m *Machine) Terminal() bool { return m != nil && m.phase.IsTerminal() }

// Removed reports whether the pod object is gone (ActionRemovePod was
// issued, or an unscheduled pod was deleted); a nil Machine's is not.
func (m *Machine) Removed() bool { return m != nil && m.removed }

// NextDeadline is the earliest time the Machine must be stepped (with
// Tick) even if no other event arrives: the end of a crash-loop back-off
// holding a restart, the kubelet's next sync after one that recorded a
// failed start (a second later, when the status shows it), the pod's
// activeDeadlineSeconds, the end of a sleep postStart or preStop hook or
// of the kubelet's wait for a preStop hook, a sidecar's turn to be
// signalled, a kill's grace period running out (the SIGKILL). It is the
// earliest At of the ActionRetryAt actions Step issued that are still
// pending — timers made moot since (a container that exited before its
// SIGKILL, a back-off of a pod that began terminating, the deadline of a
// pod that already ended) are dropped. The zero time means the Machine
// waits only for events: an unscheduled pod, a pod whose containers run
// with nothing timed, a removed pod, a pod on a lost node. It is always
// after the now of the latest Step. Stepping earlier is harmless; stepping
// later does the overdue work at the later time. A nil Machine has no
// deadline: the result is the zero time.
func (m *Machine) NextDeadline() time.Time {
	if m == nil {
		return time.Time{}
	}
	return m.next
}

// wake records t as a timer the Machine waits for: NextDeadline is the
// earliest of them.
func (m *Machine) wake(t time.Time) {
	if m.next.IsZero() || t.Before(m.next) {
		m.next = t
	}
}

// find returns the Machine's record of the container name, looked up as
// api.PodSpec.FindContainer does; nil when the pod has no such container.
func (m *Machine) find(name string) *mcontainer {
	return m.byName[name]
}

// at returns the record of entry i of the spec list of the given kind.
func (m *Machine) at(kind api.ContainerKind, i int) *mcontainer {
	switch kind {
	case api.ContainerKindInit, api.ContainerKindSidecar:
		return &m.init[i]
	case api.ContainerKindEphemeral:
		return &m.ephemeral[i]
	}
	return &m.regular[i]
}

// Step feeds one event to the machine at time now — one sync of the pod
// by the kubelet — and returns the pod status the kubelet reports
// afterwards and the actions to perform, in order. now should not go
// backwards between calls. A nil Machine does nothing: the results are the
// zero status and no actions.
//
// A step renders again only the containers whose state changed and
// copies a status list only when one of its entries changed; what is left
// is a pass over the containers without allocation (the sequencer, the
// phase, the conditions), so its cost grows linearly with the pod's
// containers, with a small constant (BenchmarkMachineStepContainers). The
// returned status shares its lists with earlier and later ones, which
// are never written to: it must not be modified.
func (m *Machine) Step(ev Event, now time.Time) (api.PodStatus, []Action) {
	if m == nil {
		return api.PodStatus{}, nil
	}
	var acts []Action
	m.next = time.Time{}
	if m.removed {
		return m.pod.Status, nil
	}
	m.commitReasons()
	m.apply(ev, now, &acts)
	if m.removed {
		return m.pod.Status, acts
	}
	m.frozen = false
	if m.scheduled && !m.nodeLost && !m.rejected {
		m.drive(now, &acts)
	}
	changed := m.buildStatus(now)
	if changed || !m.reported {
		m.reported = true
		acts = append(acts, Action{Kind: ActionReportStatus})
	}
	if m.finalized && m.deleted && !m.removed {
		// The kubelet reports the terminal status, then deletes the
		// object with grace period 0.
		m.removed = true
		acts = append(acts, Action{Kind: ActionRemovePod, Reason: "terminated"})
	}
	return m.pod.Status, acts
}

// apply records the event; it ignores events that do not fit.
func (m *Machine) apply(ev Event, now time.Time, acts *[]Action) {
	switch ev.Kind {
	case EventScheduled, EventRejected:
		if m.scheduled || m.deleted || ev.Node == "" {
			return
		}
		m.scheduled, m.scheduledAt = true, now
		m.pod.Spec.NodeName = ev.Node
		m.pod.Status.StartTime = api.NewTimePtr(now)
		if ev.Kind == EventRejected {
			m.reject(ev.Reason, ev.Message, acts)
		}
	case EventNodeLost:
		if m.scheduled {
			m.nodeLost = true
		}
	case EventDeletionRequested:
		m.requestDeletion(ev.GraceSeconds, now, acts)
	}
	if !m.scheduled || m.nodeLost || m.rejected {
		return
	}
	switch ev.Kind {
	case EventSandboxReady:
		if !m.creating {
			return
		}
		m.creating = false
		if m.finalized {
			// A sandbox that came up after the pod ended is not used.
			*acts = append(*acts, Action{Kind: ActionStopSandbox, Reason: "the pod has ended"})
			return
		}
		m.sandboxes = append([]Sandbox{{Ready: true, HasNetworkStatus: true, IP: ev.IP,
			Network: networkMode(&m.pod.Spec), Attempt: uint32(m.sandboxGen)}}, m.sandboxes...)
		if len(m.sandboxes) > 2 {
			m.sandboxes = m.sandboxes[:2]
		}
		m.sandboxGen++
		if ev.IP != "" {
			m.pod.Status.PodIP = ev.IP
			m.pod.Status.PodIPs = []api.PodIP{{IP: ev.IP}}
		}
	case EventSandboxDied:
		if len(m.sandboxes) == 0 || !m.sandboxes[0].Ready {
			return
		}
		m.sandboxes[0].Ready = false
		m.eachContainer(func(c *mcontainer) {
			switch c.state {
			case runRunning:
				m.exit(c, 137, Error, now)
			case runPulling, runStarting:
				c.state = c.prior
				if m.blocked == c {
					m.blocked = nil // the start is abandoned
				}
			}
		})
	case EventImagePulled:
		c := m.find(ev.Container)
		if c == nil || c.state != runPulling {
			return
		}
		m.imagePresent(c.spec.Image)
		c.pulled = true
		c.state = c.prior
	case EventContainerStarted:
		c := m.find(ev.Container)
		if c == nil {
			return
		}
		if c.state != runStarting {
			if c.cancelled {
				c.cancelled = false
				*acts = append(*acts, Action{Kind: ActionKillContainer, Container: c.spec.Name, Reason: "the pod is terminating"})
			}
			return
		}
		c.state = runRunning
		c.starts++
		c.sandbox = m.sandboxGen
		c.started = now
		c.previous = c.last
		c.startupOK = c.spec.StartupProbe == nil || c.kind == api.ContainerKindEphemeral
		c.readyOK = false
		c.kill, c.preStopRun, c.backoffCleared, c.retrySent = nil, false, false, false
		// The start succeeded: the sync that made it clears the
		// container's reason cache entry.
		c.reason, c.nextReason = reasonEntry{}, reasonEntry{}
		m.runPostStart(c, now, acts)
	case EventContainerExited:
		c := m.find(ev.Container)
		if c == nil || c.state != runRunning {
			return
		}
		reason := ev.Reason
		if reason == "" {
			reason = TerminatedReason(ev.ExitCode, false)
		}
		m.exit(c, ev.ExitCode, reason, now)
		if m.blocked == c && !c.postStart {
			m.blocked = nil // the kill after a failed postStart hook is over
		}
	case EventProbeResult:
		m.probe(ev, now, acts)
	case EventPreStopFinished:
		c := m.find(ev.Container)
		if c == nil || c.kill == nil || !c.preStopRun {
			return
		}
		if ev.Failed {
			// The kubelet records the failure and stops the container as
			// after a hook that completed.
			m.record(c, api.EventTypeWarning, "FailedPreStopHook", "PreStopHook failed", acts)
		}
		if c.kill.hook && !c.kill.hookReported {
			c.kill.hookReported, c.kill.hookReportedAt = true, now
		}
	case EventPostStartFinished:
		if c := m.find(ev.Container); c != nil && c.postStart && c.postStartEnd.IsZero() {
			m.finishPostStart(c, ev.Failed, ev.Message, now, acts)
		}
	case EventKilled:
		m.kill(ev, now)
	}
}

func networkMode(spec *api.PodSpec) NamespaceMode {
	if spec.HostNetwork {
		return NamespaceNode
	}
	return NamespacePod
}

func (m *Machine) eachContainer(f func(c *mcontainer)) {
	for _, list := range [3][]mcontainer{m.init, m.regular, m.ephemeral} {
		for i := range list {
			f(&list[i])
		}
	}
}

func (m *Machine) exit(c *mcontainer, code int32, reason string, now time.Time) {
	c.state = runExited
	c.last = &api.ContainerStateTerminated{ExitCode: code, Reason: reason,
		StartedAt: api.NewTime(c.started), FinishedAt: api.NewTime(now)}
	c.startupOK, c.readyOK, c.kill = false, false, nil
}

// probe applies a probe result: startup gates the others; liveness and
// startup failures kill the container (the kubelet's prober results
// consumed by computePodActions).
func (m *Machine) probe(ev Event, now time.Time, acts *[]Action) {
	c := m.find(ev.Container)
	if c == nil || c.state != runRunning || c.kill != nil || c.postStart || c.kind == api.ContainerKindInit || c.kind == api.ContainerKindEphemeral {
		// A container whose postStart hook runs is not running in the
		// status the kubelet's probe workers read: nobody probes it.
		return
	}
	p := ev.Probe.Of(c.spec)
	if p == nil {
		return
	}
	switch ev.Probe {
	case api.ProbeStartup:
		if c.startupOK {
			return // the startup probe stops once it succeeded
		}
		if ev.Success {
			c.startupOK = true
		} else if !m.terminating {
			m.startKill(c, termination.KillReasonStartupProbe, nil, "startup probe failed", m.probeKillMessage(c, "startup"), now, acts)
			m.restartAfterKill(c, now, acts)
		}
	case api.ProbeLiveness:
		if c.startupOK && !ev.Success && !m.terminating {
			m.startKill(c, termination.KillReasonLivenessProbe, nil, "liveness probe failed", m.probeKillMessage(c, "liveness"), now, acts)
			m.restartAfterKill(c, now, acts)
		}
	case api.ProbeReadiness:
		if c.startupOK {
			c.readyOK = ev.Success
		}
	}
}

// restartAfterKill settles the crash-loop back-off of a container killed
// for a failed probe. The kubelet kills and restarts such a container in
// the same sync, when the pod's restart policy allows it (sidecars always):
// its back-off check then sees the run before the killed one, so the
// restart is held back only if that earlier run ended less than the
// current delay ago. The decision is taken now; the restart itself follows
// the container's exit.
func (m *Machine) restartAfterKill(c *mcontainer, now time.Time, acts *[]Action) {
	if c.kind == api.ContainerKindRegular && PodRestartPolicy(&m.pod.Spec) == api.RestartPolicyNever {
		return
	}
	var e *BackoffEntry
	if c.hasBackoff {
		e = &c.backoff
	}
	finished := now
	if c.previous != nil {
		finished = c.previous.FinishedAt.Time
		if wait, until := m.cfg.Backoff.InBackOff(e, finished, now); wait {
			// The restart waits for the back-off after the exit; the
			// failed start is in the reason cache meanwhile.
			m.holdBack(c, until.Sub(finished), acts)
			return
		}
	}
	c.backoff, c.hasBackoff = m.cfg.Backoff.Advance(e, finished, now), true
	c.backoffCleared = true
}

// drive is the kubelet's sync: check the deadline, plan with Sequence,
// start or stop containers.
func (m *Machine) drive(now time.Time, acts *[]Action) {
	if c := m.blocked; c != nil && c.postStart && !c.postStartEnd.IsZero() {
		// The kubelet runs a sleep hook itself: it returns on its own.
		if now.Before(c.postStartEnd) {
			m.wake(c.postStartEnd)
		} else {
			m.finishPostStart(c, false, "", now, acts)
		}
	}
	if m.blocked != nil {
		// The pod worker is inside the start of m.blocked (its postStart
		// hook, or the kill after the hook failed): nothing else is
		// synced and no status is generated until it returns. Kills
		// already under way go on in the runtime.
		m.frozen = true
		m.advanceKills(now, acts)
		return
	}
	if !m.terminating && !m.finalized {
		if past, _ := PastActiveDeadline(&m.pod, now); past {
			m.reason, m.message = DeadlineExceeded, DeadlineExceededMessage
			m.phase = api.PodFailed
			m.startTerminating(now)
		} else if d, ok := ActiveDeadline(&m.pod); ok && !m.deadlineSent {
			m.deadlineSent = true
			*acts = append(*acts, Action{Kind: ActionRetryAt, At: d, Reason: DeadlineExceeded})
		}
	}
	if !m.terminating {
		// The kubelet computes the status first: a pod whose phase is
		// already Succeeded or Failed is not synced any more, only
		// stopped.
		if m.phase.IsTerminal() || m.computePhase(now).IsTerminal() {
			m.startTerminating(now)
		} else {
			m.runPlan(now, acts)
		}
	}
	if !m.terminating && !m.finalized {
		// Still running: the active deadline (announced at the first
		// sync) is still ahead.
		if d, ok := ActiveDeadline(&m.pod); ok {
			m.wake(d)
		}
	}
	if m.terminating && !m.finalized {
		m.stop(now, acts)
	}
	m.advanceKills(now, acts)
	m.wakeForReasons(now, acts)
}

// runtimePod fills p with the pod with the runtime's view of the
// containers, which is what Sequence plans from: containers purged with an
// old sandbox have no status, starts in flight count as not started. It
// returns p.
func (m *Machine) runtimePod(p *api.Pod) *api.Pod {
	*p = m.pod
	p.Status = api.PodStatus{Phase: m.phase}
	p.DeletionTimestamp = nil
	p.Status.InitContainerStatuses = runtimeStatuses(m.init, &m.runtime[0])
	p.Status.ContainerStatuses = runtimeStatuses(m.regular, &m.runtime[1])
	p.Status.EphemeralContainerStatuses = runtimeStatuses(m.ephemeral, &m.runtime[2])
	return p
}

// runtimeStatuses rebuilds the runtime's view of list in *buf, which only
// Sequence reads. A container the runtime has no record of gets a status
// with no state, which the sequencer reads as no status at all; so the
// list keeps one entry per spec container, in spec order (specPositions).
//
// The list is private to the Machine, so it is updated in place: an entry
// is written only when its container's runtime state changed.
func runtimeStatuses(list []mcontainer, buf *[]api.ContainerStatus) []api.ContainerStatus {
	out := *buf
	if out == nil {
		out = make([]api.ContainerStatus, len(list))
	}
	for i := range list {
		c := &list[i]
		cs := &out[i]
		switch {
		case c.state == runRunning:
			c.rtStarted, c.rtRunning = c.startupOK, api.ContainerStateRunning{StartedAt: api.NewTime(c.started)}
			if cs.State.Running == nil || cs.Name == "" {
				*cs = api.ContainerStatus{Name: c.spec.Name, Started: &c.rtStarted, State: api.ContainerState{Running: &c.rtRunning}}
			}
		case c.state == runExited || c.prior == runExited && (c.state == runPulling || c.state == runStarting):
			if cs.State.Terminated != c.last || cs.Name == "" || cs.State.Running != nil {
				*cs = api.ContainerStatus{Name: c.spec.Name, State: api.ContainerState{Terminated: c.last}}
			}
		default:
			if cs.State.Running != nil || cs.State.Terminated != nil || cs.Name == "" {
				*cs = api.ContainerStatus{Name: c.spec.Name}
			}
		}
	}
	*buf = out
	return out
}

// runPlan applies the sequencer's plan.
func (m *Machine) runPlan(now time.Time, acts *[]Action) {
	plan := SequencePlan{Start: m.starts[:0]}
	var view api.Pod
	m.whyListsStarts = sequence(m.runtimePod(&view), m.sandboxes, &plan, m.pos)
	m.why, m.starts = plan.Why, plan.Start
	if plan.Done {
		m.startTerminating(now)
		return
	}
	if plan.CreateSandbox {
		if m.creating {
			return
		}
		if m.sandboxGen > 0 {
			// The kubelet purges the init containers of the old sandbox:
			// every one of them runs again.
			for i := range m.init {
				c := &m.init[i]
				c.state, c.prior = runNone, runNone
				c.backoffCleared, c.retrySent = false, false
			}
		}
		m.creating = true
		*acts = append(*acts, Action{Kind: ActionCreateSandbox})
		return
	}
	for _, s := range plan.Start {
		m.tryStart(m.at(s.Kind, s.Index), now, acts)
		if m.blocked != nil {
			// The kubelet starts containers one after the other, each
			// start returning only once its postStart hook has: the rest
			// wait for a later sync.
			return
		}
	}
}

// tryStart moves a container towards running: the crash-loop back-off
// first (for a container that exited in this sandbox), then the image
// pull, then the start.
func (m *Machine) tryStart(c *mcontainer, now time.Time, acts *[]Action) {
	if c.state == runPulling || c.state == runStarting || c.state == runRunning {
		return
	}
	if c.state == runExited && !c.backoffCleared {
		var e *BackoffEntry
		if c.hasBackoff {
			e = &c.backoff
		}
		finished := c.last.FinishedAt.Time
		if wait, until := m.cfg.Backoff.InBackOff(e, finished, now); wait {
			m.wake(until)
			m.holdBack(c, until.Sub(finished), acts)
			if !c.retrySent {
				c.retrySent = true
				*acts = append(*acts, Action{Kind: ActionRetryAt, Container: c.spec.Name, At: until,
					Delay: until.Sub(finished), Reason: CrashLoopBackOff})
			}
			return
		}
		c.backoff, c.hasBackoff = m.cfg.Backoff.Advance(e, finished, now), true
		c.backoffCleared = true
	}
	switch pullNeeded(c, m.images) {
	case pullYes:
		c.prior, c.state = c.state, runPulling
		*acts = append(*acts, Action{Kind: ActionPullImage, Container: c.spec.Name, Image: c.spec.Image})
		return
	case pullForbidden:
		// The image manager refuses, and the start fails with that
		// reason (pkg/kubelet/images EnsureImageExists).
		m.recordReason(c, reasonEntry{ErrImageNeverPull,
			"Container image " + strconv.Quote(c.spec.Image) + " is not present with pull policy of Never"},
			api.EventTypeWarning, acts)
		return
	}
	c.prior, c.state = c.state, runStarting
	c.pulled = false
	*acts = append(*acts, Action{Kind: ActionStartContainer, Container: c.spec.Name})
	if hasPostStart(c) {
		m.blocked = c
	}
}

type pullNeed uint8

const (
	pullNo pullNeed = iota
	pullYes
	pullForbidden
)

// pullNeeded applies imagePullPolicy, defaulted as the API server does
// (api.ImagePullPolicyFor) when the spec leaves it empty.
func pullNeeded(c *mcontainer, images map[string]bool) pullNeed {
	policy := c.spec.ImagePullPolicy
	if policy == "" {
		policy = api.ImagePullPolicyFor(c.spec.Image)
	}
	switch {
	case c.pulled:
		return pullNo
	case policy == api.PullAlways:
		return pullYes
	case images[c.spec.Image]:
		return pullNo
	case policy == api.PullNever:
		return pullForbidden
	}
	return pullYes
}

func (m *Machine) stopReason() string {
	switch {
	case m.reason == DeadlineExceeded:
		return DeadlineExceeded
	case m.killed:
		return "the kubelet killed the pod: " + m.reason
	case m.deleted:
		return "the pod was deleted"
	}
	return "no container will run again"
}

// imagePresent records that the node holds img.
func (m *Machine) imagePresent(img string) {
	if m.images == nil {
		m.images = map[string]bool{}
	}
	m.images[img] = true
}
