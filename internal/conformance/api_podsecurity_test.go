package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

func init() {
	register("api.pod-security", runPodSecurity)
}

// runPodSecurity: podsecurity.ParsePolicy and Evaluate for the verdict and
// its ordered reasons and details, podsecurity.Admit for the API server's
// answer to the create.
func runPodSecurity(input, want json.RawMessage) error {
	var in struct {
		Pod     *api.Pod `json:"pod"`
		Level   string   `json:"level"`
		Version string   `json:"version"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Allowed          bool     `json:"allowed"`
		ForbiddenReasons []string `json:"forbidden_reasons"`
		ForbiddenDetails []string `json:"forbidden_details"`
		Message          string   `json:"message"`
		StatusReason     string   `json:"status_reason"`
		Code             int      `json:"code"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	policy, err := podsecurity.ParsePolicy(in.Level, in.Version)
	if err != nil {
		return Mismatch("policy", want, err.Error())
	}
	res, err := podsecurity.Evaluate(in.Pod, policy)
	if err != nil {
		return Mismatch("result", want, err.Error())
	}
	details := make([]string, len(res.Forbidden))
	for i, f := range res.Forbidden {
		details[i] = f.Detail
	}
	if res.Allowed != w.Allowed {
		return Mismatch("allowed", w.Allowed, res.Allowed)
	}
	if !slices.Equal(res.ForbiddenReasons(), w.ForbiddenReasons) {
		return Mismatch("forbidden_reasons", w.ForbiddenReasons, res.ForbiddenReasons())
	}
	if !slices.Equal(details, w.ForbiddenDetails) {
		return Mismatch("forbidden_details", w.ForbiddenDetails, details)
	}
	err = podsecurity.Admit(in.Pod, policy)
	if w.Allowed {
		if err != nil {
			return Mismatch("admission", want, err.Error())
		}
		return nil
	}
	var ae *admission.Error
	if !errors.As(err, &ae) {
		return Mismatch("admission", want, fmt.Sprint(err))
	}
	if got := res.Message(in.Pod.Name); got != err.Error() {
		return Mismatch("Result.Message against Admit", err.Error(), got)
	}
	if ae.Error() != w.Message || ae.Reason != w.StatusReason || ae.Code() != w.Code {
		return Mismatch("answer", map[string]any{"message": w.Message, "status_reason": w.StatusReason, "code": w.Code},
			map[string]any{"message": ae.Error(), "status_reason": ae.Reason, "code": ae.Code()})
	}
	return nil
}
