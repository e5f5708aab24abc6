// Package workloads answers how Kubernetes v1.36.3's workload controllers
// (kube-controller-manager's pkg/controller/replicaset and
// pkg/controller/statefulset) manage the pods they own: how many pods one
// sync of a ReplicaSet creates or deletes, and which ordinals one sync of a
// StatefulSet creates, deletes or waits for.
//
// The two differ exactly where a lost node matters. A pod the taint
// eviction controller (package nodelifecycle) deleted on an unreachable
// node stays Terminating: no kubelet will confirm the kill. A ReplicaSet
// counts it as gone and replaces it at once (SyncReplicaSet, upstream's
// manageReplicas with controller.IsPodActive); a StatefulSet's pod names
// are identities, so it never creates pod N while an object named N exists
// (SyncStatefulSet, upstream's defaultStatefulSetControl) and its
// replacement waits until pod garbage collection or a force deletion
// removes the object (package termination).
//
// Each sync is a pure function of the workload object, the pods it owns
// and, where readiness ages matter, now: nothing is written anywhere and
// inputs are never modified. What is not modelled (expectations, adoption
// by selector, the scale-down ranking, PersistentVolumeClaims, the
// Deployment, DaemonSet and Job controllers) is listed on each function.
// Bad input — a nil object, a missing spec.replicas — is an error wrapping
// api.ErrInvalidInput.
package workloads
