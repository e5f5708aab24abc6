package managedfields_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/managedfields"
)

func obj(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	kubectl  = managedfields.Manager{Name: "kubectl", APIVersion: "apps/v1"}
	creator  = managedfields.Manager{Name: "e2e", APIVersion: "apps/v1"}
	scaler   = managedfields.Manager{Name: "e2e", APIVersion: "apps/v1", Subresource: "scale"}
	kcm      = managedfields.Manager{Name: "kube-controller-manager", APIVersion: "apps/v1"}
	deploy   = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}]},{"name":"sidecar","image":"envoy:v1"}]}}}}`
	deploy2  = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.28","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}}}`
	withEnv  = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"}]}]}}}}`
	replicas = func(o map[string]any) any { return o["spec"].(map[string]any)["replicas"] }
)

func containers(o map[string]any) []string {
	var out []string
	for _, c := range o["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any) {
		m := c.(map[string]any)
		out = append(out, m["name"].(string)+"="+m["image"].(string))
	}
	return out
}

// An applier's second apply removes what it no longer applies: the tier
// label, spec.replicas, the sidecar container.
func TestApplyRemovesWhatTheApplierDropped(t *testing.T) {
	o1, mf, err := managedfields.Apply("Deployment", nil, obj(t, deploy), nil, kubectl, false)
	if err != nil {
		t.Fatal(err)
	}
	o2, mf, err := managedfields.Apply("Deployment", o1, obj(t, deploy2), mf, kubectl, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := o2["metadata"].(map[string]any)["labels"]; !cmp.Equal(got, map[string]any{"app": "web"}) {
		t.Errorf("labels %v", got)
	}
	if r := replicas(o2); r != nil {
		t.Errorf("replicas %v, want removed", r)
	}
	if got := containers(o2); !cmp.Equal(got, []string{"web=nginx:1.28"}) {
		t.Errorf("containers %v", got)
	}
	if len(mf) != 1 || !mf[0].Fields.Has(`.spec.template.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"].containerPort`) {
		t.Errorf("ownership %v", mf)
	}
}

// Fields another manager owns stay: created by a plain create, the
// sidecar and the replicas survive an apply that leaves them out. The
// new image is the creator's field: only a forced apply takes it.
func TestApplyKeepsWhatOthersOwn(t *testing.T) {
	live := obj(t, deploy)
	mf, err := managedfields.Update("Deployment", nil, live, nil, creator)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = managedfields.Apply("Deployment", live, obj(t, deploy2), mf, kubectl, false)
	const want = `Apply failed with 1 conflict: conflict with "e2e" using apps/v1: .spec.template.spec.containers[name="web"].image`
	if err == nil || err.Error() != want {
		t.Fatalf("err %v, want %s", err, want)
	}
	o, mf, err := managedfields.Apply("Deployment", live, obj(t, deploy2), mf, kubectl, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := containers(o); !cmp.Equal(got, []string{"web=nginx:1.28", "sidecar=envoy:v1"}) {
		t.Errorf("containers %v", got)
	}
	if r := replicas(o); r != 3.0 {
		t.Errorf("replicas %v", r)
	}
	if got := mf.Owner(`.spec.template.spec.containers[name="web"].image`); len(got) != 1 || got[0].Name != "kubectl" {
		t.Errorf("image owned by %v", got)
	}
}

// A scale takes spec.replicas from the applier; applying without it keeps
// the scaled value; applying another value conflicts with the scale
// unless forced.
func TestApplyConflictsWithScale(t *testing.T) {
	o1, mf, err := managedfields.Apply("Deployment", nil, obj(t, deploy), nil, kubectl, false)
	if err != nil {
		t.Fatal(err)
	}
	scaled := obj(t, deploy)
	scaled["spec"].(map[string]any)["replicas"] = 10.0
	if mf, err = managedfields.Update("Deployment", o1, scaled, mf, scaler); err != nil {
		t.Fatal(err)
	}
	o2, _, err := managedfields.Apply("Deployment", scaled, obj(t, deploy2), mf, kubectl, false)
	if err != nil {
		t.Fatal(err)
	}
	if r := replicas(o2); r != 10.0 {
		t.Errorf("replicas %v, want the scaled 10", r)
	}
	_, _, err = managedfields.Apply("Deployment", scaled, obj(t, deploy), mf, kubectl, false)
	var ce *managedfields.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want a conflict", err)
	}
	const want = `Apply failed with 1 conflict: conflict with "e2e" with subresource "scale" using apps/v1: .spec.replicas`
	if err.Error() != want {
		t.Errorf("message %q\nwant    %q", err, want)
	}
	o3, mf3, err := managedfields.Apply("Deployment", scaled, obj(t, deploy), mf, kubectl, true)
	if err != nil || replicas(o3) != 3.0 {
		t.Fatalf("forced: %v, replicas %v", err, replicas(o3))
	}
	if got := mf3.Owner(".spec.replicas"); len(got) != 1 || got[0].Name != "kubectl" {
		t.Errorf("forced: replicas owned by %v", got)
	}
}

// Associative lists merge item by item: an env list applied to one
// container leaves the container's other fields to their owners.
func TestApplyMergesItems(t *testing.T) {
	live := obj(t, deploy)
	mf, _ := managedfields.Update("Deployment", nil, live, nil, kcm)
	o, _, err := managedfields.Apply("Deployment", live, obj(t, withEnv), mf, kubectl, false)
	if err != nil {
		t.Fatal(err)
	}
	c := o["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	if c["image"] != "nginx:1.27" || len(c["env"].([]any)) != 1 {
		t.Errorf("container %v", c)
	}
	if live["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["env"] != nil {
		t.Error("Apply modified live")
	}
}

func TestApplyRefusesDuplicateItems(t *testing.T) {
	bad := obj(t, `{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"X"},{"name":"X"}]}]}}}}`)
	_, _, err := managedfields.Apply("Deployment", nil, bad, nil, kubectl, false)
	if !errors.Is(err, managedfields.ErrInvalidObject) || err.Error() != `managedfields: invalid object: .spec.template.spec.containers[name="a"].env: duplicate entries for key [name="X"]` {
		t.Errorf("err %v", err)
	}
}

func TestApplyRefusesBadLists(t *testing.T) {
	bad := obj(t, `{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}`)
	_, _, err := managedfields.Apply("Deployment", nil, bad, nil, kubectl, false)
	if !errors.Is(err, managedfields.ErrInvalidObject) || err.Error() != `managedfields: invalid object: .spec.template.spec.containers: item 0 has no key field "name"` {
		t.Errorf("err %v", err)
	}
}
