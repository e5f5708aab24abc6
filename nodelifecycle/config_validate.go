package nodelifecycle

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// MinEvictionRate is the smallest non-zero tainting rate Config accepts:
// one node in about 32 years. A slower rate's refill time (1/rate
// seconds) does not fit a time.Duration, where client-go's token bucket
// (golang.org/x/time/rate) converts it without a check.
const MinEvictionRate float32 = 1e-9

// Validate checks cfg. kube-controller-manager's NodeLifecycleController
// options accept any number (their Validate checks nothing), but a NaN
// rate compares false everywhere and let every unready node be tainted at
// once, and a negative grace period marks every node Unknown at its first
// look; podsem refuses such settings instead of inventing a behaviour:
//
//   - the durations (MonitorPeriod, MonitorGracePeriod,
//     StartupGracePeriod) must not be negative (0 means the default);
//   - the rates (EvictionRate, SecondaryEvictionRate) must be finite, and
//     0 (the default) or at least MinEvictionRate nodes per second;
//   - UnhealthyZoneThreshold, a share of a zone's nodes, must lie in
//     [0, 1] (0 means the default);
//   - LargeClusterSizeThreshold, a node count, must not be negative (0
//     means the default).
//
// The error wraps api.ErrInvalidInput and names each field, its flag and
// its value in the words of Kubernetes' field errors ("[a, b]" when there
// are several).
func (c Config) Validate() error {
	var errs []string
	for _, d := range []struct {
		field, flag string
		v           time.Duration
	}{
		{"MonitorPeriod", "node-monitor-period", c.MonitorPeriod},
		{"MonitorGracePeriod", "node-monitor-grace-period", c.MonitorGracePeriod},
		{"StartupGracePeriod", "node-startup-grace-period", c.StartupGracePeriod},
	} {
		if d.v < 0 {
			errs = append(errs, fmt.Sprintf("Config.%s: %s: Invalid value: %q: must be greater than or equal to 0", d.field, d.flag, d.v.String()))
		}
	}
	for _, r := range []struct {
		field, flag string
		v           float32
	}{
		{"EvictionRate", "node-eviction-rate", c.EvictionRate},
		{"SecondaryEvictionRate", "secondary-node-eviction-rate", c.SecondaryEvictionRate},
	} {
		f := float64(r.v)
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			errs = append(errs, fmt.Sprintf("Config.%s: %s: Invalid value: %v: must be a finite number of nodes per second", r.field, r.flag, r.v))
		case r.v < 0:
			errs = append(errs, fmt.Sprintf("Config.%s: %s: Invalid value: %v: must be greater than or equal to 0", r.field, r.flag, r.v))
		case r.v > 0 && r.v < MinEvictionRate:
			errs = append(errs, fmt.Sprintf("Config.%s: %s: Invalid value: %v: must be 0 or at least %v nodes per second", r.field, r.flag, r.v, MinEvictionRate))
		}
	}
	if v := c.UnhealthyZoneThreshold; v != v || v < 0 || v > 1 {
		errs = append(errs, fmt.Sprintf("Config.UnhealthyZoneThreshold: unhealthy-zone-threshold: Invalid value: %v: must be between 0 and 1, inclusive", v))
	}
	if v := c.LargeClusterSizeThreshold; v < 0 {
		errs = append(errs, fmt.Sprintf("Config.LargeClusterSizeThreshold: large-cluster-size-threshold: Invalid value: %d: must be greater than or equal to 0", v))
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: %s", errInvalidInput, errs[0])
	}
	return fmt.Errorf("%w: [%s]", errInvalidInput, strings.Join(errs, ", "))
}
