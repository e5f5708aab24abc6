package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func TestValidPhaseTransition(t *testing.T) {
	tests := []struct {
		from, to api.PodPhase
		err      error
	}{
		{"", api.PodPending, nil},
		{"", api.PodFailed, nil},
		{api.PodPending, api.PodPending, nil},
		{api.PodPending, api.PodRunning, nil},
		{api.PodPending, api.PodSucceeded, nil},
		{api.PodPending, api.PodFailed, nil},
		{api.PodRunning, api.PodSucceeded, nil},
		{api.PodRunning, api.PodFailed, nil},
		{api.PodRunning, api.PodUnknown, nil},
		{api.PodUnknown, api.PodRunning, nil},
		{api.PodUnknown, api.PodFailed, nil},
		{api.PodSucceeded, api.PodSucceeded, nil},
		{api.PodFailed, api.PodFailed, nil},
		{api.PodRunning, api.PodPending, ErrPhaseRegression},
		{api.PodPending, "", ErrPhaseRegression},
		{api.PodUnknown, api.PodPending, ErrPhaseRegression},
		{api.PodSucceeded, api.PodFailed, ErrTerminalPhase},
		{api.PodFailed, api.PodRunning, ErrTerminalPhase},
		{api.PodSucceeded, api.PodUnknown, ErrTerminalPhase},
		{"Crashed", api.PodRunning, ErrInvalidPhase},
		{api.PodRunning, "running", ErrInvalidPhase},
	}
	for _, tc := range tests {
		err := ValidPhaseTransition(tc.from, tc.to)
		if tc.err == nil {
			if err != nil {
				t.Errorf("%q -> %q: unexpected error %v", tc.from, tc.to, err)
			}
			continue
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("%q -> %q: error %v, want one wrapping %v", tc.from, tc.to, err, tc.err)
			continue
		}
		if tc.err != ErrInvalidPhase && (!strings.Contains(err.Error(), string(tc.to)) || !strings.Contains(err.Error(), string(tc.from))) {
			t.Errorf("%q -> %q: error %q does not name both phases", tc.from, tc.to, err)
		}
	}
}

var allPhases = []api.PodPhase{"", api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}

// knownRank orders the phases a pod moves through; Unknown has none.
func knownRank(p api.PodPhase) (int, bool) {
	r, _ := phaseRank(p)
	return r, p != api.PodUnknown
}

// TestPhaseTransitionProperties: along any chain of allowed transitions the
// known phases never go backwards, and a terminal phase is never left.
func TestPhaseTransitionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps := rapid.SliceOfN(rapid.SampledFrom(allPhases), 1, 20).Draw(t, "proposals")
		cur := api.PodPhase("")
		lastKnown := 0
		terminal := api.PodPhase("")
		for _, next := range steps {
			err := ValidPhaseTransition(cur, next)
			if terminal != "" {
				if next != terminal && err == nil {
					t.Fatalf("left terminal phase %s for %s", terminal, next)
				}
				if next != terminal && !errors.Is(err, ErrTerminalPhase) {
					t.Fatalf("leaving %s: error %v does not wrap ErrTerminalPhase", terminal, err)
				}
			}
			if err != nil {
				continue
			}
			if r, ok := knownRank(next); ok {
				if r < lastKnown {
					t.Fatalf("phase went back to %s (rank %d after %d)", next, r, lastKnown)
				}
				lastKnown = r
			}
			cur = next
			if cur.IsTerminal() {
				terminal = cur
			}
		}
	})
}

// TestPhaseTransitionReflexive: staying put is always allowed.
func TestPhaseTransitionReflexive(t *testing.T) {
	for _, p := range allPhases {
		if err := ValidPhaseTransition(p, p); err != nil {
			t.Errorf("%q -> %q: %v", p, p, err)
		}
	}
}

func TestReportedPhase(t *testing.T) {
	tests := []struct {
		computed, cached, apiPhase, want api.PodPhase
	}{
		{api.PodRunning, api.PodPending, api.PodPending, api.PodRunning},
		{api.PodRunning, api.PodSucceeded, api.PodRunning, api.PodSucceeded},
		{api.PodPending, api.PodRunning, api.PodFailed, api.PodFailed},
		{api.PodFailed, api.PodRunning, api.PodRunning, api.PodFailed},
		{api.PodFailed, api.PodRunning, api.PodSucceeded, api.PodSucceeded},
		{api.PodSucceeded, api.PodFailed, "", api.PodSucceeded},
	}
	for _, tc := range tests {
		if got := ReportedPhase(tc.computed, tc.cached, tc.apiPhase); got != tc.want {
			t.Errorf("ReportedPhase(%s, %s, %s) = %s, want %s", tc.computed, tc.cached, tc.apiPhase, got, tc.want)
		}
	}
}

// TestReportedPhaseNeverLeavesTerminal: whatever the kubelet computes, the
// reported phase obeys ValidPhaseTransition from a terminal API phase.
func TestReportedPhaseNeverLeavesTerminal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		known := []api.PodPhase{"", api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed}
		computed := rapid.SampledFrom(known[1:]).Draw(t, "computed")
		cached := rapid.SampledFrom(known).Draw(t, "cached")
		apiPhase := rapid.SampledFrom(known).Draw(t, "api")
		got := ReportedPhase(computed, cached, apiPhase)
		if apiPhase.IsTerminal() {
			if err := ValidPhaseTransition(apiPhase, got); err != nil {
				t.Fatalf("ReportedPhase(%s, %s, %s) = %s: %v", computed, cached, apiPhase, got, err)
			}
		}
		if cached.IsTerminal() && !got.IsTerminal() {
			t.Fatalf("ReportedPhase(%s, %s, %s) = %s left the cached terminal phase", computed, cached, apiPhase, got)
		}
	})
}
