// Package admission is the Kubernetes API server's admission plugins, as
// v1.36.3 runs them: the steps of a create or update where a plugin looks
// at what the cluster already holds and mutates the incoming object
// (mutating admission, after defaulting and before validation) or refuses
// it (validating admission, after validation). Each plugin is a pure function of the
// request's object and the cluster objects it consults, passed in as
// values; a refusal is an *Error carrying the API status the API server
// answers with (Forbidden or Invalid), matchable with errors.Is against
// ErrForbidden and ErrInvalid.
//
// # Priority
//
// The Priority plugin (plugin/pkg/admission/priority), in priority.go:
//
//   - on pod create, ResolvePriority turns spec.priorityClassName into
//     spec.priority and spec.preemptionPolicy from the PriorityClasses
//     that exist (the global default for a pod naming none, see
//     GlobalDefaultClass; api.DefaultPriority when there is no default), and
//     refuses unknown classes and pre-set values that disagree;
//     Priority.Apply writes the result into the pod;
//   - on PriorityClass create, AdmitPriorityClass runs the whole request:
//     api.DefaultPriorityClass, validation.ValidatePriorityClass, then the
//     plugin's rule that at most one class is globalDefault.
//
// The values the rest of podsem reads at run time stay outside this
// package: the priority limits and the built-in system classes are in
// package api (api.SystemPriorityClasses), and so is the one rule the
// scheduler and the kubelet read a pod's priority by (api.PodPriority).
//
// # DefaultTolerationSeconds
//
// The DefaultTolerationSeconds plugin
// (plugin/pkg/admission/defaulttolerationseconds), in tolerations.go: on
// every pod create and update, DefaultTolerations appends NoExecute
// tolerations of node.kubernetes.io/not-ready and
// node.kubernetes.io/unreachable for TolerationSeconds (300 s each by
// default; the kube-apiserver flags --default-not-ready-toleration-seconds
// and --default-unreachable-toleration-seconds) unless the pod already
// covers the key. Covering is the plugin's own test, not toleration
// matching: a toleration whose key is that key or empty and whose effect
// is NoExecute or empty, whatever its operator, value or seconds.
//
// # TaintNodesByCondition
//
// The TaintNodesByCondition plugin (plugin/pkg/admission/nodetaint), in
// nodetaint.go: on every Node create (never on an update),
// NodeCreateTaints appends node.kubernetes.io/not-ready:NoSchedule to the
// node's taints unless a taint of that key and effect is already there,
// whatever the node's conditions. The node lifecycle controller removes
// it when its node add/update handler sees the node (package
// nodelifecycle, NoScheduleTaintPass), so a new node takes no pods before
// the controller has looked at it.
//
// # PodTopologyLabels
//
// The PodTopologyLabels plugin (plugin/pkg/admission/podtopologylabels; on
// by default since v1.35), in topology.go: on a pods/binding request, and
// on a pod create that already names its node, PodTopologyLabels gives the
// node's topology.kubernetes.io/zone and region labels, which the pod gets
// (WithPodTopologyLabels: overwriting its own values of those keys), so
// that a workload can read its zone from its own labels (the downward
// API).
//
// # Storage
//
// Two plugins on the create of storage objects, in storage.go:
//
//   - StorageObjectInUseProtection
//     (plugin/pkg/admission/storage/storageobjectinuseprotection):
//     ClaimProtectionFinalizers and VolumeProtectionFinalizers give every
//     new PersistentVolumeClaim the kubernetes.io/pvc-protection finalizer
//     and every new PersistentVolume kubernetes.io/pv-protection, which the
//     pvc-protection and pv-protection controllers (package volume) remove
//     once deleting the object is safe;
//   - DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault):
//     DefaultClaimStorageClass gives a claim that names no class the
//     default StorageClass (api.DefaultStorageClassOf: the newest class
//     annotated storageclass.kubernetes.io/is-default-class=true).
//
// Validation itself is package api/validation, which this package calls
// where a request validates between its admission steps; nothing here
// reads a clock or keeps state.
package admission
