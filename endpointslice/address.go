package endpointslice

import (
	"net/netip"
	"strings"
)

// AddressType is the address type of an EndpointSlice (discovery/v1
// AddressType): every address of a slice is of its type.
type AddressType string

// The address types the EndpointSlice controller writes, one per IP family
// of the Service. (The deprecated FQDN type is never written by it.)
const (
	AddressTypeIPv4 AddressType = "IPv4"
	AddressTypeIPv6 AddressType = "IPv6"
)

// podAddress is one pod IP as the controller sees it: its family and its
// text form after a round trip through the parser.
type podAddress struct {
	v6   bool
	text string
}

// parsePodIP reads a pod IP as the controller does (k8s.io/utils/net
// ParseIPSloppy, then IP.String): IPv4 parts with leading zeros are
// decimal ("010.1.1.1" is 10.1.1.1), an IPv4-mapped IPv6 address is IPv4,
// IPv6 is written in its canonical form. An IP that does not parse at all
// is taken as IPv4 and written "<nil>", as the nil net.IP upstream gets is;
// API validation keeps such IPs out of real pods.
func parsePodIP(s string) podAddress {
	a, err := netip.ParseAddr(s)
	if err != nil {
		a, err = netip.ParseAddr(unzeroIPv4(s))
	}
	if err != nil || a.Zone() != "" {
		return podAddress{text: "<nil>"}
	}
	if a.Is4In6() {
		a = a.Unmap()
	}
	return podAddress{v6: a.Is6(), text: a.String()}
}

// unzeroIPv4 drops the leading zeros of the dotted-decimal part of s (all
// of it, or the tail of an IPv6 address), which the sloppy parser reads as
// decimal and netip refuses. Anything else is returned unchanged.
func unzeroIPv4(s string) string {
	head, tail := "", s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		head, tail = s[:i+1], s[i+1:]
	}
	parts := strings.Split(tail, ".")
	if len(parts) != 4 {
		return s
	}
	for i, p := range parts {
		if p == "" {
			return s
		}
		t := strings.TrimLeft(p, "0")
		if t == "" {
			t = "0"
		}
		parts[i] = t
	}
	return head + strings.Join(parts, ".")
}
