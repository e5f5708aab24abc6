package managedfields

// shape is the part of a kind's schema field management reads: how a
// field's value is merged and owned. The zero shape is structured-merge-
// diff's deduced default: an object is granular (owned field by field,
// fields taking the zero shape unless listed), a list is atomic, a scalar
// is a leaf.
type shape struct {
	// atomic: the value is owned and replaced as a whole (+structType=atomic,
	// +mapType=atomic, +listType=atomic).
	atomic bool
	// keys makes a list associative (+listType=map) with these
	// +listMapKey fields; items take the item shape.
	keys []string
	// set makes a list of scalars a set (+listType=set).
	set bool
	// fields are the shapes of an object's fields that are not the default.
	fields map[string]*shape
	// item is the shape of an associative list's items.
	item *shape
}

// keyDefaults are the defaults of list-map keys the API declares
// (protocol defaults to TCP in container and service ports), used when an
// item leaves its key field out.
var keyDefaults = map[string]any{"protocol": "TCP"}

var atomicShape = &shape{atomic: true}

// child is the shape of field name of s.
func (s *shape) child(name string) *shape {
	if s != nil && s.fields != nil {
		if c := s.fields[name]; c != nil {
			return c
		}
	}
	return nil
}

func object(fields map[string]*shape) *shape { return &shape{fields: fields} }

func assoc(item *shape, keys ...string) *shape { return &shape{keys: keys, item: item} }

// shapes builds the schema of each kind this module models, from the
// markers of k8s.io/api v0.36.3 and apimachinery's meta/v1.
func shapes() map[string]*shape {
	meta := object(map[string]*shape{
		"ownerReferences": assoc(atomicShape, "uid"), // OwnerReference is +structType=atomic
		"finalizers":      {set: true},
	})
	selectorRefs := object(map[string]*shape{
		"configMapKeyRef": atomicShape, "secretKeyRef": atomicShape, "fieldRef": atomicShape,
		"resourceFieldRef": atomicShape, "fileKeyRef": atomicShape,
	})
	container := object(map[string]*shape{
		"ports":         assoc(nil, "containerPort", "protocol"),
		"env":           assoc(object(map[string]*shape{"valueFrom": selectorRefs}), "name"),
		"volumeMounts":  assoc(nil, "mountPath"),
		"volumeDevices": assoc(nil, "devicePath"),
		"resources":     object(map[string]*shape{"claims": assoc(nil, "name")}),
	})
	podSpec := object(map[string]*shape{
		"containers":                assoc(container, "name"),
		"initContainers":            assoc(container, "name"),
		"ephemeralContainers":       assoc(container, "name"),
		"volumes":                   assoc(nil, "name"),
		"imagePullSecrets":          assoc(atomicShape, "name"), // LocalObjectReference is atomic
		"hostAliases":               assoc(nil, "ip"),
		"topologySpreadConstraints": assoc(object(map[string]*shape{"labelSelector": atomicShape}), "topologyKey", "whenUnsatisfiable"),
		"schedulingGates":           assoc(nil, "name"),
		"resourceClaims":            assoc(nil, "name"),
		"nodeSelector":              atomicShape, // +mapType=atomic
		"affinity": object(map[string]*shape{
			"nodeAffinity": object(map[string]*shape{"requiredDuringSchedulingIgnoredDuringExecution": atomicShape}), // NodeSelector
		}),
	})
	template := object(map[string]*shape{"metadata": meta, "spec": podSpec})
	workload := object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{
		"selector": atomicShape, // LabelSelector is +structType=atomic
		"template": template,
	})})
	plain := object(map[string]*shape{"metadata": meta})
	return map[string]*shape{
		"Pod":         object(map[string]*shape{"metadata": meta, "spec": podSpec}),
		"PodTemplate": object(map[string]*shape{"metadata": meta, "template": template}),
		"Deployment":  workload, "ReplicaSet": workload, "DaemonSet": workload, "StatefulSet": workload, "Job": workload,
		"Service": object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{
			"ports":    assoc(nil, "port", "protocol"),
			"selector": atomicShape, // +mapType=atomic
		})}),
		"Node": object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{"podCIDRs": {set: true}})}),
		"PersistentVolume": object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{
			"nodeAffinity": object(map[string]*shape{"required": atomicShape}),
		})}),
		"PersistentVolumeClaim": object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{
			"selector": atomicShape, "dataSource": atomicShape,
		})}),
		"PodDisruptionBudget": object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{"selector": atomicShape})}),
		"CSIDriver":           object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{"volumeLifecycleModes": {set: true}})}),
		"CSINode":             object(map[string]*shape{"metadata": meta, "spec": object(map[string]*shape{"drivers": assoc(nil, "name")})}),
		"StorageClass":        plain, "PriorityClass": plain, "Namespace": plain, "ConfigMap": plain, "Secret": plain,
		"ControllerRevision": plain, "VolumeAttachment": plain,
	}
}

// Kinds lists the kinds whose schema the package knows; any other kind is
// handled with structured-merge-diff's deduced schema (objects granular,
// lists atomic).
func Kinds() []string {
	out := make([]string, 0, len(schema))
	for k := range schema {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// schema is built once; it is read-only.
var schema = shapes()
