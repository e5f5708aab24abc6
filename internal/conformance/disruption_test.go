package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

func init() {
	register("disruption.pdb-status", runPDBStatus)
	register("disruption.eviction", runEviction)
	register("disruption.drain-filter", runDrainFilter)
}

// --- disruption.pdb-status ---

type pdbStatusInput struct {
	Now         time.Time               `json:"now"`
	PDB         api.PodDisruptionBudget `json:"pdb"`
	Pods        []*api.Pod              `json:"pods"`
	Controllers []json.RawMessage       `json:"controllers"`
}

type pdbStatusWant struct {
	ExpectedPods       int32                `json:"expectedPods"`
	DesiredHealthy     int32                `json:"desiredHealthy"`
	CurrentHealthy     int32                `json:"currentHealthy"`
	DisruptionsAllowed int32                `json:"disruptionsAllowed"`
	DisruptedPods      map[string]time.Time `json:"disruptedPods"`
	ObservedGeneration int64                `json:"observedGeneration"`
	ConditionStatus    string               `json:"condition_status"`
	ConditionReason    string               `json:"condition_reason"`
	SyncFailed         bool                 `json:"sync_failed"`
}

func decodeControllers(raws []json.RawMessage) (disruption.Controllers, error) {
	var c disruption.Controllers
	for i, raw := range raws {
		objs, err := api.Decode(raw)
		if err != nil {
			return c, fmt.Errorf("controllers[%d]: %w", i, err)
		}
		for _, o := range objs {
			switch v := o.(type) {
			case *api.ReplicationController:
				c.ReplicationControllers = append(c.ReplicationControllers, v)
			case *api.ReplicaSet:
				c.ReplicaSets = append(c.ReplicaSets, v)
			case *api.Deployment:
				c.Deployments = append(c.Deployments, v)
			case *api.StatefulSet:
				c.StatefulSets = append(c.StatefulSets, v)
			default:
				return c, fmt.Errorf("controllers[%d]: unexpected object %T", i, o)
			}
		}
	}
	return c, nil
}

func runPDBStatus(input, want json.RawMessage) error {
	var in pdbStatusInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w pdbStatusWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	ctrls, err := decodeControllers(in.Controllers)
	if err != nil {
		return err
	}
	st, res := disruption.Evaluate(&in.PDB, in.Pods, ctrls, in.Now)
	got := pdbStatusWant{
		ExpectedPods:       st.ExpectedPods,
		DesiredHealthy:     st.DesiredHealthy,
		CurrentHealthy:     st.CurrentHealthy,
		DisruptionsAllowed: st.DisruptionsAllowed,
		DisruptedPods:      map[string]time.Time{},
		ObservedGeneration: st.ObservedGeneration,
		SyncFailed:         res.SyncFailed,
	}
	for k, v := range st.DisruptedPods {
		got.DisruptedPods[k] = v.Time
	}
	if c := api.FindStatusCondition(st.Conditions, disruption.ConditionDisruptionAllowed); c != nil {
		got.ConditionStatus, got.ConditionReason = string(c.Status), c.Reason
	}
	if w.DisruptedPods == nil {
		w.DisruptedPods = map[string]time.Time{}
	}
	sameTimes := maps.EqualFunc(w.DisruptedPods, got.DisruptedPods, func(a, b time.Time) bool { return a.Equal(b) })
	wc, gc := w, got
	wc.DisruptedPods, gc.DisruptedPods = nil, nil
	if !sameTimes || fmt.Sprint(wc) != fmt.Sprint(gc) {
		return Mismatch(fmt.Sprintf("pdb status (%s)", res), w, got)
	}
	return nil
}

// --- disruption.eviction ---

type evictionInput struct {
	Pod           *api.Pod                   `json:"pod"`
	PDBs          []*api.PodDisruptionBudget `json:"pdbs"`
	Eviction      api.Eviction               `json:"eviction"`
	RequestDryRun []string                   `json:"request_dry_run"`
}

type evictionWant struct {
	Allowed                    bool               `json:"allowed"`
	Code                       int                `json:"code"`
	Reason                     string             `json:"reason"`
	Deleted                    bool               `json:"deleted"`
	DeleteOptions              *api.DeleteOptions `json:"delete_options"`
	DisruptionTargetCondition  bool               `json:"disruption_target_condition"`
	PDBUpdated                 string             `json:"pdb_updated"`
	PDBDisruptionsAllowedAfter *int32             `json:"pdb_disruptions_allowed_after"`
	PDBDisruptedPodsAdded      bool               `json:"pdb_disrupted_pods_added"`
	PDBConditionReasonAfter    string             `json:"pdb_condition_reason_after"`
}

func runEviction(input, want json.RawMessage) error {
	var in evictionInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w evictionWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	d := disruption.Evict(in.Pod, &in.Eviction, in.PDBs, disruption.EvictOptions{DryRun: in.RequestDryRun}, now)
	got := evictionWant{
		Allowed:                   d.Allowed,
		Code:                      d.Code,
		Reason:                    d.Reason,
		Deleted:                   d.Deleted,
		DeleteOptions:             d.DeleteOptions,
		DisruptionTargetCondition: d.DisruptionTarget != nil,
	}
	if d.BudgetUpdated {
		got.PDBUpdated = d.Budget
		da := d.BudgetStatus.DisruptionsAllowed
		got.PDBDisruptionsAllowedAfter = &da
		_, got.PDBDisruptedPodsAdded = d.BudgetStatus.DisruptedPods[in.Pod.Name]
		if c := api.FindStatusCondition(d.BudgetStatus.Conditions, disruption.ConditionDisruptionAllowed); c != nil {
			got.PDBConditionReasonAfter = c.Reason
		}
	}
	if w.DeleteOptions != nil && got.DeleteOptions != nil {
		inputRV := in.Eviction.DeleteOptions != nil && in.Eviction.DeleteOptions.Preconditions != nil &&
			in.Eviction.DeleteOptions.Preconditions.ResourceVersion != nil
		if !inputRV {
			// Only the presence of the handler's own precondition counts.
			wp, gp := w.DeleteOptions.Preconditions, got.DeleteOptions.Preconditions
			if (wp != nil && wp.ResourceVersion != nil) != (gp != nil && gp.ResourceVersion != nil) {
				return Mismatch("eviction delete_options.preconditions.resourceVersion presence ("+d.String()+")", w.DeleteOptions, got.DeleteOptions)
			}
			w.DeleteOptions, got.DeleteOptions = stripRV(w.DeleteOptions), stripRV(got.DeleteOptions)
		}
	}
	if jsonString(w) != jsonString(got) {
		return Mismatch("eviction ("+d.String()+")", w, got)
	}
	return nil
}

func stripRV(o *api.DeleteOptions) *api.DeleteOptions {
	c := *o
	if o.Preconditions != nil {
		p := *o.Preconditions
		p.ResourceVersion = nil
		c.Preconditions = &p
		if p.UID == nil {
			c.Preconditions = nil
		}
	}
	return &c
}

// --- disruption.drain-filter ---

type drainInput struct {
	Node       string           `json:"node"`
	Pods       []*api.Pod       `json:"pods"`
	DaemonSets []*api.DaemonSet `json:"daemonSets"`
	Flags      struct {
		Force                           bool   `json:"force"`
		IgnoreAllDaemonSets             bool   `json:"ignoreAllDaemonSets"`
		DeleteEmptyDirData              bool   `json:"deleteEmptyDirData"`
		PodSelector                     string `json:"podSelector"`
		SkipWaitForDeleteTimeoutSeconds int    `json:"skipWaitForDeleteTimeoutSeconds"`
		DisableEviction                 bool   `json:"disableEviction"`
	} `json:"flags"`
	Now                  time.Time `json:"now"`
	EvictionGroupVersion string    `json:"evictionGroupVersion"`
}

type drainPerPod struct {
	Pod     string `json:"pod"`
	Delete  bool   `json:"delete"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
}

type drainWant struct {
	ListError bool          `json:"listError,omitempty"`
	Pods      []string      `json:"pods"`
	PerPod    []drainPerPod `json:"perPod"`
	Warnings  []string      `json:"warnings"`
	Errors    []string      `json:"errors"`
	Method    string        `json:"method,omitempty"`
}

func runDrainFilter(input, want json.RawMessage) error {
	var in drainInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w drainWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	flags := disruption.DrainFlags{
		Force:                           in.Flags.Force,
		IgnoreAllDaemonSets:             in.Flags.IgnoreAllDaemonSets,
		DeleteEmptyDirData:              in.Flags.DeleteEmptyDirData,
		PodSelector:                     in.Flags.PodSelector,
		SkipWaitForDeleteTimeoutSeconds: in.Flags.SkipWaitForDeleteTimeoutSeconds,
		DisableEviction:                 in.Flags.DisableEviction,
		EvictionGroupVersion:            in.EvictionGroupVersion,
		// The vectors write "" for an API server without the subresource.
		EvictionUnsupported: in.EvictionGroupVersion == "",
	}
	plan := disruption.PlanDrain(in.Node, in.Pods, in.DaemonSets, flags, in.Now)
	got := drainWant{ListError: plan.ListError != nil, Errors: slices.Clone(plan.Errors)}
	if !got.ListError {
		got.Method = plan.Method()
		got.Warnings = slices.Clone(plan.Warnings)
		for _, p := range plan.ToDelete() {
			got.Pods = append(got.Pods, p.Namespace+"/"+p.Name)
		}
		for _, d := range plan.Pods {
			got.PerPod = append(got.PerPod, drainPerPod{
				Pod: d.Pod.Namespace + "/" + d.Pod.Name, Delete: d.Delete, Reason: string(d.Reason), Message: d.Message,
			})
		}
	}
	slices.Sort(w.Warnings)
	slices.Sort(w.Errors)
	for _, l := range []*[]string{&w.Pods, &w.Warnings, &w.Errors, &got.Pods, &got.Warnings, &got.Errors} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if len(w.PerPod) == 0 {
		w.PerPod = nil
	}
	if jsonString(w) != jsonString(got) {
		return Mismatch("drain plan", w, got)
	}
	return nil
}
