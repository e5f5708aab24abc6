package workloads_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/workloads"
)

// TestStoriesCronJob replays testdata/cronjob/*.txt through a
// CronJobController, the story playing the API server and the Job
// controller:
//
//	cronjob                 (block: the CronJob as stored, JSON; its
//	                        creation time is the story's start)
//	at D Sync               the queue's key comes up (the tick)
//	at D Changed            the informer saw the CronJob or one of its
//	                        Jobs change: queued now
//	at D Update(JSON)       the CronJob's spec is merged with the JSON
//	                        object (an update the informer sees)
//	at D Finish(JOB, TYPE)  the Job finishes: condition TYPE (Complete or
//	                        Failed) True, then its informer event
//	at D Remove(JOB)        the Job is deleted by someone else, then its
//	                        informer event
//
// Each step answers with the Events recorded, the requests sent (create,
// delete), the status written and the controller's next deadline.
func TestStoriesCronJob(t *testing.T) {
	story.Run(t, "testdata/cronjob/*.txt", func() story.Adapter { return &cronStory{c: new(workloads.CronJobController)} })
}

var cronStoryT0 = time.Date(2026, 3, 1, 10, 0, 30, 0, time.UTC)

type cronStory struct {
	c    *workloads.CronJobController
	cj   *api.CronJob
	jobs []*api.Job
	acts []string
	uids int
}

func (s *cronStory) Block(cmd string) bool { return cmd == "cronjob" }
func (s *cronStory) Tick() string          { return "Sync" }

func (s *cronStory) Directive(cmd string, _ []string, body string) error {
	if cmd != "cronjob" {
		return fmt.Errorf("unknown directive %q", cmd)
	}
	var cj api.CronJob
	if err := json.Unmarshal([]byte(body), &cj); err != nil {
		return err
	}
	api.DefaultCronJob(&cj)
	cj.UID, cj.CreationTimestamp = "uid-cj", api.NewTime(cronStoryT0)
	s.cj = &cj
	return nil
}

func (s *cronStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(cronStoryT0), true
}

var cronInput = regexp.MustCompile(`^(\w+)(?:\((.*)\))?$`)

func (s *cronStory) Step(at time.Duration, input string) ([]string, error) {
	if s.cj == nil {
		return nil, fmt.Errorf("no cronjob yet")
	}
	now := cronStoryT0.Add(at)
	m := cronInput.FindStringSubmatch(strings.TrimSpace(input))
	if m == nil {
		return nil, fmt.Errorf("cannot read input %q", input)
	}
	in := workloads.CronJobInput{Client: s}
	switch m[1] {
	case "Sync":
	case "Changed":
		in.Trigger = workloads.CronJobChanged
	case "Update":
		cur, err := json.Marshal(s.cj.Spec)
		if err != nil {
			return nil, err
		}
		var spec map[string]any
		if err := json.Unmarshal(cur, &spec); err != nil {
			return nil, err
		}
		var patch map[string]any
		if err := json.Unmarshal([]byte(m[2]), &patch); err != nil {
			return nil, fmt.Errorf("Update: %v", err)
		}
		for k, v := range patch {
			spec[k] = v
		}
		merged, _ := json.Marshal(spec)
		n := s.cj.DeepCopy()
		n.Spec = api.CronJobSpec{}
		if err := json.Unmarshal(merged, &n.Spec); err != nil {
			return nil, err
		}
		in.Trigger, in.Old = workloads.CronJobUpdated, s.cj
		s.cj = n
	case "Finish", "Remove":
		args := strings.Split(m[2], ",")
		name := strings.TrimSpace(args[0])
		i := slices.IndexFunc(s.jobs, func(j *api.Job) bool { return j.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: no job %q", m[1], name)
		}
		if m[1] == "Remove" {
			s.jobs = slices.Delete(s.jobs, i, i+1)
		} else {
			if len(args) != 2 {
				return nil, fmt.Errorf("Finish(JOB, TYPE)")
			}
			j := s.jobs[i].DeepCopy()
			j.Status.Conditions = append(j.Status.Conditions, api.WorkloadCondition{Type: strings.TrimSpace(args[1]), Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)})
			if strings.TrimSpace(args[1]) == workloads.JobConditionComplete {
				j.Status.CompletionTime = api.NewTimePtr(now)
			}
			s.jobs[i] = j
		}
		in.Trigger = workloads.CronJobChanged
	default:
		return nil, fmt.Errorf("unknown input %q", m[1])
	}
	in.CronJob, in.Jobs = s.cj, s.jobs
	s.acts = nil
	out, err := s.c.Step(in, now)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, e := range out.Events {
		lines = append(lines, fmt.Sprintf("event %s %s: %s", e.Type, e.Reason, e.Note))
	}
	if len(s.acts) > 0 {
		lines = append(lines, strings.Join(s.acts, ", "))
	}
	if out.StatusChanged {
		n := *s.cj
		n.Status = out.Status
		s.cj = &n
		var active []string
		for _, r := range out.Status.Active {
			active = append(active, r.Name)
		}
		last := "-"
		if t := out.Status.LastScheduleTime; t != nil {
			last = story.Format(t.Sub(cronStoryT0))
		}
		lines = append(lines, fmt.Sprintf("status active=[%s] lastSchedule=%s", strings.Join(active, " "), last))
	}
	if out.Err != nil {
		lines = append(lines, "error: "+out.Err.Error())
	}
	if !out.Synced {
		lines = append(lines, "no sync")
	}
	next := "next: none"
	if d := s.c.NextDeadline(); !d.IsZero() {
		next = "next at " + story.Format(d.Sub(cronStoryT0))
	}
	return append(lines, next), nil
}

// The story's API server.

func (s *cronStory) GetCronJob(ns, name string) (*api.CronJob, error) { return s.cj, nil }

func (s *cronStory) GetJob(ns, name string) (*api.Job, error) {
	for _, j := range s.jobs {
		if j.Namespace == ns && j.Name == name {
			return j, nil
		}
	}
	return nil, fmt.Errorf("jobs.batch %q %w", name, workloads.ErrNotFound)
}

func (s *cronStory) CreateJob(job *api.Job) (*api.Job, error) {
	if _, err := s.GetJob(job.Namespace, job.Name); err == nil {
		return nil, fmt.Errorf("jobs.batch %q %w", job.Name, workloads.ErrAlreadyExists)
	}
	s.uids++
	j := job.DeepCopy()
	j.UID, j.ResourceVersion = fmt.Sprintf("uid-job-%d", s.uids), fmt.Sprint(100+s.uids)
	j.Status.StartTime = api.NewTimePtr(cronStoryT0.Add(time.Duration(s.uids) * time.Second))
	s.jobs = append(s.jobs, j)
	s.acts = append(s.acts, "create "+j.Name+" ("+j.Annotations[api.AnnotationCronJobScheduledTimestamp]+")")
	return j, nil
}

func (s *cronStory) DeleteJob(ns, name string) error {
	i := slices.IndexFunc(s.jobs, func(j *api.Job) bool { return j.Namespace == ns && j.Name == name })
	if i < 0 {
		return fmt.Errorf("jobs.batch %q %w", name, workloads.ErrNotFound)
	}
	s.jobs = slices.Delete(s.jobs, i, i+1)
	s.acts = append(s.acts, "delete "+name)
	return nil
}
