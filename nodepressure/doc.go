// Package nodepressure is the kubelet's node-pressure eviction
// (pkg/kubelet/eviction) as Kubernetes v1.36.3 does it.
//
// # Node-pressure eviction order
//
// When a node runs short of memory, process IDs or disk, the kubelet's
// eviction manager (pkg/kubelet/eviction) ranks the node's pods and evicts
// the first. RankForEviction and EvictionOrder reproduce the ranking for
// each eviction Signal and FilesystemLayout from the pods and their
// Summary API statistics (PodStats):
//
//   - memory: pods whose working set exceeds their memory request first,
//     then lower priority, then the larger usage above the request;
//   - pid: lower priority first, then more processes;
//   - disk: usage above the ephemeral-storage request first, then lower
//     priority, then the larger usage minus that request; which usage
//     counts (writable layers, logs, local volumes) follows the layout,
//     and the inode signals count inodes against an inode request that
//     is always zero.
//
// A pod without statistics goes before pods with them as soon as the
// comparison reaches a usage rule: before everything else for memory and
// disk, after priority for pid. Requests are the kubelet's: pod-level requests
// replace container requests, and overhead is added only to a non-zero
// total.
//
// # When the kubelet evicts: thresholds and the eviction manager
//
// The kubelet acts on node pressure through eviction thresholds, set by
// evictionHard, evictionSoft, evictionSoftGracePeriod and
// evictionMinimumReclaim (ParseEvictionSettings reads them as the
// configuration spells them, ParseEvictionFlag as the --eviction-* flags
// do; the zero EvictionSettings is v1.36.3's Linux default,
// memory.available<100Mi, nodefs.available<10%, nodefs.inodesFree<5%,
// imagefs.available<15%, imagefs.inodesFree<5%). A percentage is a
// float32 fraction of the signal's capacity, "0%" and "100%" are dropped,
// and every hard memory.available threshold is copied as an
// allocatableMemory.available one.
//
// EvictionManager is the kubelet's eviction manager (synchronize) as a
// state machine. Each Step takes one housekeeping pass — the kubelet
// Summary API's answer (Summary) and the active pods — and the time, and
// returns an EvictionStep: the thresholds in force and those met (a soft
// threshold only once it has held for its grace period; a met threshold
// stays in force until the signal recovers past its minimum reclaim), the
// node conditions (MemoryPressure, DiskPressure, PIDPressure, held for
// evictionPressureTransitionPeriod after the last breach, regardless of
// grace periods), the resource reclaimed (only with statistics newer than
// at the previous pass; memory first; image and container garbage
// collection first for disk signals), and at most one evicted pod: the
// first pod of the eviction order (RankForEviction — the same ranking) that
// is not critical (IsCriticalPod: static, mirror, priority at least
// 2000000000), with its grace-period override (1 s for a hard threshold,
// evictionMaxPodGracePeriod capped by the pod's own for a soft one, from
// termination.EvictionGraceOverride), the kubelet's message and the pod's
// final status (Failed, Evicted, the DisruptionTarget condition with
// reason TerminationByKubelet). The manager performs nothing.
//
// AdmitUnderPressure (and EvictionManager.Admit) is the kubelet's
// admission check on a node under pressure: under MemoryPressure alone
// only BestEffort pods that do not tolerate the memory-pressure taint are
// refused; under DiskPressure or PIDPressure every pod is; critical pods
// always pass. The refusal reads "Evicted", "The node had condition:
// [...]. ".
//
// Upstream keeps thresholds in Go maps, so which of two thresholds acted
// on at once is reclaimed can differ between two kubelets. podsem keeps
// them in a fixed order (hard before soft, signals in Signal constant
// order, allocatable copies after them) and says so where it matters.
package nodepressure
