package cluster

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// kubeletFlag reads one of the kubelet's eviction and graceful node
// shutdown flags (by upstream name, without dashes) into cfg; ok is false
// for a key that is none of them. The eviction settings are checked as
// the kubelet checks them at start (nodepressure.ParseSettings).
func (cfg *Config) kubeletFlag(key, value string) (ok bool, err error) {
	f := flagValue{key, value}
	bad := f.bad
	ev := &cfg.Eviction
	switch key {
	case "eviction-hard", "eviction-soft", "eviction-soft-grace-period", "eviction-minimum-reclaim":
		m, err := nodepressure.ParseFlag(key, value)
		if err != nil {
			return true, bad(err.Error())
		}
		switch key {
		case "eviction-hard":
			ev.Hard = m
		case "eviction-soft":
			ev.Soft = m
		case "eviction-soft-grace-period":
			ev.SoftGracePeriod = m
		default:
			ev.MinimumReclaim = m
		}
	case "eviction-pressure-transition-period":
		if _, err := f.duration(); err != nil {
			return true, err
		}
		ev.PressureTransitionPeriod = value
	case "eviction-max-pod-grace-period":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return true, bad("not an integer")
		}
		ev.MaxPodGracePeriodSeconds = n
	case "shutdown-grace-period", "shutdown-grace-period-critical-pods":
		d, err := f.duration()
		if err != nil {
			return true, err
		}
		if key == "shutdown-grace-period" {
			cfg.Shutdown.GracePeriod = d
		} else {
			cfg.Shutdown.GracePeriodCriticalPods = d
		}
	default:
		return false, nil
	}
	return true, nil
}

// checkKubeletFlags checks the settings the kubelet checks at start.
func (cfg *Config) checkKubeletFlags() error {
	if _, err := nodepressure.ParseSettings(cfg.Eviction); err != nil {
		return fmt.Errorf("cluster: %w: config: %v", api.ErrInvalidInput, err)
	}
	if _, err := cfg.Shutdown.PriorityGroups(); err != nil {
		return fmt.Errorf("cluster: config: %w", err)
	}
	return nil
}
