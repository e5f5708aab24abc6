package workloads

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// StatefulSetRevisionData is the Data of the ControllerRevision the
// StatefulSet controller records for set's current pod template
// (pkg/controller/statefulset getPatch): the JSON strategic merge patch
//
//	{"spec":{"template":{"$patch":"replace", ...the template...}}}
//
// that restores the template, as upstream writes it — the apps/v1
// template encoded by Go's encoding/json, read back into a map and
// written again, so compact with every object's keys sorted, and with the
// members the v1 types write even when empty (a container's
// "resources":{}, a defaulted pod's "securityContext":{}).
//
// The bytes are upstream's for every field api models; a field of the
// template that api does not model is not in them (and changes the
// revision's name, which hashes them). A nil set is an error wrapping
// api.ErrInvalidInput.
func StatefulSetRevisionData(set *api.StatefulSet) ([]byte, error) {
	if set == nil {
		return nil, fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	data, err := templateRevisionData(&set.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("%w: statefulset %s/%s: spec.template: %v", errInvalidInput, set.Namespace, set.Name, err)
	}
	return data, nil
}

// HashControllerRevision is the hash part of a ControllerRevision's name
// (pkg/controller/history HashControllerRevision): the 32-bit FNV-1 hash
// (not FNV-1a) of data followed by the decimal collision count, written in
// decimal and made safe with apimachinery's SafeEncodeString (each digit
// byte b becomes "bcdfghjklmnpqrstvwxz2456789"[b%27]).
func HashControllerRevision(data []byte, collisionCount int32) string {
	h := fnv.New32()
	h.Write(data)
	h.Write([]byte(strconv.FormatInt(int64(collisionCount), 10)))
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// ControllerRevisionName is "<prefix>-<hash>", the prefix (the owner's
// name) cut to 223 bytes so that the name stays a valid object name
// (pkg/controller/history ControllerRevisionName).
func ControllerRevisionName(prefix, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return prefix + "-" + hash
}

// NewStatefulSetRevision is the ControllerRevision the StatefulSet
// controller creates for set's current template (newRevision and
// history.NewControllerRevision): in set's namespace, named
// ControllerRevisionName(set name, HashControllerRevision(data,
// collisionCount)), labelled with the template's labels plus the hash
// (controller.kubernetes.io/hash), controlled by set, carrying
// StatefulSetRevisionData and the given revision number. A nil set is an
// error wrapping api.ErrInvalidInput.
func NewStatefulSetRevision(set *api.StatefulSet, revision int64, collisionCount int32) (*api.ControllerRevision, error) {
	data, err := StatefulSetRevisionData(set)
	if err != nil {
		return nil, err
	}
	hash := HashControllerRevision(data, collisionCount)
	labels := make(map[string]string, len(set.Spec.Template.Labels)+1)
	for k, v := range set.Spec.Template.Labels {
		labels[k] = v
	}
	labels[api.LabelControllerRevisionHashKey] = hash
	return &api.ControllerRevision{
		TypeMeta: api.TypeMeta{Kind: "ControllerRevision", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{
			Name:            ControllerRevisionName(set.Name, hash),
			Namespace:       set.Namespace,
			Labels:          labels,
			OwnerReferences: []api.OwnerReference{statefulSetRef(set)},
		},
		Data:     data,
		Revision: revision,
	}, nil
}

// ApplyStatefulSetRevision is set as it was at revision (ApplyRevision):
// a copy of set whose pod template is the one revision's data restores.
// Only the template changes; the copy shares nothing with set's template.
// A nil argument or data that is not such a patch is an error wrapping
// api.ErrInvalidInput.
func ApplyStatefulSetRevision(set *api.StatefulSet, revision *api.ControllerRevision) (*api.StatefulSet, error) {
	if set == nil {
		return nil, fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	if revision == nil {
		return nil, fmt.Errorf("%w: controllerrevision: nil", errInvalidInput)
	}
	tmpl, err := revisionTemplate(revision)
	if err != nil {
		return nil, err
	}
	out := *set
	out.Spec.Template = *tmpl
	return &out, nil
}

// revisionTemplate decodes the pod template a StatefulSet revision's
// patch restores.
func revisionTemplate(revision *api.ControllerRevision) (*api.PodTemplateSpec, error) {
	var patch struct {
		Spec struct {
			Template *api.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(revision.Data, &patch); err != nil {
		return nil, fmt.Errorf("%w: controllerrevision %s/%s: data: %v", errInvalidInput, revision.Namespace, revision.Name, err)
	}
	if patch.Spec.Template == nil {
		return nil, fmt.Errorf("%w: controllerrevision %s/%s: data: no spec.template", errInvalidInput, revision.Namespace, revision.Name)
	}
	return patch.Spec.Template, nil
}

// revisionRestoresTemplate reports whether revision restores the
// template whose revision data is data and whose semantic key is key, as
// the StatefulSetSemanticRevisionComparison gate (on by default) compares
// them: equal bytes, or templates equal by value once the API server's
// defaults are applied to both — a revision an older serializer wrote
// without the empty members, or before a field was defaulted, describes
// the same template.
func revisionRestoresTemplate(revision *api.ControllerRevision, data, key []byte) bool {
	if bytes.Equal(revision.Data, data) {
		return true
	}
	tmpl, err := revisionTemplate(revision)
	if err != nil {
		return false
	}
	k, err := revisionTemplateKey(tmpl)
	return err == nil && bytes.Equal(k, key)
}

// revisionTemplateKey is the template's v1 encoding after the API server's pod
// defaulting, the form two templates are compared by value in.
func revisionTemplateKey(tmpl *api.PodTemplateSpec) ([]byte, error) {
	pod := &api.Pod{Spec: copyPodSpec(&tmpl.Spec)}
	api.DefaultPod(pod)
	t := api.PodTemplateSpec{ObjectMeta: tmpl.ObjectMeta, Spec: pod.Spec}
	m, err := v1Template(&t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// sortRevisions orders revisions as history.SortControllerRevisions does:
// by revision number, then creation time, then name.
func sortRevisions(revs []*api.ControllerRevision) {
	slices.SortStableFunc(revs, func(a, b *api.ControllerRevision) int {
		if c := cmp.Compare(a.Revision, b.Revision); c != 0 {
			return c
		}
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// v1Template is tmpl as apps/v1's Go types encode it, read back into a
// generic map the way getPatch reads it: api's encoding, plus the members
// the v1 types write even when empty.
func v1Template(tmpl *api.PodTemplateSpec) (map[string]any, error) {
	b, err := json.Marshal(tmpl)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	ensure(m, "metadata", map[string]any{})
	ensure(m, "spec", map[string]any{})
	if spec, ok := m["spec"].(map[string]any); ok {
		v1PodSpec(spec)
	}
	return m, nil
}

// ensure sets m[key] to v when the key is absent: a member a v1 type has
// without omitempty, or a struct (never omitted by encoding/json).
func ensure(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok {
		m[key] = v
	}
}

// each calls f on every object of the list m[key].
func each(m map[string]any, key string, f func(map[string]any)) {
	l, _ := m[key].([]any)
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			f(o)
		}
	}
}

// sub calls f on the object m[key], when there is one.
func sub(m map[string]any, key string, f func(map[string]any)) {
	if o, ok := m[key].(map[string]any); ok {
		f(o)
	}
}

func required(keys ...string) func(map[string]any) {
	return func(m map[string]any) {
		for _, k := range keys {
			ensure(m, k, "")
		}
	}
}

func v1PodSpec(s map[string]any) {
	ensure(s, "containers", nil)
	// The API server's conversion writes the service account in both
	// serviceAccountName and the deprecated serviceAccount, from either.
	if name, _ := s["serviceAccountName"].(string); name != "" {
		s["serviceAccount"] = name
	} else if name, _ := s["serviceAccount"].(string); name != "" {
		s["serviceAccountName"] = name
	}
	for _, k := range []string{"containers", "initContainers", "ephemeralContainers"} {
		each(s, k, v1Container)
	}
	each(s, "volumes", v1Volume)
	sub(s, "affinity", v1Affinity)
	each(s, "topologySpreadConstraints", func(c map[string]any) {
		ensure(c, "maxSkew", 0.0)
		required("topologyKey", "whenUnsatisfiable")(c)
		sub(c, "labelSelector", v1LabelSelector)
	})
	each(s, "hostAliases", required("ip"))
	each(s, "readinessGates", required("conditionType"))
	each(s, "resourceClaims", required("name"))
	each(s, "schedulingGates", required("name"))
	sub(s, "os", required("name"))
	sub(s, "securityContext", func(sc map[string]any) {
		each(sc, "sysctls", required("name", "value"))
		sub(sc, "seccompProfile", required("type"))
		sub(sc, "appArmorProfile", required("type"))
	})
}

func v1Container(c map[string]any) {
	ensure(c, "name", "")
	ensure(c, "resources", map[string]any{})
	sub(c, "resources", func(r map[string]any) { each(r, "claims", required("name")) })
	each(c, "ports", func(p map[string]any) { ensure(p, "containerPort", 0.0) })
	each(c, "env", func(e map[string]any) {
		ensure(e, "name", "")
		sub(e, "valueFrom", v1EnvSource)
	})
	each(c, "volumeMounts", required("name", "mountPath"))
	each(c, "volumeDevices", required("name", "devicePath"))
	each(c, "resizePolicy", required("resourceName", "restartPolicy"))
	for _, p := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		sub(c, p, v1Handler)
	}
	sub(c, "lifecycle", func(l map[string]any) {
		sub(l, "postStart", v1Handler)
		sub(l, "preStop", v1Handler)
	})
	sub(c, "securityContext", func(sc map[string]any) {
		sub(sc, "seccompProfile", required("type"))
		sub(sc, "appArmorProfile", required("type"))
	})
}

func v1Handler(h map[string]any) {
	sub(h, "httpGet", func(g map[string]any) {
		ensure(g, "port", 0.0)
		each(g, "httpHeaders", required("name", "value"))
	})
	sub(h, "tcpSocket", func(t map[string]any) { ensure(t, "port", 0.0) })
	sub(h, "grpc", func(g map[string]any) {
		ensure(g, "port", 0.0)
		ensure(g, "service", nil)
	})
	sub(h, "sleep", func(s map[string]any) { ensure(s, "seconds", 0.0) })
}

func v1EnvSource(v map[string]any) {
	sub(v, "fieldRef", required("fieldPath"))
	sub(v, "resourceFieldRef", func(r map[string]any) {
		ensure(r, "resource", "")
		ensure(r, "divisor", "0")
	})
	sub(v, "configMapKeyRef", required("key"))
	sub(v, "secretKeyRef", required("key"))
}

func v1Volume(v map[string]any) {
	ensure(v, "name", "")
	sub(v, "hostPath", required("path"))
	sub(v, "persistentVolumeClaim", required("claimName"))
	sub(v, "nfs", required("server", "path"))
	sub(v, "csi", required("driver"))
	keyToPath := func(m map[string]any) { each(m, "items", required("key", "path")) }
	sub(v, "configMap", keyToPath)
	sub(v, "secret", keyToPath)
	downward := func(m map[string]any) {
		each(m, "items", func(f map[string]any) {
			ensure(f, "path", "")
			sub(f, "fieldRef", required("fieldPath"))
			sub(f, "resourceFieldRef", func(r map[string]any) {
				ensure(r, "resource", "")
				ensure(r, "divisor", "0")
			})
		})
	}
	sub(v, "downwardAPI", downward)
	sub(v, "projected", func(p map[string]any) {
		ensure(p, "sources", nil)
		each(p, "sources", func(s map[string]any) {
			sub(s, "configMap", keyToPath)
			sub(s, "secret", keyToPath)
			sub(s, "downwardAPI", downward)
			sub(s, "serviceAccountToken", required("path"))
		})
	})
	sub(v, "ephemeral", func(e map[string]any) {
		sub(e, "volumeClaimTemplate", func(t map[string]any) {
			ensure(t, "metadata", map[string]any{})
			ensure(t, "spec", map[string]any{})
		})
	})
}

func v1Affinity(a map[string]any) {
	sub(a, "nodeAffinity", func(na map[string]any) {
		sub(na, "requiredDuringSchedulingIgnoredDuringExecution", func(ns map[string]any) {
			ensure(ns, "nodeSelectorTerms", nil)
			each(ns, "nodeSelectorTerms", v1NodeSelectorTerm)
		})
		each(na, "preferredDuringSchedulingIgnoredDuringExecution", func(p map[string]any) {
			ensure(p, "weight", 0.0)
			ensure(p, "preference", map[string]any{})
			sub(p, "preference", v1NodeSelectorTerm)
		})
	})
	for _, k := range []string{"podAffinity", "podAntiAffinity"} {
		sub(a, k, func(pa map[string]any) {
			each(pa, "requiredDuringSchedulingIgnoredDuringExecution", v1PodAffinityTerm)
			each(pa, "preferredDuringSchedulingIgnoredDuringExecution", func(w map[string]any) {
				ensure(w, "weight", 0.0)
				ensure(w, "podAffinityTerm", map[string]any{})
				sub(w, "podAffinityTerm", v1PodAffinityTerm)
			})
		})
	}
}

func v1NodeSelectorTerm(t map[string]any) {
	each(t, "matchExpressions", required("key", "operator"))
	each(t, "matchFields", required("key", "operator"))
}

func v1PodAffinityTerm(t map[string]any) {
	ensure(t, "topologyKey", "")
	sub(t, "labelSelector", v1LabelSelector)
	sub(t, "namespaceSelector", v1LabelSelector)
}

func v1LabelSelector(s map[string]any) {
	each(s, "matchExpressions", required("key", "operator"))
}
