package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

func init() {
	register("termination.apiserver-grace", runAPIServerGrace)
	register("termination.kubelet-grace", runKubeletGrace)
	register("termination.podgc", runPodGC)
}

// --- termination.apiserver-grace ---

type termAPIGraceInput struct {
	Pod           api.Pod `json:"pod"`
	DeleteOptions *struct {
		GracePeriodSeconds *int64  `json:"gracePeriodSeconds"`
		PreconditionUID    *string `json:"preconditionUID"`
	} `json:"delete_options"`
	Now time.Time `json:"now"`
}

type termAPIGraceWant struct {
	Check struct {
		Result             bool   `json:"result"`
		GracePeriodSeconds *int64 `json:"grace_period_seconds"`
	} `json:"check_graceful_delete"`
	Before struct {
		Error                      bool       `json:"error"`
		Graceful                   bool       `json:"graceful"`
		GracefulPending            bool       `json:"graceful_pending"`
		OptionsGracePeriodSeconds  *int64     `json:"options_grace_period_seconds"`
		DeletionTimestamp          *time.Time `json:"deletion_timestamp"`
		DeletionGracePeriodSeconds *int64     `json:"deletion_grace_period_seconds"`
		Generation                 int64      `json:"generation"`
	} `json:"before_delete"`
}

func runAPIServerGrace(input, want json.RawMessage) error {
	var in termAPIGraceInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w termAPIGraceWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	var opts *api.DeleteOptions
	if in.DeleteOptions != nil {
		opts = &api.DeleteOptions{GracePeriodSeconds: in.DeleteOptions.GracePeriodSeconds}
		if in.DeleteOptions.PreconditionUID != nil {
			opts.Preconditions = &api.Preconditions{UID: in.DeleteOptions.PreconditionUID}
		}
	}

	sg := termination.CheckGracefulDelete(&in.Pod, opts)
	if sg.Graceful != w.Check.Result {
		return Mismatch("check_graceful_delete.result", w.Check.Result, sg.Graceful)
	}
	var gotCheckGrace *int64
	if opts != nil {
		g := sg.GracePeriodSeconds
		gotCheckGrace = &g
	}
	if !termSameInt64Ptr(w.Check.GracePeriodSeconds, gotCheckGrace) {
		return Mismatch("check_graceful_delete.grace_period_seconds", w.Check.GracePeriodSeconds, gotCheckGrace)
	}

	d, err := termination.APIServerGrace(&in.Pod, opts, in.Now)
	if (err != nil) != w.Before.Error {
		return Mismatch("before_delete.error", w.Before.Error, err)
	}
	if d.Graceful != w.Before.Graceful {
		return Mismatch("before_delete.graceful", w.Before.Graceful, d.Graceful)
	}
	if d.GracefulPending != w.Before.GracefulPending {
		return Mismatch("before_delete.graceful_pending", w.Before.GracefulPending, d.GracefulPending)
	}
	if !termSameInt64Ptr(w.Before.OptionsGracePeriodSeconds, d.GracePeriodSeconds) {
		return Mismatch("before_delete.options_grace_period_seconds", w.Before.OptionsGracePeriodSeconds, d.GracePeriodSeconds)
	}
	if (w.Before.DeletionTimestamp == nil) != (d.DeletionTimestamp == nil) ||
		w.Before.DeletionTimestamp != nil && !w.Before.DeletionTimestamp.Equal(*d.DeletionTimestamp) {
		return Mismatch("before_delete.deletion_timestamp", w.Before.DeletionTimestamp, d.DeletionTimestamp)
	}
	if !termSameInt64Ptr(w.Before.DeletionGracePeriodSeconds, d.DeletionGracePeriodSeconds) {
		return Mismatch("before_delete.deletion_grace_period_seconds", w.Before.DeletionGracePeriodSeconds, d.DeletionGracePeriodSeconds)
	}
	if d.Generation != w.Before.Generation {
		return Mismatch("before_delete.generation", w.Before.Generation, d.Generation)
	}
	return nil
}

func termSameInt64Ptr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// --- termination.kubelet-grace ---

type termKubeletGraceInput struct {
	Stage     string  `json:"stage"`
	Pod       api.Pod `json:"pod"`
	PodWorker *struct {
		StatusGracePeriod int64  `json:"status_grace_period"`
		HasKillPodOptions bool   `json:"has_kill_pod_options"`
		Override          *int64 `json:"kill_pod_options_grace_period_override"`
	} `json:"pod_worker"`
	KillContainer *struct {
		ContainerName       string `json:"container_name"`
		Reason              string `json:"reason"`
		GracePeriodOverride *int64 `json:"grace_period_override"`
	} `json:"kill_container"`
}

type termKubeletGraceWant struct {
	GracePeriod     *int64 `json:"grace_period"`
	Changed         *bool  `json:"changed"`
	BaseGracePeriod *int64 `json:"base_grace_period"`
}

func runKubeletGrace(input, want json.RawMessage) error {
	var in termKubeletGraceInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w termKubeletGraceWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	switch in.Stage {
	case "pod_worker":
		if in.PodWorker == nil {
			return fmt.Errorf("pod_worker stage without pod_worker input")
		}
		pw := termination.PodWorkerState{RecordedGracePeriodSeconds: in.PodWorker.StatusGracePeriod}
		if in.PodWorker.HasKillPodOptions {
			pw.Override = in.PodWorker.Override
		}
		g := termination.KubeletPodGrace(&in.Pod, pw)
		if w.GracePeriod != nil && g.GracePeriodSeconds != *w.GracePeriod {
			return Mismatch("grace_period", *w.GracePeriod, g.GracePeriodSeconds)
		}
		if w.Changed != nil && g.Changed != *w.Changed {
			return Mismatch("changed", *w.Changed, g.Changed)
		}
	case "kill_container":
		if in.KillContainer == nil {
			return fmt.Errorf("kill_container stage without kill_container input")
		}
		k := termination.ContainerKill{
			ContainerName:       in.KillContainer.ContainerName,
			Reason:              termination.KillReason(in.KillContainer.Reason),
			GracePeriodOverride: in.KillContainer.GracePeriodOverride,
		}
		g, err := termination.ContainerGrace(&in.Pod, k)
		if err != nil {
			return fmt.Errorf("ContainerGrace: %w", err)
		}
		if w.BaseGracePeriod != nil && g.BaseGracePeriodSeconds != *w.BaseGracePeriod {
			return Mismatch("base_grace_period", *w.BaseGracePeriod, g.BaseGracePeriodSeconds)
		}
		if w.GracePeriod != nil && g.GracePeriodSeconds != *w.GracePeriod {
			return Mismatch("grace_period", *w.GracePeriod, g.GracePeriodSeconds)
		}
	default:
		return fmt.Errorf("unknown stage %q", in.Stage)
	}
	return nil
}

// --- termination.podgc ---

type termPodGCInput struct {
	Nodes                  []api.Node `json:"nodes"`
	APIOnlyNodes           []string   `json:"apiOnlyNodes"`
	Pods                   []api.Pod  `json:"pods"`
	TerminatedPodThreshold int        `json:"terminatedPodThreshold"`
	SecondPassAfterSeconds int64      `json:"secondPassAfterSeconds"`
}

type termPodGCMarked struct {
	Pod                string `json:"pod"`
	Phase              string `json:"phase"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	DisruptionTarget   *struct {
		Status             string `json:"status"`
		Reason             string `json:"reason"`
		Message            string `json:"message"`
		ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	} `json:"disruptionTarget,omitempty"`
}

type termPodGCPass struct {
	MarkedFailed []termPodGCMarked `json:"markedFailed"`
	Deleted      []string          `json:"deleted"`
}

func runPodGC(input, want json.RawMessage) error {
	var in termPodGCInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Pass1 termPodGCPass `json:"pass1"`
		Pass2 termPodGCPass `json:"pass2"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	nodes := make([]*api.Node, len(in.Nodes))
	for i := range in.Nodes {
		nodes[i] = &in.Nodes[i]
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	cfg := termination.GCConfig{TerminatedPodThreshold: in.TerminatedPodThreshold}
	if in.TerminatedPodThreshold == 0 {
		cfg.DisableTerminatedPodGC = true
	}
	apiOnly := map[string]bool{}
	for _, n := range in.APIOnlyNodes {
		apiOnly[n] = true
	}
	t0 := time.Date(2025, 3, 1, 8, 10, 0, 0, time.UTC)
	gc := termination.NewCollector(cfg)
	lookup := func(name string) bool { return apiOnly[name] }
	r1 := gc.Step(termination.GCInput{Pods: pods, Nodes: nodes, NodeExists: lookup}, t0)
	if err := termComparePass("pass1", w.Pass1, r1); err != nil {
		return err
	}
	r2 := gc.Step(termination.GCInput{Pods: r1.Remaining, Nodes: nodes, NodeExists: lookup}, t0.Add(time.Duration(in.SecondPassAfterSeconds)*time.Second))
	return termComparePass("pass2", w.Pass2, r2)
}

func termComparePass(name string, w termPodGCPass, r termination.GCResult) error {
	var got termPodGCPass
	got.Deleted = []string{}
	got.MarkedFailed = []termPodGCMarked{}
	for _, a := range r.Actions {
		if a.Patched != nil {
			m := termPodGCMarked{Pod: a.Pod, Phase: string(a.Patched.Phase), ObservedGeneration: a.Patched.ObservedGeneration}
			if c := api.FindCondition(a.Patched.Conditions, api.DisruptionTarget); c != nil {
				m.DisruptionTarget = &struct {
					Status             string `json:"status"`
					Reason             string `json:"reason"`
					Message            string `json:"message"`
					ObservedGeneration int64  `json:"observedGeneration,omitempty"`
				}{string(c.Status), c.Reason, c.Message, c.ObservedGeneration}
			}
			got.MarkedFailed = append(got.MarkedFailed, m)
		}
		got.Deleted = append(got.Deleted, a.Pod)
	}
	sort.Strings(got.Deleted)
	sort.Slice(got.MarkedFailed, func(i, j int) bool { return got.MarkedFailed[i].Pod < got.MarkedFailed[j].Pod })
	if w.Deleted == nil {
		w.Deleted = []string{}
	}
	if w.MarkedFailed == nil {
		w.MarkedFailed = []termPodGCMarked{}
	}
	sort.Strings(w.Deleted)
	sort.Slice(w.MarkedFailed, func(i, j int) bool { return w.MarkedFailed[i].Pod < w.MarkedFailed[j].Pod })
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		return Mismatch(name, json.RawMessage(wj), json.RawMessage(gj))
	}
	return nil
}
