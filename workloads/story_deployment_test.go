package workloads_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/workloads"
)

// TestStoriesDeployment replays the Deployment controller's stories in
// testdata/deployment (see package internal/story for the format). A
// story keeps one Deployment and its ReplicaSets in a small cluster that
// applies what the controller writes. Directive (before the first input):
//
//	deployment NAME REPLICAS IMAGE [surge=25%] [unavailable=25%]
//	           [recreate] [deadline=600] [history=10]
//
// Inputs, each followed by a sync of the controller (times are since the
// story's start):
//
//	Sync                 nothing changed (also the Tick "run" feeds)
//	SetImage(IMAGE)      kubectl set image: a new template
//	Scale(N)             kubectl scale
//	Pause / Resume       kubectl rollout pause / resume
//	PodsReady            every ReplicaSet runs spec.replicas pods, all
//	                     available (the ReplicaSet controller and kubelets)
//	PodsStuck            every ReplicaSet runs spec.replicas pods, the new
//	                     ones never become ready (a bad image)
//
// Each answer lists the writes — "create IMAGE ×N (rev R)", "revision
// IMAGE A→B" (a rollback makes an old ReplicaSet new again), "scale IMAGE
// A→B", "delete IMAGE" — then the status:
//
//	pods 4 (updated 1, available 3) | Progressing True/ReplicaSetUpdated | Available True | next 10m1s
//
// where pods are status.replicas, counted from the ReplicaSets' statuses
// as the sync found them (before its own scaling), and "next" the
// controller's NextDeadline since the story's start. ReplicaSets are shown by image.
// With `go test -run TestStoriesDeployment -update` the answers are
// rewritten.
func TestStoriesDeployment(t *testing.T) {
	story.Run(t, "testdata/deployment/*.txt", func() story.Adapter { return &depStory{} })
}

var storyStart = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

type depStory struct {
	c    *depCluster
	ctrl workloads.DeploymentController
}

func (s *depStory) Block(string) bool { return false }

func (s *depStory) Directive(cmd string, args []string, _ string) error {
	if cmd != "deployment" {
		return fmt.Errorf("unknown directive %q", cmd)
	}
	if s.c != nil {
		return fmt.Errorf("one deployment per story")
	}
	if len(args) < 3 {
		return fmt.Errorf("want deployment NAME REPLICAS IMAGE [options]")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return err
	}
	surge, unavailable := api.FromString("25%"), api.FromString("25%")
	d := newDeployment(args[0], int32(n), args[2], surge, unavailable)
	for _, o := range args[3:] {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "surge", "unavailable":
			val := api.FromString(v)
			if i, err := strconv.Atoi(v); err == nil {
				val = api.FromInt32(int32(i))
			}
			if k == "surge" {
				d.Spec.Strategy.RollingUpdate.MaxSurge = &val
			} else {
				d.Spec.Strategy.RollingUpdate.MaxUnavailable = &val
			}
		case "recreate":
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
		case "deadline", "history":
			i, err := strconv.Atoi(v)
			if err != nil {
				return err
			}
			if k == "deadline" {
				d.Spec.ProgressDeadlineSeconds = depPtr(int32(i))
			} else {
				d.Spec.RevisionHistoryLimit = depPtr(int32(i))
			}
		default:
			return fmt.Errorf("unknown option %q", o)
		}
	}
	s.c = &depCluster{d: d}
	return nil
}

func depPtr[T any](v T) *T { return &v }

func (s *depStory) Step(at time.Duration, input string) ([]string, error) {
	if s.c == nil {
		return nil, fmt.Errorf("no deployment yet")
	}
	c := s.c
	c.now = storyStart.Add(at)
	name, arg, _ := strings.Cut(strings.TrimSuffix(input, ")"), "(")
	switch name {
	case "Sync", "Tick":
	case "SetImage":
		c.d.Spec.Template.Spec.Containers[0].Image = arg
		c.d.Generation++
	case "Scale":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return nil, err
		}
		c.d.Spec.Replicas = depPtr(int32(n))
		c.d.Generation++
	case "Pause", "Resume":
		c.d.Spec.Paused = name == "Pause"
		c.d.Generation++
	case "PodsReady":
		c.settle(nil)
	case "PodsStuck":
		c.settle(func(rs *api.ReplicaSet) bool { return !c.isNew(rs) })
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	before := map[string]*api.ReplicaSet{}
	for _, rs := range c.rss {
		before[rs.Name] = rs
	}
	res, err := s.ctrl.Step(workloads.DeploymentInput{Deployment: c.d, ReplicaSets: c.rss}, c.now)
	if err != nil {
		return nil, err
	}
	image := func(rs *api.ReplicaSet) string { return rs.Spec.Template.Spec.Containers[0].Image }
	var out []string
	if rs := res.NewReplicaSet; rs != nil {
		out = append(out, fmt.Sprintf("create %s ×%d (rev %s)", image(rs), *rs.Spec.Replicas, rs.Annotations[workloads.AnnotationDeploymentRevision]))
	}
	seen := map[string]bool{}
	for _, u := range res.Updates {
		old := before[u.Name]
		if old == nil {
			continue
		}
		rev := func(rs *api.ReplicaSet) string { return rs.Annotations[workloads.AnnotationDeploymentRevision] }
		if line := fmt.Sprintf("revision %s %s→%s", image(old), rev(old), rev(u.ReplicaSet)); rev(old) != rev(u.ReplicaSet) && !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
		if *old.Spec.Replicas != *u.ReplicaSet.Spec.Replicas {
			out = append(out, fmt.Sprintf("scale %s %d→%d", image(u.ReplicaSet), *old.Spec.Replicas, *u.ReplicaSet.Spec.Replicas))
		}
	}
	for _, n := range res.Deleted {
		out = append(out, "delete "+image(before[n]))
	}
	c.apply(res)
	st := c.d.Status
	avail := "-"
	for _, cond := range st.Conditions {
		if cond.Type == workloads.DeploymentAvailable {
			avail = string(cond.Status)
		}
	}
	next := "never"
	if dl := s.ctrl.NextDeadline(); !dl.IsZero() {
		next = story.Format(dl.Sub(storyStart))
	}
	out = append(out, fmt.Sprintf("pods %d (updated %d, available %d) | Progressing %s | Available %s | next %s",
		st.Replicas, st.UpdatedReplicas, st.AvailableReplicas, progressing(st), avail, next))
	return out, nil
}

func (s *depStory) Next() (time.Duration, bool) {
	dl := s.ctrl.NextDeadline()
	if dl.IsZero() {
		return 0, false
	}
	return dl.Sub(storyStart), true
}

func (s *depStory) Tick() string { return "Tick" }
