package probe

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestWorkerEventProperties: over random runs, a step records an event
// exactly when it ran the probe and the outcome was a failure, a warning
// or an error; the event is a Warning about the probed container, and its
// note ends with the output the step was given.
func TestWorkerEventProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, _, _, _ := genWorker(t)
		now := t0
		for i := range rapid.IntRange(1, 30).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.IntRange(0, 12).Draw(t, fmt.Sprintf("dt%d", i))) * time.Second)
			in := Input{Status: genStatus(t, now, i), Outcome: Outcome(rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("outcome%d", i))),
				Output: rapid.StringMatching(`[a-z :]{0,12}`).Draw(t, fmt.Sprintf("output%d", i))}
			got := w.Step(in, now)
			want := got.Probed && (in.Outcome == OutcomeFailure || in.Outcome == OutcomeWarning || in.Outcome == OutcomeError)
			if (got.Event != nil) != want {
				t.Fatalf("step %d: probed %v, outcome %s, event %+v", i, got.Probed, in.Outcome, got.Event)
			}
			if e := got.Event; e != nil && (e.Type != "Warning" || e.Regarding.FieldPath != "spec.containers{app}" || !strings.HasSuffix(e.Note, ": "+in.Output)) {
				t.Fatalf("step %d: event %+v for output %q", i, e, in.Output)
			}
		}
	})
}
