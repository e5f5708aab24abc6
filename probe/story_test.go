package probe

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
)

// TestStories replays the probe workers' stories in testdata/worker (see
// package internal/story for the format). A story sets up a pod and one
// worker per probe kind on one of its containers, and plays the kubelet
// around them: it holds the pod status the workers read, and writes back
// what they settle (a startup success sets the container's started flag,
// readiness its ready flag), as the kubelet's status manager does from the
// probe results. Directives:
//
//	pod                                   the pod as JSON, up to "end"
//	                                      (api.DefaultPod is applied)
//	worker liveness app                   a worker for app's livenessProbe
//	container c://1 running since 0s      app's status: instance c://1,
//	container c://1 running since 0s started   running since 0s, maybe
//	                                      started; or "exited CODE"
//	answers liveness success failure      what the liveness probe answers at
//	                                      its next runs; the last answer
//	                                      repeats
//	output liveness TEXT...               the output (or error text) every
//	                                      later answer of the liveness
//	                                      probe comes with
//
// The only input is Tick (or Tick(failure), an answer for this tick
// only): every worker that is due — never stepped, or at its NextDeadline —
// runs one tick. Each answer line is one worker's Report:
//
//	liveness: probed failure | result success | next 15s
//
// what it did (probed and what the probe answered, or why it did not
// probe), after "new container ID" when the worker sees a new container
// instance, the cached result, the effect for the kubelet and the hold or
// exit if any, the Event the prober records if any, and NextDeadline as
// time since the story's start. With
// `go test -run TestStories -update` the answers are rewritten.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/worker/*.txt", func() story.Adapter { return &workerStory{} })
}

var storyT0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

type workerStory struct {
	pod       *api.Pod
	container string
	workers   []*storyWorker
	status    api.ContainerStatus
	present   bool // the container has a status
}

type storyWorker struct {
	w       *Worker
	answers []Outcome
	output  string
	lastID  string // the container instance of the previous report
}

func (s *workerStory) Block(cmd string) bool { return cmd == "pod" }

func (s *workerStory) Directive(cmd string, args []string, body string) error {
	switch cmd {
	case "pod":
		s.pod = &api.Pod{}
		if err := json.Unmarshal([]byte(body), s.pod); err != nil {
			return err
		}
		api.DefaultPod(s.pod)
	case "worker":
		if s.pod == nil || len(args) != 2 {
			return fmt.Errorf("want worker KIND CONTAINER after the pod")
		}
		kind, err := api.ParseProbeKind(args[0])
		if err != nil {
			return err
		}
		if s.container != "" && s.container != args[1] {
			return fmt.Errorf("the workers of a story probe one container, %s", s.container)
		}
		w, err := NewWorker(kind, s.pod, args[1], WorkerConfig{})
		if err != nil {
			return err
		}
		s.container = args[1]
		s.workers = append(s.workers, &storyWorker{w: w})
	case "container":
		return s.setContainer(args)
	case "answers":
		if len(args) < 2 {
			return fmt.Errorf("want answers KIND OUTCOME...")
		}
		sw, err := s.worker(args[0])
		if err != nil {
			return err
		}
		sw.answers = sw.answers[:0]
		for _, a := range args[1:] {
			o, err := ParseOutcome(a)
			if err != nil {
				return err
			}
			sw.answers = append(sw.answers, o)
		}
	case "output":
		if len(args) < 1 {
			return fmt.Errorf("want output KIND TEXT...")
		}
		sw, err := s.worker(args[0])
		if err != nil {
			return err
		}
		sw.output = strings.Join(args[1:], " ")
	default:
		return fmt.Errorf("unknown directive")
	}
	return nil
}

// setContainer reads "ID running since D [started]" or "ID exited CODE".
func (s *workerStory) setContainer(args []string) error {
	if s.container == "" || len(args) < 3 {
		return fmt.Errorf("want container ID running since DURATION [started], or container ID exited CODE, after a worker")
	}
	cs := api.ContainerStatus{Name: s.container, ContainerID: args[0]}
	switch {
	case args[1] == "running" && len(args) >= 4 && args[2] == "since":
		d, err := time.ParseDuration(args[3])
		if err != nil {
			return err
		}
		started := len(args) == 5 && args[4] == "started"
		if len(args) > 5 || (len(args) == 5 && !started) {
			return fmt.Errorf("want started or nothing after the start time")
		}
		cs.Started = &started
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(storyT0.Add(d))}
	case args[1] == "exited" && len(args) == 3:
		code, err := strconv.ParseInt(args[2], 10, 32)
		if err != nil {
			return err
		}
		cs.State.Terminated = &api.ContainerStateTerminated{ExitCode: int32(code)}
	default:
		return fmt.Errorf("cannot read %q", strings.Join(args, " "))
	}
	s.status, s.present = cs, true
	return nil
}

func (s *workerStory) worker(kind string) (*storyWorker, error) {
	k, err := api.ParseProbeKind(kind)
	if err != nil {
		return nil, err
	}
	for _, sw := range s.workers {
		if sw.w.Kind() == k {
			return sw, nil
		}
	}
	return nil, fmt.Errorf("no %s worker", kind)
}

// podStatus is the status the kubelet holds: the container's status in
// the list its kind belongs to.
func (s *workerStory) podStatus() *api.PodStatus {
	st := &api.PodStatus{Phase: api.PodRunning}
	if !s.present {
		return st
	}
	list := []api.ContainerStatus{s.status}
	if ref, _ := s.pod.Spec.FindContainer(s.container); ref.Kind == api.ContainerKindSidecar {
		st.InitContainerStatuses = list
	} else {
		st.ContainerStatuses = list
	}
	return st
}

func (s *workerStory) Step(at time.Duration, input string) ([]string, error) {
	if len(s.workers) == 0 {
		return nil, fmt.Errorf("an input before a worker")
	}
	var forced *Outcome
	switch {
	case input == "Tick":
	case strings.HasPrefix(input, "Tick(") && strings.HasSuffix(input, ")"):
		o, err := ParseOutcome(strings.TrimSuffix(strings.TrimPrefix(input, "Tick("), ")"))
		if err != nil {
			return nil, err
		}
		forced = &o
	default:
		return nil, fmt.Errorf("want Tick or Tick(OUTCOME), got %q", input)
	}
	now := storyT0.Add(at)
	var out []string
	for _, sw := range s.workers {
		if next := sw.w.NextDeadline(); sw.w.Stopped() || (!next.IsZero() && now.Before(next)) {
			continue // not due
		}
		st := s.podStatus()
		in := Input{Status: st, Output: sw.output}
		if sw.w.WouldProbe(st, now) {
			switch {
			case forced != nil:
				in.Outcome = *forced
			case len(sw.answers) > 0:
				in.Outcome = sw.answers[0]
				if len(sw.answers) > 1 {
					sw.answers = sw.answers[1:]
				}
			default:
				return nil, fmt.Errorf("the %s probe runs and the story gives no answer", sw.w.Kind())
			}
		}
		rep := sw.w.Step(in, now)
		s.settle(rep)
		out = append(out, s.render(sw, in, rep))
		sw.lastID = rep.ContainerID
	}
	return out, nil
}

// settle writes a worker's verdict into the status the kubelet holds.
func (s *workerStory) settle(rep Report) {
	if !s.present || rep.ContainerID != s.status.ContainerID {
		return
	}
	switch rep.Effect {
	case EffectMarkStarted:
		started := true
		s.status.Started = &started
	case EffectMarkReady:
		s.status.Ready = true
	case EffectMarkNotReady:
		s.status.Ready = false
	}
}

func (s *workerStory) render(sw *storyWorker, in Input, rep Report) string {
	w := sw.w
	what := rep.Reason.String()
	if rep.Reason == ReasonProbed {
		what = "probed " + in.Outcome.String()
	}
	result := rep.Result.String()
	if result == "" {
		result = "none"
	}
	parts := []string{what, "result " + result}
	if rep.ContainerID != sw.lastID {
		parts = append([]string{"new container " + rep.ContainerID}, parts...)
	}
	if rep.Effect != EffectNone {
		parts = append(parts, rep.Effect.String())
	}
	if rep.OnHold {
		parts = append(parts, "on hold")
	}
	if !rep.KeepGoing {
		parts = append(parts, "exited")
	}
	if e := rep.Event; e != nil {
		parts = append(parts, "event "+e.Type+" "+e.Reason+": "+e.Note)
	}
	if next := w.NextDeadline(); !next.IsZero() {
		parts = append(parts, "next "+story.Format(next.Sub(storyT0)))
	}
	line := strings.Join(parts, " | ")
	if len(s.workers) > 1 {
		line = w.Kind().String() + ": " + line
	}
	return line
}

func (s *workerStory) Next() (time.Duration, bool) {
	var next time.Time
	for _, sw := range s.workers {
		d := sw.w.NextDeadline()
		if !d.IsZero() && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return next.Sub(storyT0), true
}

func (s *workerStory) Tick() string { return "Tick" }
