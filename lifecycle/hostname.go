package lifecycle

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// HostnameMaxLength is the longest hostname the kubelet gives a pod: 63
// characters, the Linux nodename field less its terminating NUL
// (pkg/kubelet truncatePodHostnameIfNeeded).
const HostnameMaxLength = 63

// FQDNMaxLength is the longest fully qualified name the kubelet sets as a
// pod's hostname with setHostnameAsFQDN: 64 characters
// (pkg/kubelet/util GetNodenameForKernel).
const FQDNMaxLength = 64

// HostnameStage says where the kubelet stops when a pod's names are
// invalid.
type HostnameStage string

const (
	// HostnameStageHostname: spec.hostname, spec.subdomain or
	// spec.hostnameOverride is not a valid DNS name. The kubelet cannot
	// build the pod's hostname and starts none of its containers.
	HostnameStageHostname HostnameStage = "hostname"
	// HostnameStageSandbox: with setHostnameAsFQDN the FQDN is longer
	// than FQDNMaxLength. The kubelet does not create the pod sandbox.
	HostnameStageSandbox HostnameStage = "sandbox"
)

// HostnameError is why the kubelet cannot name a pod: the stage it stops
// at and the kubelet's own message.
type HostnameError struct {
	Stage   HostnameStage
	Message string
}

// Error returns the kubelet's message ("" for a nil error).
func (e *HostnameError) Error() string {
	if e == nil {
		return ""
	}
	return e.Message
}

// PodHostname is the name a pod's containers see, as a v1.36.3 kubelet
// gives it (pkg/kubelet Kubelet.GeneratePodHostNameAndDomain and the pod
// sandbox config of pkg/kubelet/kuberuntime).
type PodHostname struct {
	// Hostname is the pod's hostname: spec.hostnameOverride when set
	// (the HostnameOverride feature, on by default in v1.36), else
	// spec.hostname, else the pod's name — cut to HostnameMaxLength and
	// then stripped of every trailing '-' and '.'.
	Hostname string
	// Domain is "<subdomain>.<namespace>.svc.<cluster domain>" for a pod
	// with spec.subdomain and no hostnameOverride, "" otherwise. With an
	// empty cluster domain it ends in "svc.", as upstream writes it.
	Domain string
	// Sandbox is the hostname the kubelet sets on the pod sandbox, which
	// `hostname` prints in the containers: Hostname, or
	// "<Hostname>.<Domain>" with setHostnameAsFQDN and a domain. It is ""
	// for a hostNetwork pod, whose containers keep the node's hostname.
	Sandbox string
	// HostNetwork is spec.hostNetwork.
	HostNetwork bool
}

// FQDN is the pod's fully qualified name, "<Hostname>.<Domain>", or
// Hostname when it has no domain.
func (h PodHostname) FQDN() string {
	if h.Domain == "" {
		return h.Hostname
	}
	return h.Hostname + "." + h.Domain
}

// Hostname returns the hostname, DNS domain and sandbox hostname the
// kubelet gives pod under --cluster-domain clusterDomain. The kubelet does
// not trust the API server's validation here: an invalid spec.hostname or
// spec.subdomain (DNS labels) or spec.hostnameOverride (a DNS subdomain) is
// a *HostnameError at HostnameStageHostname, and a setHostnameAsFQDN name
// longer than FQDNMaxLength one at HostnameStageSandbox; either way the
// pod's containers never start. A nil pod is an error wrapping
// api.ErrInvalidInput.
func Hostname(pod *api.Pod, clusterDomain string) (PodHostname, error) {
	if pod == nil {
		return PodHostname{}, fmt.Errorf("lifecycle: %w: pod: nil", api.ErrInvalidInput)
	}
	h := PodHostname{HostNetwork: pod.Spec.HostNetwork}
	if o := pod.Spec.HostnameOverride; o != nil {
		if msgs := api.IsDNS1123Subdomain(*o); len(msgs) > 0 {
			return PodHostname{}, stageError(HostnameStageHostname, "pod HostnameOverride %q is not a valid DNS subdomain: %s", *o, strings.Join(msgs, ";"))
		}
		name, err := truncateHostname(pod.Name, *o)
		if err != nil {
			return PodHostname{}, err
		}
		h.Hostname = name
	} else {
		name := pod.Name
		if hn := pod.Spec.Hostname; hn != "" {
			if msgs := api.IsDNS1123Label(hn); len(msgs) > 0 {
				return PodHostname{}, stageError(HostnameStageHostname, "pod Hostname %q is not a valid DNS label: %s", hn, strings.Join(msgs, ";"))
			}
			name = hn
		}
		name, err := truncateHostname(pod.Name, name)
		if err != nil {
			return PodHostname{}, err
		}
		h.Hostname = name
		if sub := pod.Spec.Subdomain; sub != "" {
			if msgs := api.IsDNS1123Label(sub); len(msgs) > 0 {
				return PodHostname{}, stageError(HostnameStageHostname, "pod Subdomain %q is not a valid DNS label: %s", sub, strings.Join(msgs, ";"))
			}
			h.Domain = sub + "." + pod.Namespace + ".svc." + clusterDomain
		}
	}
	if h.HostNetwork {
		return h, nil
	}
	h.Sandbox = h.Hostname
	if fqdn := pod.Spec.SetHostnameAsFQDN; fqdn != nil && *fqdn && h.Domain != "" {
		name := h.FQDN()
		if len(name) > FQDNMaxLength {
			return PodHostname{}, stageError(HostnameStageSandbox, "failed to construct FQDN from pod hostname and cluster domain, FQDN %s is too long (%d characters is the max, %d characters requested)", name, FQDNMaxLength, len(name))
		}
		h.Sandbox = name
	}
	return h, nil
}

// truncateHostname cuts a hostname longer than HostnameMaxLength and
// strips every trailing '-' and '.', which may leave it shorter still.
func truncateHostname(podName, name string) (string, error) {
	if len(name) <= HostnameMaxLength {
		return name, nil
	}
	cut := strings.TrimRight(name[:HostnameMaxLength], "-.")
	if cut == "" {
		return "", stageError(HostnameStageHostname, "hostname for pod %q was invalid: %q", podName, name)
	}
	return cut, nil
}

func stageError(stage HostnameStage, format string, args ...any) error {
	return &HostnameError{Stage: stage, Message: fmt.Sprintf(format, args...)}
}

// The headers of the /etc/hosts file the kubelet writes (pkg/kubelet
// managedHostsHeader and managedHostsHeaderWithHostNetwork).
const (
	etcHostsHeader            = "# Kubernetes-managed hosts file.\n"
	etcHostsHeaderHostNetwork = "# Kubernetes-managed hosts file (host network).\n"
	etcHostsPath              = "/etc/hosts"
)

// EtcHosts returns the /etc/hosts file the kubelet writes for a pod named
// h, with the pod IPs the runtime reports and, for a hostNetwork pod, the
// node's own /etc/hosts, and whether it mounts the file into the pod's
// containers at all (pkg/kubelet shouldMountHostsFile, ensureHostsFile).
//
// A pod network pod gets the file only once its sandbox has an IP: the
// localhost and IPv6 lines, one line per pod IP ("IP\tFQDN\thostname"
// with a domain, "IP\thostname" without), then the pod's hostAliases after
// an empty line and a comment. A hostNetwork pod always gets it: a header,
// the node's file as it stands, and the aliases. A container that mounts a
// volume at /etc/hosts keeps its own file (EtcHostsMountedIn). A nil pod
// gives "" and false.
func EtcHosts(pod *api.Pod, h PodHostname, podIPs []string, nodeEtcHosts string) (content string, mounted bool) {
	if pod == nil || len(podIPs) == 0 && !pod.Spec.HostNetwork {
		return "", false
	}
	var b strings.Builder
	if pod.Spec.HostNetwork {
		b.WriteString(etcHostsHeaderHostNetwork)
		b.WriteString(nodeEtcHosts)
	} else {
		b.WriteString(etcHostsHeader)
		b.WriteString("127.0.0.1\tlocalhost\n")
		b.WriteString("::1\tlocalhost ip6-localhost ip6-loopback\n")
		b.WriteString("fe00::0\tip6-localnet\n")
		b.WriteString("fe00::0\tip6-mcastprefix\n")
		b.WriteString("fe00::1\tip6-allnodes\n")
		b.WriteString("fe00::2\tip6-allrouters\n")
		for _, ip := range podIPs {
			b.WriteString(ip)
			if h.Domain != "" {
				b.WriteString("\t" + h.Hostname + "." + h.Domain)
			}
			b.WriteString("\t" + h.Hostname + "\n")
		}
	}
	if len(pod.Spec.HostAliases) > 0 {
		b.WriteString("\n# Entries added by HostAliases.\n")
		for _, a := range pod.Spec.HostAliases {
			b.WriteString(a.IP + "\t" + strings.Join(a.Hostnames, "\t") + "\n")
		}
	}
	return b.String(), true
}

// EtcHostsMountedIn reports whether the kubelet mounts its /etc/hosts
// (see EtcHosts) into container c of the pod: not when c mounts a volume
// at /etc/hosts itself. A nil container gives false.
func EtcHostsMountedIn(c *api.Container, mounted bool) bool {
	if c == nil || !mounted {
		return false
	}
	for _, m := range c.VolumeMounts {
		if m.MountPath == etcHostsPath {
			return false
		}
	}
	return true
}
