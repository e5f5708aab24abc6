package validation

import (
	"strings"

	"github.com/podsem/podsem/api"
)

// ValidatePodCreate returns the field errors the Kubernetes API server gives
// for a pod POSTed to /api/v1/namespaces/{ns}/pods, or nil when the pod is
// accepted. The pod is expected as the API server holds it after decoding
// and v1 defaulting (see api.DefaultPod); it is not modified.
//
// The pod is first taken as the v1-to-internal conversion leaves it (a
// negative terminationGracePeriodSeconds counts as 1, legacy init
// container annotations are dropped). The create path is then the pod
// registry strategy's PrepareForCreate (status
// cleared, generation 1, matchLabelKeys of topology spread constraints
// merged into their labelSelector as `key In (value)`), the generic
// BeforeCreate's name generation from generateName, then core validation's
// ValidatePodCreate with the options v1.36.3 derives under default feature
// gates: metadata, pod-specific annotations, the whole spec, and the
// create-only rules (no ephemeral containers, no nodeName while scheduling
// gates remain). Field paths and error types are upstream's, including its
// quirks (spec.HostPID and spec.HostIPC spelled with a capital letter, a
// matchLabelKeys overlap reported at spec.topologySpreadConstraints[i][j]).
// A nil pod gives a single Required error at metadata.
//
// It validates as a kube-apiserver started with default flags; Options
// holds the flags that change the answer.
func ValidatePodCreate(pod *api.Pod) api.FieldErrors {
	return Options{}.ValidatePodCreate(pod)
}

// ValidatePodCreate is the package's ValidatePodCreate under these
// kube-apiserver options.
func (o Options) ValidatePodCreate(pod *api.Pod) api.FieldErrors {
	if pod == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "a pod is required")}
	}
	p := prepareForCreate(asConverted(pod))
	errs := validatePodMetadataAndSpec(p, podValidationOptions{allowPrivileged: o.AllowPrivileged})
	spec := api.NewPath("spec")
	if len(p.Spec.EphemeralContainers) > 0 {
		errs = append(errs, api.Forbidden(spec.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if p.Spec.NodeName != "" && len(p.Spec.SchedulingGates) > 0 {
		errs = append(errs, api.Forbidden(spec.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	return errs
}

// PrepareForCreate returns a copy of pod as the API server stores a new
// pod it accepts (the pod registry strategy's PrepareForCreate and the
// generic create path, v1.36.3): the status replaced by
// api.InitialPodStatus (phase Pending with the pod's QoS class, a
// PodScheduled=False condition with reason SchedulingGated while
// spec.schedulingGates is not empty), generation 1, no deletion fields,
// matchLabelKeys and mismatchLabelKeys merged into topology spread and pod
// (anti-)affinity selectors, and the fields of disabled features dropped
// (container stop signals). Apply api.DefaultPod first, as the API server
// defaults before it prepares; names from generateName are left to the
// caller (the API server adds a random suffix). pod is not modified; the
// copy shares the slices and maps that did not change. A nil pod gives nil.
func PrepareForCreate(pod *api.Pod) *api.Pod {
	if pod == nil {
		return nil
	}
	p := prepareForCreate(pod)
	p.Status = api.InitialPodStatus(p)
	return p
}

// prepareForCreate returns a shallow copy of pod with what the API server
// changes before validating a new pod: no status, generation 1, no
// deletion fields, a generated name when only generateName is set,
// matchLabelKeys merged into topology spread and pod (anti-)affinity
// selectors (mismatchLabelKeys too, as NotIn), and container stop
// signals dropped (their feature gate is off by default).
func prepareForCreate(pod *api.Pod) *api.Pod {
	p := *pod
	p.Status = api.PodStatus{}
	p.Generation = 1
	p.DeletionTimestamp = nil
	p.DeletionGracePeriodSeconds = nil
	if p.Name == "" && p.GenerateName != "" {
		base := p.GenerateName
		if len(base) > maxGeneratedNameBase {
			base = base[:maxGeneratedNameBase]
		}
		// Any five characters from the generator's alphabet stand for the
		// random suffix: validity does not depend on which.
		p.Name = base + strings.Repeat("x", generatedNameSuffixLength)
	}
	p.Spec.TopologySpreadConstraints = mergeMatchLabelKeys(p.Spec.TopologySpreadConstraints, p.Labels)
	p.Spec.Affinity = mergeAffinityLabelKeys(p.Spec.Affinity, p.Labels)
	dropStopSignals(&p.Spec)
	return &p
}
