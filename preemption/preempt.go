package preemption

import (
	"fmt"
	"sort"
	"strings"

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

// Preempt runs kube-scheduler's DefaultPreemption PostFilter for pod,
// a pending pod that fits on no node of the snapshot c, and reports
// what the scheduler does next, as v1.36.3's preemption Evaluator does:
//
//  1. the pod must be eligible (PodEligibleToPreemptOthers): not
//     preemptionPolicy Never, and no lower-priority pod terminating because
//     of preemption (DisruptionTarget condition, reason
//     PreemptionByScheduler) on its nominated node, unless that node is now
//     UnschedulableAndUnresolvable; otherwise the nomination is kept;
//  2. only nodes whose filter status is Unschedulable are tried; on
//     each, the dry run (SelectVictimsOnNode) finds the minimal victims,
//     stopping once enough candidates are found (Config.NumCandidates);
//  3. no candidate clears the nomination; otherwise the best node is
//     chosen by fewest budget violations, lowest highest-victim priority,
//     smallest sum of victim priorities (each shifted by 2^31), fewest
//     victims and latest start of the highest-priority victims;
//  4. victims not already terminating are deleted, and the pods
//     nominated to the chosen node with a lower priority lose their
//     nomination.
//
// pdbs are all the cluster's PodDisruptionBudgets (with their status);
// the pod need not be in c. c is only read.
func Preempt(c *scheduling.Cluster, pod *api.Pod, pdbs []*api.PodDisruptionBudget, cfg Config) Result {
	if c == nil || pod == nil {
		return Result{Err: fmt.Errorf("preemption: nil cluster or pod")}
	}
	cy := c.NewCycle(pod)
	filter := cy.Filter()
	return preempt(c, cy, filter, pod, pdbs, &cfg)
}

func preempt(c *scheduling.Cluster, cy *scheduling.Cycle, filter []scheduling.NodeResult, pod *api.Pod, pdbs []*api.PodDisruptionBudget, cfg *Config) Result {
	if ok, reason := eligible(c, pod, filter); !ok {
		return Result{Nomination: NominationKeep, Message: MessagePrefix + reason}
	}
	res := Result{Eligible: true, Nodes: make([]NodeOutcome, len(filter))}
	potential := make([]int, 0, len(filter))
	for i, r := range filter {
		res.Nodes[i] = NodeOutcome{Node: r.Node, Filter: r.Status}
		if r.Status.Code == scheduling.Unschedulable {
			potential = append(potential, i)
		}
	}
	if len(potential) == 0 {
		return noCandidate(res)
	}

	budgets := compileBudgets(pdbs)
	d := &dryRun{cfg: cfg, cycle: cy, priority: scheduling.PodPriority(pod), budgets: budgets, allowed: make([]int32, len(budgets))}
	want := cfg.NumCandidates(len(potential))
	offset := cfg.Offset % len(potential)
	if offset < 0 {
		offset += len(potential)
	}
	var clean, violating []Candidate
	var errs []error
	for k := range potential {
		i := potential[(offset+k)%len(potential)]
		n := c.NodeAt(filter[i].Index)
		victims, numViolating, st := d.selectVictims(n)
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
		cand := Candidate{Node: n.Name(), Victims: make([]*api.Pod, len(victims)), PDBViolations: numViolating}
		for j, v := range victims {
			cand.Victims[j] = v.Pod
		}
		// Upstream's candidate lists hold at most the wanted number each.
		if numViolating == 0 {
			if len(clean) < want {
				clean = append(clean, cand)
			}
		} else if len(violating) < want {
			violating = append(violating, cand)
		}
		if len(clean) > 0 && len(clean)+len(violating) >= want {
			break
		}
	}
	res.Candidates = append(clean, violating...)
	if len(res.Candidates) == 0 {
		if len(errs) > 0 {
			res.Nomination = NominationKeep
			res.Err = errs[0]
			res.Message = MessagePrefix + errs[0].Error()
			return res
		}
		return noCandidate(res)
	}

	best, tied := pickOneNode(res.Candidates, cfg)
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
	prio := scheduling.PodPriority(pod)
	for _, p := range c.NominatedPods(chosen.Node) {
		if p.Priority() < prio {
			res.ClearedNominations = append(res.ClearedNominations, p.Pod)
		}
	}
	return res
}

// eligible is DefaultPreemption's PodEligibleToPreemptOthers.
func eligible(c *scheduling.Cluster, pod *api.Pod, filter []scheduling.NodeResult) (bool, string) {
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
	if i := n.Index(); i < len(filter) && filter[i].Status.Code == scheduling.UnschedulableAndUnresolvable {
		return true, ""
	}
	prio := scheduling.PodPriority(pod)
	for _, p := range n.Pods() {
		if p.Priority() < prio && TerminatingByPreemption(p.Pod) {
			return false, ReasonTerminatingOnNominated
		}
	}
	return true, ""
}

// TerminatingByPreemption reports whether the pod is being deleted because
// the scheduler preempted it: it has a deletionTimestamp and its
// DisruptionTarget condition (the first one) is True with reason
// PreemptionByScheduler.
func TerminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
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
// scheduling".
func noCandidate(res Result) Result {
	res.Nomination = NominationClear
	counts := map[string]int{}
	for _, n := range res.Nodes {
		if !n.Evaluated {
			counts[ReasonNotHelpful]++
			continue
		}
		for _, r := range n.DryRun.Reasons {
			counts[r]++
		}
	}
	parts := make([]string, 0, len(counts))
	for r, k := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", k, r))
	}
	sort.Strings(parts)
	msg := fmt.Sprintf("0/%d nodes are available:", len(res.Nodes))
	if len(parts) > 0 {
		msg += " " + strings.Join(parts, ", ")
	}
	res.Message = MessagePrefix + msg + "."
	return res
}

func statusError(st scheduling.Status) error {
	if st.Err != nil {
		return st.Err
	}
	return fmt.Errorf("%s", st.String())
}
