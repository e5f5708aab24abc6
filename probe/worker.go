package probe

import (
	"fmt"
	"math"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// KubeletRestartGrace is how much earlier than the kubelet's own start a
// container must have started for its worker to treat it as having been
// running across a kubelet restart: such a container keeps whatever the
// kubelet reported before, so the worker caches no initial value for it.
const KubeletRestartGrace = 10 * time.Second

// WorkerConfig tunes a Worker. The zero value behaves as v1.36.3's kubelet
// does when it has not restarted recently.
type WorkerConfig struct {
	// KubeletStart is when the kubelet's prober manager started. A new
	// container found running with startedAt strictly before
	// KubeletStart - KubeletRestartGrace was running before the kubelet
	// (re)started: its worker caches no initial value for it, except that
	// a started sidecar's startup worker caches success. Zero means the
	// kubelet started long before any container it will see.
	KubeletStart time.Time
}

// Effect is what the kubelet does because of a change in a worker's cached
// result. The worker only reports it; the caller performs it.
type Effect uint8

// The effects of a step.
const (
	// EffectNone: nothing for the kubelet to do.
	EffectNone Effect = iota
	// EffectKillContainer: liveness or startup failed failureThreshold
	// times in a row; the kubelet kills the container (using the probe's
	// terminationGracePeriodSeconds when set) and its restart policy
	// decides whether it comes back.
	EffectKillContainer
	// EffectMarkReady: readiness passed successThreshold times in a row;
	// the container becomes ready.
	EffectMarkReady
	// EffectMarkNotReady: the container is not ready (readiness failed
	// failureThreshold times, a new container starts out not ready, or the
	// container stopped running).
	EffectMarkNotReady
	// EffectMarkStarted: the startup probe passed; the kubelet sets the
	// container status's started flag and liveness and readiness begin.
	EffectMarkStarted
)

// String names the effect.
func (e Effect) String() string {
	switch e {
	case EffectNone:
		return "none"
	case EffectKillContainer:
		return "kill container"
	case EffectMarkReady:
		return "mark ready"
	case EffectMarkNotReady:
		return "mark not ready"
	case EffectMarkStarted:
		return "mark started"
	}
	return fmt.Sprintf("Effect(%d)", uint8(e))
}

// Reason says why a step did or did not run the probe, in the order
// the kubelet's worker (pkg/kubelet/prober worker.doProbe) checks.
type Reason uint8

// The reasons of a step.
const (
	// ReasonProbed: the probe ran and its outcome was counted.
	ReasonProbed Reason = iota
	// ReasonProbeError: the probe ran but could not produce a result
	// (OutcomeError); the attempt was discarded.
	ReasonProbeError
	// ReasonStopped: the worker had already exited.
	ReasonStopped
	// ReasonNoStatus: the kubelet has no status for the pod yet.
	ReasonNoStatus
	// ReasonPodTerminal: the pod is Succeeded or Failed; the worker exits.
	ReasonPodTerminal
	// ReasonNoContainer: the container has no status with a container ID.
	ReasonNoContainer
	// ReasonOnHold: the worker is on hold until a new container ID appears.
	ReasonOnHold
	// ReasonNotRunning: the container exists but is not running; its cached
	// result is forced to failure, and the worker exits when the container
	// terminated and will not be restarted.
	ReasonNotRunning
	// ReasonPodDeleting: the pod is being deleted; a liveness or startup
	// worker caches success and exits.
	ReasonPodDeleting
	// ReasonInitialDelay: initialDelaySeconds have not passed since the
	// container started.
	ReasonInitialDelay
	// ReasonStarted: a startup worker idles once the container has started.
	ReasonStarted
	// ReasonNotStarted: liveness and readiness wait until the container
	// has started.
	ReasonNotStarted
)

// String names the reason.
func (r Reason) String() string {
	switch r {
	case ReasonProbed:
		return "probed"
	case ReasonProbeError:
		return "probe error discarded"
	case ReasonStopped:
		return "worker stopped"
	case ReasonNoStatus:
		return "no pod status"
	case ReasonPodTerminal:
		return "pod terminated"
	case ReasonNoContainer:
		return "container not found"
	case ReasonOnHold:
		return "on hold until a new container"
	case ReasonNotRunning:
		return "container not running"
	case ReasonPodDeleting:
		return "pod being deleted"
	case ReasonInitialDelay:
		return "within initial delay"
	case ReasonStarted:
		return "container already started"
	case ReasonNotStarted:
		return "container not started yet"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Input is what one tick of a worker reads: the pod status the kubelet's
// status manager holds, and what the probe reports if the worker runs it.
// Every Step is a tick of the worker's period timer (the kubelet's probe
// ticker, or the prober manager's manual trigger), so there is no separate
// tick input: a caller with nothing new passes the status it holds.
type Input struct {
	// Status is the pod status the kubelet holds at the tick; nil when its
	// status manager has none (the pod is not created yet, or gone).
	Status *api.PodStatus
	// Outcome is what the probe mechanism reports if the worker runs the
	// probe at this tick; ignored otherwise (see Worker.WouldProbe).
	Outcome Outcome
	// Output is the probe's output with Outcome — the command's output,
	// the HTTP failure text ("HTTP probe failed with statuscode: 500"),
	// the dial error — or, for OutcomeError, the error's text: what the
	// kubelet puts in the Unhealthy and ProbeWarning events (Report.Event).
	// Empty is an empty output; it changes nothing else.
	Output string
	// ErroredAs is, for OutcomeError, the result the mechanism's last
	// attempt gave with its error, which the Unhealthy event names ("...
	// errored and resulted in unknown state"): the zero value,
	// OutcomeUnknown, as almost every mechanism gives; OutcomeFailure for
	// an httpGet whose response body could not be read (HTTPResult with
	// Err). Ignored for other outcomes.
	ErroredAs Outcome
}

// Report is what one tick of a worker did.
type Report struct {
	// Probed reports whether the probe was run (its outcome consumed).
	Probed bool
	// Reason says why the probe was or was not run.
	Reason Reason
	// ContainerID is the container instance the worker last saw.
	ContainerID string
	// Result is the cached result for ContainerID after the step
	// (ResultNone when nothing is cached).
	Result Result
	// Changed reports whether the step changed the cached result
	// (including caching the initial value of a new container).
	Changed bool
	// Effect is what the kubelet does about the change, if anything.
	Effect Effect
	// OnHold reports whether the worker is on hold after the step: it
	// stopped probing after a liveness failure or a startup result reached
	// its threshold, and waits for a new container ID.
	OnHold bool
	// Event is the Event the kubelet's prober records for the probe run
	// at this tick, regarding the container (api.ContainerReference, the
	// pod as the worker was made with), source "kubelet"; nil when the
	// probe did not run or records nothing (success, unknown):
	//   - failure: Warning Unhealthy "<Kind> probe failed: <output>";
	//   - warning: Warning ProbeWarning "<Kind> probe warning: <output>";
	//   - error: Warning Unhealthy "<Kind> probe errored and resulted in
	//     <state> state: <error>", although the attempt is discarded.
	// <Kind> is Liveness, Readiness or Startup. The Killing event of a
	// container killed for a failed liveness or startup probe ("Container
	// <name> failed liveness probe, will be restarted") is the kill's,
	// which the pod's machine (lifecycle.Machine) records when it acts on
	// EffectKillContainer.
	Event *api.Event
	// KeepGoing is false when the worker has exited; later steps do
	// nothing. (When its loop ends the kubelet also drops the container's
	// entry from the results cache; Result keeps reporting the last value
	// stored, which is what the kubelet acted on.)
	KeepGoing bool
}

// Worker is the kubelet's per-probe worker for one container (one of
// pkg/kubelet/prober's workers) as a pure state machine. The caller steps
// it at every tick, every periodSeconds (NextDeadline says when), with the
// pod status the kubelet knows and the outcome the probe mechanism gives if
// it is run; the worker decides whether that outcome counts, keeps the run
// of equal results against successThreshold and failureThreshold,
// maintains the cached result, and reports effects. It never runs a probe
// itself: use WouldProbe to learn whether a tick will consume an outcome
// before paying for one.
//
// A Worker is not safe for concurrent use.
type Worker struct {
	kind          api.ProbeKind
	containerName string
	sidecar       bool
	// restartSpec and restartContainer hold the pod's and the container's
	// restart policies (and the container's restart rules), the inputs of
	// lifecycle.ContainerShouldRestart.
	restartSpec      api.PodSpec
	restartContainer api.Container
	deleting         bool
	// ref is the container's object reference, which the probe events
	// regard.
	ref api.ObjectReference

	initialDelay     int32
	period           time.Duration
	successThreshold int
	failureThreshold int
	kubeletStart     time.Time

	containerID string
	cached      Result
	// lastResult starts as success, as the zero value of the kubelet's
	// results.Result does; with resultRun at 0 that is indistinguishable
	// from "no previous result".
	lastResult Result
	resultRun  int
	onHold     bool
	stopped    bool

	lastTick time.Time
	ticked   bool
}

// NewWorker builds the worker for the probe of kind on the named container
// of pod (a regular container, or a sidecar: an init container with
// restartPolicy Always). The probe's timing fields are used as they are in
// the spec, so apply api.DefaultPod first as the API server would. It fails
// when the container does not exist, has no probe of that kind, or the
// probe's periodSeconds, thresholds or initialDelaySeconds are out of
// range. A nil pod is an error wrapping api.ErrInvalidInput.
//
// The methods of a nil *Worker (what NewWorker returns with an error)
// answer with zero values: it is never due and its Step does nothing.
func NewWorker(kind api.ProbeKind, pod *api.Pod, containerName string, cfg WorkerConfig) (*Worker, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if kind < api.ProbeLiveness || kind > api.ProbeStartup {
		return nil, fmt.Errorf("%w: probe kind %d", errInvalidInput, kind)
	}
	ref, ok := pod.Spec.FindContainer(containerName)
	if !ok || (ref.Kind != api.ContainerKindRegular && ref.Kind != api.ContainerKindSidecar) {
		// Probes on a plain init or ephemeral container are rejected by
		// validation, and the kubelet never starts workers for them.
		return nil, fmt.Errorf("%w: pod %s has no container or sidecar %q", errInvalidInput, pod.Key(), containerName)
	}
	c, sidecar, path := ref.Container, ref.Kind == api.ContainerKindSidecar, ref.Path().String()
	p := kind.Of(c)
	if p == nil {
		return nil, fmt.Errorf("%w: %s has no %sProbe", errInvalidInput, path, kind)
	}
	field := path + "." + kind.String() + "Probe"
	switch {
	case p.PeriodSeconds < 1:
		return nil, fmt.Errorf("%w: %s.periodSeconds: %d must be at least 1", errInvalidInput, field, p.PeriodSeconds)
	case p.SuccessThreshold < 1:
		return nil, fmt.Errorf("%w: %s.successThreshold: %d must be at least 1", errInvalidInput, field, p.SuccessThreshold)
	case p.FailureThreshold < 1:
		return nil, fmt.Errorf("%w: %s.failureThreshold: %d must be at least 1", errInvalidInput, field, p.FailureThreshold)
	case p.InitialDelaySeconds < 0:
		return nil, fmt.Errorf("%w: %s.initialDelaySeconds: %d must not be negative", errInvalidInput, field, p.InitialDelaySeconds)
	}
	return &Worker{
		kind:             kind,
		containerName:    containerName,
		sidecar:          sidecar,
		restartSpec:      api.PodSpec{RestartPolicy: pod.Spec.RestartPolicy},
		restartContainer: api.Container{RestartPolicy: c.RestartPolicy, RestartPolicyRules: c.RestartPolicyRules},
		deleting:         pod.DeletionTimestamp != nil,
		ref:              api.ContainerReference(pod, containerName),
		initialDelay:     p.InitialDelaySeconds,
		period:           time.Duration(p.PeriodSeconds) * time.Second,
		successThreshold: int(p.SuccessThreshold),
		failureThreshold: int(p.FailureThreshold),
		kubeletStart:     cfg.KubeletStart,
		lastResult:       ResultSuccess,
	}, nil
}

// Kind is the probe kind the worker runs (zero for a nil worker).
func (w *Worker) Kind() api.ProbeKind {
	if w == nil {
		return 0
	}
	return w.kind
}

// Result is the cached result for the container the worker last saw (zero
// for a nil worker).
func (w *Worker) Result() Result {
	if w == nil {
		return 0
	}
	return w.cached
}

// ContainerID is the container instance the worker last saw ("" before
// the first one, and for a nil worker).
func (w *Worker) ContainerID() string {
	if w == nil {
		return ""
	}
	return w.containerID
}

// OnHold reports whether the worker waits for a new container ID; a nil
// worker does not.
func (w *Worker) OnHold() bool { return w != nil && w.onHold }

// Stopped reports whether the worker has exited; a nil worker never ran,
// so it has not.
func (w *Worker) Stopped() bool { return w != nil && w.stopped }

// Period is the probe's periodSeconds as a duration: the worker's tick
// (zero for a nil worker).
func (w *Worker) Period() time.Duration {
	if w == nil {
		return 0
	}
	return w.period
}

// NextDeadline is when the worker's next tick is due: one period after the
// latest Step, as the kubelet's probe ticker fires, whatever the worker is
// waiting for (the initial delay, the container's start, a new container
// after a hold). The zero time means no tick is due until the caller acts:
// before the first Step (a new worker is stepped at once, as the kubelet
// runs its first probe when the worker starts; the kubelet's random delay
// of that first tick after its own restart is the caller's choice), and
// once the worker has exited. Unlike other machines, every Step is a tick
// that may run the probe, so stepping earlier runs it earlier, as the
// prober manager's manual trigger does. A nil worker's is the zero time.
func (w *Worker) NextDeadline() time.Time {
	if w == nil || !w.ticked || w.stopped {
		return time.Time{}
	}
	return w.lastTick.Add(w.period)
}

// plan is the part of a step decided before the probe runs.
type plan struct {
	reason       Reason
	status       *api.ContainerStatus
	newContainer bool
}

// decide walks the kubelet worker's checks without changing the worker.
func (w *Worker) decide(status *api.PodStatus, now time.Time) plan {
	if w.stopped {
		return plan{reason: ReasonStopped}
	}
	if status == nil {
		return plan{reason: ReasonNoStatus}
	}
	if status.Phase == api.PodSucceeded || status.Phase == api.PodFailed {
		return plan{reason: ReasonPodTerminal}
	}
	// The app containers' statuses first, then the init containers'; an
	// entry without a container ID is not a container yet.
	c := api.ContainerStatusByName(status.ContainerStatuses, w.containerName)
	if c == nil || c.ContainerID == "" {
		c = api.ContainerStatusByName(status.InitContainerStatuses, w.containerName)
		if c == nil || c.ContainerID == "" {
			return plan{reason: ReasonNoContainer}
		}
	}
	p := plan{status: c, newContainer: c.ContainerID != w.containerID}
	switch {
	case w.onHold && !p.newContainer:
		p.reason = ReasonOnHold
	case c.State.Running == nil:
		p.reason = ReasonNotRunning
	case w.deleting && (w.kind == api.ProbeLiveness || w.kind == api.ProbeStartup):
		p.reason = ReasonPodDeleting
	case wholeSeconds(now.Sub(c.State.Running.StartedAt.Time)) < w.initialDelay:
		p.reason = ReasonInitialDelay
	case c.Started != nil && *c.Started:
		if w.kind == api.ProbeStartup {
			p.reason = ReasonStarted
		} else {
			p.reason = ReasonProbed
		}
	default:
		if w.kind != api.ProbeStartup {
			p.reason = ReasonNotStarted
		} else {
			p.reason = ReasonProbed
		}
	}
	return p
}

// wholeSeconds truncates d to whole seconds as the kubelet's int32
// conversion does on amd64, where an age beyond int32 range (a running
// container without startedAt is ~292 years old) becomes math.MinInt32 —
// so such a container always counts as within its initial delay.
//
// The kubelet reads the clock a moment after the tick it is handling, so
// the age it truncates is always a hair above now - startedAt: an age of
// exactly -k seconds (a start k seconds in the future) truncates toward
// zero to -(k-1), not -k. One nanosecond stands for that moment.
func wholeSeconds(d time.Duration) int32 {
	if d < math.MaxInt64 {
		d += time.Nanosecond
	}
	s := d.Seconds()
	if s >= math.MaxInt32+1 || s <= math.MinInt32-1 {
		return math.MinInt32
	}
	return int32(s)
}

// WouldProbe reports whether a Step with this status at now would run the
// probe and consume its outcome. It does not change the worker. A nil
// worker never probes.
func (w *Worker) WouldProbe(status *api.PodStatus, now time.Time) bool {
	return w != nil && w.decide(status, now).reason == ReasonProbed
}

// Step performs one tick of the worker at now, reading in.Status and, if
// the worker runs the probe, in.Outcome. The Report says whether the probe
// ran, the cached result, whether the worker is on hold or has exited, and
// the effect of any change. A nil worker does nothing: the result is the
// zero Report (not probed, not keeping going).
func (w *Worker) Step(in Input, now time.Time) Report {
	if w == nil {
		return Report{}
	}
	status, outcome := in.Status, in.Outcome
	if !w.stopped {
		w.lastTick, w.ticked = now, true
	}
	p := w.decide(status, now)
	st := Report{Reason: p.reason, KeepGoing: true}
	switch p.reason {
	case ReasonStopped:
		st.KeepGoing = false
		return w.finish(st)
	case ReasonNoStatus, ReasonNoContainer:
		return w.finish(st)
	case ReasonPodTerminal:
		w.stopped = true
		st.KeepGoing = false
		return w.finish(st)
	}

	c := p.status
	if p.newContainer {
		w.containerID = c.ContainerID
		w.cached = ResultNone
		if r := w.initialFor(c); r != ResultNone {
			w.set(&st, r, w.initialEffect(r))
		}
		// A new container lifts the hold. The run of equal results is
		// deliberately kept: only going on hold resets it.
		w.onHold = false
	}

	switch p.reason {
	case ReasonOnHold:
		return w.finish(st)
	case ReasonNotRunning:
		eff := EffectNone
		if w.kind == api.ProbeReadiness {
			eff = EffectMarkNotReady
		}
		w.set(&st, ResultFailure, eff)
		if c.State.Terminated != nil && !w.willRestart(status, c.State.Terminated.ExitCode) {
			w.stopped = true
			st.KeepGoing = false
		}
		return w.finish(st)
	case ReasonPodDeleting:
		// A quiet shutdown: success so nothing kills or restarts the
		// container while the pod terminates.
		w.set(&st, ResultSuccess, EffectNone)
		w.stopped = true
		st.KeepGoing = false
		return w.finish(st)
	case ReasonInitialDelay, ReasonStarted, ReasonNotStarted:
		return w.finish(st)
	}

	st.Probed = true
	st.Event = w.event(in)
	r, ok := outcome.Result()
	if !ok {
		st.Reason = ReasonProbeError
		return w.finish(st)
	}
	if r == w.lastResult {
		w.resultRun++
	} else {
		w.lastResult, w.resultRun = r, 1
	}
	if (r == ResultFailure && w.resultRun < w.failureThreshold) ||
		(r == ResultSuccess && w.resultRun < w.successThreshold) {
		return w.finish(st)
	}
	w.set(&st, r, w.thresholdEffect(r))
	if (w.kind == api.ProbeLiveness && r == ResultFailure) || w.kind == api.ProbeStartup {
		// Liveness failed: the container is being killed, so probing it
		// again is pointless until its replacement appears. Startup has
		// decided either way and stays quiet until a new container too.
		w.onHold = true
		w.resultRun = 0
	}
	return w.finish(st)
}

func (w *Worker) finish(st Report) Report {
	st.ContainerID = w.containerID
	st.Result = w.cached
	st.OnHold = w.onHold
	return st
}

// set caches r and records the change and its effect on st.
func (w *Worker) set(st *Report, r Result, eff Effect) {
	if w.cached != r {
		st.Changed = true
		if eff != EffectNone {
			st.Effect = eff
		}
	} else if eff == EffectKillContainer {
		// A failure that reaches the threshold kills the container even
		// when the cache already said failure.
		st.Effect = eff
	}
	w.cached = r
}

// initialFor is the value cached when the worker first sees container c.
func (w *Worker) initialFor(c *api.ContainerStatus) Result {
	if run := c.State.Running; run != nil && !w.kubeletStart.IsZero() &&
		run.StartedAt.Time.Before(w.kubeletStart.Add(-KubeletRestartGrace)) {
		// Running since before the kubelet restarted: keep what was
		// reported then. Only a sidecar's startup probe must say success
		// again, or the pod's app containers would wait for it.
		if w.kind == api.ProbeStartup && w.sidecar && c.Started != nil && *c.Started {
			return ResultSuccess
		}
		return ResultNone
	}
	return initialResult(w.kind)
}

func (w *Worker) initialEffect(r Result) Effect {
	switch {
	case w.kind == api.ProbeReadiness && r == ResultFailure:
		return EffectMarkNotReady
	case w.kind == api.ProbeStartup && r == ResultSuccess:
		return EffectMarkStarted
	}
	return EffectNone
}

func (w *Worker) thresholdEffect(r Result) Effect {
	switch w.kind {
	case api.ProbeReadiness:
		if r == ResultSuccess {
			return EffectMarkReady
		}
		return EffectMarkNotReady
	case api.ProbeStartup:
		if r == ResultSuccess {
			return EffectMarkStarted
		}
		return EffectKillContainer
	}
	if r == ResultFailure {
		return EffectKillContainer
	}
	return EffectNone
}

// willRestart reports whether the kubelet will start the container again
// after it exited with code: always while the pod's AllContainersRestarting
// condition is True (every container is coming back, whatever its own
// policy says); otherwise as lifecycle.ContainerShouldRestart decides, the
// kubelet's own rule (container restartPolicy and restartPolicyRules, then
// the pod's restartPolicy).
func (w *Worker) willRestart(status *api.PodStatus, code int32) bool {
	if cond := api.FindCondition(status.Conditions, api.AllContainersRestarting); cond != nil && cond.Status == api.ConditionTrue {
		return true
	}
	return lifecycle.ContainerShouldRestart(&w.restartSpec, &w.restartContainer, code).Restart
}

// initialResult is the value the kubelet caches for a container the moment
// its worker first sees the container's ID, before any probe has run:
// readiness starts as failure (not ready), liveness as success (alive) and
// startup as unknown (not started yet).
func initialResult(k api.ProbeKind) Result {
	switch k {
	case api.ProbeReadiness:
		return ResultFailure
	case api.ProbeLiveness:
		return ResultSuccess
	}
	return ResultUnknown
}
