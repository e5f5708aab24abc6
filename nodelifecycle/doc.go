// Package nodelifecycle answers "my node died at 10:00: what happens to each
// of my pods, and when?" exactly as Kubernetes v1.36.3 answers it: the node
// lifecycle controller (kube-controller-manager, pkg/controller/nodelifecycle),
// which notices a silent node, marks it Unknown and taints it, and the taint
// eviction controller (pkg/controller/tainteviction), which deletes the pods
// whose tolerations of those taints run out.
//
// # Node health and taints
//
// The node lifecycle controller times a node from its own clock (the probe
// time, moved by the Ready condition's lastHeartbeatTime and by the node's
// Lease in kube-node-lease), not from the kubelet's timestamps, and
// strictly after the grace period (--node-monitor-grace-period, 50 s; 60 s
// for a node that never posted a Ready condition) writes Ready,
// MemoryPressure, DiskPressure and PIDPressure Unknown, marks the node's
// pods not ready (MarkPodNotReady) and taints the node: ConditionTaints and
// NoScheduleTaintPass give the NoSchedule condition taints at once,
// NoExecuteTaintPass the node.kubernetes.io/not-ready or unreachable
// NoExecute taint with its timeAdded at the same look, since v1.36.3 hands
// that pass the Ready condition the look has just written.
//
// Monitor is that health check as a state machine, one node at a time.
// Controller runs it over the whole cluster and writes the NoExecute taints
// through a queue per zone, one node per 10 s by default
// (--node-eviction-rate; a monitor pass every 5 s, a tainting pass every
// 100 ms). A zone with more than two not-Ready nodes making up 55 % of it
// (--unhealthy-zone-threshold) is partly disrupted: tainted at 0.01 node/s
// (--secondary-node-eviction-rate) when larger than 50 nodes
// (--large-cluster-size-threshold), not at all when smaller; when every
// zone is fully disrupted, the controller takes the taints off and waits
// (ZoneState, ZoneReport).
//
// # Taint-based eviction
//
// Every pod was admitted with NoExecute tolerations for those two taints,
// 300 s by default (api/admission DefaultTolerations). EvaluateNoExecute
// judges one pod against its node's NoExecute taints (the first matching
// toleration per taint, the minimum tolerationSeconds), and TaintEviction
// is the controller as a state machine of node and pod events that
// schedules, keeps, cancels and fires evictions, each a DisruptionTarget
// condition (DeletionByTaintManager, TaintEvictionCondition) and a DELETE.
// The deadline counts from when it processes the event, not from the
// taint's timeAdded, and a pending eviction is kept when tolerations
// change. The deleted pod then stays Terminating, since no kubelet will
// confirm the kill: what replaces it is package workloads' answer, what
// finally removes it package termination's (pod garbage collection).
//
// # Driving the machines
//
// Monitor, Controller and TaintEviction follow one convention: a value made
// by its constructor (or the zero value, with v1.36.3's defaults), fed one
// input at a time with the time it happens by Step, which returns what the
// controller writes or does as values and never does it; NextDeadline says
// when the machine must next be stepped if no input arrives (a look that
// will find a node's grace period over, the tick at which a zone's token
// bucket lets the next taint through, a pending eviction), the zero time
// meaning "not until an input arrives". A caller can therefore jump from
// deadline to deadline instead of ticking, and gets the same answers. The
// stories in testdata/monitor, testdata/controller and
// testdata/tainteviction show each machine input by input.
// Nothing here reads the clock, and inputs are never modified; bad input
// (a nil node or pod) is an error wrapping api.ErrInvalidInput.
package nodelifecycle
