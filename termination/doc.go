// Package termination answers how a pod stops: the grace period the API
// server records for a DELETE, the grace the kubelet uses for the pod and
// for each container (eviction overrides, probe-level grace, preStop time),
// the termination timeline, graceful node shutdown, force deletion and the
// at-most-one guarantee it endangers, and which pods the pod garbage
// collector deletes.
//
// # How a pod stops
//
// A DELETE of a pod is first decided by the API server (APIServerGrace,
// with the pod strategy's CheckGracefulDelete): the grace period comes from
// the request's gracePeriodSeconds, else from the pod's
// terminationGracePeriodSeconds (which API defaulting sets to 30 on
// create); a pod that never reached a node or has already finished gets 0.
// A graceful deletion stores deletionTimestamp (now + grace) and
// deletionGracePeriodSeconds; a grace period of 0 removes the object at
// once. Once a deletion is under way, later DELETEs can only shorten it.
//
// The kubelet then terminates the pod. Its pod worker settles on a pod-level
// grace period (KubeletPodGrace): the API server's value, shortened by any
// kubelet-internal override such as an eviction's (EvictionGraceOverride),
// never lengthened, at least 1 s. Each container is then stopped
// (ContainerGrace): its preStop hook runs for at most the grace period, the
// time it took is subtracted, the stop signal is sent, and the runtime sends
// SIGKILL when what is left — at least 2 s — runs out; a sidecar's stop
// signal waits until the regular containers and the next sidecar declared
// after it have stopped. BuildTimeline lays the whole sequence out in time,
// including the kubelet restarting halfway, which starts the termination
// over with the full grace period. lifecycle.Machine stops pods with the
// same calculators, step by step, and a property test keeps the two in
// agreement.
//
// Both read a pod as the API server stores it: a pod written without
// terminationGracePeriodSeconds has the default 30 s
// (StoredGracePeriodSeconds, the one home of that rule). The calculators
// that mirror a single upstream function read the field as given, as that
// function does. Grace periods are int64 seconds that neither the API
// server nor the kubelet bounds; where upstream's seconds-to-Duration
// product would wrap (past about 292 years), every calculator here
// saturates at the largest Duration instead (GraceDuration), so no
// deadline comes before the request that set it.
//
// # Force deletion and pod safety
//
// Deleting with grace 0 removes the object before anyone has confirmed that
// the pod's processes stopped; a replacement with the same name may then
// run beside them. Only the kubelet (after confirming termination), the pod
// garbage collector (for pods whose node no longer exists or is out of
// service) and a user who knowingly accepts the risk may do so
// (MayForceDelete); kubectl shows ForceDeleteWarning
// (KubectlDeleteOptions).
//
// # Pod garbage collection
//
// Collector is kube-controller-manager's pod garbage collector
// (pkg/controller/podgc) as a state machine, driven the way every podsem
// machine is: Step(GCInput{Pods, Nodes, NodeExists}, now) feeds it the pod
// and node caches and returns what the controller would do as a value
// (GCResult), never doing it. Per pass, one every 20 s from the first Step,
// it deletes terminated pods beyond the threshold, terminating pods on
// out-of-service nodes, orphans whose node is confirmed gone after a 40 s
// quarantine, and unscheduled terminating pods, marking running ones Failed
// first. NextDeadline is the next pass that has work (a quarantine's end,
// or work seen in the caches; the zero time when there is none), so a
// simulator steps it only then and when the caches change; its stories in
// testdata/podgc show it pass by pass. CollectGarbage is a single
// steady-state pass.
//
// # Pods the kubelet stops on its own
//
// When the kubelet itself ends a pod — a node-pressure eviction (decided in
// package nodepressure) or a graceful node shutdown — it writes the final
// status (KubeletKillStatus): the phase, a reason and message, and a
// DisruptionTarget condition with reason TerminationByKubelet.
//
// A graceful node shutdown (pkg/kubelet/nodeshutdown) stops the node's pods
// in priority groups (ShutdownConfig.PriorityGroups): shutdownGracePeriod
// and shutdownGracePeriodCriticalPods make two groups, priority 0 and
// 2000000000; shutdownGracePeriodByPodPriority makes any number. A pod
// joins the group with the largest priority not above its own (the lowest
// group when it is below all of them), and gets the group's grace period,
// or its own terminationGracePeriodSeconds when that is not longer.
// BuildShutdownTimeline lays the groups out one after the other, from the
// lowest priority, each waiting at most its grace period, with every pod's
// final status (Failed, or Succeeded when it already was; reason
// Terminated). An empty configuration turns the feature off.
//
// # Sources and fidelity
//
// The rules are those of Kubernetes v1.36.3 (pkg/registry/core/pod,
// k8s.io/apiserver/pkg/registry/rest, pkg/kubelet/pod_workers.go,
// pkg/kubelet/kuberuntime, pkg/kubelet/eviction, pkg/kubelet/nodeshutdown,
// pkg/controller/podgc and kubectl delete), checked against the
// termination.* and kubelet.node-shutdown conformance vectors.
// Where older releases behaved differently v1.36.3 is the reference;
// notably hard evictions now pass a 1 s override (v1.23 passed 0) and soft
// evictions cap evictionMaxPodGracePeriod by the pod's own grace
// period. Two upstream details are kept on purpose: the kubelet counts
// preStop and ordering time in whole seconds, so with sub-second durations
// a sidecar can be killed up to one second after the deadline plus the 2 s
// extension; and a deletionGracePeriodSeconds of 0 lets a later kill
// override replace the pod worker's 1 s floor.
//
// Every function is pure: time comes in as an argument, nothing is read
// from the environment, and inputs are never modified.
package termination
