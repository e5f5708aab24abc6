package workloads

import (
	"fmt"
	"maps"
	"slices"

	"github.com/podsem/podsem/api"
)

// PodFromTemplate is the pod a workload controller builds from its pod
// template for a new replica (kube-controller-manager's
// GetPodFromTemplate, pkg/controller/controller_utils.go): the template's
// labels, annotations and finalizers, copied; generateName "<ownerName>-"
// (just ownerName when "<ownerName>-" could not prefix a valid pod name,
// as upstream falls back); controllerRef, when not nil, as the one owner
// reference; and a deep copy of the template's spec. Nothing of the
// returned pod aliases the template.
//
// Name and namespace are left empty, as upstream leaves them: the
// ReplicaSet, DaemonSet and Job controllers send the pod to the namespace
// in the request path and let the API server generate the name, and the
// StatefulSet controller sets both itself afterwards. The template's own
// metadata.name and namespace are ignored. A nil template is an error
// wrapping api.ErrInvalidInput.
func PodFromTemplate(template *api.PodTemplateSpec, ownerName string, controllerRef *api.OwnerReference) (*api.Pod, error) {
	if template == nil {
		return nil, fmt.Errorf("%w: pod template: nil", errInvalidInput)
	}
	spec := copyPodSpec(&template.Spec)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName: podNamePrefix(ownerName),
			Labels:       maps.Clone(template.Labels),
			Annotations:  maps.Clone(template.Annotations),
			Finalizers:   slices.Clone(template.Finalizers),
		},
		Spec: spec,
	}
	if controllerRef != nil {
		pod.OwnerReferences = []api.OwnerReference{copyOwnerRef(*controllerRef)}
	}
	return pod, nil
}

// CreatePodFromTemplate is the pod kube-controller-manager's
// RealPodControl.CreatePods (generateName empty) or
// CreatePodsWithGenerateName sends to the API server's create for a new
// replica of a ReplicaSet, DaemonSet or Job: PodFromTemplate, with
// generateName replacing the derived one when not empty (the Job
// controller's "<job>-<index>-"), after upstream's checks. It refuses, as
// upstream does before sending anything:
//
//   - a controllerRef that is nil, lacks apiVersion or kind, or is not
//     marked controller and blockOwnerDeletion (validateControllerRef);
//   - a template without labels ("unable to create pods, no labels"):
//     such a pod could never be selected by its owner.
//
// The errors wrap api.ErrInvalidInput. The namespace is left empty: it is
// part of the request, not of the object sent.
func CreatePodFromTemplate(template *api.PodTemplateSpec, ownerName, generateName string, controllerRef *api.OwnerReference) (*api.Pod, error) {
	if err := validateControllerRef(controllerRef); err != nil {
		return nil, err
	}
	pod, err := PodFromTemplate(template, ownerName, controllerRef)
	if err != nil {
		return nil, err
	}
	if generateName != "" {
		pod.GenerateName = generateName
	}
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("%w: pod template of %q: metadata.labels: unable to create pods, no labels", errInvalidInput, ownerName)
	}
	return pod, nil
}

// validateControllerRef is upstream's check of the reference a controller
// stamps on the pods it creates.
func validateControllerRef(ref *api.OwnerReference) error {
	switch {
	case ref == nil:
		return fmt.Errorf("%w: controllerRef: nil", errInvalidInput)
	case ref.APIVersion == "":
		return fmt.Errorf("%w: controllerRef has empty APIVersion", errInvalidInput)
	case ref.Kind == "":
		return fmt.Errorf("%w: controllerRef has empty Kind", errInvalidInput)
	case ref.Controller == nil || !*ref.Controller:
		return fmt.Errorf("%w: controllerRef.Controller is not set to true", errInvalidInput)
	case ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion:
		return fmt.Errorf("%w: controllerRef.BlockOwnerDeletion is not set", errInvalidInput)
	}
	return nil
}

// podNamePrefix is getPodsPrefix: "<name>-" when that, with the dash
// standing for the suffix the API server appends, is a valid pod name
// (an RFC 1123 subdomain), else the bare name.
func podNamePrefix(ownerName string) string {
	if len(api.IsDNS1123Subdomain(ownerName+"a")) != 0 {
		return ownerName
	}
	return ownerName + "-"
}

func copyOwnerRef(r api.OwnerReference) api.OwnerReference {
	if r.Controller != nil {
		r.Controller = ptrTo(*r.Controller)
	}
	if r.BlockOwnerDeletion != nil {
		r.BlockOwnerDeletion = ptrTo(*r.BlockOwnerDeletion)
	}
	return r
}

func ptrTo[T any](v T) *T { return &v }

// copyPodSpec deep-copies a pod spec (the template's spec.DeepCopy() of
// upstream's controllers): the copy shares no map, slice or pointer with
// the original.
func copyPodSpec(s *api.PodSpec) api.PodSpec { return *s.DeepCopy() }
