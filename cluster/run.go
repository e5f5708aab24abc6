package cluster

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Result is what a run of a scenario produced: the event log and the
// objects the API server holds at `until`.
type Result struct {
	// Records are the event log, in order: the reactions to the objects
	// at t=0, then each action's and each deadline's, then Until.
	Records []Record
	// Objects are the objects at `until` (Machine.Objects): what the
	// `{"final": ...}` line lists.
	Objects []api.Object
}

// Run runs sc from start (t=0) to start+sc.Until: the scenario's config
// read by ConfigFromFlags (each key nothing takes recorded as an
// UnusedConfig warning, as the harness does), the objects created at t=0,
// then time jumping from one deadline to the next (Machine.NextDeadline)
// and to each action's time, the actions applied in order, and a last
// step at until. The same scenario and start give the same Result, byte
// for byte.
func Run(sc *Scenario, start time.Time) (Result, error) {
	if sc == nil {
		return Result{}, fmt.Errorf("cluster: %w: scenario: nil", api.ErrInvalidInput)
	}
	if len(sc.Include) > 0 {
		return Result{}, fmt.Errorf("cluster: %w: include %v: the caller resolves includes into objects", api.ErrInvalidInput, sc.Include)
	}
	cfg, unused, err := ConfigFromFlags(sc.Config)
	if err != nil {
		return Result{}, err
	}
	var log []Record
	rec := recorder{start: start}
	rec.scenario(start, "Normal", "Start", "", "t=0")
	for _, k := range unused {
		rec.scenario(start, "Warning", "UnusedConfig", "", fmt.Sprintf("config %s is taken by no simulated component", k))
	}
	log = append(log, rec.out...)
	m, out, err := New(sc.Objects, cfg, start)
	if err != nil {
		return Result{}, err
	}
	log = append(log, out.Records...)
	until := start.Add(sc.Until)
	advance := func(to time.Time) error {
		for d := m.NextDeadline(); !d.IsZero() && d.Before(to); d = m.NextDeadline() {
			out, err := m.Step(Tick(), d)
			log = append(log, out.Records...)
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, a := range sc.Actions {
		at := start.Add(a.At)
		if at.After(until) {
			break
		}
		if err := advance(at); err != nil {
			return Result{Records: log}, err
		}
		out, err := m.Step(Do(a), at)
		log = append(log, out.Records...)
		if err != nil {
			return Result{Records: log}, err
		}
	}
	if err := advance(until); err != nil {
		return Result{Records: log}, err
	}
	out, err = m.Step(Tick(), until)
	log = append(log, out.Records...)
	if err != nil {
		return Result{Records: log}, err
	}
	rec = recorder{start: start}
	rec.scenario(until, "Normal", "Until", "", "end of recording")
	log = append(log, rec.out...)
	return Result{Records: log, Objects: m.Objects()}, nil
}
