package conformance

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func init() {
	register("lifecycle.validate-create", runValidateCreate)
	register("lifecycle.validate-update", runValidateUpdate)
}

// fieldErrorPair is one (field, type) pair of a validation answer.
type fieldErrorPair struct {
	Field string `json:"field"`
	Type  string `json:"type"`
}

// runValidateCreate: validation.ValidatePodCreate on the defaulted pod.
func runValidateCreate(input, want json.RawMessage) error {
	var in struct {
		Pod api.Pod `json:"pod"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	return compareFieldErrors(want, validation.ValidatePodCreate(&in.Pod))
}

// runValidateUpdate: validation.ValidatePodUpdate, or
// validation.ValidatePodEphemeralContainersUpdate for the ephemeralcontainers
// subresource.
func runValidateUpdate(input, want json.RawMessage) error {
	var in struct {
		OldPod      api.Pod `json:"old_pod"`
		NewPod      api.Pod `json:"new_pod"`
		Subresource string  `json:"subresource"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var got api.FieldErrors
	switch in.Subresource {
	case "":
		got = validation.ValidatePodUpdate(&in.NewPod, &in.OldPod)
	case "ephemeralcontainers":
		got = validation.ValidatePodEphemeralContainersUpdate(&in.NewPod, &in.OldPod)
	default:
		return fmt.Errorf("unknown subresource %q", in.Subresource)
	}
	return compareFieldErrors(want, got)
}

// compareFieldErrors compares the distinct (field, type) pairs of got with
// want's errors, as a set.
func compareFieldErrors(want json.RawMessage, got api.FieldErrors) error {
	var w struct {
		Errors []fieldErrorPair `json:"errors"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	seen := map[fieldErrorPair]bool{}
	gotPairs := []fieldErrorPair{}
	for _, e := range got {
		p := fieldErrorPair{Field: e.Field, Type: string(e.Type)}
		if !seen[p] {
			seen[p] = true
			gotPairs = append(gotPairs, p)
		}
	}
	sortPairs(gotPairs)
	wantPairs := append([]fieldErrorPair{}, w.Errors...)
	sortPairs(wantPairs)
	if len(wantPairs) != len(gotPairs) {
		return Mismatch("errors", wantPairs, gotPairs)
	}
	for i := range wantPairs {
		if wantPairs[i] != gotPairs[i] {
			return Mismatch("errors", wantPairs, gotPairs)
		}
	}
	return nil
}

func sortPairs(ps []fieldErrorPair) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Field != ps[j].Field {
			return ps[i].Field < ps[j].Field
		}
		return ps[i].Type < ps[j].Type
	})
}
