package nodelifecycle

import (
	"time"
)

// Node lifecycle controller defaults of kube-controller-manager v1.36.3
// (pkg/controller/nodelifecycle and its configuration defaults).
const (
	// DefaultMonitorGracePeriod is --node-monitor-grace-period: how long a
	// node that has posted a Ready condition may stay silent before the
	// controller marks it Unknown.
	DefaultMonitorGracePeriod = 50 * time.Second
	// DefaultStartupGracePeriod is --node-startup-grace-period: the same
	// for a node that never posted a Ready condition, counted from its
	// creationTimestamp.
	DefaultStartupGracePeriod = 60 * time.Second
	// DefaultMonitorPeriod is --node-monitor-period: how often the
	// controller looks at every node.
	DefaultMonitorPeriod = 5 * time.Second
	// TaintPassPeriod is how often the controller's NoExecute tainting pass
	// runs (NodeEvictionPeriod of pkg/controller/nodelifecycle/scheduler,
	// the package of its rate-limited queue; no flag sets it).
	TaintPassPeriod = 100 * time.Millisecond
	// DefaultEvictionRate is --node-eviction-rate: NoExecute taints per
	// second in a zone, with a burst of one.
	DefaultEvictionRate float32 = 0.1
	// DefaultSecondaryEvictionRate is --secondary-node-eviction-rate.
	DefaultSecondaryEvictionRate float32 = 0.01
	// DefaultUnhealthyZoneThreshold is --unhealthy-zone-threshold.
	DefaultUnhealthyZoneThreshold float32 = 0.55
	// DefaultLargeClusterSizeThreshold is --large-cluster-size-threshold.
	DefaultLargeClusterSizeThreshold int32 = 50
)

// Config is the node lifecycle controller's configuration, the
// kube-controller-manager flags of the same names. The zero value is
// v1.36.3's default.
type Config struct {
	// MonitorPeriod is --node-monitor-period, the time between two looks
	// at a node (Monitor) or two monitor passes (Controller); 0 means
	// DefaultMonitorPeriod.
	MonitorPeriod time.Duration
	// MonitorGracePeriod is --node-monitor-grace-period; 0 means
	// DefaultMonitorGracePeriod.
	MonitorGracePeriod time.Duration
	// StartupGracePeriod is --node-startup-grace-period; 0 means
	// DefaultStartupGracePeriod.
	StartupGracePeriod time.Duration
	// EvictionRate is --node-eviction-rate, the NoExecute taints per
	// second per zone of the Controller's tainting queue in a healthy
	// zone; 0 means DefaultEvictionRate.
	EvictionRate float32
	// SecondaryEvictionRate is --secondary-node-eviction-rate, the rate in
	// a partly disrupted zone larger than LargeClusterSizeThreshold; 0
	// means DefaultSecondaryEvictionRate.
	SecondaryEvictionRate float32
	// UnhealthyZoneThreshold is --unhealthy-zone-threshold, the share of
	// not-Ready nodes (more than two) that makes a zone partly disrupted;
	// 0 means DefaultUnhealthyZoneThreshold.
	UnhealthyZoneThreshold float32
	// LargeClusterSizeThreshold is --large-cluster-size-threshold: a partly
	// disrupted zone of more nodes than this is tainted at the secondary
	// rate, a smaller one not at all; 0 means
	// DefaultLargeClusterSizeThreshold.
	LargeClusterSizeThreshold int32
}

func (c Config) monitorPeriod() time.Duration {
	if c.MonitorPeriod <= 0 {
		return DefaultMonitorPeriod
	}
	return c.MonitorPeriod
}

func (c Config) monitorGrace() time.Duration {
	return orDefault(c.MonitorGracePeriod, DefaultMonitorGracePeriod)
}

func (c Config) startupGrace() time.Duration {
	return orDefault(c.StartupGracePeriod, DefaultStartupGracePeriod)
}

func (c Config) evictionRate() float32 {
	return orDefault(c.EvictionRate, DefaultEvictionRate)
}

func (c Config) secondaryEvictionRate() float32 {
	return orDefault(c.SecondaryEvictionRate, DefaultSecondaryEvictionRate)
}

func (c Config) unhealthyZoneThreshold() float32 {
	return orDefault(c.UnhealthyZoneThreshold, DefaultUnhealthyZoneThreshold)
}

func (c Config) largeClusterSizeThreshold() int32 {
	return orDefault(c.LargeClusterSizeThreshold, DefaultLargeClusterSizeThreshold)
}

// orDefault is v, or def when v is the zero value (an unset setting).
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// nextTick is the first time start + k·period (k ≥ 0) strictly after now:
// when a periodic pass anchored at start runs next after running at now,
// as a ticker that drops the ticks it missed.
func nextTick(start time.Time, period time.Duration, now time.Time) time.Time {
	if now.Before(start) {
		return start
	}
	return start.Add((now.Sub(start)/period + 1) * period)
}

// tickAtOrAfter is the first time start + k·period (k ≥ 0) not before t.
func tickAtOrAfter(start time.Time, period time.Duration, t time.Time) time.Time {
	if !t.After(start) {
		return start
	}
	k := (t.Sub(start) + period - 1) / period
	return start.Add(k * period)
}
