package disruption

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// DeletionTimeout is how long an entry of status.disruptedPods keeps its pod
// out of currentHealthy: the disruption controller expects a pod whose
// eviction was granted to be marked for deletion within two minutes, and
// forgets the entry afterwards (pkg/controller/disruption DeletionTimeout).
const DeletionTimeout = 2 * time.Minute

// ErrNoController is wrapped by the sync error when a selected pod's
// controller cannot be found among the known controllers.
var ErrNoController = errors.New("found no controllers for pod")

// Result explains one evaluation of a budget: the numbers the disruption
// controller derived and where they came from. Status is what it writes.
type Result struct {
	// SyncFailed is set when the controller could not compute the
	// expected pod count (or select pods at all) and fell back to its
	// fail-safe write: disruptionsAllowed 0, old counts kept, condition
	// DisruptionAllowed=False with reason SyncFailed. Err says why.
	SyncFailed bool
	Err        error

	// Selected names the pods of the budget's namespace its selector
	// matched, in input order.
	Selected []string
	// Unmanaged names selected pods without a controller; they make
	// percentage and maxUnavailable budgets ill-defined (upstream only
	// emits an UnmanagedPods event).
	Unmanaged []string
	// ExpectedFrom says how expectedPods was obtained: "selected pods"
	// (integer minAvailable), "controller scale" (percentages and
	// maxUnavailable) or "none" (neither field set).
	ExpectedFrom string
	// Controllers are the controllers whose scales were summed, in the
	// order they were first met.
	Controllers []ControllerScale
	// Terminating names selected pods with a deletionTimestamp: never
	// healthy.
	Terminating []string
	// Disrupted names selected pods kept in disruptedPods (evicted less
	// than DeletionTimeout ago): not healthy. Dropped names the entries
	// of the old map that were removed (expired, terminating or gone).
	Disrupted []string
	Dropped   []string
	// RecheckAt is when the earliest kept disruptedPods entry expires, so
	// the controller syncs again; zero when none is kept.
	RecheckAt time.Time

	// Reason is the DisruptionAllowed condition's reason: SufficientPods,
	// InsufficientPods or SyncFailed.
	Reason string

	// Events are the Events the disruption controller records at this
	// sync (source "controllermanager"), in its order: Normal NoPods "No
	// matching pods found" on the budget when its selector matches no pod;
	// Warning UnmanagedPods on the budget when Unmanaged is not empty and
	// the sync did not fail (its note prints the selector as the API's Go
	// types print it); Warning NotDeleted "Pod was expected by PDB
	// <namespace>/<namespace> to be deleted but it wasn't" on each selected
	// pod, not terminating, whose disruptedPods entry expired (the
	// controller names the budget by its namespace twice). A sync that
	// failed because a selected pod's controller is gone (ErrNoController)
	// records Warning CalculateExpectedPodCountFailed "Failed to calculate
	// the number of expected pods: found no controllers for pod <name>" —
	// the first such pod in the order given; upstream's order is its pod
	// lister's. The events of other failed syncs ("Failed to get pods:
	// ...", a controller without a scale) are not given: their text is
	// client-go's error, which Err only paraphrases.
	Events []api.Event
}

// String summarises the result in one line.
func (r Result) String() string {
	if r.SyncFailed {
		return fmt.Sprintf("sync failed (disruptionsAllowed forced to 0): %v", r.Err)
	}
	return fmt.Sprintf("%s: %d pods selected, expected from %s", r.Reason, len(r.Selected), r.ExpectedFrom)
}

// Evaluate computes the status the disruption controller writes for pdb
// after one sync at time now (pkg/controller/disruption
// DisruptionController.sync), given every pod it can see and the workload
// controllers that exist. Only pods in the budget's namespace that its
// selector matches count; an absent selector matches none and an empty one
// all.
//
//   - expectedPods and desiredHealthy: an integer minAvailable counts every
//     selected pod (pending, finished and terminating ones too) and desires
//     minAvailable. A percentage minAvailable or any maxUnavailable uses the
//     sum of the scales of the selected pods' controllers (percentages
//     round up; desiredHealthy = expected - maxUnavailable, floored at 0).
//     A selected pod whose controller cannot be found or has no scale
//     subresource makes the sync fail; pods with no controller are skipped
//     (a bare pod under such a budget contributes nothing).
//   - currentHealthy counts selected pods that are Ready, not terminating
//     and not in disruptedPods.
//   - disruptedPods keeps entries younger than DeletionTimeout for selected
//     pods that are not yet terminating.
//   - disruptionsAllowed = currentHealthy - desiredHealthy, at least 0, and
//     0 whenever expectedPods is 0.
//
// When the sync fails the controller's fail-safe applies: the old status is
// kept with disruptionsAllowed 0 and a SyncFailed condition. The returned
// status is a fresh value; pdb and pods are not modified. A nil pdb is a
// failed sync of an empty budget, whose Result.Err wraps api.ErrInvalidInput.
// Nil pods and nil controllers are skipped.
func Evaluate(pdb *api.PodDisruptionBudget, pods []*api.Pod, controllers Controllers, now time.Time) (api.PodDisruptionBudgetStatus, Result) {
	var res Result
	if pdb == nil {
		res.SyncFailed, res.Err, res.Reason = true, fmt.Errorf("%w: pdb: nil", errInvalidInput), ReasonSyncFailed
		return failSafe(&api.PodDisruptionBudget{}, res.Err, now), res
	}
	sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil {
		return fail(pdb, &res, fmt.Errorf("spec.selector: %w", err), now)
	}
	selected := make([]*api.Pod, 0, 16)
	for _, p := range pods {
		if p == nil || p.Namespace != pdb.Namespace || !sel.Matches(api.Set(p.Labels)) {
			continue
		}
		selected = append(selected, p)
		res.Selected = append(res.Selected, p.Name)
	}
	if len(selected) == 0 {
		res.Events = append(res.Events, noPodsEvent(pdb))
	}

	expected, desired, err := expectedCount(pdb, selected, &controllers, &res)
	if err != nil {
		return fail(pdb, &res, err, now)
	}
	if len(res.Unmanaged) > 0 {
		res.Events = append(res.Events, unmanagedPodsEvent(pdb))
	}

	disrupted := keptDisruptions(pdb, selected, now, &res)
	var healthy int32
	for _, p := range selected {
		if p.DeletionTimestamp != nil {
			res.Terminating = append(res.Terminating, p.Name)
			continue
		}
		if t, ok := disrupted[p.Name]; ok && t.Add(DeletionTimeout).After(now) {
			continue
		}
		if api.IsPodReady(p) {
			healthy++
		}
	}

	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := api.PodDisruptionBudgetStatus{
		ObservedGeneration: pdb.Generation,
		DisruptedPods:      disrupted,
		DisruptionsAllowed: allowed,
		CurrentHealthy:     healthy,
		DesiredHealthy:     desired,
		ExpectedPods:       expected,
		Conditions:         slices.Clone(pdb.Status.Conditions),
	}
	cond := DisruptionAllowed(&st)
	res.Reason = cond.Reason
	st.Conditions = setCondition(st.Conditions, cond, now)
	return st, res
}

func fail(pdb *api.PodDisruptionBudget, res *Result, err error, now time.Time) (api.PodDisruptionBudgetStatus, Result) {
	res.SyncFailed, res.Err, res.Reason = true, err, ReasonSyncFailed
	if errors.Is(err, ErrNoController) {
		res.Events = append(res.Events, expectedCountFailedEvent(pdb, err))
	}
	return failSafe(pdb, err, now), *res
}

// failSafe is the controller's write after a failed sync: the old status
// with disruptionsAllowed 0 and DisruptionAllowed=False/SyncFailed.
func failSafe(pdb *api.PodDisruptionBudget, err error, now time.Time) api.PodDisruptionBudgetStatus {
	st := pdb.Status
	st.DisruptedPods = maps.Clone(pdb.Status.DisruptedPods)
	st.DisruptionsAllowed = 0
	st.Conditions = setCondition(slices.Clone(pdb.Status.Conditions), api.Condition{
		Type:               ConditionDisruptionAllowed,
		Status:             api.ConditionFalse,
		Reason:             ReasonSyncFailed,
		Message:            err.Error(),
		ObservedGeneration: st.ObservedGeneration,
	}, now)
	return st
}

// expectedCount is the controller's getExpectedPodCount.
func expectedCount(pdb *api.PodDisruptionBudget, selected []*api.Pod, c *Controllers, res *Result) (expected, desired int32, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		res.ExpectedFrom = "controller scale"
		if expected, err = expectedScale(selected, c, res); err != nil {
			return 0, 0, err
		}
		maxUnavailable, err := api.ScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return 0, 0, fmt.Errorf("spec.maxUnavailable: %w", err)
		}
		desired = max(expected-int32(maxUnavailable), 0)
		return expected, desired, nil
	case pdb.Spec.MinAvailable != nil && !pdb.Spec.MinAvailable.IsString:
		res.ExpectedFrom = "selected pods"
		return int32(len(selected)), pdb.Spec.MinAvailable.IntVal, nil
	case pdb.Spec.MinAvailable != nil:
		res.ExpectedFrom = "controller scale"
		if expected, err = expectedScale(selected, c, res); err != nil {
			return 0, 0, err
		}
		minAvailable, err := api.ScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return 0, 0, fmt.Errorf("spec.minAvailable: %w", err)
		}
		return expected, int32(minAvailable), nil
	}
	res.ExpectedFrom = "none"
	return 0, 0, nil
}

// expectedScale sums the scales of the selected pods' controllers, each
// controller once (the controller's getExpectedScale).
func expectedScale(selected []*api.Pod, c *Controllers, res *Result) (int32, error) {
	var ix *controllerIndex
	var resolved map[refKey]*ControllerScale
	// Keyed by the UID of the controller found; like upstream, a pod whose
	// own reference carries a UID already in the map is not looked up.
	scales := map[string]bool{}
	var total int32
	for _, p := range selected {
		ref := p.ControllerRef()
		if ref == nil {
			res.Unmanaged = append(res.Unmanaged, p.Name)
			continue
		}
		if scales[ref.UID] {
			continue
		}
		// The finders are pure, so a reference already resolved resolves
		// the same way again; remembering it saves the lookups upstream
		// repeats for every pod of a Deployment.
		key := refKey{ref.APIVersion, ref.Kind, ref.Name, ref.UID, p.Namespace}
		cs, done := resolved[key]
		if !done {
			if ix == nil {
				ix = newControllerIndex(c)
				resolved = map[refKey]*ControllerScale{}
			}
			var err error
			if cs, err = ix.find(ref, p.Namespace); err != nil {
				return 0, err
			}
			resolved[key] = cs
		}
		if cs == nil {
			return 0, fmt.Errorf("%w %q", ErrNoController, p.Name)
		}
		if !scales[cs.UID] {
			scales[cs.UID] = true
			res.Controllers = append(res.Controllers, *cs)
			total += cs.Replicas
		}
	}
	return total, nil
}

type refKey struct{ apiVersion, kind, name, uid, ns string }

// keptDisruptions is the controller's buildDisruptedPodMap.
func keptDisruptions(pdb *api.PodDisruptionBudget, selected []*api.Pod, now time.Time, res *Result) map[string]api.Time {
	kept := map[string]api.Time{}
	old := pdb.Status.DisruptedPods
	if old == nil {
		return kept
	}
	for _, p := range selected {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := old[p.Name]
		if !ok {
			continue
		}
		expires := t.Add(DeletionTimeout)
		if expires.Before(now) {
			res.Events = append(res.Events, notDeletedEvent(pdb, p))
			continue
		}
		kept[p.Name] = t
		res.Disrupted = append(res.Disrupted, p.Name)
		if res.RecheckAt.IsZero() || expires.Before(res.RecheckAt) {
			res.RecheckAt = expires
		}
	}
	for name := range old {
		if _, ok := kept[name]; !ok {
			res.Dropped = append(res.Dropped, name)
		}
	}
	slices.Sort(res.Dropped)
	return kept
}
