package lifecycle

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
)

// TestStories replays the Machine's stories in testdata/machine (see
// package internal/story for the format). Directives:
//
//	images busybox:1.28 envoy:v1     MachineConfig.ImagesPresent
//	backoff-max 45s                  Backoff.MaxContainerRestartPeriod
//	pod                              the pod as JSON, up to a line "end"
//	runtime 10.0.0.3                 a container runtime answers at once:
//	                                 CreateSandbox with SandboxReady(IP),
//	                                 PullImage with ImagePulled,
//	                                 StartContainer with ContainerStarted
//	exits app 1 after 1s             under the runtime, app exits with code
//	                                 1 one second after each start
//	on-signal app 0 after 3s         under the runtime, app exits with code
//	                                 0 three seconds after its stop signal
//	                                 (without it, the runtime answers only
//	                                 the SIGKILL: exit 137 at once)
//	poststart-fails app MESSAGE      under the runtime, app's exec or
//	                                 httpGet postStart hook fails at once
//	                                 with MESSAGE (without it, such a hook
//	                                 returns at once; sleep hooks are the
//	                                 Machine's)
//
// Inputs are events as ParseEvent reads them, at the time since the pod's
// creationTimestamp. Each answer reads
//
//	Phase | STATUS | READY | actions | next 14s
//
// the phase, kubectl's STATUS and READY columns, the actions, and
// NextDeadline as time since the creation (left out when zero). What the
// runtime answers is fed at once and shown on its own line, prefixed by
// the event. With `go test -run TestStories -update` the answers are
// rewritten.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/machine/*.txt", func() story.Adapter { return &machineStory{} })
}

type machineStory struct {
	cfg     MachineConfig
	m       *Machine
	created time.Time

	runtime bool
	ip      string
	exits   map[string]scriptedExit
	signal  map[string]scriptedExit
	hookErr map[string]string // postStart hooks that fail, with their message
	due     []dueEvent        // runtime events waiting for their time, in order
}

type scriptedExit struct {
	code  int32
	after time.Duration
}

type dueEvent struct {
	at time.Duration
	ev Event
}

func (s *machineStory) Block(cmd string) bool { return cmd == "pod" }

func (s *machineStory) Directive(cmd string, args []string, body string) error {
	switch cmd {
	case "images":
		s.cfg.ImagesPresent = args
	case "backoff-max":
		if len(args) != 1 {
			return fmt.Errorf("want backoff-max DURATION")
		}
		d, err := time.ParseDuration(args[0])
		if err != nil {
			return err
		}
		s.cfg.Backoff.MaxContainerRestartPeriod = d
	case "pod":
		pod := &api.Pod{}
		if err := json.Unmarshal([]byte(body), pod); err != nil {
			return err
		}
		s.created = pod.CreationTimestamp.Time
		s.m = NewMachine(pod, s.cfg)
	case "runtime":
		if len(args) != 1 {
			return fmt.Errorf("want runtime POD-IP")
		}
		s.runtime, s.ip = true, args[0]
	case "exits", "on-signal":
		if len(args) != 4 || args[2] != "after" {
			return fmt.Errorf("want %s CONTAINER CODE after DURATION", cmd)
		}
		code, err := strconv.ParseInt(args[1], 10, 32)
		if err != nil {
			return err
		}
		d, err := time.ParseDuration(args[3])
		if err != nil {
			return err
		}
		x := scriptedExit{code: int32(code), after: d}
		if cmd == "exits" {
			s.exits = setExit(s.exits, args[0], x)
		} else {
			s.signal = setExit(s.signal, args[0], x)
		}
	case "poststart-fails":
		if len(args) < 2 {
			return fmt.Errorf("want poststart-fails CONTAINER MESSAGE")
		}
		if s.hookErr == nil {
			s.hookErr = map[string]string{}
		}
		s.hookErr[args[0]] = strings.Join(args[1:], " ")
	default:
		return fmt.Errorf("unknown directive")
	}
	return nil
}

func setExit(m map[string]scriptedExit, container string, x scriptedExit) map[string]scriptedExit {
	if m == nil {
		m = map[string]scriptedExit{}
	}
	m[container] = x
	return m
}

func (s *machineStory) Step(at time.Duration, input string) ([]string, error) {
	if s.m == nil {
		return nil, fmt.Errorf("an input before the pod")
	}
	ev, err := ParseEvent(input)
	if err != nil {
		return nil, err
	}
	var out []string
	// Runtime events that came due by now happen first, at their own
	// time; a tick that brings one needs no step of its own.
	fed := false
	for len(s.due) > 0 && s.due[0].at <= at {
		d := s.due[0]
		s.due = s.due[1:]
		label := d.ev.String() + ": "
		if d.at != at {
			label = "at " + story.Format(d.at) + " " + label
		}
		out = append(out, s.feed(d.ev, d.at, label)...)
		fed = true
	}
	if ev.Kind == EventTick && fed {
		return out, nil
	}
	return append(out, s.feed(ev, at, "")...), nil
}

// feed steps the machine with ev at elapsed time at and renders the answer,
// then lets the runtime answer the actions that want an answer at once.
func (s *machineStory) feed(ev Event, at time.Duration, label string) []string {
	now := s.created.Add(at)
	st, acts := s.m.Step(ev, now)
	line := label + renderStep(s.m, st, acts, now)
	if next := s.m.NextDeadline(); !next.IsZero() {
		line += " | next " + story.Format(next.Sub(s.created))
	}
	out := []string{line}
	if !s.runtime {
		return out
	}
	for _, a := range acts {
		var reply Event
		switch a.Kind {
		case ActionCreateSandbox:
			reply = SandboxReady(s.ip)
		case ActionPullImage:
			reply = ImagePulled(a.Container)
		case ActionStartContainer:
			reply = ContainerStarted(a.Container)
			if x, ok := s.exits[a.Container]; ok {
				s.schedule(at+x.after, ContainerExited(a.Container, x.code, ""))
			}
		case ActionRunPostStart:
			if c, ok := s.m.pod.Spec.FindContainer(a.Container); !ok || c.Container.Lifecycle.PostStart.Sleep != nil {
				continue
			}
			reply = PostStartFinished(a.Container)
			if msg, ok := s.hookErr[a.Container]; ok {
				reply = PostStartFailed(a.Container, msg)
			}
		case ActionKillContainer:
			if a.GraceSeconds > 0 {
				if x, ok := s.signal[a.Container]; ok {
					s.schedule(at+x.after, ContainerExited(a.Container, x.code, ""))
				}
				continue
			}
			reply = ContainerExited(a.Container, 137, "")
		default:
			continue
		}
		out = append(out, s.feed(reply, at, reply.String()+": ")...)
	}
	return out
}

func (s *machineStory) schedule(at time.Duration, ev Event) {
	i, _ := slices.BinarySearchFunc(s.due, at, func(d dueEvent, t time.Duration) int {
		if d.at <= t {
			return -1
		}
		return 1
	})
	s.due = slices.Insert(s.due, i, dueEvent{at: at, ev: ev})
}

func (s *machineStory) Next() (time.Duration, bool) {
	if s.m == nil {
		return 0, false
	}
	var next time.Duration
	ok := false
	if d := s.m.NextDeadline(); !d.IsZero() {
		next, ok = d.Sub(s.created), true
	}
	if len(s.due) > 0 && (!ok || s.due[0].at < next) {
		next, ok = s.due[0].at, true
	}
	return next, ok
}

func (s *machineStory) Tick() string { return "Tick" }

// The stories' answer format, checked once by hand so that a change in the
// renderer shows up here rather than as a rewrite of every story.
func TestStoryAnswerFormat(t *testing.T) {
	s := &machineStory{}
	pod := `{"metadata": {"name": "p", "namespace": "default", "uid": "u", "creationTimestamp": "2025-06-01T12:00:00Z"},
	 "spec": {"restartPolicy": "Always", "containers": [{"name": "app", "image": "busybox:1.28"}]}}`
	for _, d := range []struct {
		cmd  string
		args []string
		body string
	}{{"images", []string{"busybox:1.28"}, ""}, {"pod", nil, pod}, {"runtime", []string{"10.0.0.1"}, ""}, {"exits", []string{"app", "1", "after", "1s"}, ""}} {
		if err := s.Directive(d.cmd, d.args, d.body); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Step(0, "Scheduled(node-1)")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus",
		"SandboxReady(10.0.0.1): Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus",
		"ContainerStarted(app): Running | Running | 1/1 | ReportStatus",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if next, ok := s.Next(); !ok || next != time.Second {
		t.Errorf("Next = %v, %v; want the scripted exit at 1s", next, ok)
	}
}
