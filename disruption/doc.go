// Package disruption answers what takes pods away and what replaces them,
// exactly as Kubernetes v1.36.3 answers it: voluntary disruption —
// PodDisruptionBudgets, the Eviction API, kubectl drain — and involuntary
// disruption by node loss — the node lifecycle controller, taint-based
// eviction, and the replacement rules of StatefulSets and ReplicaSets.
//
// # Voluntary disruption
//
// A PodDisruptionBudget (policy/v1) guards the pods its selector matches:
// minAvailable (an integer or a percentage) or maxUnavailable says how many
// of them must stay healthy — Ready, not being deleted, and not just
// granted an eviction. Three components cooperate around it:
//
//   - The disruption controller (kube-controller-manager,
//     pkg/controller/disruption) keeps each budget's status: expectedPods,
//     desiredHealthy, currentHealthy, disruptionsAllowed, the disruptedPods
//     the Eviction API recorded, and the DisruptionAllowed condition.
//     Evaluate computes that status for one sync. Percentages and
//     maxUnavailable are resolved against the scale of the pods'
//     controllers (Controllers), integer minAvailable against the number
//     of selected pods; when a controller cannot be found the controller
//     fails safe and allows no disruption.
//   - The API server's pods/eviction subresource
//     (pkg/registry/core/pod/storage) grants or refuses an Eviction: Evict
//     returns the HTTP answer, the delete it performs (with the
//     resourceVersion precondition it may add and the DisruptionTarget
//     condition it sets first) and the budget status it writes.
//   - kubectl drain (k8s.io/kubectl/pkg/drain) decides which pods of a node
//     it may remove and whether it evicts or deletes them: PlanDrain.
//
// The DisruptionTarget pod condition records why a pod is being disrupted
// (EvictionByEvictionAPI, PreemptionByScheduler, ...); the disruption
// controller resets it when it stays on a pod that is not deleted
// (StaleDisruption, ResetDisruption).
//
// # Node loss
//
// "My node died at 10:00: what happens to each of my pods, and when?"
//
//   - The node lifecycle controller (kube-controller-manager,
//     pkg/controller/nodelifecycle) notices: NodeMonitor is its health
//     check as a state machine. It times a node from its own clock (the
//     probe time), not from the kubelet's lastHeartbeatTime, and strictly
//     after the grace period (50 s; 60 s for a node that never posted a
//     Ready condition) writes Ready, MemoryPressure, DiskPressure and
//     PIDPressure Unknown, marks the node's pods not ready
//     (MarkPodNotReady) and taints the node: ConditionTaints and
//     NoScheduleTaintPass give the NoSchedule condition taints at once,
//     NoExecuteTaintPass the node.kubernetes.io/not-ready or unreachable
//     NoExecute taint with its timeAdded — one look (5 s) later, since that
//     pass reads the Ready condition the node carried when the controller
//     looked, and only the next look finds the Unknown it wrote.
//   - When more than one node is lost, NodeLifecycle answers: it runs those
//     checks over the whole cluster and writes NoExecute taints through a
//     queue per zone, one node per 10 s by default (MonitorPass every 5 s,
//     TaintPass every 100 ms). A zone with more than two not-Ready nodes
//     making up 55 % of it is tainted at 0.01 node/s when larger than 50
//     nodes, not at all when smaller; when every zone is fully disrupted,
//     the controller takes the taints off and waits.
//   - Every pod was admitted with NoExecute tolerations for those two
//     taints, 300 s by default (api/admission DefaultTolerations).
//   - The taint eviction controller (pkg/controller/tainteviction) deletes
//     each pod when its tolerations run out: EvaluateNoExecute judges one
//     pod (first matching toleration per taint, minimum seconds), and
//     TaintEviction is the controller as a state machine of node and pod
//     events that schedules, keeps, cancels and fires evictions, each a
//     DisruptionTarget condition (DeletionByTaintManager) and a DELETE.
//     The deadline counts from when it processes the event, not from the
//     taint's timeAdded, and a pending eviction is kept when tolerations
//     change.
//   - The deleted pod stays Terminating: no kubelet will confirm the kill.
//     A ReplicaSet counts it as gone and replaces it at once
//     (SyncReplicaSet); a StatefulSet never creates pod N while an object
//     named N exists (SyncStatefulSet), so its replacement waits until pod
//     garbage collection removes the object — the node deleted, or tainted
//     node.kubernetes.io/out-of-service by an operator (package
//     termination) — or someone force-deletes it.
//
// Everything here is a pure function of its arguments, or a state machine
// that is a value fed events with their time: time comes in as
// now, nothing is written anywhere, inputs are never modified. Each result
// explains itself (Result, EvictionDecision.Rule, PodDrain.Filter) and
// keeps upstream's reason strings and messages.
package disruption
