package nodelifecycle

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// TestConfigValidate: NewController and NewMonitor refuse settings no
// behaviour can be given to. A NaN rate used to compare false everywhere
// and let the tainting queue taint every unready node at once; negative
// and tiny rates and negative grace periods were taken as given.
func TestConfigValidate(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{EvictionRate: nan}, "Config.EvictionRate: node-eviction-rate: Invalid value: NaN: must be a finite number of nodes per second"},
		{Config{EvictionRate: float32(math.Inf(1))}, "Config.EvictionRate: node-eviction-rate: Invalid value: +Inf: must be a finite number of nodes per second"},
		{Config{EvictionRate: -0.1}, "Config.EvictionRate: node-eviction-rate: Invalid value: -0.1: must be greater than or equal to 0"},
		{Config{SecondaryEvictionRate: 1e-20}, "Config.SecondaryEvictionRate: secondary-node-eviction-rate: Invalid value: 1e-20: must be 0 or at least 1e-09 nodes per second"},
		{Config{UnhealthyZoneThreshold: 1.5}, "Config.UnhealthyZoneThreshold: unhealthy-zone-threshold: Invalid value: 1.5: must be between 0 and 1, inclusive"},
		{Config{UnhealthyZoneThreshold: nan}, "Config.UnhealthyZoneThreshold: unhealthy-zone-threshold: Invalid value: NaN: must be between 0 and 1, inclusive"},
		{Config{LargeClusterSizeThreshold: -1}, "Config.LargeClusterSizeThreshold: large-cluster-size-threshold: Invalid value: -1: must be greater than or equal to 0"},
		{Config{MonitorGracePeriod: -time.Second}, `Config.MonitorGracePeriod: node-monitor-grace-period: Invalid value: "-1s": must be greater than or equal to 0`},
		{Config{MonitorPeriod: -time.Second, StartupGracePeriod: -time.Minute}, `[Config.MonitorPeriod: node-monitor-period: Invalid value: "-1s": must be greater than or equal to 0, ` +
			`Config.StartupGracePeriod: node-startup-grace-period: Invalid value: "-1m0s": must be greater than or equal to 0]`},
	} {
		c, err := NewController(tc.cfg)
		if c != nil || !errors.Is(err, api.ErrInvalidInput) || err.Error() != "nodelifecycle: invalid input: "+tc.want {
			t.Errorf("NewController(%+v) = %v, %v; want the error %s", tc.cfg, c, err, tc.want)
		}
		if m, err := NewMonitor(tc.cfg); m != nil || !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("NewMonitor(%+v) = %v, %v", tc.cfg, m, err)
		}
	}
	for _, cfg := range []Config{{}, {EvictionRate: MinEvictionRate, SecondaryEvictionRate: 1000, UnhealthyZoneThreshold: 1,
		LargeClusterSizeThreshold: 1, MonitorPeriod: time.Second, MonitorGracePeriod: time.Hour, StartupGracePeriod: time.Hour}} {
		if err := cfg.Validate(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// TestDuplicateNodeNames: two nodes of one name in an input used to share
// one health record and undo each other's writes; the step is now an error
// naming the node, and changes nothing.
func TestDuplicateNodeNames(t *testing.T) {
	c := mustController(Config{})
	n := func(name string) *api.Node { return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}} }
	_, err := c.Step(Input{Nodes: []*api.Node{n("a"), n("b"), n("a")}}, time.Unix(0, 0))
	if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), `nodes[2]: duplicate node name "a" (also nodes[0])`) {
		t.Fatalf("err = %v", err)
	}
	if !c.NextDeadline().IsZero() {
		t.Fatal("the refused step started the controller")
	}
}
