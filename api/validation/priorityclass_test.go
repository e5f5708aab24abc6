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
