package lifecycle

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// genMachinePod draws a pod with up to two regular init containers, maybe a
// sidecar among them, one or two app containers with or without probes and
// hooks, a random restart policy and maybe an activeDeadlineSeconds.
func genMachinePod(t *rapid.T) *api.Pod {
	exec := api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}}
	probe := func(label string) *api.Probe {
		if rapid.Bool().Draw(t, label) {
			return &api.Probe{ProbeHandler: exec}
		}
		return nil
	}
	image := func(label string) string {
		return rapid.SampledFrom([]string{"busybox:1.28", "nginx", "envoy:v1"}).Draw(t, label)
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u-1"}}
	pod.Spec.RestartPolicy = rapid.SampledFrom([]api.RestartPolicy{"", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}).Draw(t, "policy")
	nInit := rapid.IntRange(0, 2).Draw(t, "inits")
	for i := 0; i < nInit; i++ {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, api.Container{Name: "init-" + string(rune('a'+i)), Image: image("initImage")})
	}
	if rapid.Bool().Draw(t, "sidecar") {
		always := api.RestartPolicyAlways
		sc := api.Container{Name: "sidecar", Image: image("sidecarImage"), RestartPolicy: &always,
			StartupProbe: probe("sidecarStartup"), LivenessProbe: probe("sidecarLiveness"), ReadinessProbe: probe("sidecarReadiness")}
		at := rapid.IntRange(0, nInit).Draw(t, "sidecarAt")
		pod.Spec.InitContainers = append(pod.Spec.InitContainers[:at], append([]api.Container{sc}, pod.Spec.InitContainers[at:]...)...)
	}
	nApp := rapid.IntRange(1, 2).Draw(t, "apps")
	for i := 0; i < nApp; i++ {
		c := api.Container{Name: "app-" + string(rune('a'+i)), Image: image("appImage"),
			StartupProbe: probe("startup"), LivenessProbe: probe("liveness"), ReadinessProbe: probe("readiness")}
		switch rapid.IntRange(0, 2).Draw(t, "preStop") {
		case 1:
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 1}}}
		case 2:
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"drain"}}}}
		}
		if h := genPostStart(t); h != nil {
			if c.Lifecycle == nil {
				c.Lifecycle = &api.Lifecycle{}
			}
			c.Lifecycle.PostStart = h
		}
		pod.Spec.Containers = append(pod.Spec.Containers, c)
	}
	if rapid.IntRange(0, 3).Draw(t, "deadline?") == 0 {
		ads := rapid.Int64Range(30, 3000).Draw(t, "activeDeadlineSeconds")
		pod.Spec.ActiveDeadlineSeconds = &ads
	}
	if rapid.Bool().Draw(t, "grace?") {
		g := rapid.Int64Range(0, 60).Draw(t, "terminationGracePeriodSeconds")
		pod.Spec.TerminationGracePeriodSeconds = &g
	}
	return pod
}

// machineDriver feeds a Machine a random but mostly plausible event
// sequence: it usually does what the machine asked for (create the
// sandbox, pull, start, kill, come back at RetryAt), and mixes in crashes,
// probe results, deletions, sandbox deaths, lost nodes, time jumps and
// events that make no sense.
type machineDriver struct {
	pod  *api.Pod
	m    *Machine
	cfg  MachineConfig
	now  time.Time
	st   api.PodStatus
	acts []Action

	pending []Event // events answering earlier actions

	// Model for the "no app container before init" property.
	initDone map[string]bool
	// Model for the back-off properties.
	retryAt    map[string]time.Time
	lastDelay  map[string]time.Duration
	restarts   map[string]int32
	purged     map[string]bool
	startedAt  map[string]time.Time
	terminalAt api.PodPhase
}

func (d *machineDriver) names() []string {
	var out []string
	for _, c := range d.pod.Spec.InitContainers {
		out = append(out, c.Name)
	}
	for _, c := range d.pod.Spec.Containers {
		out = append(out, c.Name)
	}
	return append(out, "no-such-container")
}

func (d *machineDriver) running() []string {
	var out []string
	for _, list := range [][]api.ContainerStatus{d.st.InitContainerStatuses, d.st.ContainerStatuses} {
		for _, cs := range list {
			if cs.State.Running != nil {
				out = append(out, cs.Name)
			}
		}
	}
	return out
}

func (d *machineDriver) isRegularInit(name string) bool {
	for _, c := range d.pod.Spec.InitContainers {
		if c.Name == name {
			return !c.IsSidecar()
		}
	}
	return false
}

func (d *machineDriver) isApp(name string) bool {
	for _, c := range d.pod.Spec.Containers {
		if c.Name == name {
			return true
		}
	}
	return false
}

func (d *machineDriver) drawEvent(t *rapid.T) Event {
	kinds := []string{"pending", "pending", "pending", "pending", "exit", "exit", "probe", "tick", "tick",
		"delete", "sandboxDied", "nodeLost", "nonsense", "schedule"}
	switch rapid.SampledFrom(kinds).Draw(t, "kind") {
	case "pending":
		if len(d.pending) > 0 {
			i := rapid.IntRange(0, len(d.pending)-1).Draw(t, "which")
			ev := d.pending[i]
			d.pending = append(d.pending[:i], d.pending[i+1:]...)
			return ev
		}
		return Scheduled("node-1")
	case "exit":
		if r := d.running(); len(r) > 0 {
			c := rapid.SampledFrom(r).Draw(t, "exiting")
			return ContainerExited(c, rapid.SampledFrom([]int32{0, 0, 1, 2, 137}).Draw(t, "code"), "")
		}
		return Tick()
	case "probe":
		if r := d.running(); len(r) > 0 {
			c := rapid.SampledFrom(r).Draw(t, "probed")
			k := rapid.SampledFrom([]api.ProbeKind{api.ProbeLiveness, api.ProbeReadiness, api.ProbeStartup}).Draw(t, "probeKind")
			return ProbeResult(c, k, rapid.Bool().Draw(t, "success"))
		}
		return Tick()
	case "tick":
		return Tick()
	case "delete":
		if rapid.IntRange(0, 15).Draw(t, "reallyDelete") == 0 {
			return DeletionRequested(rapid.SampledFrom([]int64{-1, 0, 5, 30}).Draw(t, "grace"))
		}
		return Tick()
	case "sandboxDied":
		if rapid.IntRange(0, 8).Draw(t, "reallyDie") == 0 {
			return SandboxDied()
		}
		return Tick()
	case "nodeLost":
		if rapid.IntRange(0, 20).Draw(t, "reallyLose") == 0 {
			return NodeUnreachable()
		}
		return Tick()
	case "nonsense":
		c := rapid.SampledFrom(d.names()).Draw(t, "nonsenseContainer")
		return rapid.SampledFrom([]Event{ContainerStarted(c), ContainerExited(c, 3, ""), ImagePulled(c),
			SandboxReady("10.0.0.9"), ProbeResult(c, api.ProbeReadiness, true), PreStopFinished(c), PreStopFailed(c),
			PostStartFinished(c), PostStartFailed(c, "x"), Rejected("node-1", "OutOfpods", "Node didn't have enough resource: pods")}).Draw(t, "nonsenseEvent")
	}
	return Scheduled("node-1")
}

// step feeds ev after advancing the clock, then checks every invariant.
func (d *machineDriver) step(t *rapid.T, ev Event) {
	prev := d.st
	if ev.Kind == EventContainerExited && d.isRegularInit(ev.Container) && ev.ExitCode == 0 {
		if cs := prev.FindContainerStatus(ev.Container); cs != nil && cs.State.Running != nil {
			d.initDone[ev.Container] = true
		}
	}
	if ev.Kind == EventContainerExited || ev.Kind == EventSandboxDied {
		// A run that ended more than BackoffResetAfter after its start
		// resets the back-off, with or without a RetryAt in between.
		for name, at := range d.startedAt {
			if (ev.Kind == EventSandboxDied || name == ev.Container) && d.now.Sub(at) > BackoffResetAfter {
				delete(d.lastDelay, name)
			}
		}
	}
	d.st, d.acts = d.m.Step(ev, d.now)
	st := &d.st

	// Phase never regresses; terminal phases absorb.
	if err := ValidPhaseTransition(prev.Phase, st.Phase); err != nil && prev.Phase != "" {
		t.Fatalf("after %v: %v", ev, err)
	}
	if d.terminalAt != "" && st.Phase != d.terminalAt {
		t.Fatalf("after %v: terminal phase %s became %s", ev, d.terminalAt, st.Phase)
	}
	if st.Phase.IsTerminal() {
		d.terminalAt = st.Phase
	}

	// Ready implies ContainersReady and Initialized.
	if c := api.FindCondition(st.Conditions, api.PodReady); c != nil && c.Status == api.ConditionTrue {
		for _, ty := range []api.PodConditionType{api.ContainersReady, api.PodInitialized} {
			if o := api.FindCondition(st.Conditions, ty); o == nil || o.Status != api.ConditionTrue {
				t.Fatalf("after %v: Ready is True but %s is not: %+v", ev, ty, st.Conditions)
			}
		}
	}

	// Every container status has exactly one state; restart counts only grow.
	for _, list := range [][]api.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for _, cs := range list {
			n := 0
			if cs.State.Waiting != nil {
				n++
			}
			if cs.State.Running != nil {
				n++
			}
			if cs.State.Terminated != nil {
				n++
			}
			if n != 1 {
				t.Fatalf("after %v: container %s has %d states", ev, cs.Name, n)
			}
			if cs.RestartCount < d.restarts[cs.Name] {
				t.Fatalf("after %v: restartCount of %s went from %d to %d", ev, cs.Name, d.restarts[cs.Name], cs.RestartCount)
			}
			d.restarts[cs.Name] = cs.RestartCount
		}
	}

	initial, maxDelay := d.cfg.Backoff.Initial(), d.cfg.Backoff.Max()
	for _, a := range d.acts {
		switch a.Kind {
		case ActionCreateSandbox:
			clear(d.initDone) // a new sandbox runs every init container again
			// Init containers are purged with the old sandbox: without an
			// exited instance in the runtime no back-off holds them.
			// Their back-off is not advanced by that first start either.
			for _, c := range d.pod.Spec.InitContainers {
				delete(d.retryAt, c.Name)
				d.purged[c.Name] = true
			}
			d.pending = append(d.pending, SandboxReady("10.0.0.7"))
		case ActionPullImage:
			d.pending = append(d.pending, ImagePulled(a.Container))
		case ActionStartContainer:
			if d.terminalAt != "" {
				t.Fatalf("after %v: %v in terminal phase %s", ev, a, d.terminalAt)
			}
			if d.isApp(a.Container) {
				for _, c := range d.pod.Spec.InitContainers {
					if !c.IsSidecar() && !d.initDone[c.Name] {
						t.Fatalf("after %v: app container %s starts before init container %s succeeded", ev, a.Container, c.Name)
					}
				}
			}
			if at, ok := d.retryAt[a.Container]; ok {
				if d.now.Before(at) {
					t.Fatalf("after %v: %s restarted at %v, inside its back-off (until %v)", ev, a.Container, d.now, at)
				}
				delete(d.retryAt, a.Container)
			}
			d.startedAt[a.Container] = d.now
			d.pending = append(d.pending, ContainerStarted(a.Container))
		case ActionRunPreStop:
			d.pending = append(d.pending, PreStopFinished(a.Container), PreStopFailed(a.Container))
		case ActionRunPostStart:
			d.pending = append(d.pending, PostStartFinished(a.Container), PostStartFailed(a.Container, "exit 1"))
		case ActionKillContainer:
			d.pending = append(d.pending, ContainerExited(a.Container, 137, ""))
		case ActionRetryAt:
			if a.Container == "" {
				continue
			}
			if a.Delay <= 0 || a.Delay > maxDelay {
				t.Fatalf("after %v: back-off %v of %s outside (0, %v]", ev, a.Delay, a.Container, maxDelay)
			}
			if !onDoublingLadder(a.Delay, initial, maxDelay) {
				t.Fatalf("after %v: back-off %v of %s is not initial %v doubled, capped at %v", ev, a.Delay, a.Container, initial, maxDelay)
			}
			// Between two back-offs of a container its delay is reset to the
			// initial value, or doubled once per restart in between (one at
			// least, unless every restart in between followed a purge).
			if last, ok := d.lastDelay[a.Container]; ok && a.Delay != initial && a.Delay < min(2*last, maxDelay) &&
				!(d.purged[a.Container] && a.Delay == last) {
				t.Fatalf("after %v: back-off of %s went from %v to %v: neither doubled nor reset", ev, a.Container, last, a.Delay)
			}
			d.lastDelay[a.Container] = a.Delay
			d.purged[a.Container] = false
			d.retryAt[a.Container] = a.At
		}
	}
}

// onDoublingLadder: d is initial·2^k for some k ≥ 0, or the cap.
func onDoublingLadder(d, initial, maxDelay time.Duration) bool {
	if d == maxDelay {
		return true
	}
	for v := initial; v > 0 && v <= maxDelay; v *= 2 {
		if v == d {
			return true
		}
	}
	return false
}

func TestMachineProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		cfg := MachineConfig{}
		if rapid.Bool().Draw(t, "customBackoff") {
			cfg.Backoff.MaxContainerRestartPeriod = rapid.SampledFrom([]time.Duration{5 * time.Second, 45 * time.Second, 100 * time.Second}).Draw(t, "maxRestartPeriod")
		}
		if rapid.Bool().Draw(t, "imagesPresent") {
			cfg.ImagesPresent = []string{"busybox:1.28"}
		}
		d := &machineDriver{pod: pod, cfg: cfg, m: NewMachine(pod, cfg), now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{}, restarts: map[string]int32{},
			purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		d.step(t, Scheduled("node-1"))
		steps := rapid.IntRange(1, 120).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			d.now = d.now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, 5 * time.Second, 10 * time.Second,
				40 * time.Second, 5 * time.Minute, 11 * time.Minute}).Draw(t, "dt"))
			d.step(t, d.drawEvent(t))
		}
	})
}

// TestMachineNextDeadline checks NextDeadline against the RetryAt actions
// and against a machine that follows every one of them. A driver steps
// machine B with random events, jumping to B.NextDeadline (with Tick)
// whenever it falls before the next event, as a simulator does; machine A
// gets the same steps plus a Tick at every RetryAt time B skipped and at a
// random moment before B's deadline. After every step NextDeadline is zero
// or after now and is the At of a RetryAt still ahead; every tick only A
// gets does nothing at all (no action, the same status), and A and B answer
// every shared step alike. Together: NextDeadline is the earliest RetryAt
// still pending, the ones it passes over were moot, and nothing timed
// happens between deadlines.
func TestMachineNextDeadline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		cfg := MachineConfig{}
		if rapid.Bool().Draw(t, "customBackoff") {
			cfg.Backoff.MaxContainerRestartPeriod = rapid.SampledFrom([]time.Duration{5 * time.Second, 45 * time.Second}).Draw(t, "maxRestartPeriod")
		}
		d := &machineDriver{pod: pod, cfg: cfg, m: NewMachine(pod, cfg), now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{}, restarts: map[string]int32{},
			purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		a := NewMachine(pod, cfg)
		aStatus := api.PodStatus{}
		var announced []time.Time // RetryAt times B issued that lie ahead

		both := func(ev Event) {
			d.step(t, ev)
			st, acts := a.Step(ev, d.now)
			if !reflect.DeepEqual(st, d.st) || !reflect.DeepEqual(acts, d.acts) {
				t.Fatalf("at %v after %v: the machine that ticked more answers\n%v %v\nthe one that jumped\n%v %v",
					d.now, ev, st.Phase, acts, d.st.Phase, d.acts)
			}
			aStatus = st
			for _, x := range d.acts {
				if x.Kind == ActionRetryAt {
					announced = append(announced, x.At)
				}
			}
			kept := announced[:0]
			for _, at := range announced {
				if at.After(d.now) {
					kept = append(kept, at)
				}
			}
			announced = kept
			next := d.m.NextDeadline()
			if next.IsZero() {
				return
			}
			if !next.After(d.now) {
				t.Fatalf("at %v after %v: NextDeadline %v is not ahead", d.now, ev, next)
			}
			if !slices.ContainsFunc(announced, next.Equal) {
				t.Fatalf("at %v after %v: NextDeadline %v was never announced with RetryAt (pending %v)", d.now, ev, next, announced)
			}
		}
		// onlyA ticks A at at, where B is not stepped: nothing may happen.
		onlyA := func(at time.Time) {
			st, acts := a.Step(Tick(), at)
			if len(acts) > 0 || !reflect.DeepEqual(st, aStatus) {
				t.Fatalf("a tick at %v, before NextDeadline %v, did %v (phase %s -> %s)", at, d.m.NextDeadline(), acts, aStatus.Phase, st.Phase)
			}
		}

		both(Scheduled("node-1"))
		steps := rapid.IntRange(1, 80).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			target := d.now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, 5 * time.Second, 10 * time.Second,
				40 * time.Second, 5 * time.Minute, 11 * time.Minute}).Draw(t, "dt"))
			for {
				next := d.m.NextDeadline()
				limit := target // A's extra ticks stay before B's next step
				if !next.IsZero() && next.Before(limit) {
					limit = next
				}
				var extra []time.Time
				for _, at := range announced {
					if at.After(d.now) && at.Before(limit) {
						extra = append(extra, at)
					}
				}
				if gap := limit.Sub(d.now); gap > time.Second && rapid.Bool().Draw(t, "randomTick") {
					extra = append(extra, d.now.Add(time.Duration(rapid.Int64Range(1, int64(gap/time.Second)-1).Draw(t, "randomAt"))*time.Second))
				}
				slices.SortFunc(extra, func(x, y time.Time) int { return x.Compare(y) })
				for _, at := range slices.CompactFunc(extra, time.Time.Equal) {
					onlyA(at)
				}
				if next.IsZero() || next.After(target) {
					break
				}
				d.now = next
				both(Tick())
			}
			d.now = target
			both(d.drawEvent(t))
		}
	})
}
