package scheduling

import (
	"errors"
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// Priority value limits and the built-in classes, as pkg/apis/scheduling
// defines them in Kubernetes v1.36.3.
const (
	// HighestUserDefinablePriority is the largest value a PriorityClass
	// not named system-* may have: one billion.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the floor of the system classes: two
	// billion, the value of system-cluster-critical.
	SystemCriticalPriority = api.SystemCriticalPriority
	// DefaultPriority is the priority of a pod that names no class when no
	// class is marked globalDefault.
	DefaultPriority = api.DefaultPriority

	// SystemPriorityClassPrefix reserves class names for the system: a
	// class whose name starts with it must be one of the built-in classes,
	// with exactly their value and globalDefault.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical is the class of add-ons that must run for the
	// cluster to work (value 2,000,000,000).
	SystemClusterCritical = "system-cluster-critical"
	// SystemNodeCritical is the class of pods a node cannot work without,
	// the highest priority there is (value 2,000,001,000).
	SystemNodeCritical = "system-node-critical"
)

// SystemPriorityClasses returns the two classes the API server creates at
// start-up: system-node-critical (2000001000) and system-cluster-critical
// (2000000000), neither globalDefault, both PreemptLowerPriority. A pod can
// name them only once they exist in the cluster, which they normally do;
// ResolvePriority looks only at the classes it is given.
func SystemPriorityClasses() []api.PriorityClass {
	mk := func(name string, value int32, desc string) api.PriorityClass {
		p := api.PreemptLowerPriority
		return api.PriorityClass{
			TypeMeta:         api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta:       api.ObjectMeta{Name: name},
			Value:            value,
			Description:      desc,
			PreemptionPolicy: &p,
		}
	}
	return []api.PriorityClass{
		mk(SystemNodeCritical, SystemCriticalPriority+1000, "Used for system critical pods that must not be moved from their current node."),
		mk(SystemClusterCritical, SystemCriticalPriority, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
	}
}

// Sentinel errors of the admission decisions; test with errors.Is. They
// correspond to the API status reasons the API server answers with.
var (
	// ErrForbidden: an admission plugin refused the object (HTTP 403,
	// reason Forbidden).
	ErrForbidden = errors.New("forbidden")
	// ErrInvalid: registry validation refused the object (HTTP 422, reason
	// Invalid); the AdmissionError lists the fields.
	ErrInvalid = errors.New("invalid")
)

// AdmissionError is the API server's refusal of a create request. Reason
// is "Forbidden" (an admission plugin refused) or "Invalid" (validation
// failed, FieldErrors says where). Message follows the API server's status
// message.
type AdmissionError struct {
	// Reason is the API status reason: "Forbidden" or "Invalid".
	Reason string
	// Resource and Name identify the object, as in the status message
	// ("pods", "priorityclasses.scheduling.k8s.io").
	Resource, Name string
	// FieldErrors are the validation failures when Reason is "Invalid".
	FieldErrors api.FieldErrors
	// Detail is the plugin's own explanation when Reason is "Forbidden".
	Detail string
}

// Error renders the API server's status message.
func (e *AdmissionError) Error() string {
	if e.Reason == "Invalid" {
		return fmt.Sprintf("%s %q is invalid: %s", e.Resource, e.Name, e.FieldErrors.Error())
	}
	return fmt.Sprintf("%s %q is forbidden: %s", e.Resource, e.Name, e.Detail)
}

// Unwrap returns ErrForbidden or ErrInvalid.
func (e *AdmissionError) Unwrap() error {
	if e.Reason == "Invalid" {
		return ErrInvalid
	}
	return ErrForbidden
}

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
// mutates the pod it admits.
func (p Priority) Apply(pod *api.Pod) {
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
//     preemption policy, or, with no default, priority 0 and
//     PreemptLowerPriority with the name left empty;
//   - a pod naming a class gets its value and preemption policy; a class
//     that does not exist is refused (Forbidden), system classes included,
//     in any namespace;
//   - a pod that already sets spec.priority is refused unless it equals
//     the computed value, and one that sets spec.preemptionPolicy unless it
//     equals the computed policy.
//
// The error is an *AdmissionError wrapping ErrForbidden.
func ResolvePriority(pod *api.Pod, classes []api.PriorityClass) (Priority, error) {
	if pod == nil {
		return Priority{}, fmt.Errorf("resolve priority: %w", errors.New("nil pod"))
	}
	forbid := func(format string, args ...any) error {
		return &AdmissionError{Reason: "Forbidden", Resource: "pods", Name: pod.Name, Detail: fmt.Sprintf(format, args...)}
	}
	var res Priority
	if name := pod.Spec.PriorityClassName; name == "" {
		if def := GlobalDefaultClass(classes); def != nil {
			res = Priority{ClassName: def.Name, Value: def.Value, PreemptionPolicy: def.PreemptionPolicy}
		} else {
			p := api.PreemptLowerPriority
			res = Priority{Value: DefaultPriority, PreemptionPolicy: &p}
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

// PodPriority is the priority the scheduler reads from a pod: spec.priority,
// or 0 when it is unset (component-helpers' PodPriority).
func PodPriority(pod *api.Pod) int32 {
	if pod != nil && pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// DefaultPriorityClassFields applies the API server's defaulting to a
// PriorityClass being created: a missing preemptionPolicy becomes
// PreemptLowerPriority.
func DefaultPriorityClassFields(pc *api.PriorityClass) {
	if pc.PreemptionPolicy == nil {
		p := api.PreemptLowerPriority
		pc.PreemptionPolicy = &p
	}
}

// ValidatePriorityClass is the registry validation of a PriorityClass
// (pkg/apis/scheduling/validation.ValidatePriorityClass), run on the
// defaulted object:
//
//   - metadata: a name is required and must be an RFC 1123 subdomain; a
//     namespace is not allowed (the object is cluster-scoped); labels and
//     annotations must be valid;
//   - a name starting with "system-" must be one of the built-in classes,
//     with exactly its value and globalDefault false; any other class may
//     not exceed HighestUserDefinablePriority;
//   - preemptionPolicy, when set, must be PreemptLowerPriority or Never.
func ValidatePriorityClass(pc *api.PriorityClass) api.FieldErrors {
	var errs api.FieldErrors
	meta := api.NewPath("metadata")
	switch {
	case pc.Name == "" && pc.GenerateName == "":
		errs = append(errs, api.Required(meta.Child("name"), "name or generateName is required"))
	case pc.Name != "":
		for _, msg := range api.IsDNS1123Subdomain(pc.Name) {
			errs = append(errs, api.Invalid(meta.Child("name"), pc.Name, msg))
		}
	}
	if pc.Namespace != "" {
		errs = append(errs, api.Forbidden(meta.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, validateLabelsMeta(pc.Labels, meta.Child("labels"))...)
	errs = append(errs, validateAnnotationKeys(pc.Annotations, meta.Child("annotations"))...)
	if strings.HasPrefix(pc.Name, SystemPriorityClassPrefix) {
		if why := knownSystemClass(pc.Name, pc.Value, pc.GlobalDefault); why != "" {
			errs = append(errs, api.Forbidden(meta.Child("name"),
				"priority class names with '"+SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+why))
		}
	} else if pc.Value > HighestUserDefinablePriority {
		errs = append(errs, api.Forbidden(api.NewPath("value"),
			fmt.Sprintf("maximum allowed value of a user defined priority is %d", HighestUserDefinablePriority)))
	}
	if pp := pc.PreemptionPolicy; pp != nil {
		switch *pp {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, api.Required(api.NewPath("preemptionPolicy"), ""))
		default:
			errs = append(errs, api.NotSupported(api.NewPath("preemptionPolicy"), string(*pp),
				[]string{string(api.PreemptLowerPriority), string(api.PreemptNever)}))
		}
	}
	return errs
}

// knownSystemClass explains why name/value/globalDefault is not one of the
// built-in classes, or returns "" when it is.
func knownSystemClass(name string, value int32, globalDefault bool) string {
	for _, sc := range SystemPriorityClasses() {
		if sc.Name != name {
			continue
		}
		if sc.Value != value {
			return fmt.Sprintf("value of %s PriorityClass must be %d", sc.Name, sc.Value)
		}
		if sc.GlobalDefault != globalDefault {
			return fmt.Sprintf("globalDefault of %s PriorityClass must be %t", sc.Name, sc.GlobalDefault)
		}
		return ""
	}
	return name + " is not a known system priority class"
}

func validateLabelsMeta(labels map[string]string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for k, v := range labels {
		for _, msg := range api.IsQualifiedName(k) {
			errs = append(errs, api.Invalid(p, k, msg))
		}
		// The API server reports a bad value at metadata.labels itself,
		// not at the key's subscript.
		for _, msg := range api.IsValidLabelValue(v) {
			errs = append(errs, api.Invalid(p, v, msg))
		}
	}
	return errs
}

func validateAnnotationKeys(ann map[string]string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	total := 0
	for k, v := range ann {
		for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, api.Invalid(p, k, msg))
		}
		total += len(k) + len(v)
	}
	const maxAnnotationsSize = 256 * 1024
	if total > maxAnnotationsSize {
		errs = append(errs, api.TooLong(p, "", maxAnnotationsSize))
	}
	return errs
}

// AdmitPriorityClass is what the API server does with a request to create
// pc in a cluster that holds existing: it applies the defaults
// (DefaultPriorityClassFields, in place on pc), validates
// (ValidatePriorityClass; refusal is Invalid), then runs the Priority
// admission plugin's check that at most one class is globalDefault
// (refusal is Forbidden: "PriorityClass X is already marked as default").
// A metadata.namespace in the request is dropped before validation, as the
// API server does for cluster-scoped objects. It returns nil when the class
// would be stored; pc then holds the stored form.
func AdmitPriorityClass(pc *api.PriorityClass, existing []api.PriorityClass) error {
	if pc == nil {
		return fmt.Errorf("admit priority class: %w", errors.New("nil PriorityClass"))
	}
	DefaultPriorityClassFields(pc)
	// The class is cluster-scoped: before validating, the API server
	// (apiserver rest.BeforeCreate) drops a namespace given in the body
	// instead of refusing it.
	pc.Namespace = ""
	if errs := ValidatePriorityClass(pc); len(errs) > 0 {
		return &AdmissionError{Reason: "Invalid", Resource: "PriorityClass.scheduling.k8s.io", Name: pc.Name, FieldErrors: errs}
	}
	if pc.GlobalDefault {
		if def := GlobalDefaultClass(existing); def != nil {
			return &AdmissionError{Reason: "Forbidden", Resource: "priorityclasses.scheduling.k8s.io", Name: pc.Name,
				Detail: fmt.Sprintf("PriorityClass %s is already marked as default. Only one default can exist", def.Name)}
		}
	}
	return nil
}
