package downward

import (
	"fmt"
	"net"
	"strings"

	"github.com/podsem/podsem/api"
)

// errNoNodeObject is the answer for host IPs wanted without a Node.
var errNoNodeObject = fmt.Errorf("%w: no Node object to read host IPs from", ErrNoNode)

// HostIPs returns the node IPs the kubelet reports as a pod's
// status.hostIPs, the first being status.hostIP (component-helpers
// GetNodeHostIPs): every parseable InternalIP address in address order,
// then every ExternalIP; the first of these, plus the first one of the
// other IP family if there is one. Addresses are written as Go's net.IP
// prints them ("fd00::0b01" becomes "fd00::b01"), and IPv4 addresses with
// leading zeros are accepted as the kubelet's lenient parser accepts them
// ("010.0.0.1" is 10.0.0.1). A node without a usable InternalIP or
// ExternalIP gives an error wrapping ErrNoNode. A nil node is an error
// wrapping api.ErrInvalidInput and ErrNoNode.
func HostIPs(node *api.Node) ([]string, error) {
	if node == nil {
		return nil, fmt.Errorf("%w: node: nil (%w)", errInvalidInput, errNoNodeObject)
	}
	var first net.IP
	var out []string
	for _, typ := range [...]api.NodeAddressType{api.NodeInternalIP, api.NodeExternalIP} {
		for _, a := range node.Status.Addresses {
			if a.Type != typ {
				continue
			}
			ip := parseIPSloppy(a.Address)
			if ip == nil {
				continue
			}
			if first == nil {
				first = ip
				out = append(out, ip.String())
				continue
			}
			if len(out) == 1 && isIPv6(ip) != isIPv6(first) {
				out = append(out, ip.String())
			}
		}
	}
	if first == nil {
		return nil, fmt.Errorf("%w: host IP unknown; node %q has no InternalIP or ExternalIP address (addresses %v)",
			ErrNoNode, node.Name, node.Status.Addresses)
	}
	return out, nil
}

// SortPodIPs orders the sandbox IPs a container runtime reports the way
// the kubelet does before using them for status.podIPs and the downward
// API (Kubelet.sortPodIPs): the first IP of the node's family, then the
// first IP of the other family, at most two, each re-printed the way Go's
// net.IP prints it ("FD00::A" becomes "fd00::a", "010.001.002.003"
// becomes "10.1.2.3", "::ffff:10.1.2.3" becomes "10.1.2.3"). The node's
// family is that of nodeIPs[0] (the kubelet's configured --node-ip); with
// no node IPs it is IPv4. Strings that are not IP addresses are dropped.
func SortPodIPs(podIPs, nodeIPs []string) []string {
	primaryV4 := true
	if len(nodeIPs) > 0 {
		ip := parseIPSloppy(nodeIPs[0])
		primaryV4 = ip != nil && ip.To4() != nil
	}
	out := make([]string, 0, 2)
	for _, wantV4 := range [...]bool{primaryV4, !primaryV4} {
		for _, s := range podIPs {
			ip := parseIPSloppy(s)
			if ip == nil {
				continue
			}
			if (ip.To4() != nil) == wantV4 {
				out = append(out, ip.String())
				break
			}
		}
	}
	return out
}

func isIPv6(ip net.IP) bool { return ip != nil && ip.To4() == nil }

// parseIPSloppy parses an IP address as k8s.io/utils/net.ParseIPSloppy
// does: like net.ParseIP, except that the four fields of a dotted IPv4
// address may carry leading zeros (read as decimal).
func parseIPSloppy(s string) net.IP {
	if colon := strings.LastIndexByte(s, ':'); colon >= 0 {
		if ip := net.ParseIP(s); ip != nil || strings.IndexByte(s[colon:], '.') < 0 {
			return ip
		}
		// An IPv6 address ending in a dotted IPv4 part whose fields carry
		// leading zeros: the lenient parser accepts that part too.
		v4 := parseIPSloppy(s[colon+1:])
		if v4 == nil {
			return nil
		}
		return net.ParseIP(s[:colon+1] + v4.String())
	}
	var b [4]byte
	for i := 0; i < 4; i++ {
		if i > 0 {
			if s == "" || s[0] != '.' {
				return nil
			}
			s = s[1:]
		}
		n, j := 0, 0
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			n = n*10 + int(s[j]-'0')
			if n > 0xFF {
				return nil
			}
			j++
		}
		if j == 0 {
			return nil
		}
		b[i] = byte(n)
		s = s[j:]
	}
	if s != "" {
		return nil
	}
	return net.IPv4(b[0], b[1], b[2], b[3])
}
