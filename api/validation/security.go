package validation

import (
	"strings"

	"github.com/podsem/podsem/api"
)

const maxUserID = 2147483647

// validateSecurityContext checks a container's securityContext (core
// validation's ValidateSecurityContext): user and group IDs in range, a
// known procMount (Unmasked only in a user namespace), valid seccomp,
// AppArmor and Windows options, and no allowPrivilegeEscalation=false
// together with privileged or CAP_SYS_ADMIN. Privileged containers are
// refused as "disallowed by cluster policy" unless allowPrivileged
// (kube-apiserver's --allow-privileged, false by default).
func validateSecurityContext(sc *api.SecurityContext, p api.Path, hostUsers, allowPrivileged bool) api.FieldErrors {
	if sc == nil {
		return nil
	}
	var errs api.FieldErrors
	if sc.Privileged != nil && *sc.Privileged && !allowPrivileged {
		errs = append(errs, api.Forbidden(p.Child("privileged"), "disallowed by cluster policy"))
	}
	if sc.RunAsUser != nil && (*sc.RunAsUser < 0 || *sc.RunAsUser > maxUserID) {
		errs = append(errs, api.Invalid(p.Child("runAsUser"), *sc.RunAsUser, "must be between 0 and 2147483647, inclusive"))
	}
	if sc.RunAsGroup != nil && (*sc.RunAsGroup < 0 || *sc.RunAsGroup > maxUserID) {
		errs = append(errs, api.Invalid(p.Child("runAsGroup"), *sc.RunAsGroup, "must be between 0 and 2147483647, inclusive"))
	}
	if sc.ProcMount != nil {
		switch *sc.ProcMount {
		case api.DefaultProcMount:
		case api.UnmaskedProcMount:
			if hostUsers {
				errs = append(errs, api.Invalid(p.Child("procMount"), *sc.ProcMount, "`hostUsers` must be false to use `Unmasked`"))
			}
		default:
			errs = append(errs, api.NotSupported(p.Child("procMount"), *sc.ProcMount, []string{api.DefaultProcMount, api.UnmaskedProcMount}))
		}
	}
	errs = append(errs, validateSeccompProfile(sc.SeccompProfile, p.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, api.Invalid(p, sc, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				// Only the literal CAP_SYS_ADMIN spelling is caught.
				if c == "CAP_SYS_ADMIN" {
					errs = append(errs, api.Invalid(p, sc, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateWindowsOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	return append(errs, validateAppArmorProfile(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
}

// validatePodSecurityContext checks spec.securityContext: IDs in range,
// shareProcessNamespace not with hostPID, sysctl names, fsGroupChangePolicy
// and the seccomp, AppArmor and Windows options.
func validatePodSecurityContext(spec *api.PodSpec, p api.Path, opts podValidationOptions) api.FieldErrors {
	var errs api.FieldErrors
	sc := spec.SecurityContext
	if spec.ShareProcessNamespace != nil && *spec.ShareProcessNamespace && spec.HostPID {
		errs = append(errs, api.Invalid(p.Child("shareProcessNamespace"), *spec.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	if sc == nil {
		return errs
	}
	for _, id := range []struct {
		name string
		v    *int64
	}{{"fsGroup", sc.FSGroup}, {"runAsUser", sc.RunAsUser}, {"runAsGroup", sc.RunAsGroup}} {
		if id.v != nil && (*id.v < 0 || *id.v > maxUserID) {
			errs = append(errs, api.Invalid(p.Child(id.name), *id.v, "must be between 0 and 2147483647, inclusive"))
		}
	}
	for i, g := range sc.SupplementalGroups {
		if g < 0 || g > maxUserID {
			errs = append(errs, api.Invalid(p.Child("supplementalGroups").Index(i), g, "must be between 0 and 2147483647, inclusive"))
		}
	}
	names := map[string]bool{}
	for i, s := range sc.Sysctls {
		np := p.Child("sysctls").Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, api.Required(np, ""))
		case !isValidSysctlName(s.Name):
			errs = append(errs, api.Invalid(np, s.Name, "must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$"))
		case names[s.Name]:
			errs = append(errs, api.Duplicate(np, s.Name))
		}
		if !opts.allowHostNamespacedSysctls {
			if e := hostSysctlConflict(s.Name, spec, np); e != nil {
				errs = append(errs, e)
			}
		}
		names[s.Name] = true
	}
	if sc.FSGroupChangePolicy != nil {
		switch *sc.FSGroupChangePolicy {
		case "OnRootMismatch", "Always":
		default:
			errs = append(errs, api.NotSupported(p.Child("fsGroupChangePolicy"), *sc.FSGroupChangePolicy, []string{"Always", "OnRootMismatch"}))
		}
	}
	errs = append(errs, validateSeccompProfile(sc.SeccompProfile, p.Child("seccompProfile"))...)
	errs = append(errs, validateWindowsOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	errs = append(errs, validateAppArmorProfile(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
	if sc.SupplementalGroupsPolicy != nil {
		errs = append(errs, validateSupplementalGroupsPolicy(sc.SupplementalGroupsPolicy, p.Child("supplementalGroupsPolicy"))...)
	}
	if sc.SELinuxChangePolicy != nil {
		errs = append(errs, validateSELinuxChangePolicy(sc.SELinuxChangePolicy, opts.allowAnySELinuxChangePolicy, p.Child("seLinuxChangePolicy"))...)
	}
	return errs
}

// isValidSysctlName reports whether s is dot- or slash-separated segments
// of [a-z0-9]([-_a-z0-9]*[a-z0-9])?, at most 253 characters.
func isValidSysctlName(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '/' }) {
		if seg == "" {
			return false
		}
		if !isLowerAlnumByte(seg[0]) || !isLowerAlnumByte(seg[len(seg)-1]) {
			return false
		}
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; !isLowerAlnumByte(c) && c != '-' && c != '_' {
				return false
			}
		}
	}
	return s != "" && s[0] != '.' && s[0] != '/' && s[len(s)-1] != '.' && s[len(s)-1] != '/' &&
		!strings.Contains(s, "..") && !strings.Contains(s, "//") && !strings.Contains(s, "./") && !strings.Contains(s, "/.")
}

func isLowerAlnumByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// validateSeccompProfile requires a known type and a localhostProfile
// exactly when the type is Localhost.
func validateSeccompProfile(sp *api.SeccompProfile, p api.Path) api.FieldErrors {
	if sp == nil {
		return nil
	}
	var errs api.FieldErrors
	switch sp.Type {
	case api.SeccompProfileTypeLocalhost:
		if sp.LocalhostProfile == nil {
			errs = append(errs, api.Required(p.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, api.ValidatePathNoBacksteps(*sp.LocalhostProfile, p.Child("localhostProfile"))...)
		}
	case api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined:
		if sp.LocalhostProfile != nil {
			errs = append(errs, api.Invalid(p.Child("localhostProfile"), *sp.LocalhostProfile, "can only be set when seccomp type is Localhost"))
		}
	case "":
		errs = append(errs, api.Required(p.Child("type"), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, api.NotSupported(p.Child("type"), sp.Type, []string{api.SeccompProfileTypeLocalhost, api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined}))
	}
	return errs
}

// validateAppArmorProfile requires a known type and a non-blank
// localhostProfile exactly when the type is Localhost.
func validateAppArmorProfile(ap *api.AppArmorProfile, p api.Path) api.FieldErrors {
	if ap == nil {
		return nil
	}
	var errs api.FieldErrors
	switch ap.Type {
	case api.AppArmorProfileTypeLocalhost:
		switch {
		case ap.LocalhostProfile == nil:
			errs = append(errs, api.Required(p.Child("localhostProfile"), "must be set when AppArmor type is Localhost"))
		case strings.TrimSpace(*ap.LocalhostProfile) != *ap.LocalhostProfile:
			errs = append(errs, api.Invalid(p.Child("localhostProfile"), *ap.LocalhostProfile, "must not be padded with whitespace"))
		case *ap.LocalhostProfile == "":
			errs = append(errs, api.Required(p.Child("localhostProfile"), "must be set when AppArmor type is Localhost"))
		}
		if ap.LocalhostProfile != nil && len(*ap.LocalhostProfile) > 4095 {
			errs = append(errs, api.TooLong(p.Child("localhostProfile"), "", 4095))
		}
	case api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined:
		if ap.LocalhostProfile != nil {
			errs = append(errs, api.Invalid(p.Child("localhostProfile"), *ap.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		errs = append(errs, api.Required(p.Child("type"), "type is required when appArmorProfile is set"))
	default:
		errs = append(errs, api.NotSupported(p.Child("type"), ap.Type, []string{api.AppArmorProfileTypeLocalhost, api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined}))
	}
	return errs
}

// Limits of the Windows security options (core validation).
const (
	maxGMSACredentialSpecLength = 64 * 1024
	maxRunAsUserNameDomain      = 256
	maxRunAsUserNameUser        = 104
)

// validateWindowsOptions checks the GMSA credential spec name and content
// and the runAsUserName ("DOMAIN\\user" or "user").
func validateWindowsOptions(w *api.WindowsSecurityContextOptions, p api.Path) api.FieldErrors {
	if w == nil {
		return nil
	}
	var errs api.FieldErrors
	if w.GMSACredentialSpecName != nil {
		for _, msg := range api.IsDNS1123Subdomain(*w.GMSACredentialSpecName) {
			errs = append(errs, api.Invalid(p.Child("gmsaCredentialSpecName"), *w.GMSACredentialSpecName, msg))
		}
	}
	if w.GMSACredentialSpec != nil {
		if l := len(*w.GMSACredentialSpec); l == 0 {
			errs = append(errs, api.Invalid(p.Child("gmsaCredentialSpec"), "", "gmsaCredentialSpec cannot be an empty string"))
		} else if l > maxGMSACredentialSpecLength {
			errs = append(errs, api.Invalid(p.Child("gmsaCredentialSpec"), "", "gmsaCredentialSpec size must be under 64 KiB"))
		}
	}
	if w.RunAsUserName != nil {
		errs = append(errs, validateRunAsUserName(*w.RunAsUserName, p.Child("runAsUserName"))...)
	}
	return errs
}

func validateRunAsUserName(name string, p api.Path) api.FieldErrors {
	bad := func(msg string) api.FieldErrors { return api.FieldErrors{api.Invalid(p, name, msg)} }
	if name == "" {
		return bad("runAsUserName cannot be an empty string")
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] == 0x7f {
			return bad("runAsUserName cannot contain control characters")
		}
	}
	parts := strings.Split(name, "\\")
	if len(parts) > 2 {
		return bad("runAsUserName cannot contain more than one backslash")
	}
	user, domain := parts[0], ""
	if len(parts) == 2 {
		domain, user = parts[0], parts[1]
	}
	var errs api.FieldErrors
	if len(domain) >= maxRunAsUserNameDomain {
		errs = append(errs, bad("runAsUserName's Domain length must be under 256 characters")...)
	}
	if len(parts) == 2 && !validWindowsDomain(domain) {
		errs = append(errs, bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format")...)
	}
	if user == "" {
		errs = append(errs, bad("runAsUserName's User cannot be empty")...)
	} else if len(user) > maxRunAsUserNameUser {
		errs = append(errs, bad("runAsUserName's User length must not be longer than 104 characters")...)
	}
	if user != "" && strings.Trim(user, ". ") == "" {
		errs = append(errs, bad("runAsUserName's User cannot contain only periods or spaces")...)
	}
	if strings.ContainsAny(user, "\"/\\:;|=,+*?<>@[]") {
		errs = append(errs, bad("runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]")...)
	}
	return errs
}

// validWindowsDomain accepts a NetBIOS name (1-15 characters, none of
// \/:*?"<>| and not starting with '.') or a DNS name.
func validWindowsDomain(d string) bool {
	if d != "" && len(d) <= 15 && d[0] != '.' && !strings.ContainsAny(d, "\\/:*?\"<>|") {
		return true
	}
	if d == "" || len(d) > 255 {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
