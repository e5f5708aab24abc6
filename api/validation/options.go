package validation

import (
	"time"

	"github.com/podsem/podsem/api"
)

// Options are the kube-apiserver flags pod validation depends on. The zero
// value is kube-apiserver v1.36.3 started with default flags.
//
// A real cluster usually differs: kubeadm, kind, k3s and the managed
// services start the API server with --allow-privileged=true, since
// kube-proxy, CNI plugins and node agents run privileged. Validate pods
// read from such a cluster with AllowPrivileged set.
type Options struct {
	// AllowPrivileged is --allow-privileged: privileged containers and
	// Windows hostProcess containers are accepted. Off by default, when
	// they are refused with "disallowed by cluster policy".
	AllowPrivileged bool
	// LoadLocation is the time zone database a CronJob's spec.timeZone is
	// checked against (kube-apiserver's: time.LoadLocation). Nil knows
	// only "UTC" (api.LoadLocationUTC), so that validation reads no files.
	LoadLocation func(name string) (*time.Location, error)
}

// podValidationOptions are the relaxations the API server grants a pod
// update because the stored pod already uses something that newer rules
// refuse (pkg/api/pod GetValidationOptionsFromPodSpecAndMeta). A new pod
// gets none of them.
type podValidationOptions struct {
	// allowInvalidDeletionCost: the old pod's pod-deletion-cost
	// annotation was already not an int32.
	allowInvalidDeletionCost bool
	// allowHostNamespacedSysctls: the old pod already set a network
	// sysctl with hostNetwork or an IPC sysctl with hostIPC.
	allowHostNamespacedSysctls bool
	// allowInitRestartContainer: the old pod already had a non-sidecar
	// init container whose resize policy restarts it.
	allowInitRestartContainer bool
	// allowNonLocalProjectedTokenPath: the old pod already had a
	// projected service account token whose path is not a local,
	// non-reserved one.
	allowNonLocalProjectedTokenPath bool
	// allowPrivileged is kube-apiserver's --allow-privileged.
	allowPrivileged bool
	// allowAnySELinuxChangePolicy: the old pod already set
	// spec.securityContext.seLinuxChangePolicy, so MountOption stays
	// accepted although SELinuxMount is off.
	allowAnySELinuxChangePolicy bool
	// allowUserNamespaceHostNetwork: the old pod already combined
	// hostUsers false with hostNetwork (UserNamespacesHostNetworkSupport
	// is off by default).
	allowUserNamespaceHostNetwork bool
	// allowUserNamespaceVolumeDevices: the old pod already combined
	// hostUsers false with volumeDevices in some container.
	allowUserNamespaceVolumeDevices bool
}

// updateValidationOptions derives the options for validating an update
// over oldPod.
func (o Options) updateValidationOptions(oldPod *api.Pod) podValidationOptions {
	opts := podValidationOptions{allowInvalidDeletionCost: !validDeletionCost(oldPod.Annotations), allowPrivileged: o.AllowPrivileged}
	if sc := oldPod.Spec.SecurityContext; sc != nil {
		for _, s := range sc.Sysctls {
			if hostSysctlConflict(s.Name, &oldPod.Spec, api.Path{}) != nil {
				opts.allowHostNamespacedSysctls = true
				break
			}
		}
	}
	if hostUsersFalse(&oldPod.Spec) {
		opts.allowUserNamespaceHostNetwork = oldPod.Spec.HostNetwork
		for _, v := range allContainers(&oldPod.Spec, api.Path{}) {
			if len(v.c.VolumeDevices) > 0 {
				opts.allowUserNamespaceVolumeDevices = true
			}
		}
	}
	for _, v := range oldPod.Spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, src := range v.Projected.Sources {
			if t := src.ServiceAccountToken; t != nil && len(api.ValidateLocalNonReservedPath(t.Path, api.Path{})) > 0 {
				opts.allowNonLocalProjectedTokenPath = true
			}
		}
	}
	if sc := oldPod.Spec.SecurityContext; sc != nil && sc.SELinuxChangePolicy != nil {
		opts.allowAnySELinuxChangePolicy = true
	}
	for i := range oldPod.Spec.InitContainers {
		c := &oldPod.Spec.InitContainers[i]
		if c.IsSidecar() {
			continue
		}
		for _, rp := range c.ResizePolicy {
			if rp.RestartPolicy == resizeRestartContainer {
				opts.allowInitRestartContainer = true
			}
		}
	}
	return opts
}

// hostSysctlConflict reports a namespaced sysctl on a pod sharing that
// namespace with the host: network sysctls with hostNetwork, IPC sysctls
// with hostIPC (core validation's ValidateHostSysctl).
func hostSysctlConflict(name string, spec *api.PodSpec, p api.Path) *api.FieldError {
	switch ns := api.SysctlNamespace(name); {
	case spec.HostNetwork && ns == api.SysctlNamespaceNet:
		return api.Invalid(p, name, "may not be specified when 'hostNetwork' is true")
	case spec.HostIPC && ns == api.SysctlNamespaceIPC:
		return api.Invalid(p, name, "may not be specified when 'hostIPC' is true")
	}
	return nil
}

// initContainerAnnotations are the pre-1.6 annotations that carried init
// containers; the v1-to-internal pod conversion removes them.
var initContainerAnnotations = [...]string{
	"pod.beta.kubernetes.io/init-containers",
	"pod.alpha.kubernetes.io/init-containers",
	"pod.beta.kubernetes.io/init-container-statuses",
	"pod.alpha.kubernetes.io/init-container-statuses",
}

// asConverted returns pod as the API server validates it after converting
// the v1 object to its internal type (pkg/apis/core/v1 Convert_v1_Pod_To_core_Pod):
// a negative terminationGracePeriodSeconds becomes 1 and the legacy init
// container annotations are gone. pod itself is not modified; the result
// shares everything else with it (it is pod when nothing converts).
func asConverted(pod *api.Pod) *api.Pod {
	if !needsConversion(pod) {
		return pod
	}
	p := *pod
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		one := int64(1)
		p.Spec.TerminationGracePeriodSeconds = &one
	}
	for _, k := range initContainerAnnotations {
		if _, ok := p.Annotations[k]; ok {
			kept := make(map[string]string, len(p.Annotations))
			for ak, av := range p.Annotations {
				kept[ak] = av
			}
			for _, drop := range initContainerAnnotations {
				delete(kept, drop)
			}
			p.Annotations = kept
			break
		}
	}
	return &p
}

// needsConversion reports whether asConverted changes pod.
func needsConversion(pod *api.Pod) bool {
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		return true
	}
	for _, k := range initContainerAnnotations {
		if _, ok := pod.Annotations[k]; ok {
			return true
		}
	}
	return false
}

// dropStopSignals removes container stop signals from a new pod's spec, as
// the pod strategy's PrepareForCreate does while the ContainerStopSignals
// feature gate is off (its v1.36.3 default); a lifecycle left empty goes
// too. The container slices are copied before any change, so the caller's
// pod is not modified.
func dropStopSignals(spec *api.PodSpec) {
	strip := func(c *api.Container) {
		if c.Lifecycle == nil || c.Lifecycle.StopSignal == nil {
			return
		}
		lc := *c.Lifecycle
		lc.StopSignal = nil
		if lc.PostStart == nil && lc.PreStop == nil {
			c.Lifecycle = nil
		} else {
			c.Lifecycle = &lc
		}
	}
	has := func(c *api.Container) bool { return c.Lifecycle != nil && c.Lifecycle.StopSignal != nil }
	for _, list := range []*[]api.Container{&spec.Containers, &spec.InitContainers} {
		for i := range *list {
			if has(&(*list)[i]) {
				cp := append([]api.Container(nil), *list...)
				for j := range cp {
					strip(&cp[j])
				}
				*list = cp
				break
			}
		}
	}
	for i := range spec.EphemeralContainers {
		if has(&spec.EphemeralContainers[i].Container) {
			cp := append([]api.EphemeralContainer(nil), spec.EphemeralContainers...)
			for j := range cp {
				strip(&cp[j].Container)
			}
			spec.EphemeralContainers = cp
			break
		}
	}
}

// resizeRestartContainer is the resize policy that restarts the container
// when the resource changes.
const resizeRestartContainer = "RestartContainer"
