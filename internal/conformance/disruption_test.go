package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

func init() {
	register("disruption.pdb-status", runPDBStatus)
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
	if c := disruption.FindCondition(st.Conditions, disruption.ConditionDisruptionAllowed); c != nil {
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
