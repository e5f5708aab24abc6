package cluster

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// TestBindInterval: with bind-interval 20ms, the three pods of a
// Deployment scaled up at 10 s are decided at once but bound 20 ms apart
// (the first at once), each Scheduled Event at its binding; so their
// containers start and turn ready 20 ms apart, and the ReplicaSet's ready
// count rises one by one. Without it, the three are bound at one
// instant. A negative interval is refused.
func TestBindInterval(t *testing.T) {
	scenario := `{
	  "objects": [
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1"},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "default"},
	     "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
	       "template": {"metadata": {"labels": {"app": "web"}},
	         "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}}}
	  ],
	  "actions": [{"at": "10s", "scale": {"ref": "Deployment/default/web", "replicas": 4}}],
	  "until": "15s"%s
	}`
	offsets := func(config, reason string, match func(Record) bool) []float64 {
		t.Helper()
		sc, err := ParseScenario([]byte(fmt.Sprintf(scenario, config)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, r := range res.Records {
			if r.Reason == reason && (match == nil || match(r)) {
				out = append(out, r.Offset)
			}
		}
		return out
	}
	readyRise := func(r Record) bool {
		return strings.HasPrefix(r.Object, "ReplicaSet/default/web-") && strings.Contains(r.Message, "ready: ")
	}
	for _, c := range []struct {
		config           string
		scheduled, ready []float64
	}{
		{``, []float64{10, 10, 10}, []float64{11}},
		{`, "config": {"bind-interval": "20ms"}`, []float64{10, 10.02, 10.04}, []float64{11, 11.02, 11.04}},
	} {
		if got := offsets(c.config, "Scheduled", nil); !sameOffsets(got, c.scheduled) {
			t.Errorf("config %q: Scheduled at %v, want %v", c.config, got, c.scheduled)
		}
		if got := offsets(c.config, "ReplicaSetModified", readyRise); !sameOffsets(got, c.ready) {
			t.Errorf("config %q: the ReplicaSet's ready count rises at %v, want %v", c.config, got, c.ready)
		}
	}
	if _, _, err := ConfigFromFlags(map[string]string{"bind-interval": "-1s"}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("bind-interval -1s: %v", err)
	}
}

func sameOffsets(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}
