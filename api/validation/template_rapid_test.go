package validation_test

import (
	"encoding/json"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"pgregory.net/rapid"
)

// TestPropertyTemplateOfValidPod: the spec and labels of a pod the API
// server accepts on create, as a Deployment's template (restartPolicy
// Always, no deadline) with a selector on its labels, are accepted too:
// a template is checked by the same pod spec rules, without the pod-only
// ones. The workload is not modified.
func TestPropertyTemplateOfValidPod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := vGenValidPod(t)
		p.Spec.RestartPolicy = api.RestartPolicyAlways
		p.Spec.ActiveDeadlineSeconds = nil
		if errs := validation.ValidatePodCreate(p); len(errs) > 0 {
			t.Skip("generator made an invalid pod")
		}
		d := &api.Deployment{Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: p.Labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: p.Labels, Annotations: p.Annotations}, Spec: p.Spec},
		}}
		if len(p.Labels) == 0 {
			d.Spec.Selector.MatchLabels = map[string]string{"app": "web"}
			d.Spec.Template.Labels = map[string]string{"app": "web"}
		}
		before, _ := json.Marshal(d)
		if errs := validation.ValidateWorkloadTemplate(d); len(errs) > 0 {
			t.Fatalf("template of a valid pod refused: %v", errs)
		}
		if after, _ := json.Marshal(d); string(after) != string(before) {
			t.Fatalf("the Deployment was modified")
		}
	})
}

// TestPropertySelectorMatch: a ReplicaSet with a valid, non-empty
// selector gets the "does not match" error exactly when the selector
// does not select its template's labels.
func TestPropertySelectorMatch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vals := []string{"a", "b"}
		labels := map[string]string{}
		for _, k := range []string{"app", "tier"} {
			if rapid.Bool().Draw(t, "has-"+k) {
				labels[k] = rapid.SampledFrom(vals).Draw(t, "label-"+k)
			}
		}
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(vals).Draw(t, "sel-app")}}
		if rapid.Bool().Draw(t, "expr") {
			sel.MatchExpressions = []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{rapid.SampledFrom(vals).Draw(t, "sel-tier")}}}
		}
		rs := &api.ReplicaSet{Spec: api.ReplicaSetSpec{Selector: sel, Template: tTemplate()}}
		rs.Spec.Template.Labels = labels
		s, err := api.LabelSelectorAsSelector(sel)
		if err != nil {
			t.Fatal(err)
		}
		mismatch := false
		for _, e := range validation.ValidateWorkloadTemplate(rs) {
			if e.Field == "spec.template.metadata.labels" && e.Detail == "`selector` does not match template `labels`" {
				mismatch = true
			}
		}
		if want := !s.Matches(api.Set(labels)); mismatch != want {
			t.Fatalf("mismatch reported %v, want %v (selector %v, labels %v)", mismatch, want, sel, labels)
		}
	})
}
