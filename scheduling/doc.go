// Package scheduling answers where a pod may run, how good each place is
// and where kube-scheduler v1.36.3 would put it: effective pod requests and
// limits, the plugins of the default profile — filters NodeUnschedulable,
// NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
// VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone,
// PodTopologySpread, InterPodAffinity, DynamicResources and
// NodeDeclaredFeatures (the last two for pods without resource claims or
// feature needs), scores with NodeResourcesBalancedAllocation and
// ImageLocality besides — the scheduling algorithm around them, the pod's
// priority (api.PodPriority; the admission plugin that sets it is package
// api/admission) and the scheduling queue, over an indexed cluster snapshot
// that is updated incrementally.
//
// # The evaluation path
//
// Every question about placing a pod follows one path:
//
//	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
//	cy := c.NewCycle(pod)  // one scheduling cycle for one pod
//	var d scheduling.Decision
//	cy.Decide(&d)          // PreFilter, Filter, PreScore, Score, NormalizeScore
//
// NewCluster indexes the nodes and pods once (the scheduler's cache
// snapshot); AddPod, RemovePod, UpdatePod, AddNode, RemoveNode, UpdateNode,
// SetNamespace, SetSpreadWorkloads and the storage objects' Set and Remove
// methods (PersistentVolumeClaims, PersistentVolumes, StorageClasses,
// CSINodes, CSIDrivers, and the PodDisruptionBudgets PostFilter plugins
// read) keep it current without a rebuild; AddObjects takes
// a decoded `kubectl get -o json` dump. Config is the scheduler
// configuration; its zero value is v1.36.3's default profile.
//
// NewCycle starts the scheduling cycle of one pod: the plugins are
// instantiated for it, and their PreFilter runs once, on the first question
// the cycle is asked. A cycle answers three questions:
//
//   - Decide: the scheduler's decision, written into a Decision. Per node
//     (by snapshot index, the index NodeAt takes) it holds whether the pod
//     fits and, if not, the Status of the first plugin that rejected it,
//     with upstream's reason text and the numbers behind it; for the
//     feasible nodes their weighted scores, the per-plugin breakdown and
//     the best node; and Message, the "0/N nodes are available: ..." text
//     kube-scheduler records when no node fits. A Decision is a reusable
//     buffer: a caller deciding pod after pod into the same one allocates
//     nothing per node.
//   - Explain: "why is my pod Pending?" for people, an Explanation that
//     runs every plugin on every node on its own (not only the first
//     rejection) and prints as a table.
//   - WhatIf: the pod on one node with some pods taken away or added,
//     without copying the snapshot (Reset moves it to another node in the
//     same storage). A PostFilter plugin's dry run is built on it, or on
//     Ledger, its arithmetic counterpart for dry-running many removals.
//
// The snapshot is only read by cycles, so any number of goroutines may run
// cycles on it at once; each Cycle and Decision belongs to one goroutine,
// and updates must not run while cycles do.
//
// # The scheduling algorithm
//
// Decide evaluates every node. kube-scheduler does not: it walks its node
// list (the cache's node tree, zones taken round robin: TreeOrder) from a
// start index that rotates from cycle to cycle, stops once it has found
// NumFeasibleNodesToFind feasible nodes (percentageOfNodesToScore, adaptive
// by default), tries a pod's nominated node first, scores only what it
// found and picks the node from a heap. Scheduler holds that state between
// cycles and its ScheduleOne makes the decision exactly so, into the same
// Decision type (Evaluated, Feasible, Chosen, Message).
//
// # The scheduling loop
//
// Loop is kube-scheduler's loop as one pure state machine that owns its
// snapshot and its Queue: Step takes the informer events (PodAdded,
// NodeUpdated, ObjectSet, ...) and Tick, and every Tick is one pipeline —
// pop the next pod, decide (ScheduleOne), and either bind it or, when it
// fits nowhere, call the PostFilter plugin, nominate or clear the
// nomination, and hand the pod back to the queue — with everything the
// scheduler would write returned as Actions (bind, nominate, preempt a
// victim with its DisruptionTarget condition, PodScheduled=False with the
// FailedScheduling message). A cluster event brings a pod back from the
// unschedulable pool as v1.36.3's queue does with its plugins' queueing
// hints (Loop lists the hints modelled). NextDeadline says when it must be
// ticked next, so a simulation jumps from deadline to deadline (the
// stories in testdata/loop show it tick by tick):
//
//	l, err := preemption.NewLoop(c, start) // the default profile
//	l.Step(scheduling.PodAdded(pod), now)
//	for d := l.NextDeadline(); !d.IsZero() && !d.After(until); d = l.NextDeadline() {
//		res, err := l.Step(scheduling.Tick(), d)
//		... perform res.Actions ...
//	}
//
// PostFilter is the plugin seam: the loop calls it with the cycle and the
// decision that found no node. The default profile's PostFilter is
// DefaultPreemption in package preemption, which builds on this package
// (never the reverse); a custom preemption or descheduling policy plugs in
// the same way, with Ledger, WhatIf, the PodInfo accessors, LabelSet,
// PodDisruptionBudgets and FitErrorMessage as its tools.
//
// # Beside the path
//
// PodRequests and PodLimits are the effective requests and limits of one
// pod (component-helpers' resource helpers). Queue is the scheduling queue
// that decides which pending pod gets the next cycle and when a pod that
// failed is tried again (the loop's component, usable on its own, with its
// own NextDeadline); QueueCompare (with SortQueue) is its order.
package scheduling
