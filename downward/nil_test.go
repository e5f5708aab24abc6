package downward_test

import (
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
	"github.com/podsem/podsem/internal/niltest"
)

func nilPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Env: []api.EnvVar{{Name: "A", Value: "x"}}}}},
	}
}

// nilCases calls each exported function of downward that can be handed nil
// with nil arguments and checks the documented answer: a nil pod,
// container, volume or node is an error wrapping api.ErrInvalidInput;
// a nil pod to OnDiskMode gives 0. Nil keeps its meaning where the API
// gives it one: a nil Context is an empty one, a nil Lookup none, a nil
// allocatable no node defaulting, nil maps and lists are empty, and a nil
// resolve resolves nothing. Keyed by the names niltest.Nilable lists;
// TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"ContainerResource": func(t *testing.T) {
		v, err := downward.ContainerResource(nil, "limits.cpu", api.Quantity{})
		niltest.Zero(t, v)
		niltest.Invalid(t, err, api.ErrInvalidInput, "container")
	},
	"Environment": func(t *testing.T) {
		env, err := downward.Environment(nil, "app", nil, nil)
		if env != nil {
			t.Errorf("got %v, want nil", env)
		}
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		env, err = downward.Environment(nilPod(), "app", nil, nil)
		if err != nil || len(env) != 1 || env[0].Name != "A" || env[0].Value != "x" {
			t.Errorf("nil context and lookup: got %v, %v; want A=x", env, err)
		}
	},
	"Expand": func(t *testing.T) {
		if got := downward.Expand("$(A)-$$-$(B", nil); got != "$(A)-$-$(B" {
			t.Errorf("nil resolve: got %q, want the references as written", got)
		}
	},
	"ExpandVars": func(t *testing.T) {
		if got := downward.ExpandVars("$(A)", nil, map[string]string{"A": "x"}); got != "x" {
			t.Errorf("a nil map among the vars: got %q, want x", got)
		}
		if got := downward.ExpandVars("$(A)"); got != "$(A)" {
			t.Errorf("no vars: got %q", got)
		}
	},
	"FieldRef": func(t *testing.T) {
		v, err := downward.FieldRef(nil, api.ObjectFieldSelector{FieldPath: "metadata.name"}, downward.Env, nil)
		niltest.Zero(t, v)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		if v, err := downward.FieldRef(nilPod(), api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}, downward.Env, nil); err != nil || v != "web" {
			t.Errorf("nil context: got %q, %v; want web", v, err)
		}
		// Without a Node the host IP is unavailable; that is not bad input.
		_, err = downward.FieldRef(nilPod(), api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.hostIP"}, downward.Env, nil)
		if !errors.Is(err, downward.ErrNoNode) || errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("hostIP without a node: got %v, want ErrNoNode alone", err)
		}
	},
	"FormatMap": func(t *testing.T) {
		niltest.Zero(t, downward.FormatMap(nil))
	},
	"HostIPs": func(t *testing.T) {
		ips, err := downward.HostIPs(nil)
		if ips != nil {
			t.Errorf("got %v, want nil", ips)
		}
		niltest.Invalid(t, err, api.ErrInvalidInput, "node")
		if !errors.Is(err, downward.ErrNoNode) {
			t.Errorf("%v does not wrap ErrNoNode", err)
		}
	},
	"OnDiskMode": func(t *testing.T) {
		niltest.Zero(t, downward.OnDiskMode(nil, 0o644))
	},
	"ResourceFieldRef": func(t *testing.T) {
		v, err := downward.ResourceFieldRef(nil, "app", api.ResourceFieldSelector{Resource: "limits.cpu"}, nil)
		niltest.Zero(t, v)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		// A nil allocatable defaults nothing: an unset limit is 0.
		if v, err := downward.ResourceFieldRef(nilPod(), "app", api.ResourceFieldSelector{Resource: "limits.cpu"}, nil); err != nil || v != "0" {
			t.Errorf("nil allocatable: got %q, %v; want 0", v, err)
		}
	},
	"SortPodIPs": func(t *testing.T) {
		if got := downward.SortPodIPs(nil, nil); len(got) != 0 {
			t.Errorf("got %v, want none", got)
		}
	},
	"VolumeFiles": func(t *testing.T) {
		vol := &api.Volume{Name: "info", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
			Items: []api.DownwardAPIVolumeFile{{Path: "name", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}}}}}}
		files, err := downward.VolumeFiles(nil, vol, nil, nil)
		if files != nil {
			t.Errorf("nil pod: got %v, want nil", files)
		}
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		files, err = downward.VolumeFiles(nilPod(), nil, nil, nil)
		if files != nil {
			t.Errorf("nil volume: got %v, want nil", files)
		}
		niltest.Invalid(t, err, api.ErrInvalidInput, "volume")
		if files, err := downward.VolumeFiles(nilPod(), vol, nil, nil); err != nil || len(files) != 1 || string(files[0].Data) != "web" {
			t.Errorf("nil allocatable and lookup: got %v, %v", files, err)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function of downward that
// can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
