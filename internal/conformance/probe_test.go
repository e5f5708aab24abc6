package conformance

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

func init() {
	register("probe.worker", runProbeWorker)
}

// --- probe.worker ---

type probeWorkerInput struct {
	ProbeType        string    `json:"probe_type"`
	Container        string    `json:"container"`
	Pod              api.Pod   `json:"pod"`
	KubeletStartTime time.Time `json:"kubelet_start_time"`
	Steps            []struct {
		At      time.Time      `json:"at"`
		Status  *api.PodStatus `json:"status"`
		Outcome string         `json:"outcome"`
	} `json:"steps"`
}

type probeWorkerStep struct {
	Probed    bool   `json:"probed"`
	Result    string `json:"result,omitempty"`
	OnHold    bool   `json:"on_hold"`
	KeepGoing bool   `json:"keep_going"`
}

func runProbeWorker(input, want json.RawMessage) error {
	var in probeWorkerInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Steps []probeWorkerStep `json:"steps"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	kind, err := probe.ParseKind(in.ProbeType)
	if err != nil {
		return err
	}
	wk, err := probe.NewWorker(kind, &in.Pod, in.Container, probe.WorkerConfig{KubeletStart: in.KubeletStartTime})
	if err != nil {
		return err
	}
	var got []probeWorkerStep
	for _, s := range in.Steps {
		o, err := probe.ParseOutcome(s.Outcome)
		if err != nil {
			return err
		}
		st := wk.Step(s.Status, o, s.At)
		got = append(got, probeWorkerStep{Probed: st.Probed, Result: st.Result.String(), OnHold: st.OnHold, KeepGoing: st.KeepGoing})
		if !st.KeepGoing {
			break
		}
	}
	if len(got) != len(w.Steps) {
		return Mismatch("steps", w.Steps, got)
	}
	for i := range got {
		if got[i] != w.Steps[i] {
			return Mismatch(fmt.Sprintf("step %d", i), w.Steps, got)
		}
	}
	return nil
}
