package cluster_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/termination"
)

// The node side's goldens (TestGolden replays them), as stories:
//
// memory-pressure: web's three pods, two on node-1. At 30 s node-1's
// memory.available reads 50Mi, below the default hard threshold (100Mi).
// The eviction manager's next pass (39 s, on the kubelet's 10-s cadence)
// records EvictionThresholdMet and evicts one pod (Evicted: Failed,
// DisruptionTarget TerminationByKubelet, its container stopped with the
// 1-s hard-eviction grace: exit 143); the node status update of the same
// tick posts MemoryPressure True (NodeHasInsufficientMemory) and the node
// lifecycle controller taints node-1 memory-pressure:NoSchedule; the
// ReplicaSet's replacement goes to node-2. The pod is cleaned up at once,
// so the next pass comes a second later and evicts the other pod; then
// passes every 10 s find the threshold met and nothing to evict. At 2 m
// memory.available reads 2Gi: the threshold no longer holds, and five
// minutes (the pressure transition period) after the last pass it held
// (1m51s) the condition clears at the pass of 6m51s, is posted at the
// status tick of 6m59s (NodeHasSufficientMemory), and the taint goes.
//
// memory-pressure-soft: eviction-soft memory.available<1Gi with a 1-m
// grace period; 800Mi from 30 s. MemoryPressure is posted at the first
// pass (39 s) but nothing is evicted until the threshold has held for its
// grace period (1m39s); the victim gets eviction-max-pod-grace-period
// (20 s, below its own 30 s).
//
// disk-pressure: node-2's nodefs.available at 8 % of its 100Gi
// ephemeral-storage (below nodefs.available<10 % and, on the node's one
// disk, imagefs.available<15 %): DiskPressure, the disk-pressure taint,
// its pod evicted and replaced on node-1; relieved at 1 m (50 %), cleared
// 5 minutes after the last pass it held.
//
// shutdown: shutdown-grace-period 30s (10s for critical pods). At 30 s
// node-1 shuts down: Shutdown, Ready False KubeletNotReady "node is
// shutting down" posted at once (NodeNotReady), the not-ready NoSchedule
// taint; the two web pods (one priority group; the critical group is
// empty) are killed: Failed, Terminated, DisruptionTarget; the ReplicaSet
// replaces them on node-2; the group stops at once, so the node powers
// off (silent): not-ready NoExecute at the next monitor pass, Unknown and
// unreachable taints after the 50-s grace, as after lose.
//
// shutdown-disabled: no shutdown-grace-period: node-1 just stops (as
// lose: its pods keep their last status until the node lifecycle
// controller marks them not ready). Restored at 2 m, the node boots: its
// pods' containers are found dead (137) and restarted a second later.
//
// kubelet-admission: pods bound to node-1 by spec.nodeName, refused by
// the kubelet's admission: big (3 CPUs on a 2-CPU node: OutOfcpu), tuned
// (sysctl kernel.msgmax not allowlisted: SysctlForbidden), and, once
// node-1 is under memory pressure, a BestEffort pod (Evicted: "The node
// had condition: [MemoryPressure]. ").
//
// kubelet-preemption: node-1 (2 CPUs) runs web-a (1 CPU) and web-b
// (800m). At 10 s node-agent, a system-node-critical pod asking 500m, is
// bound to node-1 by spec.nodeName: it does not fit (200m left), but a
// critical pod is not refused for resources. The kubelet's critical pod
// admission handler preempts the running pod whose request comes closest
// to the 300m missing (web-b): the Warning event Preempting, Killing, the
// pod Failed with reason Preempting and DisruptionTarget
// TerminationByKubelet "Pod was preempted by Kubelet to accommodate a
// critical pod."; node-agent is admitted and starts a second later.

// finalPods runs testdata/<name>.json and returns its pods at until.
func finalPods(t *testing.T, name string) []*api.Pod {
	t.Helper()
	var out []*api.Pod
	for _, o := range runObjects(t, name) {
		if p, ok := o.(*api.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// TestKubeletKillStatuses checks the statuses the kubelet's own kills
// leave in the API server: the eviction manager's (Failed, Evicted, the
// eviction message, DisruptionTarget TerminationByKubelet), the node
// shutdown manager's (Failed, Terminated, its message), and the
// admission's rejections (Failed, the handler's reason, "Pod was
// rejected: " and its message, no DisruptionTarget).
func TestKubeletKillStatuses(t *testing.T) {
	check := func(name, reason, message string, want int) {
		n := 0
		for _, p := range finalPods(t, name) {
			if p.Status.Reason != reason {
				continue
			}
			n++
			if p.Status.Phase != api.PodFailed || (message != "" && p.Status.Message != message) {
				t.Errorf("%s: pod %s: %s %q, want Failed %q", name, p.Name, p.Status.Phase, p.Status.Message, message)
			}
			c := api.FindCondition(p.Status.Conditions, api.DisruptionTarget)
			if c == nil || c.Status != api.ConditionTrue || c.Reason != api.PodReasonTerminationByKubelet || c.Message != p.Status.Message {
				t.Errorf("%s: pod %s: DisruptionTarget %+v", name, p.Name, c)
			}
			for _, cs := range p.Status.ContainerStatuses {
				if cs.State.Terminated == nil || cs.State.Terminated.ExitCode != 143 {
					t.Errorf("%s: pod %s: container %s not terminated by SIGTERM: %+v", name, p.Name, cs.Name, cs.State)
				}
			}
		}
		if n != want {
			t.Errorf("%s: %d pods with reason %s, want %d", name, n, reason, want)
		}
	}
	check("memory-pressure", api.PodStatusReasonEvicted, "", 2)
	check("memory-pressure-soft", api.PodStatusReasonEvicted, "The node was low on resource: memory. Threshold quantity: 1Gi, available: 800Mi. ", 1)
	check("shutdown", termination.ReasonNodeShutdown, termination.MessageNodeShutdown, 2)

	rejected := map[string]string{}
	for _, p := range finalPods(t, "kubelet-admission") {
		if p.Status.Phase != api.PodFailed || api.FindCondition(p.Status.Conditions, api.DisruptionTarget) != nil {
			t.Errorf("kubelet-admission: pod %s: %s, conditions %+v", p.Name, p.Status.Phase, p.Status.Conditions)
		}
		rejected[p.Name] = p.Status.Reason + ": " + p.Status.Message
	}
	for name, want := range map[string]string{
		"big":        "OutOfcpu: Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000",
		"tuned":      lifecycle.ReasonSysctlForbidden + `: Pod was rejected: forbidden sysctl: "kernel.msgmax" not allowlisted`,
		"besteffort": "Evicted: Pod was rejected: The node had condition: [MemoryPressure]. ",
	} {
		if rejected[name] != want {
			t.Errorf("kubelet-admission: pod %s: %q, want %q", name, rejected[name], want)
		}
	}
}

// TestKubeletPreemption checks what the critical pod admission handler
// leaves in the API server: the preempted pod Failed with its reason,
// message and DisruptionTarget condition, its container stopped by
// SIGTERM; the other pod untouched; the critical pod running.
func TestKubeletPreemption(t *testing.T) {
	phases := map[string]api.PodPhase{}
	for _, p := range finalPods(t, "kubelet-preemption") {
		phases[p.Name] = p.Status.Phase
		if p.Name != "web-b" {
			continue
		}
		if p.Status.Reason != lifecycle.ReasonPreempting || p.Status.Message != lifecycle.PreemptedMessage {
			t.Errorf("web-b: %s %q", p.Status.Reason, p.Status.Message)
		}
		c := api.FindCondition(p.Status.Conditions, api.DisruptionTarget)
		if c == nil || c.Status != api.ConditionTrue || c.Reason != api.PodReasonTerminationByKubelet || c.Message != lifecycle.PreemptedConditionMessage {
			t.Errorf("web-b: DisruptionTarget %+v", c)
		}
		for _, cs := range p.Status.ContainerStatuses {
			if cs.State.Terminated == nil || cs.State.Terminated.ExitCode != 143 {
				t.Errorf("web-b: container %s not terminated by SIGTERM: %+v", cs.Name, cs.State)
			}
		}
	}
	want := map[string]api.PodPhase{"web-a": api.PodRunning, "web-b": api.PodFailed, "node-agent": api.PodRunning}
	if fmt.Sprint(phases) != fmt.Sprint(want) {
		t.Errorf("phases %v, want %v", phases, want)
	}
}

// TestConfigFromKubeletFlags reads the kubelet's eviction and shutdown
// flags by name, and refuses what the kubelet refuses at start.
func TestConfigFromKubeletFlags(t *testing.T) {
	cfg, unused, err := cluster.ConfigFromFlags(map[string]string{
		"eviction-hard":                       "memory.available<200Mi,nodefs.available<5%",
		"eviction-soft":                       "memory.available<1Gi",
		"eviction-soft-grace-period":          "memory.available=1m30s",
		"eviction-pressure-transition-period": "1m",
		"eviction-max-pod-grace-period":       "20",
		"shutdown-grace-period":               "30s",
		"shutdown-grace-period-critical-pods": "10s",
	})
	if err != nil || len(unused) != 0 {
		t.Fatalf("got %v, unused %v", err, unused)
	}
	ev := cfg.Eviction
	if ev.Hard["memory.available"] != "200Mi" || ev.Hard["nodefs.available"] != "5%" || ev.Soft["memory.available"] != "1Gi" ||
		ev.SoftGracePeriod["memory.available"] != "1m30s" || ev.PressureTransitionPeriod != "1m" || ev.MaxPodGracePeriodSeconds != 20 {
		t.Errorf("eviction settings %+v", ev)
	}
	if cfg.Shutdown.GracePeriod.String() != "30s" || cfg.Shutdown.GracePeriodCriticalPods.String() != "10s" {
		t.Errorf("shutdown settings %+v", cfg.Shutdown)
	}
	for _, bad := range []map[string]string{
		{"eviction-soft": "memory.available<1Gi"}, // no grace period: the kubelet refuses it
		{"eviction-hard": "memory.available"},
		{"eviction-max-pod-grace-period": "soon"},
		{"shutdown-grace-period": "10s", "shutdown-grace-period-critical-pods": "20s"},
	} {
		if _, _, err := cluster.ConfigFromFlags(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestProbeWorkersKeepTheHarnessTiming: the kubelet's probe workers run
// every probe (all pass, as in the e2e harness's model) and a container is
// ready at its first readiness probe, start + ceil(initialDelaySeconds /
// periodSeconds) × periodSeconds, with a startup probe gating it (passing
// at its first probe) and a liveness probe that never kills it.
func TestProbeWorkersKeepTheHarnessTiming(t *testing.T) {
	doc := `{"objects": [
 {"kind": "Node", "metadata": {"name": "node-1"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"},
  "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}}],
 "actions": [{"at": "10s", "apply": {"kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
  "spec": {"containers": [{"name": "app", "image": "nginx:1.27",
   "startupProbe": {"exec": {"command": ["true"]}, "periodSeconds": 3},
   "readinessProbe": {"exec": {"command": ["true"]}, "initialDelaySeconds": 15, "periodSeconds": 10},
   "livenessProbe": {"exec": {"command": ["true"]}, "periodSeconds": 5}}]}}}],
 "until": "2m"}`
	sc, err := cluster.ParseScenario([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var ready []float64
	for _, r := range res.Records {
		if r.Object == "Pod/default/web" && r.Source == "watch" && strings.Contains(r.Message, "ready: False -> True") {
			ready = append(ready, r.Offset)
		}
		if r.Reason == "Killing" || r.Reason == "Unhealthy" {
			t.Errorf("unexpected %s at %v: %s", r.Reason, r.Offset, r.Message)
		}
	}
	// Scheduled and seen at 10 s, started at 11 s, ready at 11 + 20 s.
	if len(ready) != 1 || ready[0] != 31 {
		t.Errorf("ready at %v, want [31]", ready)
	}
}

// TestNodeSideActionsRefused: a pressure action naming an unknown signal,
// a malformed value, a node without the capacity the signal is read
// against or an unknown node, and a shutdown of a node already down, are
// refused with an ActionFailed record; the run goes on.
func TestNodeSideActionsRefused(t *testing.T) {
	doc := `{"objects": [
 {"kind": "Node", "metadata": {"name": "node-1"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"},
  "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}}],
 "actions": [
  {"at": "1s", "pressure": {"node": "node-1", "signal": "memory.free", "value": "1Mi"}},
  {"at": "2s", "pressure": {"node": "node-1", "signal": "memory.available", "value": "lots"}},
  {"at": "3s", "pressure": {"node": "node-1", "signal": "nodefs.available", "value": "5%"}},
  {"at": "4s", "pressure": {"node": "node-9", "signal": "memory.available", "value": "1Mi"}},
  {"at": "5s", "pressure": {"node": "node-1", "signal": "memory.available", "value": "150%"}},
  {"at": "6s", "shutdown": "node-1"},
  {"at": "7s", "shutdown": "node-1"}],
 "until": "10s"}`
	sc, err := cluster.ParseScenario([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var failed []float64
	for _, r := range res.Records {
		if r.Reason == "ActionFailed" {
			failed = append(failed, r.Offset)
		}
	}
	if fmt.Sprint(failed) != "[1 2 3 4 5 7]" {
		t.Errorf("ActionFailed at %v, want [1 2 3 4 5 7]", failed)
	}
}

// TestKubeletHostIPs checks what the runtime model's kubelet reports of
// its host: a Node without addresses gets InternalIP 10.0.0.<index + 1>
// and Hostname at registration, with the model's node info; each pod
// status carries hostIP and hostIPs from the Node's addresses (InternalIP
// first, then the first address of the other family); a hostNetwork pod
// gets the node's IPs as its pod IPs; a pod rejected at admission keeps
// rejectPod's status, without host IPs.
func TestKubeletHostIPs(t *testing.T) {
	node := func(name string, addrs ...api.NodeAddress) *api.Node {
		rl := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2"), api.ResourceMemory: api.MustParseQuantity("4Gi"),
			api.ResourcePods: api.MustParseQuantity("110")}
		return &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
			Status: api.NodeStatus{Capacity: rl, Allocatable: rl, Addresses: addrs,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}}}
	}
	pod := func(name, nodeName, cpu string, hostNetwork bool) *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.PodSpec{NodeName: nodeName, HostNetwork: hostNetwork, Containers: []api.Container{{Name: "c", Image: "busybox:1.36",
				Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}}}}}}
	}
	sc := &cluster.Scenario{Until: time.Minute, Objects: []api.Object{
		node("node-a"),
		node("node-b", api.NodeAddress{Type: api.NodeExternalIP, Address: "203.0.113.2"},
			api.NodeAddress{Type: api.NodeInternalIP, Address: "fd00::0b02"},
			api.NodeAddress{Type: api.NodeInternalIP, Address: "192.168.0.2"}),
		pod("web", "node-a", "100m", false),
		pod("big", "node-a", "3", false),
		pod("agent", "node-b", "100m", true),
	}}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range res.Objects {
		switch x := o.(type) {
		case *api.Node:
			got[x.Name] = fmt.Sprintf("%v %s %s %d", x.Status.Addresses, x.Status.NodeInfo.KubeletVersion,
				x.Status.NodeInfo.ContainerRuntimeVersion, x.Status.DaemonEndpoints.KubeletEndpoint.Port)
		case *api.Pod:
			got[x.Name] = fmt.Sprintf("%s %s %v %s %v", x.Status.Phase, x.Status.HostIP, x.Status.HostIPs, x.Status.PodIP, x.Status.PodIPs)
		}
	}
	want := map[string]string{
		"node-a": "[{InternalIP 10.0.0.1} {Hostname node-a}] v1.36.3 fake://1.0 10250",
		"node-b": "[{ExternalIP 203.0.113.2} {InternalIP fd00::0b02} {InternalIP 192.168.0.2}] v1.36.3 fake://1.0 10250",
		"web":    "Running 10.0.0.1 [{10.0.0.1}] 10.244.0.10 [{10.244.0.10}]",
		"big":    "Failed  []  []",
		"agent":  "Running fd00::b02 [{fd00::b02} {192.168.0.2}] fd00::b02 [{fd00::b02} {192.168.0.2}]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}

// TestInitContainersComplete checks the runtime model's init containers: a
// regular one exits 0 (Completed) as soon as it has started, a sidecar
// keeps running, and the pod's containers start at the same instant.
func TestInitContainersComplete(t *testing.T) {
	always := api.RestartPolicyAlways
	rl := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2"), api.ResourceMemory: api.MustParseQuantity("4Gi"),
		api.ResourcePods: api.MustParseQuantity("110")}
	sc := &cluster.Scenario{Until: 10 * time.Second, Objects: []api.Object{
		&api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "node-1"},
			Status: api.NodeStatus{Capacity: rl, Allocatable: rl,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}}},
		&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Spec: api.PodSpec{
				InitContainers: []api.Container{{Name: "setup", Image: "busybox:1.36"}, {Name: "proxy", Image: "envoy:v1", RestartPolicy: &always}},
				Containers:     []api.Container{{Name: "app", Image: "nginx:1.27"}}}},
	}}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Objects {
		p, ok := o.(*api.Pod)
		if !ok {
			continue
		}
		var got []string
		for _, cs := range append(append([]api.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
			switch s := cs.State; {
			case s.Terminated != nil:
				got = append(got, fmt.Sprintf("%s:terminated(%d %s)", cs.Name, s.Terminated.ExitCode, s.Terminated.Reason))
			case s.Running != nil:
				got = append(got, fmt.Sprintf("%s:running", cs.Name))
			default:
				got = append(got, cs.Name+":waiting")
			}
		}
		want := "Running [setup:terminated(0 Completed) proxy:running app:running]"
		if g := fmt.Sprintf("%s %v", p.Status.Phase, got); g != want {
			t.Errorf("got %s, want %s", g, want)
		}
	}
	if res.T0.Sub(t0) > 5*time.Second {
		t.Errorf("the pod took %v to settle", res.T0.Sub(t0))
	}
}
