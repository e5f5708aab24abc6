package validation

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// Resolver limits core validation applies to spec.dnsConfig (they follow
// what Linux libc name resolution accepts).
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
	// maxHostnameOverrideLen is the longest spec.hostnameOverride accepted.
	maxHostnameOverrideLen = 64
)

// validatePodDNSConfig checks spec.dnsConfig against spec.dnsPolicy as core
// validation's validatePodDNSConfig does with RelaxedDNSSearchValidation on
// (the v1.36 default): dnsPolicy None needs a dnsConfig with at least one
// nameserver (and nothing else is checked when it lacks them); at most
// three nameservers, each an IP address; at most 32 search domains totalling
// at most 2048 characters with single spaces between them, each "." or a
// DNS subdomain that may contain underscores, optionally with one trailing
// dot; every option has a name.
func validatePodDNSConfig(spec *api.PodSpec, p api.Path) api.FieldErrors {
	cfg := spec.DNSConfig
	if spec.DNSPolicy == api.DNSNone {
		if cfg == nil {
			return api.FieldErrors{api.Required(p, "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(cfg.Nameservers) == 0 {
			return api.FieldErrors{api.Required(p.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if cfg == nil {
		return nil
	}
	var errs api.FieldErrors
	nsPath := p.Child("nameservers")
	if len(cfg.Nameservers) > maxDNSNameservers {
		errs = append(errs, api.Invalid(nsPath, cfg.Nameservers, "must not have more than "+strconv.Itoa(maxDNSNameservers)+" nameservers"))
	}
	for i, ns := range cfg.Nameservers {
		errs = append(errs, validateLegacyIP(ns, nsPath.Index(i))...)
	}
	sPath := p.Child("searches")
	if len(cfg.Searches) > maxDNSSearchPaths {
		errs = append(errs, api.Invalid(sPath, cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchPaths)+" search paths"))
	}
	total := 0
	for i, s := range cfg.Searches {
		if i > 0 {
			total++ // the separating space
		}
		total += len(s)
	}
	if total > maxDNSSearchListChars {
		errs = append(errs, api.Invalid(sPath, cfg.Searches, "must not have more than "+strconv.Itoa(maxDNSSearchListChars)+" characters (including spaces) in the search list"))
	}
	for i, s := range cfg.Searches {
		if s == "." {
			continue
		}
		d := strings.TrimSuffix(s, ".")
		for _, msg := range isDNS1123SubdomainWithUnderscore(d) {
			errs = append(errs, api.Invalid(sPath.Index(i), d, msg))
		}
	}
	for i, o := range cfg.Options {
		if o.Name == "" {
			errs = append(errs, api.Required(p.Child("options").Index(i), "must not be empty"))
		}
	}
	return errs
}

// isDNS1123SubdomainWithUnderscore is apimachinery's check of the same name:
// at most 253 characters of dot-separated labels, each lower-case
// alphanumerics, '-' or '_', optionally led by one '_', starting and ending
// with an alphanumeric. Labels are not length-limited on their own.
func isDNS1123SubdomainWithUnderscore(s string) []string {
	var errs []string
	if len(s) > api.DNS1123SubdomainMaxLength {
		errs = append(errs, "must be no more than "+strconv.Itoa(api.DNS1123SubdomainMaxLength)+" characters")
	}
	ok := s != ""
	for _, label := range strings.Split(s, ".") {
		if !ok {
			break
		}
		label = strings.TrimPrefix(label, "_")
		if label == "" || !isLowerAlnumByte(label[0]) || !isLowerAlnumByte(label[len(label)-1]) {
			ok = false
			break
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !isLowerAlnumByte(c) && c != '-' && c != '_' {
				ok = false
				break
			}
		}
	}
	if !ok {
		errs = append(errs, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')")
	}
	return errs
}

// validateLegacyIP checks an IP address in one of the fields that predate
// strict IP validation (dnsConfig nameservers, hostAliases ip), with
// StrictIPCIDRValidation on as in v1.36: a plain IPv4 or IPv6 address, no
// zone, no leading zeros in IPv4 octets, not an IPv4-mapped IPv6 address.
// Non-canonical IPv6 spellings are accepted.
func validateLegacyIP(s string, p api.Path) api.FieldErrors {
	if !sloppyIP(s) {
		return api.FieldErrors{api.Invalid(p, s, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
	}
	addr, err := netip.ParseAddr(s)
	if err != nil {
		// Accepted by the lenient parser only: octets with leading zeros
		// (or over-long IPv6 groups, reported the same way upstream).
		return api.FieldErrors{api.Invalid(p, s, "must not have leading 0s")}
	}
	if addr.Is4In6() {
		return api.FieldErrors{api.Invalid(p, s, "must not be an IPv4-mapped IPv6 address")}
	}
	return nil
}

// sloppyIP reports whether s parses with the lenient IP parser Kubernetes
// has kept from Go 1.16 (k8s.io/utils/net ParseIPSloppy): dotted decimal
// IPv4 whose octets may carry leading zeros, and IPv6 (with an optional
// trailing dotted IPv4) whose groups may have more than four hex digits
// as long as the value fits 16 bits. Zones are not accepted.
func sloppyIP(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			return sloppyIPv4(s)
		case ':':
			return sloppyIPv6(s)
		}
	}
	return false
}

// sloppyNumber reads a run of digits in base 10 or 16 from the start of s,
// returning its value, length and whether there was at least one digit and
// no overflow past the parser's 0xFFFFFF bound.
func sloppyNumber(s string, hex bool) (n, length int, ok bool) {
	const big = 0xFFFFFF
	for length < len(s) {
		c := s[length]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case hex && c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case hex && c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return n, length, length > 0
		}
		if hex {
			n = n*16 + d
		} else {
			n = n*10 + d
		}
		if n >= big {
			return n, length, false
		}
		length++
	}
	return n, length, length > 0
}

func sloppyIPv4(s string) bool {
	for i := 0; i < 4; i++ {
		if s == "" {
			return false
		}
		if i > 0 {
			if s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, c, ok := sloppyNumber(s, false)
		if !ok || n > 0xFF {
			return false
		}
		s = s[c:]
	}
	return s == ""
}

func sloppyIPv6(s string) bool {
	const size = 16
	ellipsis := false
	if strings.HasPrefix(s, "::") {
		ellipsis = true
		s = s[2:]
		if s == "" {
			return true
		}
	}
	i := 0
	for i < size {
		n, c, ok := sloppyNumber(s, true)
		if !ok || n > 0xFFFF {
			return false
		}
		if c < len(s) && s[c] == '.' {
			if (!ellipsis && i != size-4) || i+4 > size || !sloppyIPv4(s) {
				return false
			}
			s = ""
			i += 4
			break
		}
		i += 2
		s = s[c:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis {
				return false
			}
			ellipsis = true
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return false
	}
	if i < size {
		return ellipsis
	}
	return !ellipsis
}

// validateHostAliases checks spec.hostAliases: every ip is an IP address
// (as for dnsConfig nameservers) and every hostname a DNS subdomain.
// hostAliases are allowed with hostNetwork.
func validateHostAliases(aliases []api.HostAlias, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, a := range aliases {
		ip := p.Index(i)
		errs = append(errs, validateLegacyIP(a.IP, ip.Child("ip"))...)
		for j, h := range a.Hostnames {
			for _, msg := range api.IsDNS1123Subdomain(h) {
				errs = append(errs, api.Invalid(ip.Child("hostnames").Index(j), h, msg))
			}
		}
	}
	return errs
}

// validateHostnameOverride checks spec.hostnameOverride (HostnameOverride,
// beta and on by default): not with setHostnameAsFQDN or hostNetwork, at
// most 64 characters, and a DNS subdomain (so never empty).
func validateHostnameOverride(spec *api.PodSpec, p api.Path) api.FieldErrors {
	h := spec.HostnameOverride
	if h == nil {
		return nil
	}
	var errs api.FieldErrors
	if spec.SetHostnameAsFQDN != nil && *spec.SetHostnameAsFQDN {
		errs = append(errs, api.Forbidden(p, "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		errs = append(errs, api.Forbidden(p, "may not be specified when hostNetwork is true"))
	}
	if len(*h) > maxHostnameOverrideLen {
		errs = append(errs, api.TooLong(p, "", maxHostnameOverrideLen))
	}
	for _, msg := range api.IsDNS1123Subdomain(*h) {
		errs = append(errs, api.Invalid(p, *h, msg))
	}
	return errs
}

// podClaimNames is the set of non-empty spec.resourceClaims names that
// container resources.claims may refer to.
func podClaimNames(claims []api.PodResourceClaim) map[string]bool {
	if len(claims) == 0 {
		return nil
	}
	names := make(map[string]bool, len(claims))
	for _, c := range claims {
		if c.Name != "" {
			names[c.Name] = true
		}
	}
	return names
}

// validatePodResourceClaims checks spec.resourceClaims (dynamic resource
// allocation, on by default): static (mirror) pods may have none, each
// entry has a unique DNS-label name and exactly one of resourceClaimName or
// resourceClaimTemplateName, which must be a DNS subdomain.
func validatePodResourceClaims(pod *api.Pod, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	_, mirror := pod.Annotations[api.ConfigMirrorAnnotationKey]
	seen := map[string]bool{}
	for i, c := range pod.Spec.ResourceClaims {
		if mirror {
			// One error per claim, at a path made of one empty field
			// name (rendered "[]"), as upstream does.
			errs = append(errs, api.Forbidden(api.Path{}.Key(""), "static pods do not support resource claims"))
			continue
		}
		ip := p.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, api.Required(ip.Child("name"), ""))
		case seen[c.Name]:
			errs = append(errs, api.Duplicate(ip.Child("name"), c.Name))
		default:
			for _, msg := range api.IsDNS1123Label(c.Name) {
				errs = append(errs, api.Invalid(ip.Child("name"), c.Name, msg))
			}
			seen[c.Name] = true
		}
		switch {
		case c.ResourceClaimName != nil && c.ResourceClaimTemplateName != nil:
			errs = append(errs, api.Invalid(ip, c.Name, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		case c.ResourceClaimName == nil && c.ResourceClaimTemplateName == nil:
			errs = append(errs, api.Invalid(ip, c.Name, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if c.ResourceClaimName != nil {
			for _, msg := range api.IsDNS1123Subdomain(*c.ResourceClaimName) {
				errs = append(errs, api.Invalid(ip.Child("resourceClaimName"), *c.ResourceClaimName, msg))
			}
		}
		if c.ResourceClaimTemplateName != nil {
			for _, msg := range api.IsDNS1123Subdomain(*c.ResourceClaimTemplateName) {
				errs = append(errs, api.Invalid(ip.Child("resourceClaimTemplateName"), *c.ResourceClaimTemplateName, msg))
			}
		}
	}
	return errs
}

// validateResourceClaimRefs checks a resources.claims list: every entry
// names one of the pod's resourceClaims; a request, when given, is a DNS
// label; a claim is referenced at most once, either whole or by distinct
// requests (a whole reference after one of its requests, or the same
// claim/request pair twice, is a Duplicate).
func validateResourceClaimRefs(claims []api.ResourceClaim, podClaims map[string]bool, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	seen := map[string]bool{}
	for i, c := range claims {
		ip := p.Index(i)
		if c.Name == "" {
			errs = append(errs, api.Required(ip, ""))
			continue
		}
		if seen[c.Name] {
			errs = append(errs, api.Duplicate(ip, c.Name))
		} else {
			key := c.Name
			if c.Request != "" {
				for _, msg := range api.IsDNS1123Label(c.Request) {
					errs = append(errs, api.Invalid(ip.Child("request"), c.Request, msg))
				}
				key += "/" + c.Request
			}
			switch {
			case seen[key]:
				errs = append(errs, api.Duplicate(ip, key))
			case c.Request == "":
				for k := range seen {
					if claim, _, ok := strings.Cut(k, "/"); ok && claim == c.Name {
						errs = append(errs, api.Duplicate(ip, c.Name))
					}
				}
			}
			seen[key] = true
		}
		if !podClaims[c.Name] {
			errs = append(errs, api.NotFound(ip, c.Name))
		}
	}
	return errs
}

// validateVolumeDevices checks a container's volumeDevices (raw block
// volumes): each names a persistentVolumeClaim or ephemeral volume of the
// pod, once, at a unique devicePath without ".." elements, and neither the
// name nor the path is also used by one of the container's volumeMounts.
func validateVolumeDevices(c *api.Container, volumes map[string]*api.VolumeSource, p api.Path) api.FieldErrors {
	if len(c.VolumeDevices) == 0 {
		return nil
	}
	var errs api.FieldErrors
	mountNames := map[string]bool{}
	mountPaths := map[string]bool{}
	for _, m := range c.VolumeMounts {
		mountNames[m.Name] = true
	}
	// Upstream keeps one mount path per volume name (the last one).
	lastPath := map[string]string{}
	for _, m := range c.VolumeMounts {
		lastPath[m.Name] = m.MountPath
	}
	for _, mp := range lastPath {
		mountPaths[mp] = true
	}
	names, paths := map[string]bool{}, map[string]bool{}
	for i, d := range c.VolumeDevices {
		ip := p.Index(i)
		np, dp := ip.Child("name"), ip.Child("devicePath")
		if d.Name == "" {
			errs = append(errs, api.Required(np, ""))
		}
		if names[d.Name] {
			errs = append(errs, api.Invalid(np, d.Name, "must be unique"))
		}
		src, ok := volumes[d.Name]
		switch {
		case !ok:
			errs = append(errs, api.NotFound(np, d.Name))
		case src.PersistentVolumeClaim == nil && src.Ephemeral == nil:
			errs = append(errs, api.Invalid(np, d.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if d.DevicePath == "" {
			errs = append(errs, api.Required(dp, ""))
		}
		if paths[d.DevicePath] {
			errs = append(errs, api.Invalid(dp, d.DevicePath, "must be unique"))
		}
		if d.DevicePath != "" && len(api.ValidatePathNoBacksteps(d.DevicePath, dp)) > 0 {
			errs = append(errs, api.Invalid(dp, d.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths[d.DevicePath] = true
		}
		if mountNames[d.Name] {
			errs = append(errs, api.Invalid(np, d.Name, "must not already exist in volumeMounts"))
		}
		if mountPaths[d.DevicePath] {
			errs = append(errs, api.Invalid(dp, d.DevicePath, "must not already exist as a path in volumeMounts"))
		}
		if d.Name != "" {
			names[d.Name] = true
		}
	}
	return errs
}

// validateRecursiveReadOnly checks a volume mount's recursiveReadOnly
// (RecursiveReadOnlyMounts, on by default): Disabled, IfPossible or
// Enabled, the last two only on a readOnly mount whose propagation is
// None or unset. Upstream reports it at the list's path, not the mount's.
func validateRecursiveReadOnly(m *api.VolumeMount, p api.Path) api.FieldErrors {
	if m.RecursiveReadOnly == nil {
		return nil
	}
	switch *m.RecursiveReadOnly {
	case "Disabled":
		return nil
	case "Enabled", "IfPossible":
		var errs api.FieldErrors
		if !m.ReadOnly {
			errs = append(errs, api.Forbidden(p, "may only be specified when readOnly is true"))
		}
		if m.MountPropagation != nil && *m.MountPropagation != "None" {
			errs = append(errs, api.Forbidden(p, "may only be specified when mountPropagation is None or not specified"))
		}
		return errs
	default:
		return api.FieldErrors{api.NotSupported(p, *m.RecursiveReadOnly, []string{"Disabled", "Enabled", "IfPossible"})}
	}
}

// validateSupplementalGroupsPolicy checks
// spec.securityContext.supplementalGroupsPolicy: Merge or Strict.
func validateSupplementalGroupsPolicy(v *string, p api.Path) api.FieldErrors {
	if v == nil || *v == "Merge" || *v == "Strict" {
		return nil
	}
	return api.FieldErrors{api.NotSupported(p, *v, []string{"Merge", "Strict"})}
}

// validateSELinuxChangePolicy checks spec.securityContext.seLinuxChangePolicy.
// With SELinuxMount off (the v1.36 default) only Recursive is accepted,
// unless the stored pod already set a policy, when MountOption is too.
func validateSELinuxChangePolicy(v *string, anyPolicy bool, p api.Path) api.FieldErrors {
	if v == nil {
		return nil
	}
	if !anyPolicy {
		if *v != "Recursive" {
			return api.FieldErrors{api.NotSupported(p, *v, []string{"Recursive"})}
		}
		return nil
	}
	if *v != "Recursive" && *v != "MountOption" {
		return api.FieldErrors{api.NotSupported(p, *v, []string{"MountOption", "Recursive"})}
	}
	return nil
}
