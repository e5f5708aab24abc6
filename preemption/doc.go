// Package preemption is kube-scheduler's preemption as Kubernetes v1.36.3
// does it: which lower-priority pods to evict, and from which node, so
// that a pending pod that fits nowhere can be scheduled (the
// DefaultPreemption PostFilter plugin). The kubelet's node-pressure
// eviction, which also evicts pods but for the node's own sake, is package
// nodepressure.
//
// # Scheduler preemption
//
// When kube-scheduler finds no node for a pending pod, its
// DefaultPreemption PostFilter plugin looks for pods of lower priority
// whose eviction would let the pod in
// (pkg/scheduler/framework/plugins/defaultpreemption and
// pkg/scheduler/framework/preemption):
//
//   - A pod with preemptionPolicy Never never preempts; nor does a pod
//     whose nominated node still holds a lower-priority pod terminating
//     because the scheduler preempted it (DisruptionTarget condition,
//     reason PreemptionByScheduler). Its nominatedNodeName is left as is.
//   - Only nodes whose filter status is Unschedulable are tried; a node
//     rejected as UnschedulableAndUnresolvable (a taint, node affinity,
//     a request above the whole node, required affinity that only
//     lower-priority pods satisfy...) cannot be helped by evictions.
//   - On each node the dry run removes every lower-priority pod, checks
//     that the pod then fits (counting pods nominated there with at least
//     its priority), and gives back ("reprieves") as many as it can: first
//     those whose eviction would take a PodDisruptionBudget below zero,
//     then the others, each group from the highest priority and earliest
//     start down. A pod without status.startTime counts as just started;
//     a pod named in a budget's status.disruptedPods never violates it.
//   - The dry run stops once it has enough candidates: 10% of the
//     potential nodes, at least 100 (DefaultPreemptionArgs), at least one
//     of them without violations. With minCandidateNodesPercentage 100
//     (Config{MinCandidateNodesPercentage: 100}, the exhaustive mode) it
//     evaluates every potential node and the choice is the best over the
//     whole cluster.
//   - Among the candidates the node with the fewest budget violations
//     wins, then the lowest highest-victim priority, the smallest sum of
//     victim priorities (each counted 2^31 above its value), the fewest
//     victims, and the latest start among the highest-priority victims.
//     Nodes still tied are reported: upstream picks one of them by map
//     iteration order.
//   - The victims not already terminating are deleted, the pod is
//     nominated to the node, and lower-priority pods nominated to that
//     node lose their nomination. When no node helps, the nomination is
//     cleared.
//
// New is this plugin as the scheduling loop's PostFilter
// (scheduling.PostFilter): a scheduling.Loop configured with it, or the
// whole default profile from NewLoop, runs preemption whenever a pod fits
// nowhere and returns the deletions, the DisruptionTarget conditions and
// the nominations as actions; the budgets come from the loop's snapshot.
//
// Preempt runs all of this where the scheduler runs it: after a scheduling
// cycle found no node. It takes that scheduling.Cycle and the
// scheduling.Decision it made, so the filters are not run again: the
// decision's per-node statuses say which nodes are worth a dry run, and
// the dry run evaluates the pod on each of them without copying anything.
// When the pod's filters depend on other pods only through their
// requests, their number and their host ports, a node's dry run is
// arithmetic on its totals (scheduling.Ledger, there for PostFilter
// plugins such as this one): its lower-priority pods
// are sorted once, taken off together, and put back one by one with the
// fit rechecked in constant time, budgets spent as counters; a pod with
// inter-pod (anti-)affinity, a DoNotSchedule topology spread constraint
// or another filter that counts pods is evaluated through the cycle's
// what-if views (Cycle.WhatIf) instead. Both give the same answers; the
// package's property tests compare them with each other and with a dry
// run done from scratch on rebuilt snapshots. On the arithmetic path a
// decision makes about the same number of allocations whatever the number
// of nodes: the result's per-node and per-candidate entries are one array
// each, and the candidates' victims and the failed dry runs' reasons share
// a few arrays that grow geometrically. Result carries the decision,
// every candidate, and per node the filter status and the dry run's
// verdict; its message, when no node helps, is the scheduler's FitError
// text (scheduling.FitErrorMessage) after "preemption: ". Config's zero
// value is v1.36.3's default configuration; the random offset at which
// upstream starts the dry run is an input, and so is now, the time at
// which pods without a start time count as started:
//
//	cy := cluster.NewCycle(pod)
//	var d scheduling.Decision
//	if len(cy.Decide(&d).Feasible()) == 0 {
//		r := preemption.Preempt(cy, &d, pdbs, preemption.Config{}, now)
//		...
//	}
//
// # Events
//
// Choosing victims records nothing. What kube-scheduler records when it
// acts on the choice — the Normal Preempted event on each victim
// ("Preempted by pod <uid> on node <node>", action Preempting, related to
// the preemptor; pkg/scheduler/framework/preemption's executor) and the
// FailedScheduling event of the preemptor — comes with the actions of
// scheduling.Loop, which runs this plugin at its PostFilter seam.
package preemption
