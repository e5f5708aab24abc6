package preemption_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
)

// Preemption relies on the snapshot's what-if views for every filter that
// evicting pods can satisfy; these cases exercise each such plugin.
func TestPreemptThroughFilters(t *testing.T) {
	withPort := func(p *api.Pod, port int32) *api.Pod {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: port, HostPort: port}}
		return p
	}
	antiAffinity := func(p *api.Pod, app string) *api.Pod {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}},
				TopologyKey:   api.LabelHostname,
			}}}}
		return p
	}
	affinity := func(p *api.Pod, app string) *api.Pod {
		p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}},
				TopologyKey:   api.LabelHostname,
			}}}}
		return p
	}
	zoned := func(name, zone string) *api.Node {
		n := node(name, "8", "8Gi")
		n.Labels[api.LabelTopologyZone] = zone
		return n
	}
	spread := func(p *api.Pod) *api.Pod {
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "web"}},
		}}
		return p
	}
	web := func(p *api.Pod) *api.Pod { p.Labels["tier"] = "web"; return p }

	tests := []struct {
		name  string
		nodes []*api.Node
		pods  []*api.Pod
		pod   *api.Pod
		want  want
	}{{
		name:  "a host port held by a lower-priority pod",
		nodes: []*api.Node{node("node-1", "8", "8Gi")},
		pods:  []*api.Pod{withPort(bound("proxy", "node-1", "100m", 0, 1), 8080), bound("other", "node-1", "100m", 0, 2)},
		pod:   withPort(pending("high", "100m", 1000), 8080),
		want:  want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"proxy"}, deleted: []string{"proxy"}},
	}, {
		name:  "a lower-priority pod whose anti-affinity repels the preemptor",
		nodes: []*api.Node{node("node-1", "8", "8Gi")},
		pods:  []*api.Pod{antiAffinity(bound("loner", "node-1", "100m", 0, 1), "high"), bound("other", "node-1", "100m", 0, 2)},
		pod:   pending("high", "100m", 1000),
		want:  want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"loner"}, deleted: []string{"loner"}},
	}, {
		name:  "the preemptor's anti-affinity to a lower-priority pod",
		nodes: []*api.Node{node("node-1", "8", "8Gi")},
		pods:  []*api.Pod{bound("rival", "node-1", "100m", 0, 1), bound("other", "node-1", "100m", 0, 2)},
		pod:   antiAffinity(pending("high", "100m", 1000), "rival"),
		want:  want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"rival"}, deleted: []string{"rival"}},
	}, {
		name:  "required affinity that only a lower-priority pod satisfies makes the node unhelpful",
		nodes: []*api.Node{node("node-1", "1", "8Gi"), node("node-2", "1", "8Gi")},
		pods:  []*api.Pod{bound("friend", "node-1", "1", 0, 1), bound("filler", "node-2", "1", 0, 1), bound("friend-2", "node-2", "0", 5000, 1)},
		pod:   affinity(pending("high", "500m", 1000), "friend"),
		want: want{nomination: preemption.NominationClear,
			message: "preemption: 0/2 nodes are available: 2 node(s) didn't match pod affinity rules."},
	}, {
		name:  "topology spread: evicting a lower-priority pod of the crowded zone",
		nodes: []*api.Node{zoned("node-a", "zone-a"), zoned("node-b", "zone-b")},
		pods: []*api.Pod{web(bound("web-a1", "node-a", "100m", 0, 1)), web(bound("web-a2", "node-a", "100m", 0, 2)),
			web(bound("web-b1", "node-b", "100m", 5000, 1)), bound("cordon-b", "node-b", "8", 5000, 1)},
		pod: spread(web(pending("web-new", "100m", 1000))),
		want: want{nomination: preemption.NominationSet, node: "node-a", victims: []string{"web-a2"}, deleted: []string{"web-a2"},
			candidates: map[string]int{"node-a": 0}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, preempt(cluster(tt.nodes, tt.pods...), tt.pod, nil, preemption.Config{}, time.Time{}), tt.want)
		})
	}
}
