package downward

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func boolp(b bool) *bool { return &b }

func envPod(c api.Container) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{c}},
	}
}

func envCtx() *Context {
	ctx := testContext()
	ctx.Node.Status.Allocatable = rl("cpu", "4", "memory", "8Gi")
	return ctx
}

var envObjects = Objects{
	ConfigMaps: map[string]map[string]string{
		"shop/settings": {"LOG_LEVEL": "debug", "MODE": "fast", "URL": "http://$(HOST)"},
	},
	Secrets: map[string]map[string][]byte{
		"shop/creds": {"PASSWORD": []byte("s3cret"), "USER": []byte("admin")},
	},
	EnvFiles: map[string]map[string]string{
		"config/app.env": {"TOKEN": "abc"},
	},
}

func TestEnvironment(t *testing.T) {
	c := api.Container{
		Name: "app",
		EnvFrom: []api.EnvFromSource{
			{ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "settings"}}},
			{Prefix: "DB_", SecretRef: &api.SecretEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "creds"}}},
			{ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "absent"}, Optional: boolp(true)}},
		},
		Env: []api.EnvVar{
			{Name: "POD_NAME", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			{Name: "GREETING", Value: "hello $(POD_NAME) on $(NODE) at $$(POD_NAME) in $(KUBERNETES_SERVICE_HOST)"},
			{Name: "NODE", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "spec.nodeName"}}},
			{Name: "MODE", Value: "$(MODE)-override"},
			{Name: "MEM_MI", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Mi")}}},
			{Name: "LEVEL", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "settings"}, Key: "LOG_LEVEL"}}},
			{Name: "MAYBE", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "settings"}, Key: "NOPE", Optional: boolp(true)}}},
			{Name: "DB_USER", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "creds"}, Key: "PASSWORD"}}},
			{Name: "TOKEN", ValueFrom: &api.EnvVarSource{FileKeyRef: &api.FileKeySelector{VolumeName: "config", Path: "app.env", Key: "TOKEN"}}},
			{Name: "EMPTY"},
			{Name: "URL_COPY", Value: "$(URL)"},
		},
	}
	ctx := envCtx()
	ctx.ServiceEnv = map[string]string{"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443", "MODE": "svc"}
	got, err := Environment(envPod(c), "app", ctx, envObjects)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{
		{"LOG_LEVEL", "debug"},
		{"MODE", "fast-override"},
		{"URL", "http://$(HOST)"},
		{"DB_PASSWORD", "s3cret"},
		{"DB_USER", "s3cret"},
		{"POD_NAME", "web-0"},
		// NODE is defined after GREETING, so its reference stays.
		{"GREETING", "hello web-0 on $(NODE) at $(POD_NAME) in 10.96.0.1"},
		{"NODE", "node-1"},
		{"MEM_MI", "8192"},
		{"LEVEL", "debug"},
		{"TOKEN", "abc"},
		{"EMPTY", ""},
		// Values from sources are not expanded; a reference to one is
		// replaced by it verbatim.
		{"URL_COPY", "http://$(HOST)"},
		{"KUBERNETES_SERVICE_HOST", "10.96.0.1"},
		{"KUBERNETES_SERVICE_PORT", "443"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Environment (-want +got):\n%s", d)
	}
}

func TestEnvironmentErrors(t *testing.T) {
	ref := func(src api.EnvVarSource) api.Container {
		return api.Container{Name: "app", Env: []api.EnvVar{{Name: "X", ValueFrom: &src}}}
	}
	cm := func(name, key string, optional bool) api.EnvVarSource {
		return api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{LocalObjectReference: api.LocalObjectReference{Name: name}, Key: key, Optional: boolp(optional)}}
	}
	cases := []struct {
		name   string
		c      api.Container
		ctx    *Context
		lookup Lookup
		err    error
	}{
		{"missing key", ref(cm("settings", "NOPE", false)), envCtx(), envObjects, ErrMissingKey},
		{"missing configmap", ref(cm("absent", "K", false)), envCtx(), envObjects, ErrNotFound},
		{"no lookup", ref(cm("settings", "MODE", false)), envCtx(), nil, ErrNoLookup},
		{"bad field path", ref(api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "status.phase"}}), envCtx(), nil, ErrUnsupportedField},
		{"resourceFieldRef without node", ref(api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu"}}), &Context{}, nil, ErrNoNode},
		{"hostIP without node", ref(api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "status.hostIP"}}), nil, nil, ErrNoNode},
		{"missing secret key", ref(api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "creds"}, Key: "K"}}), envCtx(), envObjects, ErrMissingKey},
		{"envFrom missing secret", api.Container{Name: "app", EnvFrom: []api.EnvFromSource{{SecretRef: &api.SecretEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "nope"}}}}}, envCtx(), envObjects, ErrNotFound},
		{"missing env file", ref(api.EnvVarSource{FileKeyRef: &api.FileKeySelector{VolumeName: "v", Path: "p", Key: "K"}}), envCtx(), envObjects, ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Environment(envPod(c.c), "app", c.ctx, c.lookup); !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
		})
	}
	if _, err := Environment(envPod(api.Container{Name: "app"}), "other", nil, nil); !errors.Is(err, ErrContainerNotFound) {
		t.Errorf("unknown container: %v", err)
	}
}

func TestEnvironmentOptionalKeepsEnvFromValue(t *testing.T) {
	c := api.Container{
		Name:    "app",
		EnvFrom: []api.EnvFromSource{{ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "settings"}}}},
		Env: []api.EnvVar{{Name: "MODE", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{
			LocalObjectReference: api.LocalObjectReference{Name: "absent"}, Key: "MODE", Optional: boolp(true)}}}},
	}
	got, err := Environment(envPod(c), "app", nil, envObjects)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{{"LOG_LEVEL", "debug"}, {"MODE", "fast"}, {"URL", "http://$(HOST)"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestEnvironmentSelfReference(t *testing.T) {
	c := api.Container{Name: "app", Env: []api.EnvVar{
		{Name: "PATH", Value: "/bin"},
		{Name: "PATH", Value: "/usr/local/bin:$(PATH)"},
		{Name: "LOOP", Value: "$(LOOP)x"},
	}}
	got, err := Environment(envPod(c), "app", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvVar{{"PATH", "/usr/local/bin:/bin"}, {"LOOP", "$(LOOP)x"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
