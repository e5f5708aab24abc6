package scheduling

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
)

// Explanation answers "why is my pod Pending?" for one pod over the
// snapshot: for every node, every filter plugin that rejects it (not only
// the first, which is where kube-scheduler stops) with upstream's reasons
// and numbers; the score breakdown of the nodes that pass; and the event
// message kube-scheduler would record ("0/3 nodes are available: ...").
type Explanation struct {
	// Pod is the pod's namespace/name.
	Pod string
	// PreFilter holds the PreFilter status of each plugin, in plugin order.
	PreFilter []Status
	// Nodes has one entry per node, in index order.
	Nodes []NodeExplanation
	// Scores are the feasible nodes' scores, best first (ties by name).
	Scores []NodeScore
	// PreScore holds the PreScore status of each score plugin.
	PreScore []Status
	// Message is kube-scheduler's FitError message when no node fits, ""
	// otherwise.
	Message string
}

// NodeExplanation is one node's verdict.
type NodeExplanation struct {
	Node string
	// Status is the node's verdict in the Decision: Success or the first
	// rejection.
	Status Status
	// Rejections lists every plugin that rejects the node, in plugin
	// order (each plugin run on its own).
	Rejections []Status
	// Spread holds, for each DoNotSchedule topology spread constraint of
	// the pod, the node's domain and skew (nil without such constraints,
	// or when PodTopologySpread's PreFilter did not succeed).
	Spread []SpreadSkew
}

// Fits reports whether the node passes every filter.
func (e NodeExplanation) Fits() bool { return e.Status.Code == Success }

// Explain evaluates the cycle's pod on every node and explains the
// outcome (see Explanation). It is Decide plus, for every node, each
// plugin's verdict on its own. A node a PreFilter's node subset left out
// has that status ("node(s) didn't satisfy plugin(s) [NodeAffinity]") as
// its Status, and NodeAffinity's own verdict among its Rejections. A nil
// Cycle gives nil.
func (cy *Cycle) Explain() *Explanation {
	if cy == nil {
		return nil
	}
	var d Decision
	cy.Decide(&d)
	e := &Explanation{Pod: cy.pod.key, PreFilter: d.PreFilter(), PreScore: d.PreScore(), Message: d.Message()}
	e.Nodes = make([]NodeExplanation, len(cy.c.nodes))
	for i, n := range cy.c.nodes {
		ne := NodeExplanation{Node: n.name, Status: d.Status(i), Spread: cy.spreadSkews(i)}
		for _, st := range d.preFilter {
			if !st.IsSuccess() {
				ne.Rejections = append(ne.Rejections, st)
			}
		}
		nom := cy.nominatedFor(n)
		for _, p := range cy.active {
			if st := cy.evaluate([]cyclePlugin{p}, &nodeView{info: n}, nom); !st.IsSuccess() {
				ne.Rejections = append(ne.Rejections, st)
			}
		}
		e.Nodes[i] = ne
	}
	e.Scores = d.Scores(nil)
	sort.SliceStable(e.Scores, func(i, j int) bool {
		if e.Scores[i].Total != e.Scores[j].Total {
			return e.Scores[i].Total > e.Scores[j].Total
		}
		return e.Scores[i].Node < e.Scores[j].Node
	})
	return e
}

// String renders the explanation as a table: one line per node with its
// verdict and every rejecting plugin's reasons and numbers, then the
// scores of the feasible nodes ("" for a nil Explanation).
func (e *Explanation) String() string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pod %s\n", e.Pod)
	width := len("NODE")
	for _, n := range e.Nodes {
		width = max(width, len(n.Node))
	}
	fmt.Fprintf(&b, "%-*s  %-5s  %s\n", width, "NODE", "FITS", "WHY NOT")
	for _, n := range e.Nodes {
		fits := "yes"
		if !n.Fits() {
			fits = "no"
		}
		why := make([]string, 0, len(n.Rejections))
		for _, st := range n.Rejections {
			why = append(why, describeRejection(st))
		}
		fmt.Fprintf(&b, "%-*s  %-5s  %s\n", width, n.Node, fits, strings.Join(why, "; "))
	}
	if len(e.Scores) > 0 {
		b.WriteString("scores (best first):\n")
		for _, s := range e.Scores {
			b.WriteString("  ")
			b.WriteString(s.String())
			b.WriteByte('\n')
		}
	}
	if e.Message != "" {
		b.WriteString(e.Message)
		b.WriteByte('\n')
	}
	return b.String()
}

// describeRejection renders one plugin's rejection with its numbers.
func describeRejection(st Status) string {
	var parts []string
	if len(st.Insufficient) > 0 {
		for _, r := range st.Insufficient {
			parts = append(parts, fmt.Sprintf("%s (requested %s, used %s, allocatable %s)", r.Reason,
				formatAmount(r.Resource, r.Requested), formatAmount(r.Resource, r.Used), formatAmount(r.Resource, r.Capacity)))
		}
	} else {
		parts = append(parts, st.Reasons...)
	}
	if st.Err != nil {
		parts = append(parts, st.Err.Error())
	}
	if st.Plugin == "" {
		return fmt.Sprintf("[%s]: %s", st.Code, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s [%s]: %s", st.Plugin, st.Code, strings.Join(parts, ", "))
}

// formatAmount renders an amount in the scheduler's units as a quantity:
// milli-cpu as cpu, bytes with binary suffixes, counts as numbers.
func formatAmount(resource string, v int64) string {
	switch name := api.ResourceName(resource); {
	case name == api.ResourceCPU:
		return api.NewMilliQuantity(v, api.DecimalSI).String()
	case name == api.ResourceMemory || name == api.ResourceEphemeralStorage || name.IsHugePages():
		return api.NewQuantity(v, api.BinarySI).String()
	}
	return api.NewQuantity(v, api.DecimalSI).String()
}
