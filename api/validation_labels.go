package api

import "strconv"

// This file holds the string-format checks of apimachinery's
// pkg/util/validation and pkg/api/validate/content packages that label
// keys, label values and selector requirements rely on. The checks are
// written out by hand (no regexp) because selector compilation runs them for
// every key and value; the returned messages are the upstream ones, word for
// word, so they can be shown to users who know Kubernetes' wording.

// Length limits used by the label checks (apimachinery
// pkg/util/validation and pkg/api/validate/content).
const (
	// LabelValueMaxLength is the longest a label value may be, in bytes.
	LabelValueMaxLength = 63
	// LabelKeyNameMaxLength is the longest the name part of a label key
	// (the part after an optional "prefix/") may be, in bytes.
	LabelKeyNameMaxLength = 63
	// DNS1123LabelMaxLength is the longest an RFC 1123 label may be.
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest an RFC 1123 subdomain may be.
	DNS1123SubdomainMaxLength = 253
)

// The patterns upstream quotes in its messages; they are only ever printed,
// never compiled.
const (
	labelNamePattern       = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValuePattern      = "(" + labelNamePattern + ")?"
	dns1123LabelPattern    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainPatten = dns1123LabelPattern + "(\\." + dns1123LabelPattern + ")*"

	labelNameMsg        = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	emptyMsg            = "must be non-empty"
)

// patternMsg renders a "does not match" message the way apimachinery does:
// the description, the examples, then the pattern.
func patternMsg(msg, pattern string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + pattern + "')"
	}
	msg += " (e.g. "
	for i, ex := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + ex + "', "
	}
	return msg + "regex used for validation is '" + pattern + "')"
}

// tooLongMsg is content.MaxLenError, used by the label key and value checks.
func tooLongMsg(n int) string {
	return "must be no more than " + strconv.Itoa(n) + " bytes"
}

// tooLongCharsMsg is util/validation.MaxLenError, used by the exported DNS
// checks; upstream words the two differently.
func tooLongCharsMsg(n int) string {
	return "must be no more than " + strconv.Itoa(n) + " characters"
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isLowerAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// isLabelName reports whether s matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
// in full.
func isLabelName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNSLabel reports whether s matches [a-z0-9]([-a-z0-9]*[a-z0-9])? in
// full (no length check).
func isDNSLabel(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNSSubdomain reports whether s is one or more DNS labels joined by
// dots (no length check).
func isDNSSubdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isDNSLabel(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// validLabelValue is the allocation-free yes/no form of IsValidLabelValue.
func validLabelValue(v string) bool {
	return v == "" || len(v) <= LabelValueMaxLength && isLabelName(v)
}

// validLabelKey is the allocation-free yes/no form of IsQualifiedName.
func validLabelKey(k string) bool {
	name := k
	for i := 0; i < len(k); i++ {
		if k[i] == '/' {
			prefix := k[:i]
			name = k[i+1:]
			if prefix == "" || len(prefix) > DNS1123SubdomainMaxLength || !isDNSSubdomain(prefix) {
				return false
			}
			break
		}
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			return false
		}
	}
	return len(name) <= LabelKeyNameMaxLength && isLabelName(name)
}

// IsQualifiedName checks a "qualified name", the format of label keys and of
// many other keys in the API: an optional DNS-1123 subdomain prefix of at
// most 253 bytes and a '/', then a name of 1-63 bytes matching
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]. It returns nil when value is
// valid and otherwise apimachinery's messages (the rule and wording of
// apimachinery pkg/util/validation.IsQualifiedName, which is
// pkg/api/validate/content.IsLabelKey).
func IsQualifiedName(value string) []string {
	if validLabelKey(value) {
		return nil
	}
	var errs []string
	name := value
	slashes := 0
	for i := 0; i < len(value); i++ {
		if value[i] == '/' {
			slashes++
		}
	}
	switch slashes {
	case 0:
	case 1:
		i := 0
		for value[i] != '/' {
			i++
		}
		prefix := value[:i]
		name = value[i+1:]
		if prefix == "" {
			errs = append(errs, "prefix part "+emptyMsg)
		} else {
			if len(prefix) > DNS1123SubdomainMaxLength {
				errs = append(errs, "prefix part "+tooLongMsg(DNS1123SubdomainMaxLength))
			}
			if !isDNSSubdomain(prefix) {
				errs = append(errs, "prefix part "+patternMsg(dns1123SubdomainMsg, dns1123SubdomainPatten, "example.com"))
			}
		}
	default:
		return append(errs, "a valid label key "+patternMsg(labelNameMsg, labelNamePattern, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+emptyMsg)
	} else if len(name) > LabelKeyNameMaxLength {
		errs = append(errs, "name part "+tooLongMsg(LabelKeyNameMaxLength))
	}
	if !isLabelName(name) {
		errs = append(errs, "name part "+patternMsg(labelNameMsg, labelNamePattern, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// ValidateLabelKey checks a label key; it is IsQualifiedName (the rule
// apimachinery's pkg/labels and pkg/apis/meta/v1/validation apply to label
// keys).
func ValidateLabelKey(key string) []string { return IsQualifiedName(key) }

// IsValidLabelValue checks a label value: empty, or at most 63 bytes
// matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]. It returns nil when
// valid and otherwise apimachinery's messages (apimachinery
// pkg/util/validation.IsValidLabelValue, which is
// pkg/api/validate/content.IsLabelValue).
func IsValidLabelValue(value string) []string {
	if validLabelValue(value) {
		return nil
	}
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, tooLongMsg(LabelValueMaxLength))
	}
	if value != "" && !isLabelName(value) {
		errs = append(errs, patternMsg(labelValueMsg, labelValuePattern, "MyValue", "my_value", "12345"))
	}
	return errs
}

// ValidateLabelValue checks a label value; it is IsValidLabelValue (the
// rule apimachinery's pkg/labels applies to label and selector values).
func ValidateLabelValue(value string) []string { return IsValidLabelValue(value) }

// IsDNS1123Label checks an RFC 1123 label: 1-63 lower-case alphanumerics or
// '-', starting and ending alphanumeric. It returns nil when valid and
// otherwise the messages of apimachinery pkg/util/validation.IsDNS1123Label
// (which reports "must not contain dots" for an otherwise valid subdomain).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, tooLongCharsMsg(DNS1123LabelMaxLength))
	}
	if !isDNSLabel(value) {
		if isDNSSubdomain(value) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, patternMsg(dns1123LabelMsg, dns1123LabelPattern, "my-name", "123-abc"))
		}
	}
	return errs
}

// NameIsDNSSubdomain checks an object name as apimachinery's
// NameIsDNSSubdomain does: an RFC 1123 subdomain; with prefix, the name is
// a generateName prefix, which may end in a dash because a generated
// suffix follows (the API server's metadata validation, the EndpointSlice
// controller's slice name prefix).
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel checks an object name as apimachinery's NameIsDNSLabel
// does (a StatefulSet's name): an RFC 1123 label; with prefix, a
// generateName prefix, which may end in a dash.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// maskTrailingDash is how apimachinery checks a generateName prefix that
// ends in a dash: its last two characters become one "a" (a lone "-" is
// checked as it is, and refused).
func maskTrailingDash(name string) string {
	if len(name) > 1 && name[len(name)-1] == '-' {
		return name[:len(name)-2] + "a"
	}
	return name
}

// IsDNS1123Subdomain checks an RFC 1123 subdomain: at most 253 characters,
// dot-separated RFC 1123 labels. It returns nil when valid and otherwise the
// messages of apimachinery pkg/util/validation.IsDNS1123Subdomain.
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, tooLongCharsMsg(DNS1123SubdomainMaxLength))
	}
	if !isDNSSubdomain(value) {
		errs = append(errs, patternMsg(dns1123SubdomainMsg, dns1123SubdomainPatten, "example.com"))
	}
	return errs
}
