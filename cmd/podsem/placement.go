package main

// The scheduling and preemption section lives in this one file, written
// against scheduling's API (NewCluster, AddObjects, NewCycle, Explain,
// Scheduler.ScheduleOne) and preemption.Preempt, so that a change of that
// API is made here only.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// placement is kube-scheduler's answer for one pod over the nodes read.
type placement struct {
	err         error
	explanation *scheduling.Explanation
	best        string // the node the pod would be bound to, "" when none fits
	preempt     *preemption.Result
	chosen      string // best, or the node nominated after preemption
	zones       []zone
	noNodes     bool // no node was read
}

// noNodesText says what kube-scheduler does with a pod when the cluster
// has no node.
const noNodesText = "no node was read, so kube-scheduler has no node to try: its cycle fails with \"no nodes available to schedule pods\" (no \"0/N nodes are available: ...\" list of reasons, as no node was there to refuse the pod), and the pod stays Pending, its PodScheduled condition False, until a node joins; give the nodes (kubectl get nodes -o yaml) in the same file or with --cluster to see where it would go"

// messageText is the scheduler's FailedScheduling message, explained when
// there is nothing after its colon (no node to give a reason).
func messageText(msg string) string {
	if strings.HasSuffix(msg, ":") || strings.HasSuffix(msg, ": ") {
		return strings.TrimSpace(msg) + " (nothing after the colon: no node was there to refuse the pod; with no node at all kube-scheduler reports \"no nodes available to schedule pods\")"
	}
	return msg
}

// zone groups the nodes of one topology.kubernetes.io/zone value ("" for
// nodes without the label), sorted by name.
type zone struct {
	name  string
	nodes []nodeFit
}

// nodeFit is one node's row of the fit table.
type nodeFit struct {
	node   string
	fits   bool
	why    []string // every rejecting plugin, "Plugin: reason"
	spread string   // the PodTopologySpread verdict: "ok", its reason, or "" without constraints
	skew   []string // per DoNotSchedule constraint: "zone=eu-1a skew 2/1", the skew if placed over maxSkew
	score  int64
	scored bool
	victim []string // pods preemption would evict here
}

// place runs one scheduling cycle for pod over the nodes and the pods
// bound to them (pod itself left out), then, when no node fits, the
// scheduler's preemption with the budgets' current status.
func (w *world) place(pod *api.Pod) *placement {
	pl := &placement{}
	if len(w.nodes) == 0 {
		pl.noNodes = true
		return pl
	}
	c, err := w.cluster()
	if err != nil {
		pl.err = err
		return pl
	}
	// The pod itself is left out of the cluster it is placed in, and put
	// back afterwards.
	for _, p := range w.pods {
		if p.Spec.NodeName != "" && p.Namespace == pod.Namespace && p.Name == pod.Name {
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				defer c.AddPod(p)
			}
			break
		}
	}
	cy := c.NewCycle(pod)
	// kube-scheduler's own decision: its node walk from the first node,
	// the adaptive share of nodes to score, the heap's pick.
	var s scheduling.Scheduler
	var d scheduling.Decision
	if _, err := s.ScheduleOne(cy, &d); err != nil {
		pl.err = err
		return pl
	}
	pl.explanation = cy.Explain()
	if i, ok := d.Chosen(); ok {
		pl.best = c.NodeAt(i).Name()
		pl.chosen = pl.best
	} else {
		r := preemption.Preempt(cy, &d, w.budgetPointers(), preemption.Config{}, w.now)
		pl.preempt = &r
		if r.Err == nil && r.Node != "" {
			pl.chosen = r.Node
		}
	}
	pl.zones = fitTable(pl, c, len(pod.Spec.TopologySpreadConstraints) > 0)
	return pl
}

// maxSequence bounds how many of a workload's pods placeSequence
// schedules: enough to see a spread, few enough to stay quick.
const maxSequence = 100

// placeSequence schedules a workload's new pods one after another, as
// kube-scheduler takes them from its queue: each bound to the node chosen
// and seen by the next (resources, spread, anti-affinity), with one
// scheduler whose node walk carries over between cycles. It returns the
// node of each pod placed and, when one fits nowhere, the scheduler's
// message for it: placement stops there (its preemption is not played).
// The pods are the pods as stored, with distinct names.
func (w *world) placeSequence(pods []*api.Pod) (nodes []string, stuck string, err error) {
	c, err := w.newCluster()
	if err != nil {
		return nil, "", err
	}
	var s scheduling.Scheduler
	for _, p := range pods {
		var d scheduling.Decision
		cy := c.NewCycle(p)
		if _, err := s.ScheduleOne(cy, &d); err != nil {
			return nodes, "", err
		}
		i, ok := d.Chosen()
		if !ok {
			return nodes, messageText(cy.Explain().Message), nil
		}
		name := c.NodeAt(i).Name()
		bound := deepCopy(p)
		bound.Spec.NodeName = name
		if err := c.AddPod(bound); err != nil {
			return nodes, "", err
		}
		nodes = append(nodes, name)
	}
	return nodes, "", nil
}

// cluster is the scheduler's view of the objects read: the nodes, the
// pods bound to them, namespaces, spread workloads and storage. It is
// built once and kept: indexing every bound pod again for each pod
// explained would make a large cluster's dump quadratic.
func (w *world) cluster() (*scheduling.Cluster, error) {
	if w.sched != nil || w.schedErr != nil {
		return w.sched, w.schedErr
	}
	w.sched, w.schedErr = w.newCluster()
	return w.sched, w.schedErr
}

func (w *world) newCluster() (*scheduling.Cluster, error) {
	var bound []*api.Pod
	for _, p := range w.pods {
		if p.Spec.NodeName != "" {
			bound = append(bound, p)
		}
	}
	c, err := scheduling.NewCluster(w.nodes, bound, scheduling.Config{})
	if err != nil {
		return nil, err
	}
	for _, ns := range w.namespaces {
		if err := c.SetNamespace(ns); err != nil {
			return nil, err
		}
	}
	c.SetSpreadWorkloads(w.workloads)
	if err := c.AddObjects(w.storage...); err != nil {
		return nil, err
	}
	return c, nil
}

// fitTable groups the explanation's nodes by zone.
func fitTable(pl *placement, c *scheduling.Cluster, hasSpread bool) []zone {
	byZone := map[string][]nodeFit{}
	scores := map[string]int64{}
	for _, s := range pl.explanation.Scores {
		scores[s.Node] = s.Total
	}
	victims := map[string][]string{}
	if pl.preempt != nil && pl.preempt.Node != "" {
		for _, v := range pl.preempt.Victims {
			victims[pl.preempt.Node] = append(victims[pl.preempt.Node], v.Namespace+"/"+v.Name)
		}
	}
	for _, ne := range pl.explanation.Nodes {
		nf := nodeFit{node: ne.Node, fits: ne.Fits(), victim: victims[ne.Node]}
		if hasSpread {
			nf.spread = "ok"
		}
		for _, st := range ne.Rejections {
			reason := strings.Join(st.Reasons, ", ")
			nf.why = append(nf.why, st.Plugin+": "+reason)
			if st.Plugin == scheduling.PluginPodTopologySpread {
				nf.spread = reason
			}
		}
		for _, sk := range ne.Spread {
			if sk.Missing {
				nf.skew = append(nf.skew, sk.TopologyKey+" missing")
				continue
			}
			nf.skew = append(nf.skew, fmt.Sprintf("%s=%s skew %d/%d", sk.TopologyKey, sk.Domain, sk.Skew, sk.MaxSkew))
		}
		nf.score, nf.scored = scores[ne.Node]
		z := ""
		if n := c.NodeByName(ne.Node); n != nil {
			z = n.Node().Labels[api.LabelTopologyZone]
		}
		byZone[z] = append(byZone[z], nf)
	}
	var out []zone
	for name, nodes := range byZone {
		sort.Slice(nodes, func(i, j int) bool { return nodes[i].node < nodes[j].node })
		out = append(out, zone{name: name, nodes: nodes})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// writePlacement prints the scheduling section as text.
func writePlacement(b *strings.Builder, pl *placement, pod *api.Pod) {
	if pl.noNodes {
		fmt.Fprintf(b, "  %s\n", noNodesText)
		return
	}
	if pl.err != nil {
		fmt.Fprintf(b, "  the nodes could not be indexed: %v\n", pl.err)
		return
	}
	if pod.Spec.NodeName != "" {
		fmt.Fprintf(b, "  bound to %s; the scheduler's filters for it there, the pod itself left out:\n", pod.Spec.NodeName)
	}
	for _, z := range pl.zones {
		name := z.name
		if name == "" {
			name = "(no zone label)"
		}
		fmt.Fprintf(b, "  zone %s\n", name)
		for _, n := range z.nodes {
			verdict := "fits"
			if !n.fits {
				verdict = "no"
			}
			line := fmt.Sprintf("    %-10s %-4s", n.node, verdict)
			if n.scored {
				line += fmt.Sprintf(" score %d", n.score)
			}
			if len(n.skew) > 0 {
				line += "  [" + strings.Join(n.skew, ", ") + "]"
			}
			if len(n.why) > 0 {
				line += "  " + strings.Join(n.why, "; ")
			}
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	switch {
	case pl.best != "":
		fmt.Fprintf(b, "  => would be bound to %s\n", pl.best)
	case pl.explanation.Message != "":
		fmt.Fprintf(b, "  => %s\n", messageText(pl.explanation.Message))
	}
	if pl.preempt == nil {
		return
	}
	r := pl.preempt
	b.WriteString("  preemption (kube-scheduler's DefaultPreemption):\n")
	switch {
	case r.Err != nil:
		fmt.Fprintf(b, "    %v\n", r.Err)
	case !r.Eligible:
		fmt.Fprintf(b, "    not eligible: %s\n", r.Message)
	case r.Node == "":
		fmt.Fprintf(b, "    no node can be freed: %s\n", messageText(r.Message))
	default:
		vs := make([]string, 0, len(r.Victims))
		for _, v := range r.Victims {
			vs = append(vs, fmt.Sprintf("%s/%s (priority %d)", v.Namespace, v.Name, api.PodPriority(v)))
		}
		fmt.Fprintf(b, "    nominate %s, evicting %s; %d PodDisruptionBudget violation(s)\n", r.Node, strings.Join(vs, ", "), r.PDBViolations)
		for _, c := range r.Candidates {
			fmt.Fprintf(b, "    candidate %s: %d victim(s), %d violation(s)\n", c.Node, len(c.Victims), c.PDBViolations)
		}
	}
}
