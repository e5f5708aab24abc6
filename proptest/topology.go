package proptest

import (
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// Well-known node labels the generators write and the pods' constraints
// read. Kubernetes defines them in k8s.io/api/core/v1's well_known_labels;
// the kubelet sets the first four on every node it registers, the cloud
// provider the instance type.
const (
	labelArch         = "kubernetes.io/arch"
	labelInstanceType = "node.kubernetes.io/instance-type"
	// labelNamespaceName is the label the API server puts on every
	// namespace, carrying its name (NamespaceDefaultLabelName).
	labelNamespaceName = "kubernetes.io/metadata.name"
)

// Labels and taint keys of this package's own invention, shaped like the
// ones cluster operators add: a hardware generation (so that node affinity's
// Gt and Lt have a number to compare), dedicated node pools and spot
// capacity.
const (
	labelGeneration = "example.com/generation"
	labelSpot       = "example.com/spot"
	keyDedicated    = "dedicated"
	labelTeam       = "example.com/team"
	labelTier       = "tier"
	labelAppName    = "app.kubernetes.io/name"
)

// resourceGPU is the extended resource NVIDIA's device plugin advertises.
const resourceGPU api.ResourceName = "nvidia.com/gpu"

// resourceHugePages2Mi is the huge-page resource of 2 MiB pages.
const resourceHugePages2Mi api.ResourceName = api.ResourceHugePagesPrefix + "2Mi"

// Zone is one availability zone: the value of the node label
// topology.kubernetes.io/zone and the region (topology.kubernetes.io/region)
// it belongs to.
type Zone struct {
	Name   string
	Region string
}

// InstanceType is a machine shape a node can have: the value of the node
// label node.kubernetes.io/instance-type, its CPU architecture (the
// kubernetes.io/arch label, amd64 or arm64) and the capacity the kubelet
// reports for it. Quantities are written as in a Node's status.capacity.
type InstanceType struct {
	Name   string
	Arch   string
	CPU    string
	Memory string
	// GPUs is the nvidia.com/gpu capacity; 0 for none.
	GPUs int
	// HugePages2Mi is the hugepages-2Mi capacity, "" for none.
	HugePages2Mi string
}

// Topology is the world the generated objects share: the zones nodes are
// spread over and the machine shapes they have. Pods' node affinity and
// spread constraints name the same zones, regions and instance types, so
// that they select some nodes and not others. The zero value is a default
// world of five zones in two regions and eight instance types, three of
// them with GPUs or huge pages and one arm64.
type Topology struct {
	Zones         []Zone
	InstanceTypes []InstanceType
}

func (tp Topology) zones() []Zone {
	if len(tp.Zones) > 0 {
		return tp.Zones
	}
	return []Zone{
		{"us-east-1a", "us-east-1"}, {"us-east-1b", "us-east-1"}, {"us-east-1c", "us-east-1"},
		{"us-west-2a", "us-west-2"}, {"us-west-2b", "us-west-2"},
	}
}

func (tp Topology) instanceTypes() []InstanceType {
	if len(tp.InstanceTypes) > 0 {
		return tp.InstanceTypes
	}
	return []InstanceType{
		{Name: "m5.large", Arch: "amd64", CPU: "2", Memory: "8Gi"},
		{Name: "m5.xlarge", Arch: "amd64", CPU: "4", Memory: "16Gi"},
		{Name: "m5.4xlarge", Arch: "amd64", CPU: "16", Memory: "64Gi"},
		{Name: "c5.2xlarge", Arch: "amd64", CPU: "8", Memory: "16Gi"},
		{Name: "m6g.xlarge", Arch: "arm64", CPU: "4", Memory: "16Gi"},
		{Name: "r5.2xlarge", Arch: "amd64", CPU: "8", Memory: "64Gi", HugePages2Mi: "2Gi"},
		{Name: "g5.xlarge", Arch: "amd64", CPU: "4", Memory: "16Gi", GPUs: 1},
		{Name: "p3.8xlarge", Arch: "amd64", CPU: "32", Memory: "244Gi", GPUs: 4, HugePages2Mi: "4Gi"},
	}
}

func (tp Topology) regions() []string {
	var out []string
	for _, z := range tp.zones() {
		if !slices.Contains(out, z.Region) {
			out = append(out, z.Region)
		}
	}
	return out
}

func (tp Topology) zoneNames() []string {
	zs := tp.zones()
	out := make([]string, len(zs))
	for i, z := range zs {
		out[i] = z.Name
	}
	return out
}

// archs are the CPU architectures of the instance types.
func (tp Topology) archs() []string {
	var out []string
	for _, it := range tp.instanceTypes() {
		if !slices.Contains(out, it.Arch) {
			out = append(out, it.Arch)
		}
	}
	return out
}

// offers reports whether some instance type has GPUs, and whether some
// has huge pages: pods ask for them only then.
func (tp Topology) offers() (gpus, hugePages bool) {
	for _, it := range tp.instanceTypes() {
		gpus = gpus || it.GPUs > 0
		hugePages = hugePages || it.HugePages2Mi != ""
	}
	return gpus, hugePages
}

// plainInstanceTypeNames are the names of the shapes without GPUs, which
// node selectors and affinity name (GPU nodes are tainted).
func (tp Topology) plainInstanceTypeNames() []string {
	var out []string
	for _, it := range tp.instanceTypes() {
		if it.GPUs == 0 {
			out = append(out, it.Name)
		}
	}
	if len(out) == 0 {
		out = append(out, tp.instanceTypes()[0].Name)
	}
	return out
}

// nowOr is t, or when t is zero the moment generated objects are observed
// at by default: 2025-06-01T12:00:00Z.
func nowOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	}
	return t
}
