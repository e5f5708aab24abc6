// Package lifecycle is the kubelet's view of a pod's life on its node, as
// Kubernetes v1.36.3's kubelet computes it: what phase the pod is in, what
// each container is doing and why, which conditions hold, when a container
// that exited runs again, which container starts next, and what
// `kubectl get pods` prints about it all. Every answer is a pure function
// of the pod, the facts the kubelet knows besides it (the runtime's
// sandboxes, the restart history) and the time, passed in as now.
//
// Rules about what the API server accepts — create and update validation,
// the API server's admission plugins — are not here: they are packages api/validation and
// api/admission. Probes are package probe (which of a container's probes a
// result is about is an api.ProbeKind: api.ProbeLiveness, ProbeReadiness or
// ProbeStartup), grace periods and deletion package termination.
//
// # What each part answers
//
// Admission. Admit is the kubelet's pod admission (pkg/kubelet canAdmitPod
// and pkg/kubelet/lifecycle's admit handlers): in order the eviction
// manager, the sysctl allowlist, the predicate handler (OS checks,
// SupplementalGroupsPolicy, kube-scheduler's GeneralPredicates through
// scheduling.AdmissionCheck, NoExecute taints) with critical-pod preemption,
// the pod features handler — and the status rejectPod writes for a refused
// pod. A Machine starts from that verdict (Admission, Rejected).
//
// Hostname. Hostname is the hostname, DNS domain and sandbox hostname the
// kubelet gives a pod (GeneratePodHostNameAndDomain, setHostnameAsFQDN),
// checking the names itself; EtcHosts the /etc/hosts it mounts.
//
// Phase. Phase is the kubelet's getPhase (pkg/kubelet/kubelet_pods.go):
// Pending, Running, Succeeded or Failed from the container statuses and
// the restart policy, with init containers and sidecars counted apart.
// ExplainPhase returns the same phase with the counts and the rule that
// decided it. ReportedPhase merges the computed phase with what was
// already reported (generateAPIPodStatus), and ValidPhaseTransition is the
// guarantee behind it: a phase never goes back and a terminal phase is
// never left.
//
// Container states. Describe, DescribeStatus and TerminatedReason read a
// container's waiting, running or terminated state and the reason strings
// the kubelet writes (ContainerCreating, CrashLoopBackOff, Completed,
// Error, OOMKilled, ...).
//
// Conditions. Conditions generates the kubelet-owned conditions
// (pkg/kubelet/status): PodReadyToStartContainers (formerly
// PodHasNetwork), Initialized, ContainersReady and Ready with readiness
// gates, keeping lastTransitionTime when a condition does not change.
// IsKubeletCondition tells the kubelet's conditions from the ones other
// components own. SandboxChanged is the runtime manager's verdict on
// whether the pod needs a new sandbox, which both the conditions and the
// start sequence depend on.
//
// The QoS class the kubelet ranks and limits pods by is an API helper:
// api.PodQOS (the class recorded in the status at create, else
// api.ComputePodQOS from requests and limits).
//
// Restarts and back-off. ContainerShouldRestart is the per-container
// restart rule of pkg/api/v1/pod: the container's own restartPolicy and
// restartPolicyRules, else the pod's restartPolicy. ShouldRestart adds
// what the container's kind changes (an ephemeral container never
// restarts, a sidecar always does, an init container that exited 0 is
// done). PodRestartPolicy applies the API default. Backoff is the
// crash-loop back-off:
// a value whose zero is the release's 10 s doubling to 300 s, with
// NextRestart answering from a container's restart history and
// InBackOff/Advance keeping the kubelet's per-container entry as a value.
//
// Start order. Sequence is the part of the kubelet's computePodActions
// that decides which containers start now: ephemeral containers, then
// init containers one at a time in spec order (each must exit 0, or, if
// it is a sidecar, be running and past its startup probe, before the next
// starts), then the regular containers together, in a new sandbox when
// SandboxChanged says so.
//
// Deadline. ActiveDeadline and PastActiveDeadline are the kubelet's
// activeDeadlineSeconds handler: measured from status.startTime, a pod past
// it is failed with reason DeadlineExceeded.
//
// Display. DisplayStatus renders the READY, STATUS, RESTARTS and AGE
// columns of `kubectl get pods` as the API server's table printer does
// (Init:1/3, CrashLoopBackOff, Terminating, ...).
//
// # The Machine
//
// Machine composes the parts into the pod's whole life on one node, as a
// side-effect-free state machine in the style of go.etcd.io/raft. NewMachine
// takes the pod as created and a MachineConfig (zero: the kubelet's
// defaults); the caller then feeds it Events — Scheduled, SandboxReady,
// ImagePulled, ContainerStarted, ContainerExited, the outcomes of postStart
// and preStop hooks, settled ProbeResults from package probe,
// DeletionRequested, NodeUnreachable, Tick — with the time through Step, and
// gets back the pod status the kubelet would report and the Actions to
// perform: create the sandbox, pull an image, start or kill a container,
// run a postStart hook, record an Event (api.Event: Killing, BackOff,
// FailedPostStartHook, ...), step again at a given time. Each Step is one
// kubelet sync: the status it reports is built before the sync acts, as
// generateAPIPodStatus runs before SyncPod, so a crash loop reads Running,
// Error, then CrashLoopBackOff at the next sync. The Machine uses
// Sequence for what starts, ShouldRestart and Backoff for restarts,
// PastActiveDeadline for the deadline, Phase and ValidPhaseTransition for
// the phase and Conditions for the conditions, so its answers agree with
// the single functions. It performs nothing and never reads the clock.
// NextDeadline says when it must next be stepped with Tick if nothing
// else happens (a back-off's end, the active deadline, a preStop hook's or
// grace period's end; the zero time when it waits only for events), so a
// simulator jumps from deadline to deadline instead of ticking. The
// scripted stories in testdata/machine show it event by event (replayed by
// TestStories through internal/story).
//
// # Entry points
//
// A node agent reporting status calls Phase (or ReportedPhase) and
// Conditions on every sync, ShouldRestart and Backoff.NextRestart when a
// container exits, and Sequence to know what to start; or it drives a
// Machine and lets it call them. A tool that only reads pods needs Phase,
// Conditions and DisplayStatus. Nothing here modifies the pod it is given.
package lifecycle
