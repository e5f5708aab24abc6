// Package scheduling answers where a pod may run and how good each place
// is, as kube-scheduler v1.36.3 answers it: effective pod requests and
// limits, the filter plugins (NodeResourcesFit, NodeName,
// NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
// InterPodAffinity, PodTopologySpread), their scores, priority resolution
// and the scheduling queue order, all over an indexed cluster snapshot that
// is updated incrementally.
package scheduling
