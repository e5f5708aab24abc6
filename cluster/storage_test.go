package cluster

import (
	"testing"
	"time"
)

// TestStorageFlags: the storage settings by upstream flag name (and the
// volume model's knobs); a bad value is an error naming the key.
func TestStorageFlags(t *testing.T) {
	cfg, unused, err := ConfigFromFlags(map[string]string{"pvclaimbinder-sync-period": "30s", "provision-delay": "2s",
		"attach-delay": "1s", "disable-force-detach-on-timeout": "true", "report-volumes-in-use": "true", "no-such-flag": "1"})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Storage
	if s.Binder.SyncPeriod != 30*time.Second || s.ProvisionDelay != 2*time.Second || s.AttachDelay != time.Second || !s.AttachDetach.DisableForceDetachOnTimeout || !s.ReportVolumesInUse {
		t.Errorf("got %+v", s)
	}
	if len(unused) != 1 || unused[0] != "no-such-flag" {
		t.Errorf("unused %v", unused)
	}
	for k, v := range map[string]string{"provision-delay": "soon", "disable-force-detach-on-timeout": "maybe"} {
		if _, _, err := ConfigFromFlags(map[string]string{k: v}); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
}
