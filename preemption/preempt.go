package preemption

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// pluginName is the PostFilter plugin whose rules this package follows.
const pluginName = "DefaultPreemption"

// Upstream's texts for the outcomes of a preemption attempt.
const (
	// MessagePrefix starts every status message of the DefaultPreemption
	// PostFilter.
	MessagePrefix = "preemption: "
	// ReasonPolicyNever: the preemptor has preemptionPolicy Never.
	ReasonPolicyNever = "not eligible due to preemptionPolicy=Never."
	// ReasonTerminatingOnNominated: a lower-priority pod the scheduler
	// preempted is still terminating on the preemptor's nominated node.
	ReasonTerminatingOnNominated = "not eligible due to a terminating pod on the nominated node."
	// ReasonNotHelpful is the status of the nodes preemption did not try
	// (those whose filter status was not Unschedulable).
	ReasonNotHelpful = "Preemption is not helpful for scheduling"
	// ReasonPreemptionByScheduler is the DisruptionTarget condition reason
	// the scheduler gives a victim before deleting it.
	ReasonPreemptionByScheduler = api.PodReasonPreemptionByScheduler
)

// Nomination is what a preemption attempt does to the preemptor's
// status.nominatedNodeName.
type Nomination int

const (
	// NominationKeep: the pod was not eligible to preempt (or the attempt
	// failed with an error); its nomination is left as it was.
	NominationKeep Nomination = iota
	// NominationSet: the nomination becomes Result.Node.
	NominationSet
	// NominationClear: preemption was tried and no node helps; the
	// nomination is cleared.
	NominationClear
)

// String returns "keep", "set" or "clear".
func (n Nomination) String() string {
	switch n {
	case NominationSet:
		return "set"
	case NominationClear:
		return "clear"
	}
	return "keep"
}

// Candidate is a node on which evicting Victims lets the preemptor fit:
// the minimal victim set DefaultPreemption's dry run found there, most
// important first, and how many of them a PodDisruptionBudget protects
// beyond its allowance.
type Candidate struct {
	Node          string
	Victims       []*api.Pod
	PDBViolations int
}

// NodeOutcome is what preemption made of one node: its filter status in
// the scheduling cycle, whether the dry run was run on it (only nodes whose
// status was Unschedulable are tried), and if so its verdict: Success when
// the node became a candidate, otherwise the status that ruled it out
// ("No preemption victims found for incoming pod", or the filter that
// still rejects the pod with every lower-priority pod gone).
type NodeOutcome struct {
	Node      string
	Filter    scheduling.Status
	Evaluated bool
	DryRun    scheduling.Status
}

// Result is the outcome of one DefaultPreemption PostFilter run for a pod
// that fits on no node, and of what the scheduler then does with it.
type Result struct {
	// Eligible is false when the pod may not preempt at all (see
	// PodEligibleToPreemptOthers); Message says why.
	Eligible bool
	// Nomination is the effect on the preemptor's nominatedNodeName.
	Nomination Nomination
	// Node is the chosen node, "" when preemption picked none.
	Node string
	// Victims are the pods to preempt on Node, most important first,
	// including those already terminating.
	Victims []*api.Pod
	// PDBViolations counts the victims whose eviction violates a budget.
	PDBViolations int
	// Deleted are the victims the scheduler deletes (after giving each a
	// DisruptionTarget condition with reason PreemptionByScheduler): those
	// not already terminating.
	Deleted []*api.Pod
	// ClearedNominations are the pending pods nominated to Node with a
	// lower priority than the preemptor, whose nominatedNodeName the
	// scheduler clears.
	ClearedNominations []*api.Pod
	// Tied lists every candidate node that equals Node on all of the
	// node-choice rules (Node included); upstream picks among them by map
	// iteration order. Empty when Node was the only best node.
	Tied []string
	// Candidates are the nodes the dry run made feasible, in the order the
	// scheduler considers them: those without budget violations first, each
	// group in dry-run order.
	Candidates []Candidate
	// Nodes explains every node of the snapshot, in index order (nil when
	// the pod was not eligible).
	Nodes []NodeOutcome
	// Message is the PostFilter status message: "" on success, otherwise
	// it starts with "preemption: ".
	Message string
	// Err is set when the attempt failed with an error status (for
	// example a filter plugin error during the dry run); the nomination is
	// then kept.
	Err error
}

// errInvalidInput is api.ErrInvalidInput in this package's context:
// Result.Err wraps it when Preempt is given a nil cycle or decision, or a
// decision that another cycle wrote; test for it with errors.Is(err,
// api.ErrInvalidInput).
var errInvalidInput = fmt.Errorf("preemption: %w", api.ErrInvalidInput)

// errNoNodes is the error of an attempt on a snapshot without nodes, in
// upstream's words.
var errNoNodes = errors.New("no nodes available")

// Preempt runs kube-scheduler's DefaultPreemption PostFilter for the pod
// of the scheduling cycle cy, a pending pod that d, the decision cy made
// for it (cy.Decide), found no node for, and reports what the scheduler
// does next, as v1.36.3's preemption Evaluator does:
//
//  1. the pod must be eligible (PodEligibleToPreemptOthers): not
//     preemptionPolicy Never, and no lower-priority pod terminating because
//     of preemption (DisruptionTarget condition, reason
//     PreemptionByScheduler) on its nominated node, unless that node is now
//     UnschedulableAndUnresolvable; otherwise the nomination is kept;
//  2. only nodes whose status in d is Unschedulable are tried; on each,
//     the dry run (SelectVictimsOnNode, by arithmetic on the node's totals
//     through a scheduling.Ledger when the pod's filters allow it,
//     otherwise through cy.WhatIf) finds the minimal victims, stopping
//     once enough candidates are found (Config.NumCandidates; every
//     potential node with MinCandidateNodesPercentage 100);
//  3. no candidate clears the nomination; otherwise the best node is
//     chosen by fewest budget violations, lowest highest-victim priority,
//     smallest sum of victim priorities (each shifted by 2^31), fewest
//     victims and latest start of the highest-priority victims;
//  4. victims not already terminating are deleted, and the pods
//     nominated to the chosen node with a lower priority lose their
//     nomination.
//
// pdbs are all the cluster's PodDisruptionBudgets (with their status). now
// is the time a pod without status.startTime counts as started when pods
// are ranked (upstream reads the clock there); the zero time ranks such
// pods after every pod that has a start time. The filters are not run
// again: d's verdicts are the scheduling cycle's. Neither the snapshot nor
// d is modified; cy, like any Cycle, must not be used by another
// goroutine meanwhile. A nil cy or d, or a d that cy did not write, gives
// a Result whose Err wraps api.ErrInvalidInput.
func Preempt(cy *scheduling.Cycle, d *scheduling.Decision, pdbs []*api.PodDisruptionBudget, cfg Config, now time.Time) Result {
	return preempt(cy, d, pdbs, cfg, now, true)
}

// preempt is Preempt; with arithmetic false every node's dry run goes
// through WhatIf's filters, never through a Ledger (the package's tests
// compare the two).
func preempt(cy *scheduling.Cycle, d *scheduling.Decision, pdbs []*api.PodDisruptionBudget, cfg Config, now time.Time, arithmetic bool) Result {
	switch {
	case cy == nil:
		return Result{Err: fmt.Errorf("%w: cycle: nil", errInvalidInput)}
	case d == nil:
		return Result{Err: fmt.Errorf("%w: decision: nil", errInvalidInput)}
	}
	if err := cfg.Validate(); err != nil {
		return Result{Err: err}
	}
	switch {
	case d.Cycle() != cy:
		return Result{Err: fmt.Errorf("%w: decision: not made by this cycle (call cy.Decide first)", errInvalidInput)}
	}
	c, pod := cy.Cluster(), cy.Pod().Pod()
	if ok, reason := eligible(c, pod, d); !ok {
		return Result{Nomination: NominationKeep, Message: MessagePrefix + reason}
	}
	if d.NumNodes() == 0 {
		// Upstream's findCandidates fails before looking at any node.
		return Result{Eligible: true, Nomination: NominationKeep, Err: errNoNodes, Message: MessagePrefix + errNoNodes.Error()}
	}
	res := Result{Eligible: true, Nodes: make([]NodeOutcome, d.NumNodes())}
	potential := make([]int32, 0, len(res.Nodes))
	for i := range res.Nodes {
		// Written field by field: the outcome is zero already.
		o := &res.Nodes[i]
		o.Node = c.NodeAt(i).Name()
		o.Filter = d.Status(i)
		if o.Filter.Code == scheduling.Unschedulable {
			potential = append(potential, int32(i))
		}
	}
	if len(potential) == 0 {
		return noCandidate(res)
	}

	budgets := compileBudgets(pdbs)
	prio := api.PodPriority(pod)
	dr := &dryRun{now: now, cycle: cy, priority: prio, budgets: budgets, allowed: make([]int32, len(budgets)),
		arithmetic: arithmetic}
	want := cfg.NumCandidates(len(potential))
	offset := cfg.Offset % len(potential)
	if offset < 0 {
		offset += len(potential)
	}
	// Upstream's candidate lists hold at most the wanted number each: the
	// nodes without violations fill cands from the front, the others from
	// the back (in reverse), and one array holds both.
	cands := make([]Candidate, min(2*want, len(potential)))
	ranks := make([]ranking, len(cands))
	numClean, numViolating := 0, 0
	var victimSlab []*api.Pod
	var errs []error
	for k := range potential {
		i := int(potential[(offset+k)%len(potential)])
		n := c.NodeAt(i)
		victims, violations, st := dr.selectVictims(n)
		res.Nodes[i].Evaluated = true
		if st.IsSuccess() && len(victims) == 0 {
			st = scheduling.Status{Code: scheduling.Error, Plugin: pluginName,
				Err: fmt.Errorf("expected at least one victim pod on node %q", n.Name())}
			st.Reasons = []string{st.Err.Error()}
		}
		res.Nodes[i].DryRun = st
		if !st.IsSuccess() {
			if st.Code == scheduling.Error {
				errs = append(errs, statusError(st))
			}
			continue
		}
		slot := -1
		if violations == 0 {
			if numClean < want {
				slot = numClean
				numClean++
			}
		} else if numViolating < want {
			numViolating++
			slot = len(cands) - numViolating
		}
		if slot >= 0 {
			// The victims of every candidate share a few large arrays.
			if cap(victimSlab)-len(victimSlab) < len(victims) {
				victimSlab = make([]*api.Pod, 0, max(4*cap(victimSlab), len(victims), 2*len(cands)))
			}
			start := len(victimSlab)
			for _, v := range victims {
				victimSlab = append(victimSlab, dr.potential[v.pos].Pod())
			}
			cands[slot] = Candidate{Node: n.Name(), Victims: victimSlab[start:len(victimSlab):len(victimSlab)], PDBViolations: violations}
			ranks[slot] = rankCandidate(victims, violations)
		}
		if numClean > 0 && numClean+numViolating >= want {
			break
		}
	}
	slices.Reverse(cands[len(cands)-numViolating:])
	copy(cands[numClean:], cands[len(cands)-numViolating:])
	slices.Reverse(ranks[len(ranks)-numViolating:])
	copy(ranks[numClean:], ranks[len(ranks)-numViolating:])
	res.Candidates = cands[: numClean+numViolating : numClean+numViolating]
	if len(res.Candidates) == 0 {
		res.Candidates = nil
		if len(errs) > 0 {
			res.Nomination = NominationKeep
			res.Err = errs[0]
			res.Message = MessagePrefix + errs[0].Error()
			return res
		}
		return noCandidate(res)
	}

	best, tied := pickOneNode(res.Candidates, ranks)
	chosen := res.Candidates[best]
	res.Nomination = NominationSet
	res.Node = chosen.Node
	res.Victims = chosen.Victims
	res.PDBViolations = chosen.PDBViolations
	if len(tied) > 1 {
		res.Tied = tied
	}
	for _, v := range chosen.Victims {
		if v.DeletionTimestamp == nil {
			res.Deleted = append(res.Deleted, v)
		}
	}
	for _, p := range c.NominatedPods(chosen.Node) {
		if api.PodPriority(p.Pod()) < prio {
			res.ClearedNominations = append(res.ClearedNominations, p.Pod())
		}
	}
	return res
}

// eligible is DefaultPreemption's PodEligibleToPreemptOthers.
func eligible(c *scheduling.Cluster, pod *api.Pod, d *scheduling.Decision) (bool, string) {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == api.PreemptNever {
		return false, ReasonPolicyNever
	}
	nom := pod.Status.NominatedNodeName
	if nom == "" {
		return true, ""
	}
	n := c.NodeByName(nom)
	if n == nil {
		return true, ""
	}
	if d.Status(n.Index()).Code == scheduling.UnschedulableAndUnresolvable {
		return true, ""
	}
	prio := api.PodPriority(pod)
	for _, p := range n.Pods() {
		if api.PodPriority(p.Pod()) < prio && TerminatingByPreemption(p.Pod()) {
			return false, ReasonTerminatingOnNominated
		}
	}
	return true, ""
}

// TerminatingByPreemption reports whether the pod is being deleted because
// the scheduler preempted it: it has a deletionTimestamp and its
// DisruptionTarget condition (the first one) is True with reason
// PreemptionByScheduler. A nil pod is not terminating.
func TerminatingByPreemption(p *api.Pod) bool {
	if p == nil || p.DeletionTimestamp == nil {
		return false
	}
	for _, cond := range p.Status.Conditions {
		if cond.Type == api.DisruptionTarget {
			return cond.Status == api.ConditionTrue && cond.Reason == ReasonPreemptionByScheduler
		}
	}
	return false
}

// noCandidate finishes a result in which no node helps: the nomination is
// cleared and the message is the scheduler's FitError over the dry-run
// statuses, the nodes not tried counting as "Preemption is not helpful for
// scheduling" (upstream's status for the nodes absent from the dry run).
func noCandidate(res Result) Result {
	res.Nomination = NominationClear
	statuses := make([]scheduling.Status, len(res.Nodes))
	for i, n := range res.Nodes {
		if n.Evaluated {
			statuses[i] = n.DryRun
		} else {
			statuses[i] = scheduling.Status{Code: scheduling.UnschedulableAndUnresolvable, Plugin: pluginName, Reasons: reasonsNotHelpful}
		}
	}
	res.Message = MessagePrefix + scheduling.FitErrorMessage(len(res.Nodes), statuses)
	return res
}

// reasonsNotHelpful is the reason list of the nodes preemption did not try.
var reasonsNotHelpful = []string{ReasonNotHelpful}

func statusError(st scheduling.Status) error {
	if st.Err != nil {
		return st.Err
	}
	return fmt.Errorf("%s", st.String())
}
