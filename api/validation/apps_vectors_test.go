package validation_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// appsVector is one case of testdata/apps/vectors.json, written by
// upstream's apps validation through testdata/apps/appsoracle.
type appsVector struct {
	Name    string          `json:"name"`
	Object  json.RawMessage `json:"object"`
	Old     json.RawMessage `json:"old"`
	Errors  []string        `json:"errors"`
	Message string          `json:"message"`
}

// decodeApps decodes raw as the apps/v1 object its kind names and
// defaults it as the API server does.
func decodeApps(t *testing.T, raw json.RawMessage) api.Object {
	t.Helper()
	var tm struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &tm); err != nil {
		t.Fatal(err)
	}
	switch tm.Kind {
	case "Deployment":
		d := &api.Deployment{}
		if err := json.Unmarshal(raw, d); err != nil {
			t.Fatal(err)
		}
		api.DefaultDeployment(d)
		return d
	case "ReplicaSet":
		rs := &api.ReplicaSet{}
		if err := json.Unmarshal(raw, rs); err != nil {
			t.Fatal(err)
		}
		api.DefaultReplicaSet(rs)
		return rs
	case "DaemonSet":
		ds := &api.DaemonSet{}
		if err := json.Unmarshal(raw, ds); err != nil {
			t.Fatal(err)
		}
		api.DefaultDaemonSet(ds)
		return ds
	case "StatefulSet":
		set := &api.StatefulSet{}
		if err := json.Unmarshal(raw, set); err != nil {
			t.Fatal(err)
		}
		api.DefaultStatefulSet(set)
		return set
	}
	t.Fatalf("kind %q", tm.Kind)
	return nil
}

// validateApps is what the API server runs for a create (old nil) or an
// update, and the message it returns.
func validateApps(obj, old api.Object) (api.FieldErrors, string) {
	var errs api.FieldErrors
	var kind, name string
	switch x := obj.(type) {
	case *api.Deployment:
		kind, name = "Deployment", x.Name
		if old == nil {
			errs = validation.ValidateDeployment(x)
		} else {
			errs = validation.ValidateDeploymentUpdate(x, old.(*api.Deployment))
		}
	case *api.ReplicaSet:
		kind, name = "ReplicaSet", x.Name
		if old == nil {
			errs = validation.ValidateReplicaSet(x)
		} else {
			errs = validation.ValidateReplicaSetUpdate(x, old.(*api.ReplicaSet))
		}
	case *api.DaemonSet:
		kind, name = "DaemonSet", x.Name
		if old == nil {
			errs = validation.ValidateDaemonSet(x)
		} else {
			errs = validation.ValidateDaemonSetUpdate(x, old.(*api.DaemonSet))
		}
	case *api.StatefulSet:
		kind, name = "StatefulSet", x.Name
		if old == nil {
			errs = validation.ValidateStatefulSet(x)
		} else {
			errs = validation.ValidateStatefulSetUpdate(x, old.(*api.StatefulSet))
		}
	}
	if len(errs) == 0 {
		return errs, ""
	}
	return errs, validation.InvalidObjectMessage(kind, "apps", name, errs)
}

func TestAppsValidationVectors(t *testing.T) {
	vs := readVectors(t, "testdata/apps/vectors.json")
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			obj := decodeApps(t, v.Object)
			var old api.Object
			if len(v.Old) > 0 {
				old = decodeApps(t, v.Old)
			}
			errs, msg := validateApps(obj, old)
			got := []string{}
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if d := cmp.Diff(v.Errors, got); d != "" {
				t.Errorf("errors (-upstream +podsem):\n%s", d)
			}
			if msg != v.Message {
				t.Errorf("message:\n got %s\nwant %s", msg, v.Message)
			}
		})
	}
}

// readVectors reads a file of upstream-written validation vectors (at
// least 40 of them).
func readVectors(t *testing.T, path string) []appsVector {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []appsVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 40 {
		t.Fatalf("%s: %d vectors, want at least 40", path, len(vs))
	}
	return vs
}
