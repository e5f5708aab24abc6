// Package disruption answers what may take a pod away voluntarily, exactly
// as Kubernetes v1.36.3 answers it: PodDisruptionBudgets and the
// disruption controller that keeps their status
// (kube-controller-manager, pkg/controller/disruption), the Eviction API
// that honours them (the API server's pods/eviction subresource), and
// kubectl drain, which uses it.
//
// Involuntary disruption lives elsewhere: a lost node and the taint-based
// eviction of its pods in package nodelifecycle, the replacement of deleted
// pods by their ReplicaSets and StatefulSets in package workloads, pod
// garbage collection and the delete timeline in package termination.
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
// # Events
//
// Neither the Eviction API nor kubectl drain records an Event: the
// eviction subresource answers its caller (a 429 naming the budget, a
// 201 with the pod's DisruptionTarget condition) and drain prints to its
// own output. The disruption controller records a few about budgets and
// pods, which Evaluate returns in Result.Events: NoPods, UnmanagedPods and
// NotDeleted; and BudgetForPod returns MultiplePodDisruptionBudgets, which
// the controller records on a pod several budgets select when it picks the
// one a pod event syncs (the Eviction API refuses to evict such a pod with
// a 500 answer that says so). Not returned: those of a failed sync, whose
// text is client-go's error (Result.Err says why).
//
// Everything here is a pure function of its arguments: time comes in as
// now, nothing is written anywhere, inputs are never modified. Each result
// explains itself (Result, EvictionDecision.Rule, PodDrain.Filter) and
// keeps upstream's reason strings and messages.
package disruption
