// Package managedfields is server-side apply's field management as
// kube-apiserver v1.36.3 runs it (k8s.io/apimachinery's
// pkg/util/managedfields over sigs.k8s.io/structured-merge-diff): which
// field manager owns which field of an object, what an apply merges into
// the live object and what it removes, when an apply conflicts with
// another manager, and which fields an ordinary update takes over.
//
// Objects are JSON trees as encoding/json decodes them (map[string]any,
// []any, string, json.Number or float64, bool, nil). The shape of each
// kind — which lists are associative (keyed by name, by containerPort and
// protocol, ...), which are sets, and which structs and maps are atomic —
// is the one the Kubernetes API declares for it (+listType, +listMapKey,
// +mapType, +structType in k8s.io/api v0.36.3), for the kinds this module
// models; unknown lists are atomic and unknown objects granular, as
// structured-merge-diff deduces them.
//
// The rules:
//
//   - Apply merges the applied configuration into the live object: scalars
//     and atomic values are replaced, objects merged field by field,
//     associative lists item by item (items of the configuration take its
//     order; items only the live object has keep their place). The
//     applier then owns exactly the fields of its configuration. A field
//     it applied last time and not this time is removed, unless another
//     manager owns it (or something inside it). A field another manager
//     owns and the apply changes is a conflict: the apply fails (HTTP 409,
//     ConflictError, upstream's message) unless forced, when the other
//     manager loses the field.
//   - Update (create, update, patch, a subresource write) gives its
//     manager every field whose value it set or changed, taking it from
//     the others; a field it removed is owned by no one.
//
// status is not applied through the main resource (its strategy resets
// it), and the system fields of metadata (uid, resourceVersion,
// generation, creationTimestamp, deletionTimestamp,
// deletionGracePeriodSeconds, managedFields, selfLink) are never owned.
package managedfields
