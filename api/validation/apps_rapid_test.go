package validation_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// genIntOrString draws a rolling-update value: an integer (sometimes
// negative) or a percentage string (sometimes not one).
func genIntOrString(t *rapid.T, label string) *api.IntOrString {
	switch rapid.IntRange(0, 3).Draw(t, label+"-kind") {
	case 0:
		return nil
	case 1:
		v := api.FromInt32(int32(rapid.IntRange(-2, 5).Draw(t, label+"-int")))
		return &v
	case 2:
		v := api.FromString(rapid.SampledFrom([]string{"0%", "25%", "100%", "101%"}).Draw(t, label+"-pct"))
		return &v
	}
	v := api.FromString(rapid.SampledFrom([]string{"", "x", "5", "1.5%"}).Draw(t, label+"-str"))
	return &v
}

func genInt32Ptr(t *rapid.T, label string, lo, hi int) *int32 {
	if !rapid.Bool().Draw(t, label+"-set") {
		return nil
	}
	v := int32(rapid.IntRange(lo, hi).Draw(t, label))
	return &v
}

// genDeployment draws a Deployment around the valid one of the vectors,
// with its spec's numbers, strategy and selector varied.
func genDeployment(t *rapid.T) *api.Deployment {
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: rapid.SampledFrom([]string{"web", "web-1", "Web", ""}).Draw(t, "name"), Namespace: "default"},
		Spec: api.DeploymentSpec{
			Replicas:                genInt32Ptr(t, "replicas", -2, 5),
			Selector:                &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"web", "db"}).Draw(t, "sel")}},
			Template:                tTemplate(),
			Strategy:                api.DeploymentStrategy{Type: api.DeploymentStrategyType(rapid.SampledFrom([]string{"", "Recreate", "RollingUpdate", "Other"}).Draw(t, "type"))},
			MinReadySeconds:         int32(rapid.IntRange(-1, 40).Draw(t, "minReady")),
			RevisionHistoryLimit:    genInt32Ptr(t, "history", -1, 10),
			Paused:                  rapid.Bool().Draw(t, "paused"),
			ProgressDeadlineSeconds: genInt32Ptr(t, "deadline", -1, 60),
		},
	}
	if rapid.Bool().Draw(t, "nil-selector") {
		d.Spec.Selector = nil
	}
	if rapid.Bool().Draw(t, "rolling") {
		d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxUnavailable: genIntOrString(t, "maxUnavailable"), MaxSurge: genIntOrString(t, "maxSurge")}
	}
	return d
}

// TestPropertyDeploymentValidation: for any Deployment, validation does
// not modify it, every error names a field under metadata or spec, and
// defaulting never turns a valid Deployment invalid (a valid one stays
// valid when defaulted again); the defaulted one, when valid, updates
// onto itself. A valid Deployment's ReplicaSet (same selector, template
// and replicas) is valid too.
func TestPropertyDeploymentValidation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		api.DefaultDeployment(d)
		before, _ := json.Marshal(d)
		errs := validation.ValidateDeployment(d)
		if after, _ := json.Marshal(d); string(after) != string(before) {
			t.Fatalf("validation modified the Deployment")
		}
		for _, e := range errs {
			if e == nil || !(strings.HasPrefix(e.Field, "metadata.") || strings.HasPrefix(e.Field, "spec.") || e.Field == "spec") {
				t.Fatalf("error without a field path under metadata or spec: %v", e)
			}
		}
		if len(errs) > 0 {
			return
		}
		again := d.DeepCopy()
		api.DefaultDeployment(again)
		if errs := validation.ValidateDeployment(again); len(errs) > 0 {
			t.Fatalf("a valid Deployment is refused after defaulting: %v", errs)
		}
		d.ResourceVersion = "1"
		if errs := validation.ValidateDeploymentUpdate(d, d.DeepCopy()); len(errs) > 0 {
			t.Fatalf("a valid Deployment does not update onto itself: %v", errs)
		}
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-abc", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Replicas: d.Spec.Replicas, Selector: d.Spec.Selector, Template: d.Spec.Template, MinReadySeconds: d.Spec.MinReadySeconds}}
		if errs := validation.ValidateReplicaSet(rs); len(errs) > 0 {
			t.Fatalf("the ReplicaSet of a valid Deployment is refused: %v", errs)
		}
	})
}

// TestPropertyBothZero: a RollingUpdate Deployment is refused with
// "may not be 0 when `maxSurge` is 0" exactly when both values count as
// 0.
func TestPropertyBothZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mu, ms := genIntOrString(t, "maxUnavailable"), genIntOrString(t, "maxSurge")
		d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.DeploymentSpec{
			Selector: tSelector(), Template: tTemplate(),
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: mu, MaxSurge: ms}},
		}}
		api.DefaultDeployment(d)
		// Upstream reads a percentage as its number and any other
		// string as a decimal integer, 0 when it is not one.
		zeroStrings := map[string]bool{"0%": true, "": true, "x": true, "1.5%": true}
		zero := func(v *api.IntOrString) bool {
			if v == nil {
				return false // defaulted to 25%
			}
			if v.IsString {
				return zeroStrings[v.StrVal]
			}
			return v.IntVal == 0
		}
		want := zero(mu) && zero(ms)
		got := false
		for _, e := range validation.ValidateDeployment(d) {
			if strings.HasSuffix(e.Error(), "may not be 0 when `maxSurge` is 0") {
				got = true
			}
		}
		if got != want {
			t.Fatalf("both-zero error %v, want %v (maxUnavailable %v, maxSurge %v)", got, want, mu, ms)
		}
	})
}

// FuzzValidateApps decodes arbitrary JSON as an old and a new Deployment,
// ReplicaSet, DaemonSet and StatefulSet and runs the validators, defaulted
// and not: none may panic.
func FuzzValidateApps(f *testing.F) {
	if b, err := os.ReadFile("testdata/apps/vectors.json"); err == nil {
		var vs []appsVector
		if json.Unmarshal(b, &vs) == nil {
			for _, v := range vs {
				old := v.Old
				if len(old) == 0 {
					old = v.Object
				}
				f.Add([]byte(v.Object), []byte(old))
			}
		}
	}
	f.Add([]byte(`{}`), []byte(`{"spec":{"strategy":{"type":"RollingUpdate"}}}`))
	f.Fuzz(func(t *testing.T, newJSON, oldJSON []byte) {
		var d, od api.Deployment
		if json.Unmarshal(newJSON, &d) == nil && json.Unmarshal(oldJSON, &od) == nil {
			validation.ValidateDeployment(&d)
			validation.ValidateDeploymentUpdate(&d, &od)
			api.DefaultDeployment(&d)
			api.DefaultDeployment(&od)
			validation.ValidateDeployment(&d)
			validation.ValidateDeploymentUpdate(&d, &od)
		}
		var rs, ors api.ReplicaSet
		if json.Unmarshal(newJSON, &rs) == nil && json.Unmarshal(oldJSON, &ors) == nil {
			validation.ValidateReplicaSet(&rs)
			validation.ValidateReplicaSetUpdate(&rs, &ors)
			api.DefaultReplicaSet(&rs)
			validation.ValidateReplicaSet(&rs)
		}
		var ds, ods api.DaemonSet
		if json.Unmarshal(newJSON, &ds) == nil && json.Unmarshal(oldJSON, &ods) == nil {
			validation.ValidateDaemonSet(&ds)
			validation.ValidateDaemonSetUpdate(&ds, &ods)
			api.DefaultDaemonSet(&ds)
			validation.ValidateDaemonSet(&ds)
		}
		var set, oset api.StatefulSet
		if json.Unmarshal(newJSON, &set) == nil && json.Unmarshal(oldJSON, &oset) == nil {
			validation.ValidateStatefulSet(&set)
			validation.ValidateStatefulSetUpdate(&set, &oset)
			api.DefaultStatefulSet(&set)
			validation.ValidateStatefulSet(&set)
		}
	})
}
