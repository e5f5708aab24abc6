package api

import (
	"testing"
)

func rl(kv ...string) ResourceList {
	l := ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[ResourceName(kv[i])] = MustParseQuantity(kv[i+1])
	}
	return l
}

func res(requests, limits ResourceList) ResourceRequirements {
	return ResourceRequirements{Requests: requests, Limits: limits}
}

func TestComputePodQOS(t *testing.T) {
	guaranteed := res(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi"))
	tests := []struct {
		name     string
		spec     PodSpec
		defaults bool
		want     PodQOSClass
	}{
		{name: "nothing set", spec: PodSpec{Containers: []Container{{Name: "a"}}}, want: PodQOSBestEffort},
		{name: "only extended resources", spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(rl("example.com/gpu", "1"), rl("example.com/gpu", "1"))}}}, want: PodQOSBestEffort},
		{name: "zero quantities are ignored", spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(rl("cpu", "0"), nil)}}}, want: PodQOSBestEffort},
		{name: "requests equal limits", spec: PodSpec{Containers: []Container{{Name: "a", Resources: guaranteed}}}, want: PodQOSGuaranteed},
		{name: "1000m equals 1", spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(rl("cpu", "1000m", "memory", "1Gi"), rl("cpu", "1", "memory", "1024Mi"))}}}, want: PodQOSGuaranteed},
		{name: "limits only, not defaulted", spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(nil, rl("cpu", "1", "memory", "1Gi"))}}}, want: PodQOSBurstable},
		{name: "limits only, defaulted", defaults: true, spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(nil, rl("cpu", "1", "memory", "1Gi"))}}}, want: PodQOSGuaranteed},
		{name: "missing memory limit", spec: PodSpec{Containers: []Container{{Name: "a", Resources: res(rl("cpu", "1"), rl("cpu", "1"))}}}, want: PodQOSBurstable},
		{name: "one guaranteed, one best-effort", spec: PodSpec{Containers: []Container{{Name: "a", Resources: guaranteed}, {Name: "b"}}}, want: PodQOSBurstable},
		{name: "init container counts", spec: PodSpec{InitContainers: []Container{{Name: "i", Resources: res(rl("memory", "1Gi"), nil)}}, Containers: []Container{{Name: "a"}}}, want: PodQOSBurstable},
		{name: "pod-level resources decide alone", spec: PodSpec{
			Resources:  &ResourceRequirements{Requests: rl("cpu", "2", "memory", "2Gi"), Limits: rl("cpu", "2", "memory", "2Gi")},
			Containers: []Container{{Name: "a", Resources: res(rl("cpu", "100m"), nil)}}}, want: PodQOSGuaranteed},
		{name: "empty pod-level resources", spec: PodSpec{Resources: &ResourceRequirements{},
			Containers: []Container{{Name: "a", Resources: guaranteed}}}, want: PodQOSBestEffort},
		{name: "pod-level requests only", spec: PodSpec{Resources: &ResourceRequirements{Requests: rl("cpu", "1")},
			Containers: []Container{{Name: "a"}}}, want: PodQOSBurstable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &Pod{Spec: tc.spec}
			if tc.defaults {
				DefaultPod(pod)
			}
			if got := ComputePodQOS(pod); got != tc.want {
				t.Errorf("ComputePodQOS = %s, want %s", got, tc.want)
			}
			if got := PodQOS(pod); got != tc.want {
				t.Errorf("PodQOS = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestPodQOSPrefersStatus(t *testing.T) {
	pod := &Pod{Status: PodStatus{QOSClass: PodQOSGuaranteed}}
	if got := PodQOS(pod); got != PodQOSGuaranteed {
		t.Errorf("PodQOS = %s, want the recorded Guaranteed", got)
	}
	if got := ComputePodQOS(pod); got != PodQOSBestEffort {
		t.Errorf("ComputePodQOS = %s, want BestEffort", got)
	}
}
