package termination

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// StrategyGrace is the answer of the pod registry strategy's
// CheckGracefulDelete (pkg/registry/core/pod): whether the pod supports a
// graceful delete for these options and the grace period it writes back into
// them.
type StrategyGrace struct {
	// Graceful is false only when the request carried no DeleteOptions at
	// all.
	Graceful bool
	// GracePeriodSeconds is the value written into the options' grace
	// period; meaningful only when Graceful.
	GracePeriodSeconds int64
	// Source is the input that decided GracePeriodSeconds.
	Source GraceSource
}

// CheckGracefulDelete computes the grace period the pod strategy assigns to a
// DELETE, as upstream's podStrategy.CheckGracefulDelete does: the options'
// gracePeriodSeconds if set, else spec.terminationGracePeriodSeconds (0 when
// absent); 0 for a pod that was never scheduled or is already Succeeded or
// Failed; a negative result becomes 1. A nil opts means "no options", for
// which the strategy declines (Graceful false). The options are not
// modified. A nil pod has no grace: the result is the zero StrategyGrace.
func CheckGracefulDelete(pod *api.Pod, opts *api.DeleteOptions) StrategyGrace {
	if pod == nil {
		return StrategyGrace{}
	}
	if opts == nil {
		return StrategyGrace{Source: SourceUnset}
	}
	var period int64
	src := SourceUnset
	switch {
	case opts.GracePeriodSeconds != nil:
		period, src = *opts.GracePeriodSeconds, SourceDeleteOptions
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		period, src = *pod.Spec.TerminationGracePeriodSeconds, SourcePodSpec
	}
	if pod.Spec.NodeName == "" {
		period, src = 0, SourceUnscheduled
	}
	if pod.Status.Phase.IsTerminal() {
		period, src = 0, SourceTerminalPhase
	}
	if period < 0 {
		period, src = 1, SourceNegativeNormalized
	}
	return StrategyGrace{Graceful: true, GracePeriodSeconds: period, Source: src}
}

// DeleteOutcome says what a DELETE of a pod does to the stored object.
type DeleteOutcome string

// The outcomes of a pod DELETE.
const (
	// OutcomeGraceful: the pod is marked for deletion (deletionTimestamp
	// and deletionGracePeriodSeconds set) and stays until the kubelet (or
	// another actor) deletes it with grace 0.
	OutcomeGraceful DeleteOutcome = "Graceful"
	// OutcomeShortened: a deletion already in progress was given a shorter
	// grace period; its deletionTimestamp moved earlier.
	OutcomeShortened DeleteOutcome = "Shortened"
	// OutcomeImmediate: the object is removed from storage now. Either the
	// resulting grace period is 0 (force deletion, an unscheduled or a
	// terminal pod) or a deletion already in progress carried grace 0 or
	// none.
	OutcomeImmediate DeleteOutcome = "Immediate"
	// OutcomePending: a deletion is already in progress and the request
	// asked for the same or a longer grace period (or none): nothing
	// changes.
	OutcomePending DeleteOutcome = "Pending"
	// OutcomeRejected: the request failed validation or its preconditions.
	OutcomeRejected DeleteOutcome = "Rejected"
	// OutcomeAwaitingFinalizers: the deletion's grace period is 0, so the
	// object would leave storage now, but it carries finalizers (its own,
	// or the garbage collector's orphan or foregroundDeletion that the
	// request's propagation policy added): it stays, marked for deletion
	// with grace 0, and leaves storage when an update removes the last one.
	OutcomeAwaitingFinalizers DeleteOutcome = "AwaitingFinalizers"
)

// APIServerDecision is what the API server does with one DELETE of a pod:
// the result of the generic registry's BeforeDelete
// (k8s.io/apiserver/pkg/registry/rest) run with the pod strategy, and the
// resulting deletion bookkeeping.
type APIServerDecision struct {
	Outcome DeleteOutcome
	// Graceful and GracefulPending are BeforeDelete's two booleans: graceful
	// means the object is updated with new deletion fields (and, when the
	// resulting grace period is 0, removed right after); pending means a
	// graceful deletion is already under way and nothing changes; both false
	// means the object is removed at once.
	Graceful        bool
	GracefulPending bool
	// Immediate reports whether the object leaves storage during this
	// request. It never does while it carries finalizers.
	Immediate bool
	// Finalizers is metadata.finalizers after the request: the pod's own,
	// with the garbage collector's FinalizerOrphanDependents or
	// FinalizerDeleteDependents added or removed as the request's
	// orphanDependents or propagationPolicy asks. A request that changes
	// no deletion field (Pending) leaves them as they were, and so does a
	// Rejected one.
	Finalizers []string
	// GracePeriodSeconds is the options' gracePeriodSeconds after the call
	// (nil when unset), which is what the registry acts on.
	GracePeriodSeconds *int64
	// DeletionTimestamp and DeletionGracePeriodSeconds are the pod's
	// metadata after the call (nil when unset).
	DeletionTimestamp          *time.Time
	DeletionGracePeriodSeconds *int64
	// Generation is metadata.generation after the call: the first graceful
	// deletion bumps a non-zero generation by one.
	Generation int64
	// Source is the input that decided the grace period.
	Source GraceSource
	// Reason explains the decision in a sentence.
	Reason string
}

// APIServerGrace answers what the API server does with a DELETE of pod
// issued at now with options opts, as BeforeDelete and the pod strategy in
// Kubernetes v1.36.3 do:
//
//   - DeleteOptions are validated, then preconditions (UID,
//     resourceVersion) are checked; a mismatch is a 409 Conflict, returned
//     as an error wrapping ErrPreconditionFailed.
//   - A negative gracePeriodSeconds in the options, or a negative
//     deletionGracePeriodSeconds already stored, is treated as 1.
//   - A first deletion takes its grace period from CheckGracefulDelete and
//     sets deletionTimestamp = now + grace and deletionGracePeriodSeconds =
//     grace, bumping a non-zero generation; grace 0 removes the object at
//     once.
//   - A repeated deletion may only shorten: a shorter grace moves the
//     deletionTimestamp back by the difference (never before now; when it
//     would, the timestamp becomes now and the period 1, or 0 for a force
//     delete); an equal, longer or absent grace leaves everything as it is
//     ("pending"). A stored deletion with period 0 or none is removed at
//     once.
//   - Finalizers (the generic registry's Store.Delete): unless the request
//     is pending, an orphan or foregroundDeletion finalizer is added or
//     removed as orphanDependents or propagationPolicy asks (Orphan adds
//     orphan, Foreground adds foregroundDeletion, each removes the other,
//     Background removes both), even on a pod without finalizers. A pod
//     left with any finalizer is never removed by a DELETE: with grace 0
//     it stays marked for deletion (OutcomeAwaitingFinalizers) and leaves
//     storage when UpdateFinalizers removes the last one; with a longer
//     grace it waits for the kubelet's own DELETE with grace 0, which then
//     leaves it awaiting its finalizers in the same way.
//
// A nil opts is a DELETE without a body, which the API server handles as
// empty options. The pod is not modified. DeletionTimestamp is reported as
// the API server stores it, in whole seconds. Neither the API server nor
// podsem bounds a grace period, but upstream's seconds-to-Duration product
// wraps past 2^63 ns (about 292 years) and puts the deletionTimestamp in
// the past; podsem saturates instead (GraceDuration), so a huge grace
// period puts it about 292 years after now. A nil pod is an error wrapping
// api.ErrInvalidInput (and the decision is Rejected).
func APIServerGrace(pod *api.Pod, opts *api.DeleteOptions, now time.Time) (d APIServerDecision, err error) {
	defer func() {
		if d.DeletionTimestamp != nil {
			t := storedTime(*d.DeletionTimestamp)
			d.DeletionTimestamp = &t
		}
	}()
	if pod == nil {
		return APIServerDecision{Outcome: OutcomeRejected}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	var o api.DeleteOptions
	if opts != nil {
		o = *opts
	}
	d = APIServerDecision{
		GracePeriodSeconds:         copyInt64(o.GracePeriodSeconds),
		DeletionGracePeriodSeconds: copyInt64(pod.DeletionGracePeriodSeconds),
		Generation:                 pod.Generation,
		Finalizers:                 slices.Clone(pod.Finalizers),
	}
	if pod.DeletionTimestamp != nil {
		t := pod.DeletionTimestamp.Time
		d.DeletionTimestamp = &t
	}
	if errs := validation.ValidateDeleteOptions(&o); len(errs) > 0 {
		err := invalidDeleteOptions(errs)
		d.Outcome, d.Reason = OutcomeRejected, err.Error()
		return d, err
	}
	if err := checkPreconditions(pod, &o); err != nil {
		d.Outcome, d.Reason = OutcomeRejected, err.Error()
		return d, err
	}
	normalizedOptions := false
	if o.GracePeriodSeconds != nil && *o.GracePeriodSeconds < 0 {
		d.GracePeriodSeconds = ptr(int64(1))
		normalizedOptions = true
	}
	if d.DeletionGracePeriodSeconds != nil && *d.DeletionGracePeriodSeconds < 0 {
		d.DeletionGracePeriodSeconds = ptr(int64(1))
	}

	if d.DeletionTimestamp != nil {
		return holdForFinalizers(repeatDelete(d, normalizedOptions, now), &o, now), nil
	}

	sg := CheckGracefulDelete(pod, &api.DeleteOptions{GracePeriodSeconds: d.GracePeriodSeconds})
	grace := sg.GracePeriodSeconds
	d.Source = sg.Source
	if normalizedOptions && sg.Source == SourceDeleteOptions {
		d.Source = SourceNegativeNormalized
	}
	d.GracePeriodSeconds = ptr(grace)
	ts := storedTime(now.Add(GraceDuration(grace)))
	d.DeletionTimestamp = &ts
	d.DeletionGracePeriodSeconds = ptr(grace)
	if d.Generation > 0 {
		d.Generation++
	}
	d.Graceful = true
	if grace == 0 {
		d.Outcome, d.Immediate = OutcomeImmediate, true
		d.Reason = fmt.Sprintf("grace period 0 (%s): the pod is removed from storage at once; processes on the node may still be running", describeSource(sg.Source))
	} else {
		d.Outcome = OutcomeGraceful
		d.Reason = fmt.Sprintf("graceful deletion with %ds from %s: deletionTimestamp set to %s", grace, describeSource(d.Source), ts.UTC().Format(time.RFC3339))
	}
	return holdForFinalizers(d, &o, now), nil
}

// holdForFinalizers applies the generic registry's Store.Delete to a
// decision BeforeDelete left changing the object or removing it: the
// garbage collector's finalizers as the options ask, and no removal while
// any finalizer remains. A pending or rejected decision is returned as it
// is.
func holdForFinalizers(d APIServerDecision, o *api.DeleteOptions, now time.Time) APIServerDecision {
	if d.Outcome == OutcomePending || d.Outcome == OutcomeRejected {
		return d
	}
	d.Finalizers = gcFinalizers(d.Finalizers, o)
	if len(d.Finalizers) == 0 || !d.Immediate {
		return d
	}
	d.Immediate = false
	d.Outcome = OutcomeAwaitingFinalizers
	if !d.Graceful {
		// A deletion with grace 0 (or none recorded) was already under
		// way: the object is marked deleting again (grace 0, the
		// deletionTimestamp moved to now if it lies ahead).
		if d.DeletionTimestamp == nil || d.DeletionTimestamp.After(now) {
			t := now
			d.DeletionTimestamp = &t
		}
		d.DeletionGracePeriodSeconds = ptr(int64(0))
	}
	d.Reason = fmt.Sprintf("grace period 0, but the pod carries finalizers %s: it stays in storage, marked for deletion, until the last one is removed", quoteList(d.Finalizers))
	return d
}

// gcFinalizers returns finalizers with the garbage collector's orphan and
// foregroundDeletion finalizers set as the options ask
// (deletionFinalizersForGarbageCollection, for the pod registry: garbage
// collection on, default policy "delete dependents in the background").
// Options that name no policy keep what the object has. The list keeps the
// object's order, the GC finalizers moved to its end when the set changes.
func gcFinalizers(finalizers []string, o *api.DeleteOptions) []string {
	orphan, foreground := slices.Contains(finalizers, api.FinalizerOrphanDependents), false
	switch {
	case o.OrphanDependents != nil:
		orphan = *o.OrphanDependents
	case o.PropagationPolicy != nil:
		orphan = *o.PropagationPolicy == api.DeletePropagationOrphan
		foreground = *o.PropagationPolicy == api.DeletePropagationForeground
	default:
		// The object's own finalizers decide, the first GC one found.
		for _, f := range finalizers {
			if f == api.FinalizerOrphanDependents || f == api.FinalizerDeleteDependents {
				orphan, foreground = f == api.FinalizerOrphanDependents, f == api.FinalizerDeleteDependents
				break
			}
		}
	}
	out := make([]string, 0, len(finalizers)+1)
	for _, f := range finalizers {
		if f != api.FinalizerOrphanDependents && f != api.FinalizerDeleteDependents {
			out = append(out, f)
		}
	}
	if orphan {
		out = append(out, api.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, api.FinalizerDeleteDependents)
	}
	if sameSet(out, finalizers) {
		return finalizers
	}
	return out
}

// sameSet reports whether a and b hold the same strings, ignoring order
// and repeats.
func sameSet(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			return false
		}
	}
	return true
}

// quoteList renders finalizer names as [a b].
func quoteList(names []string) string {
	return "[" + strings.Join(names, " ") + "]"
}

// repeatDelete handles a DELETE of a pod whose deletion is already in
// progress: the grace period may only shrink.
func repeatDelete(d APIServerDecision, normalizedOptions bool, now time.Time) APIServerDecision {
	d.Source = SourceDeletionGracePeriod
	if d.DeletionGracePeriodSeconds == nil || *d.DeletionGracePeriodSeconds == 0 {
		d.Outcome, d.Immediate = OutcomeImmediate, true
		d.Reason = "a deletion with grace 0 (or none recorded) is already in progress: the pod is removed from storage at once"
		return d
	}
	current := *d.DeletionGracePeriodSeconds
	if d.GracePeriodSeconds == nil {
		d.GracePeriodSeconds = ptr(current)
		d.Outcome, d.GracefulPending = OutcomePending, true
		d.Reason = fmt.Sprintf("a deletion is already in progress with %ds and the request names no grace period: nothing changes", current)
		return d
	}
	period := *d.GracePeriodSeconds
	if period >= current {
		d.Outcome, d.GracefulPending = OutcomePending, true
		d.Reason = fmt.Sprintf("a deletion is already in progress with %ds; %ds would not shorten it, and a grace period never lengthens: nothing changes", current, period)
		return d
	}
	d.Source = SourceDeleteOptions
	if normalizedOptions {
		d.Source = SourceNegativeNormalized
	}
	ts := d.DeletionTimestamp.Add(-GraceDuration(current)).Add(GraceDuration(period))
	clamped := false
	if ts.Before(now) {
		ts = now
		clamped = true
		if period != 0 {
			period = 1
		}
	}
	ts = storedTime(ts)
	d.DeletionTimestamp = &ts
	d.DeletionGracePeriodSeconds = ptr(period)
	d.Graceful = true
	if period == 0 {
		d.Outcome, d.Immediate = OutcomeImmediate, true
		d.Reason = fmt.Sprintf("the deletion in progress (%ds) is shortened to 0: the pod is removed from storage at once", current)
		return d
	}
	d.Outcome = OutcomeShortened
	if clamped {
		d.Reason = fmt.Sprintf("the deletion in progress (%ds) is shortened; the new deadline would already have passed, so deletionTimestamp becomes now with period 1", current)
	} else {
		d.Reason = fmt.Sprintf("the deletion in progress (%ds) is shortened to %ds: deletionTimestamp moves to %s", current, period, ts.UTC().Format(time.RFC3339))
	}
	return d
}

// invalidDeleteOptions wraps the API server's refusal of the options in
// ErrInvalidDeleteOptions, the field errors joined by "; ".
func invalidDeleteOptions(errs api.FieldErrors) error {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return fmt.Errorf("%w: %s", ErrInvalidDeleteOptions, strings.Join(msgs, "; "))
}

func checkPreconditions(pod *api.Pod, o *api.DeleteOptions) error {
	p := o.Preconditions
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != pod.UID {
		return fmt.Errorf("%w: the UID in the precondition (%s) does not match the UID of pod %s (%s)", ErrPreconditionFailed, *p.UID, pod.Key(), pod.UID)
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != pod.ResourceVersion {
		return fmt.Errorf("%w: the resourceVersion in the precondition (%s) does not match that of pod %s (%s)", ErrPreconditionFailed, *p.ResourceVersion, pod.Key(), pod.ResourceVersion)
	}
	return nil
}

func describeSource(s GraceSource) string {
	switch s {
	case SourceDeleteOptions:
		return "the request's gracePeriodSeconds"
	case SourcePodSpec:
		return "spec.terminationGracePeriodSeconds"
	case SourceUnset:
		return "no grace period set anywhere"
	case SourceUnscheduled:
		return "the pod was never scheduled"
	case SourceTerminalPhase:
		return "the pod has already terminated"
	case SourceNegativeNormalized:
		return "a negative value raised to 1"
	}
	return string(s)
}

func copyInt64(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// storedTime is t as the API server persists a metadata timestamp: whole
// seconds, the sub-second part dropped (metav1.Time serializes as RFC 3339
// without fractions). It only matters for a fractional request clock or for
// a grace period past the largest Duration, which GraceDuration saturates.
func storedTime(t time.Time) time.Time {
	return t.Truncate(time.Second)
}
