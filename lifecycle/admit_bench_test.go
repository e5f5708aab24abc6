package lifecycle_test

import (
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// BenchmarkAdmit admits a pod on a full-size kubelet node: 109 pods
// running (the default maxPods is 110), host ports and a NoExecute taint
// to check, the scheduler's predicates over all of them.
func BenchmarkAdmit(b *testing.B) {
	node := admitNode()
	node.Status.Allocatable[api.ResourceCPU] = api.MustParseQuantity("64")
	node.Status.Allocatable[api.ResourceMemory] = api.MustParseQuantity("256Gi")
	node.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "batch", Effect: api.TaintEffectNoExecute}}
	var pods []*api.Pod
	for i := range 109 {
		p := admitPod("p"+strconv.Itoa(i), "250m", "512Mi")
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 8080, HostPort: int32(10000 + i)}}
		pods = append(pods, p)
	}
	pod := admitPod("web", "500m", "1Gi")
	pod.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	pod.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 80}}
	in := lifecycle.AdmitInput{Node: node, Pod: pod, Pods: pods}
	b.ReportAllocs()
	for b.Loop() {
		r, err := lifecycle.Admit(in)
		if err != nil || !r.Admit {
			b.Fatalf("got %+v, %v", r, err)
		}
	}
}
