package record

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// The periods of client-go's events.k8s.io recorder (tools/events).
const (
	// SeriesFinishPeriod is how often the recorder ends the series no
	// Event has joined for as long, and forgets the single Events as old.
	SeriesFinishPeriod = 6 * time.Minute
	// SeriesRefreshPeriod is how often the recorder writes every running
	// series' count.
	SeriesRefreshPeriod = 30 * time.Minute
)

// Series is the sink side of client-go's events.k8s.io recorder
// (k8s.io/client-go/tools/events, EventBroadcaster), which kube-scheduler
// records its Events through (Scheduled, FailedScheduling, Preempted):
// which writes reach the API server, when, and with which series count.
// One Series stands for one component's broadcaster.
//
// It keeps the Events it has written by their isomorphism key: type,
// action, reason, the reporting component and the regarding and related
// object references, resourceVersion and fieldPath included — not the
// note. An Event whose key is cached joins that Event's series: the second
// one writes the cached Event (its first note) at once with series count 2;
// later ones only count up and move the series' last observed time. Other
// Events are cached and written with count 1.
//
// From its start the recorder runs two periodic passes: every
// SeriesRefreshPeriod it writes each running series with its count; every
// SeriesFinishPeriod it writes, then forgets, each series last observed
// more than SeriesFinishPeriod before, and forgets each single Event
// written more than SeriesFinishPeriod before (a later Event of its key
// starts afresh). Both first run at the start, which finds nothing. When
// the two fall on the same instant the refresh runs first (upstream runs
// them in two goroutines, in either order; either way the series is
// written once more with the same count). Within a pass the writes come in
// the order the Events were first cached (upstream walks a map).
//
// kube-scheduler's Events carry the pod as its cache held it: a pod whose
// status the scheduler did not change between two attempts (the same
// unschedulable message) keeps its resourceVersion, so a third failure
// with the same resourceVersion as the second forms a series (the first
// attempt's write to the status changed it).
type Series struct {
	start time.Time
	now   time.Time // the last step's time
	// next is the first periodic pass not yet run (a finish pass; every
	// fifth is also a refresh).
	next    time.Time
	seq     uint64
	entries map[seriesKey]*seriesEntry
	// running are the entries with a series (count >= 2).
	running map[seriesKey]*seriesEntry
}

// NewSeries returns the recorder of a component started at start, with
// nothing cached.
func NewSeries(start time.Time) *Series {
	return &Series{start: start, now: start, next: start, entries: map[seriesKey]*seriesEntry{}, running: map[seriesKey]*seriesEntry{}}
}

// seriesKey is the recorder's isomorphism key (getKey). The reporting
// component is the Series' own.
type seriesKey struct {
	typ, action, reason string
	regarding, related  api.ObjectReference
}

type seriesEntry struct {
	key   seriesKey
	seq   uint64
	event api.Event
	// at is when the Event was first written (its eventTime).
	at time.Time
	// count is the series count (0: a single Event); last its last
	// observed time; written the count the API server holds.
	count, written int32
	last           time.Time
}

// SeriesInput is one step of a Series: an Event the component records, or
// nil, which only lets time pass (the periodic passes due run).
type SeriesInput struct {
	Event *api.Event
}

// SeriesWrite is one write of an Event to the API server: a create (a new
// Event) or a patch of its series.
type SeriesWrite struct {
	// Event is the Event as first written: a series keeps its first
	// Event's note; First is when that was (its eventTime), which with
	// the Event's key names the Event object the write creates or
	// patches.
	Event api.Event
	First time.Time
	// Count is the count the write sets: 1 for a new Event, the series
	// count otherwise; Previous the count the API server held before (0
	// for a create). A pass may write a series again with an unchanged
	// count.
	Count, Previous int32
	// Time is when the write happens: the step's time, or the periodic
	// pass's.
	Time time.Time
	// Finished says the series ended with this write (the finish pass).
	Finished bool
}

// SeriesOutput is what one step wrote, in order.
type SeriesOutput struct {
	Writes []SeriesWrite
}

// Step runs the periodic passes due at or before now, in time order, then
// records in.Event at now. A step earlier than the last one, or a nil
// Series, is an error wrapping api.ErrInvalidInput.
func (s *Series) Step(in SeriesInput, now time.Time) (SeriesOutput, error) {
	var out SeriesOutput
	if s == nil {
		return out, fmt.Errorf("record: %w: Series: nil (use NewSeries)", api.ErrInvalidInput)
	}
	if now.Before(s.now) || now.Before(s.start) {
		return out, fmt.Errorf("record: %w: Series: now %s is before its last step or start (%s)", api.ErrInvalidInput,
			now.Format(time.RFC3339Nano), s.now.Format(time.RFC3339Nano))
	}
	s.now = now
	s.passes(now, &out)
	if in.Event == nil {
		return out, nil
	}
	e := *in.Event
	k := seriesKey{typ: e.Type, action: e.Action, reason: e.Reason, regarding: e.Regarding}
	if e.Related != nil {
		k.related = *e.Related
	}
	if c := s.entries[k]; c != nil {
		c.last = now
		if c.count > 0 {
			c.count++
			return out, nil
		}
		c.count = 2
		s.running[k] = c
		out.Writes = append(out.Writes, c.write(now, false))
		return out, nil
	}
	s.seq++
	c := &seriesEntry{key: k, seq: s.seq, event: e, at: now}
	s.entries[k] = c
	out.Writes = append(out.Writes, c.write(now, false))
	return out, nil
}

// write is the entry written at t with its count, 1 for a single Event.
func (c *seriesEntry) write(t time.Time, finished bool) SeriesWrite {
	n := max(c.count, 1)
	w := SeriesWrite{Event: c.event, First: c.at, Count: n, Previous: c.written, Time: t, Finished: finished}
	c.written = n
	return w
}

// passes runs the periodic passes at or before now.
func (s *Series) passes(now time.Time, out *SeriesOutput) {
	for !s.next.After(now) {
		if len(s.entries) == 0 {
			// Nothing to write or forget: skip to the first pass after now.
			n := now.Sub(s.start)/SeriesFinishPeriod + 1
			s.next = s.start.Add(n * SeriesFinishPeriod)
			return
		}
		t := s.next
		if t.Sub(s.start)%SeriesRefreshPeriod == 0 {
			for _, c := range s.sorted(s.running) {
				out.Writes = append(out.Writes, c.write(t, false))
			}
		}
		old := t.Add(-SeriesFinishPeriod)
		for _, c := range s.sorted(s.entries) {
			switch {
			case c.count > 0 && c.last.Before(old):
				out.Writes = append(out.Writes, c.write(t, true))
				delete(s.entries, c.key)
				delete(s.running, c.key)
			case c.count == 0 && c.at.Before(old):
				delete(s.entries, c.key)
			}
		}
		s.next = t.Add(SeriesFinishPeriod)
	}
}

// sorted is m's entries in the order they were first cached.
func (s *Series) sorted(m map[seriesKey]*seriesEntry) []*seriesEntry {
	out := make([]*seriesEntry, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *seriesEntry) int { return cmp.Compare(a.seq, b.seq) })
	return out
}

// NextDeadline is the next periodic pass that writes something: the next
// refresh while a series runs, or the finish pass that ends the series
// observed longest ago. The zero time when none would (a pass that only
// forgets single Events runs at the next step instead); and for a nil
// Series.
func (s *Series) NextDeadline() time.Time {
	if s == nil || len(s.running) == 0 {
		return time.Time{}
	}
	// The first pass strictly after t.
	after := func(t time.Time) time.Time {
		if t.Before(s.start) {
			return s.start
		}
		return s.start.Add((t.Sub(s.start)/SeriesFinishPeriod + 1) * SeriesFinishPeriod)
	}
	refresh := s.next
	for refresh.Sub(s.start)%SeriesRefreshPeriod != 0 {
		refresh = refresh.Add(SeriesFinishPeriod)
	}
	d := refresh
	for _, c := range s.running {
		if f := after(c.last.Add(SeriesFinishPeriod)); f.Before(d) {
			d = f
		}
	}
	if d.Before(s.next) {
		d = s.next
	}
	return d
}
