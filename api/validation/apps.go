package validation

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// ValidateDeployment returns the field errors kube-apiserver v1.36.3
// gives when asked to create the Deployment d (apps validation's
// ValidateDeployment, pkg/apis/apps/validation): the object metadata
// (a DNS-subdomain name, a namespace, labels, annotations, owners) and
// the spec as ValidateDeploymentSpec checks it, in upstream's order:
//
//   - spec.replicas is not negative;
//   - spec.selector is required, a valid label selector and not empty;
//   - the selector matches the template's labels and the template is a
//     valid pod template with restartPolicy Always and no
//     activeDeadlineSeconds (see ValidateWorkloadTemplate);
//   - spec.strategy.type is Recreate (without rollingUpdate) or
//     RollingUpdate, whose maxUnavailable and maxSurge are non-negative
//     integers or percentages, not both 0, and maxUnavailable at most
//     100%;
//   - minReadySeconds and revisionHistoryLimit are not negative, and
//     progressDeadlineSeconds is not negative and greater than
//     minReadySeconds.
//
// d is expected defaulted as the API server holds it
// (api.DefaultDeployment); a nil replicas or rolling-update value counts
// as 0, as in upstream's internal types. A refusal reads, as the API
// server returns it, `Deployment.apps "web" is invalid: ` followed by
// the list (see InvalidObjectMessage). A nil d gives a Required error at
// spec. d is not modified.
func ValidateDeployment(d *api.Deployment) api.FieldErrors {
	return Options{}.ValidateDeployment(d)
}

// ValidateDeployment is the package's ValidateDeployment under these
// kube-apiserver options.
func (o Options) ValidateDeployment(d *api.Deployment) api.FieldErrors {
	if d == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a Deployment is required")}
	}
	errs := validateObjectMeta(&d.ObjectMeta, api.NewPath("metadata"))
	return append(errs, o.validateDeploymentSpec(&d.Spec)...)
}

// ValidateDeploymentUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the Deployment old to d (apps
// validation's ValidateDeploymentUpdate): the object metadata update
// rules (an unchanged name, namespace and uid, a resourceVersion, ...),
// the spec as ValidateDeployment checks it, and an immutable
// spec.selector ("field is immutable", as apps/v1 has it). Both are
// expected defaulted; a nil d or old gives a Required error at metadata.
// Neither is modified.
func ValidateDeploymentUpdate(d, old *api.Deployment) api.FieldErrors {
	return Options{}.ValidateDeploymentUpdate(d, old)
}

// ValidateDeploymentUpdate is the package's ValidateDeploymentUpdate
// under these kube-apiserver options.
func (o Options) ValidateDeploymentUpdate(d, old *api.Deployment) api.FieldErrors {
	if d == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old Deployment are required")}
	}
	errs := validateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, o.validateDeploymentSpec(&d.Spec)...)
	return append(errs, immutableSelector(d.Spec.Selector, old.Spec.Selector)...)
}

// ValidateReplicaSet returns the field errors kube-apiserver v1.36.3
// gives when asked to create the ReplicaSet rs (apps validation's
// ValidateReplicaSet): the object metadata as for a Deployment, then
// spec.replicas and spec.minReadySeconds not negative, spec.selector
// required, valid and not empty (upstream's message says "for
// deployment" here too), and the template as ValidateWorkloadTemplate
// checks it. rs is expected defaulted (api.DefaultReplicaSet). A nil rs
// gives a Required error at spec. rs is not modified.
func ValidateReplicaSet(rs *api.ReplicaSet) api.FieldErrors {
	return Options{}.ValidateReplicaSet(rs)
}

// ValidateReplicaSet is the package's ValidateReplicaSet under these
// kube-apiserver options.
func (o Options) ValidateReplicaSet(rs *api.ReplicaSet) api.FieldErrors {
	if rs == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a ReplicaSet is required")}
	}
	errs := validateObjectMeta(&rs.ObjectMeta, api.NewPath("metadata"))
	return append(errs, o.validateReplicaSetSpec(&rs.Spec)...)
}

// ValidateReplicaSetUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the ReplicaSet old to rs (apps
// validation's ValidateReplicaSetUpdate): the metadata update rules, the
// spec as ValidateReplicaSet checks it, and an immutable spec.selector.
// A nil rs or old gives a Required error at metadata. Neither is
// modified.
func ValidateReplicaSetUpdate(rs, old *api.ReplicaSet) api.FieldErrors {
	return Options{}.ValidateReplicaSetUpdate(rs, old)
}

// ValidateReplicaSetUpdate is the package's ValidateReplicaSetUpdate
// under these kube-apiserver options.
func (o Options) ValidateReplicaSetUpdate(rs, old *api.ReplicaSet) api.FieldErrors {
	if rs == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old ReplicaSet are required")}
	}
	errs := validateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, o.validateReplicaSetSpec(&rs.Spec)...)
	return append(errs, immutableSelector(rs.Spec.Selector, old.Spec.Selector)...)
}

// InvalidObjectMessage is the message of the API server's 422 Invalid
// status for an object of the given kind and API group that failed
// validation with errs (apimachinery's errors.NewInvalid):
// `Deployment.apps "web" is invalid: spec.selector: Required value`,
// the errors in brackets when there are several. The core group is
// given as "" (`Pod "web" is invalid: ...`). With no errors it reads
// `Deployment.apps "web" is invalid`. An error text given twice (a Job
// update checks its spec twice) is listed once, as apimachinery's error
// aggregate does.
func InvalidObjectMessage(kind, group, name string, errs api.FieldErrors) string {
	q := kind
	if group != "" {
		q += "." + group
	}
	msg := q + " " + strconv.Quote(name) + " is invalid"
	var uniq []string
	seen := map[string]bool{}
	for _, e := range errs {
		if e == nil || seen[e.Error()] {
			continue
		}
		seen[e.Error()] = true
		uniq = append(uniq, e.Error())
	}
	switch len(uniq) {
	case 0:
		return msg
	case 1:
		return msg + ": " + uniq[0]
	}
	return msg + ": [" + strings.Join(uniq, ", ") + "]"
}

// validateDeploymentSpec is upstream's ValidateDeploymentSpec at spec.
func (o Options) validateDeploymentSpec(s *api.DeploymentSpec) api.FieldErrors {
	spec := api.NewPath("spec")
	errs := nonNegative(int64(deref32(s.Replicas)), spec.Child("replicas"))
	errs = append(errs, o.selectorAndTemplate(s.Selector, &s.Template)...)
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, spec.Child("strategy"))...)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.RevisionHistoryLimit), spec.Child("revisionHistoryLimit"))...)
	}
	if pd := s.ProgressDeadlineSeconds; pd != nil {
		p := spec.Child("progressDeadlineSeconds")
		errs = append(errs, nonNegative(int64(*pd), p)...)
		if *pd <= s.MinReadySeconds {
			errs = append(errs, api.Invalid(p, int64(*pd), "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateReplicaSetSpec is upstream's ValidateReplicaSetSpec at spec.
func (o Options) validateReplicaSetSpec(s *api.ReplicaSetSpec) api.FieldErrors {
	spec := api.NewPath("spec")
	errs := nonNegative(int64(deref32(s.Replicas)), spec.Child("replicas"))
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	return append(errs, o.selectorAndTemplate(s.Selector, &s.Template)...)
}

// selectorAndTemplate is the selector and template part shared by a
// Deployment's and a ReplicaSet's spec: the selector strictly validated
// (required, valid, not empty), then, when it converts, the template
// against it; a selector that does not convert is "invalid label
// selector" and the template is not looked at.
func (o Options) selectorAndTemplate(s *api.LabelSelector, t *api.PodTemplateSpec) api.FieldErrors {
	p := api.NewPath("spec").Child("selector")
	var errs api.FieldErrors
	if s == nil {
		errs = append(errs, api.Required(p, ""))
	} else {
		errs = append(errs, validateLabelSelector(s, p)...)
		if len(s.MatchLabels)+len(s.MatchExpressions) == 0 {
			errs = append(errs, api.Invalid(p, jsonValue{s}, "empty selector is invalid for deployment"))
		}
	}
	sel, err := api.LabelSelectorAsSelector(s)
	if err != nil {
		return append(errs, api.Invalid(p, jsonValue{s}, "invalid label selector"))
	}
	return append(errs, o.replicaSetTemplate(sel, t)...)
}

// replicaSetTemplate is upstream's ValidatePodTemplateSpecForReplicaSet:
// a non-empty selector must match the template's labels (a nil selector
// matches nothing), then the template itself and the always-restart
// rule.
func (o Options) replicaSetTemplate(sel api.Selector, t *api.PodTemplateSpec) api.FieldErrors {
	tmpl := api.NewPath("spec").Child("template")
	var errs api.FieldErrors
	if !sel.Empty() && !sel.Matches(api.Set(t.Labels)) {
		errs = append(errs, selectorMismatch(tmpl, t.Labels))
	}
	errs = append(errs, o.ValidatePodTemplateSpec(t, tmpl)...)
	return append(errs, alwaysRestart(t, tmpl, "ReplicaSet")...)
}

// immutableSelector is the apps/v1 rule that a workload's selector never
// changes after creation.
func immutableSelector(s, old *api.LabelSelector) api.FieldErrors {
	if semanticEqual(s, old) {
		return nil
	}
	return api.FieldErrors{api.Invalid(api.NewPath("spec").Child("selector"), jsonValue{s}, "field is immutable")}
}

// validateDeploymentStrategy is upstream's ValidateDeploymentStrategy.
func validateDeploymentStrategy(s *api.DeploymentStrategy, p api.Path) api.FieldErrors {
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return api.FieldErrors{api.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case api.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return api.FieldErrors{api.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	return api.FieldErrors{api.NotSupported(p, jsonValue{deploymentStrategyValue(s)},
		[]string{string(api.RecreateDeploymentStrategyType), string(api.RollingUpdateDeploymentStrategyType)})}
}

func deploymentStrategyValue(s *api.DeploymentStrategy) strategyValue {
	var mu, ms *api.IntOrString
	if ru := s.RollingUpdate; ru != nil {
		mu, ms = ru.MaxUnavailable, ru.MaxSurge
	}
	return internalStrategy(string(s.Type), mu, ms, s.RollingUpdate != nil)
}

// validateRollingUpdateDeployment is upstream's
// ValidateRollingUpdateDeployment: both values non-negative integers or
// percentages, not both 0, and maxUnavailable at most 100%.
func validateRollingUpdateDeployment(ru *api.RollingUpdateDeployment, p api.Path) api.FieldErrors {
	mu, ms := derefIntOrString(ru.MaxUnavailable), derefIntOrString(ru.MaxSurge)
	up := p.Child("maxUnavailable")
	errs := validatePositiveIntOrPercent(mu, up)
	errs = append(errs, validatePositiveIntOrPercent(ms, p.Child("maxSurge"))...)
	if intOrPercentValue(mu) == 0 && intOrPercentValue(ms) == 0 {
		errs = append(errs, api.Invalid(up, jsonValue{mu}, "may not be 0 when `maxSurge` is 0"))
	}
	return append(errs, notOver100Percent(mu, up)...)
}

// validatePositiveIntOrPercent is upstream's ValidatePositiveIntOrPercent:
// a string must be a percentage, an integer must not be negative.
func validatePositiveIntOrPercent(v api.IntOrString, p api.Path) api.FieldErrors {
	if v.IsString {
		if !percentRE.MatchString(v.StrVal) {
			return api.FieldErrors{api.Invalid(p, jsonValue{v}, percentMsg)}
		}
		return nil
	}
	return nonNegative(int64(v.IntVal), p)
}

var percentRE = regexp.MustCompile(`^[0-9]+%$`)

const percentMsg = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// percentValue is the number of a valid percentage string.
func percentValue(v api.IntOrString) (int, bool) {
	if !v.IsString || !percentRE.MatchString(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, err == nil
}

// intOrPercentValue is the number upstream compares with 0 for the
// both-zero rule: a percentage's number, an integer, or a string that is
// not a percentage read as a decimal integer (0 when it is not one).
func intOrPercentValue(v api.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// nonNegative is core validation's ValidateNonnegativeField.
func nonNegative(v int64, p api.Path) api.FieldErrors {
	if v < 0 {
		return api.FieldErrors{api.Invalid(p, v, "must be greater than or equal to 0")}
	}
	return nil
}

func deref32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func derefIntOrString(p *api.IntOrString) api.IntOrString {
	if p == nil {
		return api.IntOrString{}
	}
	return *p
}

// jsonValue renders a composite bad value as the API server does: its
// JSON encoding (apimachinery's field.Error renders any value that is
// not a string, bool or number this way).
type jsonValue struct{ v any }

func (j jsonValue) String() string {
	b, err := json.Marshal(j.v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// strategyValue is a Deployment strategy as upstream's internal type
// encodes in an Unsupported value error: Go field names, no omitted
// fields, and rolling-update values as they are (an unset one is 0).
type strategyValue struct {
	Type          string
	RollingUpdate *rollingUpdateValue
}

type rollingUpdateValue struct {
	MaxUnavailable api.IntOrString
	MaxSurge       api.IntOrString
}

// internalStrategy is the value of a Deployment's or DaemonSet's update
// strategy in an Unsupported value error (both internal types have the
// same shape).
func internalStrategy(typ string, maxUnavailable, maxSurge *api.IntOrString, rolling bool) strategyValue {
	out := strategyValue{Type: typ}
	if rolling {
		out.RollingUpdate = &rollingUpdateValue{MaxUnavailable: derefIntOrString(maxUnavailable), MaxSurge: derefIntOrString(maxSurge)}
	}
	return out
}

// ValidateDaemonSet returns the field errors kube-apiserver v1.36.3
// gives when asked to create the DaemonSet ds (apps validation's
// ValidateDaemonSet): the object metadata as for a Deployment, then the
// spec in upstream's order: the selector's syntax, the selector matching
// the template's labels (a nil selector matches nothing) and not empty,
// the template (restartPolicy Always, no activeDeadlineSeconds),
// minReadySeconds not negative, spec.updateStrategy (OnDelete, or
// RollingUpdate whose maxUnavailable and maxSurge are non-negative
// integers or percentages of at most 100%, exactly one of them not 0),
// and revisionHistoryLimit not negative. The deprecated
// templateGeneration the DaemonSet strategy keeps (1 on create, moved
// with each template change) always passes and is not checked. ds is
// expected defaulted (api.DefaultDaemonSet). A nil ds gives a Required
// error at spec. ds is not modified.
func ValidateDaemonSet(ds *api.DaemonSet) api.FieldErrors {
	return Options{}.ValidateDaemonSet(ds)
}

// ValidateDaemonSet is the package's ValidateDaemonSet under these
// kube-apiserver options.
func (o Options) ValidateDaemonSet(ds *api.DaemonSet) api.FieldErrors {
	if ds == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a DaemonSet is required")}
	}
	errs := validateObjectMeta(&ds.ObjectMeta, api.NewPath("metadata"))
	return append(errs, o.validateDaemonSetSpec(&ds.Spec)...)
}

// ValidateDaemonSetUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the DaemonSet old to ds (apps
// validation's ValidateDaemonSetUpdate): the metadata update rules, an
// immutable spec.selector (reported before the spec's own errors, as
// upstream orders them), then the spec as ValidateDaemonSet checks it.
// A nil ds or old gives a Required error at metadata. Neither is
// modified.
func ValidateDaemonSetUpdate(ds, old *api.DaemonSet) api.FieldErrors {
	return Options{}.ValidateDaemonSetUpdate(ds, old)
}

// ValidateDaemonSetUpdate is the package's ValidateDaemonSetUpdate under
// these kube-apiserver options.
func (o Options) ValidateDaemonSetUpdate(ds, old *api.DaemonSet) api.FieldErrors {
	if ds == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old DaemonSet are required")}
	}
	errs := validateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, immutableSelector(ds.Spec.Selector, old.Spec.Selector)...)
	return append(errs, o.validateDaemonSetSpec(&ds.Spec)...)
}

// validateDaemonSetSpec is upstream's ValidateDaemonSetSpec at spec.
func (o Options) validateDaemonSetSpec(s *api.DaemonSetSpec) api.FieldErrors {
	spec := api.NewPath("spec")
	errs := validateLabelSelector(s.Selector, spec.Child("selector"))
	errs = append(errs, o.daemonSetTemplate(s)...)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&s.UpdateStrategy, spec.Child("updateStrategy"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.RevisionHistoryLimit), spec.Child("revisionHistoryLimit"))...)
	}
	return errs
}

// daemonSetTemplate is the selector and template part of a DaemonSet's
// spec: the selector (when it converts) matching the template's labels,
// a set selector not empty, the template and the always-restart rule.
func (o Options) daemonSetTemplate(s *api.DaemonSetSpec) api.FieldErrors {
	spec := api.NewPath("spec")
	tmpl := spec.Child("template")
	var errs api.FieldErrors
	if sel, err := api.LabelSelectorAsSelector(s.Selector); err == nil && !sel.Matches(api.Set(s.Template.Labels)) {
		errs = append(errs, selectorMismatch(tmpl, s.Template.Labels))
	}
	if sl := s.Selector; sl != nil && len(sl.MatchLabels)+len(sl.MatchExpressions) == 0 {
		errs = append(errs, api.Invalid(spec.Child("selector"), jsonValue{sl}, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, o.ValidatePodTemplateSpec(&s.Template, tmpl)...)
	return append(errs, alwaysRestart(&s.Template, tmpl, "DaemonSet")...)
}

// validateDaemonSetUpdateStrategy is upstream's
// ValidateDaemonSetUpdateStrategy.
func validateDaemonSetUpdateStrategy(s *api.DaemonSetUpdateStrategy, p api.Path) api.FieldErrors {
	switch s.Type {
	case api.OnDeleteDaemonSetStrategyType:
		return nil
	case api.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return api.FieldErrors{api.Required(p.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdateDaemonSet(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	var mu, ms *api.IntOrString
	if ru := s.RollingUpdate; ru != nil {
		mu, ms = ru.MaxUnavailable, ru.MaxSurge
	}
	return api.FieldErrors{api.NotSupported(p, jsonValue{internalStrategy(string(s.Type), mu, ms, s.RollingUpdate != nil)},
		[]string{string(api.RollingUpdateDaemonSetStrategyType), string(api.OnDeleteDaemonSetStrategyType)})}
}

// validateRollingUpdateDaemonSet is upstream's
// ValidateRollingUpdateDaemonSet: both values non-negative integers or
// percentages of at most 100%, and exactly one of them not 0 (a DaemonSet
// either surges or goes unavailable, never both).
func validateRollingUpdateDaemonSet(ru *api.RollingUpdateDaemonSet, p api.Path) api.FieldErrors {
	mu, ms := derefIntOrString(ru.MaxUnavailable), derefIntOrString(ru.MaxSurge)
	up, sp := p.Child("maxUnavailable"), p.Child("maxSurge")
	errs := validatePositiveIntOrPercent(mu, up)
	errs = append(errs, validatePositiveIntOrPercent(ms, sp)...)
	errs = append(errs, notOver100Percent(mu, up)...)
	errs = append(errs, notOver100Percent(ms, sp)...)
	unavailable, surge := intOrPercentValue(mu) != 0, intOrPercentValue(ms) != 0
	switch {
	case unavailable && surge:
		errs = append(errs, api.Invalid(sp, jsonValue{ms}, "may not be set when maxUnavailable is non-zero"))
	case !unavailable && !surge:
		errs = append(errs, api.Required(up, "cannot be 0 when maxSurge is 0"))
	}
	return errs
}

// notOver100Percent is upstream's IsNotMoreThan100Percent: a valid
// percentage may not exceed 100%.
func notOver100Percent(v api.IntOrString, p api.Path) api.FieldErrors {
	if n, ok := percentValue(v); ok && n > 100 {
		return api.FieldErrors{api.Invalid(p, jsonValue{v}, "must not be greater than 100%")}
	}
	return nil
}
