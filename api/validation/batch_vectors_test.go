package validation_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/workloads"
)

// jobVectorUID is the uid testdata/batch/joboracle gives a Job whose JSON
// has none (the API server assigns one before its Job strategy runs).
const jobVectorUID = "00000000-0000-4000-8000-000000000000"

// decodeJob decodes a batch/v1 Job and defaults it as the API server
// does, with the oracle's uid when it has none.
func decodeJob(t *testing.T, raw json.RawMessage) *api.Job {
	t.Helper()
	j := &api.Job{}
	if err := json.Unmarshal(raw, j); err != nil {
		t.Fatal(err)
	}
	api.DefaultJob(j)
	if j.UID == "" {
		j.UID = jobVectorUID
	}
	return j
}

// internalDump reports an upstream error whose bad value is the API
// server's internal Go structure of a pod template or pod spec (the
// template immutability errors), which podsem renders as JSON instead:
// for those only the path and the detail are compared.
func internalDump(e string) (string, bool) {
	for _, p := range []string{"spec.template: Invalid value: {", "spec.template.spec: Invalid value: {"} {
		if strings.HasPrefix(e, p) && strings.HasSuffix(e, ": field is immutable") {
			return p[:strings.Index(p, ":")] + ": field is immutable", true
		}
	}
	return e, false
}

func TestJobValidationVectors(t *testing.T) {
	vs := readVectors(t, "testdata/batch/vectors.json")
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			job := decodeJob(t, v.Object)
			var errs api.FieldErrors
			if len(v.Old) == 0 {
				workloads.GenerateJobSelector(job)
				errs = validation.ValidateJob(job)
			} else {
				old := decodeJob(t, v.Old)
				workloads.GenerateJobSelector(old)
				errs = validation.ValidateJobUpdate(job, old)
			}
			got, want := []string{}, []string{}
			dumps := 0
			for _, e := range v.Errors {
				s, dump := internalDump(e)
				if dump {
					dumps++
				}
				want = append(want, s)
			}
			for _, e := range errs {
				s := e.Error()
				if dumps > 0 {
					if short, ok := internalDumpOf(e); ok {
						s = short
					}
				}
				got = append(got, s)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("errors (-upstream +podsem):\n%s", d)
			}
			msg := ""
			if len(errs) > 0 {
				msg = validation.InvalidObjectMessage("Job", "batch", job.Name, errs)
			}
			if dumps == 0 && msg != v.Message {
				t.Errorf("message:\n got %s\nwant %s", msg, v.Message)
			}
			if (msg == "") != (v.Message == "") {
				t.Errorf("message %q, upstream %q", msg, v.Message)
			}
		})
	}
}

// internalDumpOf is internalDump's short form of podsem's own error for
// the template immutability errors.
func internalDumpOf(e *api.FieldError) (string, bool) {
	if (e.Field == "spec.template" || e.Field == "spec.template.spec") && e.Detail == "field is immutable" && e.Type == api.ErrorTypeInvalid {
		return e.Field + ": field is immutable", true
	}
	return "", false
}
