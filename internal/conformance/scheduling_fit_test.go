package conformance

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

func init() {
	register("scheduling.node-fit", runNodeFit)
	register("scheduling.inter-pod-affinity", runInterPodAffinity)
}

type fitStatusWant struct {
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

func runNodeFit(input, want json.RawMessage) error {
	var in struct {
		Pod  api.Pod   `json:"pod"`
		Node api.Node  `json:"node"`
		Pods []api.Pod `json:"pods"`
	}
	var w struct {
		Fits         bool                     `json:"fits"`
		RejectedBy   []string                 `json:"rejectedBy"`
		Insufficient []string                 `json:"insufficient"`
		Statuses     map[string]fitStatusWant `json:"statuses"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return err
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return err
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	c, err := scheduling.NewCluster([]*api.Node{&in.Node}, pods, scheduling.Config{Plugins: []string{
		scheduling.PluginNodeUnschedulable, scheduling.PluginNodeName, scheduling.PluginTaintToleration,
		scheduling.PluginNodeAffinity, scheduling.PluginNodePorts, scheduling.PluginNodeResourcesFit,
	}})
	if err != nil {
		return err
	}
	e := c.NewCycle(&in.Pod).Explain()
	if e == nil || len(e.Nodes) != 1 {
		return fmt.Errorf("the explanation covers %v, want the one node", e)
	}
	ne := e.Nodes[0]
	var rejectedBy, insufficient []string
	statuses := map[string]fitStatusWant{}
	for _, st := range ne.Rejections {
		rejectedBy = append(rejectedBy, st.Plugin)
		reasons := append([]string(nil), st.Reasons...)
		sort.Strings(reasons)
		statuses[st.Plugin] = fitStatusWant{Code: st.Code.String(), Reasons: reasons}
		for _, r := range st.Insufficient {
			insufficient = append(insufficient, r.Resource)
		}
	}
	if ne.Fits() != w.Fits {
		return Mismatch("fits", w.Fits, ne.Fits())
	}
	if !sameSet(w.RejectedBy, rejectedBy) {
		return Mismatch("rejectedBy", w.RejectedBy, rejectedBy)
	}
	if !sameSet(w.Insufficient, insufficient) {
		return Mismatch("insufficient", w.Insufficient, insufficient)
	}
	for plugin, ws := range w.Statuses {
		gs := statuses[plugin]
		if gs.Code != ws.Code || !sameSet(ws.Reasons, gs.Reasons) {
			return Mismatch("statuses."+plugin, ws, gs)
		}
	}
	return nil
}

func runInterPodAffinity(input, want json.RawMessage) error {
	var in struct {
		Pod        api.Pod         `json:"pod"`
		Nodes      []api.Node      `json:"nodes"`
		Pods       []api.Pod       `json:"pods"`
		Namespaces []api.Namespace `json:"namespaces"`
	}
	type filterWant struct {
		Node   string `json:"node"`
		Fits   bool   `json:"fits"`
		Code   string `json:"code"`
		Reason string `json:"reason,omitempty"`
	}
	type scoreWant struct {
		Node  string `json:"node"`
		Score int64  `json:"score"`
	}
	var w struct {
		PreFilter string       `json:"preFilter"`
		Filter    []filterWant `json:"filter"`
		PreScore  string       `json:"preScore"`
		Scores    []scoreWant  `json:"scores"`
		Error     bool         `json:"error"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return err
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return err
	}
	nodes := make([]*api.Node, len(in.Nodes))
	for i := range in.Nodes {
		nodes[i] = &in.Nodes[i]
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{Plugins: []string{scheduling.PluginInterPodAffinity}})
	if err != nil {
		return err
	}
	for i := range in.Namespaces {
		if err := c.SetNamespace(&in.Namespaces[i]); err != nil {
			return err
		}
	}
	var d scheduling.Decision
	c.NewCycle(&in.Pod).Decide(&d)
	preFilter := d.PreFilter()
	if len(preFilter) != 1 {
		return fmt.Errorf("%d PreFilter statuses, want InterPodAffinity's alone", len(preFilter))
	}
	pre := preFilter[0]
	if pre.Code == scheduling.Error {
		if w.Error {
			return nil
		}
		return fmt.Errorf("unexpected error: %v", pre.Err)
	}
	if w.Error {
		return Mismatch("error", true, pre.Code.String())
	}
	if pre.Code.String() != w.PreFilter {
		return Mismatch("preFilter", w.PreFilter, pre.Code.String())
	}
	var gotFilter []filterWant
	for i := range d.NumNodes() {
		st := d.Status(i)
		fw := filterWant{Node: c.NodeAt(i).Name(), Fits: d.Fits(i), Code: st.Code.String()}
		if !d.Fits(i) && len(st.Reasons) > 0 {
			fw.Reason = st.Reasons[0]
		}
		gotFilter = append(gotFilter, fw)
	}
	if len(gotFilter) != len(w.Filter) {
		return Mismatch("filter", w.Filter, gotFilter)
	}
	for i := range gotFilter {
		if gotFilter[i] != w.Filter[i] {
			return Mismatch("filter", w.Filter, gotFilter)
		}
	}
	scores := d.Scores(nil)
	preScore := "NotRun"
	if ps := d.PreScore(); len(ps) > 0 {
		if ps[0].Code == scheduling.Error {
			if w.Error {
				return nil
			}
			return fmt.Errorf("unexpected preScore error: %v", ps[0].Err)
		}
		preScore = ps[0].Code.String()
	}
	if preScore != w.PreScore {
		return Mismatch("preScore", w.PreScore, preScore)
	}
	if preScore != "Success" {
		return nil
	}
	var got []scoreWant
	for _, s := range scores {
		if len(s.Plugins) != 1 {
			return fmt.Errorf("%s: %d plugin scores, want InterPodAffinity's alone", s.Node, len(s.Plugins))
		}
		got = append(got, scoreWant{Node: s.Node, Score: s.Plugins[0].Score})
	}
	if len(got) != len(w.Scores) {
		return Mismatch("scores", w.Scores, got)
	}
	for i := range got {
		if got[i] != w.Scores[i] {
			return Mismatch("scores", w.Scores, got)
		}
	}
	return nil
}
