package api_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func TestIsStaticPod(t *testing.T) {
	for src, want := range map[string]bool{"api": false, "file": true, "http": true} {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.ConfigSourceAnnotationKey: src}}}
		if got := api.IsStaticPod(p); got != want {
			t.Errorf("IsStaticPod(source %q) = %v, want %v", src, got, want)
		}
	}
	if api.IsStaticPod(&api.Pod{}) {
		t.Error("a pod without the config source annotation is not static")
	}
}

func TestIsCriticalPod(t *testing.T) {
	prio := func(p int32) *int32 { return &p }
	for _, tc := range []struct {
		name string
		pod  api.Pod
		want bool
	}{
		{"plain", api.Pod{}, false},
		{"static", api.Pod{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.ConfigSourceAnnotationKey: "file"}}}, true},
		{"mirror", api.Pod{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.ConfigMirrorAnnotationKey: "x"}}}, true},
		{"system-cluster-critical", api.Pod{Spec: api.PodSpec{Priority: prio(api.SystemCriticalPriority)}}, true},
		{"just below", api.Pod{Spec: api.PodSpec{Priority: prio(api.SystemCriticalPriority - 1)}}, false},
	} {
		if got := api.IsCriticalPod(&tc.pod); got != tc.want {
			t.Errorf("%s: IsCriticalPod = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestIsPodReady(t *testing.T) {
	pod := func(st api.ConditionStatus) *api.Pod {
		return &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{
			{Type: api.ContainersReady, Status: api.ConditionTrue}, {Type: api.PodReady, Status: st}}}}
	}
	if !api.IsPodReady(pod(api.ConditionTrue)) || api.IsPodReady(pod(api.ConditionFalse)) ||
		api.IsPodReady(pod(api.ConditionUnknown)) || api.IsPodReady(&api.Pod{}) {
		t.Error("IsPodReady is true only for a Ready=True condition")
	}
}

func TestUpdatePodCondition(t *testing.T) {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	probe := api.NewTime(t0.Add(-time.Second))
	target := func(st api.ConditionStatus, reason string) api.PodCondition {
		return api.PodCondition{Type: api.DisruptionTarget, Status: st, Reason: reason}
	}
	for _, tc := range []struct {
		name    string
		old     []api.PodCondition
		set     api.PodCondition
		want    []api.PodCondition
		changed bool
	}{{
		name:    "added with now",
		set:     target(api.ConditionTrue, "EvictionByEvictionAPI"),
		want:    []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "EvictionByEvictionAPI", LastTransitionTime: api.NewTime(t1)}},
		changed: true,
	}, {
		name:    "same status keeps the transition time, equal otherwise: no change",
		old:     []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastTransitionTime: api.NewTime(t0)}},
		set:     target(api.ConditionTrue, "R"),
		want:    []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastTransitionTime: api.NewTime(t0)}},
		changed: false,
	}, {
		name:    "same status, new reason: changed, transition time kept",
		old:     []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastTransitionTime: api.NewTime(t0)}},
		set:     target(api.ConditionTrue, "S"),
		want:    []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "S", LastTransitionTime: api.NewTime(t0)}},
		changed: true,
	}, {
		name:    "status flips: transition time now",
		old:     []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(t0)}},
		set:     target(api.ConditionTrue, "R"),
		want:    []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastTransitionTime: api.NewTime(t1)}},
		changed: true,
	}, {
		name: "the old lastProbeTime is not kept, and dropping it is a change",
		old: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue},
			{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastProbeTime: probe, LastTransitionTime: api.NewTime(t0)}},
		set: target(api.ConditionTrue, "R"),
		want: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue},
			{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "R", LastTransitionTime: api.NewTime(t0)}},
		changed: true,
	}} {
		st := api.PodStatus{Conditions: tc.old}
		changed := api.UpdatePodCondition(&st, tc.set, t1)
		if changed != tc.changed {
			t.Errorf("%s: changed = %v, want %v", tc.name, changed, tc.changed)
		}
		if d := cmp.Diff(tc.want, st.Conditions); d != "" {
			t.Errorf("%s: conditions (-want +got):\n%s", tc.name, d)
		}
	}
}

func TestPodPriority(t *testing.T) {
	p := int32(-7)
	if got := api.PodPriority(nil); got != 0 {
		t.Errorf("nil pod: %d", got)
	}
	if got := api.PodPriority(&api.Pod{}); got != 0 {
		t.Errorf("unset priority: %d", got)
	}
	if got := api.PodPriority(&api.Pod{Spec: api.PodSpec{Priority: &p}}); got != -7 {
		t.Errorf("priority -7: %d", got)
	}
}

// A pod is available once Ready for minReadySeconds, the very instant
// counting (v1.36.3's IsPodAvailable compares with <=).
func TestPodReadiness(t *testing.T) {
	t0 := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	pod := &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(t0)}}}}
	for _, tc := range []struct {
		min       int32
		at        time.Duration
		available bool
	}{{0, 0, true}, {10, 9 * time.Second, false}, {10, 10 * time.Second, true}, {10, 11 * time.Second, true}} {
		if r, a := api.PodReadiness(pod, tc.min, t0.Add(tc.at)); !r || a != tc.available || api.IsPodAvailable(pod, tc.min, t0.Add(tc.at)) != a {
			t.Errorf("minReadySeconds %d at +%v: ready %v available %v, want available %v", tc.min, tc.at, r, a, tc.available)
		}
	}
	pod.Status.Conditions[0].Status = api.ConditionFalse
	if r, a := api.PodReadiness(pod, 0, t0); r || a {
		t.Error("a pod not ready is ready or available")
	}
}
