package api

import "encoding/json"

// ControllerRevision is an apps/v1 ControllerRevision: an immutable
// snapshot of a workload's state that the StatefulSet and DaemonSet
// controllers keep as their rollout history. Data is the snapshot as the
// controller serialized it (for a StatefulSet, a strategic merge patch
// that restores the pod template), kept byte for byte: the revision's
// name is a hash of those bytes. Revision is its place in the history;
// the controllers renumber an old revision that becomes current again.
type ControllerRevision struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Data       json.RawMessage `json:"data,omitempty"`
	Revision   int64           `json:"revision"`
}

// LabelControllerRevisionHashKey is the label a ControllerRevision carries
// with the hash part of its name (apps/v1 ControllerRevisionHashLabelKey,
// "controller.kubernetes.io/hash").
const LabelControllerRevisionHashKey = "controller.kubernetes.io/hash"
