package validation

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// ValidatePodTemplateSpec returns the field errors the Kubernetes API
// server gives for a pod template held by a workload (core validation's
// ValidatePodTemplateSpec, v1.36.3, under kube-apiserver's default
// flags), with paths rooted at fldPath (for a Deployment,
// spec.template): the template's labels and annotations, the
// pod-specific annotations, the whole pod spec at fldPath.spec as a new
// pod's spec is checked, and no ephemeral containers ("ephemeral
// containers not allowed in pod template"). The template is expected
// defaulted (api.DefaultDeployment and its siblings default it). A nil
// template gives a single Required error at fldPath.
func ValidatePodTemplateSpec(t *api.PodTemplateSpec, fldPath api.Path) api.FieldErrors {
	return Options{}.ValidatePodTemplateSpec(t, fldPath)
}

// ValidatePodTemplateSpec is the package's ValidatePodTemplateSpec under
// these kube-apiserver options.
func (o Options) ValidatePodTemplateSpec(t *api.PodTemplateSpec, fldPath api.Path) api.FieldErrors {
	if t == nil {
		return api.FieldErrors{api.Required(fldPath, "")}
	}
	opts := podValidationOptions{allowPrivileged: o.AllowPrivileged}
	errs := validateLabels(t.Labels, fldPath.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, validatePodAnnotations(t.Annotations, &t.Spec, fldPath.Child("annotations"), opts.allowInvalidDeletionCost)...)
	pod := &api.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	errs = append(errs, validatePodSpec(pod, fldPath.Child("spec"), opts)...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, api.Forbidden(fldPath.Child("spec").Child("ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// ValidateWorkloadTemplate returns the field errors the Kubernetes API
// server gives for the selector and pod template of a workload it is
// asked to create or update: a *api.Deployment, *api.ReplicaSet,
// *api.StatefulSet, *api.DaemonSet or *api.Job, defaulted as the API
// server holds it. These are the template parts of apps validation
// (ValidateDeploymentSpec, ValidateReplicaSetSpec,
// ValidateStatefulSetSpec, ValidateDaemonSetSpec) and batch validation
// (ValidateJobSpec), v1.36.3, in upstream's order and with its paths:
//
//   - spec.selector is required (not for a DaemonSet, whose nil selector
//     only fails to match) and may not be empty ("empty selector is
//     invalid for deployment", also for a ReplicaSet, as upstream says);
//   - the selector must match the template's labels ("`selector` does
//     not match template `labels`" at spec.template.metadata.labels);
//   - the template passes ValidatePodTemplateSpec (a StatefulSet's with
//     hostname and subdomain cleared and a volume per volumeClaimTemplate,
//     as its controller fills those in);
//   - the template's restartPolicy is Always and activeDeadlineSeconds is
//     unset for the apps kinds; OnFailure or Never for a Job (Never with a
//     podFailurePolicy).
//
// A Job's generated selector must already be in place
// (workloads.GenerateJobSelector), as the Job strategy generates it
// before validating. The rest of the workload (replicas, strategies,
// label selector syntax beyond "invalid label selector", object
// metadata) is not checked here: ValidateDeployment, ValidateReplicaSet,
// ValidateDaemonSet and ValidateStatefulSet (and their Update forms)
// check the whole object. The object is not modified. A nil
// workload gives a Required error at spec; another type an Invalid
// error at kind.
func ValidateWorkloadTemplate(obj api.Object) api.FieldErrors {
	return Options{}.ValidateWorkloadTemplate(obj)
}

// ValidateWorkloadTemplate is the package's ValidateWorkloadTemplate
// under these kube-apiserver options.
func (o Options) ValidateWorkloadTemplate(obj api.Object) api.FieldErrors {
	spec := api.NewPath("spec")
	required := api.FieldErrors{api.Required(spec, "a workload is required")}
	switch x := obj.(type) {
	case *api.Deployment:
		if x == nil {
			return required
		}
		return o.replicatedTemplate(x.Spec.Selector, &x.Spec.Template, "deployment")
	case *api.ReplicaSet:
		if x == nil {
			return required
		}
		// Upstream's ReplicaSet validation names the Deployment in its
		// empty-selector message.
		return o.replicatedTemplate(x.Spec.Selector, &x.Spec.Template, "deployment")
	case *api.StatefulSet:
		if x == nil {
			return required
		}
		return o.statefulSetTemplate(x)
	case *api.DaemonSet:
		if x == nil {
			return required
		}
		return append(api.FieldErrors{}, o.daemonSetTemplate(&x.Spec)...)
	case *api.Job:
		if x == nil {
			return required
		}
		return o.jobTemplate(x)
	case nil:
		return required
	}
	return api.FieldErrors{api.Invalid(api.NewPath("kind"), fmt.Sprintf("%T", obj), "not a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job")}
}

// replicatedTemplate is the selector and template part of a Deployment's
// or ReplicaSet's validation (ValidatePodTemplateSpecForReplicaSet), with
// the selector only checked for presence.
func (o Options) replicatedTemplate(s *api.LabelSelector, t *api.PodTemplateSpec, emptyName string) api.FieldErrors {
	p := api.NewPath("spec").Child("selector")
	errs := selectorPresent(s, p, emptyName)
	sel, err := api.LabelSelectorAsSelector(s)
	if err != nil {
		return append(errs, api.Invalid(p, jsonValue{s}, "invalid label selector"))
	}
	return append(errs, o.replicaSetTemplate(sel, t)...)
}

// statefulSetTemplate is the selector and template part of a
// StatefulSet's validation: the template is checked as the controller
// will fill it in (no hostname or subdomain of its own, a volume per
// claim template), and its labels and annotations are checked a second
// time, as upstream's ValidatePodTemplateSpecForStatefulSet does.
func (o Options) statefulSetTemplate(set *api.StatefulSet) api.FieldErrors {
	errs := selectorPresent(set.Spec.Selector, api.NewPath("spec").Child("selector"), "statefulset")
	return append(errs, o.statefulSetPodTemplate(set, false)...)
}

// statefulSetPodTemplate is the part of statefulSetTemplate after the
// selector's presence: the selector converted, the template checked
// against it (its pod template rules left out with skipSpec, as an
// update of a StatefulSet whose stored spec is already invalid does),
// and the always-restart rule.
func (o Options) statefulSetPodTemplate(set *api.StatefulSet, skipSpec bool) api.FieldErrors {
	spec := api.NewPath("spec")
	tmpl := spec.Child("template")
	var errs api.FieldErrors
	if sel, err := api.LabelSelectorAsSelector(set.Spec.Selector); err != nil {
		errs = append(errs, api.Invalid(spec.Child("selector"), jsonValue{set.Spec.Selector}, ""))
	} else {
		t := set.Spec.Template
		if t.Spec.Subdomain != "" || t.Spec.Hostname != "" || len(set.Spec.VolumeClaimTemplates) > 0 {
			t.Spec.Subdomain, t.Spec.Hostname = "", ""
			if claims := set.Spec.VolumeClaimTemplates; len(claims) > 0 {
				vols := make([]api.Volume, 0, len(claims)+len(t.Spec.Volumes))
				fromClaim := map[string]bool{}
				for _, c := range claims {
					if fromClaim[c.Name] {
						continue
					}
					fromClaim[c.Name] = true
					vols = append(vols, api.Volume{Name: c.Name, VolumeSource: api.VolumeSource{
						PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: c.Name}}})
				}
				for _, v := range t.Spec.Volumes {
					if !fromClaim[v.Name] {
						vols = append(vols, v)
					}
				}
				t.Spec.Volumes = vols
			}
		}
		if !sel.Empty() && !sel.Matches(api.Set(t.Labels)) {
			errs = append(errs, selectorMismatch(tmpl, t.Labels))
		}
		if !skipSpec {
			errs = append(errs, o.ValidatePodTemplateSpec(&t, tmpl)...)
		}
		errs = append(errs, validateLabels(t.Labels, tmpl.Child("labels"))...)
		errs = append(errs, validateAnnotations(t.Annotations, tmpl.Child("annotations"))...)
		errs = append(errs, validatePodAnnotations(t.Annotations, &t.Spec, tmpl.Child("annotations"), false)...)
	}
	return append(errs, alwaysRestart(&set.Spec.Template, tmpl, "StatefulSet")...)
}

// jobTemplate is the template and selector part of a Job's validation:
// the pod template rules, the selector's presence and its match with the
// template's labels.
func (o Options) jobTemplate(job *api.Job) api.FieldErrors {
	errs := o.jobPodTemplate(&job.Spec)
	if job.Spec.Selector == nil {
		errs = append(errs, api.Required(api.NewPath("spec").Child("selector"), ""))
	}
	return append(errs, jobSelectorMatch(&job.Spec)...)
}

// selectorPresent is the apps kinds' check that spec.selector is set and
// not empty; emptyName is the kind upstream names in the message.
func selectorPresent(s *api.LabelSelector, p api.Path, emptyName string) api.FieldErrors {
	if s == nil {
		return api.FieldErrors{api.Required(p, "")}
	}
	if len(s.MatchLabels)+len(s.MatchExpressions) == 0 {
		return api.FieldErrors{api.Invalid(p, jsonValue{s}, "empty selector is invalid for "+emptyName)}
	}
	return nil
}

// selectorMismatch is the error for a selector that does not select the
// pods the template makes.
func selectorMismatch(tmpl api.Path, labels map[string]string) *api.FieldError {
	return api.Invalid(tmpl.Child("metadata").Child("labels"), jsonValue{labels}, "`selector` does not match template `labels`")
}

// alwaysRestart is the apps kinds' rule that their pods run forever:
// restartPolicy Always and no activeDeadlineSeconds.
func alwaysRestart(t *api.PodTemplateSpec, tmpl api.Path, kind string) api.FieldErrors {
	var errs api.FieldErrors
	p := tmpl.Child("spec")
	if t.Spec.RestartPolicy != api.RestartPolicyAlways {
		errs = append(errs, api.NotSupported(p.Child("restartPolicy"), string(t.Spec.RestartPolicy), []string{string(api.RestartPolicyAlways)}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, api.Forbidden(p.Child("activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}
