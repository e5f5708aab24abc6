// Package downward answers what the downward API exposes to a container,
// as Kubernetes v1.36.3's kubelet resolves it (pkg/kubelet's
// makeEnvironmentVariables and pkg/volume/downwardapi): fieldRef and
// resourceFieldRef values for environment variables and volume files, the
// volume file format, and the container's resolved environment with
// $(VAR) expansion (third_party/forked/golang/expansion).
//
// # The downward API
//
// Kubernetes lets a container learn about its pod without talking to the
// API server, in two ways: environment variables whose valueFrom is a
// fieldRef or resourceFieldRef, resolved by the kubelet when it starts
// the container, and downwardAPI volumes (or downwardAPI sources of
// projected volumes) whose files the kubelet's volume plugin writes.
// The two accept different fields:
//
//   - both: metadata.name, metadata.namespace, metadata.uid, and single
//     labels and annotations (metadata.labels['<key>'],
//     metadata.annotations['<key>']; a missing key gives "");
//   - environment variables only: spec.nodeName, spec.serviceAccountName,
//     status.hostIP, status.hostIPs, status.podIP, status.podIPs;
//   - volume files only: the whole metadata.labels and
//     metadata.annotations maps, one key="value" line per entry, sorted,
//     values quoted as Go quotes strings (FormatMap).
//
// A resourceFieldRef exposes a container's limits or requests of cpu,
// memory, ephemeral-storage and huge pages, divided by a divisor (1 by
// default) and rounded up. When a container sets no cpu, memory or
// ephemeral-storage limit, the kubelet exposes the node's allocatable
// amount instead (for environment variables, a pod-level cpu or memory
// limit first).
//
// # The API
//
// FieldRef resolves a fieldRef in Env or Volume mode; Context carries
// what the kubelet knows beyond the pod (its Node object for host IPs
// and allocatable, its configured node IPs, the runtime's pod IPs, the
// service variables) as an explicit value. ResourceFieldRef and
// ContainerResource resolve resourceFieldRefs. Environment builds a
// container's whole environment, reading ConfigMaps, Secrets and env
// files through a caller-provided Lookup (Objects is an in-memory one),
// and Expand / ExpandVars implement $(VAR) expansion with $$ escaping.
// VolumeFiles lists the files of a downwardAPI or projected volume with
// their contents and modes. CanonicalFieldPath is the API server's
// field-label conversion, which both the kubelet and validation apply.
// Every error wraps one of the package's sentinel errors
// (ErrUnsupportedField, ErrInvalidKey, ErrNoNode, ...).
//
// Which field paths, resources and divisors a pod may name at all is the
// API server's rule, not the kubelet's: package api/validation checks
// them (ValidateObjectFieldSelector, ValidateResourceFieldSelector,
// ValidateDownwardAPIVolumeFile) and imports this package, never the
// other way round.
//
// The rules are those of Kubernetes v1.36.3: pkg/fieldpath, pkg/kubelet
// (makeEnvironmentVariables, podFieldSelectorRuntimeValue,
// defaultPodLimitsForDownwardAPI), pkg/api/v1/resource,
// pkg/volume/downwardapi, the field-label conversion of pkg/apis/core
// and the kubelet's $(VAR) expansion. Where they surprise (spec.restartPolicy,
// spec.schedulerName and status.phase pass the API's field-label check
// but the kubelet cannot resolve them; spec.host is an alias of
// spec.nodeName; annotation keys are checked lowercased; pod IPs follow
// the node's IP family; host IPs prefer InternalIP), the doc comments
// say so.
//
// # Untrusted pods
//
// The pods may come from anyone, and a node agent may act on what this
// package returns, so three answers are bounded where the kubelet's are
// not or differ by platform:
//
//   - VolumeFiles returns no file whose path would leave the volume: a
//     path the API server refuses (absolute, with a ".." element, starting
//     with "..", empty; api.ValidateLocalNonReservedPath) is left out and
//     reported with ErrInvalidPath and the API server's field error.
//   - Environment expands at most MaxExpandedEnvironmentBytes of env
//     values per container (redefinitions such as A=$(A)$(A) double a
//     value each time); past that it fails with ErrExpansionLimit naming
//     the entry. Expand's work is linear in its input and output.
//   - A resourceFieldRef value past the int64 range saturates to
//     9223372036854775807 (or its negative) instead of taking whatever the
//     CPU's float conversion gives.
//
// Nothing here reads clocks or files, starts goroutines or keeps state;
// the pod and node are never modified.
package downward
