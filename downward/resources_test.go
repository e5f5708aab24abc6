package downward

import (
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
)

func q(s string) api.Quantity { return api.MustParseQuantity(s) }

func qp(s string) *api.Quantity {
	v := q(s)
	return &v
}

func rl(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = q(kv[i+1])
	}
	return out
}

func TestContainerResource(t *testing.T) {
	c := &api.Container{Name: "app", Resources: api.ResourceRequirements{
		Limits:   rl("cpu", "250m", "memory", "64Mi", "ephemeral-storage", "1Gi", "hugepages-2Mi", "6Mi"),
		Requests: rl("cpu", "125m", "memory", "32Mi", "hugepages-1Gi", "2Gi"),
	}}
	cases := []struct {
		resource, divisor, want string
	}{
		{"limits.cpu", "", "1"}, // 0.25 cores round up to 1
		{"limits.cpu", "1m", "250"},
		{"requests.cpu", "1m", "125"},
		{"requests.cpu", "100m", "2"}, // 125m / 100m = 1.25 → 2
		{"limits.memory", "1Mi", "64"},
		{"limits.memory", "", "67108864"},
		{"limits.memory", "1M", "68"}, // 67.108864 → 68
		{"requests.memory", "1Gi", "1"},
		{"limits.ephemeral-storage", "1G", "2"},
		{"requests.ephemeral-storage", "", "0"},
		{"limits.hugepages-2Mi", "1Mi", "6"},
		{"requests.hugepages-1Gi", "1Gi", "2"},
		{"limits.hugepages-1Gi", "", "0"},
		{"limits.hugepages-", "", "0"},
		{"limits.cpu", "0", "1"}, // a zero divisor means 1
	}
	for _, c2 := range cases {
		d := api.Quantity{}
		if c2.divisor != "" {
			d = q(c2.divisor)
		}
		got, err := ContainerResource(c, c2.resource, d)
		if err != nil || got != c2.want {
			t.Errorf("ContainerResource(%s, /%s) = %q, %v; want %q", c2.resource, c2.divisor, got, err, c2.want)
		}
	}
	for _, bad := range []string{"cpu", "requests.pods", "requests.memory.x", "limits.nvidia.com/gpu", ""} {
		if _, err := ContainerResource(c, bad, api.Quantity{}); !errors.Is(err, ErrUnsupportedResource) {
			t.Errorf("ContainerResource(%q): err %v, want ErrUnsupportedResource", bad, err)
		}
	}
	if _, err := ContainerResource(nil, "limits.cpu", api.Quantity{}); err == nil {
		t.Error("nil container: no error")
	}
}

func TestResourceFieldRefDefaulting(t *testing.T) {
	alloc := rl("cpu", "4", "memory", "8Gi", "ephemeral-storage", "100Gi", "pods", "110")
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p"},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{Name: "init"}},
			Containers: []api.Container{
				{Name: "app"},
				{Name: "sized", Resources: api.ResourceRequirements{Limits: rl("cpu", "500m", "memory", "0")}},
			},
			EphemeralContainers: []api.EphemeralContainer{{Container: api.Container{Name: "debug"}}},
		},
	}
	cases := []struct {
		name      string
		pod       *api.Pod
		container string
		ref       api.ResourceFieldSelector
		alloc     api.ResourceList
		want      string
		err       error
	}{
		{name: "unset memory limit → allocatable", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Mi")}, alloc: alloc, want: "8192"},
		{name: "no allocatable → as written", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Mi")}, want: "0"},
		{name: "zero limit counts as unset", container: "sized", ref: api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Gi")}, alloc: alloc, want: "8"},
		{name: "set limit kept", container: "sized", ref: api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("1m")}, alloc: alloc, want: "500"},
		{name: "ephemeral-storage defaulted", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.ephemeral-storage", Divisor: qp("1Gi")}, alloc: alloc, want: "100"},
		{name: "requests never defaulted", container: "app", ref: api.ResourceFieldSelector{Resource: "requests.cpu"}, alloc: alloc, want: "0"},
		{name: "hugepages never defaulted", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.hugepages-2Mi"}, alloc: alloc, want: "0"},
		{name: "resource the node lacks stays 0", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.cpu"}, alloc: rl("memory", "1Gi"), want: "0"},
		{name: "other regular container defaulted", container: "init", ref: api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu"}, alloc: alloc, want: "4"},
		{name: "named init container not defaulted", container: "app", ref: api.ResourceFieldSelector{ContainerName: "init", Resource: "limits.cpu"}, alloc: alloc, want: "0"},
		{name: "starting init container defaulted", container: "init", ref: api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("1m")}, alloc: alloc, want: "4000"},
		{name: "starting ephemeral container defaulted", container: "debug", ref: api.ResourceFieldSelector{Resource: "limits.cpu"}, alloc: alloc, want: "4"},
		{name: "missing named container", container: "app", ref: api.ResourceFieldSelector{ContainerName: "missing", Resource: "limits.cpu"}, alloc: alloc, err: ErrContainerNotFound},
		{name: "ephemeral container cannot be named", container: "app", ref: api.ResourceFieldSelector{ContainerName: "debug", Resource: "limits.cpu"}, alloc: alloc, err: ErrContainerNotFound},
		{name: "missing starting container", container: "ghost", ref: api.ResourceFieldSelector{Resource: "limits.cpu"}, err: ErrContainerNotFound},
		{name: "unsupported resource", container: "app", ref: api.ResourceFieldSelector{Resource: "limits.nvidia.com/gpu"}, alloc: alloc, err: ErrUnsupportedResource},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pod
			if c.pod != nil {
				p = c.pod
			}
			got, err := ResourceFieldRef(p, c.container, c.ref, c.alloc)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("got %q, %v; want error %v", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	// The pod is never modified.
	if pod.Spec.Containers[0].Resources.Limits != nil {
		t.Error("ResourceFieldRef wrote limits into the pod")
	}
}

func TestResourceFieldRefPodLevelLimits(t *testing.T) {
	alloc := rl("cpu", "4", "memory", "8Gi")
	pod := &api.Pod{Spec: api.PodSpec{
		Resources:  &api.ResourceRequirements{Limits: rl("cpu", "1500m", "memory", "0")},
		Containers: []api.Container{{Name: "app"}},
	}}
	got, err := ResourceFieldRef(pod, "app", api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("1m")}, alloc)
	if err != nil || got != "1500" {
		t.Errorf("pod-level cpu: %q, %v; want 1500", got, err)
	}
	got, err = ResourceFieldRef(pod, "app", api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Gi")}, alloc)
	if err != nil || got != "8" {
		t.Errorf("zero pod-level memory falls back to allocatable: %q, %v; want 8", got, err)
	}
	got, err = ResourceFieldRef(pod, "app", api.ResourceFieldSelector{Resource: "limits.cpu"}, rl("memory", "1Gi"))
	if err != nil || got != "0" {
		t.Errorf("pod-level cpu on a node without cpu: %q, %v; want 0", got, err)
	}
}

func TestResourceFloatRounding(t *testing.T) {
	// Upstream divides in float64: 2^53+1 bytes with divisor 1 prints
	// 2^53 (the float rounds), not 9007199254740993.
	c := &api.Container{Resources: api.ResourceRequirements{Limits: rl("memory", "9007199254740993")}}
	got, err := ContainerResource(c, "limits.memory", api.Quantity{})
	if err != nil || got != "9007199254740992" {
		t.Errorf("got %q, %v", got, err)
	}
}
