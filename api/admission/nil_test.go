package admission_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/internal/niltest"
)

// nilCases calls each exported function and method of api/admission that
// can be handed nil with nil arguments and checks the documented answer.
// Keyed by the names niltest.Nilable lists; TestNilTableComplete keeps it
// complete.
var nilCases = map[string]func(t *testing.T){
	"(*Error).Error": func(t *testing.T) {
		if got := (*admission.Error)(nil).Error(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"(*Error).Code": func(t *testing.T) {
		if got := (*admission.Error)(nil).Code(); got != 0 {
			t.Errorf("got %d, want 0", got)
		}
	},
	"(*Error).Unwrap": func(t *testing.T) {
		if got := (*admission.Error)(nil).Unwrap(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"ServiceAccount": func(t *testing.T) {
		niltest.Zero(t, admission.ServiceAccount(nil, "p", nil))
	},
	"LimitRangerDefaults": func(t *testing.T) {
		admission.LimitRangerDefaults(nil, []*api.LimitRange{nil})
		p := &api.Pod{}
		admission.LimitRangerDefaults(p, []*api.LimitRange{nil})
		niltest.Zero(t, p.Annotations)
	},
	"LimitRangerCheck": func(t *testing.T) {
		niltest.Zero(t, admission.LimitRangerCheck(nil, "p", []*api.LimitRange{{}}))
		niltest.Zero(t, admission.LimitRangerCheck(&api.Pod{}, "p", []*api.LimitRange{nil}))
	},
	"LimitRangerCheckClaim": func(t *testing.T) {
		niltest.Zero(t, admission.LimitRangerCheckClaim(nil, []*api.LimitRange{{}}))
		niltest.Zero(t, admission.LimitRangerCheckClaim(&api.PersistentVolumeClaim{}, []*api.LimitRange{nil}))
	},
	"AdmitPriorityClass": func(t *testing.T) {
		niltest.Invalid(t, admission.AdmitPriorityClass(nil, nil), api.ErrInvalidInput, "PriorityClass")
		pc := &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000, GlobalDefault: true}
		if err := admission.AdmitPriorityClass(pc, nil); err != nil {
			t.Errorf("no existing classes: %v", err)
		}
	},
	"DefaultTolerations": func(t *testing.T) {
		if got := admission.DefaultTolerations(nil, admission.TolerationSeconds{}); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"ClaimProtectionFinalizers": func(t *testing.T) {
		if got := admission.ClaimProtectionFinalizers(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"VolumeProtectionFinalizers": func(t *testing.T) {
		if got := admission.VolumeProtectionFinalizers(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"DefaultClaimStorageClass": func(t *testing.T) {
		def := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard", Annotations: map[string]string{api.AnnIsDefaultStorageClass: "true"}}}
		if got, ok := admission.DefaultClaimStorageClass(nil, []*api.StorageClass{def}); ok || got != "" {
			t.Errorf("nil claim: got %q, %v; want \"\", false", got, ok)
		}
		if got, ok := admission.DefaultClaimStorageClass(&api.PersistentVolumeClaim{}, []*api.StorageClass{nil, def}); !ok || got != "standard" {
			t.Errorf("nil class among classes: got %q, %v; want standard, true", got, ok)
		}
	},
	"GlobalDefaultClass": func(t *testing.T) {
		if got := admission.GlobalDefaultClass(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"PodTopologyLabels": func(t *testing.T) {
		if got := admission.PodTopologyLabels(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"WithPodTopologyLabels": func(t *testing.T) {
		if got := admission.WithPodTopologyLabels(nil, nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
		own := map[string]string{"app": "web"}
		if got := admission.WithPodTopologyLabels(own, nil); len(got) != 1 || got["app"] != "web" {
			t.Errorf("nil node: got %v, want the pod's labels", got)
		}
	},
	"NodeCreateTaints": func(t *testing.T) {
		if got := admission.NodeCreateTaints(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"Priority.Apply": func(t *testing.T) {
		admission.Priority{Value: 7}.Apply(nil)
	},
	"ResolvePriority": func(t *testing.T) {
		p, err := admission.ResolvePriority(nil, nil)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		if p != (admission.Priority{}) {
			t.Errorf("got %+v, want the zero Priority", p)
		}
		p, err = admission.ResolvePriority(&api.Pod{}, nil)
		if err != nil || p.Value != 0 {
			t.Errorf("no classes: got %+v, %v; want the default priority, 0", p, err)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// api/admission that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
