package validation_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/downward"
)

func TestValidateObjectFieldSelector(t *testing.T) {
	root := api.NewPath("spec", "containers").Index(0).Child("env").Index(0).Child("valueFrom", "fieldRef")
	cases := []struct {
		path, version string
		mode          downward.Mode
		want          string // substring of the error, "" for valid
	}{
		{"metadata.name", "v1", downward.Env, ""},
		{"status.hostIPs", "v1", downward.Env, ""},
		{"spec.host", "v1", downward.Env, ""},
		{"metadata.labels['app']", "v1", downward.Env, ""},
		{"metadata.annotations['Example.com/Key']", "v1", downward.Volume, ""},
		{"metadata.labels", "v1", downward.Volume, ""},
		{"metadata.labels", "v1", downward.Env, `Unsupported value: "metadata.labels"`},
		{"metadata.annotations", "v1", downward.Env, "Unsupported value"},
		{"spec.nodeName", "v1", downward.Volume, "Unsupported value"},
		{"spec.restartPolicy", "v1", downward.Env, "Unsupported value"},
		{"metadata.generateName", "v1", downward.Env, "error converting fieldPath"},
		{"metadata.name", "v2", downward.Env, "error converting fieldPath"},
		{"metadata.name", "", downward.Env, "apiVersion: Required value"},
		{"", "v1", downward.Env, "fieldPath: Required value"},
		{"metadata.labels['Bad Key']", "v1", downward.Env, "Invalid value"},
		{"spec.nodeName['x']", "v1", downward.Env, "error converting fieldPath"},
	}
	for _, c := range cases {
		errs := validation.ValidateObjectFieldSelector(api.ObjectFieldSelector{APIVersion: c.version, FieldPath: c.path}, c.mode, root)
		if c.want == "" {
			if len(errs) != 0 {
				t.Errorf("%s (%v): unexpected %v", c.path, c.mode, errs)
			}
			continue
		}
		if len(errs) == 0 || !strings.Contains(errs.Error(), c.want) {
			t.Errorf("%s (%v): errors %v, want %q", c.path, c.mode, errs, c.want)
		}
		if !strings.HasPrefix(errs.Error(), root.String()) && !strings.HasPrefix(errs.Error(), "["+root.String()) {
			t.Errorf("%s: error %q does not name the field", c.path, errs)
		}
	}
}

func TestDownwardAPIFieldPaths(t *testing.T) {
	env := strings.Join(validation.DownwardAPIFieldPaths(downward.Env), " ")
	vol := strings.Join(validation.DownwardAPIFieldPaths(downward.Volume), " ")
	if env != "metadata.name metadata.namespace metadata.uid spec.nodeName spec.serviceAccountName status.hostIP status.hostIPs status.podIP status.podIPs" {
		t.Errorf("env: %s", env)
	}
	if vol != "metadata.annotations metadata.labels metadata.name metadata.namespace metadata.uid" {
		t.Errorf("volume: %s", vol)
	}
}

func TestValidateResourceFieldSelector(t *testing.T) {
	p := api.NewPath("resourceFieldRef")
	cases := []struct {
		ref  api.ResourceFieldSelector
		mode downward.Mode
		want string
	}{
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: vQuantity("1m")}, downward.Env, ""},
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: vQuantity("1000m")}, downward.Env, ""},
		{api.ResourceFieldSelector{Resource: "requests.memory", Divisor: vQuantity("1Mi")}, downward.Env, ""},
		{api.ResourceFieldSelector{Resource: "limits.hugepages-2Mi", Divisor: vQuantity("1Ki")}, downward.Env, ""},
		{api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.ephemeral-storage"}, downward.Volume, ""},
		{api.ResourceFieldSelector{Resource: "limits.cpu"}, downward.Volume, "containerName: Required value"},
		{api.ResourceFieldSelector{}, downward.Env, "resource: Required value"},
		{api.ResourceFieldSelector{Resource: "limits.nvidia.com/gpu"}, downward.Env, "Unsupported value"},
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: vQuantity("100m")}, downward.Env, "only divisor's values 1m and 1"},
		{api.ResourceFieldSelector{Resource: "limits.memory", Divisor: vQuantity("3")}, downward.Env, "memory resource"},
		{api.ResourceFieldSelector{Resource: "limits.ephemeral-storage", Divisor: vQuantity("500Mi")}, downward.Env, "local ephemeral storage"},
		{api.ResourceFieldSelector{Resource: "requests.hugepages-1Gi", Divisor: vQuantity("1m")}, downward.Env, "hugepages"},
	}
	for _, c := range cases {
		errs := validation.ValidateResourceFieldSelector(c.ref, c.mode, p)
		if c.want == "" && len(errs) != 0 || c.want != "" && (len(errs) == 0 || !strings.Contains(errs.Error(), c.want)) {
			t.Errorf("%+v (%v): errors %v, want %q", c.ref, c.mode, errs, c.want)
		}
	}
}

func TestValidateDownwardAPIVolumeFile(t *testing.T) {
	p := api.NewPath("items").Index(0)
	ok := api.DownwardAPIVolumeFile{Path: "labels", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}}
	if errs := validation.ValidateDownwardAPIVolumeFile(ok, p); len(errs) != 0 {
		t.Errorf("valid item: %v", errs)
	}
	cases := []struct {
		f    api.DownwardAPIVolumeFile
		want string
	}{
		{api.DownwardAPIVolumeFile{Path: "/abs", FieldRef: ok.FieldRef}, "must be a relative path"},
		{api.DownwardAPIVolumeFile{Path: "a/../b", FieldRef: ok.FieldRef}, "must not contain '..'"},
		{api.DownwardAPIVolumeFile{Path: "..data", FieldRef: ok.FieldRef}, "must not start with '..'"},
		{api.DownwardAPIVolumeFile{FieldRef: ok.FieldRef}, "path: Required value"},
		{api.DownwardAPIVolumeFile{Path: "x"}, "one of fieldRef and resourceFieldRef is required"},
		{api.DownwardAPIVolumeFile{Path: "x", FieldRef: ok.FieldRef, ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "a", Resource: "limits.cpu"}}, "can not be specified simultaneously"},
		{api.DownwardAPIVolumeFile{Path: "x", FieldRef: ok.FieldRef, Mode: vPtr[int32](0o1000)}, "between 0 and 0777"},
		{api.DownwardAPIVolumeFile{Path: "x", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}, "Unsupported value"},
	}
	for _, c := range cases {
		errs := validation.ValidateDownwardAPIVolumeFile(c.f, p)
		if len(errs) == 0 || !strings.Contains(errs.Error(), c.want) {
			t.Errorf("%+v: errors %v, want %q", c.f, errs, c.want)
		}
	}
}

// vQuantity parses s into a new quantity.
func vQuantity(s string) *api.Quantity {
	q := api.MustParseQuantity(s)
	return &q
}

// TestValidatePodCreateDownwardAPIVolume checks that a pod's downwardAPI
// volume items are validated in full, with upstream's errors reported at
// the volume's downwardAPI field rather than at the item's index.
func TestValidatePodCreateDownwardAPIVolume(t *testing.T) {
	labels := &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}
	tests := []struct {
		name  string
		items []api.DownwardAPIVolumeFile
		want  []string
	}{
		{name: "valid items", items: []api.DownwardAPIVolumeFile{
			{Path: "labels", FieldRef: labels},
			{Path: "cpu", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu"}},
		}, want: []string{}},
		{name: "a backslash is not a path separator", items: []api.DownwardAPIVolumeFile{{Path: `a\..\b`, FieldRef: labels}}, want: []string{}},
		{name: "neither reference", items: []api.DownwardAPIVolumeFile{{Path: "x"}},
			want: []string{"spec.volumes[0].downwardAPI FieldValueRequired"}},
		{name: "both references", items: []api.DownwardAPIVolumeFile{{Path: "x", FieldRef: labels, ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.cpu"}}},
			want: []string{"spec.volumes[0].downwardAPI FieldValueInvalid"}},
		{name: "second item's bad path and field", items: []api.DownwardAPIVolumeFile{
			{Path: "labels", FieldRef: labels},
			{Path: "../x", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"}, Mode: vPtr[int32](0o1000)},
		}, want: []string{
			"spec.volumes[0].downwardAPI.fieldRef.fieldPath FieldValueNotSupported",
			"spec.volumes[0].downwardAPI.mode FieldValueInvalid",
			"spec.volumes[0].downwardAPI.path FieldValueInvalid",
		}},
		{name: "volume file needs a container name", items: []api.DownwardAPIVolumeFile{{Path: "cpu", ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu"}}},
			want: []string{"spec.volumes[0].downwardAPI.resourceFieldRef.containerName FieldValueRequired"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vBasePod()
			p.Spec.Volumes = []api.Volume{{Name: "info", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{Items: tt.items}}}}
			if d := cmp.Diff(tt.want, vPairs(validation.ValidatePodCreate(p))); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

// TestValidatePodCreateVolumeItemPaths checks the path rule on the items
// of configMap volumes and of every kind of projected source: no "..",
// relative, and (as upstream's validateKeyToPath has it) not starting
// with "..".
func TestValidatePodCreateVolumeItemPaths(t *testing.T) {
	labels := &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}
	p := vBasePod()
	p.Spec.Volumes = []api.Volume{
		{Name: "cm", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{
			LocalObjectReference: api.LocalObjectReference{Name: "c"},
			Items:                []api.KeyToPath{{Key: "k", Path: "..data"}},
		}}},
		{Name: "proj", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{Sources: []api.VolumeProjection{
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "../../etc/passwd", FieldRef: labels}}}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "c"}, Items: []api.KeyToPath{{Key: "k", Path: "/abs"}}}},
			{Secret: &api.SecretProjection{Items: []api.KeyToPath{{Key: "k", Path: "ok"}}}},
		}}}},
	}
	want := []string{
		"spec.volumes[0].configMap.items[0].path FieldValueInvalid",
		"spec.volumes[1].projected.sources[0].downwardAPI.path FieldValueInvalid",
		"spec.volumes[1].projected.sources[1].configMap.items[0].path FieldValueInvalid",
		"spec.volumes[1].projected.sources[2].secret.name FieldValueRequired",
	}
	if d := cmp.Diff(want, vPairs(validation.ValidatePodCreate(p))); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
}
