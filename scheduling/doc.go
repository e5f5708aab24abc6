// Package scheduling answers where a pod may run and how good each place
// is, as kube-scheduler v1.36.3 answers it: effective pod requests and
// limits, the filter plugins (NodeResourcesFit, NodeName,
// NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
// InterPodAffinity, PodTopologySpread), their scores, the pod's priority
// (PodPriority; the admission plugin that sets it is package
// api/admission) and the scheduling queue order, all over an indexed
// cluster snapshot that is updated incrementally.
//
// One scheduling decision is a Cycle (Cluster.NewCycle): Filter and Score
// return NodeResult and NodeScore lists, convenient but allocated per
// node; Decide (and FilterDecision) write the same answers into a
// reusable Decision that keeps one small verdict per node, the statuses of
// rejected nodes only and one score column per plugin, so that a caller
// deciding pod after pod allocates nothing per node.
package scheduling
