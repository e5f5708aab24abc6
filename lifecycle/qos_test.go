package lifecycle

import (
	"testing"

	"github.com/podsem/podsem/api"
)

func rl(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return l
}

func res(requests, limits api.ResourceList) api.ResourceRequirements {
	return api.ResourceRequirements{Requests: requests, Limits: limits}
}

func TestQOSClass(t *testing.T) {
	guaranteed := res(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi"))
	tests := []struct {
		name     string
		spec     api.PodSpec
		defaults bool
		want     api.PodQOSClass
	}{
		{name: "nothing set", spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}}, want: api.PodQOSBestEffort},
		{name: "only extended resources", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(rl("example.com/gpu", "1"), rl("example.com/gpu", "1"))}}}, want: api.PodQOSBestEffort},
		{name: "zero quantities are ignored", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(rl("cpu", "0"), nil)}}}, want: api.PodQOSBestEffort},
		{name: "requests equal limits", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: guaranteed}}}, want: api.PodQOSGuaranteed},
		{name: "1000m equals 1", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(rl("cpu", "1000m", "memory", "1Gi"), rl("cpu", "1", "memory", "1024Mi"))}}}, want: api.PodQOSGuaranteed},
		{name: "limits only, not defaulted", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(nil, rl("cpu", "1", "memory", "1Gi"))}}}, want: api.PodQOSBurstable},
		{name: "limits only, defaulted", defaults: true, spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(nil, rl("cpu", "1", "memory", "1Gi"))}}}, want: api.PodQOSGuaranteed},
		{name: "missing memory limit", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: res(rl("cpu", "1"), rl("cpu", "1"))}}}, want: api.PodQOSBurstable},
		{name: "one guaranteed, one best-effort", spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: guaranteed}, {Name: "b"}}}, want: api.PodQOSBurstable},
		{name: "init container counts", spec: api.PodSpec{InitContainers: []api.Container{{Name: "i", Resources: res(rl("memory", "1Gi"), nil)}}, Containers: []api.Container{{Name: "a"}}}, want: api.PodQOSBurstable},
		{name: "pod-level resources decide alone", spec: api.PodSpec{
			Resources:  &api.ResourceRequirements{Requests: rl("cpu", "2", "memory", "2Gi"), Limits: rl("cpu", "2", "memory", "2Gi")},
			Containers: []api.Container{{Name: "a", Resources: res(rl("cpu", "100m"), nil)}}}, want: api.PodQOSGuaranteed},
		{name: "empty pod-level resources", spec: api.PodSpec{Resources: &api.ResourceRequirements{},
			Containers: []api.Container{{Name: "a", Resources: guaranteed}}}, want: api.PodQOSBestEffort},
		{name: "pod-level requests only", spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("cpu", "1")},
			Containers: []api.Container{{Name: "a"}}}, want: api.PodQOSBurstable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &api.Pod{Spec: tc.spec}
			if tc.defaults {
				api.DefaultPod(pod)
			}
			if got := QOSClass(pod); got != tc.want {
				t.Errorf("QOSClass = %s, want %s", got, tc.want)
			}
			if got := GetPodQOS(pod); got != tc.want {
				t.Errorf("GetPodQOS = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestGetPodQOSPrefersStatus(t *testing.T) {
	pod := &api.Pod{Status: api.PodStatus{QOSClass: api.PodQOSGuaranteed}}
	if got := GetPodQOS(pod); got != api.PodQOSGuaranteed {
		t.Errorf("GetPodQOS = %s, want the recorded Guaranteed", got)
	}
	if got := QOSClass(pod); got != api.PodQOSBestEffort {
		t.Errorf("QOSClass = %s, want BestEffort", got)
	}
}
