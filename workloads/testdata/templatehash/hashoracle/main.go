// Command hashoracle prints upstream kube-controller-manager v1.36.3's
// pod-template hash (pkg/controller ComputeHash) for pod templates given as
// JSON, after the API server's decoding and defaulting of a Deployment's
// spec.template and the protobuf round trip an informer sees.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	apps "k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/history"
	"k8s.io/utils/dump"
)

type vcase struct {
	Name           string          `json:"name"`
	Template       json.RawMessage `json:"template"`
	CollisionCount *int32          `json:"collisionCount,omitempty"`
}

type out struct {
	Name           string          `json:"name"`
	Template       json.RawMessage `json:"template"`
	CollisionCount *int32          `json:"collisionCount,omitempty"`
	Defaulted      json.RawMessage `json:"defaulted"`
	Hash           string          `json:"hash"`
	HashCollision  string          `json:"hashWithCollision,omitempty"`
	Dump           string          `json:"dump,omitempty"`
	// StatefulSetRevision is the name of the ControllerRevision the
	// StatefulSet controller records for a StatefulSet "web" with this
	// template and status.collisionCount (0 when unset).
	StatefulSetRevision string `json:"statefulSetRevision"`
	// DaemonSetHash is ComputeHash of the template of a DaemonSet (its
	// controller-revision-hash and ControllerRevision suffix, with the
	// collision count when set).
	DaemonSetHash string `json:"daemonSetHash"`
}

// daemonSetHash is the DaemonSet controller's snapshot hash of a
// DaemonSet with template raw, as its informer holds it.
func daemonSetHash(raw json.RawMessage, cc *int32) (string, error) {
	ds := &appsv1.DaemonSet{}
	ds.APIVersion, ds.Kind = "apps/v1", "DaemonSet"
	if err := json.Unmarshal(raw, &ds.Spec.Template); err != nil {
		return "", err
	}
	legacyscheme.Scheme.Default(ds)
	internal := &apps.DaemonSet{}
	if err := legacyscheme.Scheme.Convert(ds, internal, nil); err != nil {
		return "", err
	}
	back := &appsv1.DaemonSet{}
	if err := legacyscheme.Scheme.Convert(internal, back, nil); err != nil {
		return "", err
	}
	b, err := back.Marshal()
	if err != nil {
		return "", err
	}
	final := &appsv1.DaemonSet{}
	if err := final.Unmarshal(b); err != nil {
		return "", err
	}
	return controller.ComputeHash(&final.Spec.Template, cc), nil
}

// statefulSetRevision is pkg/controller/statefulset's newRevision name
// for a StatefulSet web with template raw: the JSON patch getPatch writes
// (the legacy codec's encoding of the informer's set, spec.template with
// $patch replace), hashed by history.HashControllerRevision.
func statefulSetRevision(raw json.RawMessage, cc int32) (string, error) {
	set := &appsv1.StatefulSet{}
	set.APIVersion, set.Kind = "apps/v1", "StatefulSet"
	set.Name, set.Namespace = "web", "default"
	if err := json.Unmarshal(raw, &set.Spec.Template); err != nil {
		return "", err
	}
	legacyscheme.Scheme.Default(set)
	internal := &apps.StatefulSet{}
	if err := legacyscheme.Scheme.Convert(set, internal, nil); err != nil {
		return "", err
	}
	back := &appsv1.StatefulSet{}
	if err := legacyscheme.Scheme.Convert(internal, back, nil); err != nil {
		return "", err
	}
	b, err := back.Marshal()
	if err != nil {
		return "", err
	}
	final := &appsv1.StatefulSet{}
	if err := final.Unmarshal(b); err != nil {
		return "", err
	}
	data, err := runtime.Encode(clientscheme.Codecs.LegacyCodec(appsv1.SchemeGroupVersion), final)
	if err != nil {
		return "", err
	}
	var obj map[string]interface{}
	if err := json.Unmarshal(data, &obj); err != nil {
		return "", err
	}
	tmpl := obj["spec"].(map[string]interface{})["template"].(map[string]interface{})
	tmpl["$patch"] = "replace"
	patch, err := json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": tmpl}})
	if err != nil {
		return "", err
	}
	h := history.HashControllerRevision(&appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: patch}}, &cc)
	return history.ControllerRevisionName(final.Name, h), nil
}

func informerTemplate(raw json.RawMessage) (*corev1.PodTemplateSpec, error) {
	d := &appsv1.Deployment{}
	d.APIVersion, d.Kind = "apps/v1", "Deployment"
	if err := json.Unmarshal(raw, &d.Spec.Template); err != nil {
		return nil, err
	}
	d.Spec.Selector = nil
	legacyscheme.Scheme.Default(d)
	internal := &apps.Deployment{}
	if err := legacyscheme.Scheme.Convert(d, internal, nil); err != nil {
		return nil, err
	}
	back := &appsv1.Deployment{}
	if err := legacyscheme.Scheme.Convert(internal, back, nil); err != nil {
		return nil, err
	}
	b, err := back.Marshal()
	if err != nil {
		return nil, err
	}
	final := &appsv1.Deployment{}
	if err := final.Unmarshal(b); err != nil {
		return nil, err
	}
	return &final.Spec.Template, nil
}

func main() {
	var cases []vcase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	withDump := len(os.Args) > 1 && os.Args[1] == "-dump"
	var res []out
	for _, c := range cases {
		t, err := informerTemplate(c.Template)
		if err != nil {
			fmt.Fprintln(os.Stderr, c.Name, err)
			os.Exit(1)
		}
		def, _ := json.Marshal(t)
		o := out{Name: c.Name, Template: c.Template, CollisionCount: c.CollisionCount, Defaulted: def,
			Hash: controller.ComputeHash(t, nil)}
		var cc int32
		if c.CollisionCount != nil {
			cc = *c.CollisionCount
		}
		if o.StatefulSetRevision, err = statefulSetRevision(c.Template, cc); err != nil {
			fmt.Fprintln(os.Stderr, c.Name, err)
			os.Exit(1)
		}
		if o.DaemonSetHash, err = daemonSetHash(c.Template, c.CollisionCount); err != nil {
			fmt.Fprintln(os.Stderr, c.Name, err)
			os.Exit(1)
		}
		if c.CollisionCount != nil {
			o.HashCollision = controller.ComputeHash(t, c.CollisionCount)
		}
		if withDump {
			o.Dump = dump.ForHash(*t)
		}
		res = append(res, o)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
