package namespace_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/namespace"
)

// The namespace controller's stories, in testdata/controller/. A story
// holds one namespace, team, and its content in a fakeAPI: "pod NAME
// GRACE" adds a running pod, "object RESOURCE [FINALIZER]" another object,
// "gone NAME" finishes a pod; "at T Deleted" deletes the namespace (the
// registry's DELETE at T), "at T Tick" runs the passes due, each through
// Sync, and prints what it did.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/controller/*.txt", func() story.Adapter { return newControllerStory() })
}

type controllerStory struct {
	c   *namespace.Controller
	api *fakeAPI
	ns  *api.Namespace
}

func newControllerStory() *controllerStory {
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}}
	namespace.PrepareForCreate(ns)
	return &controllerStory{c: namespace.NewController(), api: &fakeAPI{}, ns: ns}
}

func (s *controllerStory) Block(string) bool { return false }
func (s *controllerStory) Tick() string      { return "Tick" }

func (s *controllerStory) Directive(cmd string, args []string, _ string) error {
	switch {
	case cmd == "pod" && len(args) == 2:
		g, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			return err
		}
		s.api.pods = append(s.api.pods, runningPod(args[0], g))
	case cmd == "object" && len(args) >= 1:
		s.api.others = append(s.api.others, namespace.Object{Version: "v1", Resource: args[0], Finalizers: args[1:]})
	case cmd == "gone" && len(args) == 1:
		s.api.gone(args[0])
	default:
		return fmt.Errorf("unknown directive %s %v", cmd, args)
	}
	return nil
}

func (s *controllerStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	return d.Sub(t0), !d.IsZero()
}

func (s *controllerStory) Step(d time.Duration, input string) ([]string, error) {
	now := t0.Add(d)
	switch input {
	case "Deleted":
		s.ns.DeletionTimestamp = api.NewTimePtr(now)
		s.ns.Status.Phase = api.NamespaceTerminating
		_, err := s.c.Step(namespace.Input{Kind: namespace.NamespaceChanged, Namespace: s.ns}, now)
		return []string{"next " + s.next()}, err
	case "Tick":
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	out, err := s.c.Step(namespace.Input{Kind: namespace.Tick}, now)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, name := range out.Due {
		s.api.calls = nil
		r, err := namespace.Sync(s.ns, s.api, now)
		if err != nil {
			return nil, err
		}
		line := fmt.Sprintf("sync %s: %s", name, strings.Join(s.api.calls, ", "))
		switch {
		case r.Err != nil:
			line += "; failed: " + r.Err.Error()
		case r.Estimate > 0:
			line += fmt.Sprintf("; remaining, estimate %ds", r.Estimate)
		case r.Finalize:
			line += "; finalized"
		}
		if r.StatusChanged {
			s.ns.Status = r.Status
			line += "; status " + condition(r.Status, namespace.ConditionContentRemaining).Message
			// The status update is a change the informer delivers.
			if _, err := s.c.Step(namespace.Input{Kind: namespace.NamespaceChanged, Namespace: s.ns}, now); err != nil {
				return nil, err
			}
		}
		if r.Finalize && r.Err == nil && r.Estimate == 0 {
			if _, err := s.c.Step(namespace.Input{Kind: namespace.NamespaceGone, Name: name}, now); err != nil {
				return nil, err
			}
		} else if _, err := s.c.Step(namespace.Input{Kind: namespace.Synced, Name: name, Result: r}, now); err != nil {
			return nil, err
		}
		lines = append(lines, line, "next "+s.next())
	}
	return lines, nil
}

func (s *controllerStory) next() string {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return "never"
	}
	return story.Format(d.Sub(t0))
}
