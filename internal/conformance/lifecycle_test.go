package conformance

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

func init() {
	register("lifecycle.phase", runLifecyclePhase)
	register("lifecycle.conditions", runLifecycleConditions)
	register("lifecycle.qos", runLifecycleQOS)
	register("lifecycle.crashloop-backoff", runLifecycleBackoff)
	register("lifecycle.display-status", runLifecycleDisplay)
}

func runLifecyclePhase(input, want json.RawMessage) error {
	var in struct {
		Pod               api.Pod `json:"pod"`
		PodIsTerminal     bool    `json:"pod_is_terminal"`
		PodHasInitialized bool    `json:"pod_has_initialized"`
	}
	var w struct {
		Phase api.PodPhase `json:"phase"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	got := lifecycle.Phase(&in.Pod, lifecycle.PhaseOptions{PodIsTerminal: in.PodIsTerminal, PodHasInitialized: in.PodHasInitialized})
	if got != w.Phase {
		return Mismatch("phase", w.Phase, got)
	}
	return nil
}

// wantCondition is one condition as the conditions family writes it.
type wantCondition struct {
	Status             api.ConditionStatus `json:"status"`
	Reason             string              `json:"reason,omitempty"`
	Message            string              `json:"message,omitempty"`
	ObservedGeneration int64               `json:"observedGeneration,omitempty"`
}

func asWantCondition(c api.PodCondition) wantCondition {
	return wantCondition{Status: c.Status, Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration}
}

func runLifecycleConditions(input, want json.RawMessage) error {
	var in struct {
		Pod                      api.Pod      `json:"pod"`
		Phase                    api.PodPhase `json:"phase"`
		ContainerStatusesUnknown bool         `json:"container_statuses_unknown"`
		Sandboxes                []struct {
			State            string  `json:"state"`
			NetworkNamespace string  `json:"network_namespace"`
			IP               *string `json:"ip"`
			Attempt          uint32  `json:"attempt"`
		} `json:"sandboxes"`
	}
	var w struct {
		Initialized               wantCondition `json:"initialized"`
		Ready                     wantCondition `json:"ready"`
		ContainersReady           wantCondition `json:"containers_ready"`
		PodReadyToStartContainers wantCondition `json:"pod_ready_to_start_containers"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	sbs := make([]lifecycle.Sandbox, len(in.Sandboxes))
	for i, s := range in.Sandboxes {
		sb := lifecycle.Sandbox{Attempt: s.Attempt}
		switch s.State {
		case "SANDBOX_READY":
			sb.Ready = true
		case "SANDBOX_NOTREADY", "":
		default:
			return fmt.Errorf("sandboxes[%d].state %q unknown", i, s.State)
		}
		switch s.NetworkNamespace {
		case "POD", "":
			sb.Network = lifecycle.NamespacePod
		case "NODE":
			sb.Network = lifecycle.NamespaceNode
		default:
			return fmt.Errorf("sandboxes[%d].network_namespace %q unknown", i, s.NetworkNamespace)
		}
		if s.IP != nil {
			sb.HasNetworkStatus, sb.IP = true, *s.IP
		}
		sbs[i] = sb
	}
	got := lifecycle.Conditions(&in.Pod, lifecycle.ConditionsInput{
		Phase:                    in.Phase,
		Previous:                 &in.Pod.Status,
		ContainerStatusesUnknown: in.ContainerStatusesUnknown,
		Sandboxes:                sbs,
	}, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	for _, c := range []struct {
		name      string
		want, got wantCondition
	}{
		{"initialized", w.Initialized, asWantCondition(got.Initialized)},
		{"ready", w.Ready, asWantCondition(got.Ready)},
		{"containers_ready", w.ContainersReady, asWantCondition(got.ContainersReady)},
		{"pod_ready_to_start_containers", w.PodReadyToStartContainers, asWantCondition(got.ReadyToStartContainers)},
	} {
		if c.want != c.got {
			return Mismatch(c.name, c.want, c.got)
		}
	}
	return nil
}

func runLifecycleQOS(input, want json.RawMessage) error {
	var in struct {
		Pod              api.Pod `json:"pod"`
		ApplyAPIDefaults bool    `json:"apply_api_defaults"`
	}
	var w struct {
		QOSClass  api.PodQOSClass `json:"qos_class"`
		GetPodQOS api.PodQOSClass `json:"get_pod_qos"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	if in.ApplyAPIDefaults {
		api.DefaultPod(&in.Pod)
	}
	if got := api.ComputePodQOS(&in.Pod); got != w.QOSClass {
		return Mismatch("qos_class", w.QOSClass, got)
	}
	if got := api.PodQOS(&in.Pod); got != w.GetPodQOS {
		return Mismatch("get_pod_qos", w.GetPodQOS, got)
	}
	return nil
}

func runLifecycleBackoff(input, want json.RawMessage) error {
	var in struct {
		MaxContainerRestartPeriodSeconds *int64 `json:"max_container_restart_period_seconds"`
		Image                            string `json:"image"`
		Runs                             []struct {
			RunSeconds int64  `json:"run_seconds"`
			Image      string `json:"image"`
		} `json:"runs"`
	}
	var w struct {
		InitialBackoffSeconds int64   `json:"initial_backoff_seconds"`
		MaxBackoffSeconds     int64   `json:"max_backoff_seconds"`
		RestartDelays         []int64 `json:"restart_delays"`
		BackoffAfterRestart   []int64 `json:"backoff_after_restart"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	var b lifecycle.Backoff
	if in.MaxContainerRestartPeriodSeconds != nil {
		b.MaxContainerRestartPeriod = time.Duration(*in.MaxContainerRestartPeriodSeconds) * time.Second
	}
	if got := int64(b.Initial() / time.Second); got != w.InitialBackoffSeconds {
		return Mismatch("initial_backoff_seconds", w.InitialBackoffSeconds, got)
	}
	if got := int64(b.Max() / time.Second); got != w.MaxBackoffSeconds {
		return Mismatch("max_backoff_seconds", w.MaxBackoffSeconds, got)
	}

	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "crashy", Namespace: "default", UID: "uid-1"}}
	keyFor := func(image string) string {
		return lifecycle.BackoffKey(pod, &api.Container{Name: "app", Image: image})
	}
	// The kubelet syncs once a second; the first run starts at t0.
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	image := in.Image
	var h lifecycle.RestartHistory
	var delays, after []int64
	start := t0
	for k, r := range in.Runs {
		if r.Image != "" {
			image = r.Image
		}
		finish := start.Add(time.Duration(r.RunSeconds) * time.Second)
		h.Runs = append(h.Runs, lifecycle.Run{Key: keyFor(image), StartedAt: start, FinishedAt: finish})
		// The spec the next restart uses: the next run's image, or the
		// same spec after the last run.
		nextImage := image
		if k+1 < len(in.Runs) && in.Runs[k+1].Image != "" {
			nextImage = in.Runs[k+1].Image
		}
		h.Key = keyFor(nextImage)
		now := finish
		var d lifecycle.BackoffDecision
		for {
			var err error
			d, err = b.NextRestart(h, now)
			if err != nil {
				return err
			}
			if d.Allowed {
				break
			}
			if now.Sub(finish) > 24*time.Hour {
				return fmt.Errorf("run %d: never allowed to restart: %s", k, d.Message)
			}
			now = now.Add(time.Second)
		}
		delays = append(delays, int64(now.Sub(finish)/time.Second))
		after = append(after, int64(d.Entry.Delay/time.Second))
		start = now
	}
	if !equalInts(delays, w.RestartDelays) {
		return Mismatch("restart_delays", w.RestartDelays, delays)
	}
	if !equalInts(after, w.BackoffAfterRestart) {
		return Mismatch("backoff_after_restart", w.BackoffAfterRestart, after)
	}
	return nil
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func runLifecycleDisplay(input, want json.RawMessage) error {
	var in struct {
		Now time.Time `json:"now"`
		Pod api.Pod   `json:"pod"`
	}
	var w struct {
		Ready    string `json:"ready"`
		Status   string `json:"status"`
		Restarts string `json:"restarts"`
		Age      string `json:"age"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	got := lifecycle.DisplayStatus(&in.Pod, in.Now)
	if got.Ready != w.Ready || got.Status != w.Status || got.Restarts != w.Restarts || got.Age != w.Age {
		return Mismatch("row", w, got)
	}
	return nil
}
