package scheduling

import (
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
)

// admissionBenchNode is a kubelet's node with n pods running: most
// request cpu and memory in one container, every fifth has a sidecar and
// an init container, every tenth binds a host port; the incoming pod
// requests cpu and memory, binds a host port and selects the node by
// label.
func admissionBenchNode(n int) (*api.Pod, *api.Node, []*api.Pod) {
	node := &api.Node{}
	node.Name = "node-1"
	node.Labels = map[string]string{api.LabelHostname: "node-1", "pool": "web"}
	node.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.MustParseQuantity("64"),
		api.ResourceMemory: api.MustParseQuantity("256Gi"),
		api.ResourcePods:   api.MustParseQuantity("250"),
	}
	req := func(cpu, mem string) api.ResourceRequirements {
		return api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU: api.MustParseQuantity(cpu), api.ResourceMemory: api.MustParseQuantity(mem)}}
	}
	always := api.RestartPolicyAlways
	pods := make([]*api.Pod, n)
	for i := range pods {
		p := &api.Pod{}
		p.Namespace, p.Name = "default", "p"+strconv.Itoa(i)
		p.Spec.NodeName = "node-1"
		p.Spec.Containers = []api.Container{{Name: "app", Resources: req("250m", "512Mi")}}
		if i%5 == 0 {
			p.Spec.InitContainers = []api.Container{
				{Name: "setup", Resources: req("1", "1Gi")},
				{Name: "proxy", RestartPolicy: &always, Resources: req("100m", "64Mi")},
			}
		}
		if i%10 == 0 {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 8080, HostPort: int32(10000 + i)}}
		}
		pods[i] = p
	}
	pod := &api.Pod{}
	pod.Namespace, pod.Name = "default", "web"
	pod.Spec.NodeName = "node-1"
	pod.Spec.NodeSelector = map[string]string{"pool": "web"}
	pod.Spec.Containers = []api.Container{{Name: "web", Resources: req("500m", "1Gi"),
		Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 80}}}}
	return pod, node, pods
}

// BenchmarkAdmissionCheck is the kubelet's admission of one pod on a node
// with 10 and 110 pods running (lifecycle.Admit calls it for every pod).
func BenchmarkAdmissionCheck(b *testing.B) {
	for _, n := range []int{10, 110} {
		b.Run("pods="+strconv.Itoa(n), func(b *testing.B) {
			pod, node, pods := admissionBenchNode(n)
			b.ReportAllocs()
			for b.Loop() {
				fails, err := AdmissionCheck(pod, node, pods)
				if err != nil || len(fails) != 0 {
					b.Fatalf("got %v, %v", fails, err)
				}
			}
		})
	}
}

// BenchmarkPodRequestsOnePod is the cost of the request formula alone for
// one pod of BenchmarkAdmissionCheck's node.
func BenchmarkPodRequestsOnePod(b *testing.B) {
	_, _, pods := admissionBenchNode(10)
	for _, i := range []int{1, 0} {
		b.Run("pod="+strconv.Itoa(i), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = api.PodRequests(pods[i], FitRequestOptions())
			}
		})
	}
}
