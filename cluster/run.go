package cluster

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Result is what a run of a scenario produced: the event log and the
// objects the API server holds at `until`.
type Result struct {
	// T0 is t=0: the instant the scenario's objects had settled.
	T0 time.Time
	// Setup are the records from the objects' creation to t=0, with
	// negative offsets (the harness's <scenario>.setup.jsonl).
	Setup []Record
	// Records are the event log from t=0 to until, in order: Start, each
	// action's and each deadline's records, Until.
	Records []Record
	// Objects are the objects at `until` (Machine.Objects): what the
	// `{"final": ...}` line lists.
	Objects []api.Object
	// Answers are the run's per-pod, per-budget and per-Service answers
	// (set when the run reached until).
	Answers Answers
}

// Run runs sc as the e2e harness runs it on a real control plane: the
// scenario's objects are created at start and the cluster is left to
// settle (Unsettled; at most DefaultSettleTimeout, after which a
// SettleTimeout warning is recorded and the run goes on); the instant it
// has settled is t=0. Then the actions are applied at t=0 + at, in order,
// time jumping from one deadline to the next (Machine.NextDeadline), until
// t=0 + sc.Until. The config is read by ConfigFromFlags (each key nothing
// takes recorded as an UnusedConfig warning). The same scenario and start
// give the same Result, byte for byte.
func Run(sc *Scenario, start time.Time) (Result, error) {
	return run(sc, start, nil)
}

// run is Run with the machine adjusted by adjust once built (tests).
func run(sc *Scenario, start time.Time, adjust func(*Machine)) (Result, error) {
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
	cfg.LoadLocation = sc.LoadLocation
	m, out, err := New(sc.Objects, cfg, start)
	if err != nil {
		return Result{}, err
	}
	if adjust != nil {
		adjust(m)
	}
	setup := out.Records
	t0, why, more, err := m.settleBefore(DefaultSettleTimeout)
	setup = append(setup, more...)
	if err != nil {
		return Result{Setup: setup}, err
	}
	rec := recorder{start: t0}
	if why != "" {
		rec.scenario(t0, "Warning", "SettleTimeout", "", why)
	}
	for _, k := range unused {
		rec.scenario(t0, "Warning", "UnusedConfig", "", fmt.Sprintf("config %s is taken by no simulated component", k))
	}
	setup = append(setup, rec.out...)
	for i := range setup {
		setup[i].Offset = offset(setup[i].at, t0)
	}
	m.rec.start, m.rec.stamp = t0, "" // (a new t=0: the stamp's offset is stale)
	m.answers = newAnswers(m, t0)
	rec = recorder{start: t0}
	rec.scenario(t0, "Normal", "Start", "", "t=0")
	log := rec.out
	until := t0.Add(sc.Until)
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
	for i := 0; i < len(sc.Actions); {
		at := t0.Add(sc.Actions[i].At)
		if at.After(until) {
			break
		}
		// The actions of one offset are applied together (DoAll).
		j := i + 1
		for j < len(sc.Actions) && sc.Actions[j].At == sc.Actions[i].At {
			j++
		}
		if err := advance(at); err != nil {
			return Result{T0: t0, Setup: setup, Records: log}, err
		}
		out, err := m.Step(DoAll(sc.Actions[i:j]...), at)
		log = append(log, out.Records...)
		if err != nil {
			return Result{T0: t0, Setup: setup, Records: log}, err
		}
		i = j
	}
	if err := advance(until); err != nil {
		return Result{T0: t0, Setup: setup, Records: log}, err
	}
	out, err = m.Step(Tick(), until)
	log = append(log, out.Records...)
	if err != nil {
		return Result{T0: t0, Setup: setup, Records: log}, err
	}
	rec = recorder{start: t0}
	rec.scenario(until, "Normal", "Until", "", "end of recording")
	log = append(log, rec.out...)
	return Result{T0: t0, Setup: setup, Records: log, Objects: m.Objects(), Answers: m.answers.result(log, until)}, nil
}
