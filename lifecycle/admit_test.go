package lifecycle_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/lifecycle"
)

func TestAdmitBadInput(t *testing.T) {
	node := admitNode()
	pod := admitPod("web", "100m", "64Mi")
	for _, c := range []struct {
		in  lifecycle.AdmitInput
		arg string
	}{
		{lifecycle.AdmitInput{Pod: pod}, "node: nil"},
		{lifecycle.AdmitInput{Node: &api.Node{}, Pod: pod}, "metadata.name"},
		{lifecycle.AdmitInput{Node: node}, "pod: nil"},
		{lifecycle.AdmitInput{Node: node, Pod: pod, Pods: []*api.Pod{nil}}, "pods[0]"},
		{lifecycle.AdmitInput{Node: node, Pod: pod, Config: lifecycle.AdmitConfig{AllowedUnsafeSysctls: []string{"Net.core"}}},
			`allowedUnsafeSysctls[0]: invalid input: sysctl "Net.core" must have at most 253 characters and match regex`},
		{lifecycle.AdmitInput{Node: node, Pod: pod, Config: lifecycle.AdmitConfig{AllowedUnsafeSysctls: []string{"net.*", "vm.*"}}},
			`allowedUnsafeSysctls[1]: invalid input: the sysctls "vm." are not known to be namespaced`},
		{lifecycle.AdmitInput{Node: node, Pod: pod, Config: lifecycle.AdmitConfig{AllowedUnsafeSysctls: []string{"*"}}},
			`the sysctls "" are not known to be namespaced`},
	} {
		r, err := lifecycle.Admit(c.in)
		niltest.Zero(t, r)
		if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), c.arg) {
			t.Errorf("got error %v, want one wrapping api.ErrInvalidInput naming %q", err, c.arg)
		}
	}
}

// admitCase is one admission asked about node-1 (admitNode) with the pods
// already running there.
type admitCase struct {
	name   string
	pod    *api.Pod
	pods   []*api.Pod
	node   func(*api.Node)
	conds  []api.NodeConditionType
	cfg    lifecycle.AdmitConfig
	reason string // "" when admitted
	msg    string
}

func TestAdmit(t *testing.T) {
	critical := func(p *api.Pod) *api.Pod {
		prio := int32(api.SystemCriticalPriority)
		p.Spec.Priority = &prio
		return p
	}
	withLabels := func(p *api.Pod, l map[string]string) *api.Pod { p.Labels = l; return p }
	withSelector := func(p *api.Pod, s map[string]string) *api.Pod { p.Spec.NodeSelector = s; return p }
	sysctls := func(p *api.Pod, hostNet, hostIPC bool, names ...string) *api.Pod {
		p.Spec.HostNetwork, p.Spec.HostIPC = hostNet, hostIPC
		p.Spec.SecurityContext = &api.PodSecurityContext{}
		for _, n := range names {
			p.Spec.SecurityContext.Sysctls = append(p.Spec.SecurityContext.Sysctls, api.Sysctl{Name: n, Value: "1"})
		}
		return p
	}
	gpu := func(p *api.Pod, n string) *api.Pod {
		p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.MustParseQuantity(n)
		return p
	}
	small := func(name string) *api.Pod { return admitPod(name, "100m", "64Mi") }
	for _, c := range []admitCase{
		{name: "fits", pod: small("web"), pods: []*api.Pod{admitPod("a", "1", "1Gi")}},
		{name: "pods first, though cpu is short too", pod: admitPod("web", "3", "64Mi"),
			node:   func(n *api.Node) { n.Status.Allocatable[api.ResourcePods] = api.MustParseQuantity("1") },
			pods:   []*api.Pod{small("a")},
			reason: "OutOfpods", msg: "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1"},
		{name: "no pods in allocatable rejects every pod", pod: small("web"),
			node:   func(n *api.Node) { delete(n.Status.Allocatable, api.ResourcePods) },
			reason: "OutOfpods", msg: "Node didn't have enough resource: pods, requested: 1, used: 0, capacity: 0"},
		{name: "extended resource the node does not list is dropped", pod: gpu(small("web"), "2")},
		{name: "extended resource listed with 0 rejects", pod: gpu(small("web"), "2"),
			node:   func(n *api.Node) { n.Status.Allocatable["example.com/gpu"] = api.MustParseQuantity("0") },
			reason: "OutOfexample.com/gpu", msg: "Node didn't have enough resource: example.com/gpu, requested: 2, used: 0, capacity: 0"},
		{name: "pod label windows", pod: withLabels(small("web"), map[string]string{api.LabelOS: "windows"}),
			reason: "PodOSSelectorNodeLabelDoesNotMatch", msg: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"},
		{name: "pod label Linux is case-sensitive", pod: withLabels(small("web"), map[string]string{api.LabelOS: "Linux"}),
			node:   func(n *api.Node) { n.Labels = nil },
			reason: "PodOSSelectorNodeLabelDoesNotMatch", msg: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"},
		{name: "pod label linux on a node labeled windows", pod: withLabels(small("web"), map[string]string{api.LabelOS: "linux"}),
			node: func(n *api.Node) { n.Labels[api.LabelOS] = "windows" }},
		{name: "nodeSelector linux matches the kubelet's own label", pod: withSelector(small("web"), map[string]string{api.LabelOS: "linux"}),
			node: func(n *api.Node) { n.Labels[api.LabelOS] = "windows" }},
		{name: "nodeSelector windows passes on the re-read node", pod: withSelector(small("web"), map[string]string{api.LabelOS: "windows"}),
			node: func(n *api.Node) { n.Labels[api.LabelOS] = "windows" }},
		{name: "nodeSelector linux on a node without labels", pod: withSelector(small("web"), map[string]string{api.LabelOS: "linux"}),
			node:   func(n *api.Node) { n.Labels = nil },
			reason: "NodeAffinity", msg: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"},
		{name: "node affinity and cpu: the resource is reported", pod: withSelector(admitPod("web", "3", "64Mi"), map[string]string{"disktype": "ssd"}),
			reason: "OutOfcpu", msg: "Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000"},
		{name: "critical pod short of cpu with an affinity failure is refused for affinity",
			pod:    critical(withSelector(admitPod("web", "3", "64Mi"), map[string]string{"disktype": "ssd"})),
			pods:   []*api.Pod{small("a")},
			reason: "NodeAffinity", msg: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"},
		{name: "critical pod with nothing to preempt", pod: critical(admitPod("web", "3", "64Mi")),
			reason: "UnexpectedAdmissionError",
			msg:    "Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: no set of running pods found to reclaim resources: [(res: cpu, q: 1000), ]"},
		{name: "NoSchedule taints never block admission", pod: small("web"),
			node: func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoSchedule}} }},
		{name: "an untolerated NoExecute taint", pod: small("web"),
			node:   func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoExecute}} },
			reason: "TaintToleration", msg: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"},
		{name: "a static pod skips the taint check", pod: func() *api.Pod {
			p := small("web")
			p.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
			return p
		}(), node: func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoExecute}} }},
		{name: "spec.nodeName of another node", pod: func() *api.Pod { p := small("web"); p.Spec.NodeName = "node-2"; return p }(),
			reason: "NodeName", msg: "Predicate NodeName failed: node(s) didn't match the requested node name"},
		{name: "DiskPressure refuses before anything else", pod: withLabels(small("web"), map[string]string{api.LabelOS: "windows"}),
			conds:  []api.NodeConditionType{api.NodeDiskPressure},
			reason: api.PodStatusReasonEvicted, msg: "The node had condition: [DiskPressure]. "},
		{name: "safe sysctl in slash form", pod: sysctls(small("web"), false, false, "net/ipv4/ip_local_port_range")},
		{name: "safe net sysctl with hostNetwork", pod: sysctls(small("web"), true, false, "net.ipv4.tcp_syncookies"),
			reason: "SysctlForbidden", msg: `forbidden sysctl: "net.ipv4.tcp_syncookies" not allowed with host Net enabled`},
		{name: "allowed IPC sysctl with hostIPC", pod: sysctls(small("web"), false, true, "kernel.msgmax"),
			cfg:    lifecycle.AdmitConfig{AllowedUnsafeSysctls: []string{"kernel.msg*"}},
			reason: "SysctlForbidden", msg: `forbidden sysctl: "kernel.msgmax" not allowed with host IPC enabled`},
		{name: "tcp_rmem needs kernel 4.15", pod: sysctls(small("web"), false, false, "net.ipv4.tcp_rmem"),
			cfg:    lifecycle.AdmitConfig{KernelVersion: "4.14.10"},
			reason: "SysctlForbidden", msg: `forbidden sysctl: "net.ipv4.tcp_rmem" not allowlisted`},
		{name: "tcp_rmem on 4.15", pod: sysctls(small("web"), false, false, "net.ipv4.tcp_rmem"),
			cfg: lifecycle.AdmitConfig{KernelVersion: "4.15.0-213-generic"}},
		{name: "tcp_keepalive_time on an unknown kernel", pod: sysctls(small("web"), false, false, "net.ipv4.tcp_keepalive_time"),
			reason: "SysctlForbidden", msg: `forbidden sysctl: "net.ipv4.tcp_keepalive_time" not allowlisted`},
		{name: "supplementalGroupsPolicy Strict without node support", pod: func() *api.Pod {
			p := small("web")
			strict := "Strict"
			p.Spec.SecurityContext = &api.PodSecurityContext{SupplementalGroupsPolicy: &strict}
			return p
		}(), reason: "SupplementalGroupsPolicyNotSupported", msg: "SupplementalGroupsPolicy=Strict is not supported in this node"},
		{name: "spec.os windows", pod: func() *api.Pod { p := small("web"); p.Spec.OS = &api.PodOS{Name: api.Windows}; return p }(),
			reason: "PodOSNotSupported", msg: "Failed to admit pod as the OS field doesn't match node OS"},
	} {
		t.Run(c.name, func(t *testing.T) {
			node := admitNode()
			if c.node != nil {
				c.node(node)
			}
			r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: node, Pod: c.pod, Pods: c.pods, NodeConditions: c.conds, Config: c.cfg})
			if err != nil {
				t.Fatal(err)
			}
			if r.Admit != (c.reason == "") || r.Reason != c.reason || r.Message != c.msg {
				t.Fatalf("got admit %v, %s: %q; want %s: %q", r.Admit, r.Reason, r.Message, c.reason, c.msg)
			}
			if !r.Admit {
				want := api.PodStatus{Phase: api.PodFailed, Reason: c.reason, Message: "Pod was rejected: " + c.msg, QOSClass: api.PodQOS(c.pod)}
				if r.Status.Phase != want.Phase || r.Status.Reason != want.Reason || r.Status.Message != want.Message || r.Status.QOSClass != want.QOSClass {
					t.Errorf("status: got %+v, want %+v", r.Status, want)
				}
			}
		})
	}
}

// The kubelet's critical-pod preemption picks, class by class, the pods
// closest to what is missing: here one guaranteed pod would do, but the
// burstable and best-effort pods are taken first and suffice.
func TestAdmitPreemptionOrder(t *testing.T) {
	guaranteed := admitPod("guaranteed", "1", "1Gi")
	guaranteed.Spec.Containers[0].Resources.Limits = guaranteed.Spec.Containers[0].Resources.Requests
	bigBurstable := admitPod("big", "600m", "1Gi")
	smallBurstable := admitPod("small", "300m", "512Mi")
	bestEffort := admitPod("besteffort", "0", "0")
	bestEffort.Spec.Containers[0].Resources = api.ResourceRequirements{}
	critical := admitPod("critical", "500m", "64Mi")
	prio := int32(api.SystemCriticalPriority)
	critical.Spec.Priority = &prio
	node := admitNode()
	node.Status.Allocatable[api.ResourcePods] = api.MustParseQuantity("4")

	r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: node, Pod: critical,
		Pods: []*api.Pod{guaranteed, bigBurstable, smallBurstable, bestEffort}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range r.Preempted {
		got = append(got, v.Pod.Name)
	}
	// cpu: 1900m used of 2, 500m wanted: 400m to free; pods: 4 of 4, one
	// slot to free. The burstable pod "big" (600m) frees both at once.
	if !r.Admit || strings.Join(got, ",") != "big" {
		t.Errorf("got admit %v (%s), preempted %v; want big preempted", r.Admit, r.Message, got)
	}
}
