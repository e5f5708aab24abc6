package validation_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func TestValidateDeleteOptions(t *testing.T) {
	ptr := func(s string) *string { return &s }
	yes := true
	tests := []struct {
		name string
		o    *api.DeleteOptions
		want []string // the rendered errors
	}{
		{name: "nil options", o: nil},
		{name: "empty options", o: &api.DeleteOptions{}},
		{name: "every policy and dry run", o: &api.DeleteOptions{PropagationPolicy: ptr("Foreground"), DryRun: []string{"All"}}},
		{name: "orphanDependents alone", o: &api.DeleteOptions{OrphanDependents: &yes}},
		{name: "orphanDependents with a policy", o: &api.DeleteOptions{OrphanDependents: &yes, PropagationPolicy: ptr("Background")},
			want: []string{"propagationPolicy: Invalid value: orphanDependents and propagationPolicy cannot both be set"}},
		{name: "unknown policy", o: &api.DeleteOptions{PropagationPolicy: ptr("Sometimes")},
			want: []string{`propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan"`}},
		{name: "policies are case-sensitive", o: &api.DeleteOptions{PropagationPolicy: ptr("orphan")},
			want: []string{`propagationPolicy: Unsupported value: "orphan": supported values: "Foreground", "Background", "Orphan"`}},
		{name: "dry run values", o: &api.DeleteOptions{DryRun: []string{"All", "Some", ""}},
			want: []string{`dryRun[1]: Unsupported value: "Some": supported values: "All"`, `dryRun[2]: Unsupported value: "": supported values: "All"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range validation.ValidateDeleteOptions(tt.o) {
				got = append(got, e.Error())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}
