// Package preemption will own who loses when resources run short:
// kube-scheduler's DefaultPreemption (victim selection per node, node
// choice, PodDisruptionBudget violations, nomination) and the kubelet's
// node-pressure eviction order.
package preemption
