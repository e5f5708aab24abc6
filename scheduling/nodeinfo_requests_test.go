package scheduling

import (
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// nonZeroTwoPasses is the non-zero requests as the formula defines them:
// a second pass of PodRequests with the defaults for missing cpu and
// memory, whatever the containers request.
func nonZeroTwoPasses(pod *api.Pod) (cpu, mem int64) {
	opts := FitRequestOptions()
	reqs := api.PodRequests(pod, opts)
	nonMissing := api.ResourceList{}
	_, hasCPU := reqs[api.ResourceCPU]
	_, hasMem := reqs[api.ResourceMemory]
	podLevel := api.IsPodLevelRequestsSet(pod)
	if !podLevel || !hasCPU {
		nonMissing[api.ResourceCPU] = api.NewMilliQuantity(DefaultMilliCPURequest, api.DecimalSI)
	}
	if !podLevel || !hasMem {
		nonMissing[api.ResourceMemory] = api.NewQuantity(DefaultMemoryRequest, api.DecimalSI)
	}
	opts.NonMissingContainerRequests = nonMissing
	non0 := api.PodRequests(pod, opts)
	return non0.Cpu().MilliValue(), non0.Memory().Value()
}

// genRequests draws a request list that may lack cpu, memory or both.
func genRequests(t *rapid.T, label string) api.ResourceList {
	r := api.ResourceList{}
	if rapid.Bool().Draw(t, label+"-cpu") {
		r[api.ResourceCPU] = api.NewMilliQuantity(rapid.Int64Range(0, 4000).Draw(t, label+"-cpu-m"), api.DecimalSI)
	}
	if rapid.Bool().Draw(t, label+"-mem") {
		r[api.ResourceMemory] = api.NewQuantity(rapid.Int64Range(0, 1<<32).Draw(t, label+"-mem-b"), api.BinarySI)
	}
	if len(r) == 0 && rapid.Bool().Draw(t, label+"-nil") {
		return nil
	}
	return r
}

// TestSchedulerPodRequestsNonZero checks that skipping the second pass for
// pods whose containers all request cpu and memory gives the non-zero
// requests of the two-pass definition, over sidecars, init containers,
// in-place resize state (feasible or not), pod-level requests and
// overhead.
func TestSchedulerPodRequestsNonZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := &api.Pod{}
		always := api.RestartPolicyAlways
		for i := range rapid.IntRange(1, 3).Draw(t, "containers") {
			name := "app-" + string(rune('a'+i))
			pod.Spec.Containers = append(pod.Spec.Containers, api.Container{Name: name,
				Resources: api.ResourceRequirements{Requests: genRequests(t, name)}})
			if rapid.Bool().Draw(t, name+"-status") {
				pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, api.ContainerStatus{Name: name,
					Resources:          &api.ResourceRequirements{Requests: genRequests(t, name+"-actual")},
					AllocatedResources: genRequests(t, name+"-allocated")})
			}
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "inits") {
			name := "init-" + string(rune('a'+i))
			c := api.Container{Name: name, Resources: api.ResourceRequirements{Requests: genRequests(t, name)}}
			if rapid.Bool().Draw(t, name+"-sidecar") {
				c.RestartPolicy = &always
			}
			pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
		}
		if rapid.Bool().Draw(t, "infeasible") {
			pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: api.PodResizePending,
				Status: api.ConditionTrue, Reason: "Infeasible"})
		}
		if rapid.Bool().Draw(t, "pod-level") {
			pod.Spec.Resources = &api.ResourceRequirements{Requests: genRequests(t, "pod")}
		}
		if rapid.Bool().Draw(t, "overhead") {
			pod.Spec.Overhead = genRequests(t, "overhead")
		}
		_, cpu, mem := schedulerPodRequests(pod)
		wantCPU, wantMem := nonZeroTwoPasses(pod)
		if cpu != wantCPU || mem != wantMem {
			t.Fatalf("non-zero cpu %d memory %d, want %d %d", cpu, mem, wantCPU, wantMem)
		}
	})
}
