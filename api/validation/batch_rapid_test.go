package validation_test

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/workloads"
)

// genJob draws a Job around the vectors' valid one, with its counts,
// completion mode, per-index back-off, policies and restartPolicy
// varied, defaulted and given its generated selector as the API server
// validates it.
func genJob(t *rapid.T) *api.Job {
	j := &api.Job{
		ObjectMeta: api.ObjectMeta{Name: rapid.SampledFrom([]string{"pi", "pi-1", "Pi", strings.Repeat("a", 60)}).Draw(t, "name"), Namespace: "default", UID: "uid-1"},
		Spec: api.JobSpec{
			Parallelism:          genInt32Ptr(t, "parallelism", -1, 6),
			Completions:          genInt32Ptr(t, "completions", -1, 6),
			BackoffLimit:         genInt32Ptr(t, "backoffLimit", -1, 6),
			BackoffLimitPerIndex: genInt32Ptr(t, "backoffLimitPerIndex", -1, 3),
			MaxFailedIndexes:     genInt32Ptr(t, "maxFailedIndexes", -1, 8),
			Template: api.PodTemplateSpec{Spec: api.PodSpec{
				RestartPolicy: api.RestartPolicy(rapid.SampledFrom([]string{"", "Never", "OnFailure", "Always"}).Draw(t, "restart")),
				Containers:    []api.Container{{Name: "c", Image: "busybox"}},
			}},
		},
	}
	if m := rapid.SampledFrom([]string{"", "NonIndexed", "Indexed", "Sparse"}).Draw(t, "mode"); m != "" {
		j.Spec.CompletionMode = &m
	}
	if rapid.Bool().Draw(t, "pfp") {
		op := rapid.SampledFrom([]string{"In", "NotIn", ""}).Draw(t, "op")
		j.Spec.PodFailurePolicy = &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{
			Action:      rapid.SampledFrom([]string{"FailJob", "FailIndex", "Ignore", "Count", ""}).Draw(t, "action"),
			OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: []int32{int32(rapid.IntRange(0, 3).Draw(t, "code"))}},
		}}}
	}
	if rapid.Bool().Draw(t, "sp") {
		idx := rapid.SampledFrom([]string{"0", "0-2", "1,3", "2-1", "x"}).Draw(t, "indexes")
		j.Spec.SuccessPolicy = &api.SuccessPolicy{Rules: []api.SuccessPolicyRule{{SucceededIndexes: &idx, SucceededCount: genInt32Ptr(t, "count", -1, 5)}}}
	}
	api.DefaultJob(j)
	workloads.GenerateJobSelector(j)
	return j
}

// TestPropertyJobValidation: for any Job, validation does not modify it
// and every error names a field under metadata or spec; a valid Job
// updates onto itself; changing a valid NonIndexed Job's completions is
// refused at spec.completions only, and a suspended, never-started valid
// Job may change its template's node selector.
func TestPropertyJobValidation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		before, _ := json.Marshal(j)
		errs := validation.ValidateJob(j)
		if after, _ := json.Marshal(j); string(after) != string(before) {
			t.Fatalf("validation modified the Job")
		}
		for _, e := range errs {
			if !strings.HasPrefix(e.Field, "metadata") && !strings.HasPrefix(e.Field, "spec") {
				t.Fatalf("error outside metadata and spec: %v", e)
			}
		}
		if len(errs) > 0 {
			return
		}
		j.ResourceVersion = "1"
		if errs := validation.ValidateJobUpdate(j, j); len(errs) > 0 {
			t.Fatalf("valid Job does not update onto itself: %v", errs)
		}
		if *j.Spec.CompletionMode == api.NonIndexedCompletion {
			n := j.DeepCopy()
			c := int32(1)
			if n.Spec.Completions != nil {
				c += *n.Spec.Completions
			}
			n.Spec.Completions = &c
			errs := validation.ValidateJobUpdate(n, j)
			if len(errs) != 1 || errs[0].Field != "spec.completions" {
				t.Fatalf("completions change: %v", errs)
			}
		}
		old := j.DeepCopy()
		yes := true
		old.Spec.Suspend = &yes
		n := old.DeepCopy()
		n.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
		if errs := validation.ValidateJobUpdate(n, old); len(errs) > 0 {
			t.Fatalf("suspended Job's node selector change refused: %v", errs)
		}
	})
}

// FuzzValidateJob: any pair of batch/v1 Job JSON documents validates
// without a panic, as a create and as an update; a valid Job updates
// onto itself.
func FuzzValidateJob(f *testing.F) {
	for _, seed := range []string{
		`{"metadata":{"name":"pi","namespace":"default","uid":"u"},"spec":{"completionMode":"Indexed","completions":5,"successPolicy":{"rules":[{"succeededIndexes":"0,2-4","succeededCount":2}]},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"b"}]}}}}`,
		`{"metadata":{"name":"x"},"spec":{"completionMode":"Indexed","parallelism":3,"successPolicy":{"rules":[{"succeededIndexes":"1-2-3"},{"succeededCount":9}]},"podFailurePolicy":{"rules":[{"action":"FailIndex","onPodConditions":[{"type":"","status":"x"}]}]}}}`,
		`{"spec":{"suspend":true,"selector":{"matchExpressions":[{"key":"a","operator":"In"}]},"managedBy":"/","maxFailedIndexes":1}}`,
		`{}`,
	} {
		f.Add([]byte(seed), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, oldJSON, newJSON []byte) {
		var old, j api.Job
		if json.Unmarshal(oldJSON, &old) != nil || json.Unmarshal(newJSON, &j) != nil {
			return
		}
		api.DefaultJob(&old)
		api.DefaultJob(&j)
		validation.ValidateJob(&j)
		validation.ValidateJobUpdate(&j, &old)
		if len(validation.ValidateJob(&old)) == 0 {
			old.ResourceVersion = "1"
			if errs := validation.ValidateJobUpdate(&old, &old); len(errs) != 0 {
				t.Fatalf("valid Job does not update onto itself: %v", errs)
			}
		}
	})
}
