package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrUnknownKind is wrapped by Decode errors for a kind podsem does not
// model.
var ErrUnknownKind = errors.New("unknown kind")

// Object is any of the Kubernetes objects podsem models: *Pod, *Node,
// *Namespace, *PodDisruptionBudget, *PriorityClass, *Eviction, *Service,
// *Deployment, *ReplicaSet, *StatefulSet, *ReplicationController,
// *DaemonSet, *Job, *PersistentVolumeClaim, *PersistentVolume,
// *StorageClass, *CSINode or *CSIDriver.
type Object any

// Decode reads a JSON document holding one object or a list and returns the
// typed objects, as `kubectl get -o json` prints them. A `kind: List`
// document may mix kinds; a typed list (PodList, NodeList...) gives its
// items the list's element kind (setting their kind field) when they carry
// none. Any apiVersion of a
// known kind is accepted (policy/v1beta1 PodDisruptionBudget decodes as the
// v1 type; the fields podsem reads are the same). Unknown fields are
// ignored; an unknown kind is an error naming it.
func Decode(data []byte) ([]Object, error) {
	var head struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if head.Kind == "List" || strings.HasSuffix(head.Kind, "List") {
		elem := strings.TrimSuffix(head.Kind, "List")
		out := make([]Object, 0, len(head.Items))
		for i, raw := range head.Items {
			if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				continue
			}
			o, err := decodeOne(raw, elem)
			if err != nil {
				return nil, fmt.Errorf("decode: items[%d]: %w", i, err)
			}
			out = append(out, o)
		}
		return out, nil
	}
	o, err := decodeOne(data, "")
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return []Object{o}, nil
}

func decodeOne(raw []byte, defaultKind string) (Object, error) {
	var tm TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, err
	}
	kind := tm.Kind
	if kind == "" {
		kind = defaultKind
	}
	var o Object
	switch kind {
	case "Pod":
		o = &Pod{}
	case "Node":
		o = &Node{}
	case "Namespace":
		o = &Namespace{}
	case "PodDisruptionBudget":
		o = &PodDisruptionBudget{}
	case "PriorityClass":
		o = &PriorityClass{}
	case "Eviction":
		o = &Eviction{}
	case "Service":
		o = &Service{}
	case "Deployment":
		o = &Deployment{}
	case "ReplicaSet":
		o = &ReplicaSet{}
	case "StatefulSet":
		o = &StatefulSet{}
	case "ReplicationController":
		o = &ReplicationController{}
	case "DaemonSet":
		o = &DaemonSet{}
	case "Job":
		o = &Job{}
	case "PersistentVolumeClaim":
		o = &PersistentVolumeClaim{}
	case "PersistentVolume":
		o = &PersistentVolume{}
	case "StorageClass":
		o = &StorageClass{}
	case "CSINode":
		o = &CSINode{}
	case "CSIDriver":
		o = &CSIDriver{}
	case "":
		return nil, fmt.Errorf("object has no kind and none can be inferred")
	default:
		return nil, fmt.Errorf("%w %q (apiVersion %q)", ErrUnknownKind, kind, tm.APIVersion)
	}
	if err := json.Unmarshal(raw, o); err != nil {
		name := tm.objectName(raw)
		var qe *quantityError
		if errors.As(err, &qe) {
			if path := locateScalar(raw, qe.input); path != "" {
				return nil, fmt.Errorf("%s%s: %s: %w", kind, name, path, err)
			}
		}
		return nil, fmt.Errorf("%s%s: %w", kind, name, err)
	}
	if k, ok := o.(interface{ setKind(string) }); ok && tm.Kind == "" {
		// An item of a typed list takes the list's element kind, so that
		// encoding it again gives a document Decode reads back.
		k.setKind(kind)
	}
	return o, nil
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

// locateScalar returns the field path ("spec.containers[0].resources.
// limits.cpu") of the first string or number in raw whose text, trimmed,
// is value: where a value that failed to parse (a quantity) sits, since
// encoding/json does not say for errors of a field's own decoder. It
// returns "" when raw is not JSON or holds no such value.
func locateScalar(raw []byte, value string) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if dec.Decode(&tree) != nil {
		return ""
	}
	var walk func(v any, path string) (string, bool)
	walk = func(v any, path string) (string, bool) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if found, ok := walk(x[k], p); ok {
					return found, true
				}
			}
		case []any:
			for i, e := range x {
				if found, ok := walk(e, fmt.Sprintf("%s[%d]", path, i)); ok {
					return found, true
				}
			}
		case string:
			return path, strings.TrimSpace(x) == value
		case json.Number:
			return path, x.String() == value
		}
		return "", false
	}
	path, _ := walk(tree, "")
	return path
}
