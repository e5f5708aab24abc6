package termination

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
)

// TestStories replays the pod garbage collector's stories in
// testdata/podgc (see package internal/story for the format). A story
// keeps the cluster the collector looks at — the pods, the nodes in the
// API and in the controller's node cache — and deletes what the collector
// deletes. Directives (times are since the story's start):
//
//	threshold 3                        GCConfig.TerminatedPodThreshold
//	node node-1 Ready                  a node in the API and the cache, with
//	node node-2 NotReady out-of-service   its Ready condition and maybe
//	                                   the out-of-service taint
//	node node-3 Ready uncached         in the API, not yet in the cache
//	delete-node node-2                 the Node object is deleted
//	pod default/web-0 on node-2 Running [terminating] [evicted] [created -1h]
//	                                   add or replace a pod ("on -": not
//	                                   scheduled); terminating sets its
//	                                   deletionTimestamp, evicted its
//	                                   status reason Evicted
//
// The only input is Tick: the collector steps with the cluster as it is.
// Each answer reads
//
//	pass | quarantined node-2 | next 1m20s
//
// (or "between passes"), the quarantine and NextDeadline, then one line
// per pod deleted: its reason and the status patched before the force
// deletion. With `go test -run TestStories -update` the answers are
// rewritten.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/podgc/*.txt", func() story.Adapter {
		return &gcStory{nodes: map[string]*api.Node{}, cached: map[string]bool{}}
	})
}

type gcStory struct {
	cfg    GCConfig
	c      *Collector
	pods   []*api.Pod
	nodes  map[string]*api.Node // in the API
	cached map[string]bool      // in the controller's node cache
}

func (s *gcStory) Block(string) bool { return false }

func (s *gcStory) Directive(cmd string, args []string, _ string) error {
	if s.c != nil && cmd == "threshold" {
		return fmt.Errorf("the configuration comes before the first Tick")
	}
	switch cmd {
	case "threshold":
		if len(args) != 1 {
			return fmt.Errorf("want threshold N")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return err
		}
		s.cfg.TerminatedPodThreshold = n
	case "node":
		if len(args) < 2 {
			return fmt.Errorf("want node NAME Ready|NotReady [out-of-service] [uncached]")
		}
		status := api.ConditionTrue
		switch args[1] {
		case "Ready":
		case "NotReady":
			status = api.ConditionFalse
		default:
			return fmt.Errorf("node condition %q", args[1])
		}
		var taints []string
		cached := true
		for _, a := range args[2:] {
			switch a {
			case "out-of-service":
				taints = append(taints, api.TaintNodeOutOfService)
			case "uncached":
				cached = false
			default:
				return fmt.Errorf("node option %q", a)
			}
		}
		s.nodes[args[0]] = gcNode(args[0], status, taints...)
		s.cached[args[0]] = cached
	case "delete-node":
		if len(args) != 1 || s.nodes[args[0]] == nil {
			return fmt.Errorf("want delete-node NAME of a node")
		}
		delete(s.nodes, args[0])
		delete(s.cached, args[0])
	case "pod":
		return s.pod(args)
	default:
		return fmt.Errorf("unknown directive")
	}
	return nil
}

// pod reads "NS/NAME on NODE PHASE [terminating] [evicted] [created D]".
func (s *gcStory) pod(args []string) error {
	if len(args) < 4 || args[1] != "on" {
		return fmt.Errorf("want pod NS/NAME on NODE PHASE [terminating] [evicted] [created DURATION]")
	}
	ns, name, ok := strings.Cut(args[0], "/")
	if !ok {
		return fmt.Errorf("pod %q is not NS/NAME", args[0])
	}
	node := args[2]
	if node == "-" {
		node = ""
	}
	var created time.Duration
	var term, evicted bool
	for i := 4; i < len(args); i++ {
		switch args[i] {
		case "terminating":
			term = true
		case "evicted":
			evicted = true
		case "created":
			if i+1 == len(args) {
				return fmt.Errorf("created wants a time")
			}
			d, err := time.ParseDuration(args[i+1])
			if err != nil {
				return err
			}
			created, i = d, i+1
		default:
			return fmt.Errorf("pod option %q", args[i])
		}
	}
	p := gcPod(ns, name, node, api.PodPhase(args[3]), t0.Add(created))
	if term {
		terminating(p, t0, 30)
	}
	if evicted {
		p.Status.Reason = api.PodStatusReasonEvicted
	}
	if i := slices.IndexFunc(s.pods, func(q *api.Pod) bool { return q.Key() == p.Key() }); i >= 0 {
		s.pods[i] = p
	} else {
		s.pods = append(s.pods, p)
	}
	return nil
}

func (s *gcStory) Step(at time.Duration, input string) ([]string, error) {
	if input != "Tick" {
		return nil, fmt.Errorf("want Tick, got %q", input)
	}
	if s.c == nil {
		s.c = NewCollector(s.cfg)
	}
	var cache []*api.Node
	for name, n := range s.nodes {
		if s.cached[name] {
			cache = append(cache, n)
		}
	}
	slices.SortFunc(cache, func(a, b *api.Node) int { return strings.Compare(a.Name, b.Name) })
	r := s.c.Step(GCInput{Pods: s.pods, Nodes: cache, NodeExists: func(name string) bool { return s.nodes[name] != nil }}, t0.Add(at))
	s.pods = slices.Clone(r.Remaining)

	head := []string{"between passes"}
	if r.Ran {
		head[0] = "pass"
	}
	if len(r.Quarantined) > 0 {
		head = append(head, "quarantined "+strings.Join(r.Quarantined, " "))
	}
	if next := s.c.NextDeadline(); !next.IsZero() {
		head = append(head, "next "+story.Format(next.Sub(t0)))
	}
	out := []string{strings.Join(head, " | ")}
	for _, a := range r.Actions {
		line := "force-delete " + a.Pod + " (" + string(a.Reason) + ")"
		if a.Patched != nil {
			line += ": patched " + string(a.Patched.Phase)
			if c := api.FindCondition(a.Patched.Conditions, api.DisruptionTarget); c != nil {
				line += ", DisruptionTarget " + c.Reason
			}
		}
		out = append(out, line)
	}
	return out, nil
}

func (s *gcStory) Next() (time.Duration, bool) {
	if s.c == nil || s.c.NextDeadline().IsZero() {
		return 0, false
	}
	return s.c.NextDeadline().Sub(t0), true
}

func (s *gcStory) Tick() string { return "Tick" }
