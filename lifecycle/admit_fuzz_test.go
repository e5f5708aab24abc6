package lifecycle_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// FuzzAdmitSysctls feeds the sysctl allowlist arbitrary
// --allowed-unsafe-sysctls entries (comma-separated), pod sysctl names and
// kernel releases. Admit must never panic; a configuration it refuses is an
// error wrapping api.ErrInvalidInput; a pod refused by the allowlist gets
// SysctlForbidden with the sysctl named; and a sysctl the configuration
// names exactly is refused only for sharing its namespace with the host.
func FuzzAdmitSysctls(f *testing.F) {
	f.Add("kernel.msg*,net.core.somaxconn", "kernel.msgmax", "6.8.0", false, false)
	f.Add("net.*", "net/ipv4/conf/eno2.100/rp_filter", "4.4.0", true, false)
	f.Add("", "net.ipv4.tcp_rmem", "4.15.0-213-generic", false, false)
	f.Add("kernel.sem", "kernel.sem", "v3.10", false, true)
	f.Add("*", "vm.swappiness", "", false, false)
	f.Add("fs.mqueue.*", "fs/mqueue/msg_max", "0.1", false, true)
	f.Fuzz(func(t *testing.T, patterns, sysctl, kernel string, hostNet, hostIPC bool) {
		var allowed []string
		if patterns != "" {
			allowed = strings.Split(patterns, ",")
		}
		pod := &api.Pod{}
		pod.Name = "web"
		pod.Spec.HostNetwork, pod.Spec.HostIPC = hostNet, hostIPC
		pod.Spec.SecurityContext = &api.PodSecurityContext{Sysctls: []api.Sysctl{{Name: sysctl, Value: "1"}}}
		node := &api.Node{}
		node.Name = "node-1"
		node.Status.Allocatable = api.ResourceList{api.ResourcePods: api.MustParseQuantity("10")}
		r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: node, Pod: pod,
			Config: lifecycle.AdmitConfig{AllowedUnsafeSysctls: allowed, KernelVersion: kernel}})
		if err != nil {
			if !errors.Is(err, api.ErrInvalidInput) {
				t.Fatalf("error %v does not wrap api.ErrInvalidInput", err)
			}
			return
		}
		if r.Handler == lifecycle.AdmitHandlerSysctl {
			if r.Reason != lifecycle.ReasonSysctlForbidden || !strings.Contains(r.Message, strconv.Quote(api.NormalizeSysctlName(sysctl))) {
				t.Fatalf("sysctl refusal %s: %q does not name %q", r.Reason, r.Message, sysctl)
			}
		}
		for _, a := range allowed {
			if api.NormalizeSysctlName(a) != api.NormalizeSysctlName(sysctl) || strings.Contains(a, "*") {
				continue
			}
			ns := api.SysctlNamespace(sysctl)
			shared := (ns == api.SysctlNamespaceNet && hostNet) || (ns == api.SysctlNamespaceIPC && hostIPC)
			if refused := r.Handler == lifecycle.AdmitHandlerSysctl; refused != shared {
				t.Fatalf("allowed %q, pod sysctl %q (hostNetwork %v, hostIPC %v): refused %v: %s", a, sysctl, hostNet, hostIPC, refused, r.Message)
			}
		}
	})
}
