package disruption

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// MaxDisruptedPods is the largest status.disruptedPods map the Eviction API
// accepts: beyond it evictions are refused until the disruption controller
// catches up (pkg/registry/core/pod/storage MaxDisruptedPodSize).
const MaxDisruptedPods = 2000

// EvictionConflictRetry is how long the API server's eviction handler
// waits before it tries a request again after its write of the budget's
// status lost a race: the budget changed (another eviction charged it)
// between the handler's read and its write, a resourceVersion conflict
// (EvictionsRetry in pkg/registry/core/pod/storage: 500 ms, up to 20
// tries; its 10 % jitter is not modelled). The retry reads the budget
// again, so a request that found room in the status another request
// took is refused about half a second after it was made.
const EvictionConflictRetry = 500 * time.Millisecond

// StatusCause is one entry of a refusal's details.causes (metav1.StatusCause).
type StatusCause struct {
	Type    string
	Message string
}

// String renders the cause as "<type>: <message>".
func (c StatusCause) String() string { return c.Type + ": " + c.Message }

// Rule names the rule of the Eviction API that decided a request.
type Rule string

// The rules, in the order the API server applies them.
const (
	RuleBadRequest             Rule = "BadRequest"             // the request itself is malformed (400)
	RuleInvalidOptions         Rule = "InvalidOptions"         // deleteOptions are not allowed for evictions (422)
	RuleDryRunMismatch         Rule = "DryRunMismatch"         // request and body disagree on dryRun (500)
	RulePodNotFound            Rule = "PodNotFound"            // no such pod (404)
	RuleBudgetIgnored          Rule = "BudgetIgnored"          // Pending, Succeeded, Failed or terminating pod: deleted without a budget check
	RuleNoBudget               Rule = "NoBudget"               // no budget selects the pod
	RuleMultipleBudgets        Rule = "MultipleBudgets"        // more than one budget selects the pod (500)
	RuleUnhealthyAlwaysAllow   Rule = "UnhealthyAlwaysAllow"   // not-Ready pod under unhealthyPodEvictionPolicy AlwaysAllow
	RuleUnhealthyHealthyBudget Rule = "UnhealthyHealthyBudget" // not-Ready pod while the budget is met (IfHealthyBudget)
	RuleBudgetNotObserved      Rule = "BudgetNotObserved"      // observedGeneration behind generation (429)
	RuleBudgetNegative         Rule = "BudgetNegative"         // disruptionsAllowed < 0 (403)
	RuleTooManyDisrupted       Rule = "TooManyDisrupted"       // disruptedPods larger than MaxDisruptedPods (403)
	RuleBudgetExhausted        Rule = "BudgetExhausted"        // disruptionsAllowed == 0 (429)
	RuleBudgetAllows           Rule = "BudgetAllows"           // the budget had room and was charged
)

// HTTP status reasons (metav1.StatusReason) of the refusals.
const (
	StatusTooManyRequests = "TooManyRequests"
	StatusForbidden       = "Forbidden"
	StatusConflict        = "Conflict"
	StatusNotFound        = "NotFound"
	StatusBadRequest      = "BadRequest"
	StatusInvalid         = "Invalid"
	StatusInternalError   = "InternalError"
)

// EvictOptions are the request-level inputs of an eviction.
type EvictOptions struct {
	// DryRun is the dryRun query parameter of the create request
	// (["All"] or empty). It is merged with the body's
	// deleteOptions.dryRun; the two must agree when both are set.
	DryRun []string
}

// EvictionDecision is what the pods/eviction subresource answers for one
// request and what it does to the pod and the budget.
type EvictionDecision struct {
	// Allowed is true when the eviction is accepted (HTTP 201): the pod
	// is deleted, or would be in a dry run.
	Allowed bool
	// Code is the HTTP status code: 201, 429, 403, 500, 409, 404, 422, 400.
	Code int
	// Reason is the Status reason of a refusal returned as an error
	// (TooManyRequests, Forbidden, ...); empty for 201 and for the 500
	// failure status of a pod with several budgets.
	Reason string
	// Message and Causes are the refusal's text, worded as upstream does.
	Message string
	Causes  []StatusCause
	// Rule is the rule that decided.
	Rule Rule

	// DryRun is set when the request was a dry run: nothing is written.
	DryRun bool
	// Deleted is set when the pod store receives the delete (also in a
	// dry run); DeleteOptions are the options it uses, including the
	// resourceVersion precondition the handler adds itself.
	Deleted       bool
	DeleteOptions *api.DeleteOptions
	// DisruptionTarget is the condition written to the pod just before the
	// delete (nil in a dry run or when the handler never got to write it;
	// set even when the delete then conflicted), and PodResourceVersion the
	// pod's resourceVersion after that update.
	DisruptionTarget   *api.PodCondition
	PodResourceVersion string

	// Budget names the one budget that guards the pod, if any.
	Budget string
	// BudgetUpdated is set when that budget's status was written (one
	// disruption used, the pod recorded in disruptedPods); BudgetStatus is
	// the status written. Dry runs and unhealthy-pod bypasses write none.
	BudgetUpdated bool
	BudgetStatus  *api.PodDisruptionBudgetStatus
}

// String summarises the decision in one line.
func (d EvictionDecision) String() string {
	s := fmt.Sprintf("%d %s", d.Code, d.Rule)
	if d.Message != "" {
		s += ": " + d.Message
	}
	for _, c := range d.Causes {
		s += " (" + c.String() + ")"
	}
	return s
}

// Evict decides an Eviction request for pod as the API server's pods/eviction
// subresource does (pkg/registry/core/pod/storage EvictionREST.Create), given
// every PodDisruptionBudget in the cluster with its current status. pod is
// the pod as stored, nil when there is none; eviction.Name is the pod name
// of the request URL. now stamps the disruptedPods entry and the pod's
// DisruptionTarget condition.
//
// Pods that are Pending, Succeeded, Failed or already terminating are
// deleted without consulting any budget (Unknown and Running pods are
// not). Otherwise the budgets of the pod's namespace whose selector
// matches it are found (an empty selector matches every pod): none lets the delete go ahead, several is
// a 500 failure. A not-Ready pod passes without using the budget when the
// budget's unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget,
// the default) when currentHealthy >= desiredHealthy > 0; the delete is then
// made conditional on the pod's current resourceVersion. Otherwise the
// budget must have observed its generation (else 429), have a non-negative
// disruptionsAllowed (else 403), a disruptedPods map of at most
// MaxDisruptedPods (else 403) and room for one more disruption (else 429);
// it is charged one disruption and records the pod in disruptedPods. The
// delete itself fails with 409 when a precondition does not hold.
//
// A nil eviction is a request without a body: 400 Bad Request. Nil budgets
// in pdbs are skipped.
func Evict(pod *api.Pod, eviction *api.Eviction, pdbs []*api.PodDisruptionBudget, opts EvictOptions, now time.Time) EvictionDecision {
	if eviction == nil {
		return refuse(RuleBadRequest, 400, StatusBadRequest, "eviction: nil Eviction object")
	}
	name := eviction.Name
	// The option is refused before the dry-run settings are compared.
	if o := eviction.DeleteOptions; o != nil && o.IgnoreStoreReadErrorWithClusterBreakingPotential != nil && *o.IgnoreStoreReadErrorWithClusterBreakingPotential {
		const detail = "can not be set for pod eviction, try after removing the option"
		d := refuse(RuleInvalidOptions, 422, StatusInvalid, fmt.Sprintf(
			"Eviction.policy %q is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: %s", name, detail))
		d.Causes = []StatusCause{{Type: "FieldValueInvalid", Message: "Invalid value: true: " + detail}}
		return d
	}
	delOpts, err := mergeDryRun(eviction.DeleteOptions, opts.DryRun)
	if err != nil {
		return refuse(RuleDryRunMismatch, 500, StatusInternalError, err.Error())
	}
	if pod == nil || pod.Name != name || (eviction.Namespace != "" && eviction.Namespace != pod.Namespace) {
		return refuse(RulePodNotFound, 404, StatusNotFound, fmt.Sprintf("pods %q not found", name))
	}
	dryRun := len(delOpts.DryRun) > 0
	userSetRV := delOpts.Preconditions != nil && delOpts.Preconditions.ResourceVersion != nil

	if budgetIgnored(pod) {
		o := delOpts
		// A Pending pod could become Ready meanwhile: pin its version
		// (not once it is being deleted: then it cannot turn Ready).
		if pod.Status.Phase == api.PodPending && pod.DeletionTimestamp == nil && !userSetRV {
			o = withResourceVersion(o, pod.ResourceVersion)
		}
		d := EvictionDecision{Rule: RuleBudgetIgnored}
		deletePod(&d, pod, o, dryRun, false, "", now)
		return d
	}

	matched := budgetsFor(pod, pdbs)
	switch len(matched) {
	case 0:
		d := EvictionDecision{Rule: RuleNoBudget}
		deletePod(&d, pod, delOpts, dryRun, false, "", now)
		return d
	case 1:
	default:
		return EvictionDecision{
			Rule:    RuleMultipleBudgets,
			Code:    500,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
		}
	}
	pdb := matched[0]
	d := EvictionDecision{Budget: pdb.Name}

	if !api.IsPodReady(pod) {
		policy := api.IfHealthyBudget
		if pdb.Spec.UnhealthyPodEvictionPolicy != nil {
			policy = *pdb.Spec.UnhealthyPodEvictionPolicy
		}
		bypass := Rule("")
		switch {
		case policy == api.AlwaysAllow:
			bypass = RuleUnhealthyAlwaysAllow
		case pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0:
			bypass = RuleUnhealthyHealthyBudget
		}
		if bypass != "" {
			d.Rule = bypass
			deletePod(&d, pod, withResourceVersion(delOpts, pod.ResourceVersion), dryRun, !userSetRV, pdb.Name, now)
			return d
		}
	}

	if refused, ok := checkBudget(pdb); !ok {
		refused.Budget = pdb.Name
		return refused
	}
	st := pdb.Status
	st.Conditions = slices.Clone(st.Conditions)
	st.DisruptionsAllowed--
	if st.DisruptionsAllowed == 0 {
		st.Conditions = setCondition(st.Conditions, DisruptionAllowed(&st), now)
	}
	d.Rule = RuleBudgetAllows
	if !dryRun {
		st.DisruptedPods = maps.Clone(st.DisruptedPods)
		if st.DisruptedPods == nil {
			st.DisruptedPods = map[string]api.Time{}
		}
		st.DisruptedPods[pod.Name] = api.NewTime(now)
		d.BudgetUpdated = true
		d.BudgetStatus = &st
	}
	deletePod(&d, pod, delOpts, dryRun, false, "", now)
	return d
}

func refuse(rule Rule, code int, reason, msg string) EvictionDecision {
	return EvictionDecision{Rule: rule, Code: code, Reason: reason, Message: msg}
}

const budgetViolation = "Cannot evict pod as it would violate the pod's disruption budget."

// checkBudget is the Eviction API's checkAndDecrement, without the
// decrement: it reports the refusal when the budget has no room.
func checkBudget(pdb *api.PodDisruptionBudget) (EvictionDecision, bool) {
	st := &pdb.Status
	switch {
	case st.ObservedGeneration < pdb.Generation:
		return notYetObserved(pdb.Name, RuleBudgetNotObserved), false
	case st.DisruptionsAllowed < 0:
		return forbidden(pdb.Name, RuleBudgetNegative, "pdb disruptions allowed is negative"), false
	case len(st.DisruptedPods) > MaxDisruptedPods:
		return forbidden(pdb.Name, RuleTooManyDisrupted, "DisruptedPods map too big - too many evictions not confirmed by PDB controller"), false
	case st.DisruptionsAllowed == 0:
		d := refuse(RuleBudgetExhausted, 429, StatusTooManyRequests, budgetViolation)
		msg := fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, st.DesiredHealthy, st.CurrentHealthy)
		if c := api.FindStatusCondition(st.Conditions, ConditionDisruptionAllowed); c != nil && c.Reason == ReasonSyncFailed {
			msg = fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", pdb.Name, c.Message)
		}
		d.Causes = []StatusCause{{Type: "DisruptionBudget", Message: msg}}
		return d, false
	}
	return EvictionDecision{}, true
}

func notYetObserved(name string, rule Rule) EvictionDecision {
	d := refuse(rule, 429, StatusTooManyRequests, budgetViolation)
	d.Causes = []StatusCause{{Type: "DisruptionBudget", Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", name)}}
	return d
}

func forbidden(name string, rule Rule, why string) EvictionDecision {
	return refuse(rule, 403, StatusForbidden, fmt.Sprintf("poddisruptionbudget.policy %q is forbidden: %s", name, why))
}

// budgetIgnored is the Eviction API's canIgnorePDB: such pods are already
// disrupted or not yet serving.
func budgetIgnored(p *api.Pod) bool {
	switch p.Status.Phase {
	case api.PodPending, api.PodSucceeded, api.PodFailed:
		return true
	}
	return p.DeletionTimestamp != nil
}

// budgetsFor lists the budgets of the pod's namespace that select it. As in
// policy/v1 generally, an empty selector selects every pod and an absent
// one none; an invalid selector selects nothing.
func budgetsFor(pod *api.Pod, pdbs []*api.PodDisruptionBudget) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, pdb := range pdbs {
		if pdb == nil || pdb.Namespace != pod.Namespace {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(api.Set(pod.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out
}

// mergeDryRun is the Eviction API's propagateDryRun: the request's dryRun
// fills in the body's when that is empty; both set must be equal.
func mergeDryRun(o *api.DeleteOptions, request []string) (*api.DeleteOptions, error) {
	if o == nil {
		return &api.DeleteOptions{DryRun: slices.Clone(request)}, nil
	}
	c := cloneDeleteOptions(o)
	if len(c.DryRun) == 0 {
		c.DryRun = slices.Clone(request)
		return c, nil
	}
	if len(request) > 0 && !slices.Equal(request, c.DryRun) {
		return nil, fmt.Errorf("Non-matching dry-run options in request and content: %v and %v", request, c.DryRun)
	}
	return c, nil
}

func cloneDeleteOptions(o *api.DeleteOptions) *api.DeleteOptions {
	c := *o
	c.DryRun = slices.Clone(o.DryRun)
	if o.Preconditions != nil {
		p := *o.Preconditions
		c.Preconditions = &p
	}
	return &c
}

func withResourceVersion(o *api.DeleteOptions, rv string) *api.DeleteOptions {
	c := cloneDeleteOptions(o)
	if c.Preconditions == nil {
		c.Preconditions = &api.Preconditions{}
	}
	c.Preconditions.ResourceVersion = &rv
	return c
}

// deletePod is the Eviction API's final step. Outside dry run the handler
// first writes the DisruptionTarget condition, checking the UID and
// resourceVersion preconditions against the stored pod as it reads it (an
// empty precondition value is not checked there); the write moves the pod to
// its next resourceVersion, which a resourceVersion precondition then
// follows. The delete itself checks the preconditions strictly, as the
// generic registry does, so an empty UID precondition still conflicts there,
// after the condition was written. A conflict on a delete the handler pinned
// itself (retryAs429) is reported as 429 so that clients retry.
func deletePod(d *EvictionDecision, pod *api.Pod, o *api.DeleteOptions, dryRun, retryAs429 bool, budget string, now time.Time) {
	d.DryRun = dryRun
	var target *api.PodCondition
	stored := pod.ResourceVersion
	if !dryRun {
		if msg := preconditionConflict(pod.UID, stored, o, true); msg != "" {
			conflict(d, pod.Name, msg, retryAs429, budget, dryRun, nil)
			return
		}
		var st api.PodStatus
		if c := api.FindCondition(pod.Status.Conditions, api.DisruptionTarget); c != nil {
			st.Conditions = []api.PodCondition{*c}
		}
		api.UpdatePodCondition(&st, api.PodCondition{
			Type:    api.DisruptionTarget,
			Status:  api.ConditionTrue,
			Reason:  api.PodReasonEvictionByEvictionAPI,
			Message: MessageEvictionByEvictionAPI,
		}, now)
		target = &st.Conditions[0]
		stored = nextResourceVersion(stored)
		if o.Preconditions != nil && o.Preconditions.ResourceVersion != nil {
			o = withResourceVersion(o, stored)
		}
	}
	if msg := preconditionConflict(pod.UID, stored, o, false); msg != "" {
		conflict(d, pod.Name, msg, retryAs429, budget, dryRun, target)
		d.PodResourceVersion = stored
		return
	}
	d.PodResourceVersion = stored
	d.DisruptionTarget = target
	d.Allowed, d.Code, d.Deleted, d.DeleteOptions = true, 201, true, o
}

// conflict turns d into the refusal for a precondition conflict; target is
// the DisruptionTarget condition already written before the conflict, if any.
func conflict(d *EvictionDecision, name, msg string, retryAs429 bool, budget string, dryRun bool, target *api.PodCondition) {
	if retryAs429 {
		rule := d.Rule
		*d = notYetObserved(budget, rule)
		d.Budget = budget
	} else {
		d.Allowed, d.Code, d.Reason, d.Message = false, 409, StatusConflict,
			fmt.Sprintf("Operation cannot be fulfilled on Pod %q: %s", name, msg)
	}
	d.DryRun = dryRun
	d.DisruptionTarget = target
}

// preconditionConflict checks the UID and resourceVersion preconditions
// against the stored pod's. skipEmpty is the eviction handler's own check
// before its condition write, which ignores empty values; the generic
// registry's delete compares them as given.
func preconditionConflict(uid, rv string, o *api.DeleteOptions, skipEmpty bool) string {
	if o.Preconditions == nil {
		return ""
	}
	if u := o.Preconditions.UID; u != nil && *u != uid && (!skipEmpty || *u != "") {
		return fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *u, uid)
	}
	if v := o.Preconditions.ResourceVersion; v != nil && *v != rv && (!skipEmpty || *v != "") {
		return fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *v, rv)
	}
	return ""
}

// nextResourceVersion is the version a write gives the pod. Real stores
// hand out opaque versions; this one counts, as the conformance oracle's
// in-memory store does. A non-numeric version gets a suffix.
func nextResourceVersion(rv string) string {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return rv + "+1"
	}
	return strconv.FormatUint(n+1, 10)
}
