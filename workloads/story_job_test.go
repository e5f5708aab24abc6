package workloads_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/workloads"
)

// TestStoriesJob replays testdata/job/*.txt through a JobController, the
// story playing the API server, the scheduler and the kubelets:
//
//	job                          (block: the Job as stored, JSON)
//	at D Sync                    the controller syncs (the tick)
//	at D Succeed(POD)            the pod's container exits 0, then a sync
//	at D Fail(POD, CODE)         it exits CODE (phase Failed), then a sync
//	at D Evict(POD)              the Eviction API evicts it: DisruptionTarget,
//	                             then exit 137 (phase Failed), then a sync
//	at D Suspend / Resume        spec.suspend is set true / false, then a sync
//	at D Exit(POD, CODE)         a deleted pod's container exits CODE
//	                             (phase Failed), then a sync
//
// A created pod is named after its generateName with a letter (pi-a,
// pi-b, ...; pi-0-a for index 0) and starts Running and Ready at once. A
// deleted pod keeps running until an event ends it; an object goes away
// once it is deleted, terminal and without finalizers. Each sync answers
// with the requests it sent, the Job's status and the controller's next
// deadline.
func TestStoriesJob(t *testing.T) {
	story.Run(t, "testdata/job/*.txt", func() story.Adapter { return &jobStory{m: workloads.NewJobController(workloads.JobConfig{})} })
}

var jobStoryT0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

type jobStory struct {
	m     *workloads.JobController
	job   *api.Job
	pods  []*api.Pod
	names map[string]int
}

func (s *jobStory) Block(cmd string) bool { return cmd == "job" }
func (s *jobStory) Tick() string          { return "Sync" }

func (s *jobStory) Directive(cmd string, _ []string, body string) error {
	if cmd != "job" {
		return fmt.Errorf("unknown directive %q", cmd)
	}
	var j api.Job
	if err := json.Unmarshal([]byte(body), &j); err != nil {
		return err
	}
	s.job = &j
	return nil
}

func (s *jobStory) Next() (time.Duration, bool) {
	d := s.m.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(jobStoryT0), true
}

var jobEvent = regexp.MustCompile(`^(\w+)(?:\(([^,)]*)(?:,\s*(-?\d+))?\))?$`)

func (s *jobStory) Step(at time.Duration, input string) ([]string, error) {
	if s.job == nil {
		return nil, fmt.Errorf("no job yet")
	}
	now := jobStoryT0.Add(at)
	m := jobEvent.FindStringSubmatch(strings.TrimSpace(input))
	if m == nil {
		return nil, fmt.Errorf("cannot read input %q", input)
	}
	switch m[1] {
	case "Sync":
	case "Suspend", "Resume":
		j := *s.job
		suspend := m[1] == "Suspend"
		j.Spec.Suspend = &suspend
		j.Generation++
		s.job = &j
	default:
		p := s.pod(m[2])
		if p == nil {
			return nil, fmt.Errorf("%s: no pod %q", m[1], m[2])
		}
		switch m[1] {
		case "Succeed":
			terminate(p, api.PodSucceeded, 0, now)
		case "Fail", "Exit":
			code, _ := strconv.Atoi(m[3])
			terminate(p, api.PodFailed, int32(code), now)
		case "Evict":
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue,
				Reason: api.PodReasonEvictionByEvictionAPI, LastTransitionTime: api.NewTime(now)})
			terminate(p, api.PodFailed, 137, now)
		default:
			return nil, fmt.Errorf("unknown event %q", m[1])
		}
	}
	res, err := s.m.Step(workloads.JobInput{Job: s.job, Pods: s.pods}, now)
	if err != nil {
		return nil, err
	}
	return s.apply(res, now), nil
}

func (s *jobStory) pod(name string) *api.Pod {
	for _, p := range s.pods {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func terminate(p *api.Pod, phase api.PodPhase, code int32, now time.Time) {
	p.Status.Phase = phase
	p.Status.Conditions = slices.DeleteFunc(p.Status.Conditions, func(c api.PodCondition) bool { return c.Type == api.PodReady })
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(now)})
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "main", State: api.ContainerState{
		Terminated: &api.ContainerStateTerminated{ExitCode: code, FinishedAt: api.NewTime(now)}}}}
}

// apply performs the sync's requests on the story's objects and renders
// the answer.
func (s *jobStory) apply(res workloads.JobSync, now time.Time) []string {
	var acts []string
	for _, a := range res.Actions {
		switch a.Kind {
		case workloads.JobCreatePod:
			p := a.Pod
			if s.names == nil {
				s.names = map[string]int{}
			}
			p.Name = p.GenerateName + string(rune('a'+s.names[p.GenerateName]))
			s.names[p.GenerateName]++
			p.Namespace, p.UID = s.job.Namespace, "uid-"+p.Name
			p.CreationTimestamp = api.NewTime(now)
			p.Spec.NodeName = "node-1"
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)}}
			s.pods = append(s.pods, p)
			acts = append(acts, "create "+p.Name)
		case workloads.JobDeletePod:
			if p := s.pod(a.Pod.Name); p != nil && p.DeletionTimestamp == nil {
				p.DeletionTimestamp = api.NewTimePtr(now)
			}
			acts = append(acts, "delete "+a.Pod.Name)
		case workloads.JobRemoveFinalizer:
			if p := s.pod(a.Pod.Name); p != nil {
				p.Finalizers = slices.DeleteFunc(slices.Clone(p.Finalizers), func(f string) bool { return f == workloads.JobTrackingFinalizer })
			}
			acts = append(acts, "unfinalize "+a.Pod.Name)
		case workloads.JobWriteStatus:
			j := *s.job
			j.Status = *a.Status
			s.job = &j
		}
	}
	s.pods = slices.DeleteFunc(s.pods, func(p *api.Pod) bool {
		return p.DeletionTimestamp != nil && len(p.Finalizers) == 0 && p.Status.Phase.IsTerminal()
	})
	if len(acts) == 0 {
		acts = []string{"no pod requests"}
	}
	st := s.job.Status
	line := fmt.Sprintf("status active=%d ready=%d terminating=%d succeeded=%d failed=%d", st.Active, deref(st.Ready), deref(st.Terminating), st.Succeeded, st.Failed)
	if st.CompletedIndexes != "" {
		line += " completed=" + st.CompletedIndexes
	}
	if st.FailedIndexes != nil && *st.FailedIndexes != "" {
		line += " failedIndexes=" + *st.FailedIndexes
	}
	for _, c := range st.Conditions {
		line += fmt.Sprintf(" %s=%s(%s)", c.Type, c.Status, c.Reason)
	}
	next := "next: none"
	if d := s.m.NextDeadline(); !d.IsZero() {
		next = "next at " + story.Format(d.Sub(jobStoryT0))
	}
	return []string{strings.Join(acts, ", "), line, next}
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}
