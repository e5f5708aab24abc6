package validation

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/podsem/podsem/api"
)

// ValidateResourceQuota returns the field errors kube-apiserver v1.36.3
// gives for the ResourceQuota q (core validation's ValidateResourceQuota),
// or nil when it is accepted:
//
//   - metadata: a DNS-subdomain name, a namespace, valid labels,
//     annotations, owners and finalizers;
//   - each name of spec.hard (in sorted order; upstream ranges over the
//     map) is a qualified name, and without a domain prefix one of the
//     standard resource names and one that quota tracks: cpu, memory,
//     ephemeral-storage, requests.* and limits.* of those, requests.storage,
//     pods, services, services.loadbalancers, services.nodeports,
//     secrets, configmaps, persistentvolumeclaims, replicationcontrollers,
//     resourcequotas, hugepages-<size> and requests.hugepages-<size>
//     (count/<resource>[.<group>] and extended resources such as
//     requests.nvidia.com/gpu carry a prefix);
//   - each amount is not negative, and a whole number for object counts
//     and extended resources (count/* included: "must be an integer");
//   - each of spec.scopes is a known scope (Terminating, NotTerminating,
//     BestEffort, NotBestEffort, PriorityClass, CrossNamespacePodAffinity,
//     VolumeAttributesClass) that applies to every standard name of
//     spec.hard ("unsupported scope applied to resource": BestEffort counts
//     pods only, the other pod scopes pods and cpu and memory requests and
//     limits, VolumeAttributesClass claims and requests.storage), and the
//     scopes do not pair BestEffort with NotBestEffort or Terminating with
//     NotTerminating ("conflicting scopes");
//   - each expression of spec.scopeSelector is held to the same scope
//     rules, takes Exists as its operator for the scopes that match
//     without values (all but PriorityClass and VolumeAttributesClass),
//     has values with In and NotIn and none with Exists and DoesNotExist;
//   - status.hard and status.used as spec.hard, names and amounts.
//
// Paths, messages and values are upstream's, quirks included: the scope
// errors name spec.scopes (or spec.scopeSelector.matchExpressions, no
// index) and carry the whole list as their value, and conflicting scopes
// in the selector carry spec.scopes. The registry clears status before
// validating a create, so status errors come only from a quota validated
// as it stands. A refusal reads `ResourceQuota "q" is invalid: ...` (see
// InvalidObjectMessage, group ""). A nil q gives a single Required error
// at metadata. q is not modified.
func ValidateResourceQuota(q *api.ResourceQuota) api.FieldErrors {
	if q == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "a ResourceQuota is required")}
	}
	errs := validateObjectMeta(&q.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, validateResourceQuotaSpec(&q.Spec)...)
	return append(errs, validateResourceQuotaStatus(&q.Status)...)
}

// ValidateResourceQuotaUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the stored ResourceQuota old to q
// (ValidateResourceQuotaUpdate): the metadata update rules (a
// resourceVersion, name, namespace and uid unchanged, ...), the spec rules
// of ValidateResourceQuota, and spec.scopes unchanged as a set (order and
// repeats aside; "field is immutable"). The status is not looked at: the
// registry keeps the stored one on an update of the main resource. A nil
// q or old gives a single Required error at metadata. Neither is modified.
func ValidateResourceQuotaUpdate(q, old *api.ResourceQuota) api.FieldErrors {
	if q == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old ResourceQuota are required")}
	}
	errs := validateObjectMetaUpdate(&q.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, validateResourceQuotaSpec(&q.Spec)...)
	if !sameScopes(q.Spec.Scopes, old.Spec.Scopes) {
		errs = append(errs, api.Invalid(api.NewPath("spec", "scopes"), jsonValue{q.Spec.Scopes}, "field is immutable"))
	}
	return errs
}

// ValidateResourceQuotaStatusUpdate returns the field errors
// kube-apiserver v1.36.3 gives when asked to update the status of the
// stored ResourceQuota old to q's (the resourcequotas/status subresource,
// ValidateResourceQuotaStatusUpdate), as the resourcequota controller
// does after each recount: the metadata update rules, a resourceVersion
// (asked for twice upstream: also as "resourceVersion: Required value",
// at the top level), and the names and amounts of status.hard and
// status.used as ValidateResourceQuota checks spec.hard. The spec is not
// looked at: the registry keeps the stored one on a status update. A nil
// q or old gives a single Required error at metadata. Neither is
// modified.
func ValidateResourceQuotaStatusUpdate(q, old *api.ResourceQuota) api.FieldErrors {
	if q == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old ResourceQuota are required")}
	}
	errs := validateObjectMetaUpdate(&q.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	if q.ResourceVersion == "" {
		errs = append(errs, api.Required(api.NewPath("resourceVersion"), ""))
	}
	return append(errs, validateResourceQuotaStatus(&q.Status)...)
}

// validateResourceQuotaSpec is upstream's ValidateResourceQuotaSpec at
// spec.
func validateResourceQuotaSpec(s *api.ResourceQuotaSpec) api.FieldErrors {
	p := api.NewPath("spec")
	errs := validateQuotaResources(s.Hard, p.Child("hard"))
	errs = append(errs, validateQuotaScopes(s, p.Child("scopes"))...)
	if s.ScopeSelector != nil {
		errs = append(errs, validateScopeSelector(s, p.Child("scopeSelector").Child("matchExpressions"))...)
	}
	return errs
}

// validateResourceQuotaStatus is upstream's ValidateResourceQuotaStatus
// at status.
func validateResourceQuotaStatus(s *api.ResourceQuotaStatus) api.FieldErrors {
	p := api.NewPath("status")
	errs := validateQuotaResources(s.Hard, p.Child("hard"))
	return append(errs, validateQuotaResources(s.Used, p.Child("used"))...)
}

// validateQuotaResources checks each name of a quota's resource list and
// its amount, at p[name].
func validateQuotaResources(l api.ResourceList, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, name := range l.Names() {
		np := p.Key(string(name))
		errs = append(errs, validateQuotaResourceName(name, np)...)
		errs = append(errs, validateQuotaQuantity(name, l[name], np)...)
	}
	return errs
}

// validateQuotaResourceName is upstream's
// ValidateResourceQuotaResourceName: a valid resource name, and without a
// domain prefix a name quota tracks. Both errors can come together
// ("foo" is neither standard nor known to quota).
func validateQuotaResourceName(name api.ResourceName, p api.Path) api.FieldErrors {
	errs := validateResourceName(name, p)
	if !strings.Contains(string(name), "/") && !isStandardQuotaResource(name) {
		errs = append(errs, api.Invalid(p, jsonValue{name}, "must be a standard resource for quota"))
	}
	return errs
}

// validateQuotaQuantity is upstream's ValidateResourceQuantityValue for a
// quota: validateResourceQuantity's rules (not negative, whole for pods
// and extended resources) and whole for the other object counts too.
func validateQuotaQuantity(name api.ResourceName, q api.Quantity, p api.Path) api.FieldErrors {
	errs := validateResourceQuantity(name, q, p)
	if objectCountResources[name] && q.MilliValue()%1000 != 0 {
		errs = append(errs, api.Invalid(p, q.String(), "must be an integer"))
	}
	return errs
}

// validateResourceName is core validation's validateResourceName: a
// qualified name, and without a domain prefix one of the standard
// resource names. The qualified-name errors come alone.
func validateResourceName(name api.ResourceName, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, msg := range api.IsQualifiedName(string(name)) {
		errs = append(errs, api.Invalid(p, jsonValue{name}, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	if _, known := standardResources[name]; !known && !strings.Contains(string(name), "/") && !isQuotaHugePages(name) {
		errs = append(errs, api.Invalid(p, jsonValue{name}, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// standardResources are the resource names core validation calls
// standard (helper.IsStandardResourceName, which also takes the huge page
// names), each marked with whether quota tracks it
// (IsStandardQuotaResourceName): all of them but storage, a claim's and a
// limit range's name.
var standardResources = map[api.ResourceName]bool{
	api.ResourceCPU: true, api.ResourceMemory: true, api.ResourceEphemeralStorage: true,
	"requests.cpu": true, "requests.memory": true, "requests.ephemeral-storage": true, "requests.storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
	api.ResourcePods: true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true,
	"services.nodeports": true, "services.loadbalancers": true,
	api.ResourceStorage: false,
}

// objectCountResources are the standard names, besides pods, whose
// amounts are object counts and so whole numbers
// (helper.IsIntegerResourceName; validateResourceQuantity covers pods and
// extended resources, count/* among them).
var objectCountResources = map[api.ResourceName]bool{
	"resourcequotas": true, "services": true, "replicationcontrollers": true, "secrets": true,
	"configmaps": true, "persistentvolumeclaims": true, "services.nodeports": true, "services.loadbalancers": true,
}

// isStandardQuotaResource reports whether quota tracks name without a
// domain prefix (helper.IsStandardQuotaResourceName).
func isStandardQuotaResource(name api.ResourceName) bool {
	return standardResources[name] || isQuotaHugePages(name)
}

// isQuotaHugePages reports a huge page name as quota spells it:
// hugepages-<size> or requests.hugepages-<size> (the name is not checked
// further).
func isQuotaHugePages(name api.ResourceName) bool {
	return name.IsHugePages() || strings.HasPrefix(string(name), "requests."+api.ResourceHugePagesPrefix)
}

// quotaScopeVolumeAttributesClass is the scope that narrows a quota to the
// persistent volume claims of given volume attributes classes (core/v1
// ResourceQuotaScopeVolumeAttributesClass, with VolumeAttributesClass GA
// since v1.34).
const quotaScopeVolumeAttributesClass = "VolumeAttributesClass"

// quotaScopes are the scopes a quota may name, each with the standard
// resource names it may narrow (helper.IsResourceQuotaScopeValidForResource);
// names outside the standard set, such as count/pods or extended
// resources, are never held against a scope.
var quotaScopes = map[string][]api.ResourceName{
	api.QuotaScopeBestEffort:                {api.ResourcePods},
	api.QuotaScopeTerminating:               podComputeQuota,
	api.QuotaScopeNotTerminating:            podComputeQuota,
	api.QuotaScopeNotBestEffort:             podComputeQuota,
	api.QuotaScopePriorityClass:             podComputeQuota,
	api.QuotaScopeCrossNamespacePodAffinity: podComputeQuota,
	quotaScopeVolumeAttributesClass:         {"persistentvolumeclaims", "requests.storage"},
}

// podComputeQuota are the pod count and the cpu and memory requests and
// limits, what most pod scopes can narrow.
var podComputeQuota = []api.ResourceName{api.ResourcePods, api.ResourceCPU, api.ResourceMemory,
	"requests.cpu", "requests.memory", "limits.cpu", "limits.memory"}

// conflictingScopePairs are the scopes no pod matches together.
var conflictingScopePairs = [][2]string{
	{api.QuotaScopeBestEffort, api.QuotaScopeNotBestEffort},
	{api.QuotaScopeTerminating, api.QuotaScopeNotTerminating},
}

// validateQuotaScopes is upstream's validateResourceQuotaScopes at
// spec.scopes: every error carries the whole list.
func validateQuotaScopes(s *api.ResourceQuotaSpec, p api.Path) api.FieldErrors {
	if len(s.Scopes) == 0 {
		return nil
	}
	hard := s.Hard.Names()
	var errs api.FieldErrors
	for _, scope := range s.Scopes {
		if _, known := quotaScopes[scope]; !known {
			errs = append(errs, api.Invalid(p, jsonValue{s.Scopes}, "unsupported scope"))
		}
		errs = append(errs, misappliedScope(scope, hard, p, jsonValue{s.Scopes})...)
	}
	return append(errs, conflictingScopes(s.Scopes, p, jsonValue{s.Scopes})...)
}

// validateScopeSelector is upstream's validateScopeSelector at
// spec.scopeSelector.matchExpressions (p). Errors name the list, not an
// element; a misapplied scope carries the whole selector, as upstream's
// internal type encodes, and conflicting scopes carry spec.scopes.
func validateScopeSelector(s *api.ResourceQuotaSpec, p api.Path) api.FieldErrors {
	hard := s.Hard.Names()
	whole := jsonValue{internalScopeSelector(s.ScopeSelector)}
	var errs api.FieldErrors
	scopes := make([]string, 0, len(s.ScopeSelector.MatchExpressions))
	for _, req := range s.ScopeSelector.MatchExpressions {
		if _, known := quotaScopes[req.ScopeName]; !known {
			errs = append(errs, api.Invalid(p.Child("scopeName"), jsonValue{req.ScopeName}, "unsupported scope"))
		}
		errs = append(errs, misappliedScope(req.ScopeName, hard, p, whole)...)
		switch req.ScopeName {
		case api.QuotaScopeBestEffort, api.QuotaScopeNotBestEffort, api.QuotaScopeTerminating,
			api.QuotaScopeNotTerminating, api.QuotaScopeCrossNamespacePodAffinity:
			if req.Operator != api.ScopeSelectorOpExists {
				errs = append(errs, api.Invalid(p.Child("operator"), jsonValue{req.Operator},
					"must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
			}
		}
		switch req.Operator {
		case api.ScopeSelectorOpIn, api.ScopeSelectorOpNotIn:
			if len(req.Values) == 0 {
				errs = append(errs, api.Required(p.Child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
			}
		case api.ScopeSelectorOpExists, api.ScopeSelectorOpDoesNotExist:
			if len(req.Values) != 0 {
				errs = append(errs, api.Invalid(p.Child("values"), jsonValue{req.Values}, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
			}
		default:
			errs = append(errs, api.Invalid(p.Child("operator"), jsonValue{req.Operator}, "not a valid selector operator"))
		}
		scopes = append(scopes, req.ScopeName)
	}
	return append(errs, conflictingScopes(scopes, p, jsonValue{s.Scopes})...)
}

// misappliedScope reports, once for each, the standard names of hard that
// scope cannot narrow. An unknown scope narrows anything.
func misappliedScope(scope string, hard []api.ResourceName, p api.Path, value any) api.FieldErrors {
	allowed, known := quotaScopes[scope]
	if !known {
		return nil
	}
	var errs api.FieldErrors
	for _, name := range hard {
		if isStandardQuotaResource(name) && !slices.Contains(allowed, name) {
			errs = append(errs, api.Invalid(p, value, "unsupported scope applied to resource"))
		}
	}
	return errs
}

// conflictingScopes reports each pair of conflictingScopePairs that scopes
// names both of.
func conflictingScopes(scopes []string, p api.Path, value any) api.FieldErrors {
	var errs api.FieldErrors
	for _, pair := range conflictingScopePairs {
		if slices.Contains(scopes, pair[0]) && slices.Contains(scopes, pair[1]) {
			errs = append(errs, api.Invalid(p, value, "conflicting scopes"))
		}
	}
	return errs
}

// sameScopes reports two scope lists equal as sets.
func sameScopes(a, b []string) bool {
	return !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) }) &&
		!slices.ContainsFunc(b, func(s string) bool { return !slices.Contains(a, s) })
}

// scopeSelectorValue is a scope selector as upstream's internal type
// encodes in an error's value: Go field names, nothing omitted.
type scopeSelectorValue struct {
	MatchExpressions []scopeRequirementValue
}

type scopeRequirementValue struct {
	ScopeName string
	Operator  string
	Values    []string
}

func internalScopeSelector(s *api.ScopeSelector) scopeSelectorValue {
	var out scopeSelectorValue
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, scopeRequirementValue(r))
	}
	return out
}

// ValidateLimitRange returns the field errors kube-apiserver v1.36.3
// gives for the LimitRange lr (core validation's ValidateLimitRange), or
// nil when it is accepted:
//
//   - metadata: a DNS-subdomain name, a namespace, valid labels,
//     annotations, owners and finalizers;
//   - each of spec.limits has a type, Container, Pod, PersistentVolumeClaim
//     or a qualified name with a domain prefix, that no earlier item has;
//   - the resource names of its max, min, default, defaultRequest and
//     maxLimitRequestRatio are those a container may request (cpu,
//     memory, ephemeral-storage, hugepages-<size>, extended resources)
//     for Container and Pod items, and any valid resource name for the
//     others;
//   - a Pod item has no default or defaultRequest; a PersistentVolumeClaim
//     item has a min or a max for storage;
//   - for each resource (in sorted order; upstream ranges over a set):
//     min <= max, min <= defaultRequest <= max, defaultRequest <= default,
//     min <= default <= max, a maxLimitRequestRatio of at least 1 and at
//     most max/min, and default equal to defaultRequest for resources that
//     cannot be overcommitted (huge pages, extended resources).
//
// Amounts may be negative: upstream does not check their sign. Values and
// messages are upstream's, quirks included ("default value 2 is greater
// than max value 1" carries the max). lr is expected defaulted as the API
// server holds it (api.DefaultLimitRange fills a Container item's default
// and defaultRequest from max and min), and named: the registry names a
// LimitRange without a name by a fresh UUID before it validates, ignoring
// generateName. A refusal reads `LimitRange "l" is invalid: ...`. A nil lr
// gives a single Required error at metadata. lr is not modified.
func ValidateLimitRange(lr *api.LimitRange) api.FieldErrors {
	if lr == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "a LimitRange is required")}
	}
	errs := validateObjectMeta(&lr.ObjectMeta, api.NewPath("metadata"))
	p := api.NewPath("spec", "limits")
	seen := map[api.LimitType]bool{}
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		ip := p.Index(i)
		errs = append(errs, validateLimitType(it.Type, ip.Child("type"))...)
		if seen[it.Type] {
			errs = append(errs, api.Duplicate(ip.Child("type"), jsonValue{it.Type}))
		}
		seen[it.Type] = true
		errs = append(errs, validateLimitRangeItem(it, ip)...)
	}
	return errs
}

// ValidateLimitRangeUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the stored LimitRange old to lr: the
// metadata update rules every update gets (a resourceVersion, name,
// namespace and uid unchanged, ...), then ValidateLimitRange of lr whole,
// as the LimitRange strategy validates an update (every field may
// change). A nil lr or old gives a single Required error at metadata.
// Neither is modified.
func ValidateLimitRangeUpdate(lr, old *api.LimitRange) api.FieldErrors {
	if lr == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old LimitRange are required")}
	}
	errs := validateObjectMetaUpdate(&lr.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	return append(errs, ValidateLimitRange(lr)...)
}

// validateLimitType is upstream's validateLimitRangeTypeName.
func validateLimitType(t api.LimitType, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, msg := range api.IsQualifiedName(string(t)) {
		errs = append(errs, api.Invalid(p, jsonValue{t}, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	switch t {
	case api.LimitTypePod, api.LimitTypeContainer, api.LimitTypePersistentVolumeClaim:
	default:
		if !strings.Contains(string(t), "/") {
			errs = append(errs, api.Invalid(p, jsonValue{t}, "must be a standard limit type or fully qualified"))
		}
	}
	return errs
}

// validateLimitRangeResourceName is upstream's
// validateLimitRangeResourceName: container resource names for Container
// and Pod items, any resource name otherwise.
func validateLimitRangeResourceName(t api.LimitType, name api.ResourceName, p api.Path) api.FieldErrors {
	if t != api.LimitTypePod && t != api.LimitTypeContainer {
		return validateResourceName(name, p)
	}
	// Upstream's container check starts with validateResourceName;
	// validateContainerResourceName repeats only its qualified-name part.
	var errs api.FieldErrors
	if len(api.IsQualifiedName(string(name))) == 0 {
		errs = validateResourceName(name, p)
	}
	return append(errs, validateContainerResourceName(name, p)...)
}

// oneQuantity is the least maxLimitRequestRatio.
var oneQuantity = api.MustParseQuantity("1")

// validateLimitRangeItem checks one of spec.limits at p past its type: the
// names of each list, the Pod and PersistentVolumeClaim rules, and the
// order of the amounts each resource gets.
func validateLimitRangeItem(it *api.LimitRangeItem, p api.Path) api.FieldErrors {
	names := func(l api.ResourceList, field string) api.FieldErrors {
		var errs api.FieldErrors
		for _, name := range l.Names() {
			errs = append(errs, validateLimitRangeResourceName(it.Type, name, p.Child(field).Key(string(name)))...)
		}
		return errs
	}
	errs := names(it.Max, "max")
	errs = append(errs, names(it.Min, "min")...)
	def, defReq := it.Default, it.DefaultRequest
	if it.Type == api.LimitTypePod {
		if len(def) > 0 {
			errs = append(errs, api.Forbidden(p.Child("default"), "may not be specified when `type` is 'Pod'"))
		}
		if len(defReq) > 0 {
			errs = append(errs, api.Forbidden(p.Child("defaultRequest"), "may not be specified when `type` is 'Pod'"))
		}
		// A Pod item's defaults are not looked at further.
		def, defReq = nil, nil
	} else {
		errs = append(errs, names(def, "default")...)
		errs = append(errs, names(defReq, "defaultRequest")...)
	}
	if it.Type == api.LimitTypePersistentVolumeClaim {
		_, hasMin := it.Min[api.ResourceStorage]
		_, hasMax := it.Max[api.ResourceStorage]
		if !hasMin && !hasMax {
			errs = append(errs, api.Required(p.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
		}
	}
	errs = append(errs, names(it.MaxLimitRequestRatio, "maxLimitRequestRatio")...)

	named := map[api.ResourceName]bool{}
	for _, l := range []api.ResourceList{it.Max, it.Min, def, defReq, it.MaxLimitRequestRatio} {
		for name := range l {
			named[name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(named)) {
		at := func(field string) api.Path { return p.Child(field).Key(string(name)) }
		lo, hasMin := it.Min[name]
		hi, hasMax := it.Max[name]
		d, hasDef := def[name]
		dr, hasDefReq := defReq[name]
		ratio, hasRatio := it.MaxLimitRequestRatio[name]
		if hasMin && hasMax && lo.Cmp(hi) > 0 {
			errs = append(errs, api.Invalid(at("min"), lo.String(), fmt.Sprintf("min value %s is greater than max value %s", lo.String(), hi.String())))
		}
		if hasDefReq && hasMin && lo.Cmp(dr) > 0 {
			errs = append(errs, api.Invalid(at("defaultRequest"), dr.String(), fmt.Sprintf("min value %s is greater than default request value %s", lo.String(), dr.String())))
		}
		if hasDefReq && hasMax && dr.Cmp(hi) > 0 {
			errs = append(errs, api.Invalid(at("defaultRequest"), dr.String(), fmt.Sprintf("default request value %s is greater than max value %s", dr.String(), hi.String())))
		}
		if hasDefReq && hasDef && dr.Cmp(d) > 0 {
			errs = append(errs, api.Invalid(at("defaultRequest"), dr.String(), fmt.Sprintf("default request value %s is greater than default limit value %s", dr.String(), d.String())))
		}
		if hasDef && hasMin && lo.Cmp(d) > 0 {
			errs = append(errs, api.Invalid(at("default"), lo.String(), fmt.Sprintf("min value %s is greater than default value %s", lo.String(), d.String())))
		}
		if hasDef && hasMax && d.Cmp(hi) > 0 {
			errs = append(errs, api.Invalid(at("default"), hi.String(), fmt.Sprintf("default value %s is greater than max value %s", d.String(), hi.String())))
		}
		if hasRatio && ratio.Cmp(oneQuantity) < 0 {
			errs = append(errs, api.Invalid(at("maxLimitRequestRatio"), ratio.String(), fmt.Sprintf("ratio %s is less than 1", ratio.String())))
		}
		if hasRatio && hasMin && hasMax {
			if r, limit := ratioAndLimit(ratio, lo, hi); r > limit {
				errs = append(errs, api.Invalid(at("maxLimitRequestRatio"), ratio.String(), fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), limit)))
			}
		}
		if !overcommitAllowed(name) && hasDef && hasDefReq && d.Cmp(dr) != 0 {
			errs = append(errs, api.Invalid(at("defaultRequest"), dr.String(), fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", d.String(), dr.String(), name)))
		}
	}
	return errs
}

// ratioAndLimit returns a maxLimitRequestRatio and max/min as upstream
// compares them: in thousandths when all three amounts are below
// api.MaxMilliValue, in whole units (rounded up) otherwise. A min of 0 gives
// an infinite limit (NaN with a max of 0, which no ratio exceeds). Amounts
// beyond int64 saturate here where Kubernetes wraps around.
func ratioAndLimit(ratio, lo, hi api.Quantity) (r, limit float64) {
	r = float64(ratio.Value())
	l, h := lo.Value(), hi.Value()
	if ratio.Value() < api.MaxMilliValue && l < api.MaxMilliValue && h < api.MaxMilliValue {
		r = float64(ratio.MilliValue()) / 1000
		l, h = lo.MilliValue(), hi.MilliValue()
	}
	return r, float64(h) / float64(l)
}
