package workloads_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/workloads"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function of workloads that can be handed
// nil with nil arguments: a nil ReplicaSet or StatefulSet is an error
// wrapping api.ErrInvalidInput that names it, with the zero result; nil
// pods in the list are skipped. Keyed by the names niltest.Nilable lists;
// TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"SyncReplicaSet": func(t *testing.T) {
		r, err := workloads.SyncReplicaSet(nil, nil)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "replicaset")
		one := int32(1)
		rs := &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: &one}}
		if r, err := workloads.SyncReplicaSet(rs, []*api.Pod{nil}); err != nil || r.Create != 1 {
			t.Errorf("nil pod: got %+v, %v; want it skipped", r, err)
		}
	},
	"SyncStatefulSet": func(t *testing.T) {
		r, err := workloads.SyncStatefulSet(nil, nil, workloads.StatefulSetConfig{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "statefulset")
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// workloads that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
