package cluster

import (
	"fmt"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// controllerManagerFlag reads one of kube-controller-manager's flags that
// the simulated controllers take (by upstream name, without dashes) into
// cfg; ok is false for a key that is none of them:
//
//   - the node lifecycle controller's --node-monitor-period,
//     --node-monitor-grace-period, --node-startup-grace-period,
//     --node-eviction-rate, --secondary-node-eviction-rate,
//     --unhealthy-zone-threshold and --large-cluster-size-threshold
//     (Config.NodeLifecycle);
//   - pod GC's --terminated-pod-gc-threshold (Config.PodGC; 0 turns
//     terminated-pod collection off, as upstream);
//   - the resourcequota controller's --resource-quota-sync-period
//     (Config.QuotaResyncPeriod).
//
// Durations are Go durations ("40s", "5m"), as the flags take them.
func (cfg *Config) controllerManagerFlag(key, value string) (ok bool, err error) {
	f := flagValue{key, value}
	bad := f.bad
	duration := func(dst *time.Duration) error {
		d, err := f.duration()
		if err == nil && d <= 0 {
			err = bad("must be positive")
		}
		if err != nil {
			return err
		}
		*dst = d
		return nil
	}
	rate := func(dst *float32, positive bool) error {
		x, err := strconv.ParseFloat(value, 32)
		if err != nil {
			return bad("not a number")
		}
		if x < 0 || positive && x == 0 {
			return bad("out of range")
		}
		*dst = float32(x)
		return nil
	}
	nl := &cfg.NodeLifecycle
	switch key {
	case "node-monitor-period":
		return true, duration(&nl.MonitorPeriod)
	case "node-monitor-grace-period":
		return true, duration(&nl.MonitorGracePeriod)
	case "node-startup-grace-period":
		return true, duration(&nl.StartupGracePeriod)
	case "node-eviction-rate":
		return true, rate(&nl.EvictionRate, true)
	case "secondary-node-eviction-rate":
		return true, rate(&nl.SecondaryEvictionRate, true)
	case "unhealthy-zone-threshold":
		if err := rate(&nl.UnhealthyZoneThreshold, true); err != nil {
			return true, err
		}
		if nl.UnhealthyZoneThreshold > 1 {
			return true, bad("must be at most 1")
		}
		return true, nil
	case "large-cluster-size-threshold":
		n, err := strconv.ParseInt(value, 10, 32)
		if err != nil || n <= 0 {
			return true, bad("not a positive integer")
		}
		nl.LargeClusterSizeThreshold = int32(n)
	case "terminated-pod-gc-threshold":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return true, bad("not a non-negative integer")
		}
		cfg.PodGC.TerminatedPodThreshold = n
		cfg.PodGC.DisableTerminatedPodGC = n == 0
	case "resource-quota-sync-period":
		return true, duration(&cfg.QuotaResyncPeriod)
	default:
		return false, nil
	}
	return true, nil
}

// flagValue is one config entry being read, by upstream flag name: its
// errors name the key and the value.
type flagValue struct{ key, value string }

// bad is the entry refused for detail.
func (f flagValue) bad(detail string) error {
	return fmt.Errorf("cluster: %w: config %s: %q: %s", api.ErrInvalidInput, f.key, f.value, detail)
}

// duration reads the value as a Go duration ("40s", "5m"), as the flags
// take them.
func (f flagValue) duration() (time.Duration, error) {
	d, err := time.ParseDuration(f.value)
	if err != nil {
		return 0, f.bad(err.Error())
	}
	return d, nil
}
