package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

func init() {
	register("kubelet.eviction-manager", runEvictionManager)
}

type wantThreshold struct {
	Signal               string `json:"signal"`
	Operator             string `json:"operator"`
	Quantity             string `json:"quantity,omitempty"`
	Percentage           string `json:"percentage,omitempty"`
	GracePeriodSeconds   int64  `json:"gracePeriodSeconds,omitempty"`
	MinReclaimQuantity   string `json:"minReclaimQuantity,omitempty"`
	MinReclaimPercentage string `json:"minReclaimPercentage,omitempty"`
}

func (a wantThreshold) equal(b wantThreshold) bool {
	return a.Signal == b.Signal && a.Operator == b.Operator && a.Percentage == b.Percentage &&
		a.GracePeriodSeconds == b.GracePeriodSeconds && a.MinReclaimPercentage == b.MinReclaimPercentage &&
		(a.Quantity == "") == (b.Quantity == "") && EqualQuantities(a.Quantity, b.Quantity) &&
		(a.MinReclaimQuantity == "") == (b.MinReclaimQuantity == "") && EqualQuantities(a.MinReclaimQuantity, b.MinReclaimQuantity)
}

type wantDisruptionTarget struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
}

type wantKillStatus struct {
	Phase            string               `json:"phase"`
	Reason           string               `json:"reason"`
	Message          string               `json:"message"`
	DisruptionTarget wantDisruptionTarget `json:"disruptionTarget"`
}

// killStatusOf renders a final pod status in the families' shape.
func killStatusOf(st api.PodStatus) wantKillStatus {
	out := wantKillStatus{Phase: string(st.Phase), Reason: st.Reason, Message: st.Message}
	if c := api.FindCondition(st.Conditions, api.DisruptionTarget); c != nil {
		out.DisruptionTarget = wantDisruptionTarget{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration}
	}
	return out
}

type wantEvicted struct {
	Pod                string         `json:"pod"`
	GracePeriodSeconds int64          `json:"gracePeriodSeconds"`
	Status             wantKillStatus `json:"status"`
}

type wantEvictionStep struct {
	ThresholdsMet  []string     `json:"thresholdsMet"`
	NodeConditions []string     `json:"nodeConditions"`
	Reclaiming     string       `json:"reclaiming,omitempty"`
	Evicted        *wantEvicted `json:"evicted,omitempty"`
}

func thresholdValueStrings(v nodepressure.ThresholdValue) (quantity, percentage string) {
	if v.Quantity != nil {
		return v.Quantity.String(), ""
	}
	return "", strconv.FormatFloat(float64(v.Percentage), 'g', -1, 32)
}

func runEvictionManager(input, want json.RawMessage) error {
	var in struct {
		EvictionHard                     map[string]string `json:"evictionHard"`
		EvictionSoft                     map[string]string `json:"evictionSoft"`
		EvictionSoftGracePeriod          map[string]string `json:"evictionSoftGracePeriod"`
		EvictionMinimumReclaim           map[string]string `json:"evictionMinimumReclaim"`
		EvictionPressureTransitionPeriod string            `json:"evictionPressureTransitionPeriod"`
		EvictionMaxPodGracePeriod        int64             `json:"evictionMaxPodGracePeriod"`
		EnforceNodeAllocatable           []string          `json:"enforceNodeAllocatable"`
		Filesystems                      string            `json:"filesystems"`
		Pods                             []api.Pod         `json:"pods"`
		Steps                            []struct {
			At      time.Time            `json:"at"`
			Summary nodepressure.Summary `json:"summary"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Error      bool               `json:"error"`
		Message    string             `json:"message"`
		Thresholds []wantThreshold    `json:"thresholds"`
		Steps      []wantEvictionStep `json:"steps"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	m, err := nodepressure.NewManager(nodepressure.Settings{
		Hard:                     in.EvictionHard,
		Soft:                     in.EvictionSoft,
		SoftGracePeriod:          in.EvictionSoftGracePeriod,
		MinimumReclaim:           in.EvictionMinimumReclaim,
		PressureTransitionPeriod: in.EvictionPressureTransitionPeriod,
		MaxPodGracePeriodSeconds: in.EvictionMaxPodGracePeriod,
		EnforceNodeAllocatable:   in.EnforceNodeAllocatable,
	}, nodepressure.FilesystemLayout(in.Filesystems))
	if w.Error {
		if err == nil {
			return Mismatch("error", w.Message, "no error")
		}
		return nil
	}
	if err != nil {
		return Mismatch("error", "no error", err.Error())
	}

	var got []wantThreshold
	for _, t := range m.Policy().Thresholds {
		g := wantThreshold{Signal: string(t.Signal), Operator: string(t.Operator), GracePeriodSeconds: int64(t.GracePeriod / time.Second)}
		g.Quantity, g.Percentage = thresholdValueStrings(t.Value)
		if t.MinReclaim != nil {
			g.MinReclaimQuantity, g.MinReclaimPercentage = thresholdValueStrings(*t.MinReclaim)
		}
		got = append(got, g)
	}
	if len(got) != len(w.Thresholds) {
		return Mismatch("thresholds", w.Thresholds, got)
	}
	used := make([]bool, len(got))
	for _, wt := range w.Thresholds {
		found := false
		for j, g := range got {
			if !used[j] && wt.equal(g) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return Mismatch("thresholds", w.Thresholds, got)
		}
	}

	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	if len(w.Steps) != len(in.Steps) {
		return Mismatch("steps", len(w.Steps), len(in.Steps))
	}
	for i, s := range in.Steps {
		st := m.Step(nodepressure.Observation{Summary: s.Summary, Pods: pods}, s.At)
		g := wantEvictionStep{ThresholdsMet: []string{}, NodeConditions: []string{}}
		for _, t := range st.ThresholdsMet {
			g.ThresholdsMet = append(g.ThresholdsMet, string(t.Signal))
		}
		sort.Strings(g.ThresholdsMet)
		for _, c := range st.Conditions {
			g.NodeConditions = append(g.NodeConditions, string(c))
		}
		if st.Reclaim != nil {
			g.Reclaiming = string(st.Reclaim.Resource)
		}
		if e := st.Eviction; e != nil {
			g.Evicted = &wantEvicted{Pod: e.Pod.Name, GracePeriodSeconds: e.Grace.GracePeriodSeconds, Status: killStatusOf(e.Status)}
			pods = slices.DeleteFunc(pods, func(p *api.Pod) bool { return p == e.Pod })
		}
		ws := w.Steps[i]
		if ws.ThresholdsMet == nil {
			ws.ThresholdsMet = []string{}
		}
		if ws.NodeConditions == nil {
			ws.NodeConditions = []string{}
		}
		sort.Strings(ws.ThresholdsMet)
		if !slices.Equal(ws.ThresholdsMet, g.ThresholdsMet) || !slices.Equal(ws.NodeConditions, g.NodeConditions) ||
			ws.Reclaiming != g.Reclaiming || (ws.Evicted == nil) != (g.Evicted == nil) ||
			(ws.Evicted != nil && *ws.Evicted != *g.Evicted) {
			return Mismatch(fmt.Sprintf("steps[%d]", i), ws, g)
		}
	}
	return nil
}
