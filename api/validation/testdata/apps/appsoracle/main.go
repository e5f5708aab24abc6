// Command appsoracle prints kube-apiserver v1.36.3's validation errors for
// apps/v1 Deployments, ReplicaSets, DaemonSets and StatefulSets given as JSON: each object is decoded
// and defaulted as the API server does (legacyscheme, apps/v1 defaults,
// conversion to the internal apps types), then checked by upstream's
// ValidateDeployment / ValidateReplicaSet / ValidateDaemonSet /
// ValidateStatefulSet (create) or their Update forms (update, against an old object decoded the same way). It reads a JSON array of {name, object, old} on stdin and writes the
// same array with "errors" (each field error's text) and "message" (the 422
// Invalid status message) added.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	apps "k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
)

type vcase struct {
	Name    string          `json:"name"`
	Object  json.RawMessage `json:"object"`
	Old     json.RawMessage `json:"old,omitempty"`
	Errors  []string        `json:"errors"`
	Message string          `json:"message"`
}

func decode(raw json.RawMessage) (runtime.Object, error) {
	var tm struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, err
	}
	var ext, internal runtime.Object
	switch tm.Kind {
	case "Deployment":
		ext, internal = &appsv1.Deployment{}, &apps.Deployment{}
	case "ReplicaSet":
		ext, internal = &appsv1.ReplicaSet{}, &apps.ReplicaSet{}
	case "DaemonSet":
		ext, internal = &appsv1.DaemonSet{}, &apps.DaemonSet{}
	case "StatefulSet":
		ext, internal = &appsv1.StatefulSet{}, &apps.StatefulSet{}
	default:
		return nil, fmt.Errorf("kind %q", tm.Kind)
	}
	if err := json.Unmarshal(raw, ext); err != nil {
		return nil, err
	}
	legacyscheme.Scheme.Default(ext)
	if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
		return nil, err
	}
	return internal, nil
}

func run(c *vcase) error {
	obj, err := decode(c.Object)
	if err != nil {
		return err
	}
	var old runtime.Object
	if len(c.Old) > 0 {
		if old, err = decode(c.Old); err != nil {
			return err
		}
	}
	var errs field.ErrorList
	var kind, name string
	switch x := obj.(type) {
	case *apps.Deployment:
		kind, name = "Deployment", x.Name
		if old == nil {
			errs = appsvalidation.ValidateDeployment(x, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, nil))
		} else {
			o := old.(*apps.Deployment)
			errs = appsvalidation.ValidateDeploymentUpdate(x, o, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, &o.Spec.Template))
		}
	case *apps.ReplicaSet:
		kind, name = "ReplicaSet", x.Name
		if old == nil {
			errs = appsvalidation.ValidateReplicaSet(x, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, nil))
		} else {
			o := old.(*apps.ReplicaSet)
			errs = appsvalidation.ValidateReplicaSetUpdate(x, o, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, &o.Spec.Template))
		}
	case *apps.DaemonSet:
		// The DaemonSet strategy keeps templateGeneration: 1 on create,
		// the old one moved by a template change on update.
		kind, name = "DaemonSet", x.Name
		if old == nil {
			x.Spec.TemplateGeneration = 1
			errs = appsvalidation.ValidateDaemonSet(x, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, nil))
		} else {
			o := old.(*apps.DaemonSet)
			o.Spec.TemplateGeneration = 1
			x.Spec.TemplateGeneration = 1
			if !apiequality.Semantic.DeepEqual(x.Spec.Template, o.Spec.Template) {
				x.Spec.TemplateGeneration = 2
			}
			opts := podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, &o.Spec.Template)
			errs = appsvalidation.ValidateDaemonSetUpdate(x, o, opts)
		}
	case *apps.StatefulSet:
		kind, name = "StatefulSet", x.Name
		if old == nil {
			errs = appsvalidation.ValidateStatefulSet(x, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, nil))
		} else {
			o := old.(*apps.StatefulSet)
			errs = appsvalidation.ValidateStatefulSetUpdate(x, o, podutil.GetValidationOptionsFromPodTemplate(&x.Spec.Template, &o.Spec.Template))
		}
	}
	c.Errors = []string{}
	for _, e := range errs {
		c.Errors = append(c.Errors, e.Error())
	}
	c.Message = ""
	if len(errs) > 0 {
		c.Message = apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: kind}, name, errs).Error()
	}
	return nil
}

func main() {
	var cases []vcase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := range cases {
		if err := run(&cases[i]); err != nil {
			fmt.Fprintln(os.Stderr, cases[i].Name, err)
			os.Exit(1)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
