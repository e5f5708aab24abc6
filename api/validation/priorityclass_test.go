package validation_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func TestValidatePriorityClass(t *testing.T) {
	never, empty := api.PreemptNever, api.PreemptionPolicy("")
	tests := []struct {
		name string
		pc   *api.PriorityClass
		want []string
	}{
		{name: "nil", pc: nil, want: []string{"metadata FieldValueRequired"}},
		{name: "valid", pc: &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch"}, Value: 10, PreemptionPolicy: &never}, want: []string{}},
		{name: "generateName only", pc: &api.PriorityClass{ObjectMeta: api.ObjectMeta{GenerateName: "batch-"}}, want: []string{}},
		{name: "no name", pc: &api.PriorityClass{}, want: []string{"metadata.name FieldValueRequired"}},
		{name: "namespaced", pc: &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default"}},
			want: []string{"metadata.namespace FieldValueForbidden"}},
		{name: "bad annotation key", pc: &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch", Annotations: map[string]string{"a b": ""}}},
			want: []string{"metadata.annotations FieldValueInvalid"}},
		{name: "empty preemption policy", pc: &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch"}, PreemptionPolicy: &empty},
			want: []string{"preemptionPolicy FieldValueRequired"}},
		{name: "built-in class exactly", pc: &api.SystemPriorityClasses()[0], want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, vPairs(validation.ValidatePriorityClass(tt.pc))); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

func TestValidatePriorityClassUpdate(t *testing.T) {
	never, lower := api.PreemptNever, api.PreemptLowerPriority
	old := &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "batch", ResourceVersion: "7", Generation: 1}, Value: 1000, PreemptionPolicy: &lower}
	with := func(f func(pc *api.PriorityClass)) *api.PriorityClass {
		pc := *old
		pc.Labels = map[string]string{"team": "data"}
		f(&pc)
		return &pc
	}
	tests := []struct {
		name string
		pc   *api.PriorityClass
		want []string
	}{
		{name: "labels and description change", pc: with(func(pc *api.PriorityClass) { pc.Description = "batch jobs" }), want: []string{}},
		{name: "value", pc: with(func(pc *api.PriorityClass) { pc.Value = 2000 }), want: []string{"value FieldValueForbidden"}},
		{name: "preemptionPolicy", pc: with(func(pc *api.PriorityClass) { pc.PreemptionPolicy = &never }), want: []string{"preemptionPolicy FieldValueInvalid"}},
		{name: "globalDefault may change", pc: with(func(pc *api.PriorityClass) { pc.GlobalDefault = true }), want: []string{}},
		{name: "no resourceVersion", pc: with(func(pc *api.PriorityClass) { pc.ResourceVersion = "" }), want: []string{"metadata.resourceVersion FieldValueInvalid"}},
		{name: "renamed", pc: with(func(pc *api.PriorityClass) { pc.Name = "batch-2" }), want: []string{"metadata.name FieldValueInvalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, vPairs(validation.ValidatePriorityClassUpdate(tt.pc, old))); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
	errs := validation.ValidatePriorityClassUpdate(with(func(pc *api.PriorityClass) { pc.PreemptionPolicy = &never }), old)
	if got, want := errs.Error(), `preemptionPolicy: Invalid value: "Never": field is immutable`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
