package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

func init() {
	register("resources.pod-requests", runPodRequests)
	register("scheduling.queue-order", runQueueOrder)
	register("scheduling.topology-spread", runTopologySpread)
}

// runPodRequests: api.PodRequests and PodLimits on one pod, after
// the API server's defaulting when the case says it was applied.
func runPodRequests(input, want json.RawMessage) error {
	var in struct {
		Pod              api.Pod `json:"pod"`
		ApplyAPIDefaults bool    `json:"apply_api_defaults"`
		Options          struct {
			UseStatusResources                             bool             `json:"use_status_resources"`
			InPlacePodLevelResourcesVerticalScalingEnabled bool             `json:"in_place_pod_level_resources_vertical_scaling_enabled"`
			ExcludeOverhead                                bool             `json:"exclude_overhead"`
			NonMissingContainerRequests                    api.ResourceList `json:"non_missing_container_requests"`
			SkipPodLevelResources                          bool             `json:"skip_pod_level_resources"`
			SkipContainerLevelResources                    bool             `json:"skip_container_level_resources"`
			UseDRANodeAllocatableResourceClaimStatus       bool             `json:"use_dra_node_allocatable_resource_claim_status"`
		} `json:"options"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	if in.ApplyAPIDefaults {
		api.DefaultPod(&in.Pod)
	}
	o := in.Options
	opts := api.PodResourcesOptions{
		UseStatusResources: o.UseStatusResources,
		InPlacePodLevelResourcesVerticalScalingEnabled: o.InPlacePodLevelResourcesVerticalScalingEnabled,
		ExcludeOverhead:                          o.ExcludeOverhead,
		NonMissingContainerRequests:              o.NonMissingContainerRequests,
		SkipPodLevelResources:                    o.SkipPodLevelResources,
		SkipContainerLevelResources:              o.SkipContainerLevelResources,
		UseDRANodeAllocatableResourceClaimStatus: o.UseDRANodeAllocatableResourceClaimStatus,
	}
	reqs := ResourceListStrings(api.PodRequests(&in.Pod, opts))
	lims := ResourceListStrings(api.PodLimits(&in.Pod, opts))
	if !EqualResourceLists(w.Requests, reqs) {
		return Mismatch("requests", w.Requests, reqs)
	}
	if !EqualResourceLists(w.Limits, lims) {
		return Mismatch("limits", w.Limits, lims)
	}
	return nil
}

func sameSet(a, b []string) bool {
	set := func(l []string) string {
		m := map[string]bool{}
		for _, s := range l {
			m[s] = true
		}
		var out []string
		for s := range m {
			out = append(out, s)
		}
		sort.Strings(out)
		return strings.Join(out, "|")
	}
	return set(a) == set(b)
}

// runQueueOrder: scheduling.SortQueue; pods the queue cannot tell apart
// (want.ties) may come out in any order among themselves.
func runQueueOrder(input, want json.RawMessage) error {
	var in struct {
		Pods []struct {
			Pod       api.Pod  `json:"pod"`
			Timestamp api.Time `json:"timestamp"`
		} `json:"pods"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Order []string   `json:"order"`
		Ties  [][]string `json:"ties"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	q := make([]scheduling.QueuedPod, len(in.Pods))
	for i := range in.Pods {
		q[i] = scheduling.QueuedPod{Pod: &in.Pods[i].Pod, Timestamp: in.Pods[i].Timestamp.Time}
	}
	scheduling.SortQueue(q)
	got := make([]string, len(q))
	for i, p := range q {
		got[i] = p.Pod.Key()
	}
	// Pods are interchangeable with their tie group: compare group ids.
	group := map[string]string{}
	for _, t := range w.Ties {
		sorted := append([]string{}, t...)
		sort.Strings(sorted)
		for _, k := range t {
			group[k] = strings.Join(sorted, ",")
		}
	}
	id := func(k string) string {
		if g, ok := group[k]; ok {
			return g
		}
		return k
	}
	if len(got) != len(w.Order) {
		return Mismatch("order", w.Order, got)
	}
	for i := range got {
		if id(got[i]) != id(w.Order[i]) {
			return Mismatch("order", w.Order, got)
		}
	}
	// The ties we report are the groups QueueCompare cannot separate.
	var gotTies []string
	for i := 0; i < len(q); {
		j := i + 1
		for j < len(q) && scheduling.QueueCompare(q[i], q[j]) == 0 {
			j++
		}
		if j-i > 1 {
			var g []string
			for _, p := range q[i:j] {
				g = append(g, p.Pod.Key())
			}
			sort.Strings(g)
			gotTies = append(gotTies, strings.Join(g, ","))
		}
		i = j
	}
	var wantTies []string
	for _, t := range w.Ties {
		g := append([]string{}, t...)
		sort.Strings(g)
		wantTies = append(wantTies, strings.Join(g, ","))
	}
	if !sameSet(wantTies, gotTies) {
		return Mismatch("ties", wantTies, gotTies)
	}
	return nil
}

// runTopologySpread: one cycle of a snapshot running PodTopologySpread
// alone, Decide: Filter on every node, then Score on the nodes that
// passed.
func runTopologySpread(input, want json.RawMessage) error {
	var in struct {
		Pod   api.Pod    `json:"pod"`
		Nodes []api.Node `json:"nodes"`
		Pods  []api.Pod  `json:"pods"`
		Args  struct {
			DefaultingType     string                         `json:"defaultingType"`
			DefaultConstraints []api.TopologySpreadConstraint `json:"defaultConstraints"`
		} `json:"args"`
		Services               []*api.Service               `json:"services"`
		ReplicaSets            []*api.ReplicaSet            `json:"replicaSets"`
		StatefulSets           []*api.StatefulSet           `json:"statefulSets"`
		ReplicationControllers []*api.ReplicationController `json:"replicationControllers"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	type nodeFilter struct {
		Node   string `json:"node"`
		Fits   bool   `json:"fits"`
		Code   string `json:"code"`
		Reason string `json:"reason,omitempty"`
	}
	type nodeScore struct {
		Node  string `json:"node"`
		Score int64  `json:"score"`
	}
	var w struct {
		PreFilter string       `json:"preFilter"`
		Filter    []nodeFilter `json:"filter"`
		PreScore  string       `json:"preScore"`
		Scores    []nodeScore  `json:"scores"`
		Error     bool         `json:"error"`
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
	cfg := scheduling.Config{
		Plugins: []string{scheduling.PluginPodTopologySpread},
		Spread:  scheduling.SpreadArgs{DefaultingType: in.Args.DefaultingType, DefaultConstraints: in.Args.DefaultConstraints},
	}
	c, err := scheduling.NewCluster(nodes, pods, cfg)
	if err != nil {
		return fmt.Errorf("building the snapshot: %w", err)
	}
	c.SetSpreadWorkloads(scheduling.SpreadWorkloads{
		Services: in.Services, ReplicaSets: in.ReplicaSets,
		StatefulSets: in.StatefulSets, ReplicationControllers: in.ReplicationControllers,
	})
	var d scheduling.Decision
	c.NewCycle(&in.Pod).Decide(&d)
	preFilter := d.PreFilter()
	if len(preFilter) != 1 {
		return fmt.Errorf("%d PreFilter statuses, want PodTopologySpread's alone", len(preFilter))
	}
	pre := preFilter[0]
	if w.Error {
		// Upstream fails in PreFilter (hard constraints) or PreScore (soft
		// ones); either is an Error status here.
		if pre.Code == scheduling.Error {
			return nil
		}
		if ps := d.PreScore(); len(ps) > 0 && ps[0].Code == scheduling.Error {
			return nil
		}
		return Mismatch("error", true, pre.String())
	}
	if pre.Code.String() != w.PreFilter {
		return Mismatch("preFilter", w.PreFilter, pre.String())
	}
	got := make([]nodeFilter, d.NumNodes())
	for i := range got {
		st := d.Status(i)
		got[i] = nodeFilter{Node: c.NodeAt(i).Name(), Fits: d.Fits(i), Code: st.Code.String()}
		if !d.Fits(i) {
			got[i].Reason = strings.Join(st.Reasons, ", ")
		}
		if st.Code == scheduling.Skip {
			got[i].Code = "Success"
		}
	}
	if diff := SameJSON(toJSONTree(w.Filter), toJSONTree(got), "filter"); diff != "" {
		return Mismatch("filter", w.Filter, got)
	}
	scores := d.Scores(nil)
	preScore := "NotRun"
	if ps := d.PreScore(); len(ps) > 0 {
		if ps[0].Code == scheduling.Error {
			return Mismatch("preScore", w.PreScore, ps[0].String())
		}
		preScore = ps[0].Code.String()
	}
	if preScore != w.PreScore {
		return Mismatch("preScore", w.PreScore, preScore)
	}
	if preScore != "Success" {
		return nil
	}
	gotScores := make([]nodeScore, len(scores))
	for i, s := range scores {
		if len(s.Plugins) != 1 {
			return fmt.Errorf("%s: %d plugin scores, want PodTopologySpread's alone", s.Node, len(s.Plugins))
		}
		gotScores[i] = nodeScore{Node: s.Node, Score: s.Plugins[0].Score}
	}
	if diff := SameJSON(toJSONTree(w.Scores), toJSONTree(gotScores), "scores"); diff != "" {
		return Mismatch("scores", w.Scores, gotScores)
	}
	return nil
}

func toJSONTree(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
