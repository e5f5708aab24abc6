package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/cluster"
)

// This file draws a simulation's timeline as a Mermaid Gantt chart, from
// the event log alone (the watch records' summaries say where each pod
// is and whether it is terminating, and each node's readiness and
// cordon), so that a log recorded on a real control plane by the e2e
// harness could be drawn the same way.
//
// The chart runs from t=0 to until, in milliseconds since t=0 (state from
// before t=0, such as the pods bound during setup, starts at 0):
//
//   - a section per node, in name order: "not ready" spans (crit) while
//     its Ready condition is not True, "cordoned" spans (done) while it is
//     unschedulable, "node deleted" as a milestone, and a bar per pod's
//     stay on it, from its binding to its deletion (active), the part after
//     its deletion was requested drawn apart as "NAME terminating" (done);
//   - "unscheduled": a bar per pod from its creation to its binding or
//     deletion, while it has no node (crit);
//   - "actions": a milestone per scenario action (a refused one crit);
//   - "events": a milestone for the first of each (reason, object) among
//     the key records — every Warning, and NodeNotReady, RemovingNode,
//     TaintAdded, TaintManagerEviction, Preempted, PodGCForceDeleted,
//     Drained — with "×N" when it came N times.

// keyReasons are the Normal records drawn as event milestones.
var keyReasons = map[string]bool{
	"NodeNotReady": true, "RemovingNode": true, "TaintAdded": true, "TaintManagerEviction": true,
	"Preempted": true, "PodGCForceDeleted": true, "Drained": true,
}

// ganttTask is one line of the chart: a bar or a milestone (end < 0).
type ganttTask struct {
	label, tags string
	start, end  int64 // milliseconds since t=0
}

// gantt collects the chart's tasks by section while the log is replayed.
type gantt struct {
	end      int64
	nodes    map[string]*ganttNode
	pods     map[string]*ganttPod
	sections map[string][]ganttTask
	actions  []ganttTask
	events   []ganttTask
	counted  map[string]int // reason+object → index in events
	counts   []int
}

type ganttNode struct {
	summary                 map[string]string
	notReadySince, cordoned int64 // -1: ready, not cordoned
}

type ganttPod struct {
	summary  map[string]string
	node     string
	since    int64
	deleting int64 // -1: not terminating
}

// ms is a record's offset in milliseconds, before t=0 taken as t=0.
func ms(offset float64) int64 {
	return max(0, int64(math.Round(offset*1000)))
}

// writeGantt writes the scenario's timeline as Markdown holding the
// Mermaid Gantt chart described above.
func writeGantt(w io.Writer, name string, sc *cluster.Scenario, res cluster.Result, runErr error) {
	g := &gantt{nodes: map[string]*ganttNode{}, pods: map[string]*ganttPod{}, sections: map[string][]ganttTask{}, counted: map[string]int{}}
	g.end = sc.Until.Milliseconds()
	if runErr != nil && len(res.Records) > 0 {
		g.end = ms(res.Records[len(res.Records)-1].Offset)
	}
	for _, r := range res.Setup {
		g.record(r)
	}
	for _, r := range res.Records {
		g.record(r)
	}
	g.closeAll()

	var b strings.Builder
	fmt.Fprintf(&b, "# simulate %s\n\n", mdEscape(name))
	fmt.Fprintf(&b, "%s.\n\n", mdEscape(strings.TrimPrefix(header(name, sc, res, runStart(res)), "simulate "+name+": ")))
	b.WriteString("```mermaid\ngantt\n    dateFormat x\n")
	if sc.Until >= time.Hour {
		b.WriteString("    axisFormat %H:%M\n")
	} else {
		b.WriteString("    axisFormat %M:%S\n")
	}
	b.WriteString("    todayMarker off\n")
	var nodes []string
	for n := range g.sections {
		if n != "" {
			nodes = append(nodes, n)
		}
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		writeSection(&b, "node "+n, g.sections[n])
	}
	writeSection(&b, "unscheduled", g.sections[""])
	writeSection(&b, "actions", g.actions)
	for i := range g.events {
		if c := g.counts[i]; c > 1 {
			g.events[i].label += fmt.Sprintf(" ×%d", c)
		}
	}
	writeSection(&b, "events", g.events)
	b.WriteString("```\n\n")
	if runErr != nil {
		fmt.Fprintf(&b, "> the run stopped: %s\n\n", mdEscape(runErr.Error()))
	}
	io.WriteString(w, b.String())
}

// writeSection writes a section's tasks by start time (stable).
func writeSection(b *strings.Builder, title string, tasks []ganttTask) {
	if len(tasks) == 0 {
		return
	}
	slices.SortStableFunc(tasks, func(x, y ganttTask) int { return cmp.Compare(x.start, y.start) })
	fmt.Fprintf(b, "    section %s\n", mmText(title))
	for _, t := range tasks {
		tags := t.tags
		if tags != "" {
			tags += ", "
		}
		if t.end < 0 {
			fmt.Fprintf(b, "    %s :%smilestone, %d, 0ms\n", mmText(t.label), tags, t.start)
			continue
		}
		fmt.Fprintf(b, "    %s :%s%d, %dms\n", mmText(t.label), tags, t.start, t.end-t.start)
	}
}

// record replays one record.
func (g *gantt) record(r cluster.Record) {
	t := ms(r.Offset)
	switch {
	case r.Source == cluster.SourceWatch && strings.HasPrefix(r.Object, "Node/"):
		g.node(strings.TrimPrefix(r.Object, "Node/"), r, t)
	case r.Source == cluster.SourceWatch && strings.HasPrefix(r.Object, "Pod/"):
		g.pod(strings.TrimPrefix(r.Object, "Pod/"), r, t)
	case r.Source == cluster.SourceWatch:
	case r.Source == cluster.SourceScenario && r.Reason == "Action":
		g.actions = append(g.actions, ganttTask{label: r.Message, start: t, end: -1})
	case r.Source == cluster.SourceScenario && r.Reason == "ActionFailed":
		g.actions = append(g.actions, ganttTask{label: "refused " + r.Message, tags: "crit", start: t, end: -1})
	case r.Type == "Warning" || keyReasons[r.Reason]:
		if r.Offset < 0 {
			return
		}
		key := r.Reason + " " + r.Object
		if i, ok := g.counted[key]; ok {
			g.counts[i]++
			return
		}
		tags := ""
		if r.Type == "Warning" {
			tags = "crit"
		}
		g.counted[key] = len(g.events)
		g.events = append(g.events, ganttTask{label: strings.TrimSpace(key), tags: tags, start: t, end: -1})
		g.counts = append(g.counts, 1)
	}
}

// apply updates a watched object's summary with a watch record: an
// ADDED or DELETED record holds the summary ("k=v k=v"), a MODIFIED one
// its changes ("k: old -> new; ..."; ∅ for a field gone).
func apply(summary map[string]string, r cluster.Record) map[string]string {
	if r.Type != "MODIFIED" || summary == nil {
		summary = map[string]string{}
		for _, f := range strings.Fields(r.Message) {
			k, v, _ := strings.Cut(f, "=")
			summary[k] = v
		}
		return summary
	}
	for _, c := range strings.Split(r.Message, "; ") {
		k, change, ok := strings.Cut(c, ": ")
		if !ok {
			continue
		}
		_, v, ok := strings.Cut(change, " -> ")
		if !ok {
			continue
		}
		if v == "∅" {
			delete(summary, k)
		} else {
			summary[k] = v
		}
	}
	return summary
}

func (g *gantt) node(name string, r cluster.Record, t int64) {
	n := g.nodes[name]
	if n == nil {
		n = &ganttNode{notReadySince: -1, cordoned: -1}
		g.nodes[name] = n
	}
	if _, ok := g.sections[name]; !ok {
		g.sections[name] = nil
	}
	n.summary = apply(n.summary, r)
	if r.Type == "DELETED" {
		g.closeNode(name, n, t)
		g.sections[name] = append(g.sections[name], ganttTask{label: "node deleted", tags: "crit", start: t, end: -1})
		delete(g.nodes, name)
		return
	}
	ready := strings.HasPrefix(n.summary["ready"], "True")
	switch {
	case !ready && n.notReadySince < 0:
		n.notReadySince = t
	case ready && n.notReadySince >= 0:
		g.bar(name, "not ready", "crit", n.notReadySince, t)
		n.notReadySince = -1
	}
	cordoned := n.summary["unschedulable"] == "true"
	switch {
	case cordoned && n.cordoned < 0:
		n.cordoned = t
	case !cordoned && n.cordoned >= 0:
		g.bar(name, "cordoned", "done", n.cordoned, t)
		n.cordoned = -1
	}
}

func (g *gantt) closeNode(name string, n *ganttNode, t int64) {
	if n.notReadySince >= 0 {
		g.bar(name, "not ready", "crit", n.notReadySince, t)
	}
	if n.cordoned >= 0 {
		g.bar(name, "cordoned", "done", n.cordoned, t)
	}
}

func (g *gantt) pod(name string, r cluster.Record, t int64) {
	p := g.pods[name]
	if p == nil || r.Type == "ADDED" {
		if p != nil {
			g.closePod(name, p, t)
		}
		p = &ganttPod{since: t, deleting: -1}
		g.pods[name] = p
		p.summary = apply(nil, r)
		p.node = p.summary["node"]
	} else {
		p.summary = apply(p.summary, r)
	}
	if r.Type == "DELETED" {
		g.closePod(name, p, t)
		delete(g.pods, name)
		return
	}
	if node := p.summary["node"]; node != p.node {
		g.closePod(name, p, t)
		p.node, p.since, p.deleting = node, t, -1
	}
	if _, ok := p.summary["deleting"]; ok && p.deleting < 0 {
		p.deleting = t
	}
	if _, ok := g.sections[p.node]; !ok && p.node != "" {
		g.sections[p.node] = nil
	}
}

// closePod ends the pod's current stay (on a node, or unscheduled) at t.
func (g *gantt) closePod(name string, p *ganttPod, t int64) {
	if p.node == "" {
		g.bar("", name, "crit", p.since, t)
		return
	}
	if p.deleting < 0 {
		g.bar(p.node, name, "active", p.since, t)
		return
	}
	g.bar(p.node, name, "active", p.since, p.deleting)
	g.bar(p.node, name+" terminating", "done", p.deleting, t)
}

// bar adds a bar to a section (a node's name, "" for unscheduled), unless
// it is empty.
func (g *gantt) bar(section, label, tags string, start, end int64) {
	if end <= start {
		return
	}
	g.sections[section] = append(g.sections[section], ganttTask{label: label, tags: tags, start: start, end: end})
}

// closeAll ends every open span at the end of the chart.
func (g *gantt) closeAll() {
	names := make([]string, 0, len(g.nodes))
	for n := range g.nodes {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		g.closeNode(n, g.nodes[n], g.end)
	}
	names = names[:0]
	for n := range g.pods {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		g.closePod(n, g.pods[n], g.end)
	}
}
