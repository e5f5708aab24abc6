package downward

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// Each redefinition A=$(A)$(A) doubles A, as the kubelet expands it. Up
// to the limit the answer is the kubelet's; the entry that would pass it
// is refused by name, before its value is built.
func TestEnvironmentExpansionLimit(t *testing.T) {
	env, err := Environment(doublingPod(20), "app", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(env) != 1 || env[0].Value != strings.Repeat("x", 2<<20) {
		t.Fatalf("20 doublings: got %d vars, len %d", len(env), len(env[0].Value))
	}
	// 2+4+...+2^22 bytes = 8 MiB-2 pass the 6 MiB limit at the 21st
	// redefinition, env[21].
	_, err = Environment(doublingPod(24), "app", nil, nil)
	if !errors.Is(err, ErrExpansionLimit) || !errors.Is(err, api.ErrInvalidInput) {
		t.Fatalf("24 doublings: err %v, want ErrExpansionLimit", err)
	}
	const want = `downward: invalid input: env[21] "A": expanded environment too large: the expanded values would pass 6291456 bytes`
	if err.Error() != want {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}
	// Thirty doublings (~7 GiB in the kubelet) fail as fast.
	if _, err := Environment(doublingPod(30), "app", nil, nil); !errors.Is(err, ErrExpansionLimit) {
		t.Fatalf("30 doublings: err %v", err)
	}
}

// An unterminated "$(" stays as written; a long run of them is read once
// (this took seconds when every "$(" searched to the end for a ")").
func TestExpandLongUnterminated(t *testing.T) {
	s := strings.Repeat("$(", 1<<19) // 1 MiB
	if got := ExpandVars(s, nil); got != s {
		t.Fatalf("changed: len %d", len(got))
	}
	s = strings.Repeat("$(", 1<<19) + "A)"
	if got, want := ExpandVars(s, nil), s; got != want {
		t.Fatalf("changed: len %d", len(got))
	}
}

// expand with a limit gives Expand's answer when it fits and fails when
// it does not, never producing more than the limit.
func TestExpandWithLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOf(rapid.SampledFrom([]rune{'$', '(', ')', 'A', 'B', 'x', 'é'})).Draw(t, "s")
		vars := map[string]string{"A": rapid.String().Draw(t, "A"), "B": rapid.String().Draw(t, "B")}
		limit := rapid.IntRange(0, 64).Draw(t, "limit")
		want := ExpandVars(s, vars)
		got, ok := expand(s, func(n string) (string, bool) { v, ok := vars[n]; return v, ok }, limit)
		switch {
		case ok != (len(want) <= limit):
			t.Fatalf("ok %v for a %d-byte answer, limit %d", ok, len(want), limit)
		case ok && got != want:
			t.Fatalf("got %q, want %q", got, want)
		case len(got) > limit:
			t.Fatalf("output %d bytes past limit %d", len(got), limit)
		}
	})
}

// Expansion work is bounded by the documented limit: whatever the env
// (references to variables defined so far, redefinitions, $$ escapes),
// Environment either answers with expanded values totalling at most
// MaxExpandedEnvironmentBytes or refuses with ErrExpansionLimit, and the
// bytes it allocates stay within a small multiple of the limit.
func TestEnvironmentExpansionWorkBounded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"A", "B"}
		piece := rapid.OneOf(
			rapid.SampledFrom([]string{"$(A)", "$(B)", "$(C)", "$$", "$(", "x", "yy"}),
			rapid.StringN(0, 8, -1),
		)
		n := rapid.IntRange(1, 40).Draw(t, "entries")
		var env []api.EnvVar
		input := 0
		for i := range n {
			name := rapid.SampledFrom(names).Draw(t, fmt.Sprintf("name%d", i))
			v := strings.Join(rapid.SliceOfN(piece, 1, 6).Draw(t, fmt.Sprintf("value%d", i)), "")
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("grow%d", i)) > 0 {
				// A redefinition that multiplies the variable.
				v = strings.Repeat("$("+name+")", rapid.IntRange(2, 4).Draw(t, fmt.Sprintf("times%d", i))) + v
			}
			input += len(v)
			env = append(env, api.EnvVar{Name: name, Value: v})
		}
		pod := envPod(api.Container{Name: "app", Env: env})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, err := Environment(pod, "app", nil, nil)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*MaxExpandedEnvironmentBytes+uint64(64*input)+1<<20 {
			t.Fatalf("allocated %d bytes", alloc)
		}
		if err != nil {
			if !errors.Is(err, ErrExpansionLimit) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		total := 0
		for _, v := range out {
			total += len(v.Value)
		}
		if total > MaxExpandedEnvironmentBytes {
			t.Fatalf("%d bytes of values", total)
		}
	})
}
