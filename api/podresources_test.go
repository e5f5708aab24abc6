package api

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestPodRequestsSidecars(t *testing.T) {
	q := MustParseQuantity
	always := RestartPolicyAlways
	cpu := func(v string) ResourceRequirements {
		return ResourceRequirements{Requests: ResourceList{ResourceCPU: q(v)}, Limits: ResourceList{ResourceCPU: q(v)}}
	}
	// sidecar 1 (200m), init 1 (1), sidecar 2 (300m), init 2 (400m), app 500m.
	// Init phase peaks: 200m+1 = 1.2, 200m+300m+400m = 900m; running: 500+200+300 = 1.
	pod := &Pod{Spec: PodSpec{
		InitContainers: []Container{
			{Name: "s1", RestartPolicy: &always, Resources: cpu("200m")},
			{Name: "i1", Resources: cpu("1")},
			{Name: "s2", RestartPolicy: &always, Resources: cpu("300m")},
			{Name: "i2", Resources: cpu("400m")},
		},
		Containers: []Container{{Name: "app", Resources: cpu("500m")}},
		Overhead:   ResourceList{ResourceCPU: q("10m"), ResourceMemory: q("64Mi")},
	}}
	req := PodRequests(pod, PodResourcesOptions{})
	if got := req.Cpu(); got.Cmp(q("1210m")) != 0 {
		t.Errorf("requests cpu = %s, want 1210m", got.String())
	}
	if got := req.Memory(); got.Cmp(q("64Mi")) != 0 {
		t.Errorf("overhead memory is added to requests: %s", got.String())
	}
	lim := PodLimits(pod, PodResourcesOptions{})
	if got := lim.Cpu(); got.Cmp(q("1210m")) != 0 {
		t.Errorf("limits cpu = %s", got.String())
	}
	if _, ok := lim[ResourceMemory]; ok {
		t.Errorf("overhead is added to limits only where a non-zero limit exists")
	}
}

func TestPodLevelResourcesReplaceOnlyWhatTheyName(t *testing.T) {
	q := MustParseQuantity
	pod := &Pod{Spec: PodSpec{
		Resources: &ResourceRequirements{Requests: ResourceList{ResourceCPU: q("3"), "example.com/gpu": q("9")}},
		Containers: []Container{{Name: "a", Resources: ResourceRequirements{Requests: ResourceList{
			ResourceCPU: q("1"), ResourceMemory: q("1Gi"), "example.com/gpu": q("1"),
		}}}},
	}}
	req := PodRequests(pod, PodResourcesOptions{})
	if got := req.Cpu(); got.Cmp(q("3")) != 0 {
		t.Errorf("cpu = %s, want the pod-level 3", got.String())
	}
	if got := req.Memory(); got.Cmp(q("1Gi")) != 0 {
		t.Errorf("memory = %s, want the container's 1Gi", got.String())
	}
	if got := req["example.com/gpu"]; got.Cmp(q("1")) != 0 {
		t.Errorf("extended resources are not pod-level resources: %s", got.String())
	}
}

// Effective requests are at least every single container's request, and
// adding a container never lowers them.
func TestPodRequestsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		always := RestartPolicyAlways
		gen := rapid.Custom(func(t *rapid.T) Container {
			c := Container{Name: "c", Resources: ResourceRequirements{Requests: ResourceList{
				ResourceCPU: NewMilliQuantity(rapid.Int64Range(0, 4000).Draw(t, "cpu"), DecimalSI),
			}}}
			if rapid.Bool().Draw(t, "sidecar") {
				c.RestartPolicy = &always
			}
			return c
		})
		inits := rapid.SliceOfN(gen, 0, 5).Draw(t, "inits")
		apps := rapid.SliceOfN(gen, 1, 5).Draw(t, "apps")
		for i := range apps {
			apps[i].RestartPolicy = nil
		}
		pod := &Pod{Spec: PodSpec{InitContainers: inits, Containers: apps}}
		total := PodRequests(pod, PodResourcesOptions{}).Cpu()
		for _, c := range append(append([]Container{}, inits...), apps...) {
			if c.Resources.Requests.Cpu().Cmp(total) > 0 {
				t.Fatalf("container %v exceeds the pod total %v", c.Resources.Requests.Cpu(), total)
			}
		}
		extra := gen.Draw(t, "extra")
		extra.RestartPolicy = nil
		bigger := &Pod{Spec: PodSpec{InitContainers: inits, Containers: append(append([]Container{}, apps...), extra)}}
		if PodRequests(bigger, PodResourcesOptions{}).Cpu().Cmp(total) < 0 {
			t.Fatalf("adding an app container lowered the requests")
		}
		withInit := &Pod{Spec: PodSpec{InitContainers: append(append([]Container{}, inits...), extra), Containers: apps}}
		if PodRequests(withInit, PodResourcesOptions{}).Cpu().Cmp(total) < 0 {
			t.Fatalf("adding an init container lowered the requests")
		}
	})
}

// TestPodLevelLimitsInfeasibleResize pins how pod-level limits resolve when
// the resize is Infeasible and the pod status reports resources: the
// actuated status.resources.limits alone count, except that an absent
// limits list (nil, unlike an empty {}) leaves the spec limits in force.
func TestPodLevelLimitsInfeasibleResize(t *testing.T) {
	q := MustParseQuantity
	opts := PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}
	infeasible := []PodCondition{{Type: PodResizePending, Status: ConditionTrue, Reason: "Infeasible"}}
	for _, tc := range []struct {
		name       string
		status     *ResourceRequirements
		conditions []PodCondition
		wantCPU    string // "" means absent
	}{
		{"infeasible, status limits absent: spec kept", &ResourceRequirements{Requests: ResourceList{"pods": q("2")}}, infeasible, "1"},
		{"infeasible, status reports {} limits: zero", &ResourceRequirements{Limits: ResourceList{}}, infeasible, "0"},
		{"infeasible, status limits name other resource: zero", &ResourceRequirements{Limits: ResourceList{ResourceMemory: q("1Gi")}}, infeasible, "0"},
		{"infeasible, status limits lower: actuated", &ResourceRequirements{Limits: ResourceList{ResourceCPU: q("500m")}}, infeasible, "500m"},
		{"feasible, status limits absent: spec", &ResourceRequirements{}, nil, "1"},
		{"feasible, status limits higher: larger", &ResourceRequirements{Limits: ResourceList{ResourceCPU: q("2")}}, nil, "2"},
	} {
		pod := &Pod{
			Spec: PodSpec{
				Resources:  &ResourceRequirements{Limits: ResourceList{ResourceCPU: q("1")}},
				Containers: []Container{{Name: "c"}},
			},
			Status: PodStatus{Resources: tc.status, Conditions: tc.conditions},
		}
		got, ok := PodLimits(pod, opts)[ResourceCPU]
		if !ok || got.Cmp(q(tc.wantCPU)) != 0 {
			t.Errorf("%s: cpu limit = %s (present %v), want %s", tc.name, got.String(), ok, tc.wantCPU)
		}
	}
}

// TestResizeStatusLookup pins which container status the resize-aware
// computation reads when names repeat across or within the status lists:
// an init container status beats a regular one of the same name, and a
// later entry beats an earlier one, even when the winner reports no
// resources.
func TestResizeStatusLookup(t *testing.T) {
	q := MustParseQuantity
	always := RestartPolicyAlways
	opts := PodResourcesOptions{UseStatusResources: true}
	withReq := func(name, mem string) ContainerStatus {
		return ContainerStatus{Name: name, Resources: &ResourceRequirements{Requests: ResourceList{ResourceMemory: q(mem)}}}
	}
	bare := func(name string) ContainerStatus { return ContainerStatus{Name: name} }
	for _, tc := range []struct {
		name          string
		regular, init []ContainerStatus
		wantMem       string // "" means absent
	}{
		{"regular status only", []ContainerStatus{withReq("s", "2Gi")}, nil, "2Gi"},
		{"init status beats regular status", []ContainerStatus{withReq("s", "2Gi")}, []ContainerStatus{withReq("s", "3Gi")}, "3Gi"},
		{"init status without resources still wins: spec", []ContainerStatus{withReq("s", "2Gi")}, []ContainerStatus{bare("s")}, "1Gi"},
		{"later duplicate wins", []ContainerStatus{withReq("s", "3Gi"), withReq("s", "2Gi")}, nil, "2Gi"},
		{"later duplicate without resources wins: spec", []ContainerStatus{withReq("s", "3Gi"), bare("s")}, nil, "1Gi"},
	} {
		pod := &Pod{
			Spec: PodSpec{InitContainers: []Container{{Name: "s", RestartPolicy: &always,
				Resources: ResourceRequirements{Requests: ResourceList{ResourceMemory: q("1Gi")}}}}},
			Status: PodStatus{ContainerStatuses: tc.regular, InitContainerStatuses: tc.init},
		}
		got := PodRequests(pod, opts)[ResourceMemory]
		if got.Cmp(q(tc.wantMem)) != 0 {
			t.Errorf("%s: memory request = %s, want %s", tc.name, got.String(), tc.wantMem)
		}
	}
}

// TestPodRequestsOfHugeQuantitiesDoNotWrap: requests are summed exactly
// (Quantity arithmetic falls back to math/big past int64), so containers of
// 2^62 cpu add up to 2^63 cpu, and MilliValue saturates at MaxInt64 instead
// of wrapping around as resource.Quantity's int64 conversion does.
func TestPodRequestsOfHugeQuantitiesDoNotWrap(t *testing.T) {
	huge := MustParseQuantity("4611686018427387904")
	pod := &Pod{Spec: PodSpec{Containers: []Container{
		{Name: "a", Resources: ResourceRequirements{Requests: ResourceList{ResourceCPU: huge, ResourceMemory: huge}}},
		{Name: "b", Resources: ResourceRequirements{Requests: ResourceList{ResourceCPU: huge, ResourceMemory: huge}}},
	}, Overhead: ResourceList{ResourceMemory: huge}}}
	reqs := PodRequests(pod, PodResourcesOptions{})
	if got := reqs.Cpu().String(); got != "9223372036854775808" {
		t.Errorf("cpu = %s, want 2^63", got)
	}
	if got := reqs.Cpu().MilliValue(); got != math.MaxInt64 {
		t.Errorf("cpu MilliValue = %d, want MaxInt64", got)
	}
	if got := reqs.Memory().Value(); got != math.MaxInt64 {
		t.Errorf("memory Value = %d, want MaxInt64", got)
	}
	if got := huge.Neg().Sub(huge).Sub(huge).Value(); got != math.MinInt64 {
		t.Errorf("-3·2^62 Value = %d, want MinInt64", got)
	}
}
