package api

import "strings"

// The Linux namespaces a sysctl can belong to, as SysctlNamespace names
// them (component-helpers node/util/sysctl): the names the kubelet's and
// the API server's messages print.
const (
	SysctlNamespaceNet = "Net"
	SysctlNamespaceIPC = "IPC"
)

// SysctlNamespace returns the Linux namespace a sysctl (or a sysctl
// pattern, read up to its first '*') belongs to, as the table shared by
// the API server's validation and the kubelet's sysctl allowlist
// (component-helpers node/util/sysctl GetNamespace) says: SysctlNamespaceIPC
// for kernel.sem, kernel.shm*, kernel.msg* (the listed names) and
// fs.mqueue.*, SysctlNamespaceNet for net.*, and "" when the sysctl is not
// known to be namespaced. The name is normalized first
// (NormalizeSysctlName).
func SysctlNamespace(name string) string {
	name = NormalizeSysctlName(name)
	if i := strings.IndexByte(name, '*'); i >= 0 {
		name = name[:i]
	}
	switch name {
	case "kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
		"kernel.shm", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg":
		return SysctlNamespaceIPC
	}
	switch {
	case strings.HasPrefix(name, "net."):
		return SysctlNamespaceNet
	case strings.HasPrefix(name, "fs.mqueue."):
		return SysctlNamespaceIPC
	}
	return ""
}

// NormalizeSysctlName turns the slash-separated spelling of a sysctl
// (net/ipv4/conf/eno2.100/rp_filter) into the dotted one
// (net.ipv4.conf.eno2/100.rp_filter) by swapping the two separators, when
// the first separator is a slash; any other name is returned as it is
// (component-helpers node/util/sysctl NormalizeName).
func NormalizeSysctlName(name string) string {
	i := strings.IndexAny(name, "./")
	if i < 0 || name[i] == '.' {
		return name
	}
	b := []byte(name)
	for j, c := range b {
		switch c {
		case '.':
			b[j] = '/'
		case '/':
			b[j] = '.'
		}
	}
	return string(b)
}
