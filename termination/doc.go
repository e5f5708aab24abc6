// Package termination answers how a pod stops: the grace period the API
// server records for a DELETE, the grace the kubelet uses for the pod and
// for each container (eviction overrides, probe-level grace, preStop time),
// the termination timeline, force deletion and the at-most-one guarantee it
// endangers, and which pods the pod garbage collector deletes.
package termination
