package downward

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// Mode says which of the downward API's two consumers resolves a
// fieldRef. They accept different field paths.
type Mode uint8

const (
	// Env is an environment variable's valueFrom.fieldRef, resolved by
	// the kubelet when it starts a container
	// (Kubelet.podFieldSelectorRuntimeValue). It checks apiVersion ("v1"),
	// resolves spec.nodeName, spec.serviceAccountName, status.hostIP(s)
	// and status.podIP(s) itself and the metadata paths like Volume. API
	// validation admits only single labels and annotations here, but the
	// kubelet also resolves the whole maps.
	Env Mode = iota
	// Volume is a downwardAPI volume file (or a projected volume's
	// downwardAPI source), resolved by the volume plugin with
	// pkg/fieldpath ExtractFieldPathAsString: only metadata.name,
	// metadata.namespace, metadata.uid, metadata.labels,
	// metadata.annotations and single labels or annotations. apiVersion is
	// not consulted.
	Volume
)

// String returns "env" or "volume".
func (m Mode) String() string {
	switch m {
	case Env:
		return "env"
	case Volume:
		return "volume"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Context is what the kubelet knows besides the pod when it resolves the
// downward API for a container: its Node object, its configured node IPs
// and the IPs the container runtime reported for the pod's sandbox. It is
// an explicit input so that answers depend on nothing hidden. The zero
// Context is a kubelet with no node information: host IPs and defaulted
// resource limits are then errors, pod IPs are empty.
type Context struct {
	// Node is the kubelet's own Node object. Its status.addresses give
	// status.hostIP and status.hostIPs (see HostIPs) and its
	// status.allocatable the limits of containers that set none (see
	// ResourceFieldRef).
	Node *api.Node
	// NodeIPs are the kubelet's configured node IPs (--node-ip). The
	// family of the first decides whether pod IPs are listed IPv4-first
	// (also when empty) or IPv6-first.
	NodeIPs []string
	// PodIP and PodIPs are the sandbox IPs the container runtime
	// reported, PodIPs in any order. When PodIPs holds at least one IP,
	// the first of the sorted list (SortPodIPs) replaces PodIP.
	PodIP  string
	PodIPs []string
	// ServiceEnv holds the service environment variables
	// (FOO_SERVICE_HOST, ...) the kubelet derives from the cluster's
	// Services. Environment uses them in $(VAR) expansion and appends
	// those the container does not define itself. Computing them is the
	// caller's business.
	ServiceEnv map[string]string
}

// FieldRef returns the string the downward API gives for a fieldRef of
// pod, in mode Env (an environment variable, which needs ctx for host and
// pod IPs) or Volume (a volume file; ctx is ignored).
//
// Values: metadata.name, metadata.namespace and metadata.uid as stored;
// metadata.labels['k'] and metadata.annotations['k'] the value, or ""
// when the key is absent; metadata.labels and metadata.annotations the
// whole map in FormatMap's format; spec.nodeName (alias spec.host) and
// spec.serviceAccountName as in the spec; status.hostIP and
// status.hostIPs from ctx.Node (HostIPs, comma-joined); status.podIP and
// status.podIPs from the runtime's IPs in ctx (SortPodIPs, comma-joined).
//
// Errors: an apiVersion other than "v1" (Env only), a path the mode does
// not resolve (in Env: spec.restartPolicy, spec.schedulerName and
// status.phase pass the API's field-label check yet the kubelet cannot
// resolve them), a subscript on any other path, a label key that is not
// a qualified name or an annotation key that is not one once lowercased,
// and in Env a missing node or a node without an InternalIP or ExternalIP
// for status.hostIP(s). A nil ctx is an empty Context; a nil pod is an
// error wrapping api.ErrInvalidInput.
func FieldRef(pod *api.Pod, ref api.ObjectFieldSelector, mode Mode, ctx *Context) (string, error) {
	if pod == nil {
		return "", fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	switch mode {
	case Volume:
		return metadataField(&pod.ObjectMeta, ref.FieldPath)
	case Env:
		return envFieldRef(pod, ref, ctx)
	}
	return "", fmt.Errorf("downward: unknown mode %d", uint8(mode))
}

func envFieldRef(pod *api.Pod, ref api.ObjectFieldSelector, ctx *Context) (string, error) {
	path, err := CanonicalFieldPath(ref.APIVersion, ref.FieldPath)
	if err != nil {
		return "", err
	}
	if ctx == nil {
		ctx = &Context{}
	}
	switch path {
	case PathNodeName:
		return pod.Spec.NodeName, nil
	case PathServiceAccountName:
		return pod.Spec.ServiceAccountName, nil
	case PathHostIP, PathHostIPs:
		if ctx.Node == nil {
			return "", errNoNodeObject
		}
		ips, err := HostIPs(ctx.Node)
		if err != nil {
			return "", err
		}
		if path == PathHostIP {
			return ips[0], nil
		}
		return strings.Join(ips, ","), nil
	case PathPodIP:
		podIP, _ := ctx.podIPs()
		return podIP, nil
	case PathPodIPs:
		_, ips := ctx.podIPs()
		return strings.Join(ips, ","), nil
	}
	return metadataField(&pod.ObjectMeta, path)
}

// podIPs returns the pod IP and the ordered pod IPs the kubelet hands
// to the downward API.
func (c *Context) podIPs() (string, []string) {
	ips := SortPodIPs(c.PodIPs, c.NodeIPs)
	if len(ips) > 0 {
		return ips[0], ips
	}
	return c.PodIP, ips
}
