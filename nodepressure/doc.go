// Package nodepressure is the kubelet's node-pressure eviction as
// Kubernetes v1.36.3 does it (pkg/kubelet/eviction; the "Node-pressure
// Eviction" page of the Kubernetes documentation). The kubelet watches the
// node's memory (memory.available, allocatableMemory.available), its
// filesystems (nodefs, imagefs and containerfs, bytes and inodes) and its
// process IDs (pid.available) through eviction signals; when a signal
// falls below a hard or soft eviction threshold it reports a pressure
// condition on the node (MemoryPressure, DiskPressure, PIDPressure, from
// which the node lifecycle controller, package nodelifecycle, derives the
// node.kubernetes.io/memory-pressure, disk-pressure and pid-pressure
// NoSchedule taints), reclaims what it can at node level (dead containers,
// unused images), and otherwise evicts pods, one per pass, in its eviction
// order. While it reports pressure it refuses some new pods at admission.
// kube-scheduler's preemption, which also evicts pods but to make room for
// a more important one, is package preemption.
//
// # Signals and thresholds
//
// The kubelet reads its signals from its own Summary API (Summary,
// ObserveSignals): memory.available is the node's available memory against
// available plus working set, allocatableMemory.available the same for
// the cgroup all pods run in, the filesystem signals come from node.fs and
// the runtime's image and container filesystems, pid.available is the
// process-ID limit minus the running processes.
//
// Thresholds are set by evictionHard, evictionSoft,
// evictionSoftGracePeriod and evictionMinimumReclaim (ParseSettings reads
// them as the kubelet configuration spells them, ParseFlag as the
// --eviction-* flags do). The zero Settings is v1.36.3's Linux default
// (DefaultEvictionHard): memory.available<100Mi, nodefs.available<10%,
// nodefs.inodesFree<5%, imagefs.available<15%, imagefs.inodesFree<5%, no
// soft thresholds, a 5 m evictionPressureTransitionPeriod and an
// evictionMaxPodGracePeriod of 0. A hard threshold is acted on as soon as
// it is observed; a soft one only once it has held for its grace period. A
// percentage is a float32 fraction of the signal's capacity, as the
// kubelet holds it (10% of 100Gi is 10737418400 bytes, not 10Gi); "0%"
// and "100%" are dropped; every hard memory.available threshold is copied
// as an allocatableMemory.available one while enforceNodeAllocatable
// includes "pods"; and the containerfs thresholds are derived from the
// nodefs or imagefs ones according to the node's FilesystemLayout. A met
// threshold stays in force until its signal has recovered past the
// threshold plus its minimum reclaim.
//
// # Eviction order
//
// RankForEviction and EvictionOrder rank a node's pods for one signal and
// layout from their Summary API statistics (PodStats), first evicted first:
//
//   - memory: pods whose working set exceeds their memory request first,
//     then lower priority, then the larger usage above the request;
//   - pid: lower priority first, then more processes;
//   - disk: usage above the ephemeral-storage request first, then lower
//     priority, then the larger usage minus that request; which usage
//     counts (writable layers, logs, local volumes) follows the layout,
//     and the inode signals count inodes against an inode request that is
//     always zero.
//
// A pod without statistics goes before pods with them as soon as the
// comparison reaches a usage rule: before everything else for memory and
// disk, after priority for pid. Requests are the kubelet's: pod-level
// requests replace container requests, and overhead is added only to a
// non-zero total.
//
// # The eviction manager
//
// Manager is the kubelet's eviction manager (managerImpl.synchronize). At
// each housekeeping pass it observes the signals, works out the
// thresholds in force and met, the node conditions, and, for the first
// threshold met on fresh statistics (memory ones first), the resource to
// reclaim. For a disk signal it asks for garbage collection first
// (NodeGC) and evicts nothing if that relieved the node. Otherwise it
// evicts the first pod of the eviction order that is not critical
// (api.IsCriticalPod: static, mirror, or priority at least
// system-cluster-critical's 2000000000), and says how (PodEviction):
//
//   - the grace-period override: 1 s for a hard threshold, whatever the
//     pod's terminationGracePeriodSeconds; for a soft one
//     evictionMaxPodGracePeriod, capped by the pod's own
//     (termination.EvictionGraceOverride);
//   - the kubelet's message ("The node was low on resource: memory.
//     Threshold quantity: 100Mi, available: 80Mi. Container app was using
//     500Mi, request is 0, has larger consumption of memory. ");
//   - the pod's final status: phase Failed, reason Evicted, and the
//     DisruptionTarget condition with reason TerminationByKubelet
//     (termination.KubeletKillStatus).
//
// The pass also returns the Events the kubelet records (Pass.Events): the
// Warning EvictionThresholdMet "Attempting to reclaim memory" on the node
// whenever it sets out to reclaim, and the Warning Evicted event on the
// evicted pod, whose note is the message above and whose annotations name
// the starved resource and the offending containers.
//
// A pressure condition is reported while a threshold of its signals was
// in force less than evictionPressureTransitionPeriod ago, regardless of
// grace periods: it appears at the first breach and outlives the last one
// by the period (with a period of 0 it is never reported). A threshold
// whose statistics are no newer than at the previous pass is reported met
// but not acted on, so one reading never evicts two pods.
//
// Where upstream keeps thresholds in Go maps, which of two thresholds met
// at once is reclaimed can differ between two kubelets; the manager keeps
// them in a fixed order (hard before soft, signals in Signal constant
// order, allocatable copies after them, derived containerfs thresholds
// last). Not modelled: the pod-level local-storage limits the kubelet
// checks before its thresholds (ephemeral-storage limits, emptyDir
// sizeLimit), and swap.
//
// # Driving the manager
//
// The manager follows the one state-machine convention of podsem: a value,
// driven by Step(in, now) alone, which returns what to do as a value (a
// Pass) and never does it, and says with NextDeadline when it must next be
// stepped even if nothing is observed. The input is an Observation — a
// housekeeping pass's Summary with the node's active pods and, when the
// pass asked for garbage collection, the Summary after it — or Tick(),
// "time has passed": a pass on the readings last given, read again at now.
//
// The kubelet runs a pass every 10 s (MonitoringPeriod), and after
// evicting a pod waits for its cleanup, at most 30 s (PodCleanupTimeout),
// before the next. A caller may feed it that way. A simulator instead
// feeds an Observation whenever the node's usage changes (and when an
// evicted pod is cleaned up), and otherwise jumps time to NextDeadline:
// the first time a pass on unchanged readings would decide something new
// — a soft threshold's grace period ending, a pressure condition
// expiring, the end of the cleanup wait while pressure persists, the pass
// after stale statistics or a garbage collection. The zero time means no
// such time: nothing changes until the next Observation. A tick sooner
// than the next pass is due changes nothing.
//
//	m, err := nodepressure.NewManager(settings, nodepressure.LayoutShared)
//	...
//	pass := m.Step(nodepressure.Observation{Summary: summary, Pods: active}, now)
//	for d := m.NextDeadline(); !d.IsZero() && d.Before(nextChange); d = m.NextDeadline() {
//		pass = m.Step(nodepressure.Tick(), d)
//		...
//	}
//
// The stories in testdata/manager tell the documented scenarios this way.
//
// # Admission under pressure
//
// Admit (and Manager.Admit, with the conditions the manager reports) is
// the eviction manager's admission check: under MemoryPressure alone only
// BestEffort pods that do not tolerate the memory-pressure taint are
// refused; under DiskPressure or PIDPressure every pod is; critical pods
// always pass. The refusal has reason Evicted and the message "The node
// had condition: [MemoryPressure]. ".
package nodepressure
