// Package cluster is a whole Kubernetes cluster as one pure, deterministic
// state machine: the API server's object store, kube-scheduler, the
// controllers of kube-controller-manager and one kubelet per node, each the
// podsem machine of that component driven through its public API, as
// Kubernetes v1.36.3 runs them. Objects and timed actions go in; an event
// log and the resulting objects come out. There is no clock and no
// goroutine: time jumps from one deadline to the next, each component
// saying when it next needs to run.
//
// It answers the questions that span components and time: "I delete this
// pod, scale this Deployment, cordon this node: what happens, in what
// order?" — and, as the later steps of issue 22 land, "if I drain node-7,
// where does each pod go and which PodDisruptionBudget holds it up?", "my
// zone died at 10:00: when is each pod evicted and replaced?".
//
// # The machine
//
// Machine follows podsem's one convention: New builds it from the objects
// at t=0, Step(input, now) applies a scenario action (Do) or the passing of
// time (Tick) and lets every component react until the cluster is quiet at
// that instant, NextDeadline says when something is next due. Run drives a
// Scenario from t=0 to its `until`, jumping deadline to deadline.
//
// Composed today (the rest of issue 22 is listed in NEXT.md):
//
//   - the API server (kube-apiserver): create with generateName (a
//     deterministic 5-character suffix from the API server's alphabet), API
//     defaulting (api.DefaultPod; apps/v1 defaults for Deployments and
//     ReplicaSets), LimitRanger (the namespace's LimitRanges' defaults
//     and bounds, for pods and claims), ServiceAccount (a pod's account
//     must exist), Pod Security admission (the namespace's enforce
//     labels), Priority, DefaultTolerationSeconds and
//     PodTopologyLabels admission of pods, ResourceQuota admission of
//     every namespaced create (resourcequota.Admit: a create that would go
//     over a quota refused with upstream's 403, the usage of an admitted
//     one written to the quota's status; a controller's sync learns how
//     many of its pod creates pass before the quota refuses), (the last also on the binding:
//     a bound pod gets its node's zone and region labels),
//     TaintNodesByCondition admission of Nodes, DefaultStorageClass
//     and StorageObjectInUseProtection admission of claims and volumes
//     (api/admission), validation (api/validation), the registry's
//     PrepareForCreate; update with generation bumps; pod DELETE through
//     termination.APIServerGrace (graceful deletion, grace 0 removal); the
//     binding subresource; the Eviction subresource (disruption.Evict with
//     every PodDisruptionBudget); status writes; a watch event per write;
//     a Namespace's DELETE marks it Terminating (default, kube-system and
//     kube-public refuse it), and NamespaceLifecycle then refuses every
//     create in it, Events included (namespace.Admit): the ReplicaSet
//     controller takes the refusal for success and records nothing;
//   - kube-scheduler: scheduling.NewLoop with the default profile and
//     DefaultPreemption (preemption.New), fed by the watch events; its
//     queue's leftover flush takes a pod 5 minutes after it failed even
//     on the flush's grid, as a real scheduler's late timer does (1 ms
//     under upstream's exact rule);
//   - kube-controller-manager: the Deployment and ReplicaSet controllers
//     (workloads), with the Events they record (ScalingReplicaSet,
//     SuccessfulCreate, SuccessfulDelete, FailedCreate); the disruption
//     controller (disruption.Evaluate); the node lifecycle controller
//     (nodelifecycle.Controller: NodeNotReady, Unknown, taints, pods marked
//     not ready); taint eviction (nodelifecycle.TaintEviction:
//     TaintManagerEviction); pod GC (termination.Collector); the
//     namespace controller (namespace.Controller and namespace.Sync: a
//     deleted namespace's pods 5 s after its deletion, the rest once
//     they are gone, then its finalizer, and the namespace goes); the
//     StatefulSet, DaemonSet and Job controllers (workloads'
//     StatefulSetController with its ControllerRevisions and claims,
//     DaemonSetController over every node with its ControllerRevisions,
//     JobController with its tracking finalizer); the ttl-after-finished
//     controller (workloads.TTLAfterFinishedController: a finished Job
//     deleted, foreground, once its ttlSecondsAfterFinished has run out);
//     the cronjob controller (workloads.CronJobController: a CronJob's
//     Jobs created at its schedule's times in kube-controller-manager's
//     zone, Config.LoadLocation(""), UTC by default; Forbid, Replace,
//     startingDeadlineSeconds, the history limits; its requeue 100 ms
//     after each scheduled time); the resourcequota controller
//     (resourcequota.Status: a quota's status.hard and status.used written
//     when it is added or its spec.hard changes, when an object it tracks
//     is deleted or a pod it counts turns terminal, and at each 5-minute
//     full resync, QuotaResyncPeriod);
//     the garbage collector
//     (background, foreground and orphan
//     propagation with their finalizers); the PersistentVolume controller
//     and the attach-detach controller (volume: binding, ExternalProvisioning,
//     Multi-Attach, SuccessfulAttachVolume, the forced detach), with the
//     e2e harness's CSI provisioner and attacher model (StorageConfig);
//     the ephemeral volume controller (a pod's generic ephemeral
//     volumes get their claims, owned by the pod: ephemeral.go);
//     the pvc-protection and pv-protection controllers
//     (volume.SyncClaimProtection, SyncVolumeProtection: a claim or volume
//     deleted while in use stays, terminating, until its finalizer goes);
//   - one kubelet per Node: its Lease renewed every 10 s and its status
//     checked every 10 s, posted when a condition changed and every 5
//     minutes otherwise (lifecycle.NodeConditions: pressure conditions,
//     Ready False while shutting down, with the kubelet's node status
//     events); node-level admission of each pod bound to the node
//     (lifecycle.Admit: resources, sysctls, node pressure, shutdown; a
//     critical pod short of resources is admitted after the pods Admit
//     names are preempted: the Warning event Preempting and the kill
//     through lifecycle.KilledForCriticalPod); a
//     lifecycle.Machine per admitted pod, answered by the RuntimeModel
//     (the e2e harness's fake kubelet: containers start 1 s after the pod
//     is seen, are ready at the first probe, exit 143 on SIGTERM; a Node
//     without addresses registers with InternalIP 10.0.0.<n>), writing
//     the pod's status (hostIP and hostIPs from the Node's addresses, as
//     downward.HostIPs reads them) and removing it with grace 0 once it
//     has stopped;
//     the eviction manager (nodepressure.Manager, once a pressure action
//     gave it readings: EvictionThresholdMet, Evicted, the victim killed
//     through lifecycle.Killed); the node shutdown manager (graceful node
//     shutdown by priority group, termination.BuildShutdownTimeline);
//   - kubectl drain: cordon, the pods to evict (disruption.PlanDrain),
//     evictions with a 429 retried every 5 s, the wait for each pod's
//     deletion, --timeout. Its evictions are concurrent, as kubectl's
//     goroutines are: of those made at one instant that a budget's status
//     would allow, the first charges it and the others lose the write race
//     and are tried again by the API server
//     disruption.EvictionConflictRetry (500 ms) later (answered then: a 429
//     when the budget is spent).
//
// # Order and determinism
//
// Each Step runs rounds until nothing is left: the store's watch events
// are delivered to the shared informer cache in the order of the writes
// (each becoming a watch record in the log), then every component that an
// event concerns or whose deadline has come runs once, in a fixed order:
// node lifecycle controller, taint eviction, pod GC, namespace
// controller, garbage collector,
// disruption controller, Deployment controller, ReplicaSet controller,
// resourcequota controller, StatefulSet, DaemonSet, Job and cronjob
// controllers, the ttl-after-finished
// controller, the storage side (volume
// model, PersistentVolume controller, attach-detach controller, bindings
// waiting in PreBind), the pvc-protection and pv-protection controllers,
// kube-scheduler (one ScheduleOne per tick while pods are waiting), the
// kubelets by node name, the drains in progress.
// Components read the cache, never the store, so a write becomes visible
// at the next round, as through an informer. Upstream runs them
// concurrently a few milliseconds apart; here they run at the same
// instant in that order. The same scenario gives the same log, byte for
// byte.
//
// # The event log
//
// Record is one line, in the JSON form of the e2e harness that runs the
// same scenario on a real control plane (offset, time, component, type,
// reason, object, message, count, source), so that both logs compare line
// by line: every Event a component records (source "event", with
// upstream's reason and message: Scheduled, FailedScheduling, Preempted,
// SuccessfulCreate, ScalingReplicaSet, Pulled, Created, Started, Killing,
// ...; the Events of every component but kube-scheduler go through
// client-go's event correlation first, package record: an Event sent again
// counts up, the 10th distinct message of a group within 10 minutes is
// "(combined from similar events): ...", and past 25 Events about one
// object a component's further ones are dropped, one more per 5 minutes;
// kube-scheduler's go through its events.k8s.io recorder's series,
// record.Series: a repeat about the same pod version is written once with
// count 2, then only by the recorder's 30-minute refresh and when the
// series ends 6 minutes after its last Event), every change of a watched
// object's summary (source "watch": a pod's node, phase, readiness,
// containers, deletion; a node's readiness, taints, cordon; a workload's
// replica counts), and the scenario's markers
// (Start, Action, ActionFailed, UnusedConfig, Until; BindFailed when the
// API server refused kube-scheduler's pods/binding call, the pod deleted
// or bound meanwhile).
//
// # The scenario
//
// ParseScenario reads the scenario file of issue 22 in its JSON form
// (cmd/podsem converts YAML): objects, actions at offsets, until, config by
// upstream flag name. An object of a kind the cluster does not model
// decodes as api.Unstructured: a kind nothing a pod lives through depends
// on (ConfigMap, Secret, ServiceAccount, RBAC, Ingress, ...) is held as
// given; any other stops the run, or refuses the apply, with an error
// wrapping errors.ErrUnsupported. Run runs it as the e2e harness does: the objects are
// created (kinds in order, owners first, ownerReferences re-pointed at the
// new uids, statuses dropped but Nodes') and left to settle; t=0 is the
// instant they have (Unsettled: the harness's checks of nodes, pods,
// Deployments, ReplicaSets, StatefulSets, DaemonSets, claims and budgets),
// the earlier records are Result.Setup with negative offsets. Actions of
// one offset are applied together, in order, and the components react
// once all of them are (DoAll): the harness sends them milliseconds
// apart, faster than a real control plane reacts. The API
// server's built-in PriorityClasses (system-node-critical,
// system-cluster-critical) exist from the start, unrecorded; a scenario
// listing one keeps the server's. So do the API server's `kubernetes`
// Service in default and, in every active namespace, the `default`
// ServiceAccount and the `kube-root-ca.crt` ConfigMap (recreated when
// deleted): they count against ResourceQuotas, and Objects leaves them
// out (builtin.go). Actions: apply (server-side apply as
// field manager kubectl with conflicts forced, as the harness applies,
// through managedfields: a field kubectl applied before and leaves out now
// is removed unless another writer owns it — a scale's spec.replicas, a
// controller's annotation, any field of an object created before its
// first apply — and status is never applied), delete (as the harness
// deletes, background propagation and default grace, or with options:
// `{"delete": {"ref": "Deployment/default/web", "propagationPolicy":
// "Foreground", "gracePeriodSeconds": 0}}`), scale, cordon, uncordon, drain
// (its flags but --disable-eviction), lose (the kubelet goes silent; its
// containers keep running), restore, deleteNode, taint, exit (a container
// exits with a code), pressure (the node's statistics read a signal's
// value, a quantity or a percentage of capacity, from the kubelet's next
// 10-s housekeeping pass on; a later pressure action above the threshold
// relieves it, the condition clearing after the pressure transition
// period; an optional usage map gives each pod's usage of the signal's
// resource, `"usage": {"default/batch-1": "4900Mi"}`, which the eviction
// manager ranks pods by, a pod not listed using nothing and a listed pod
// that stops giving its usage back), shutdown (graceful node shutdown with
// --shutdown-grace-period, else the node just stops: as lose, its
// containers dead).
//
// podsem's own records (Source SourcePodsem) mark state changes upstream
// records no Event for: PodGCForceDeleted (a pod force-deleted by pod GC,
// with the collector's explanation), EvictionRefused (an eviction answered
// 429, naming the budget), TaintAdded (a taint the node lifecycle
// controller put on a node), ZoneStateChanged (a zone's state or
// NoExecute rate changed at a monitor pass: "zone zone-a:
// PartialDisruption, 2 of 4 nodes not Ready, 0.01 NoExecute taints/s"),
// FullDisruption (every zone became fully disrupted, or one stopped
// being: the controller logs both), CascadeSlowed and CascadeSettled (a
// cascade of reactions that did not come to rest at one instant was
// slowed to one round per reaction latency, and when it came to rest:
// see CascadeConfig). A finished drain is the harness's Drained.
//
// Every timing is upstream's default unless the scenario's config sets it
// by upstream flag name (ConfigFromFlags; a key nothing takes is an
// UnusedConfig warning): kube-apiserver's
// default-not-ready-toleration-seconds and
// default-unreachable-toleration-seconds (300); kube-controller-manager's
// node-monitor-period (5s), node-monitor-grace-period (50s),
// node-startup-grace-period (1m), node-eviction-rate (0.1),
// secondary-node-eviction-rate (0.01), unhealthy-zone-threshold (0.55),
// large-cluster-size-threshold (50), terminated-pod-gc-threshold (12500),
// resource-quota-sync-period (5m), pvclaimbinder-sync-period (15s), disable-force-detach-on-timeout (false;
// the forced detach after maxWaitForUnmountDuration, 6 m); the kubelet's
// eviction-hard, eviction-soft, eviction-soft-grace-period,
// eviction-minimum-reclaim, eviction-pressure-transition-period (5m),
// eviction-max-pod-grace-period, shutdown-grace-period and
// shutdown-grace-period-critical-pods (0: no graceful shutdown); the
// runtime model's pod-start-latency (1s), sigterm-exit-code (143) and
// bind-interval (0: a burst of bindings written at one instant; 20ms
// paces them as a real control plane does), the
// slowed cascade's cascade-rounds (25) and reaction-latency (50ms), and
// the volume model's provision-delay, attach-delay and
// report-volumes-in-use. Fixed as upstream fixes them: the Lease renewed
// every 10 s, the node status checked every 10 s and posted every 5 m
// when unchanged, kubectl drain's 5-s retry of a 429 (DrainEvictRetryDelay)
// and 1-s deletion polls, the API server's 500-ms retry of an eviction
// that lost the race for a budget (disruption.EvictionConflictRetry), pod GC's 20-s period and 40-s quarantine, the
// crash-loop back-off (10 s doubling to 5 m).
//
// Besides the log, Run answers what operators ask (Result.Answers): per
// pod, the node it ran on and how long it was unavailable between t=0 and
// until (PodFate); per PodDisruptionBudget, how long it held evictions up
// (BudgetHold); per Service, its ready endpoints over time
// (ServiceEndpoints, from package endpointslice's rules).
package cluster
