// Package namespace answers "what happens when I delete this namespace, and
// when?" as Kubernetes v1.36.3 answers it: the namespace registry of the
// API server marks the namespace Terminating, the NamespaceLifecycle
// admission plugin refuses new objects in it, and kube-controller-manager's
// namespace controller (pkg/controller/namespace) empties it and removes
// its finalizer.
//
// # The deletion, in order
//
// A DELETE of a namespace whose spec.finalizers is not empty (the API
// server puts FinalizerKubernetes on every namespace it creates) sets its
// deletionTimestamp and its phase to Terminating; nothing else. The
// namespace controller waits 5 s after each change it sees of a
// namespace being deleted (DeletionGracePeriod, for caches of other API
// servers to catch up), then syncs it (Sync):
//
//   - its pods first (OrderedNamespaceDeletion, locked on since v1.34): a
//     delete of the whole collection, with the default grace period of
//     each pod. While any pod is left, nothing else is deleted, and the
//     controller comes back after half the longest
//     terminationGracePeriodSeconds of the pods still running, plus 1 s
//     (Result.RequeueAfter) — or sooner, 5 s after its own status update;
//   - then every other object of the namespace, in background propagation;
//     objects left with finalizers make it come back after 8 s (half the
//     15 s it grants finalizers, plus 1);
//   - once nothing is left, it removes FinalizerKubernetes, and the
//     namespace leaves storage.
//
// After each pass it writes the namespace's five deletion conditions
// (NamespaceContentRemaining and the rest) when they changed. A pass that
// finds objects left with nothing to wait for (no estimate, no finalizer)
// fails, and the controller retries it with the workqueue's exponential
// back-off: 5 ms, doubled after each failure, at most 60 s.
//
// Controller is that queue as a state machine (NamespaceChanged,
// NamespaceGone and Synced in, the namespaces due out, a next deadline);
// Sync is one pass over a namespace, reading and deleting through the
// small Client interface the caller wires to its API server; Admit is the
// NamespaceLifecycle admission check of a create.
//
// While the namespace is Terminating, its workload controllers' creates
// are refused: the ReplicaSet, Job and DaemonSet controllers take such a
// refusal for success and record nothing (ErrTerminating), and an Event
// cannot be created there either, so the only Events of that time are the
// count updates of Events created before.
package namespace
