package validation_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/internal/niltest"
)

// requiredAtMetadata is the answer of the validators for a nil object: one
// Required error at metadata, as a request without a body would get.
func requiredAtMetadata(t *testing.T, errs api.FieldErrors) {
	t.Helper()
	if len(errs) != 1 || errs[0] == nil || errs[0].Type != api.ErrorTypeRequired || errs[0].Field != "metadata" {
		t.Errorf("got %v, want one Required error at metadata", errs)
	}
}

// requiredAt checks for a single Required error at field.
func requiredAt(t *testing.T, errs api.FieldErrors, field string) {
	t.Helper()
	if len(errs) != 1 || errs[0] == nil || errs[0].Type != api.ErrorTypeRequired || errs[0].Field != field {
		t.Errorf("got %v, want one Required error at %s", errs, field)
	}
}

// nilCases calls each exported function of api/validation that can be
// handed nil with nil arguments and checks the documented answer. Keyed by
// the names niltest.Nilable lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"MergeAffinityLabelKeys": func(t *testing.T) {
		if got := validation.MergeAffinityLabelKeys(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"ValidateDeleteOptions": func(t *testing.T) {
		if errs := validation.ValidateDeleteOptions(nil); errs != nil {
			t.Errorf("nil options are the empty options, accepted; got %v", errs)
		}
	},
	"PrepareForCreate": func(t *testing.T) {
		if got := validation.PrepareForCreate(nil); got != nil {
			t.Errorf("PrepareForCreate(nil) = %v, want nil", got)
		}
	},
	"ValidatePodCreate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidatePodCreate(nil))
	},
	"ValidatePodEphemeralContainersUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidatePodEphemeralContainersUpdate(nil, &api.Pod{}))
		requiredAtMetadata(t, validation.ValidatePodEphemeralContainersUpdate(&api.Pod{}, nil))
	},
	"ValidatePodUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidatePodUpdate(nil, &api.Pod{}))
		requiredAtMetadata(t, validation.ValidatePodUpdate(&api.Pod{}, nil))
	},
	"ValidatePriorityClass": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidatePriorityClass(nil))
	},
	"Options.ValidatePodCreate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{AllowPrivileged: true}.ValidatePodCreate(nil))
	},
	"Options.ValidatePodUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{AllowPrivileged: true}.ValidatePodUpdate(nil, &api.Pod{}))
		requiredAtMetadata(t, validation.Options{AllowPrivileged: true}.ValidatePodUpdate(&api.Pod{}, nil))
	},
	"Options.ValidatePodEphemeralContainersUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{AllowPrivileged: true}.ValidatePodEphemeralContainersUpdate(nil, &api.Pod{}))
		requiredAtMetadata(t, validation.Options{AllowPrivileged: true}.ValidatePodEphemeralContainersUpdate(&api.Pod{}, nil))
	},
	"ValidatePodTemplateSpec": func(t *testing.T) {
		requiredAt(t, validation.ValidatePodTemplateSpec(nil, api.NewPath("spec", "template")), "spec.template")
	},
	"Options.ValidatePodTemplateSpec": func(t *testing.T) {
		requiredAt(t, validation.Options{AllowPrivileged: true}.ValidatePodTemplateSpec(nil, api.NewPath("template")), "template")
	},
	"ValidateWorkloadTemplate": func(t *testing.T) {
		requiredAt(t, validation.ValidateWorkloadTemplate(nil), "spec")
		requiredAt(t, validation.ValidateWorkloadTemplate((*api.Deployment)(nil)), "spec")
		requiredAt(t, validation.ValidateWorkloadTemplate((*api.Job)(nil)), "spec")
	},
	"Options.ValidateWorkloadTemplate": func(t *testing.T) {
		requiredAt(t, validation.Options{AllowPrivileged: true}.ValidateWorkloadTemplate(nil), "spec")
		requiredAt(t, validation.Options{AllowPrivileged: true}.ValidateWorkloadTemplate((*api.StatefulSet)(nil)), "spec")
	},
	"ValidatePriorityClassUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidatePriorityClassUpdate(nil, &api.PriorityClass{}))
		requiredAtMetadata(t, validation.ValidatePriorityClassUpdate(&api.PriorityClass{}, nil))
	},
	"InvalidObjectMessage": func(t *testing.T) {
		if got, want := validation.InvalidObjectMessage("Deployment", "apps", "web", nil), `Deployment.apps "web" is invalid`; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"ValidateDaemonSet": func(t *testing.T) {
		requiredAt(t, validation.ValidateDaemonSet(nil), "spec")
	},
	"Options.ValidateDaemonSet": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateDaemonSet(nil), "spec")
	},
	"ValidateDaemonSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateDaemonSetUpdate(nil, &api.DaemonSet{}))
		requiredAtMetadata(t, validation.ValidateDaemonSetUpdate(&api.DaemonSet{}, nil))
	},
	"Options.ValidateDaemonSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateDaemonSetUpdate(nil, nil))
	},
	"ValidateStatefulSet": func(t *testing.T) {
		requiredAt(t, validation.ValidateStatefulSet(nil), "spec")
	},
	"Options.ValidateStatefulSet": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateStatefulSet(nil), "spec")
	},
	"ValidateStatefulSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateStatefulSetUpdate(nil, &api.StatefulSet{}))
		requiredAtMetadata(t, validation.ValidateStatefulSetUpdate(&api.StatefulSet{}, nil))
	},
	"Options.ValidateStatefulSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateStatefulSetUpdate(nil, nil))
	},
	"ValidateJob": func(t *testing.T) {
		requiredAt(t, validation.ValidateJob(nil), "spec")
	},
	"Options.ValidateJob": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateJob(nil), "spec")
	},
	"ValidateJobUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateJobUpdate(nil, &api.Job{}))
		requiredAtMetadata(t, validation.ValidateJobUpdate(&api.Job{}, nil))
	},
	"Options.ValidateJobUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateJobUpdate(nil, nil))
	},
	"ValidateCronJob": func(t *testing.T) {
		requiredAt(t, validation.ValidateCronJob(nil), "spec")
	},
	"Options.ValidateCronJob": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateCronJob(nil), "spec")
	},
	"ValidateCronJobUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateCronJobUpdate(nil, &api.CronJob{}))
		requiredAtMetadata(t, validation.ValidateCronJobUpdate(&api.CronJob{}, nil))
	},
	"Options.ValidateCronJobUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateCronJobUpdate(nil, nil))
	},
	"ValidateDeployment": func(t *testing.T) {
		requiredAt(t, validation.ValidateDeployment(nil), "spec")
	},
	"Options.ValidateDeployment": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateDeployment(nil), "spec")
	},
	"ValidateDeploymentUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateDeploymentUpdate(nil, &api.Deployment{}))
		requiredAtMetadata(t, validation.ValidateDeploymentUpdate(&api.Deployment{}, nil))
	},
	"Options.ValidateDeploymentUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateDeploymentUpdate(nil, nil))
	},
	"ValidateReplicaSet": func(t *testing.T) {
		requiredAt(t, validation.ValidateReplicaSet(nil), "spec")
	},
	"Options.ValidateReplicaSet": func(t *testing.T) {
		requiredAt(t, validation.Options{}.ValidateReplicaSet(nil), "spec")
	},
	"ValidateReplicaSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateReplicaSetUpdate(nil, &api.ReplicaSet{}))
		requiredAtMetadata(t, validation.ValidateReplicaSetUpdate(&api.ReplicaSet{}, nil))
	},
	"Options.ValidateReplicaSetUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.Options{}.ValidateReplicaSetUpdate(nil, nil))
	},
	"ValidateResourceQuota": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateResourceQuota(nil))
	},
	"ValidateResourceQuotaUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateResourceQuotaUpdate(nil, &api.ResourceQuota{}))
		requiredAtMetadata(t, validation.ValidateResourceQuotaUpdate(&api.ResourceQuota{}, nil))
	},
	"ValidateResourceQuotaStatusUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateResourceQuotaStatusUpdate(nil, &api.ResourceQuota{}))
		requiredAtMetadata(t, validation.ValidateResourceQuotaStatusUpdate(&api.ResourceQuota{}, nil))
	},
	"ValidateLimitRange": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateLimitRange(nil))
	},
	"ValidateLimitRangeUpdate": func(t *testing.T) {
		requiredAtMetadata(t, validation.ValidateLimitRangeUpdate(nil, &api.LimitRange{}))
		requiredAtMetadata(t, validation.ValidateLimitRangeUpdate(&api.LimitRange{}, nil))
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function of
// api/validation that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
