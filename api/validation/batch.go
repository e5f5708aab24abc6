package validation

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// Limits of kube-apiserver v1.36.3's Job validation
// (pkg/apis/batch/validation).
const (
	maxIndexedJobParallelism         = 100_000
	maxIndexedJobFailedIndexes       = 100_000
	jobCompletionsSoftLimit          = 100_000
	jobParallelismHighCompletions    = 10_000
	jobFailedIndexesHighCompletions  = 10_000
	maxPodFailurePolicyRules         = 20
	maxPodFailurePolicyExitCodes     = 255
	maxPodFailurePolicyPodConditions = 20
	maxJobManagedByLength            = 63
	maxSucceededIndexesLength        = 64 * 1024
	maxSuccessPolicyRules            = 20
)

// The enumerations a Job's validation accepts, sorted as upstream lists
// them in its messages.
var (
	podFailurePolicyActions = []string{"Count", "FailIndex", "FailJob", "Ignore"}
	exitCodesOperators      = []string{"In", "NotIn"}
	podConditionStatuses    = []string{string(api.ConditionFalse), string(api.ConditionTrue), string(api.ConditionUnknown)}
	podReplacementPolicies  = []string{api.FailedPodReplacement, api.TerminatingOrFailed}
	jobCompletionModes      = []string{api.NonIndexedCompletion, api.IndexedCompletion}
	jobRestartPolicies      = []string{string(api.RestartPolicyOnFailure), string(api.RestartPolicyNever)}
)

// jobOptions are the batch validation options kube-apiserver's Job
// strategy derives for a request (pkg/registry/batch/job
// validationOptionsForJob) under v1.36.3's default feature gates.
type jobOptions struct {
	// requirePrefixedLabels: the generated selector's prefixed labels
	// must be on the template too (always on create; on update when the
	// stored template has both).
	requirePrefixedLabels bool
	// mutableTemplate: the stored Job is suspended, has no active pods
	// and never started (or carries the Suspended condition), so its
	// template's scheduling directives and container resources may change
	// (MutableSchedulingDirectivesForSuspendedJobs and
	// MutablePodResourcesForSuspendedJobs, beta and on in v1.36).
	mutableTemplate bool
	// allowInvalidSelectorValues: the stored selector has a
	// matchExpressions value that is not a valid label value, so the
	// updated one may too (AllowInvalidLabelValueInSelector).
	allowInvalidSelectorValues bool
}

// ValidateJob returns the field errors kube-apiserver v1.36.3 gives when
// asked to create the Job job (the Job registry strategy's Validate:
// batch validation's ValidateJob, pkg/apis/batch/validation), in
// upstream's order:
//
//   - the object metadata (a DNS-subdomain name, a namespace, labels,
//     annotations, owners);
//   - unless spec.manualSelector is true, the generated selector: a uid,
//     the template labels job-name and controller-uid (legacy and
//     batch.kubernetes.io/ prefixed) equal to the Job's name and uid, and
//     a selector that selects those labels ("`selector` not
//     auto-generated");
//   - parallelism, completions, activeDeadlineSeconds, backoffLimit,
//     ttlSecondsAfterFinished, backoffLimitPerIndex and maxFailedIndexes
//     not negative, maxFailedIndexes only with backoffLimitPerIndex;
//   - managedBy a domain-prefixed path of at most 63 bytes;
//   - completionMode NonIndexed or Indexed; an Indexed Job has
//     completions, parallelism at most 100000, maxFailedIndexes at most
//     completions and 100000, and above 100000 completions with
//     backoffLimitPerIndex a maxFailedIndexes and parallelism of at most
//     10000; backoffLimitPerIndex and maxFailedIndexes need Indexed;
//   - podFailurePolicy: at most 20 rules, each with a supported action
//     (FailIndex needs backoffLimitPerIndex) and exactly one of
//     onExitCodes (operator In or NotIn, a container of the template, 1
//     to 255 ordered, distinct values, no 0 with In) and onPodConditions
//     (at most 20 patterns of a qualified-name type and a True, False or
//     Unknown status);
//   - successPolicy only for an Indexed Job, 1 to 20 rules, each with a
//     succeededIndexes interval list inside completions and/or a
//     succeededCount at most completions and the number of listed
//     indexes;
//   - podReplacementPolicy Failed or TerminatingOrFailed (only Failed
//     with a podFailurePolicy);
//   - the pod template (ValidatePodTemplateSpec) with restartPolicy
//     OnFailure or Never (Never with a podFailurePolicy);
//   - spec.selector required and a valid label selector that selects the
//     template's labels;
//   - for an Indexed Job, the name with "-<completions-1>" a DNS label
//     (the last pod's hostname).
//
// job is expected as the strategy validates it: defaulted
// (api.DefaultJob), given its uid, with the selector generated
// (workloads.GenerateJobSelector) unless manualSelector is true. A
// refusal reads `Job.batch "pi" is invalid: ...` (InvalidObjectMessage).
// A nil job gives a Required error at spec. job is not modified.
func ValidateJob(job *api.Job) api.FieldErrors {
	return Options{}.ValidateJob(job)
}

// ValidateJob is the package's ValidateJob under these kube-apiserver
// options.
func (o Options) ValidateJob(job *api.Job) api.FieldErrors {
	if job == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a Job is required")}
	}
	return o.validateJob(job, jobOptions{requirePrefixedLabels: true})
}

// ValidateJobUpdate returns the field errors kube-apiserver v1.36.3 gives
// when asked to update the stored Job old to job (the Job registry
// strategy's ValidateUpdate): all of ValidateJob's errors for job (with
// the prefixed template labels required only when old's template has
// them, and matchExpressions values that are not label values allowed
// when old's selector has one), then batch validation's ValidateJobUpdate: the metadata update
// rules, the spec rules a second time (upstream checks the spec in both),
// and the immutable fields:
//
//   - completions, except for an Indexed Job, whose completions may
//     change together with parallelism (equal to it);
//   - selector, completionMode, podFailurePolicy, backoffLimitPerIndex,
//     managedBy and successPolicy ("field is immutable");
//   - the pod template, unless old is suspended: then, if old has no
//     active pods and never started (or has the Suspended condition), its
//     node affinity, node selector, tolerations, scheduling gates, labels,
//     annotations and container resources may change, and nothing else
//     (the error is at spec.template.spec); a suspended Job that ran may
//     not change its template at all.
//
// The bad value of a template "field is immutable" error is the new
// template's JSON; the API server prints its internal Go structure
// instead. Both are expected defaulted; a nil job or old gives a Required
// error at metadata. Neither is modified.
func ValidateJobUpdate(job, old *api.Job) api.FieldErrors {
	return Options{}.ValidateJobUpdate(job, old)
}

// ValidateJobUpdate is the package's ValidateJobUpdate under these
// kube-apiserver options.
func (o Options) ValidateJobUpdate(job, old *api.Job) api.FieldErrors {
	if job == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old Job are required")}
	}
	_, hadName := old.Spec.Template.Labels[api.LabelJobName]
	_, hadUID := old.Spec.Template.Labels[api.LabelJobControllerUID]
	jo := jobOptions{
		requirePrefixedLabels:      hadName && hadUID,
		mutableTemplate:            jobTemplateMutable(old),
		allowInvalidSelectorValues: selectorHasInvalidValue(old.Spec.Selector),
	}
	errs := o.validateJob(job, jo)
	errs = append(errs, validateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))...)
	return append(errs, o.validateJobSpecUpdate(&job.Spec, &old.Spec, jo)...)
}

// selectorHasInvalidValue reports a matchExpressions value that is not a
// valid label value (apimachinery's LabelSelectorHasInvalidLabelValue).
func selectorHasInvalidValue(s *api.LabelSelector) bool {
	if s == nil {
		return false
	}
	for _, e := range s.MatchExpressions {
		for _, v := range e.Values {
			if len(api.ValidateLabelValue(v)) > 0 {
				return true
			}
		}
	}
	return false
}

// jobTemplateMutable is the Job strategy's test for a stored Job whose
// template may change: suspended, no active pods, and never started or
// suspended by the controller (the Suspended condition is True).
func jobTemplateMutable(old *api.Job) bool {
	if old.Spec.Suspend == nil || !*old.Spec.Suspend || old.Status.Active != 0 {
		return false
	}
	if old.Status.StartTime == nil {
		return true
	}
	for _, c := range old.Status.Conditions {
		if c.Type == api.JobConditionSuspended && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

// validateJob is upstream's ValidateJob under the strategy's options.
func (o Options) validateJob(job *api.Job, jo jobOptions) api.FieldErrors {
	errs := validateObjectMeta(&job.ObjectMeta, api.NewPath("metadata"))
	errs = append(errs, validateGeneratedJobSelector(job, jo.requirePrefixedLabels)...)
	errs = append(errs, o.validateJobSpec(&job.Spec, jo)...)
	if c := job.Spec.Completions; isIndexedJob(&job.Spec) && c != nil && *c > 0 {
		last := job.Name + "-" + strconv.Itoa(int(*c-1))
		if len(api.IsDNS1123Label(last)) > 0 {
			errs = append(errs, api.Invalid(api.NewPath("metadata").Child("name"), job.Name, "will not able to create pod with invalid DNS label: "+last))
		}
	}
	return errs
}

// isIndexedJob reports completionMode Indexed.
func isIndexedJob(s *api.JobSpec) bool {
	return s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion
}

// validateGeneratedJobSelector is upstream's validateGeneratedSelector:
// a Job whose selector the API server generated must carry the generated
// labels and a selector that selects them.
func validateGeneratedJobSelector(job *api.Job, prefixed bool) api.FieldErrors {
	if (job.Spec.ManualSelector != nil && *job.Spec.ManualSelector) || job.Spec.Selector == nil {
		return nil
	}
	var errs api.FieldErrors
	if job.UID == "" {
		errs = append(errs, api.Required(api.NewPath("metadata").Child("uid"), ""))
	}
	labels := api.NewPath("spec").Child("template").Child("metadata").Child("labels")
	want := [][2]string{{api.LabelLegacyJobControllerUID, job.UID}, {api.LabelLegacyJobName, job.Name}}
	if prefixed {
		want = append(want, [2]string{api.LabelJobControllerUID, job.UID}, [2]string{api.LabelJobName, job.Name})
	}
	expected := map[string]string{}
	for _, kv := range want {
		expected[kv[0]] = kv[1]
		got, ok := job.Spec.Template.Labels[kv[0]]
		switch {
		case !ok:
			errs = append(errs, api.Required(labels.Key(kv[0]), "must be '"+kv[1]+"'"))
		case got != kv[1]:
			errs = append(errs, api.Invalid(labels.Key(kv[0]), jsonValue{job.Spec.Template.Labels}, "must be '"+kv[1]+"'"))
		}
	}
	if sel, err := api.LabelSelectorAsSelector(job.Spec.Selector); err == nil && !sel.Matches(api.Set(expected)) {
		errs = append(errs, api.Invalid(api.NewPath("spec").Child("selector"), jsonValue{job.Spec.Selector}, "`selector` not auto-generated"))
	}
	return errs
}

// validateJobSpec is upstream's ValidateJobSpec at spec.
func (o Options) validateJobSpec(s *api.JobSpec, jo jobOptions) api.FieldErrors {
	return o.validateJobSpecAt(s, jo, api.NewPath("spec"), false)
}

// validateJobSpecAt is upstream's validateJobSpec at the path spec; a
// CronJob's Job template (inTemplate) is checked without the selector
// rules, its selector being generated for each Job.
func (o Options) validateJobSpecAt(s *api.JobSpec, jo jobOptions, spec api.Path, inTemplate bool) api.FieldErrors {
	var errs api.FieldErrors
	for _, f := range []struct {
		name string
		v    *int32
	}{{"parallelism", s.Parallelism}, {"completions", s.Completions}} {
		if f.v != nil {
			errs = append(errs, nonNegative(int64(*f.v), spec.Child(f.name))...)
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		errs = append(errs, nonNegative(*s.ActiveDeadlineSeconds, spec.Child("activeDeadlineSeconds"))...)
	}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"backoffLimit", s.BackoffLimit}, {"ttlSecondsAfterFinished", s.TTLSecondsAfterFinished}, {"backoffLimitPerIndex", s.BackoffLimitPerIndex}} {
		if f.v != nil {
			errs = append(errs, nonNegative(int64(*f.v), spec.Child(f.name))...)
		}
	}
	if s.MaxFailedIndexes != nil {
		errs = append(errs, nonNegative(int64(*s.MaxFailedIndexes), spec.Child("maxFailedIndexes"))...)
		if s.BackoffLimitPerIndex == nil {
			errs = append(errs, api.Required(spec.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
	}
	if s.ManagedBy != nil {
		p := spec.Child("managedBy")
		errs = append(errs, validateDomainPrefixedPath(*s.ManagedBy, p)...)
		if len(*s.ManagedBy) > maxJobManagedByLength {
			errs = append(errs, api.TooLong(p, "", maxJobManagedByLength))
		}
	}
	errs = append(errs, validateJobCompletionMode(s, spec)...)
	if s.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(s, spec.Child("podFailurePolicy"))...)
	}
	if s.SuccessPolicy != nil {
		p := spec.Child("successPolicy")
		if !isIndexedJob(s) {
			errs = append(errs, api.Invalid(p, jsonValue{internalSuccessPolicy(s.SuccessPolicy)}, "requires indexed completion mode"))
		} else {
			errs = append(errs, validateSuccessPolicy(s, p)...)
		}
	}
	if r := s.PodReplacementPolicy; r != nil {
		p := spec.Child("podReplacementPolicy")
		if s.PodFailurePolicy != nil {
			if *r != api.FailedPodReplacement {
				errs = append(errs, api.NotSupported(p, *r, []string{api.FailedPodReplacement}))
			}
		} else if *r != api.FailedPodReplacement && *r != api.TerminatingOrFailed {
			errs = append(errs, api.NotSupported(p, *r, podReplacementPolicies))
		}
	}
	errs = append(errs, o.jobPodTemplateAt(s, spec.Child("template"))...)
	if inTemplate {
		return errs
	}
	if s.Selector == nil {
		errs = append(errs, api.Required(spec.Child("selector"), ""))
	} else {
		errs = append(errs, validateLabelSelectorValues(s.Selector, spec.Child("selector"), jo.allowInvalidSelectorValues)...)
	}
	return append(errs, jobSelectorMatch(s)...)
}

// validateJobCompletionMode is the completionMode part of upstream's
// validateJobSpec: the mode itself, the Indexed limits, and the
// per-index back-off fields only for Indexed.
func validateJobCompletionMode(s *api.JobSpec, spec api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if m := s.CompletionMode; m != nil {
		if *m != api.NonIndexedCompletion && *m != api.IndexedCompletion {
			errs = append(errs, api.NotSupported(spec.Child("completionMode"), *m, jobCompletionModes))
		}
		if *m == api.IndexedCompletion {
			errs = append(errs, validateIndexedJobLimits(s, spec)...)
		}
	}
	if s.CompletionMode == nil || *s.CompletionMode == api.NonIndexedCompletion {
		if s.BackoffLimitPerIndex != nil {
			errs = append(errs, api.Invalid(spec.Child("backoffLimitPerIndex"), int64(*s.BackoffLimitPerIndex), "requires indexed completion mode"))
		}
		if s.MaxFailedIndexes != nil {
			errs = append(errs, api.Invalid(spec.Child("maxFailedIndexes"), int64(*s.MaxFailedIndexes), "requires indexed completion mode"))
		}
	}
	return errs
}

// validateIndexedJobLimits are the bounds an Indexed Job's completions,
// parallelism and maxFailedIndexes keep.
func validateIndexedJobLimits(s *api.JobSpec, spec api.Path) api.FieldErrors {
	var errs api.FieldErrors
	par, mfi := spec.Child("parallelism"), spec.Child("maxFailedIndexes")
	if s.Completions == nil {
		errs = append(errs, api.Required(spec.Child("completions"), "when completion mode is "+api.IndexedCompletion))
	}
	if s.Parallelism != nil && *s.Parallelism > maxIndexedJobParallelism {
		errs = append(errs, api.Invalid(par, int64(*s.Parallelism), fmt.Sprintf("must be less than or equal to %d when completion mode is %s", maxIndexedJobParallelism, api.IndexedCompletion)))
	}
	if s.Completions != nil && s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > *s.Completions {
		errs = append(errs, api.Invalid(mfi, int64(*s.MaxFailedIndexes), "must be less than or equal to completions"))
	}
	if s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > maxIndexedJobFailedIndexes {
		errs = append(errs, api.Invalid(mfi, int64(*s.MaxFailedIndexes), fmt.Sprintf("must be less than or equal to %d", maxIndexedJobFailedIndexes)))
	}
	if s.Completions != nil && *s.Completions > jobCompletionsSoftLimit && s.BackoffLimitPerIndex != nil {
		high := fmt.Sprintf("when completions are above %d and used with backoff limit per index", jobCompletionsSoftLimit)
		if s.MaxFailedIndexes == nil {
			errs = append(errs, api.Required(mfi, fmt.Sprintf("must be specified when completions is above %d", jobCompletionsSoftLimit)))
		}
		if s.Parallelism != nil && *s.Parallelism > jobParallelismHighCompletions {
			errs = append(errs, api.Invalid(par, int64(*s.Parallelism), fmt.Sprintf("must be less than or equal to %d %s", jobParallelismHighCompletions, high)))
		}
		if s.MaxFailedIndexes != nil && *s.MaxFailedIndexes > jobFailedIndexesHighCompletions {
			errs = append(errs, api.Invalid(mfi, int64(*s.MaxFailedIndexes), fmt.Sprintf("must be less than or equal to %d %s", jobFailedIndexesHighCompletions, high)))
		}
	}
	return errs
}

// jobPodTemplate is the pod-template part of a Job's spec validation:
// the template itself and its restartPolicy (OnFailure or Never; Never
// with a podFailurePolicy).
func (o Options) jobPodTemplate(s *api.JobSpec) api.FieldErrors {
	return o.jobPodTemplateAt(s, api.NewPath("spec").Child("template"))
}

// jobPodTemplateAt is jobPodTemplate for the template at tmpl.
func (o Options) jobPodTemplateAt(s *api.JobSpec, tmpl api.Path) api.FieldErrors {
	t := &s.Template
	errs := o.ValidatePodTemplateSpec(t, tmpl)
	restart := tmpl.Child("spec").Child("restartPolicy")
	switch rp := t.Spec.RestartPolicy; {
	case rp == api.RestartPolicyAlways || rp == "":
		errs = append(errs, api.Required(restart, fmt.Sprintf("valid values: %q, %q", api.RestartPolicyOnFailure, api.RestartPolicyNever)))
	case rp != api.RestartPolicyOnFailure && rp != api.RestartPolicyNever:
		errs = append(errs, api.NotSupported(restart, string(rp), jobRestartPolicies))
	case s.PodFailurePolicy != nil && rp != api.RestartPolicyNever:
		errs = append(errs, api.Invalid(restart, string(rp), fmt.Sprintf("only %q is supported when podFailurePolicy is specified", api.RestartPolicyNever)))
	}
	return errs
}

// jobSelectorMatch is the rule that a Job's selector, generated or
// manual, selects the pods its template makes (a nil selector selects
// nothing; one that does not convert is left to the selector's own
// errors).
func jobSelectorMatch(s *api.JobSpec) api.FieldErrors {
	if sel, err := api.LabelSelectorAsSelector(s.Selector); err == nil && !sel.Matches(api.Set(s.Template.Labels)) {
		return api.FieldErrors{selectorMismatch(api.NewPath("spec").Child("template"), s.Template.Labels)}
	}
	return nil
}

// httpPathChars is apimachinery's HTTP path pattern, which the part of a
// domain-prefixed path after the first "/" must match.
var httpPathChars = regexp.MustCompile(`^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$`)

// validateDomainPrefixedPath is apimachinery's IsDomainPrefixedPath: a
// DNS-subdomain host, "/", and a non-empty HTTP path.
func validateDomainPrefixedPath(v string, p api.Path) api.FieldErrors {
	if v == "" {
		return api.FieldErrors{api.Required(p, "")}
	}
	host, path, ok := strings.Cut(v, "/")
	if !ok || host == "" || path == "" {
		return api.FieldErrors{api.Invalid(p, v, `must be a domain-prefixed path (such as "acme.io/foo")`)}
	}
	var errs api.FieldErrors
	for _, msg := range api.IsDNS1123Subdomain(host) {
		errs = append(errs, api.Invalid(p, host, msg))
	}
	if !httpPathChars.MatchString(path) {
		errs = append(errs, api.Invalid(p, path, "Invalid path (regex used for validation is '"+`[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`+"')"))
	}
	return errs
}

// validatePodFailurePolicy is upstream's validatePodFailurePolicy.
func validatePodFailurePolicy(s *api.JobSpec, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	rulesPath := p.Child("rules")
	rules := s.PodFailurePolicy.Rules
	if len(rules) > maxPodFailurePolicyRules {
		errs = append(errs, api.TooMany(rulesPath, len(rules), maxPodFailurePolicyRules))
	}
	names := map[string]bool{}
	for _, c := range s.Template.Spec.Containers {
		names[c.Name] = true
	}
	for _, c := range s.Template.Spec.InitContainers {
		names[c.Name] = true
	}
	for i := range rules {
		errs = append(errs, validatePodFailurePolicyRule(s, &rules[i], rulesPath.Index(i), names)...)
	}
	return errs
}

// validatePodFailurePolicyRule checks one podFailurePolicy rule.
func validatePodFailurePolicyRule(s *api.JobSpec, r *api.PodFailurePolicyRule, p api.Path, names map[string]bool) api.FieldErrors {
	var errs api.FieldErrors
	action := p.Child("action")
	switch {
	case r.Action == "":
		errs = append(errs, api.Required(action, fmt.Sprintf("valid values: %q", podFailurePolicyActions)))
	case r.Action == "FailIndex":
		if s.BackoffLimitPerIndex == nil {
			errs = append(errs, api.Invalid(action, r.Action, "requires the backoffLimitPerIndex to be set"))
		}
	case !contains(podFailurePolicyActions, r.Action):
		errs = append(errs, api.NotSupported(action, r.Action, podFailurePolicyActions))
	}
	if r.OnExitCodes != nil {
		errs = append(errs, validateOnExitCodes(r.OnExitCodes, p.Child("onExitCodes"), names)...)
	}
	if len(r.OnPodConditions) > 0 {
		errs = append(errs, validateOnPodConditions(r.OnPodConditions, p.Child("onPodConditions"))...)
	}
	if r.OnExitCodes != nil && len(r.OnPodConditions) > 0 {
		errs = append(errs, api.Invalid(p, nil, "specifying both OnExitCodes and OnPodConditions is not supported"))
	}
	if r.OnExitCodes == nil && len(r.OnPodConditions) == 0 {
		errs = append(errs, api.Invalid(p, nil, "specifying one of OnExitCodes and OnPodConditions is required"))
	}
	return errs
}

// validateOnPodConditions checks a rule's onPodConditions patterns.
func validateOnPodConditions(pats []api.PodFailurePolicyOnPodConditionsPattern, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if len(pats) > maxPodFailurePolicyPodConditions {
		errs = append(errs, api.TooMany(p, len(pats), maxPodFailurePolicyPodConditions))
	}
	for j, pat := range pats {
		pp := p.Index(j)
		for _, msg := range api.IsQualifiedName(string(pat.Type)) {
			errs = append(errs, api.Invalid(pp.Child("type"), string(pat.Type), msg))
		}
		status := pp.Child("status")
		if pat.Status == "" {
			errs = append(errs, api.Required(status, fmt.Sprintf("valid values: %q", podConditionStatuses)))
		} else if !contains(podConditionStatuses, string(pat.Status)) {
			errs = append(errs, api.NotSupported(status, string(pat.Status), podConditionStatuses))
		}
	}
	return errs
}

// validateOnExitCodes checks a rule's onExitCodes requirement.
func validateOnExitCodes(r *api.PodFailurePolicyOnExitCodesRequirement, p api.Path, names map[string]bool) api.FieldErrors {
	var errs api.FieldErrors
	op := p.Child("operator")
	if r.Operator == "" {
		errs = append(errs, api.Required(op, fmt.Sprintf("valid values: %q", exitCodesOperators)))
	} else if !contains(exitCodesOperators, r.Operator) {
		errs = append(errs, api.NotSupported(op, r.Operator, exitCodesOperators))
	}
	if r.ContainerName != nil && !names[*r.ContainerName] {
		errs = append(errs, api.Invalid(p.Child("containerName"), *r.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	values := p.Child("values")
	if len(r.Values) == 0 {
		errs = append(errs, api.Invalid(values, jsonValue{r.Values}, "at least one value is required"))
	} else if len(r.Values) > maxPodFailurePolicyExitCodes {
		errs = append(errs, api.TooMany(values, len(r.Values), maxPodFailurePolicyExitCodes))
	}
	seen := map[int32]bool{}
	ordered := true
	for j, v := range r.Values {
		vp := values.Index(j)
		if r.Operator == "In" && v == 0 {
			errs = append(errs, api.Invalid(vp, int64(v), "must not be 0 for the In operator"))
		}
		if seen[v] {
			errs = append(errs, api.Duplicate(vp, int64(v)))
		}
		seen[v] = true
		if j > 0 && r.Values[j-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, api.Invalid(values, jsonValue{r.Values}, "must be ordered"))
	}
	return errs
}

// validateSuccessPolicy is upstream's validateSuccessPolicy for an
// Indexed Job. A nil completions (an error of its own) counts as 0
// here; upstream's API server fails the request outright.
func validateSuccessPolicy(s *api.JobSpec, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	rulesPath := p.Child("rules")
	rules := s.SuccessPolicy.Rules
	if len(rules) == 0 {
		errs = append(errs, api.Required(rulesPath, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(rules) > maxSuccessPolicyRules {
		errs = append(errs, api.TooMany(rulesPath, len(rules), maxSuccessPolicyRules))
	}
	completions := deref32(s.Completions)
	for i, r := range rules {
		rp := rulesPath.Index(i)
		if r.SucceededCount == nil && r.SucceededIndexes == nil {
			errs = append(errs, api.Required(rp, "at least one of succeededCount or succeededIndexes must be specified"))
		}
		var total int32
		if r.SucceededIndexes != nil {
			ip := rp.Child("succeededIndexes")
			if len(*r.SucceededIndexes) > maxSucceededIndexesLength {
				errs = append(errs, api.TooLong(ip, "", maxSucceededIndexesLength))
			}
			n, err := countIndexIntervals(*r.SucceededIndexes, completions)
			if err != nil {
				errs = append(errs, api.Invalid(ip, *r.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
			}
			total = n
		}
		if r.SucceededCount != nil {
			cp := rp.Child("succeededCount")
			errs = append(errs, nonNegative(int64(*r.SucceededCount), cp)...)
			if *r.SucceededCount > completions {
				errs = append(errs, api.Invalid(cp, int64(*r.SucceededCount), fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", completions)))
			}
			if r.SucceededIndexes != nil && *r.SucceededCount > total {
				errs = append(errs, api.Invalid(cp, int64(*r.SucceededCount), fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
			}
		}
	}
	return errs
}

// countIndexIntervals parses a list of index intervals ("1,3-5,7") below
// completions, strictly increasing, as the Job's succeededIndexes and
// completedIndexes are written, and returns how many indexes it names
// (upstream's validateIndexesFormat, with its error texts). An empty list
// names none.
func countIndexIntervals(s string, completions int32) (int32, error) {
	if s == "" {
		return 0, nil
	}
	var total int32
	last := int32(-1)
	first := true
	for _, part := range strings.Split(s, ",") {
		x, y, err := parseIndexInterval(part, completions)
		if err != nil {
			return 0, err
		}
		if !first && last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", last, x)
		}
		first = false
		total += y - x + 1
		last = y
	}
	return total, nil
}

// parseIndexInterval parses "x" or "x-y" (x < y) below completions.
func parseIndexInterval(part string, completions int32) (int32, int32, error) {
	limits := strings.Split(part, "-")
	if len(limits) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", part)
	}
	bound := func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("cannot convert string to integer for index: %q", s)
		}
		if v >= int(completions) {
			return 0, fmt.Errorf("too large index: %q", s)
		}
		return v, nil
	}
	x, err := bound(limits[0])
	if err != nil {
		return 0, 0, err
	}
	if len(limits) == 1 {
		return int32(x), int32(x), nil
	}
	y, err := bound(limits[1])
	if err != nil {
		return 0, 0, err
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return int32(x), int32(y), nil
}

// validateJobSpecUpdate is upstream's ValidateJobSpecUpdate at spec.
func (o Options) validateJobSpecUpdate(s, old *api.JobSpec, jo jobOptions) api.FieldErrors {
	spec := api.NewPath("spec")
	errs := o.validateJobSpec(s, jo)
	errs = append(errs, validateJobCompletionsUpdate(s, old)...)
	if !semanticEqual(s.Selector, old.Selector) {
		errs = append(errs, api.Invalid(spec.Child("selector"), jsonValue{s.Selector}, immutableMessage))
	}
	errs = append(errs, validateJobTemplateUpdate(s, old, jo)...)
	if !semanticEqual(s.CompletionMode, old.CompletionMode) {
		errs = append(errs, api.Invalid(spec.Child("completionMode"), s.CompletionMode, immutableMessage))
	}
	if !semanticEqual(s.PodFailurePolicy, old.PodFailurePolicy) {
		errs = append(errs, api.Invalid(spec.Child("podFailurePolicy"), jsonValue{internalPodFailurePolicy(s.PodFailurePolicy)}, immutableMessage))
	}
	if !semanticEqual(s.BackoffLimitPerIndex, old.BackoffLimitPerIndex) {
		errs = append(errs, api.Invalid(spec.Child("backoffLimitPerIndex"), s.BackoffLimitPerIndex, immutableMessage))
	}
	if !semanticEqual(s.ManagedBy, old.ManagedBy) {
		errs = append(errs, api.Invalid(spec.Child("managedBy"), s.ManagedBy, immutableMessage))
	}
	if !semanticEqual(s.SuccessPolicy, old.SuccessPolicy) {
		errs = append(errs, api.Invalid(spec.Child("successPolicy"), jsonValue{internalSuccessPolicy(s.SuccessPolicy)}, immutableMessage))
	}
	return errs
}

// immutableMessage is apimachinery's FieldImmutableErrorMsg.
const immutableMessage = "field is immutable"

// validateJobCompletionsUpdate: completions never change, except an
// Indexed Job's, and then only to its (new) parallelism.
func validateJobCompletionsUpdate(s, old *api.JobSpec) api.FieldErrors {
	p := api.NewPath("spec").Child("completions")
	if semanticEqual(s.Completions, old.Completions) {
		return nil
	}
	if !isIndexedJob(s) {
		return api.FieldErrors{api.Invalid(p, s.Completions, immutableMessage)}
	}
	if s.Completions == nil {
		return nil
	}
	if s.Parallelism == nil || *s.Completions != *s.Parallelism {
		return api.FieldErrors{api.Invalid(p, s.Completions, "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// validateJobTemplateUpdate is upstream's validatePodTemplateUpdate: a
// running Job's template is immutable; a suspended one that may change
// (jobOptions.mutableTemplate) may change its scheduling directives,
// labels, annotations and container resources only.
func validateJobTemplateUpdate(s, old *api.JobSpec, jo jobOptions) api.FieldErrors {
	p := api.NewPath("spec").Child("template")
	t := &s.Template
	ot := old.Template
	if jo.mutableTemplate {
		switch {
		case t.Spec.Affinity == nil && ot.Spec.Affinity != nil:
			a := *ot.Spec.Affinity
			a.NodeAffinity = nil
			ot.Spec.Affinity = &a
			if a.PodAffinity == nil && a.PodAntiAffinity == nil {
				ot.Spec.Affinity = nil
			}
		case t.Spec.Affinity != nil && ot.Spec.Affinity == nil:
			ot.Spec.Affinity = &api.Affinity{NodeAffinity: t.Spec.Affinity.NodeAffinity}
		case t.Spec.Affinity != nil && ot.Spec.Affinity != nil:
			a := *ot.Spec.Affinity
			a.NodeAffinity = t.Spec.Affinity.NodeAffinity
			ot.Spec.Affinity = &a
		}
		ot.Spec.NodeSelector = t.Spec.NodeSelector
		ot.Spec.Tolerations = t.Spec.Tolerations
		ot.Annotations = t.Annotations
		ot.Labels = t.Labels
		ot.Spec.SchedulingGates = t.Spec.SchedulingGates
	}
	suspended := old.Suspend != nil && *old.Suspend
	if !suspended || !jo.mutableTemplate {
		if !semanticEqual(*t, ot) {
			return api.FieldErrors{api.Invalid(p, jsonValue{t}, immutableMessage)}
		}
		return nil
	}
	os := ot.Spec
	os.Containers = withResourcesOf(os.Containers, t.Spec.Containers)
	os.InitContainers = withResourcesOf(os.InitContainers, t.Spec.InitContainers)
	if !semanticEqual(t.Spec, os) {
		return api.FieldErrors{api.Invalid(p.Child("spec"), jsonValue{t.Spec}, immutableMessage)}
	}
	return nil
}

// withResourcesOf returns a copy of old whose containers take the
// resources of the same-named container at the same place in cur, when
// both lists have the same length.
func withResourcesOf(old, cur []api.Container) []api.Container {
	if len(old) != len(cur) {
		return old
	}
	out := append([]api.Container(nil), old...)
	for i := range out {
		if out[i].Name == cur[i].Name {
			out[i].Resources = cur[i].Resources
		}
	}
	return out
}

// contains reports whether list holds v.
func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// The shapes of a Job's podFailurePolicy and successPolicy as the API
// server's internal batch types render in an error's bad value: Go field
// names, every field present.
type (
	internalPFP struct {
		Rules []internalPFPRule
	}
	internalPFPRule struct {
		Action          string
		OnExitCodes     *internalExitCodes
		OnPodConditions []internalPodConditionPattern
	}
	internalExitCodes struct {
		ContainerName *string
		Operator      string
		Values        []int32
	}
	internalPodConditionPattern struct {
		Type   string
		Status string
	}
	internalSP struct {
		Rules []internalSPRule
	}
	internalSPRule struct {
		SucceededIndexes *string
		SucceededCount   *int32
	}
)

// internalPodFailurePolicy is p in its internal shape (nil stays nil).
func internalPodFailurePolicy(p *api.PodFailurePolicy) *internalPFP {
	if p == nil {
		return nil
	}
	out := &internalPFP{Rules: nilOrMake[internalPFPRule](p.Rules == nil, len(p.Rules))}
	for _, r := range p.Rules {
		ir := internalPFPRule{Action: r.Action}
		if e := r.OnExitCodes; e != nil {
			ir.OnExitCodes = &internalExitCodes{ContainerName: e.ContainerName, Operator: e.Operator, Values: e.Values}
		}
		if r.OnPodConditions != nil {
			ir.OnPodConditions = make([]internalPodConditionPattern, 0, len(r.OnPodConditions))
			for _, c := range r.OnPodConditions {
				ir.OnPodConditions = append(ir.OnPodConditions, internalPodConditionPattern{Type: string(c.Type), Status: string(c.Status)})
			}
		}
		out.Rules = append(out.Rules, ir)
	}
	return out
}

// internalSuccessPolicy is p in its internal shape (nil stays nil).
func internalSuccessPolicy(p *api.SuccessPolicy) *internalSP {
	if p == nil {
		return nil
	}
	out := &internalSP{Rules: nilOrMake[internalSPRule](p.Rules == nil, len(p.Rules))}
	for _, r := range p.Rules {
		out.Rules = append(out.Rules, internalSPRule(r))
	}
	return out
}

// nilOrMake is a nil slice when isNil, else an empty one of capacity n,
// so that the JSON rendering keeps null and [] apart.
func nilOrMake[T any](isNil bool, n int) []T {
	if isNil {
		return nil
	}
	return make([]T, 0, n)
}
