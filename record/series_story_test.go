package record_test

import (
	"fmt"
	"strings"
	"time"

	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/record"
)

// TestSeriesStories replays testdata/series/*.txt through a Series started
// at the story's start. An input is
//
//	Event(REASON POD@RV [RELATED@RV]: NOTE)  (kube-scheduler's Event about
//	                                          pod POD at resourceVersion RV)
//	Tick                                      (time passes)
//
// FailedScheduling is a Warning with action Scheduling, Preempted a
// Normal with action Preemption, any other reason a Normal with action
// Binding. Each write is answered "write REASON POD@RV count N (was M)
// [finished] at T: NOTE"; a step that wrote nothing says "-". Every
// answer ends with the next deadline.
func TestSeriesStories(t *testing.T) {
	story.Run(t, "testdata/series/*.txt", func() story.Adapter { return &seriesStory{s: record.NewSeries(t0)} })
}

type seriesStory struct{ s *record.Series }

func (*seriesStory) Block(string) bool { return false }

func (*seriesStory) Directive(cmd string, _ []string, _ string) error {
	return fmt.Errorf("unknown directive %q", cmd)
}

func (s *seriesStory) Step(at time.Duration, input string) ([]string, error) {
	var in record.SeriesInput
	if input != "Tick" {
		args, ok := strings.CutPrefix(input, "Event(")
		if !ok || !strings.HasSuffix(args, ")") {
			return nil, fmt.Errorf("want Event(REASON POD@RV [RELATED@RV]: NOTE) or Tick, got %q", input)
		}
		head, note, ok := strings.Cut(strings.TrimSuffix(args, ")"), ": ")
		f := strings.Fields(head)
		if !ok || len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("want Event(REASON POD@RV [RELATED@RV]: NOTE), got %q", input)
		}
		e := api.Event{Type: api.EventTypeNormal, Reason: f[0], Action: "Binding", Source: "default-scheduler", Note: note}
		switch f[0] {
		case "FailedScheduling":
			e.Type, e.Action = api.EventTypeWarning, "Scheduling"
		case "Preempted":
			e.Action = "Preemption"
		}
		e.Regarding = podRef(f[1])
		if len(f) == 3 {
			r := podRef(f[2])
			e.Related = &r
		}
		in.Event = &e
	}
	out, err := s.s.Step(in, t0.Add(at))
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, w := range out.Writes {
		fin := ""
		if w.Finished {
			fin = " finished"
		}
		lines = append(lines, fmt.Sprintf("write %s %s@%s count %d (was %d)%s at %s: %s", w.Event.Reason, w.Event.Regarding.Name,
			w.Event.Regarding.ResourceVersion, w.Count, w.Previous, fin, w.Time.Sub(t0), w.Event.Note))
	}
	if len(lines) == 0 {
		lines = []string{"-"}
	}
	next := "none"
	if d := s.s.NextDeadline(); !d.IsZero() {
		next = d.Sub(t0).String()
	}
	return append(lines, "next "+next), nil
}

func podRef(s string) api.ObjectReference {
	name, rv, _ := strings.Cut(s, "@")
	return api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: name, UID: "uid-" + name, ResourceVersion: rv}
}

func (s *seriesStory) Next() (time.Duration, bool) {
	d := s.s.NextDeadline()
	return d.Sub(t0), !d.IsZero()
}

func (*seriesStory) Tick() string { return "Tick" }
