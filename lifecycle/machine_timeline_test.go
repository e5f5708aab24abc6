package lifecycle

import (
	"container/heap"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
	"pgregory.net/rapid"
)

// stopFacts is what one container went through while its pod stopped.
type stopFacts struct {
	SignalAt     time.Duration // from the DELETE
	GraceSeconds int64         // the stop timeout handed to the runtime
	StopAt       time.Duration // exit or SIGKILL
	Killed       bool
}

// stopScenario is a running pod about to be deleted, and how its
// processes behave.
type stopScenario struct {
	pod   *api.Pod
	grace int64                    // DeleteOptions.gracePeriodSeconds; negative: none
	exec  map[string]time.Duration // exec preStop hooks' run times
	exits map[string]time.Duration // time from the stop signal to the exit; absent: ignores it
}

func genStopScenario(t *rapid.T) stopScenario {
	sc := stopScenario{pod: &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u-1"}},
		exec: map[string]time.Duration{}, exits: map[string]time.Duration{}}
	dur := func(label string) time.Duration {
		return time.Duration(rapid.IntRange(0, 180).Draw(t, label)) * 250 * time.Millisecond
	}
	container := func(name string) api.Container {
		c := api.Container{Name: name, Image: "img:1", ImagePullPolicy: api.PullIfNotPresent}
		switch rapid.IntRange(0, 2).Draw(t, name+"-hook") {
		case 1:
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: rapid.Int64Range(0, 45).Draw(t, name+"-sleep")}}}
		case 2:
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"drain"}}}}
			sc.exec[name] = dur(name + "-exec")
		}
		if rapid.IntRange(0, 3).Draw(t, name+"-ignores") > 0 {
			sc.exits[name] = dur(name + "-exit")
		}
		return c
	}
	always := api.RestartPolicyAlways
	for i := range rapid.IntRange(1, 3).Draw(t, "apps") {
		sc.pod.Spec.Containers = append(sc.pod.Spec.Containers, container(fmt.Sprintf("app-%d", i)))
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "sidecars") {
		c := container(fmt.Sprintf("side-%d", i))
		c.RestartPolicy = &always
		sc.pod.Spec.InitContainers = append(sc.pod.Spec.InitContainers, c)
	}
	if rapid.Bool().Draw(t, "init") {
		at := rapid.IntRange(0, len(sc.pod.Spec.InitContainers)).Draw(t, "initAt")
		ic := api.Container{Name: "init", Image: "img:1", ImagePullPolicy: api.PullIfNotPresent}
		sc.pod.Spec.InitContainers = append(sc.pod.Spec.InitContainers[:at], append([]api.Container{ic}, sc.pod.Spec.InitContainers[at:]...)...)
	}
	// Optional fields are left unset as often as they are set.
	if rapid.Bool().Draw(t, "tgps?") {
		g := rapid.Int64Range(-1, 60).Draw(t, "terminationGracePeriodSeconds")
		sc.pod.Spec.TerminationGracePeriodSeconds = &g
	}
	sc.grace = -1
	if rapid.Bool().Draw(t, "deleteGrace?") {
		sc.grace = rapid.SampledFrom([]int64{0, 1, 2, 3, 5, 10, 30, 45, 90}).Draw(t, "deleteGrace")
	}
	return sc
}

// stopDriver plays the node's runtime for a Machine: it answers the
// machine's actions with the events that follow them (a sandbox comes up,
// containers start, hooks finish, processes exit or are SIGKILLed) and
// steps the machine again when it asked to be.
type stopDriver struct {
	t       *rapid.T
	sc      stopScenario
	m       *Machine
	q       eventQueue
	deleted time.Time // zero until the DELETE
	facts   map[string]stopFacts
}

// next steps the machine with the earliest pending event and answers its
// actions; it reports false when nothing is pending.
func (d *stopDriver) next() bool {
	if d.q.Len() == 0 {
		return false
	}
	e := heap.Pop(&d.q).(queued)
	_, acts := d.m.Step(e.ev, e.at)
	if f, ok := d.facts[e.ev.Container]; ok && e.ev.Kind == EventContainerExited && f.StopAt < 0 {
		f.StopAt, f.Killed = e.at.Sub(d.deleted), e.ev.ExitCode == 137
		d.facts[e.ev.Container] = f
	}
	for _, a := range acts {
		switch a.Kind {
		case ActionCreateSandbox:
			d.q.push(e.at, 0, SandboxReady("10.0.0.1"))
		case ActionPullImage:
			d.q.push(e.at, 0, ImagePulled(a.Container))
		case ActionStartContainer:
			if !d.deleted.IsZero() {
				d.t.Fatalf("%v while the pod is being deleted", a)
			}
			d.q.push(e.at, 0, ContainerStarted(a.Container))
			if a.Container == "init" {
				d.q.push(e.at.Add(time.Second), 0, ContainerExited("init", 0, ""))
			}
		case ActionRunPreStop:
			if run, ok := d.sc.exec[a.Container]; ok {
				d.q.push(e.at.Add(run), 0, PreStopFinished(a.Container))
			}
		case ActionKillContainer:
			switch {
			case d.deleted.IsZero():
				d.t.Fatalf("%v before the deletion", a)
			case a.GraceSeconds == 0:
				d.q.push(e.at, 0, ContainerExited(a.Container, 137, ""))
			default:
				if _, ok := d.facts[a.Container]; ok {
					d.t.Fatalf("%s is signalled twice", a.Container)
				}
				d.facts[a.Container] = stopFacts{SignalAt: e.at.Sub(d.deleted), GraceSeconds: a.GraceSeconds, StopAt: -1}
				if after, ok := d.sc.exits[a.Container]; ok {
					d.q.push(e.at.Add(after), 0, ContainerExited(a.Container, 0, ""))
				}
			}
		case ActionRetryAt:
			d.q.push(a.At, 1, Tick())
		}
	}
	return true
}

// runMachineStop brings the pod up on a Machine, deletes it a minute later
// and runs the deletion to its end. It returns the pod as it was just
// before the DELETE, the DELETE's time, and what each container went
// through.
func runMachineStop(t *rapid.T, sc stopScenario) (*api.Pod, time.Time, map[string]stopFacts) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	d := &stopDriver{t: t, sc: sc, m: NewMachine(sc.pod, MachineConfig{ImagesPresent: []string{"img:1"}}), facts: map[string]stopFacts{}}
	d.q.push(t0, 0, Scheduled("node-1"))
	for !allRunning(d.m) || !onlyTicks(d.q) {
		if !d.next() {
			t.Fatalf("the pod did not come up: %s", d.m.Why())
		}
	}
	d.deleted = t0.Add(time.Hour)
	before := d.m.Pod()
	d.q = d.q[:0] // nothing is due before then
	d.q.push(d.deleted, 0, DeletionRequested(sc.grace))
	for steps := 0; d.next(); steps++ {
		if steps > 1000 {
			t.Fatalf("the deletion does not end: %s", d.m.Why())
		}
	}
	if !d.m.Removed() {
		t.Fatalf("the pod was not removed: %s", d.m.Why())
	}
	return before, d.deleted, d.facts
}

func allRunning(m *Machine) bool {
	st := m.Pod().Status
	n := 0
	for _, list := range [][]api.ContainerStatus{st.ContainerStatuses, st.InitContainerStatuses} {
		for _, cs := range list {
			if cs.State.Running != nil {
				n++
			}
		}
	}
	want := len(m.pod.Spec.Containers)
	for i := range m.pod.Spec.InitContainers {
		if m.pod.Spec.InitContainers[i].IsSidecar() {
			want++
		}
	}
	return n == want
}

func onlyTicks(q eventQueue) bool {
	for _, e := range q {
		if e.ev.Kind != EventTick {
			return false
		}
	}
	return true
}

// timelineFacts reads the same facts off termination.BuildTimeline.
func timelineFacts(t *rapid.T, pod *api.Pod, sc stopScenario, now time.Time) map[string]stopFacts {
	req := termination.DeleteRequest{Options: &api.DeleteOptions{}, PreStop: sc.exec, ExitAfterSignal: sc.exits}
	if sc.grace >= 0 {
		g := sc.grace
		req.Options.GracePeriodSeconds = &g
	}
	tl, err := termination.BuildTimeline(pod, req, now)
	if err != nil {
		t.Fatalf("BuildTimeline: %v", err)
	}
	out := map[string]stopFacts{}
	for _, e := range tl.Events {
		f := out[e.Container]
		switch e.Kind {
		case termination.TimelineStopSignal:
			f.SignalAt, f.GraceSeconds = e.Offset, e.GraceSeconds
		case termination.TimelineKilled:
			f.StopAt, f.Killed = e.Offset, true
		case termination.TimelineExited:
			f.StopAt = e.Offset
		default:
			continue
		}
		out[e.Container] = f
	}
	return out
}

// TestMachineStopAgreesWithTimeline deletes a running pod through the
// Machine and lays the same deletion out with termination.BuildTimeline:
// every container must get its stop signal at the same time with the same
// stop timeout, and stop (exit or SIGKILL) at the same time. BuildTimeline
// is handed the pod as the caller wrote it, so an unset
// terminationGracePeriodSeconds reaches both.
func TestMachineStopAgreesWithTimeline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := genStopScenario(t)
		before, deleted, got := runMachineStop(t, sc)
		want := timelineFacts(t, asWritten(before, sc.pod), sc, deleted)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Machine (+) and BuildTimeline (-) disagree:\n%s", d)
		}
	})
}

// asWritten is the Machine's pod (bound, with its status) with the
// terminationGracePeriodSeconds the caller wrote, unset when it was.
func asWritten(running, written *api.Pod) *api.Pod {
	p := *running
	p.Spec.TerminationGracePeriodSeconds = written.Spec.TerminationGracePeriodSeconds
	return &p
}

// TestPropertyOneGraceDefault: a pod without terminationGracePeriodSeconds
// gets one answer in every package that follows it through the cluster —
// lifecycle.Machine, termination.BuildTimeline and proptest's grace model
// all read it through termination.StoredGracePeriodSeconds — so deleting it
// goes exactly as deleting the same pod with that value written out.
func TestPropertyOneGraceDefault(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := genStopScenario(t)
		sc.pod.Spec.TerminationGracePeriodSeconds = nil
		before, deleted, unset := runMachineStop(t, sc)
		timelineUnset := timelineFacts(t, asWritten(before, sc.pod), sc, deleted)

		explicit := sc
		p := *sc.pod
		g := termination.StoredGracePeriodSeconds(sc.pod)
		p.Spec.TerminationGracePeriodSeconds = &g
		explicit.pod = &p
		_, _, set := runMachineStop(t, explicit)
		timelineSet := timelineFacts(t, asWritten(before, &p), sc, deleted)

		if d := cmp.Diff(set, unset); d != "" {
			t.Fatalf("Machine: unset (+) and %ds written out (-) differ:\n%s", g, d)
		}
		if d := cmp.Diff(timelineSet, timelineUnset); d != "" {
			t.Fatalf("BuildTimeline: unset (+) and %ds written out (-) differ:\n%s", g, d)
		}
		if d := cmp.Diff(timelineUnset, unset); d != "" {
			t.Fatalf("Machine (+) and BuildTimeline (-) disagree on an unset field:\n%s", d)
		}
		if g != api.DefaultTerminationGracePeriodSeconds {
			t.Fatalf("the stored default is %d, want the API server's %d", g, api.DefaultTerminationGracePeriodSeconds)
		}
	})
}

// queued is an event due at a time; at equal times lower prio goes first
// (the runtime's reports before the machine's own wake-ups), then FIFO.
type queued struct {
	at   time.Time
	prio int
	seq  int
	ev   Event
}

// eventQueue is a min-heap of queued events.
type eventQueue []queued

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	if q[i].prio != q[j].prio {
		return q[i].prio < q[j].prio
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

func (q *eventQueue) push(at time.Time, prio int, ev Event) {
	seq := 0
	for _, e := range *q {
		seq = max(seq, e.seq+1)
	}
	heap.Push(q, queued{at: at, prio: prio, seq: seq, ev: ev})
}
