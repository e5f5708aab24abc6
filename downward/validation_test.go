package downward

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

func TestValidateFieldRef(t *testing.T) {
	root := api.NewPath("spec", "containers").Index(0).Child("env").Index(0).Child("valueFrom", "fieldRef")
	cases := []struct {
		path, version string
		mode          Mode
		want          string // substring of the error, "" for valid
	}{
		{"metadata.name", "v1", Env, ""},
		{"status.hostIPs", "v1", Env, ""},
		{"spec.host", "v1", Env, ""},
		{"metadata.labels['app']", "v1", Env, ""},
		{"metadata.annotations['Example.com/Key']", "v1", Volume, ""},
		{"metadata.labels", "v1", Volume, ""},
		{"metadata.labels", "v1", Env, `Unsupported value: "metadata.labels"`},
		{"metadata.annotations", "v1", Env, "Unsupported value"},
		{"spec.nodeName", "v1", Volume, "Unsupported value"},
		{"spec.restartPolicy", "v1", Env, "Unsupported value"},
		{"metadata.generateName", "v1", Env, "error converting fieldPath"},
		{"metadata.name", "v2", Env, "error converting fieldPath"},
		{"metadata.name", "", Env, "apiVersion: Required value"},
		{"", "v1", Env, "fieldPath: Required value"},
		{"metadata.labels['Bad Key']", "v1", Env, "Invalid value"},
		{"spec.nodeName['x']", "v1", Env, "error converting fieldPath"},
	}
	for _, c := range cases {
		errs := ValidateFieldRef(api.ObjectFieldSelector{APIVersion: c.version, FieldPath: c.path}, c.mode, root)
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

func TestAllowedFieldPaths(t *testing.T) {
	env := strings.Join(AllowedFieldPaths(Env), " ")
	vol := strings.Join(AllowedFieldPaths(Volume), " ")
	if env != "metadata.name metadata.namespace metadata.uid spec.nodeName spec.serviceAccountName status.hostIP status.hostIPs status.podIP status.podIPs" {
		t.Errorf("env: %s", env)
	}
	if vol != "metadata.annotations metadata.labels metadata.name metadata.namespace metadata.uid" {
		t.Errorf("volume: %s", vol)
	}
}

func TestValidateResourceFieldRef(t *testing.T) {
	p := api.NewPath("resourceFieldRef")
	cases := []struct {
		ref  api.ResourceFieldSelector
		mode Mode
		want string
	}{
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("1m")}, Env, ""},
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("1000m")}, Env, ""},
		{api.ResourceFieldSelector{Resource: "requests.memory", Divisor: qp("1Mi")}, Env, ""},
		{api.ResourceFieldSelector{Resource: "limits.hugepages-2Mi", Divisor: qp("1Ki")}, Env, ""},
		{api.ResourceFieldSelector{ContainerName: "app", Resource: "limits.ephemeral-storage"}, Volume, ""},
		{api.ResourceFieldSelector{Resource: "limits.cpu"}, Volume, "containerName: Required value"},
		{api.ResourceFieldSelector{}, Env, "resource: Required value"},
		{api.ResourceFieldSelector{Resource: "limits.nvidia.com/gpu"}, Env, "Unsupported value"},
		{api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: qp("100m")}, Env, "only divisor's values 1m and 1"},
		{api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("3")}, Env, "memory resource"},
		{api.ResourceFieldSelector{Resource: "limits.ephemeral-storage", Divisor: qp("500Mi")}, Env, "local ephemeral storage"},
		{api.ResourceFieldSelector{Resource: "requests.hugepages-1Gi", Divisor: qp("1m")}, Env, "hugepages"},
	}
	for _, c := range cases {
		errs := ValidateResourceFieldRef(c.ref, c.mode, p)
		if c.want == "" && len(errs) != 0 || c.want != "" && (len(errs) == 0 || !strings.Contains(errs.Error(), c.want)) {
			t.Errorf("%+v (%v): errors %v, want %q", c.ref, c.mode, errs, c.want)
		}
	}
}

func TestValidateVolumeFile(t *testing.T) {
	p := api.NewPath("items").Index(0)
	ok := api.DownwardAPIVolumeFile{Path: "labels", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}}
	if errs := ValidateVolumeFile(ok, p); len(errs) != 0 {
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
		{api.DownwardAPIVolumeFile{Path: "x", FieldRef: ok.FieldRef, Mode: int32p(0o1000)}, "between 0 and 0777"},
		{api.DownwardAPIVolumeFile{Path: "x", FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}, "Unsupported value"},
	}
	for _, c := range cases {
		errs := ValidateVolumeFile(c.f, p)
		if len(errs) == 0 || !strings.Contains(errs.Error(), c.want) {
			t.Errorf("%+v: errors %v, want %q", c.f, errs, c.want)
		}
	}
}
