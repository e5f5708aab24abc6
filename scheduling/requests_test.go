package scheduling

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func rl(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return out
}

func ctr(name string, req, lim api.ResourceList) api.Container {
	return api.Container{Name: name, Image: "busybox", Resources: api.ResourceRequirements{Requests: req, Limits: lim}}
}

func sidecar(name string, req, lim api.ResourceList) api.Container {
	c := ctr(name, req, lim)
	always := api.RestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

func resourceStrings(l api.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

func TestPodRequests(t *testing.T) {
	tests := []struct {
		name     string
		pod      api.Pod
		opts     api.PodResourcesOptions
		requests api.ResourceList
		limits   api.ResourceList
	}{
		{
			name: "two containers add up",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{
				ctr("app", rl("cpu", "250m", "memory", "64Mi"), rl("cpu", "500m", "memory", "128Mi")),
				ctr("log", rl("cpu", "250m", "memory", "64Mi"), rl("cpu", "500m", "memory", "128Mi")),
			}}},
			requests: rl("cpu", "500m", "memory", "128Mi"),
			limits:   rl("cpu", "1", "memory", "256Mi"),
		},
		{
			name: "limits without requests are not requests",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{
				ctr("app", nil, rl("cpu", "1")),
			}}},
			requests: rl(),
			limits:   rl("cpu", "1"),
		},
		{
			name: "a regular init container is a floor",
			pod: api.Pod{Spec: api.PodSpec{
				InitContainers: []api.Container{ctr("init", rl("cpu", "2"), nil)},
				Containers:     []api.Container{ctr("app", rl("cpu", "500m", "memory", "1Gi"), nil)},
			}},
			requests: rl("cpu", "2", "memory", "1Gi"),
			limits:   rl(),
		},
		{
			name: "sidecars add up and raise later init containers' floor",
			pod: api.Pod{Spec: api.PodSpec{
				InitContainers: []api.Container{
					sidecar("proxy", rl("cpu", "300m"), nil),
					ctr("migrate", rl("cpu", "1"), nil),
				},
				Containers: []api.Container{ctr("app", rl("cpu", "500m"), nil)},
			}},
			requests: rl("cpu", "1300m"),
			limits:   rl(),
		},
		{
			name: "pod-level requests replace cpu and memory, not other resources",
			pod: api.Pod{Spec: api.PodSpec{
				Containers: []api.Container{ctr("app", rl("cpu", "500m", "ephemeral-storage", "1Gi"), nil)},
				Resources:  &api.ResourceRequirements{Requests: rl("cpu", "2", "ephemeral-storage", "5Gi")},
			}},
			requests: rl("cpu", "2", "ephemeral-storage", "1Gi"),
			limits:   rl(),
		},
		{
			name: "overhead is added to requests, and to non-zero limits only",
			pod: api.Pod{Spec: api.PodSpec{
				Containers: []api.Container{ctr("app", rl("cpu", "500m"), rl("cpu", "1", "memory", "0"))},
				Overhead:   rl("cpu", "100m", "memory", "10Mi"),
			}},
			requests: rl("cpu", "600m", "memory", "10Mi"),
			limits:   rl("cpu", "1100m", "memory", "0"),
		},
		{
			name: "exclude overhead",
			pod: api.Pod{Spec: api.PodSpec{
				Containers: []api.Container{ctr("app", rl("cpu", "500m"), rl("cpu", "1"))},
				Overhead:   rl("cpu", "100m"),
			}},
			opts:     api.PodResourcesOptions{ExcludeOverhead: true},
			requests: rl("cpu", "500m"),
			limits:   rl("cpu", "1"),
		},
		{
			name: "non-missing defaults fill unrequested resources, explicit zero stays",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{
				ctr("a", nil, nil),
				ctr("b", rl("cpu", "0"), nil),
			}}},
			opts:     ScoreRequestOptions(),
			requests: rl("cpu", "100m", "memory", "400Mi"),
			limits:   rl(),
		},
		{
			name: "resize in progress counts the larger of spec and status",
			pod: api.Pod{
				Spec: api.PodSpec{Containers: []api.Container{ctr("app", rl("cpu", "1"), nil)}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{{
					Name:               "app",
					AllocatedResources: rl("cpu", "2"),
					Resources:          &api.ResourceRequirements{Requests: rl("cpu", "1500m")},
				}}},
			},
			opts:     FitRequestOptions(),
			requests: rl("cpu", "2"),
			limits:   rl(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(resourceStrings(tt.requests), resourceStrings(api.PodRequests(&tt.pod, tt.opts))); d != "" {
				t.Errorf("requests (-want +got):\n%s", d)
			}
			if d := cmp.Diff(resourceStrings(tt.limits), resourceStrings(api.PodLimits(&tt.pod, tt.opts))); d != "" {
				t.Errorf("limits (-want +got):\n%s", d)
			}
		})
	}
}

func TestPodRequestsNilPod(t *testing.T) {
	if got := api.PodRequests(nil, api.PodResourcesOptions{}); len(got) != 0 {
		t.Errorf("api.PodRequests(nil) = %v, want empty", got)
	}
	if got := api.PodLimits(nil, api.PodResourcesOptions{}); len(got) != 0 {
		t.Errorf("api.PodLimits(nil) = %v, want empty", got)
	}
}

// genContainer draws a container requesting some of cpu, memory and an
// extended resource.
func genContainer(t *rapid.T, name string, isSidecar bool) api.Container {
	req := api.ResourceList{}
	for _, res := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, "example.com/gpu"} {
		if rapid.Bool().Draw(t, name+"-has-"+string(res)) {
			v := rapid.Int64Range(0, 4000).Draw(t, name+"-"+string(res))
			if res == api.ResourceCPU {
				req[res] = api.NewMilliQuantity(v, api.DecimalSI)
			} else {
				req[res] = api.NewQuantity(v, api.DecimalSI)
			}
		}
	}
	c := ctr(name, req, nil)
	if isSidecar {
		always := api.RestartPolicyAlways
		c.RestartPolicy = &always
	}
	return c
}

func genPod(t *rapid.T) api.Pod {
	var pod api.Pod
	n := rapid.IntRange(1, 4).Draw(t, "containers")
	for i := 0; i < n; i++ {
		pod.Spec.Containers = append(pod.Spec.Containers, genContainer(t, fmt.Sprintf("app-%d", i), false))
	}
	m := rapid.IntRange(0, 4).Draw(t, "initContainers")
	for i := 0; i < m; i++ {
		pod.Spec.InitContainers = append(pod.Spec.InitContainers,
			genContainer(t, fmt.Sprintf("init-%d", i), rapid.Bool().Draw(t, fmt.Sprintf("init-%d-sidecar", i))))
	}
	return pod
}

// atLeast reports whether every resource of small is present in big with a
// value no smaller.
func atLeast(big, small api.ResourceList) (api.ResourceName, bool) {
	for k, v := range small {
		if b, ok := big[k]; !ok || b.Cmp(v) < 0 {
			return k, false
		}
	}
	return "", true
}

// The effective requests are at least what any single container requests:
// every container runs at some point, and the pod's reservation covers it.
func TestPodRequestsCoverEveryContainer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genPod(t)
		got := api.PodRequests(&pod, api.PodResourcesOptions{})
		all := append(append([]api.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...)
		for _, c := range all {
			if k, ok := atLeast(got, c.Resources.Requests); !ok {
				t.Fatalf("requests %v below container %s's %s request %v", resourceStrings(got), c.Name, k, resourceStrings(c.Resources.Requests))
			}
		}
	})
}

// Adding a container (regular, sidecar or init, anywhere in the init list)
// never lowers the effective requests.
func TestPodRequestsMonotonic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genPod(t)
		before := api.PodRequests(&pod, api.PodResourcesOptions{})
		grown := pod
		grown.Spec.Containers = append([]api.Container{}, pod.Spec.Containers...)
		grown.Spec.InitContainers = append([]api.Container{}, pod.Spec.InitContainers...)
		switch rapid.IntRange(0, 1).Draw(t, "where") {
		case 0:
			grown.Spec.Containers = append(grown.Spec.Containers, genContainer(t, "added", false))
		default:
			at := rapid.IntRange(0, len(grown.Spec.InitContainers)).Draw(t, "at")
			c := genContainer(t, "added", rapid.Bool().Draw(t, "added-sidecar"))
			grown.Spec.InitContainers = append(grown.Spec.InitContainers[:at], append([]api.Container{c}, grown.Spec.InitContainers[at:]...)...)
		}
		after := api.PodRequests(&grown, api.PodResourcesOptions{})
		if k, ok := atLeast(after, before); !ok {
			t.Fatalf("adding a container lowered %s: before %v, after %v", k, resourceStrings(before), resourceStrings(after))
		}
	})
}
