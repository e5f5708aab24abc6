package downward

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func int32p(v int32) *int32 { return &v }

func volumePod() *api.Pod {
	p := testPod()
	p.Spec.Resources = &api.ResourceRequirements{Limits: rl("cpu", "2")}
	p.Spec.Containers = []api.Container{{Name: "app", Resources: api.ResourceRequirements{Requests: rl("memory", "32Mi")}}}
	p.Spec.InitContainers = []api.Container{{Name: "init"}}
	return p
}

func TestVolumeFilesDownwardAPI(t *testing.T) {
	vol := &api.Volume{Name: "podinfo", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
		DefaultMode: int32p(0o600),
		Items: []api.DownwardAPIVolumeFile{
			{Path: "labels", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.labels"}},
			{Path: "./name/", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}, Mode: int32p(0o444)},
			{Path: "cpu_limit", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu", Divisor: qp("1m")}},
			{Path: "init_mem", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "init", Resource: "limits.memory", Divisor: qp("1Mi")}},
			{Path: "mem_request", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "app", Resource: "requests.memory", Divisor: qp("1Mi")}},
		},
	}}}
	got, err := VolumeFiles(volumePod(), vol, rl("cpu", "4", "memory", "8Gi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		// Volumes use node allocatable only, not the pod-level cpu limit.
		{Path: "cpu_limit", Data: "4000", Mode: 0o600},
		// Init containers are defaulted on the volume path.
		{Path: "init_mem", Data: "8192", Mode: 0o600},
		{Path: "labels", Data: "app=\"web\"\napp.kubernetes.io/name=\"web\"\ntier=\"\"", Mode: 0o600},
		{Path: "mem_request", Data: "32", Mode: 0o600},
		{Path: "name", Data: "web-0", Mode: 0o444},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestVolumeFilesErrors(t *testing.T) {
	vol := &api.Volume{Name: "podinfo", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
		Items: []api.DownwardAPIVolumeFile{
			{Path: "node", FieldRef: &api.ObjectFieldSelector{FieldPath: "spec.nodeName"}},
			{Path: "ghost", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "ghost", Resource: "limits.cpu"}},
			{Path: "name", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}},
		},
	}}}
	got, err := VolumeFiles(volumePod(), vol, nil, nil)
	if !errors.Is(err, ErrUnsupportedField) || !errors.Is(err, ErrContainerNotFound) {
		t.Fatalf("err %v, want both failures", err)
	}
	want := []File{{Path: "ghost", Mode: 0o644}, {Path: "name", Data: "web-0", Mode: 0o644}, {Path: "node", Mode: 0o644}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := VolumeFiles(volumePod(), &api.Volume{Name: "x", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}}, nil, nil); err == nil {
		t.Error("emptyDir volume: no error")
	}
}

func TestVolumeFilesProjected(t *testing.T) {
	vol := &api.Volume{Name: "all", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
		DefaultMode: int32p(0o640),
		Sources: []api.VolumeProjection{
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{
				{Path: "name", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}},
				{Path: "annotations", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.annotations['Build']"}, Mode: int32p(0o400)},
			}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "settings"},
				Items: []api.KeyToPath{{Key: "MODE", Path: "conf/mode"}, {Key: "NOPE", Path: "nope"}}, Optional: boolp(true)}},
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "creds"}}},
			{Secret: &api.SecretProjection{LocalObjectReference: api.LocalObjectReference{Name: "absent"}, Optional: boolp(true)}},
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token"}},
		},
	}}}
	pod := volumePod()
	got, err := VolumeFiles(pod, vol, nil, envObjects)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: "PASSWORD", Data: "s3cret", Mode: 0o640},
		{Path: "USER", Data: "admin", Mode: 0o640},
		{Path: "annotations", Data: "two", Mode: 0o400},
		{Path: "conf/mode", Data: "fast", Mode: 0o640},
		{Path: "name", Data: "web-0", Mode: 0o640},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// A non-optional missing key fails; a missing lookup fails.
	vol.Projected.Sources[1].ConfigMap.Optional = nil
	if _, err := VolumeFiles(pod, vol, nil, envObjects); !errors.Is(err, ErrMissingKey) {
		t.Errorf("missing key: %v", err)
	}
	if _, err := VolumeFiles(pod, vol, nil, nil); !errors.Is(err, ErrNoLookup) {
		t.Errorf("no lookup: %v", err)
	}
}

func TestOnDiskMode(t *testing.T) {
	pod := testPod()
	if got := OnDiskMode(pod, 0o600); got != 0o600 {
		t.Errorf("no fsGroup: %o", got)
	}
	g := int64(2000)
	pod.Spec.SecurityContext = &api.PodSecurityContext{FSGroup: &g}
	if got := OnDiskMode(pod, 0o600); got != 0o640 {
		t.Errorf("fsGroup: %o", got)
	}
	pod.Spec.SecurityContext = nil
	pod.Spec.HostUsers = boolp(false)
	if got := OnDiskMode(pod, 0o400); got != 0o440 {
		t.Errorf("user namespace: %o", got)
	}
}
