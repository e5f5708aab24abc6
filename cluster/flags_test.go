package cluster_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/cluster"
)

// TestConfigFromControllerManagerFlags reads kube-controller-manager's
// node lifecycle and pod GC flags by name and refuses values the flags
// refuse.
func TestConfigFromControllerManagerFlags(t *testing.T) {
	cfg, unused, err := cluster.ConfigFromFlags(map[string]string{
		"node-monitor-period":          "2s",
		"node-monitor-grace-period":    "20s",
		"node-startup-grace-period":    "30s",
		"node-eviction-rate":           "0.5",
		"secondary-node-eviction-rate": "0.05",
		"unhealthy-zone-threshold":     "0.6",
		"large-cluster-size-threshold": "20",
		"terminated-pod-gc-threshold":  "100",
		"resource-quota-sync-period":   "1m",
	})
	if err != nil || len(unused) != 0 {
		t.Fatalf("got %v, unused %v", err, unused)
	}
	nl := cfg.NodeLifecycle
	if nl.MonitorPeriod != 2*time.Second || nl.MonitorGracePeriod != 20*time.Second || nl.StartupGracePeriod != 30*time.Second ||
		nl.EvictionRate != 0.5 || nl.SecondaryEvictionRate != 0.05 || nl.UnhealthyZoneThreshold != 0.6 || nl.LargeClusterSizeThreshold != 20 {
		t.Errorf("node lifecycle settings %+v", nl)
	}
	if cfg.PodGC.TerminatedPodThreshold != 100 || cfg.PodGC.DisableTerminatedPodGC {
		t.Errorf("pod GC settings %+v", cfg.PodGC)
	}
	if cfg.QuotaResyncPeriod != time.Minute {
		t.Errorf("quota resync period %v", cfg.QuotaResyncPeriod)
	}
	if cfg, _, _ := cluster.ConfigFromFlags(map[string]string{"terminated-pod-gc-threshold": "0"}); !cfg.PodGC.DisableTerminatedPodGC {
		t.Errorf("terminated-pod-gc-threshold=0 does not turn terminated-pod collection off: %+v", cfg.PodGC)
	}
	for _, bad := range []map[string]string{
		{"node-monitor-grace-period": "soon"},
		{"node-monitor-period": "0s"},
		{"node-eviction-rate": "-1"},
		{"unhealthy-zone-threshold": "1.5"},
		{"large-cluster-size-threshold": "many"},
		{"terminated-pod-gc-threshold": "-3"},
		{"resource-quota-sync-period": "0s"},
	} {
		if _, _, err := cluster.ConfigFromFlags(bad); err == nil || !strings.Contains(err.Error(), "config ") {
			t.Errorf("%v: %v, want an error naming the key", bad, err)
		}
	}
}

// TestNodeMonitorGracePeriodFlag: the node-lost scenario with
// node-monitor-grace-period 20s marks the node NotReady 30 s earlier than
// with the default 50 s.
func TestNodeMonitorGracePeriodFlag(t *testing.T) {
	data, err := os.ReadFile("testdata/node-lost.json")
	if err != nil {
		t.Fatal(err)
	}
	notReadyAt := func(config map[string]string) float64 {
		sc, err := cluster.ParseScenario(data)
		if err != nil {
			t.Fatal(err)
		}
		sc.Config = config
		res, err := cluster.Run(sc, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Records {
			if r.Reason == "NodeNotReady" && r.Object == "Node/node-2" {
				return r.Offset
			}
		}
		t.Fatalf("no NodeNotReady for node-2 with %v", config)
		return 0
	}
	def, short := notReadyAt(nil), notReadyAt(map[string]string{"node-monitor-grace-period": "20s"})
	if d := def - short; d < 25 || d > 35 {
		t.Errorf("NotReady at %vs by default, %vs with a 20-s grace period: want about 30 s earlier", def, short)
	}
}

// The slowed cascade's settings read by name; nonsense is refused naming
// the key.
func TestConfigFromCascadeFlags(t *testing.T) {
	cfg, unused, err := cluster.ConfigFromFlags(map[string]string{"cascade-rounds": "40", "reaction-latency": "120ms"})
	if err != nil || len(unused) != 0 || cfg.Cascade.Rounds != 40 || cfg.Cascade.Latency != 120*time.Millisecond {
		t.Fatalf("got %+v, unused %v, %v", cfg.Cascade, unused, err)
	}
	for _, bad := range []map[string]string{{"cascade-rounds": "0"}, {"cascade-rounds": "many"}, {"reaction-latency": "-1s"}, {"reaction-latency": "soon"}} {
		if _, _, err := cluster.ConfigFromFlags(bad); err == nil || !strings.Contains(err.Error(), "config ") {
			t.Errorf("%v: %v, want an error naming the key", bad, err)
		}
	}
}
