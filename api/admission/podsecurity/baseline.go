package podsecurity

import (
	"slices"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// The baseline checks of k8s.io/pod-security-admission's policy package,
// one function per variant, named after the check.

// appArmorProfile: the AppArmor profile type of the pod and of every
// container must be RuntimeDefault or Localhost when set, and the
// deprecated container.apparmor.security.beta.kubernetes.io/* annotations
// must be empty, runtime/default or localhost/*. The field check applies
// at every policy version (upstream extended its only, v1.0, variant).
func appArmorProfile(pod *api.Pod) (Forbidden, bool) {
	var badTypes []string
	bad := func(p *api.AppArmorProfile) bool {
		if p == nil || p.Type == api.AppArmorProfileTypeRuntimeDefault || p.Type == api.AppArmorProfileTypeLocalhost {
			return false
		}
		badTypes = append(badTypes, p.Type)
		return true
	}
	sc := pod.Spec.SecurityContext
	setters := badSetters(pod, sc != nil && bad(sc.AppArmorProfile), func(c *api.Container) bool {
		return c.SecurityContext != nil && bad(c.SecurityContext.AppArmorProfile)
	})
	var annotations []string
	for k, v := range pod.Annotations {
		if !strings.HasPrefix(k, api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			continue
		}
		if v == "" || v == api.DeprecatedAppArmorBetaProfileRuntimeDefault || strings.HasPrefix(v, api.DeprecatedAppArmorBetaProfileNamePrefix) {
			continue
		}
		annotations = append(annotations, k+"="+strconv.Quote(v))
	}
	if len(setters) == 0 && len(annotations) == 0 {
		return Forbidden{}, false
	}
	values := set(badTypes)
	if len(annotations) > 0 {
		slices.Sort(annotations)
		values = append(values, annotations...)
		setters = append(setters, pluralize("annotation", "annotations", len(annotations)))
	}
	return Forbidden{
		Reason: pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", len(values)),
		Detail: strings.Join(setters, " and ") + " must not set AppArmor profile type to " + joinQuote(values),
	}, true
}

// baselineCapabilities are the capabilities a container may add at
// baseline: the container runtimes' default set, less NET_RAW.
var baselineCapabilities = []string{
	"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD",
	"NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT",
}

// capabilitiesBaseline: containers may add only the default capabilities.
func capabilitiesBaseline(pod *api.Pod) (Forbidden, bool) {
	var containers, caps []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		if c.SecurityContext == nil || c.SecurityContext.Capabilities == nil {
			return
		}
		bad := false
		for _, cap := range c.SecurityContext.Capabilities.Add {
			if !slices.Contains(baselineCapabilities, cap) {
				bad = true
				caps = append(caps, cap)
			}
		}
		if bad {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{
		Reason: "non-default capabilities",
		Detail: containersPhrase(containers) + " must not include " + joinQuote(set(caps)) + " in securityContext.capabilities.add",
	}, true
}

// hostNamespaces: the pod must not share the node's network, PID or IPC
// namespace.
func hostNamespaces(pod *api.Pod) (Forbidden, bool) {
	var shared []string
	if pod.Spec.HostNetwork {
		shared = append(shared, "hostNetwork=true")
	}
	if pod.Spec.HostPID {
		shared = append(shared, "hostPID=true")
	}
	if pod.Spec.HostIPC {
		shared = append(shared, "hostIPC=true")
	}
	if len(shared) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "host namespaces", Detail: strings.Join(shared, ", ")}, true
}

// hostPathVolumes: no hostPath volume.
func hostPathVolumes(pod *api.Pod) (Forbidden, bool) {
	var names []string
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].HostPath != nil {
			names = append(names, pod.Spec.Volumes[i].Name)
		}
	}
	if len(names) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "hostPath volumes", Detail: pluralize("volume", "volumes", len(names)) + " " + joinQuote(names)}, true
}

// hostPorts: no container port may claim a host port.
func hostPorts(pod *api.Pod) (Forbidden, bool) {
	var containers, ports []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		bad := false
		for _, p := range c.Ports {
			if p.HostPort != 0 {
				bad = true
				ports = append(ports, strconv.Itoa(int(p.HostPort)))
			}
		}
		if bad {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	// Upstream sorts the ports as strings: "10250" before "80".
	ports = set(ports)
	return Forbidden{
		Reason: "hostPort",
		Detail: containersPhrase(containers) + " " + pluralize("uses", "use", len(containers)) + " " +
			pluralize("hostPort", "hostPorts", len(ports)) + " " + strings.Join(ports, ", "),
	}, true
}

// hostProbesAndHostLifecycle (policy v1.34+): probes and lifecycle
// handlers must not name a host for their httpGet or tcpSocket action, so
// the kubelet cannot be made to reach other hosts on the pod's behalf.
func hostProbesAndHostLifecycle(pod *api.Pod) (Forbidden, bool) {
	var containers, hosts []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		n := len(hosts)
		for _, p := range []*api.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
			if p == nil {
				continue
			}
			if p.HTTPGet != nil && p.HTTPGet.Host != "" {
				hosts = append(hosts, p.HTTPGet.Host)
			}
			if p.TCPSocket != nil && p.TCPSocket.Host != "" {
				hosts = append(hosts, p.TCPSocket.Host)
			}
		}
		if c.Lifecycle != nil {
			for _, h := range []*api.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
				if h == nil {
					continue
				}
				if h.HTTPGet != nil && h.HTTPGet.Host != "" {
					hosts = append(hosts, h.HTTPGet.Host)
				}
				if h.TCPSocket != nil && h.TCPSocket.Host != "" {
					hosts = append(hosts, h.TCPSocket.Host)
				}
			}
		}
		if len(hosts) > n {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	// This check, unlike the older ones, names the containers as a sorted
	// set.
	containers, hosts = set(containers), set(hosts)
	return Forbidden{
		Reason: "probe or lifecycle host",
		Detail: containersPhrase(containers) + " " + pluralize("uses", "use", len(containers)) + " " +
			pluralize("probe or lifecycle host", "probe or lifecycle hosts", len(hosts)) + " " + joinQuote(hosts),
	}, true
}

// privileged: no privileged container.
func privileged(pod *api.Pod) (Forbidden, bool) {
	var containers []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		if c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "privileged", Detail: containersPhrase(containers) + " must not set securityContext.privileged=true"}, true
}

// procMount: a container's procMount, when set, must be Default. It is
// also restricted's procMount_restricted check.
func procMount(pod *api.Pod) (Forbidden, bool) {
	var containers, types []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		if c.SecurityContext == nil || c.SecurityContext.ProcMount == nil || *c.SecurityContext.ProcMount == api.DefaultProcMount {
			return
		}
		containers = append(containers, c.Name)
		types = append(types, *c.SecurityContext.ProcMount)
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{
		Reason: "procMount",
		Detail: containersPhrase(containers) + " must not set securityContext.procMount to " + joinQuote(set(types)),
	}, true
}

// procMountUserNamespaceRelaxed is baseline's procMount from policy v1.35:
// any procMount is allowed in a user namespace (hostUsers: false).
var procMountUserNamespaceRelaxed = exemptUserNamespace(procMount)

// The SELinux types a pod or container may set at baseline.
var (
	seLinuxTypes1Dot0  = []string{"", "container_t", "container_init_t", "container_kvm_t"}
	seLinuxTypes1Dot31 = []string{"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}
)

func seLinuxOptions1Dot0(pod *api.Pod) (Forbidden, bool) {
	return seLinuxOptions(pod, seLinuxTypes1Dot0)
}
func seLinuxOptions1Dot31(pod *api.Pod) (Forbidden, bool) {
	return seLinuxOptions(pod, seLinuxTypes1Dot31)
}

// seLinuxOptions: the SELinux type of the pod and of every container must
// be one of allowedTypes, and the SELinux user and role must not be set.
func seLinuxOptions(pod *api.Pod, allowedTypes []string) (Forbidden, bool) {
	var badTypes []string
	setUser, setRole := false, false
	bad := func(o *api.SELinuxOptions) bool {
		if o == nil {
			return false
		}
		ok := true
		if !slices.Contains(allowedTypes, o.Type) {
			ok = false
			badTypes = append(badTypes, o.Type)
		}
		if o.User != "" {
			ok, setUser = false, true
		}
		if o.Role != "" {
			ok, setRole = false, true
		}
		return !ok
	}
	sc := pod.Spec.SecurityContext
	setters := badSetters(pod, sc != nil && bad(sc.SELinuxOptions), func(c *api.Container) bool {
		return c.SecurityContext != nil && bad(c.SecurityContext.SELinuxOptions)
	})
	if len(setters) == 0 {
		return Forbidden{}, false
	}
	var what []string
	if badTypes = set(badTypes); len(badTypes) > 0 {
		what = append(what, pluralize("type", "types", len(badTypes))+" "+joinQuote(badTypes))
	}
	if setUser {
		what = append(what, "user may not be set")
	}
	if setRole {
		what = append(what, "role may not be set")
	}
	return Forbidden{
		Reason: "seLinuxOptions",
		Detail: strings.Join(setters, " and ") + " set forbidden securityContext.seLinuxOptions: " + strings.Join(what, "; "),
	}, true
}

// seccompAnnotations is seccompProfile_baseline before policy v1.19, when
// seccomp was set by alpha annotations: the pod's and each container's
// annotation, when present, must be runtime/default, docker/default or
// localhost/*.
func seccompAnnotations(pod *api.Pod) (Forbidden, bool) {
	valid := func(v string) bool {
		return v == api.SeccompProfileRuntimeDefault || v == api.DeprecatedSeccompProfileDockerDefault ||
			strings.HasPrefix(v, api.SeccompLocalhostProfileNamePrefix)
	}
	var bad []string
	if v, ok := pod.Annotations[api.SeccompPodAnnotationKey]; ok && !valid(v) {
		bad = append(bad, api.SeccompPodAnnotationKey+"="+strconv.Quote(v))
	}
	eachContainer(&pod.Spec, func(c *api.Container) {
		k := api.SeccompContainerAnnotationKeyPrefix + c.Name
		if v, ok := pod.Annotations[k]; ok && !valid(v) {
			bad = append(bad, k+"="+strconv.Quote(v))
		}
	})
	if len(bad) == 0 {
		return Forbidden{}, false
	}
	bad = set(bad)
	return Forbidden{
		Reason: "seccompProfile",
		Detail: "forbidden " + pluralize("annotation", "annotations", len(bad)) + " " + strings.Join(bad, ", "),
	}, true
}

// validSeccompType reports whether a seccompProfile.type is one baseline
// and restricted accept.
func validSeccompType(t string) bool {
	return t == api.SeccompProfileTypeRuntimeDefault || t == api.SeccompProfileTypeLocalhost
}

// seccompBaseline is seccompProfile_baseline from policy v1.19: the pod's
// and every container's seccompProfile.type, when set, must be
// RuntimeDefault or Localhost.
func seccompBaseline(pod *api.Pod) (Forbidden, bool) {
	var badTypes []string
	bad := func(p *api.SeccompProfile) bool {
		if p == nil || validSeccompType(p.Type) {
			return false
		}
		badTypes = append(badTypes, p.Type)
		return true
	}
	sc := pod.Spec.SecurityContext
	setters := badSetters(pod, sc != nil && bad(sc.SeccompProfile), func(c *api.Container) bool {
		return c.SecurityContext != nil && bad(c.SecurityContext.SeccompProfile)
	})
	if len(setters) == 0 {
		return Forbidden{}, false
	}
	return seccompExplicitlyBad(setters, badTypes), true
}

// seccompExplicitlyBad words a pod or containers that set a forbidden
// seccompProfile.type.
func seccompExplicitlyBad(setters, badTypes []string) Forbidden {
	return Forbidden{
		Reason: "seccompProfile",
		Detail: strings.Join(setters, " and ") + " must not set securityContext.seccompProfile.type to " + joinQuote(set(badTypes)),
	}
}

// The namespaced sysctls baseline allows, growing by policy version.
var (
	sysctlsAllowed1Dot0 = []string{
		"kernel.shm_rmid_forced",
		"net.ipv4.ip_local_port_range",
		"net.ipv4.tcp_syncookies",
		"net.ipv4.ping_group_range",
		"net.ipv4.ip_unprivileged_port_start",
	}
	sysctlsAllowed1Dot27 = append(slices.Clip(sysctlsAllowed1Dot0),
		"net.ipv4.ip_local_reserved_ports",
	)
	sysctlsAllowed1Dot29 = append(slices.Clip(sysctlsAllowed1Dot27),
		"net.ipv4.tcp_keepalive_time",
		"net.ipv4.tcp_fin_timeout",
		"net.ipv4.tcp_keepalive_intvl",
		"net.ipv4.tcp_keepalive_probes",
	)
	sysctlsAllowed1Dot32 = append(slices.Clip(sysctlsAllowed1Dot29),
		"net.ipv4.tcp_rmem",
		"net.ipv4.tcp_wmem",
	)
)

func sysctls1Dot0(pod *api.Pod) (Forbidden, bool)  { return sysctls(pod, sysctlsAllowed1Dot0) }
func sysctls1Dot27(pod *api.Pod) (Forbidden, bool) { return sysctls(pod, sysctlsAllowed1Dot27) }
func sysctls1Dot29(pod *api.Pod) (Forbidden, bool) { return sysctls(pod, sysctlsAllowed1Dot29) }
func sysctls1Dot32(pod *api.Pod) (Forbidden, bool) { return sysctls(pod, sysctlsAllowed1Dot32) }

// sysctls: the pod may set only the allowed sysctls; the detail lists the
// others in the pod's order.
func sysctls(pod *api.Pod, allowed []string) (Forbidden, bool) {
	sc := pod.Spec.SecurityContext
	if sc == nil {
		return Forbidden{}, false
	}
	var bad []string
	for _, s := range sc.Sysctls {
		if !slices.Contains(allowed, s.Name) {
			bad = append(bad, s.Name)
		}
	}
	if len(bad) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "forbidden sysctls", Detail: strings.Join(bad, ", ")}, true
}

// windowsHostProcess: neither the pod nor a container may run as a Windows
// HostProcess container.
func windowsHostProcess(pod *api.Pod) (Forbidden, bool) {
	hostProcess := func(o *api.WindowsSecurityContextOptions) bool {
		return o != nil && o.HostProcess != nil && *o.HostProcess
	}
	sc := pod.Spec.SecurityContext
	setters := badSetters(pod, sc != nil && hostProcess(sc.WindowsOptions), func(c *api.Container) bool {
		return c.SecurityContext != nil && hostProcess(c.SecurityContext.WindowsOptions)
	})
	if len(setters) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{
		Reason: "hostProcess",
		Detail: strings.Join(setters, " and ") + " must not set securityContext.windowsOptions.hostProcess=true",
	}, true
}
