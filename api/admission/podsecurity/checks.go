package podsecurity

import "github.com/podsem/podsem/api"

// checkFn is one variant of a check: it reports whether pod fails it and,
// if so, the reason and detail (Check is filled in by Evaluate).
type checkFn func(pod *api.Pod) (Forbidden, bool)

// variant is a check as it stands from policy version v1.<since> until
// the next variant of the same check.
type variant struct {
	since int
	fn    checkFn
}

// check is one entry of k8s.io/pod-security-admission's registry
// (policy.DefaultChecks): its ID, its level, its variants by policy
// version, and for a restricted check the baseline checks it replaces at
// the restricted level wherever it exists.
type check struct {
	id        string
	level     Level
	variants  []variant
	overrides []string
}

// variant returns the check's variant for policy version v1.<minor>: the
// one of the highest since at or below it; nil before the check existed.
func (c *check) variant(minor int) checkFn {
	var fn checkFn
	for _, v := range c.variants {
		if v.since > minor {
			break
		}
		fn = v.fn
	}
	return fn
}

// applies reports whether c runs at level (baseline or restricted) and
// policy version v1.<minor>: a baseline check runs at both levels unless,
// at restricted, a restricted check that exists at that version replaces
// it; a restricted check runs only at restricted.
func (c *check) applies(level Level, minor int) bool {
	if c.level == LevelRestricted {
		return level == LevelRestricted
	}
	if level == LevelBaseline {
		return true
	}
	for i := range checks {
		r := &checks[i]
		if r.level != LevelRestricted || r.variant(minor) == nil {
			continue
		}
		for _, id := range r.overrides {
			if id == c.id {
				return false
			}
		}
	}
	return true
}

// newestPolicyMinor is the newest policy version any check of v1.36.3
// defines a variant for (the 1.35 variants of procMount, runAsNonRoot and
// runAsUser, and procMount_restricted): "latest" and every newer version
// evaluate as v1.35. The API server's emulation version, 1.36, is not
// older, so it does not lower it.
const newestPolicyMinor = 35

// effectiveVersion is the policy version whose variants run for v: v
// itself, or v1.35 for "latest" and anything newer.
func effectiveVersion(v Version) Version {
	newest := MajorMinorVersion(1, newestPolicyMinor)
	if newest.Older(v) {
		return newest
	}
	return v
}

// checks is the registry in the order upstream runs it: the baseline
// checks sorted by ID (byte order), then the restricted checks sorted by
// ID. TestCheckTable keeps the order and the variants well formed.
var checks = []check{
	{id: "appArmorProfile", level: LevelBaseline, variants: []variant{{0, appArmorProfile}}},
	{id: "capabilities_baseline", level: LevelBaseline, variants: []variant{{0, capabilitiesBaseline}}},
	{id: "hostNamespaces", level: LevelBaseline, variants: []variant{{0, hostNamespaces}}},
	{id: "hostPathVolumes", level: LevelBaseline, variants: []variant{{0, hostPathVolumes}}},
	{id: "hostPorts", level: LevelBaseline, variants: []variant{{0, hostPorts}}},
	{id: "hostProbesAndHostLifecycle", level: LevelBaseline, variants: []variant{{34, hostProbesAndHostLifecycle}}},
	{id: "privileged", level: LevelBaseline, variants: []variant{{0, privileged}}},
	{id: "procMount", level: LevelBaseline, variants: []variant{{0, procMount}, {35, procMountUserNamespaceRelaxed}}},
	{id: "seLinuxOptions", level: LevelBaseline, variants: []variant{{0, seLinuxOptions1Dot0}, {31, seLinuxOptions1Dot31}}},
	{id: "seccompProfile_baseline", level: LevelBaseline, variants: []variant{{0, seccompAnnotations}, {19, seccompBaseline}}},
	{id: "sysctls", level: LevelBaseline, variants: []variant{{0, sysctls1Dot0}, {27, sysctls1Dot27}, {29, sysctls1Dot29}, {32, sysctls1Dot32}}},
	{id: "windowsHostProcess", level: LevelBaseline, variants: []variant{{0, windowsHostProcess}}},

	{id: "allowPrivilegeEscalation", level: LevelRestricted, variants: []variant{{8, allowPrivilegeEscalation}, {25, exemptWindows(allowPrivilegeEscalation)}}},
	{id: "capabilities_restricted", level: LevelRestricted, variants: []variant{{22, capabilitiesRestricted}, {25, exemptWindows(capabilitiesRestricted)}},
		overrides: []string{"capabilities_baseline"}},
	{id: "procMount_restricted", level: LevelRestricted, variants: []variant{{35, procMount}},
		overrides: []string{"procMount"}},
	{id: "restrictedVolumes", level: LevelRestricted, variants: []variant{{0, restrictedVolumes}},
		overrides: []string{"hostPathVolumes"}},
	{id: "runAsNonRoot", level: LevelRestricted, variants: []variant{{0, runAsNonRoot}, {35, exemptUserNamespace(runAsNonRoot)}}},
	{id: "runAsUser", level: LevelRestricted, variants: []variant{{23, runAsUser}, {35, exemptUserNamespace(runAsUser)}}},
	{id: "seccompProfile_restricted", level: LevelRestricted, variants: []variant{{19, seccompRestricted}, {25, exemptWindows(seccompRestricted)}},
		overrides: []string{"seccompProfile_baseline"}},
}

// exemptWindows is a check's v1.25 variant: pods with spec.os.name windows
// pass it, because the Linux-only field it requires is one validation
// forbids on Windows pods.
func exemptWindows(fn checkFn) checkFn {
	return func(pod *api.Pod) (Forbidden, bool) {
		if pod.Spec.OS != nil && pod.Spec.OS.Name == api.Windows {
			return Forbidden{}, false
		}
		return fn(pod)
	}
}

// exemptUserNamespace is a check's v1.35 variant: pods in a user namespace
// (spec.hostUsers false) pass it, since root in the container is not root
// on the node (KEP-127).
func exemptUserNamespace(fn checkFn) checkFn {
	return func(pod *api.Pod) (Forbidden, bool) {
		if inUserNamespace(pod) {
			return Forbidden{}, false
		}
		return fn(pod)
	}
}

// inUserNamespace reports whether the pod runs in its own user namespace:
// spec.hostUsers set to false.
func inUserNamespace(pod *api.Pod) bool {
	return pod.Spec.HostUsers != nil && !*pod.Spec.HostUsers
}
