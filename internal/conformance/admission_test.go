package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

func init() {
	register("scheduling.priority-admission", runPriorityAdmission)
}

// runPriorityAdmission: admission.ResolvePriority on pod create,
// admission.AdmitPriorityClass on PriorityClass create.
func runPriorityAdmission(input, want json.RawMessage) error {
	var in struct {
		Op              string              `json:"op"`
		PriorityClasses []api.PriorityClass `json:"priorityClasses"`
		Pod             *api.Pod            `json:"pod"`
		PriorityClass   *api.PriorityClass  `json:"priorityClass"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Error             bool    `json:"error"`
		Reason            string  `json:"reason"`
		Stage             string  `json:"stage"`
		PriorityClassName string  `json:"priorityClassName"`
		Priority          *int32  `json:"priority"`
		PreemptionPolicy  *string `json:"preemptionPolicy"`
		FieldErrors       []struct {
			Field string `json:"field"`
			Type  string `json:"type"`
		} `json:"fieldErrors"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	switch in.Op {
	case "pod-create":
		res, err := admission.ResolvePriority(in.Pod, in.PriorityClasses)
		if w.Error {
			var ae *admission.Error
			if !errors.As(err, &ae) {
				return Mismatch("error", want, res)
			}
			if ae.Reason != w.Reason {
				return Mismatch("reason", w.Reason, ae.Reason)
			}
			return nil
		}
		if err != nil {
			return Mismatch("result", want, err.Error())
		}
		pod := *in.Pod
		res.Apply(&pod)
		var pp *string
		if pod.Spec.PreemptionPolicy != nil {
			s := string(*pod.Spec.PreemptionPolicy)
			pp = &s
		}
		got := map[string]any{"priorityClassName": pod.Spec.PriorityClassName, "priority": *pod.Spec.Priority, "preemptionPolicy": pp}
		if pod.Spec.PriorityClassName != w.PriorityClassName || w.Priority == nil || *w.Priority != *pod.Spec.Priority ||
			(pp == nil) != (w.PreemptionPolicy == nil) || (pp != nil && *pp != *w.PreemptionPolicy) {
			return Mismatch("admitted pod", want, got)
		}
		return nil
	case "priorityclass-create":
		pc := *in.PriorityClass
		err := admission.AdmitPriorityClass(&pc, in.PriorityClasses)
		if !w.Error {
			if err != nil {
				return Mismatch("result", want, err.Error())
			}
			if w.PreemptionPolicy != nil && (pc.PreemptionPolicy == nil || string(*pc.PreemptionPolicy) != *w.PreemptionPolicy) {
				return Mismatch("preemptionPolicy", *w.PreemptionPolicy, pc.PreemptionPolicy)
			}
			return nil
		}
		var ae *admission.Error
		if !errors.As(err, &ae) {
			return Mismatch("error", want, fmt.Sprint(err))
		}
		stage := "admission"
		if errors.Is(err, admission.ErrInvalid) {
			stage = "validation"
		}
		if stage != w.Stage || ae.Reason != w.Reason {
			return Mismatch("stage/reason", w.Stage+"/"+w.Reason, stage+"/"+ae.Reason)
		}
		var wantFE, gotFE []string
		for _, fe := range w.FieldErrors {
			wantFE = append(wantFE, fe.Field+" "+fe.Type)
		}
		for _, fe := range ae.FieldErrors {
			gotFE = append(gotFE, fe.Field+" "+string(fe.Type))
		}
		if !sameSet(wantFE, gotFE) {
			return Mismatch("fieldErrors", wantFE, gotFE)
		}
		return nil
	}
	return fmt.Errorf("unknown op %q", in.Op)
}
