package scheduling

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// admissionCheckReference is AdmissionCheck as it was built before it
// summed the node's pods itself: a one-node Cluster over copies of the
// pods, and the plugins' filters on it. TestAdmissionCheckMatchesCluster
// holds the two to the same answers.
func admissionCheckReference(pod *api.Pod, node *api.Node, pods []*api.Pod) ([]AdmissionFailure, error) {
	if pod == nil {
		return nil, fmt.Errorf("%w: admission check: pod: nil", errInvalidInput)
	}
	if node == nil {
		return nil, fmt.Errorf("%w: admission check: node: nil", errInvalidInput)
	}
	placed := make([]*api.Pod, len(pods))
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: admission check: pods[%d]: nil", errInvalidInput, i)
		}
		// A copy named by its position, bound to the node: the check reads
		// only requests and host ports, and the kubelet's pods need not
		// have unique names or name the node.
		q := *p
		q.Namespace, q.Name, q.Spec.NodeName = "", "pod-"+strconv.Itoa(i), node.Name
		placed[i] = &q
	}
	c, err := NewCluster([]*api.Node{node}, placed, Config{})
	if err != nil {
		return nil, fmt.Errorf("admission check: %w", err)
	}
	n := c.NodeAt(0)
	in := newIncomingPodInfo(pod)
	view := nodeView{info: n}
	var out []AdmissionFailure

	fit := newFitPlugin(&c.cfg, in)
	if st := fit.filter(&view); !st.IsSuccess() {
		for i := range st.Insufficient {
			r := st.Insufficient[i]
			out = append(out, AdmissionFailure{Plugin: PluginNodeResourcesFit, Reason: r.Reason, Insufficient: &r})
		}
	}
	affinity, _ := newRequiredNodeAffinity(pod) // invalid terms match nothing, as upstream
	if !affinity.match(node) {
		out = append(out, AdmissionFailure{Plugin: PluginNodeAffinity, Reason: ReasonNodeAffinity})
	}
	name := newNodeNamePlugin(in)
	if !name.fits(&view) {
		out = append(out, AdmissionFailure{Plugin: PluginNodeName, Reason: ReasonNodeName})
	}
	ports := newNodePortsPlugin(in)
	if !ports.fits(&view) {
		out = append(out, AdmissionFailure{Plugin: PluginNodePorts, Reason: ReasonNodePorts})
	}
	return out, nil
}

// genAdmissionAmount draws an amount of a resource: mostly small, now and
// then near the int64 range, so that sums saturate.
func genAdmissionAmount(t *rapid.T, label string, milli bool) api.Quantity {
	v := rapid.OneOf(rapid.Int64Range(0, 4000), rapid.Int64Range(math.MaxInt64/4, math.MaxInt64/2)).Draw(t, label)
	if milli {
		return api.NewMilliQuantity(v, api.DecimalSI)
	}
	return api.NewQuantity(v, api.DecimalSI)
}

// admissionResources are the resources the property's pods and nodes
// name: the fixed ones, an extended resource, huge pages, and a resource
// the scheduler does not account.
var admissionResources = []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage,
	"example.com/gpu", "hugepages-2Mi", "example.com/other"}

func genAdmissionList(t *rapid.T, label string) api.ResourceList {
	if rapid.IntRange(0, 5).Draw(t, label+"-nil") == 0 {
		return nil
	}
	l := api.ResourceList{}
	for _, res := range admissionResources {
		if rapid.Bool().Draw(t, label+"-has-"+string(res)) {
			l[res] = genAdmissionAmount(t, label+"-"+string(res), res == api.ResourceCPU)
		}
	}
	return l
}

func genAdmissionPorts(t *rapid.T, label string) []api.ContainerPort {
	var out []api.ContainerPort
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-ports") {
		l := label + "-port-" + strconv.Itoa(i)
		out = append(out, api.ContainerPort{
			ContainerPort: 80,
			HostPort:      int32(rapid.IntRange(-1, 3).Draw(t, l)),
			HostIP:        rapid.SampledFrom([]string{"", "0.0.0.0", "10.0.0.1", "10.0.0.2"}).Draw(t, l+"-ip"),
			Protocol:      rapid.SampledFrom([]api.Protocol{"", api.ProtocolTCP, api.ProtocolUDP}).Draw(t, l+"-proto"),
		})
	}
	return out
}

// genAdmissionPod draws a pod with containers, init containers and
// sidecars, host ports, in-place resize state, pod-level requests,
// overhead, a nodeSelector, required node affinity and a node name.
func genAdmissionPod(t *rapid.T, label string) *api.Pod {
	p := &api.Pod{}
	p.Namespace, p.Name = "default", label
	always := api.RestartPolicyAlways
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-containers") {
		name := label + "-app-" + strconv.Itoa(i)
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: name,
			Resources: api.ResourceRequirements{Requests: genAdmissionList(t, name)},
			Ports:     genAdmissionPorts(t, name)})
		if rapid.IntRange(0, 3).Draw(t, name+"-status") == 0 {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: name,
				Resources:          &api.ResourceRequirements{Requests: genAdmissionList(t, name+"-actual")},
				AllocatedResources: genAdmissionList(t, name+"-allocated")})
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-inits") {
		name := label + "-init-" + strconv.Itoa(i)
		c := api.Container{Name: name, Resources: api.ResourceRequirements{Requests: genAdmissionList(t, name)},
			Ports: genAdmissionPorts(t, name)}
		if rapid.Bool().Draw(t, name+"-sidecar") {
			c.RestartPolicy = &always
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if rapid.IntRange(0, 5).Draw(t, label+"-infeasible") == 0 {
		p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodResizePending,
			Status: api.ConditionTrue, Reason: "Infeasible"})
	}
	if rapid.IntRange(0, 4).Draw(t, label+"-pod-level") == 0 {
		p.Spec.Resources = &api.ResourceRequirements{Requests: genAdmissionList(t, label+"-pod")}
		if rapid.Bool().Draw(t, label+"-pod-status") {
			p.Status.Resources = &api.ResourceRequirements{Requests: genAdmissionList(t, label+"-pod-actual")}
		}
	}
	if rapid.IntRange(0, 4).Draw(t, label+"-overhead") == 0 {
		p.Spec.Overhead = genAdmissionList(t, label+"-overhead")
	}
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2"}).Draw(t, label+"-node")
	if rapid.Bool().Draw(t, label+"-selector") {
		p.Spec.NodeSelector = map[string]string{"zone": rapid.SampledFrom([]string{"a", "b"}).Draw(t, label+"-zone")}
	}
	if rapid.IntRange(0, 3).Draw(t, label+"-affinity") == 0 {
		op := rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn,
			api.NodeSelectorOpExists, api.NodeSelectorOpGt}).Draw(t, label+"-op")
		req := api.NodeSelectorRequirement{Key: "zone", Operator: op}
		if op != api.NodeSelectorOpExists {
			req.Values = []string{rapid.SampledFrom([]string{"a", "1", "x y"}).Draw(t, label+"-value")}
		}
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{req}}}}}}
	}
	return p
}

// TestAdmissionCheckMatchesCluster checks AdmissionCheck against the
// one-node Cluster it used to build, over random pods and nodes: the same
// failures (plugins, reasons, numbers) and the same errors.
func TestAdmissionCheckMatchesCluster(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		node := &api.Node{}
		node.Name = rapid.SampledFrom([]string{"node-1", "node-2", ""}).Draw(t, "node-name")
		if rapid.Bool().Draw(t, "node-zone") {
			node.Labels = map[string]string{"zone": rapid.SampledFrom([]string{"a", "b", "1", "2"}).Draw(t, "zone")}
		}
		node.Status.Allocatable = genAdmissionList(t, "allocatable")
		if rapid.Bool().Draw(t, "node-pods") {
			if node.Status.Allocatable == nil {
				node.Status.Allocatable = api.ResourceList{}
			}
			node.Status.Allocatable[api.ResourcePods] = api.NewQuantity(rapid.Int64Range(0, 6).Draw(t, "max-pods"), api.DecimalSI)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 6).Draw(t, "pods") {
			if rapid.IntRange(0, 30).Draw(t, fmt.Sprintf("nil-%d", i)) == 0 {
				pods = append(pods, nil)
				continue
			}
			p := genAdmissionPod(t, "pod-"+strconv.Itoa(i))
			if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("same-name-%d", i)) == 0 {
				p.Name = "pod-0"
			}
			pods = append(pods, p)
		}
		pod := genAdmissionPod(t, "new")
		got, gotErr := AdmissionCheck(pod, node, pods)
		want, wantErr := admissionCheckReference(pod, node, pods)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, want %v", gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("failures\n%s\nwant\n%s", admissionString(got), admissionString(want))
		}
	})
}

func admissionString(fails []AdmissionFailure) string {
	s := ""
	for _, f := range fails {
		s += fmt.Sprintf("%s: %s", f.Plugin, f.Reason)
		if f.Insufficient != nil {
			s += fmt.Sprintf(" %+v", *f.Insufficient)
		}
		s += "\n"
	}
	return s
}
