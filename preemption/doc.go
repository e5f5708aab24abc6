// Package preemption decides who loses when resources run short, as
// Kubernetes v1.36.3 decides it in two places: the scheduler's preemption
// and the kubelet's node-pressure eviction (when it evicts, whom, and what
// the evicted pod looks like).
//
// # Scheduler preemption
//
// When kube-scheduler finds no node for a pending pod, its
// DefaultPreemption PostFilter plugin looks for pods of lower priority
// whose eviction would let the pod in (pkg/scheduler/framework/plugins/
// defaultpreemption and pkg/scheduler/framework/preemption):
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
// # Node-pressure eviction order
//
// When a node runs short of memory, process IDs or disk, the kubelet's
// eviction manager (pkg/kubelet/eviction) ranks the node's pods and evicts
// the first. RankForEviction and EvictionOrder reproduce the ranking for
// each eviction Signal and FilesystemLayout from the pods and their
// Summary API statistics (PodStats):
//
//   - memory: pods whose working set exceeds their memory request first,
//     then lower priority, then the larger usage above the request;
//   - pid: lower priority first, then more processes;
//   - disk: usage above the ephemeral-storage request first, then lower
//     priority, then the larger usage minus that request; which usage
//     counts (writable layers, logs, local volumes) follows the layout,
//     and the inode signals count inodes against an inode request that
//     is always zero.
//
// A pod without statistics goes before pods with them as soon as the
// comparison reaches a usage rule: before everything else for memory and
// disk, after priority for pid. Requests are the kubelet's: pod-level requests
// replace container requests, and overhead is added only to a non-zero
// total.
//
// # When the kubelet evicts: thresholds and the eviction manager
//
// The kubelet acts on node pressure through eviction thresholds, set by
// evictionHard, evictionSoft, evictionSoftGracePeriod and
// evictionMinimumReclaim (ParseEvictionSettings reads them as the
// configuration spells them, ParseEvictionFlag as the --eviction-* flags
// do; the zero EvictionSettings is v1.36.3's Linux default,
// memory.available<100Mi, nodefs.available<10%, nodefs.inodesFree<5%,
// imagefs.available<15%, imagefs.inodesFree<5%). A percentage is a
// float32 fraction of the signal's capacity, "0%" and "100%" are dropped,
// and every hard memory.available threshold is copied as an
// allocatableMemory.available one.
//
// EvictionManager is the kubelet's eviction manager (synchronize) as a
// state machine. Each Step takes one housekeeping pass — the kubelet
// Summary API's answer (Summary) and the active pods — and the time, and
// returns an EvictionStep: the thresholds in force and those met (a soft
// threshold only once it has held for its grace period; a met threshold
// stays in force until the signal recovers past its minimum reclaim), the
// node conditions (MemoryPressure, DiskPressure, PIDPressure, held for
// evictionPressureTransitionPeriod after the last breach, regardless of
// grace periods), the resource reclaimed (only with statistics newer than
// at the previous pass; memory first; image and container garbage
// collection first for disk signals), and at most one evicted pod: the
// first pod of the eviction order (RankForEviction — the same ranking) that
// is not critical (IsCriticalPod: static, mirror, priority at least
// 2000000000), with its grace-period override (1 s for a hard threshold,
// evictionMaxPodGracePeriod capped by the pod's own for a soft one, from
// termination.EvictionGraceOverride), the kubelet's message and the pod's
// final status (Failed, Evicted, the DisruptionTarget condition with
// reason TerminationByKubelet). The manager performs nothing.
//
// AdmitUnderPressure (and EvictionManager.Admit) is the kubelet's
// admission check on a node under pressure: under MemoryPressure alone
// only BestEffort pods that do not tolerate the memory-pressure taint are
// refused; under DiskPressure or PIDPressure every pod is; critical pods
// always pass. The refusal reads "Evicted", "The node had condition:
// [...]. ".
//
// Upstream keeps thresholds in Go maps, so which of two thresholds acted
// on at once is reclaimed can differ between two kubelets. podsem keeps
// them in a fixed order (hard before soft, signals in Signal constant
// order, allocatable copies after them) and says so where it matters.
package preemption
