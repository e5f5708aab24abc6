package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

func init() {
	register("scheduling.queue-backoff", runQueueBackoff)
}

// runQueueBackoff drives a scheduling.Queue through the case's timed
// script and compares every step's pop and the state after it.
func runQueueBackoff(input, want json.RawMessage) error {
	var in struct {
		StartTime                        time.Time `json:"startTime"`
		PodInitialBackoffSeconds         int64     `json:"podInitialBackoffSeconds"`
		PodMaxBackoffSeconds             int64     `json:"podMaxBackoffSeconds"`
		PodMaxInUnschedulablePodsSeconds int64     `json:"podMaxInUnschedulablePodsSeconds"`
		Events                           []struct {
			AtMs    int64    `json:"atMs"`
			Op      string   `json:"op"`
			Pod     *api.Pod `json:"pod"`
			Name    string   `json:"name"`
			Plugins []string `json:"plugins"`
		} `json:"events"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	type backoffPod struct {
		Pod   string    `json:"pod"`
		Until time.Time `json:"until"`
	}
	type state struct {
		Active        []string     `json:"active"`
		Backoff       []backoffPod `json:"backoff"`
		Unschedulable []string     `json:"unschedulable"`
		Gated         []string     `json:"gated"`
		InFlight      []string     `json:"inFlight"`
	}
	type step struct {
		AtMs         int64  `json:"atMs"`
		Op           string `json:"op"`
		Popped       string `json:"popped,omitempty"`
		Attempts     int    `json:"attempts,omitempty"`
		NothingToPop bool   `json:"nothingToPop,omitempty"`
		State        state  `json:"state"`
	}
	var w struct {
		Steps []step    `json:"steps"`
		Pops  []*string `json:"pops"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	cfg := scheduling.QueueConfig{
		PodInitialBackoff:                 time.Duration(in.PodInitialBackoffSeconds) * time.Second,
		PodMaxBackoff:                     time.Duration(in.PodMaxBackoffSeconds) * time.Second,
		PodMaxInUnschedulablePodsDuration: time.Duration(in.PodMaxInUnschedulablePodsSeconds) * time.Second,
	}
	q, err := scheduling.NewQueue(cfg, in.StartTime)
	if err != nil {
		return err
	}
	var steps []step
	var pops []*string
	for i, ev := range in.Events {
		now := in.StartTime.Add(time.Duration(ev.AtMs) * time.Millisecond)
		s := step{AtMs: ev.AtMs, Op: ev.Op}
		var err error
		switch ev.Op {
		case "add":
			err = q.Add(ev.Pod, now)
		case "pop":
			pod, attempts, ok := q.Pop(now)
			if ok {
				key := pod.Key()
				s.Popped, s.Attempts = key, attempts
				pops = append(pops, &key)
			} else {
				s.NothingToPop = true
				pops = append(pops, nil)
			}
		case "fail":
			err = q.Fail(ev.Name, ev.Plugins, now)
		case "done":
			err = q.Done(ev.Name, now)
		case "ungate":
			e, ok := q.Entry(ev.Name)
			if !ok {
				err = fmt.Errorf("ungate: no pod %q", ev.Name)
				break
			}
			pod := *e.Pod
			pod.Spec.SchedulingGates = nil
			err = q.Update(&pod, now)
		case "activate":
			q.Activate(ev.Name, now)
		case "move":
			q.Move(now)
		default:
			err = fmt.Errorf("unknown op %q", ev.Op)
		}
		if err != nil {
			return fmt.Errorf("event %d (%s at %d ms): %w", i, ev.Op, ev.AtMs, err)
		}
		st := q.State()
		s.State = state{Active: st.Active, Unschedulable: st.Unschedulable, Gated: st.Gated, InFlight: st.InFlight}
		for _, b := range st.Backoff {
			s.State.Backoff = append(s.State.Backoff, backoffPod{Pod: b.Key, Until: b.Until})
		}
		steps = append(steps, s)
	}
	if len(steps) != len(w.Steps) {
		return Mismatch("number of steps", len(w.Steps), len(steps))
	}
	norm := func(s step) step {
		for _, l := range []*[]string{&s.State.Active, &s.State.Unschedulable, &s.State.Gated, &s.State.InFlight} {
			if len(*l) == 0 {
				*l = nil
			}
			slices.Sort(*l)
		}
		if len(s.State.Backoff) == 0 {
			s.State.Backoff = nil
		}
		for i := range s.State.Backoff {
			s.State.Backoff[i].Until = s.State.Backoff[i].Until.UTC()
		}
		slices.SortFunc(s.State.Backoff, func(a, b backoffPod) int {
			if a.Pod < b.Pod {
				return -1
			} else if a.Pod > b.Pod {
				return 1
			}
			return 0
		})
		return s
	}
	for i := range steps {
		g, ws := norm(steps[i]), norm(w.Steps[i])
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(ws)
		if string(gb) != string(wb) {
			return Mismatch(fmt.Sprintf("step %d (%s at %d ms)", i, ws.Op, ws.AtMs), json.RawMessage(wb), json.RawMessage(gb))
		}
	}
	if len(pops) != len(w.Pops) {
		return Mismatch("pops", w.Pops, pops)
	}
	for i := range pops {
		if (pops[i] == nil) != (w.Pops[i] == nil) || (pops[i] != nil && *pops[i] != *w.Pops[i]) {
			return Mismatch("pops", w.Pops, pops)
		}
	}
	return nil
}
