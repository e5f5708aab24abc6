package namespace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Client is what a namespace controller's pass reads and writes through
// the API server. The caller wires it to its own store; Sync calls it in
// upstream's order.
type Client interface {
	// Pods lists the pods of the namespace.
	Pods(namespace string) []*api.Pod
	// DeletePods deletes every pod of the namespace, each with its own
	// default grace period (a DELETE of the collection, background
	// propagation).
	DeletePods(namespace string) error
	// DeleteContent deletes every other namespaced object of the
	// namespace, in background propagation.
	DeleteContent(namespace string) error
	// Content lists the objects other than pods the namespace still holds.
	Content(namespace string) []Object
}

// Object is one object the namespace still holds, as the controller's
// metadata list reads it: its group, version and resource (the API's
// plural name: "deployments"), and its finalizers.
type Object struct {
	Group, Version, Resource string
	Finalizers               []string
}

// Result is what one pass (Sync) over a namespace leads to.
type Result struct {
	// Status is the namespace's status after the pass, and StatusChanged
	// whether the pass writes it (the status subresource): the phase set
	// to Terminating when it was not, or the deletion conditions changed.
	Status        api.NamespaceStatus
	StatusChanged bool
	// Finalize: every object is gone; FinalizerKubernetes is removed from
	// spec.finalizers (the finalize subresource), and the namespace leaves
	// storage when that was its last finalizer.
	Finalize bool
	// Estimate, when positive, is upstream's ResourcesRemainingError: the
	// seconds the controller expects the objects left to need; it comes
	// back after RequeueAfter.
	Estimate int64
	// Err is a failed pass (objects left with nothing to wait for, or the
	// client's error): retried with the queue's back-off.
	Err error
}

// RequeueAfter is how long after a pass that left objects (Estimate > 0)
// the controller syncs the namespace again: half the estimate plus one
// second.
func (r Result) RequeueAfter() time.Duration {
	if r.Estimate <= 0 {
		return 0
	}
	return time.Duration(r.Estimate/2+1) * time.Second
}

// FinalizerEstimateSeconds is the time the controller grants objects left
// with finalizers (and no other estimate) to go away.
const FinalizerEstimateSeconds = 15

// The deletion conditions a namespace controller writes, in upstream's
// order.
const (
	ConditionDiscoveryFailure  = "NamespaceDeletionDiscoveryFailure"
	ConditionGVParsingFailure  = "NamespaceDeletionGroupVersionParsingFailure"
	ConditionContentFailure    = "NamespaceDeletionContentFailure"
	ConditionContentRemaining  = "NamespaceContentRemaining"
	ConditionFinalizersRemain  = "NamespaceFinalizersRemaining"
	errUnexpectedItemsTemplate = "unexpected items still remain in namespace: %s for gvr: %s/%s, Resource=%s"
)

var conditionTypes = []string{ConditionDiscoveryFailure, ConditionGVParsingFailure, ConditionContentFailure,
	ConditionContentRemaining, ConditionFinalizersRemain}

// okCondition is the False variant of a condition type: its reason and
// message.
var okCondition = map[string][2]string{
	ConditionDiscoveryFailure: {"ResourcesDiscovered", "All resources successfully discovered"},
	ConditionGVParsingFailure: {"ParsedGroupVersions", "All legacy kube types successfully parsed"},
	ConditionContentFailure:   {"ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
	ConditionContentRemaining: {"ContentRemoved", "All content successfully removed"},
	ConditionFinalizersRemain: {"ContentRemoved", "All content successfully removed"},
}

// Sync is one pass of the namespace controller over ns (its namespace
// deleter's Delete) at now: nothing for a namespace not being deleted or
// already finalized; otherwise the pods deleted first and, once none is
// left, the rest of the content, then the finalizer removed. ns is not
// modified. A nil ns or client is an error wrapping api.ErrInvalidInput.
func Sync(ns *api.Namespace, c Client, now time.Time) (Result, error) {
	if ns == nil {
		return Result{}, fmt.Errorf("%w: namespace: nil", errInvalidInput)
	}
	if c == nil {
		return Result{}, fmt.Errorf("%w: client: nil", errInvalidInput)
	}
	res := Result{Status: ns.Status}
	if ns.DeletionTimestamp == nil {
		return res, nil
	}
	if res.Status.Phase != api.NamespaceTerminating {
		res.Status.Phase, res.StatusChanged = api.NamespaceTerminating, true
	}
	if len(ns.Spec.Finalizers) == 0 {
		return res, nil
	}
	deletedAt := ns.DeletionTimestamp.Time

	var errs []error
	remaining := map[[3]string]int{} // group, version, resource -> count
	finalizers := map[string]int{}
	estimate := int64(0)

	// Pods first.
	podEstimate := estimateForPods(c.Pods(ns.Name), deletedAt, now)
	if err := c.DeletePods(ns.Name); err != nil {
		errs = append(errs, err)
	}
	pods := c.Pods(ns.Name)
	if len(pods) > 0 {
		objs := make([]Object, len(pods))
		for i, p := range pods {
			objs[i] = Object{Version: "v1", Resource: "pods", Finalizers: p.Finalizers}
		}
		e, err := tally(ns.Name, objs, podEstimate, remaining, finalizers)
		estimate = max(estimate, e)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(pods) == 0 {
		if err := c.DeleteContent(ns.Name); err != nil {
			errs = append(errs, err)
		}
		// Objects left are tallied per resource, in the order listed.
		byGVR := map[[3]string][]Object{}
		var order [][3]string
		for _, o := range c.Content(ns.Name) {
			k := [3]string{o.Group, o.Version, o.Resource}
			if _, ok := byGVR[k]; !ok {
				order = append(order, k)
			}
			byGVR[k] = append(byGVR[k], o)
		}
		for _, k := range order {
			e, err := tally(ns.Name, byGVR[k], 0, remaining, finalizers)
			estimate = max(estimate, e)
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	res.Status.Conditions = slices.Clone(res.Status.Conditions)
	if updateConditions(&res.Status, newConditions(remaining, finalizers, errs, now), now) {
		res.StatusChanged = true
	}
	switch {
	case len(errs) > 0:
		res.Estimate, res.Err = estimate, errors.Join(errs...)
	case estimate > 0:
		res.Estimate = estimate
	default:
		res.Finalize = true
	}
	return res, nil
}

// estimateForPods is the longest terminationGracePeriodSeconds of the
// pods not yet Succeeded or Failed, or 0 once that long has passed since
// the namespace's deletion.
func estimateForPods(pods []*api.Pod, deletedAt, now time.Time) int64 {
	var est int64
	for _, p := range pods {
		if p == nil || p.Status.Phase.IsTerminal() || p.Spec.TerminationGracePeriodSeconds == nil {
			continue
		}
		est = max(est, *p.Spec.TerminationGracePeriodSeconds)
	}
	if now.Sub(deletedAt) >= time.Duration(est)*time.Second {
		return 0
	}
	return est
}

// tally counts the objects left of one resource: with an estimate they
// are waited for; without one, finalizers give them FinalizerEstimateSeconds;
// with neither, they are an error.
func tally(ns string, objs []Object, estimate int64, remaining map[[3]string]int, finalizers map[string]int) (int64, error) {
	if len(objs) == 0 {
		return estimate, nil
	}
	o := objs[0]
	remaining[[3]string{o.Group, o.Version, o.Resource}] += len(objs)
	fins := 0
	for _, x := range objs {
		for _, f := range x.Finalizers {
			finalizers[f]++
			fins++
		}
	}
	switch {
	case estimate != 0:
		return estimate, nil
	case fins > 0:
		return FinalizerEstimateSeconds, nil
	}
	return 0, fmt.Errorf(errUnexpectedItemsTemplate, ns, o.Group, o.Version, o.Resource)
}

// newConditions are the True conditions a pass found reasons for.
func newConditions(remaining map[[3]string]int, finalizers map[string]int, errs []error, now time.Time) []api.NamespaceCondition {
	t := api.NewTime(now.Truncate(time.Second))
	var out []api.NamespaceCondition
	if len(remaining) > 0 {
		var parts []string
		for k, n := range remaining {
			parts = append(parts, fmt.Sprintf("%s.%s has %d resource instances", k[2], k[0], n))
		}
		slices.Sort(parts)
		out = append(out, api.NamespaceCondition{Type: ConditionContentRemaining, Status: api.ConditionTrue, LastTransitionTime: t,
			Reason: "SomeResourcesRemain", Message: "Some resources are remaining: " + strings.Join(parts, ", ")})
	}
	if len(finalizers) > 0 {
		var parts []string
		for f, n := range finalizers {
			parts = append(parts, fmt.Sprintf("%s in %d resource instances", f, n))
		}
		slices.Sort(parts)
		out = append(out, api.NamespaceCondition{Type: ConditionFinalizersRemain, Status: api.ConditionTrue, LastTransitionTime: t,
			Reason: "SomeFinalizerRemain", Message: "Some finalizers are remaining: " + strings.Join(parts, ", ")})
	}
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		slices.Sort(msgs)
		out = append(out, api.NamespaceCondition{Type: ConditionContentFailure, Status: api.ConditionTrue, LastTransitionTime: t,
			Reason: "ContentDeletionFailed", Message: fmt.Sprintf("Failed to delete all resource types, %d remaining: %s", len(errs), strings.Join(msgs, ", "))})
	}
	return out
}

// updateConditions sets each deletion condition to the new one of its
// type, or to its False variant when there is none, and reports whether
// any status, reason or message changed (a transition time moves only
// with the status).
func updateConditions(st *api.NamespaceStatus, fresh []api.NamespaceCondition, now time.Time) bool {
	changed := false
	for _, typ := range conditionTypes {
		i := slices.IndexFunc(fresh, func(c api.NamespaceCondition) bool { return c.Type == typ })
		var want api.NamespaceCondition
		if i >= 0 {
			want = fresh[i]
		} else {
			ok := okCondition[typ]
			want = api.NamespaceCondition{Type: typ, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(now.Truncate(time.Second)),
				Reason: ok[0], Message: ok[1]}
		}
		j := slices.IndexFunc(st.Conditions, func(c api.NamespaceCondition) bool { return c.Type == typ })
		if j < 0 {
			st.Conditions = append(st.Conditions, want)
			changed = true
			continue
		}
		old := &st.Conditions[j]
		if old.Status == want.Status && old.Reason == want.Reason && old.Message == want.Message {
			continue
		}
		if old.Status != want.Status {
			old.LastTransitionTime = want.LastTransitionTime
		}
		old.Status, old.Reason, old.Message = want.Status, want.Reason, want.Message
		changed = true
	}
	return changed
}
