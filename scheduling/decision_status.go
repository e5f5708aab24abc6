package scheduling

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Fits reports whether node index i passed every filter (never for a nil
// Decision).
func (d *Decision) Fits(i int) bool {
	if d == nil || i < 0 || i >= len(d.nodes) {
		return false
	}
	state, _ := d.verdictOf(i)
	return state == nodeFits
}

// Status returns the filters' verdict on node index i: Success, or the
// status of the first plugin that rejected it, as kube-scheduler's
// findNodesThatPassFilters records it (a PreFilter that rejects gives
// every node its status). A node the decision did not evaluate gets the
// framework's status for absent nodes: UnschedulableAndUnresolvable, with
// the reason "node(s) didn't satisfy plugin(s) [...]" when a PreFilter's
// node subset left it out, without reasons when the walk stopped before
// it. An index outside the decision, and a nil Decision, give Success's
// zero Status.
func (d *Decision) Status(i int) Status {
	if d == nil || i < 0 || i >= len(d.nodes) {
		return Status{}
	}
	switch state, k := d.verdictOf(i); state {
	case nodeFits:
		return Status{}
	case nodeRejected:
		return d.rejections[k]
	case nodeLazy:
		return d.lazyStatus(i, k)
	}
	return d.absentStatus()
}

// absentStatus is the status of the nodes not evaluated
// (NodeToStatus.AbsentNodesStatus).
func (d *Decision) absentStatus() Status {
	if d.cy != nil && d.cy.hasSubset {
		return d.cy.absent
	}
	return Status{Code: UnschedulableAndUnresolvable}
}

// Evaluated returns the indexes of the nodes the filters ran on, feasible
// and rejected, in evaluation order (kube-scheduler's EvaluatedNodes); nil
// when a PreFilter rejected the pod. The slice belongs to the decision.
func (d *Decision) Evaluated() []int {
	if d == nil || d.rejectAll {
		return nil
	}
	if !d.evaluatedOK {
		// A sieved walk: the nominated node, then the walk's positions.
		d.evaluated = d.evaluated[:0]
		if d.nomIndex >= 0 {
			d.evaluated = append(d.evaluated, d.nomIndex)
		}
		for p := range d.walkEnd {
			if i := d.walk.index(p); i != d.nomIndex {
				d.evaluated = append(d.evaluated, i)
			}
		}
		d.evaluatedOK = true
	}
	return d.evaluated
}

// Feasible returns the indexes of the nodes that passed every filter, in
// evaluation order (index order for Decide). The slice belongs to the
// decision: read it, do not keep it past the next decision. Nil for a nil
// Decision.
func (d *Decision) Feasible() []int {
	if d == nil {
		return nil
	}
	return d.feasible
}

// NumFeasibleNodesToFind returns how many feasible nodes the decision
// looked for (numFeasibleNodesToFind; every candidate node for Decide); 0
// for a nil Decision.
func (d *Decision) NumFeasibleNodesToFind() int {
	if d == nil {
		return 0
	}
	return d.numToFind
}

// NominatedNodeFirst reports whether the pod's status.nominatedNodeName
// passed the filters and was taken as the only feasible node without
// walking the others, as findNodesThatFitPod does after a preemption
// (false for a nil Decision).
func (d *Decision) NominatedNodeFirst() bool { return d != nil && d.nominatedFirst }

// PreFilterNodeSubset reports whether a PreFilter narrowed the nodes the
// filters ran on (NodeAffinity's matchFields on metadata.name, as every
// DaemonSet pod carries); the other nodes have AbsentNodesStatus. False
// for a nil Decision.
func (d *Decision) PreFilterNodeSubset() bool { return d != nil && d.cy != nil && d.cy.hasSubset }

// AbsentNodesStatus returns the status of the nodes the decision did not
// evaluate (see Status); the zero Status for a nil Decision.
func (d *Decision) AbsentNodesStatus() Status {
	if d == nil {
		return Status{}
	}
	return d.absentStatus()
}

// UnschedulablePlugins returns, sorted, the plugins that rejected the pod
// somewhere (the FitError's Diagnosis.UnschedulablePlugins, which decides
// which cluster events requeue it): the PreFilter that rejected it, or the
// plugins that narrowed the nodes and every filter that rejected an
// evaluated node. Nil when nothing rejected it.
func (d *Decision) UnschedulablePlugins() []string {
	if d == nil || d.cy == nil {
		return nil
	}
	set := map[string]bool{}
	if d.rejectAll {
		st := d.cy.rejectAll
		if st.Plugin == "" || st.Code == Unschedulable {
			for _, p := range d.cy.subsetPlugins {
				set[p] = true
			}
		}
		if st.Plugin != "" {
			set[st.Plugin] = true
		}
	} else {
		for _, p := range d.cy.subsetPlugins {
			set[p] = true
		}
		for i := range d.nodes {
			switch state, k := d.verdictOf(i); state {
			case nodeRejected:
				if p := d.rejections[k].Plugin; p != "" {
					set[p] = true
				}
			case nodeLazy:
				set[d.cy.checks[k].p.name()] = true
			}
		}
	}
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// PreFilter returns the PreFilter status of each plugin that ran, in
// plugin order: every plugin, unless one rejected the pod as
// UnschedulableAndUnresolvable or failed, which ends the phase there. Nil
// for a nil Decision.
func (d *Decision) PreFilter() []Status {
	if d == nil {
		return nil
	}
	return append([]Status(nil), d.preFilter...)
}

// PreScore returns the PreScore status of each score plugin, in plugin
// order (nil when the feasible nodes were not scored).
func (d *Decision) PreScore() []Status {
	if d == nil || len(d.preScore) == 0 {
		return nil
	}
	return append([]Status(nil), d.preScore...)
}

// Message returns kube-scheduler's FitError message when no node is
// feasible, "" otherwise: "0/<all nodes> nodes are available: " then,
// after a PreFilter rejection, that status's reasons once, or else every
// reason of every rejected node counted once per node, together with the
// reasons of the status of the nodes not evaluated counted once per such
// node (FitError.Error). A nil Decision gives an empty decision's message,
// "0/0 nodes are available: ".
func (d *Decision) Message() string {
	if d == nil {
		return fitErrorMessage(0, nil, nil)
	}
	if len(d.feasible) > 0 {
		return ""
	}
	if d.rejectAll {
		st := *d.cy.rejectAll
		return fitErrorMessage(len(d.nodes), &st, nil)
	}
	counts := map[string]int{}
	explicit := 0
	for i := range d.nodes {
		var st Status
		switch state, k := d.verdictOf(i); state {
		case nodeRejected:
			st = d.rejections[k]
		case nodeLazy:
			st = d.lazyStatus(i, k)
		default:
			continue
		}
		explicit++
		for _, reason := range statusReasons(&st) {
			counts[reason]++
		}
	}
	if absent := len(d.nodes) - explicit; absent > 0 {
		st := d.absentStatus()
		for _, reason := range st.Reasons {
			counts[reason] += absent
		}
	}
	return histogramMessage(len(d.nodes), counts)
}

// filterError returns the error of a PreFilter or filter that failed (an
// Error status, not a rejection): kube-scheduler ends such a cycle with
// that error instead of a FitError.
func (d *Decision) filterError() error {
	if d.rejectAll {
		if st := d.cy.rejectAll; st.Code == Error {
			return fmt.Errorf("running PreFilter plugin %q: %w", st.Plugin, statusError(st))
		}
		return nil
	}
	// Only a status the walk recorded can be an Error: the exact checks
	// whose verdicts are lazy never fail that way. Most decisions have
	// none, which the recorded statuses tell without visiting every node;
	// otherwise the first node in index order names the failed plugin.
	if !slices.ContainsFunc(d.rejections, func(st Status) bool { return st.Code == Error }) {
		return nil
	}
	for i := range d.nodes {
		if state, k := d.verdictOf(i); state == nodeRejected {
			if st := &d.rejections[k]; st.Code == Error {
				return fmt.Errorf("running %q filter plugin: %w", st.Plugin, statusError(st))
			}
		}
	}
	return nil
}

// FitErrorMessage is the text of kube-scheduler's FitError, the message of
// the FailedScheduling event when a pod fits on no node:
// "0/<numNodes> nodes are available: " followed by every reason the
// statuses give, each with the number of statuses that gave it, sorted as
// strings, and a period ("0/3 nodes are available: 1 node(s) were
// unschedulable, 2 Insufficient cpu."). statuses holds one status per node
// that was rejected (statuses without reasons add nothing); an Error
// status without reasons counts its error's text, as upstream's AsStatus
// makes it the reason. With no reason at all the text ends at the colon,
// as upstream prints it; a nil statuses list is one without rejections.
// Decision.Message is this over a decision's rejections; a PostFilter
// plugin builds its own message from it (DefaultPreemption's "preemption:
// 0/3 nodes are available: ..." over its dry runs' statuses).
func FitErrorMessage(numNodes int, statuses []Status) string {
	return fitErrorMessage(numNodes, nil, statuses)
}

// fitErrorMessage is FitErrorMessage, or, when preFilter is set, the
// message of a PreFilter rejection: that status's reasons once, not per
// node.
func fitErrorMessage(numNodes int, preFilter *Status, statuses []Status) string {
	if preFilter != nil {
		return fmt.Sprintf("0/%d nodes are available: ", numNodes) + strings.Join(statusReasons(preFilter), ", ") + "."
	}
	counts := map[string]int{}
	for i := range statuses {
		for _, reason := range statusReasons(&statuses[i]) {
			counts[reason]++
		}
	}
	return histogramMessage(numNodes, counts)
}

// histogramMessage writes "0/<numNodes> nodes are available:" and the
// reason counts as "<count> <reason>", sorted as strings, comma-separated
// and ended with a period.
func histogramMessage(numNodes int, counts map[string]int) string {
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if len(counts) == 0 {
		return msg
	}
	parts := make([]string, 0, len(counts))
	for reason, n := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", n, reason))
	}
	sort.Strings(parts)
	return msg + " " + strings.Join(parts, ", ") + "."
}

// statusReasons returns the reasons a status gives in a FitError: its
// reasons, or for an Error status without any, its error's text.
func statusReasons(st *Status) []string {
	if len(st.Reasons) == 0 && st.Code == Error && st.Err != nil {
		return []string{st.Err.Error()}
	}
	return st.Reasons
}

// statusError is an Error status's error, or its reasons as one.
func statusError(st *Status) error {
	if st.Err != nil {
		return st.Err
	}
	return errors.New(strings.Join(st.Reasons, ", "))
}
