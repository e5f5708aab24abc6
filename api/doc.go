// Package api is podsem's data model: the Kubernetes objects the pod rules
// read — Pod, Node, Namespace, PriorityClass, PodDisruptionBudget, Eviction,
// the workload objects (Deployment, ReplicaSet, StatefulSet,
// ReplicationController, DaemonSet, Job, Service) and the storage objects
// the scheduler's volume plugins consult (PersistentVolumeClaim,
// PersistentVolume, StorageClass, CSINode, CSIDriver) — with the Kubernetes
// API's JSON field names, so that `kubectl get -o json` output decodes
// straight into it and encodes back with empty fields left out. The types
// are those of k8s.io/api (core/v1, policy/v1, scheduling/v1, apps/v1,
// batch/v1, storage/v1) and apimachinery's meta/v1, written anew.
//
// Besides the types, api holds only what every other package needs to read
// them: resource quantities (ParseQuantity, exact arithmetic and canonical
// formatting as apimachinery's resource.Quantity), label and node selectors
// (compiled once, matched without allocation), label key/value validation,
// the API server's defaulting of pods, PriorityClasses and storage
// objects (DefaultPod, DefaultPriorityClass, DefaultPersistentVolumeClaim,
// DefaultStorageClass..., applied only on request), the status the API
// server gives a pod it creates (InitialPodStatus), the well-known priority
// values and built-in system PriorityClasses (SystemPriorityClasses), the
// storage helpers every volume rule shares (a claim's class, a volume's
// binding and node affinity, an ephemeral volume's claim name),
// the aggregate container resource formula the defaulting relies on,
// field errors (FieldError, FieldErrors) that every package's validation
// returns, and the pod rules several components share, each in one place:
// readiness (IsPodReady), static, mirror and critical pods (IsStaticPod,
// IsMirrorPod, IsCriticalPod), a pod's priority (PodPriority), how a pod
// condition is written (UpdatePodCondition) and which of a container's
// probes is meant (ProbeKind). ErrInvalidInput is the one sentinel every
// package's bad-input errors wrap. It imports nothing from k8s.io.
package api
