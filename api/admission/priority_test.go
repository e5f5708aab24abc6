package admission_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/validation"
)

func pclass(name string, value int32, globalDefault bool, policy api.PreemptionPolicy) api.PriorityClass {
	pc := api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: value, GlobalDefault: globalDefault}
	if policy != "" {
		pc.PreemptionPolicy = &policy
	}
	return pc
}

func i32(v int32) *int32 { return &v }

func policyPtr(p api.PreemptionPolicy) *api.PreemptionPolicy { return &p }

func TestResolvePriority(t *testing.T) {
	classes := append(api.SystemPriorityClasses(),
		pclass("high", 1000000, false, api.PreemptLowerPriority),
		pclass("high-nonpreempting", 1000000, false, api.PreemptNever),
		pclass("open", 7, false, ""),
	)
	withDefault := append(append([]api.PriorityClass{}, classes...),
		pclass("quiet", -10, true, api.PreemptNever),
		pclass("louder-default", 50, true, api.PreemptLowerPriority),
	)
	tests := []struct {
		name      string
		spec      api.PodSpec
		classes   []api.PriorityClass
		want      admission.Priority
		forbidden string // substring of the refusal
	}{
		{name: "no class, no default: 0 and PreemptLowerPriority", classes: classes,
			want: admission.Priority{Value: 0, PreemptionPolicy: policyPtr(api.PreemptLowerPriority)}},
		{name: "no class: the lowest global default wins", classes: withDefault,
			want: admission.Priority{ClassName: "quiet", Value: -10, PreemptionPolicy: policyPtr(api.PreemptNever)}},
		{name: "named class", classes: classes, spec: api.PodSpec{PriorityClassName: "high"},
			want: admission.Priority{ClassName: "high", Value: 1000000, PreemptionPolicy: policyPtr(api.PreemptLowerPriority)}},
		{name: "non-preempting class copies Never", classes: classes, spec: api.PodSpec{PriorityClassName: "high-nonpreempting"},
			want: admission.Priority{ClassName: "high-nonpreempting", Value: 1000000, PreemptionPolicy: policyPtr(api.PreemptNever)}},
		{name: "system class", classes: classes, spec: api.PodSpec{PriorityClassName: api.SystemNodeCritical},
			want: admission.Priority{ClassName: api.SystemNodeCritical, Value: 2000001000, PreemptionPolicy: policyPtr(api.PreemptLowerPriority)}},
		{name: "system class absent from the cluster", classes: nil, spec: api.PodSpec{PriorityClassName: api.SystemClusterCritical},
			forbidden: "no PriorityClass with name system-cluster-critical was found"},
		{name: "unknown class", classes: classes, spec: api.PodSpec{PriorityClassName: "High"},
			forbidden: "no PriorityClass with name High was found"},
		{name: "priority equal to the computed one is accepted", classes: classes, spec: api.PodSpec{PriorityClassName: "high", Priority: i32(1000000)},
			want: admission.Priority{ClassName: "high", Value: 1000000, PreemptionPolicy: policyPtr(api.PreemptLowerPriority)}},
		{name: "priority differing from the computed one", classes: classes, spec: api.PodSpec{PriorityClassName: "high", Priority: i32(10)},
			forbidden: "the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 1000000"},
		{name: "priority 0 with no class is accepted", classes: classes, spec: api.PodSpec{Priority: i32(0)},
			want: admission.Priority{Value: 0, PreemptionPolicy: policyPtr(api.PreemptLowerPriority)}},
		{name: "Never without class nor default is refused", classes: classes, spec: api.PodSpec{PreemptionPolicy: policyPtr(api.PreemptNever)},
			forbidden: "the string value of PreemptionPolicy (Never) must not be provided"},
		{name: "class without policy keeps the pod's", classes: classes, spec: api.PodSpec{PriorityClassName: "open", PreemptionPolicy: policyPtr(api.PreemptNever)},
			want: admission.Priority{ClassName: "open", Value: 7, PreemptionPolicy: policyPtr(api.PreemptNever)}},
		{name: "class without policy, pod without policy", classes: classes, spec: api.PodSpec{PriorityClassName: "open"},
			want: admission.Priority{ClassName: "open", Value: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: tt.spec}
			got, err := admission.ResolvePriority(pod, tt.classes)
			if tt.forbidden != "" {
				if !errors.Is(err, admission.ErrForbidden) || !strings.Contains(err.Error(), tt.forbidden) {
					t.Fatalf("err = %v, want Forbidden containing %q", err, tt.forbidden)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if got.ClassName != tt.want.ClassName || got.Value != tt.want.Value ||
				(got.PreemptionPolicy == nil) != (tt.want.PreemptionPolicy == nil) ||
				(got.PreemptionPolicy != nil && *got.PreemptionPolicy != *tt.want.PreemptionPolicy) {
				t.Fatalf("got %+v (policy %v), want %+v (policy %v)", got, got.PreemptionPolicy, tt.want, tt.want.PreemptionPolicy)
			}
			got.Apply(pod)
			if pod.Spec.Priority == nil || *pod.Spec.Priority != tt.want.Value || pod.Spec.PriorityClassName != tt.want.ClassName {
				t.Fatalf("Apply wrote %+v", pod.Spec)
			}
		})
	}
	if _, err := admission.ResolvePriority(nil, classes); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v, want api.ErrInvalidInput", err)
	}
	admission.Priority{Value: 5}.Apply(nil) // a nil pod is left alone
}

func TestAdmitPriorityClass(t *testing.T) {
	existing := append(api.SystemPriorityClasses(), pclass("high", 1000000, true, api.PreemptLowerPriority))
	tests := []struct {
		name   string
		pc     api.PriorityClass
		reason string   // "" accepted, else Forbidden or Invalid
		fields []string // "field type" of the field errors
		defPol api.PreemptionPolicy
	}{
		{name: "user class at the limit", pc: pclass("max-user", api.HighestUserDefinablePriority, false, ""), defPol: api.PreemptLowerPriority},
		{name: "negative values are fine", pc: pclass("low", -2147483648, false, api.PreemptNever), defPol: api.PreemptNever},
		{name: "above the user limit", pc: pclass("too-high", api.HighestUserDefinablePriority+1, false, ""),
			reason: "Invalid", fields: []string{"value FieldValueForbidden"}},
		{name: "system prefix not a system class", pc: pclass("system-my-class", 5, false, ""),
			reason: "Invalid", fields: []string{"metadata.name FieldValueForbidden"}},
		{name: "system class with the wrong value", pc: pclass(api.SystemNodeCritical, 5, false, ""),
			reason: "Invalid", fields: []string{"metadata.name FieldValueForbidden"}},
		{name: "system class recreated exactly", pc: pclass(api.SystemClusterCritical, api.SystemCriticalPriority, false, ""), defPol: api.PreemptLowerPriority},
		{name: "system class as global default", pc: pclass(api.SystemClusterCritical, api.SystemCriticalPriority, true, ""),
			reason: "Invalid", fields: []string{"metadata.name FieldValueForbidden"}},
		{name: "systemd- is not the system prefix", pc: pclass("systemd-high", 2000000000, false, ""),
			reason: "Invalid", fields: []string{"value FieldValueForbidden"}},
		{name: "bad name and bad value", pc: pclass("Bad_Name", 2000000000, false, "Sometimes"),
			reason: "Invalid", fields: []string{"metadata.name FieldValueInvalid", "value FieldValueForbidden", "preemptionPolicy FieldValueNotSupported"}},
		{name: "second global default", pc: pclass("other-default", 5, true, ""), reason: "Forbidden"},
		// v1.36.3 reports a bad label value at metadata.labels, not at the
		// key's subscript (checked against the real API server code).
		{name: "bad label value", pc: withMeta(pclass("labelled", 5, false, ""), func(m *api.ObjectMeta) {
			m.Labels = map[string]string{"example.com/x": "bad value!"}
		}), reason: "Invalid", fields: []string{"metadata.labels FieldValueInvalid"}},
		{name: "bad label key and too long value", pc: withMeta(pclass("labelled", 5, false, ""), func(m *api.ObjectMeta) {
			m.Labels = map[string]string{"-x": strings.Repeat("v", 64)}
		}), reason: "Invalid", fields: []string{"metadata.labels FieldValueInvalid"}},
		// A namespace in the body of a cluster-scoped create is dropped by
		// the API server, not refused.
		{name: "namespace in the body", pc: withMeta(pclass("namespaced", 5, false, ""), func(m *api.ObjectMeta) {
			m.Namespace = "default"
		}), defPol: api.PreemptLowerPriority},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pc := tt.pc
			err := admission.AdmitPriorityClass(&pc, existing)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != tt.defPol {
					t.Fatalf("stored policy %v, want %s", pc.PreemptionPolicy, tt.defPol)
				}
				return
			}
			var ae *admission.Error
			if !errors.As(err, &ae) || ae.Reason != tt.reason {
				t.Fatalf("err = %v, want reason %s", err, tt.reason)
			}
			got := map[string]bool{}
			for _, fe := range ae.FieldErrors {
				got[fe.Field+" "+string(fe.Type)] = true
			}
			if len(got) != len(tt.fields) {
				t.Fatalf("field errors %v, want %v", ae.FieldErrors, tt.fields)
			}
			for _, f := range tt.fields {
				if !got[f] {
					t.Fatalf("field errors %v, want %v", ae.FieldErrors, tt.fields)
				}
			}
		})
	}
}

func withMeta(pc api.PriorityClass, f func(*api.ObjectMeta)) api.PriorityClass {
	f(&pc.ObjectMeta)
	return pc
}

func TestAdmitPriorityClassDropsNamespace(t *testing.T) {
	pc := withMeta(pclass("namespaced", 5, false, ""), func(m *api.ObjectMeta) { m.Namespace = "kube-system" })
	if err := admission.AdmitPriorityClass(&pc, nil); err != nil {
		t.Fatalf("unexpected error %v", err)
	}
	if pc.Namespace != "" {
		t.Fatalf("stored namespace %q, want none", pc.Namespace)
	}
	// Registry validation on its own still refuses a namespace.
	pc.Namespace = "default"
	if errs := validation.ValidatePriorityClass(&pc); len(errs) != 1 || errs[0].Field != "metadata.namespace" {
		t.Fatalf("ValidatePriorityClass = %v, want one metadata.namespace error", errs)
	}
}

func TestGlobalDefaultClassLowestWins(t *testing.T) {
	classes := []api.PriorityClass{pclass("a", 100, true, ""), pclass("b", 5, true, ""), pclass("c", 1, false, "")}
	if d := admission.GlobalDefaultClass(classes); d == nil || d.Name != "b" {
		t.Fatalf("GlobalDefaultClass = %v, want b", d)
	}
	if d := admission.GlobalDefaultClass(nil); d != nil {
		t.Fatalf("GlobalDefaultClass(nil) = %v", d)
	}
}

func TestAdmitPriorityClassNil(t *testing.T) {
	if err := admission.AdmitPriorityClass(nil, nil); !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), "PriorityClass: nil") {
		t.Fatalf("nil class: %v", err)
	}
}
