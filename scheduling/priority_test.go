package scheduling

import (
	"testing"

	"github.com/podsem/podsem/api"
)

func i32(v int32) *int32 { return &v }

func TestPodPriority(t *testing.T) {
	if got := PodPriority(nil); got != 0 {
		t.Errorf("nil pod: %d", got)
	}
	if got := PodPriority(&api.Pod{}); got != 0 {
		t.Errorf("unset priority: %d", got)
	}
	if got := PodPriority(&api.Pod{Spec: api.PodSpec{Priority: i32(-7)}}); got != -7 {
		t.Errorf("priority -7: %d", got)
	}
}
