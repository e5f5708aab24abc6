package api

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultPod(t *testing.T) {
	always := RestartPolicyAlways
	pod := &Pod{Spec: PodSpec{
		HostNetwork: true,
		InitContainers: []Container{{
			Name: "setup", Image: "busybox@sha256:abc",
			Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: MustParseQuantity("200m")}},
		}, {
			Name: "proxy", Image: "envoy", RestartPolicy: &always,
		}},
		Containers: []Container{{
			Name: "app", Image: "registry.local:5000/app:v2",
			Ports: []ContainerPort{{ContainerPort: 8080}},
			Resources: ResourceRequirements{
				Limits:   ResourceList{ResourceCPU: MustParseQuantity("1"), ResourceMemory: MustParseQuantity("1Gi")},
				Requests: ResourceList{ResourceCPU: MustParseQuantity("0.0001")},
			},
			ReadinessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: &HTTPGetAction{Port: FromInt32(8080)}}},
		}},
		Volumes: []Volume{{Name: "scratch"}, {Name: "info", VolumeSource: VolumeSource{DownwardAPI: &DownwardAPIVolumeSource{
			Items: []DownwardAPIVolumeFile{{Path: "labels", FieldRef: &ObjectFieldSelector{FieldPath: "metadata.labels"}}},
		}}}},
	}}
	DefaultPod(pod)
	s := pod.Spec
	if s.RestartPolicy != RestartPolicyAlways || s.DNSPolicy != DNSClusterFirst || s.SchedulerName != "default-scheduler" {
		t.Errorf("pod-level defaults: %q %q %q", s.RestartPolicy, s.DNSPolicy, s.SchedulerName)
	}
	if s.TerminationGracePeriodSeconds == nil || *s.TerminationGracePeriodSeconds != 30 {
		t.Errorf("grace = %v", s.TerminationGracePeriodSeconds)
	}
	if s.SecurityContext == nil || s.EnableServiceLinks == nil || !*s.EnableServiceLinks {
		t.Errorf("securityContext/enableServiceLinks not defaulted")
	}
	if got := s.InitContainers[0].ImagePullPolicy; got != PullIfNotPresent {
		t.Errorf("digest image pull policy = %q", got)
	}
	if got := s.InitContainers[1].ImagePullPolicy; got != PullAlways {
		t.Errorf("untagged image pull policy = %q", got)
	}
	if got := s.Containers[0].ImagePullPolicy; got != PullIfNotPresent {
		t.Errorf("tagged image behind a registry port: pull policy = %q", got)
	}
	app := s.Containers[0]
	if p := app.Ports[0]; p.Protocol != ProtocolTCP || p.HostPort != 8080 {
		t.Errorf("port defaults under hostNetwork: %+v", p)
	}
	if got := app.Resources.Requests.Cpu(); got.Cmp(MustParseQuantity("1m")) != 0 {
		t.Errorf("cpu request 0.0001 rounds up to 1m, got %v", got)
	}
	if got := app.Resources.Requests.Memory(); got.Cmp(MustParseQuantity("1Gi")) != 0 {
		t.Errorf("memory request copied from limit: %v", got)
	}
	if got := s.InitContainers[0].Resources.Requests.Cpu(); got.Cmp(MustParseQuantity("200m")) != 0 {
		t.Errorf("init container request copied from limit: %v", got)
	}
	pr := app.ReadinessProbe
	if pr.TimeoutSeconds != 1 || pr.PeriodSeconds != 10 || pr.SuccessThreshold != 1 || pr.FailureThreshold != 3 ||
		pr.HTTPGet.Path != "/" || pr.HTTPGet.Scheme != URISchemeHTTP {
		t.Errorf("probe defaults: %+v %+v", pr, pr.HTTPGet)
	}
	if s.Volumes[0].EmptyDir == nil {
		t.Errorf("a volume without a source becomes an emptyDir")
	}
	d := s.Volumes[1].DownwardAPI
	if d.DefaultMode == nil || *d.DefaultMode != 0o644 || d.Items[0].FieldRef.APIVersion != "v1" {
		t.Errorf("downwardAPI defaults: %+v", d)
	}
	if app.TerminationMessagePath != "/dev/termination-log" || app.TerminationMessagePolicy != "File" {
		t.Errorf("termination message defaults: %q %q", app.TerminationMessagePath, app.TerminationMessagePolicy)
	}
}

func TestDefaultPodLevelResources(t *testing.T) {
	q := MustParseQuantity
	for _, tc := range []struct {
		name       string
		pod        PodSpec
		wantReq    ResourceList
		wantLimits ResourceList
	}{{
		name: "pod limits only: requests default to limits",
		pod: PodSpec{
			Resources:  &ResourceRequirements{Limits: ResourceList{ResourceCPU: q("2"), ResourceMemory: q("2Gi")}},
			Containers: []Container{{Name: "a"}},
		},
		wantReq:    ResourceList{ResourceCPU: q("2"), ResourceMemory: q("2Gi")},
		wantLimits: ResourceList{ResourceCPU: q("2"), ResourceMemory: q("2Gi")},
	}, {
		name: "pod limits, containers request: requests are the container aggregate",
		pod: PodSpec{
			Resources: &ResourceRequirements{Limits: ResourceList{ResourceCPU: q("2")}},
			Containers: []Container{
				{Name: "a", Resources: ResourceRequirements{Requests: ResourceList{ResourceCPU: q("300m")}}},
				{Name: "b", Resources: ResourceRequirements{Requests: ResourceList{ResourceCPU: q("200m")}}},
			},
		},
		wantReq:    ResourceList{ResourceCPU: q("500m")},
		wantLimits: ResourceList{ResourceCPU: q("2")},
	}, {
		// v1.36.3 never defaults pod-level limits (only hugepages): pod
		// requests alone leave spec.resources.limits unset.
		name: "pod requests only: no pod-level limits are defaulted",
		pod: PodSpec{
			Resources: &ResourceRequirements{Requests: ResourceList{ResourceCPU: q("1")}},
			Containers: []Container{
				{Name: "a", Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: q("1"), ResourceMemory: q("1Gi")}}},
				{Name: "b", Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: q("2")}}},
			},
		},
		wantReq:    ResourceList{ResourceCPU: q("1")},
		wantLimits: nil,
	}} {
		pod := &Pod{Spec: tc.pod}
		DefaultPod(pod)
		opt := cmpQuantity()
		if d := cmp.Diff(tc.wantReq, pod.Spec.Resources.Requests, opt); d != "" {
			t.Errorf("%s: requests:\n%s", tc.name, d)
		}
		if d := cmp.Diff(tc.wantLimits, pod.Spec.Resources.Limits, opt); d != "" {
			t.Errorf("%s: limits:\n%s", tc.name, d)
		}
	}
}

func cmpQuantity() cmp.Option {
	return cmp.Comparer(func(a, b Quantity) bool { return a.Cmp(b) == 0 })
}

func TestResourceNameClasses(t *testing.T) {
	for _, tc := range []struct {
		name                             ResourceName
		native, prefixed, extended, scal bool
	}{
		{"cpu", true, false, false, false},
		{"hugepages-2Mi", true, false, false, true},
		{"kubernetes.io/batteries", true, true, false, true},
		{"foo.kubernetes.io/x", true, true, false, true},
		{"example.com/gpu", false, false, true, true},
		{"example.com/" + ResourceName(strings.Repeat("x", 70)), false, false, false, false},
		{"requests.example.com/gpu", false, false, false, false},
		{"attachable-volumes-aws-ebs", true, false, false, true},
	} {
		n := tc.name
		if n.IsNative() != tc.native || n.IsPrefixedNative() != tc.prefixed || n.IsExtended() != tc.extended || n.IsScalar() != tc.scal {
			t.Errorf("%s: native=%v prefixed=%v extended=%v scalar=%v", n, n.IsNative(), n.IsPrefixedNative(), n.IsExtended(), n.IsScalar())
		}
	}
}

func TestInitialPodStatus(t *testing.T) {
	limits := ResourceList{ResourceCPU: MustParseQuantity("1"), ResourceMemory: MustParseQuantity("1Gi")}
	gated := &Pod{
		Spec: PodSpec{
			Containers:      []Container{{Name: "app", Image: "nginx", Resources: ResourceRequirements{Requests: limits, Limits: limits}}},
			SchedulingGates: []PodSchedulingGate{{Name: "example.com/quota"}},
		},
		// Whatever status the request carries is replaced.
		Status: PodStatus{Phase: PodRunning, PodIP: "10.0.0.1", QOSClass: PodQOSBestEffort},
	}
	want := PodStatus{
		Phase:    PodPending,
		QOSClass: PodQOSGuaranteed,
		Conditions: []PodCondition{{
			Type: PodScheduled, Status: ConditionFalse,
			Reason: "SchedulingGated", Message: "Scheduling is blocked due to non-empty scheduling gates",
		}},
	}
	if d := cmp.Diff(want, InitialPodStatus(gated)); d != "" {
		t.Errorf("gated Guaranteed pod (-want +got):\n%s", d)
	}
	if gated.Status.Phase != PodRunning {
		t.Errorf("InitialPodStatus modified its argument: %+v", gated.Status)
	}

	ungated := &Pod{Spec: PodSpec{Containers: []Container{{Name: "app", Image: "nginx"}}}}
	if d := cmp.Diff(PodStatus{Phase: PodPending, QOSClass: PodQOSBestEffort}, InitialPodStatus(ungated)); d != "" {
		t.Errorf("ungated BestEffort pod (-want +got):\n%s", d)
	}
}
