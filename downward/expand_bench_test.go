package downward

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// doublingPod is a valid pod of under 1 KB of env whose kubelet
// expansion doubles a value n times: A=xx, then n times A=$(A)$(A).
func doublingPod(n int) *api.Pod {
	env := []api.EnvVar{{Name: "A", Value: "xx"}}
	for range n {
		env = append(env, api.EnvVar{Name: "A", Value: "$(A)$(A)"})
	}
	return envPod(api.Container{Name: "app", Env: env})
}

// BenchmarkEnvironmentDoubling is the exponential worst case: 24
// redefinitions would make a 32 MiB value; the limit stops it at
// MaxExpandedEnvironmentBytes.
func BenchmarkEnvironmentDoubling(b *testing.B) {
	pod := doublingPod(24)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Environment(pod, "app", nil, nil)
	}
}

// BenchmarkExpandUnterminated is 400 KB of "$(" with no ")": each "$("
// looked for a ")" to the end of the string.
func BenchmarkExpandUnterminated(b *testing.B) {
	s := strings.Repeat("$(", 200_000)
	b.ReportAllocs()
	for b.Loop() {
		_ = ExpandVars(s, nil)
	}
}
