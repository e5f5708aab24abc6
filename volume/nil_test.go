package volume_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/volume"
)

var nilT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function and method of volume that can be
// handed nil: a nil claim, volume or controller is an error wrapping
// api.ErrInvalidInput where there is an error result, the zero answer
// elsewhere.
var nilCases = map[string]func(t *testing.T){
	"SyncClaim": func(t *testing.T) {
		_, err := volume.SyncClaim(nil, volume.Objects{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "claim")
	},
	"SyncVolume": func(t *testing.T) {
		_, err := volume.SyncVolume(nil, volume.Objects{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "volume")
	},
	"(*PersistentVolumeController).Step": func(t *testing.T) {
		_, err := (*volume.PersistentVolumeController)(nil).Step(volume.BinderInput{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "PersistentVolumeController")
	},
	"(*PersistentVolumeController).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*volume.PersistentVolumeController)(nil).NextDeadline())
	},
	"(*AttachDetachController).Step": func(t *testing.T) {
		_, err := (*volume.AttachDetachController)(nil).Step(volume.World{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "AttachDetachController")
	},
	"(*AttachDetachController).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*volume.AttachDetachController)(nil).NextDeadline())
	},
	"(*AttachDetachController).Attached": func(t *testing.T) {
		niltest.Zero(t, (*volume.AttachDetachController)(nil).Attached("v"))
	},
	"PodUsesClaimForDeletion": func(t *testing.T) {
		niltest.Zero(t, volume.PodUsesClaimForDeletion(nil, &api.PersistentVolumeClaim{}))
		niltest.Zero(t, volume.PodUsesClaimForDeletion(&api.Pod{}, nil))
	},
	"SyncClaimProtection": func(t *testing.T) {
		_, err := volume.SyncClaimProtection(nil, nil, nil)
		niltest.Invalid(t, err, api.ErrInvalidInput, "claim")
		// Nil pods in the lists use nothing: the finalizer goes.
		deleting := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", DeletionTimestamp: api.NewTimePtr(nilT0),
			Finalizers: []string{api.FinalizerPVCProtection}}}
		if got, err := volume.SyncClaimProtection(deleting, []*api.Pod{nil}, []*api.Pod{nil}); err != nil || got != volume.FinalizerRemove {
			t.Errorf("got %v, %v; want RemoveFinalizer", got, err)
		}
	},
	"SyncVolumeProtection": func(t *testing.T) {
		_, err := volume.SyncVolumeProtection(nil)
		niltest.Invalid(t, err, api.ErrInvalidInput, "volume")
	},
	"ClaimProtectionQueued": func(t *testing.T) {
		niltest.Zero(t, volume.ClaimProtectionQueued(nil))
	},
	"VolumeProtectionQueued": func(t *testing.T) {
		niltest.Zero(t, volume.VolumeProtectionQueued(nil))
	},
	"ClaimsOfPodEvent": func(t *testing.T) {
		if got := volume.ClaimsOfPodEvent(nil, true); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"PodTerminated": func(t *testing.T) {
		niltest.Zero(t, volume.PodTerminated(nil))
	},
	"UniqueVolumeName": func(t *testing.T) {
		niltest.Zero(t, volume.UniqueVolumeName(nil))
	},
	"MultiAttachAllowed": func(t *testing.T) {
		if !volume.MultiAttachAllowed(nil) {
			t.Error("a nil volume is not allowed on several nodes; upstream lets the attacher decide")
		}
	},
	"Attachable": func(t *testing.T) {
		niltest.Zero(t, volume.Attachable(nil, nil))
	},
	"DesiredState": func(t *testing.T) {
		if got := volume.DesiredState(volume.World{Pods: []*api.Pod{nil}}, nil); len(got) != 0 {
			t.Errorf("got %v, want none", got)
		}
	},
	"MultiAttachMessage": func(t *testing.T) {
		niltest.Zero(t, volume.MultiAttachMessage(nil, "pv", nil))
	},
	"DecideDetach": func(t *testing.T) {
		// A deleted node (nil) is not healthy: an unmounted volume is
		// detached, a mounted one waits for the timeout.
		if got := volume.DecideDetach(nil, false, nilT0, nilT0, volume.DefaultMaxWaitForUnmount, false); got != volume.Detach {
			t.Errorf("got %v, want Detach", got)
		}
		if got := volume.DecideDetach(nil, true, nilT0, nilT0.Add(7*time.Minute), volume.DefaultMaxWaitForUnmount, false); got != volume.ForceDetachTimeout {
			t.Errorf("got %v, want ForceDetach(timeout)", got)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// volume that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
