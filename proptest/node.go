package proptest

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// NodeOptions configure Node. The zero value draws nodes of the default
// Topology observed at the default time.
type NodeOptions struct {
	// Topology gives the zones and instance types nodes are drawn from.
	Topology Topology
	// Now is the moment the nodes are observed at (their heartbeats are
	// a few seconds older); zero means 2025-06-01T12:00:00Z.
	Now time.Time
}

// Node returns a generator of nodes as a kubelet registers them and the
// node controllers keep them, with the labels, taints and status a real
// cloud node has:
//
//   - labels: kubernetes.io/hostname (the node name), kubernetes.io/os and
//     arch (and their beta.kubernetes.io spellings),
//     node.kubernetes.io/instance-type, topology.kubernetes.io/zone and
//     region, a numeric example.com/generation; GPU, spot, dedicated-pool
//     and control-plane nodes carry their pool's label;
//   - taints with every effect: nvidia.com/gpu=present:NoSchedule on GPU
//     nodes, dedicated=infra:NoSchedule, example.com/spot=true with any
//     effect, the control plane's NoSchedule taint, and the taints the node
//     lifecycle controller adds to cordoned (unschedulable), NotReady
//     (not-ready), unreachable (Ready Unknown) and memory- or disk-pressure
//     nodes, NoExecute ones with timeAdded;
//   - status.capacity and allocatable of cpu, memory, pods,
//     ephemeral-storage, hugepages and nvidia.com/gpu, allocatable below
//     capacity by the kubelet's reservations;
//   - the Ready, MemoryPressure, DiskPressure and PIDPressure conditions,
//     InternalIP, InternalDNS and Hostname addresses, node info
//     (kubelet v1.36.3, containerd), spec.podCIDR and providerID, and now
//     and then a list of cached images.
//
// The node name is shaped like an AWS private DNS name and is unique per
// drawn number, not across draws: use Cluster for sets of nodes.
func Node(opts NodeOptions) *rapid.Generator[*api.Node] {
	return rapid.Custom(func(t *rapid.T) *api.Node {
		d := newDrawer(t)
		return drawNode(d, &opts, intIn(d, "node-index", 0, 9999))
	})
}

// drawNode draws the node with the given index; distinct indexes give
// distinct names, addresses and pod CIDRs.
func drawNode(d *drawer, opts *NodeOptions, index int) *api.Node {
	now := nowOr(opts.Now)
	tp := opts.Topology
	zone := pick(d, "zone", tp.zones())
	it := drawInstanceType(d, tp.instanceTypes())
	ip := fmt.Sprintf("10.%d.%d.%d", index/62500%256, index/250%250, index%250+4)
	name := fmt.Sprintf("ip-%s.%s.compute.internal", dashed(ip), zone.Region)
	created := now.Add(-time.Duration(intIn(d, "node-age-hours", 1, 24*90)) * time.Hour)

	n := &api.Node{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{
			Name: name, UID: uidOf("Node", "", name), CreationTimestamp: api.NewTime(created),
			Labels: map[string]string{
				api.LabelHostname:              name,
				api.LabelOS:                    "linux",
				labelArch:                      it.Arch,
				"beta.kubernetes.io/os":        "linux",
				"beta.kubernetes.io/arch":      it.Arch,
				labelInstanceType:              it.Name,
				api.LabelTopologyZone:          zone.Name,
				api.LabelTopologyRegion:        zone.Region,
				labelGeneration:                fmt.Sprint(intIn(d, "generation", 1, 5)),
				"node.kubernetes.io/lifecycle": "normal",
			},
			Annotations: map[string]string{"node.alpha.kubernetes.io/ttl": "0"},
		},
		Spec: api.NodeSpec{
			PodCIDR:    fmt.Sprintf("10.%d.%d.0/24", 100+index/256, index%256),
			ProviderID: fmt.Sprintf("aws:///%s/i-%017x", zone.Name, hashOf("instance", name)&0xfffffffffffffff),
		},
	}
	n.Spec.PodCIDRs = []string{n.Spec.PodCIDR}
	taint := func(key, value string, effect api.TaintEffect) {
		tt := api.Taint{Key: key, Value: value, Effect: effect}
		if effect == api.TaintEffectNoExecute {
			tt.TimeAdded = api.NewTimePtr(now.Add(-time.Duration(intIn(d, "taint-age-seconds", 0, 3600)) * time.Second))
		}
		n.Spec.Taints = append(n.Spec.Taints, tt)
	}
	if it.GPUs > 0 {
		n.Labels["nvidia.com/gpu.present"] = "true"
		taint(string(resourceGPU), "present", api.TaintEffectNoSchedule)
	}
	if chance(d, "dedicated", 20) {
		n.Labels[keyDedicated] = "infra"
		taint(keyDedicated, "infra", api.TaintEffectNoSchedule)
	}
	if chance(d, "spot", 6) {
		n.Labels[labelSpot] = "true"
		n.Labels["node.kubernetes.io/lifecycle"] = "spot"
		taint(labelSpot, "true", pick(d, "spot-effect", []api.TaintEffect{api.TaintEffectPreferNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoSchedule, api.TaintEffectNoExecute}))
	}
	if chance(d, "control-plane", 40) {
		n.Labels["node-role.kubernetes.io/control-plane"] = ""
		taint("node-role.kubernetes.io/control-plane", "", api.TaintEffectNoSchedule)
	}
	if chance(d, "cordoned", 30) {
		n.Spec.Unschedulable = true
		taint(api.TaintNodeUnschedulable, "", api.TaintEffectNoSchedule)
	}

	heartbeat := api.NewTime(now.Add(-time.Duration(intIn(d, "heartbeat-age", 0, 40)) * time.Second))
	since := api.NewTime(created)
	cond := func(ty api.NodeConditionType, st api.ConditionStatus, reason, msg string) api.NodeCondition {
		return api.NodeCondition{Type: ty, Status: st, LastHeartbeatTime: heartbeat, LastTransitionTime: since, Reason: reason, Message: msg}
	}
	memory := cond(api.NodeMemoryPressure, api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available")
	disk := cond(api.NodeDiskPressure, api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure")
	pid := cond(api.NodePIDPressure, api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available")
	ready := cond(api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status")
	switch pick(d, "health", []string{"healthy", "not-ready", "unreachable", "memory-pressure", "disk-pressure"}) {
	case "not-ready":
		if chance(d, "not-ready-now", 10) {
			ready = cond(api.NodeReady, api.ConditionFalse, "KubeletNotReady", "container runtime network not ready: NetworkReady=false")
			taint(api.TaintNodeNotReady, "", api.TaintEffectNoSchedule)
			taint(api.TaintNodeNotReady, "", api.TaintEffectNoExecute)
		}
	case "unreachable":
		if chance(d, "unreachable-now", 10) {
			ready = cond(api.NodeReady, api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.")
			memory.Status, disk.Status, pid.Status = api.ConditionUnknown, api.ConditionUnknown, api.ConditionUnknown
			taint(api.TaintNodeUnreachable, "", api.TaintEffectNoSchedule)
			taint(api.TaintNodeUnreachable, "", api.TaintEffectNoExecute)
		}
	case "memory-pressure":
		if chance(d, "memory-pressure-now", 10) {
			memory = cond(api.NodeMemoryPressure, api.ConditionTrue, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available")
			taint(api.TaintNodeMemoryPressure, "", api.TaintEffectNoSchedule)
		}
	case "disk-pressure":
		if chance(d, "disk-pressure-now", 10) {
			disk = cond(api.NodeDiskPressure, api.ConditionTrue, "KubeletHasDiskPressure", "kubelet has disk pressure")
			taint(api.TaintNodeDiskPressure, "", api.TaintEffectNoSchedule)
		}
	}
	n.Status.Conditions = []api.NodeCondition{memory, disk, pid, ready}

	n.Status.Capacity, n.Status.Allocatable = nodeResources(it)
	n.Status.Addresses = []api.NodeAddress{
		{Type: api.NodeInternalIP, Address: ip},
		{Type: api.NodeInternalDNS, Address: name},
		{Type: api.NodeHostName, Address: name},
	}
	n.Status.DaemonEndpoints.KubeletEndpoint.Port = 10250
	n.Status.NodeInfo = api.NodeSystemInfo{
		MachineID:               fmt.Sprintf("ec2%029x", hashOf("machine", name)),
		SystemUUID:              uidOf("System", "", name),
		BootID:                  uidOf("Boot", "", name),
		KernelVersion:           "6.1.119-129.201.amzn2023." + map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[it.Arch],
		OSImage:                 "Amazon Linux 2023.6.20250115",
		ContainerRuntimeVersion: "containerd://2.0.5",
		KubeletVersion:          "v1.36.3",
		OperatingSystem:         "linux",
		Architecture:            it.Arch,
	}
	if flip(d, "images") {
		n.Status.Images = []api.ContainerImage{
			{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 320368},
			{Names: []string{"docker.io/library/nginx:1.27", "nginx:1.27"}, SizeBytes: 72099501},
		}
		if flip(d, "images-app") {
			n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: []string{"ghcr.io/example/app:v1.4.2"}, SizeBytes: 418734201})
		}
	}
	return n
}

// drawInstanceType draws a machine shape, one node in ten with GPUs when
// the topology has such shapes.
func drawInstanceType(d *drawer, its []InstanceType) InstanceType {
	var gpu, plain []InstanceType
	for _, it := range its {
		if it.GPUs > 0 {
			gpu = append(gpu, it)
		} else {
			plain = append(plain, it)
		}
	}
	if len(plain) == 0 || len(gpu) > 0 && chance(d, "gpu-node", 10) {
		return pick(d, "gpu-instance-type", gpu)
	}
	return pick(d, "instance-type", plain)
}

// dashed writes an IPv4 address with dashes, as in an AWS host name.
func dashed(ip string) string {
	b := []byte(ip)
	for i, c := range b {
		if c == '.' {
			b[i] = '-'
		}
	}
	return string(b)
}

// nodeResources is the capacity a node of the instance type reports and
// its allocatable: capacity less the kubelet's reservations (kube-reserved
// and system-reserved cpu, memory for them and the hard eviction
// threshold of 100Mi, huge pages, a tenth of the disk).
func nodeResources(it InstanceType) (capacity, allocatable api.ResourceList) {
	cpu := api.MustParseQuantity(it.CPU)
	mem := api.MustParseQuantity(it.Memory)
	memKi := mem.Value()/1024 - 200*1024 // what the kernel reports: a little less than the label
	var hugeKi int64
	if it.HugePages2Mi != "" {
		hp := api.MustParseQuantity(it.HugePages2Mi)
		hugeKi = hp.Value() / 1024
	}
	cpuMilli := cpu.MilliValue()
	reservedMilli := int64(100)
	if cpuMilli > 4000 {
		reservedMilli = 100 + (cpuMilli-4000)/100
	}
	disk := int64(100) << 30
	capacity = api.ResourceList{
		api.ResourceCPU:                     cpu,
		api.ResourceMemory:                  api.MustParseQuantity(fmt.Sprintf("%dKi", memKi)),
		api.ResourcePods:                    api.NewQuantity(110, api.DecimalSI),
		api.ResourceEphemeralStorage:        api.NewQuantity(disk, api.BinarySI),
		resourceHugePages2Mi:                api.MustParseQuantity(fmt.Sprintf("%dKi", hugeKi)),
		api.ResourceHugePagesPrefix + "1Gi": api.MustParseQuantity("0"),
	}
	allocatable = api.ResourceList{
		api.ResourceCPU:                     api.NewMilliQuantity(cpuMilli-reservedMilli, api.DecimalSI),
		api.ResourceMemory:                  api.MustParseQuantity(fmt.Sprintf("%dKi", memKi-hugeKi-(256+100)*1024)),
		api.ResourcePods:                    api.NewQuantity(110, api.DecimalSI),
		api.ResourceEphemeralStorage:        api.NewQuantity(disk/10*9, api.DecimalSI),
		resourceHugePages2Mi:                capacity[resourceHugePages2Mi],
		api.ResourceHugePagesPrefix + "1Gi": api.MustParseQuantity("0"),
	}
	if it.GPUs > 0 {
		capacity[resourceGPU] = api.NewQuantity(int64(it.GPUs), api.DecimalSI)
		allocatable[resourceGPU] = api.NewQuantity(int64(it.GPUs), api.DecimalSI)
	}
	return capacity, allocatable
}
