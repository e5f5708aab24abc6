package lifecycle

import (
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// genStatus draws a container status in any of the shapes the kubelet
// reports, or none.
func genStatus(t *rapid.T, name string) *api.ContainerStatus {
	switch rapid.IntRange(0, 5).Draw(t, name+"-state") {
	case 0:
		return nil
	case 1:
		s := stWaiting(name, PodInitializing)
		return &s
	case 2:
		s := stRunning(name, rapid.Bool().Draw(t, name+"-started"))
		return &s
	case 3, 4:
		s := stExited(name, rapid.SampledFrom([]int32{0, 0, 1, 137}).Draw(t, name+"-code"))
		return &s
	}
	s := stBackOff(name, rapid.SampledFrom([]int32{0, 1}).Draw(t, name+"-lastCode"))
	return &s
}

// TestSequenceProperties checks what every plan must satisfy whatever the
// statuses: regular containers start only once initialized; a container is
// listed once, with the right kind and index; a finished or deleted pod
// starts nothing; under restartPolicy Never a failed regular init
// container is never restarted.
func TestSequenceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		policy := rapid.SampledFrom([]api.RestartPolicy{"", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}).Draw(t, "policy")
		var inits []api.Container
		for i := range rapid.IntRange(0, 3).Draw(t, "inits") {
			if rapid.Bool().Draw(t, "isSidecar") {
				inits = append(inits, sidecarC("side-"+string(rune('a'+i)), rapid.Bool().Draw(t, "startupProbe")))
			} else {
				inits = append(inits, initC("init-"+string(rune('a'+i))))
			}
		}
		var apps []string
		for i := range rapid.IntRange(1, 3).Draw(t, "apps") {
			apps = append(apps, "app-"+string(rune('a'+i)))
		}
		pod := seqPod(policy, inits, apps...)
		for _, c := range inits {
			if s := genStatus(t, c.Name); s != nil {
				pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, *s)
			}
		}
		for _, a := range apps {
			if s := genStatus(t, a); s != nil {
				pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, *s)
			}
		}
		sandboxes := rapid.SampledFrom([][]Sandbox{nil, readySandbox, {{Ready: false, Attempt: 2}}}).Draw(t, "sandboxes")
		plan := Sequence(pod, sandboxes)

		seen := map[string]bool{}
		for _, s := range plan.Start {
			if seen[s.Name] {
				t.Fatalf("%s listed twice: %v", s.Name, plan.Start)
			}
			seen[s.Name] = true
			var c *api.Container
			switch s.Kind {
			case api.ContainerKindRegular:
				c = &pod.Spec.Containers[s.Index]
				if !plan.Initialized && !plan.CreateSandbox {
					t.Fatalf("regular container %s starts before initialization: %+v", s.Name, plan)
				}
				if plan.CreateSandbox && len(inits) > 0 {
					t.Fatalf("regular container %s starts with a new sandbox before the init containers: %+v", s.Name, plan)
				}
			case api.ContainerKindInit, api.ContainerKindSidecar:
				c = &pod.Spec.InitContainers[s.Index]
				if api.InitContainerKind(c) != s.Kind {
					t.Fatalf("%s has kind %v, want %v", s.Name, s.Kind, api.InitContainerKind(c))
				}
				if s.Kind == api.ContainerKindInit && policy == api.RestartPolicyNever && s.Reason == StartRestart {
					t.Fatalf("init container %s restarted under Never", s.Name)
				}
			default:
				t.Fatalf("unexpected kind %v", s.Kind)
			}
			if c.Name != s.Name {
				t.Fatalf("index %d of %v names %s, not %s", s.Index, s.Kind, c.Name, s.Name)
			}
		}
		if plan.Done && len(plan.Start) > 0 {
			t.Fatalf("done yet starting %v", plan.Start)
		}
		if plan.FailedInit != "" && !plan.Done {
			t.Fatalf("failed init %s but not done", plan.FailedInit)
		}
		if plan.Why == "" {
			t.Fatalf("no explanation: %+v", plan)
		}
		pod.DeletionTimestamp = &api.Time{}
		if p := Sequence(pod, sandboxes); len(p.Start) > 0 || p.CreateSandbox {
			t.Fatalf("a deleted pod starts %v", p.Start)
		}
	})
}
