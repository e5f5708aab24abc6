package workloads

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func TestCreatePodFromTemplate(t *testing.T) {
	owner := &api.ObjectMeta{Name: "frontend-5c6d7", Namespace: "ns-1", UID: "u-rs"}
	ref := NewControllerRef(owner, "apps/v1", "ReplicaSet")
	tmpl := &api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Name: "ignored", Namespace: "ignored", Labels: map[string]string{"app": "frontend"},
			Annotations: map[string]string{"a": "b"}, Finalizers: []string{"example.com/f"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx", Command: []string{"run"}}}, NodeSelector: map[string]string{"zone": "a"}},
	}
	pod, err := CreatePodFromTemplate(tmpl, owner.Name, "", &ref)
	if err != nil {
		t.Fatal(err)
	}
	want := api.ObjectMeta{GenerateName: "frontend-5c6d7-", Labels: map[string]string{"app": "frontend"},
		Annotations: map[string]string{"a": "b"}, Finalizers: []string{"example.com/f"}, OwnerReferences: []api.OwnerReference{ref}}
	if d := cmp.Diff(want, pod.ObjectMeta); d != "" {
		t.Errorf("metadata -want +got:\n%s", d)
	}
	if d := cmp.Diff(tmpl.Spec, pod.Spec); d != "" {
		t.Errorf("spec -want +got:\n%s", d)
	}
	// Nothing aliases the template.
	pod.Labels["app"] = "x"
	pod.Annotations["a"] = "x"
	pod.Finalizers[0] = "x"
	pod.Spec.Containers[0].Command[0] = "x"
	pod.Spec.NodeSelector["zone"] = "x"
	*pod.OwnerReferences[0].Controller = false
	if tmpl.Labels["app"] != "frontend" || tmpl.Annotations["a"] != "b" || tmpl.Finalizers[0] != "example.com/f" ||
		tmpl.Spec.Containers[0].Command[0] != "run" || tmpl.Spec.NodeSelector["zone"] != "a" || !*ref.Controller {
		t.Error("the pod aliases the template or the reference")
	}

	if pod, _ := CreatePodFromTemplate(tmpl, "pi", "pi-3-", &ref); pod.GenerateName != "pi-3-" {
		t.Errorf("generateName %q", pod.GenerateName)
	}
	long := strings.Repeat("a", 253)
	if pod, _ := PodFromTemplate(tmpl, long, nil); pod.GenerateName != long || pod.OwnerReferences != nil {
		t.Errorf("a name that cannot take a dash is its own prefix: %q %v", pod.GenerateName, pod.OwnerReferences)
	}

	noLabels := &api.PodTemplateSpec{Spec: tmpl.Spec}
	if _, err := CreatePodFromTemplate(noLabels, "web", "", &ref); !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), "no labels") {
		t.Errorf("no labels: %v", err)
	}
	if _, err := PodFromTemplate(noLabels, "web", &ref); err != nil {
		t.Errorf("PodFromTemplate does not check labels: %v", err)
	}
	for _, bad := range []*api.OwnerReference{nil, {Kind: "ReplicaSet"}, {APIVersion: "apps/v1", Kind: "ReplicaSet"}} {
		if _, err := CreatePodFromTemplate(tmpl, "web", "", bad); !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("bad controllerRef %+v: %v", bad, err)
		}
	}
}
