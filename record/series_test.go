package record_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/record"
	"pgregory.net/rapid"
)

func failed(rv string) *api.Event {
	return &api.Event{Type: api.EventTypeWarning, Reason: "FailedScheduling", Action: "Scheduling", Source: "default-scheduler",
		Regarding: api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "big", UID: "u", ResourceVersion: rv},
		Note:      "0/1 nodes are available: 1 Insufficient cpu."}
}

// Whatever the Events and times: every Event is counted in exactly one
// Event object (once every series has ended, the last counts written sum
// to the Events recorded); each object's count only grows, each write
// says the count the one before it set, and writes come in time order,
// never after the step.
func TestPropertySeriesCountsEveryEvent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := record.NewSeries(t0)
		now := t0
		type object struct {
			key   string
			first time.Time
		}
		last := map[object]int32{}
		var lastTime time.Time
		check := func(out record.SeriesOutput, now time.Time) {
			for _, w := range out.Writes {
				o := object{w.Event.Reason + "/" + w.Event.Regarding.ResourceVersion, w.First}
				if w.Previous != last[o] || w.Count < w.Previous || w.Count < 1 {
					t.Fatalf("%v: count %d (was %d), last written %d", o, w.Count, w.Previous, last[o])
				}
				if w.Time.Before(lastTime) || w.Time.After(now) {
					t.Fatalf("write at %v after one at %v, step at %v", w.Time, lastTime, now)
				}
				last[o], lastTime = w.Count, w.Time
			}
		}
		n := rapid.IntRange(0, 100).Draw(t, "n")
		for i := 0; i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 600).Draw(t, "dt")) * time.Second)
			e := failed(rapid.SampledFrom([]string{"1", "2"}).Draw(t, "rv"))
			if rapid.Bool().Draw(t, "scheduled") {
				e.Reason, e.Type, e.Action = "Scheduled", api.EventTypeNormal, "Binding"
			}
			if rapid.Bool().Draw(t, "tick first") {
				if d := s.NextDeadline(); !d.IsZero() && !d.After(now) {
					out, err := s.Step(record.SeriesInput{}, d)
					if err != nil {
						t.Fatal(err)
					}
					check(out, d)
				}
			}
			out, err := s.Step(record.SeriesInput{Event: e}, now)
			if err != nil {
				t.Fatal(err)
			}
			check(out, now)
		}
		out, err := s.Step(record.SeriesInput{}, now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		check(out, now.Add(time.Hour))
		if !s.NextDeadline().IsZero() {
			t.Fatalf("a series still runs an hour after the last Event: next %v", s.NextDeadline())
		}
		sum := int32(0)
		for _, c := range last {
			sum += c
		}
		if sum != int32(n) {
			t.Fatalf("%d Events recorded, the Event objects count %d", n, sum)
		}
	})
}

func TestSeriesStepBack(t *testing.T) {
	s := record.NewSeries(t0)
	if _, err := s.Step(record.SeriesInput{Event: failed("1")}, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Step(record.SeriesInput{}, t0)
	if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), "now 2026-01-01T10:00:00Z is before its last step") {
		t.Errorf("step back: %v", err)
	}
}

func TestNilSeries(t *testing.T) {
	var s *record.Series
	_, err := s.Step(record.SeriesInput{}, t0)
	niltest.Invalid(t, err, api.ErrInvalidInput, "Series")
	if !s.NextDeadline().IsZero() {
		t.Error("nil NextDeadline")
	}
}

// kube-scheduler fails a pod four times, five minutes apart; the first
// failure's status write moved the pod's resourceVersion, so the second
// starts the Event the later ones join. The third is written at once with
// count 2, the fourth only counted; the finish pass six minutes after the
// last one writes the final count.
func ExampleSeries_Step() {
	s := record.NewSeries(t0)
	print := func(out record.SeriesOutput) {
		for _, w := range out.Writes {
			fmt.Printf("%s %s rv=%s count=%d finished=%v\n", w.Time.Sub(t0), w.Event.Reason, w.Event.Regarding.ResourceVersion, w.Count, w.Finished)
		}
	}
	for i, rv := range []string{"5", "6", "6", "6"} {
		out, _ := s.Step(record.SeriesInput{Event: failed(rv)}, t0.Add(time.Duration(i)*5*time.Minute))
		print(out)
	}
	d := s.NextDeadline()
	out, _ := s.Step(record.SeriesInput{}, d)
	print(out)
	// Output:
	// 0s FailedScheduling rv=5 count=1 finished=false
	// 5m0s FailedScheduling rv=6 count=1 finished=false
	// 10m0s FailedScheduling rv=6 count=2 finished=false
	// 24m0s FailedScheduling rv=6 count=3 finished=true
}
