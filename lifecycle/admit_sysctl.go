package lifecycle

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// safeSysctl is one of the kubelet's safe sysctls: namespaced and isolated
// from other pods, so allowed without --allowed-unsafe-sysctls, on kernels
// of at least minKernel (none when empty).
type safeSysctl struct {
	name      string
	minKernel string
}

// safeSysctls is the kubelet's safe list (pkg/kubelet/sysctl
// safe_sysctls.go of v1.36.3) with the kernel release that namespaced each
// newer one.
var safeSysctls = [...]safeSysctl{
	{name: "kernel.shm_rmid_forced"},
	{name: "net.ipv4.ip_local_port_range"},
	{name: "net.ipv4.tcp_syncookies"},
	{name: "net.ipv4.ping_group_range"},
	{name: "net.ipv4.ip_unprivileged_port_start"},
	{name: "net.ipv4.ip_local_reserved_ports", minKernel: "3.16"},
	{name: "net.ipv4.tcp_keepalive_time", minKernel: "4.5"},
	{name: "net.ipv4.tcp_fin_timeout", minKernel: "4.6"},
	{name: "net.ipv4.tcp_keepalive_intvl", minKernel: "4.5"},
	{name: "net.ipv4.tcp_keepalive_probes", minKernel: "4.5"},
	{name: "net.ipv4.tcp_rmem", minKernel: "4.15"},
	{name: "net.ipv4.tcp_wmem", minKernel: "4.15"},
}

// sysctlPatternFmt is the pattern an --allowed-unsafe-sysctls entry must
// match (pkg/apis/policy/validation SysctlContainSlashPatternFmt): sysctl
// segments separated by dots or slashes, the last one possibly ending in
// '*'.
const sysctlPatternFmt = `([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`

// sysctlMaxLength is the longest sysctl name or pattern accepted.
const sysctlMaxLength = 253

// sysctlPattern is sysctlPatternFmt anchored; compiled once and never
// changed.
var sysctlPattern = regexp.MustCompile("^" + sysctlPatternFmt + "$")

// sysctlAllowlist is the kubelet's sysctl admit handler (pkg/kubelet/sysctl
// patternAllowlist): exact names and prefixes, each with its namespace.
type sysctlAllowlist struct {
	names    map[string]string
	prefixes map[string]string
}

// newSysctlAllowlist builds the allowlist a kubelet builds at start-up
// from the safe sysctls of the kernel and the allowed unsafe ones
// (NewAllowlist over both lists), refusing what the kubelet refuses to
// start with.
//
// Without safe, the built-in safe sysctls are left out: only the
// configured entries are read (and refused when invalid), for a pod that
// sets no sysctl and so consults no entry.
func newSysctlAllowlist(cfg AdmitConfig, safe bool) (*sysctlAllowlist, error) {
	w := &sysctlAllowlist{names: map[string]string{}, prefixes: map[string]string{}}
	var kernel []uint64
	var known bool
	if safe {
		kernel, known = parseKernelVersion(cfg.KernelVersion)
	}
	for _, s := range safeSysctls {
		if !safe {
			break
		}
		if s.minKernel != "" {
			min, _ := parseKernelVersion(s.minKernel)
			if !known || compareVersions(kernel, min) < 0 {
				continue
			}
		}
		if err := w.add(s.name); err != nil {
			return nil, err
		}
	}
	for i, s := range cfg.AllowedUnsafeSysctls {
		if err := w.add(s); err != nil {
			return nil, fmt.Errorf("allowedUnsafeSysctls[%d]: %w", i, err)
		}
	}
	return w, nil
}

// add adds one sysctl or pattern.
func (w *sysctlAllowlist) add(s string) error {
	if len(s) > sysctlMaxLength || !sysctlPattern.MatchString(s) {
		return fmt.Errorf("%w: sysctl %q must have at most %d characters and match regex %s",
			api.ErrInvalidInput, s, sysctlMaxLength, sysctlPatternFmt)
	}
	name := api.NormalizeSysctlName(s)
	prefixed := false
	if i := strings.IndexByte(name, '*'); i >= 0 {
		name, prefixed = name[:i], true
	}
	ns := api.SysctlNamespace(name)
	if ns == "" {
		return fmt.Errorf("%w: the sysctls %q are not known to be namespaced", api.ErrInvalidInput, name)
	}
	if prefixed {
		w.prefixes[name] = ns
	} else {
		w.names[name] = ns
	}
	return nil
}

// admit checks the pod's sysctls in order and returns the message of the
// first one refused.
func (w *sysctlAllowlist) admit(pod *api.Pod) (message string, ok bool) {
	sc := pod.Spec.SecurityContext
	if sc == nil {
		return "", true
	}
	for _, s := range sc.Sysctls {
		if msg, ok := w.check(s.Name, pod.Spec.HostNetwork, pod.Spec.HostIPC); !ok {
			return "forbidden sysctl: " + msg, false
		}
	}
	return "", true
}

// check is validateSysctl: an exact entry, else any matching prefix, then
// the host-namespace rule.
func (w *sysctlAllowlist) check(sysctl string, hostNet, hostIPC bool) (string, bool) {
	sysctl = api.NormalizeSysctlName(sysctl)
	ns, found := w.names[sysctl]
	if !found {
		// Every prefix a name matches has the same namespace (the table
		// decides it from the name's start), so which one matches first
		// does not change the answer.
		for p, pns := range w.prefixes {
			if strings.HasPrefix(sysctl, p) {
				ns, found = pns, true
				break
			}
		}
	}
	if !found {
		return strconv.Quote(sysctl) + " not allowlisted", false
	}
	if (ns == api.SysctlNamespaceIPC && hostIPC) || (ns == api.SysctlNamespaceNet && hostNet) {
		return fmt.Sprintf("%q not allowed with host %s enabled", sysctl, ns), false
	}
	return "", true
}

// parseKernelVersion reads a kernel release the way the kubelet does
// (apimachinery version.ParseGeneric): optional spaces and a "v", then at
// least two dot-separated numbers (the first without a leading zero);
// anything after them ("-45-generic") is ignored. ok is false for what
// does not parse.
func parseKernelVersion(s string) (components []uint64, ok bool) {
	s = strings.TrimLeft(s, " \t\n\f\r")
	s = strings.TrimPrefix(s, "v")
	var parts []string
	for {
		end := 0
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		parts = append(parts, s[:end])
		s = s[end:]
		// A dot continues the numbers only when a digit follows it.
		if len(s) < 2 || s[0] != '.' || s[1] < '0' || s[1] > '9' {
			break
		}
		s = s[1:]
	}
	if len(parts) < 2 || (len(parts[0]) > 1 && parts[0][0] == '0') {
		return nil, false
	}
	components = make([]uint64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, strconv.IntSize)
		if err != nil {
			return nil, false
		}
		components[i] = n
	}
	return components, true
}

// compareVersions compares two generic versions component by component,
// missing components counting as 0 (version.Version compareInternal).
func compareVersions(a, b []uint64) int {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y uint64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}
