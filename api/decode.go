package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownKind is wrapped by Decode errors for a kind podsem does not
// model.
var ErrUnknownKind = errors.New("unknown kind")

// Object is any of the Kubernetes objects podsem models: *Pod, *Node,
// *Namespace, *PodDisruptionBudget, *PriorityClass, *Eviction, *Service,
// *Deployment, *ReplicaSet, *StatefulSet, *ControllerRevision,
// *ReplicationController, *DaemonSet, *Job, *PersistentVolumeClaim,
// *PersistentVolume, *StorageClass, *CSINode, *CSIDriver,
// *VolumeAttachment or *LimitRange.
type Object any

// Decode reads a JSON document holding one object or a list and returns the
// typed objects, as `kubectl get -o json` prints them. A `kind: List`
// document may mix kinds; a typed list (PodList, NodeList...) gives its
// items the list's element kind (setting their kind field) when they carry
// none. Any apiVersion of a
// known kind is accepted (policy/v1beta1 PodDisruptionBudget decodes as the
// v1 type; the fields podsem reads are the same). Unknown fields are
// ignored; an unknown kind is an error naming it.
func Decode(data []byte) ([]Object, error) { return decode(data, false) }

// decode is Decode; keep decodes an unknown kind as *Unstructured.
func decode(data []byte, keep bool) ([]Object, error) {
	var head listHead
	if err := json.Unmarshal(data, &head); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			err = withFieldPath(data, func() any { return new(listHead) }, err)
		}
		return nil, fmt.Errorf("decode: %w", err)
	}
	if head.Kind == "List" || strings.HasSuffix(head.Kind, "List") {
		elem := strings.TrimSuffix(head.Kind, "List")
		out := make([]Object, 0, len(head.Items))
		for i, raw := range head.Items {
			if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				continue
			}
			o, err := decodeOne(raw, elem, keep)
			if err != nil {
				return nil, fmt.Errorf("decode: items[%d]: %w", i, err)
			}
			out = append(out, o)
		}
		return out, nil
	}
	o, err := decodeOne(data, "", keep)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return []Object{o}, nil
}

// listHead is what Decode reads first: a document's kind and, for a list,
// its items.
type listHead struct {
	Kind  string            `json:"kind"`
	Items []json.RawMessage `json:"items"`
}

func decodeOne(raw []byte, defaultKind string, keep bool) (Object, error) {
	var tm TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, withFieldPath(raw, func() any { return new(TypeMeta) }, err)
	}
	kind := tm.Kind
	if kind == "" {
		kind = defaultKind
	}
	fresh := newObject(kind)
	if fresh == nil && keep && kind != "" {
		fresh = func() any { return &Unstructured{} }
	}
	if fresh == nil {
		if kind == "" {
			return nil, fmt.Errorf("object has no kind and none can be inferred")
		}
		return nil, fmt.Errorf("%w %q (apiVersion %q)", ErrUnknownKind, kind, tm.APIVersion)
	}
	o := fresh()
	if err := json.Unmarshal(raw, o); err != nil {
		return nil, fmt.Errorf("%s%s: %w", kind, tm.objectName(raw), withFieldPath(raw, fresh, err))
	}
	if k, ok := o.(interface{ setKind(string) }); ok && tm.Kind == "" {
		// An item of a typed list takes the list's element kind, so that
		// encoding it again gives a document Decode reads back.
		k.setKind(kind)
	}
	return o, nil
}

// newObject returns a constructor of the empty object of a kind podsem
// models, or nil for any other kind.
func newObject(kind string) func() any {
	var o func() any
	switch kind {
	case "Pod":
		o = func() any { return &Pod{} }
	case "Node":
		o = func() any { return &Node{} }
	case "Namespace":
		o = func() any { return &Namespace{} }
	case "LimitRange":
		o = func() any { return &LimitRange{} }
	case "PodDisruptionBudget":
		o = func() any { return &PodDisruptionBudget{} }
	case "PriorityClass":
		o = func() any { return &PriorityClass{} }
	case "Eviction":
		o = func() any { return &Eviction{} }
	case "Service":
		o = func() any { return &Service{} }
	case "Deployment":
		o = func() any { return &Deployment{} }
	case "ReplicaSet":
		o = func() any { return &ReplicaSet{} }
	case "StatefulSet":
		o = func() any { return &StatefulSet{} }
	case "ControllerRevision":
		o = func() any { return &ControllerRevision{} }
	case "ReplicationController":
		o = func() any { return &ReplicationController{} }
	case "DaemonSet":
		o = func() any { return &DaemonSet{} }
	case "Job":
		o = func() any { return &Job{} }
	case "CronJob":
		o = func() any { return &CronJob{} }
	case "ResourceQuota":
		o = func() any { return &ResourceQuota{} }
	case "PersistentVolumeClaim":
		o = func() any { return &PersistentVolumeClaim{} }
	case "PersistentVolume":
		o = func() any { return &PersistentVolume{} }
	case "StorageClass":
		o = func() any { return &StorageClass{} }
	case "CSINode":
		o = func() any { return &CSINode{} }
	case "CSIDriver":
		o = func() any { return &CSIDriver{} }
	case "VolumeAttachment":
		o = func() any { return &VolumeAttachment{} }
	}
	return o
}

func (t *TypeMeta) setKind(kind string) { t.Kind = kind }

// objectName returns " namespace/name" (or " name") of the object raw
// holds, for error messages, or "" when it has none.
func (t *TypeMeta) objectName(raw []byte) string {
	var m struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Metadata.Name == "" {
		return ""
	}
	if m.Metadata.Namespace != "" {
		return " " + m.Metadata.Namespace + "/" + m.Metadata.Name
	}
	return " " + m.Metadata.Name
}
