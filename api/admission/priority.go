package admission

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// Priority is what the Priority admission plugin writes into a new pod's
// spec: the class name (filled in from the global default when the pod
// named none), the integer priority, and the preemption policy copied from
// the class (nil only when the class itself has none).
type Priority struct {
	ClassName        string
	Value            int32
	PreemptionPolicy *api.PreemptionPolicy
}

// Apply writes the resolution into pod's spec, as the admission plugin
// mutates the pod it admits. A nil pod is left alone.
func (p Priority) Apply(pod *api.Pod) {
	if pod == nil {
		return
	}
	pod.Spec.PriorityClassName = p.ClassName
	v := p.Value
	pod.Spec.Priority = &v
	if p.PreemptionPolicy != nil {
		pp := *p.PreemptionPolicy
		pod.Spec.PreemptionPolicy = &pp
	}
}

// GlobalDefaultClass returns the class pods without a priorityClassName
// get: the one marked globalDefault, or, should several be (a race the API
// server cannot always prevent), the one with the lowest value; nil when
// none is.
func GlobalDefaultClass(classes []api.PriorityClass) *api.PriorityClass {
	var def *api.PriorityClass
	for i := range classes {
		c := &classes[i]
		if c.GlobalDefault && (def == nil || c.Value < def.Value) {
			def = c
		}
	}
	return def
}

// ResolvePriority is the Priority admission plugin
// (plugin/pkg/admission/priority) on pod creation, given the PriorityClasses
// that exist in the cluster:
//
//   - a pod naming no class gets the global default class's name, value and
//     preemption policy, or, with no default, api.DefaultPriority and
//     PreemptLowerPriority with the name left empty;
//   - a pod naming a class gets its value and preemption policy; a class
//     that does not exist is refused (Forbidden), system classes included,
//     in any namespace;
//   - a pod that already sets spec.priority is refused unless it equals
//     the computed value, and one that sets spec.preemptionPolicy unless it
//     equals the computed policy.
//
// A refusal is an *Error wrapping ErrForbidden; a nil pod is an error
// wrapping api.ErrInvalidInput.
func ResolvePriority(pod *api.Pod, classes []api.PriorityClass) (Priority, error) {
	if pod == nil {
		return Priority{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	forbid := func(format string, args ...any) error {
		return &Error{Reason: "Forbidden", Resource: "pods", Name: pod.Name, Detail: fmt.Sprintf(format, args...)}
	}
	var res Priority
	if name := pod.Spec.PriorityClassName; name == "" {
		if def := GlobalDefaultClass(classes); def != nil {
			res = Priority{ClassName: def.Name, Value: def.Value, PreemptionPolicy: def.PreemptionPolicy}
		} else {
			p := api.PreemptLowerPriority
			res = Priority{Value: api.DefaultPriority, PreemptionPolicy: &p}
		}
	} else {
		var pc *api.PriorityClass
		for i := range classes {
			if classes[i].Name == name {
				pc = &classes[i]
				break
			}
		}
		if pc == nil {
			return Priority{}, forbid("no PriorityClass with name %v was found", name)
		}
		res = Priority{ClassName: pc.Name, Value: pc.Value, PreemptionPolicy: pc.PreemptionPolicy}
	}
	if p := pod.Spec.Priority; p != nil && *p != res.Value {
		return Priority{}, forbid("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *p, res.Value)
	}
	if res.PreemptionPolicy != nil {
		pp := *res.PreemptionPolicy
		res.PreemptionPolicy = &pp
		if sp := pod.Spec.PreemptionPolicy; sp != nil && *sp != pp {
			return Priority{}, forbid("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *sp, pp)
		}
	} else if sp := pod.Spec.PreemptionPolicy; sp != nil {
		// The class leaves the policy open: the pod's own stays.
		pp := *sp
		res.PreemptionPolicy = &pp
	}
	return res, nil
}

// AdmitPriorityClass is what the API server does with a request to create
// pc in a cluster that holds existing: it applies the defaults
// (api.DefaultPriorityClass, in place on pc), validates
// (validation.ValidatePriorityClass; refusal is Invalid), then runs the
// Priority admission plugin's check that at most one class is
// globalDefault (refusal is Forbidden: "PriorityClass X is already marked
// as default"). A metadata.namespace in the request is dropped before
// validation, as the API server does for cluster-scoped objects. It
// returns nil when the class would be stored; pc then holds the stored
// form. A refusal is an *Error; a nil pc is an error wrapping
// api.ErrInvalidInput.
func AdmitPriorityClass(pc *api.PriorityClass, existing []api.PriorityClass) error {
	if pc == nil {
		return fmt.Errorf("%w: PriorityClass: nil", errInvalidInput)
	}
	api.DefaultPriorityClass(pc)
	// The class is cluster-scoped: before validating, the API server
	// (apiserver rest.BeforeCreate) drops a namespace given in the body
	// instead of refusing it.
	pc.Namespace = ""
	if errs := validation.ValidatePriorityClass(pc); len(errs) > 0 {
		return &Error{Reason: "Invalid", Resource: "PriorityClass.scheduling.k8s.io", Name: pc.Name, FieldErrors: errs}
	}
	if pc.GlobalDefault {
		if def := GlobalDefaultClass(existing); def != nil {
			return &Error{Reason: "Forbidden", Resource: "priorityclasses.scheduling.k8s.io", Name: pc.Name,
				Detail: fmt.Sprintf("PriorityClass %s is already marked as default. Only one default can exist", def.Name)}
		}
	}
	return nil
}
