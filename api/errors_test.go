package api

import (
	"errors"
	"testing"
)

func TestFieldErrorMessages(t *testing.T) {
	p := NewPath("spec").Child("containers").Index(1).Child("resources", "limits").Key("cpu")
	if p.String() != "spec.containers[1].resources.limits[cpu]" {
		t.Fatalf("path = %s", p)
	}
	grace := int64(-5)
	for _, tc := range []struct {
		err  *FieldError
		want string
	}{
		{Invalid(p, "1x", "must be a quantity"), `spec.containers[1].resources.limits[cpu]: Invalid value: "1x": must be a quantity`},
		{Invalid(NewPath("spec", "activeDeadlineSeconds"), &grace, "must be positive"), `spec.activeDeadlineSeconds: Invalid value: -5: must be positive`},
		{Required(NewPath("spec", "containers"), ""), `spec.containers: Required value`},
		{Forbidden(NewPath("spec"), "pod updates may not change fields"), `spec: Forbidden: pod updates may not change fields`},
		{Duplicate(NewPath("spec", "containers").Index(0).Child("name"), "app"), `spec.containers[0].name: Duplicate value: "app"`},
		{NotSupported(NewPath("spec", "os", "name"), "plan9", []string{"linux", "windows"}), `spec.os.name: Unsupported value: "plan9": supported values: "linux", "windows"`},
		{TooLong(NewPath("metadata", "name"), "x", 63), `metadata.name: Too long: may not be more than 63 bytes`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	var errs FieldErrors
	if errs.Err() != nil {
		t.Errorf("empty list is not an error")
	}
	errs = append(errs, Required(NewPath("a"), ""), Required(NewPath("b"), "x"))
	var fe FieldErrors
	if err := errs.Err(); !errors.As(err, &fe) || len(fe) != 2 {
		t.Errorf("Err() = %v", err)
	}
	if got := errs.Error(); got != "[a: Required value, b: Required value: x]" {
		t.Errorf("list message = %s", got)
	}
}
