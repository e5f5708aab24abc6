package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

func init() {
	register("kubelet.node-shutdown", runNodeShutdown)
}

func runNodeShutdown(input, want json.RawMessage) error {
	var in struct {
		ShutdownGracePeriod              int64                                          `json:"shutdownGracePeriod"`
		ShutdownGracePeriodCriticalPods  int64                                          `json:"shutdownGracePeriodCriticalPods"`
		ShutdownGracePeriodByPodPriority []termination.ShutdownGracePeriodByPodPriority `json:"shutdownGracePeriodByPodPriority"`
		Pods                             []api.Pod                                      `json:"pods"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	type group struct {
		Priority                   int32    `json:"priority"`
		ShutdownGracePeriodSeconds int64    `json:"shutdownGracePeriodSeconds"`
		Pods                       []string `json:"pods"`
	}
	type kill struct {
		Pod                string         `json:"pod"`
		Group              int            `json:"group"`
		GracePeriodSeconds int64          `json:"gracePeriodSeconds"`
		Status             wantKillStatus `json:"status"`
	}
	var w struct {
		Disabled bool    `json:"disabled"`
		Groups   []group `json:"groups"`
		Pods     []kill  `json:"pods"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	cfg := termination.ShutdownConfig{
		GracePeriod:             time.Duration(in.ShutdownGracePeriod) * time.Second,
		GracePeriodCriticalPods: time.Duration(in.ShutdownGracePeriodCriticalPods) * time.Second,
		ByPodPriority:           in.ShutdownGracePeriodByPodPriority,
	}
	tl, err := termination.BuildShutdownTimeline(pods, cfg, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		return err
	}
	if tl.Disabled != w.Disabled {
		return Mismatch("disabled", w.Disabled, tl.Disabled)
	}
	var groups []group
	for _, g := range tl.Groups {
		names := []string{}
		for _, p := range g.Pods {
			names = append(names, p.Name)
		}
		groups = append(groups, group{Priority: g.Priority, ShutdownGracePeriodSeconds: g.GracePeriodSeconds, Pods: names})
	}
	for i := range w.Groups {
		if w.Groups[i].Pods == nil {
			w.Groups[i].Pods = []string{}
		}
	}
	if !slices.EqualFunc(w.Groups, groups, func(a, b group) bool {
		return a.Priority == b.Priority && a.ShutdownGracePeriodSeconds == b.ShutdownGracePeriodSeconds && slices.Equal(a.Pods, b.Pods)
	}) {
		return Mismatch("groups", w.Groups, groups)
	}
	var kills []kill
	for _, k := range tl.Pods {
		kills = append(kills, kill{Pod: k.Pod.Name, Group: k.Group, GracePeriodSeconds: k.GracePeriodSeconds, Status: killStatusOf(k.Status)})
	}
	if !slices.Equal(w.Pods, kills) {
		return Mismatch("pods", w.Pods, kills)
	}
	return nil
}
