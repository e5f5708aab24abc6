package api

import (
	"regexp"
	"strings"
	"testing"
)

// The patterns apimachinery's pkg/util/validation compiles, used here as an
// independent oracle for the hand-written checks.
var (
	labelNameRE   = regexp.MustCompile(`^` + labelNamePattern + `$`)
	labelValueRE  = regexp.MustCompile(`^` + labelValuePattern + `$`)
	dnsLabelRE    = regexp.MustCompile(`^` + dns1123LabelPattern + `$`)
	dnsSubdomainE = regexp.MustCompile(`^` + dns1123SubdomainPatten + `$`)
)

// FuzzLabelValidation checks the label-key, label-value and DNS-1123 checks
// against apimachinery's regular expressions and length limits, and that
// each check's allocation-free yes/no form agrees with its message form:
// a string is valid exactly when the oracle says so, an invalid one gets at
// least one message, and no message spans lines.
func FuzzLabelValidation(f *testing.F) {
	for _, s := range []string{
		"", "a", "A", "-", "a-", "-a", "a.b", "a_b", "app.kubernetes.io/name", "/a", "a/", "a/b/c",
		"Example.com/a", "example.com/", "a..b/c", "1.2.3.4/x", strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a.", 126) + "a/b", "ä", "a\x00b", "a\nb", "kubernetes.io/hostname", "a-.b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check := func(name string, msgs []string, want bool) {
			t.Helper()
			if (len(msgs) == 0) != want {
				t.Fatalf("%s(%q) = %q, want valid=%v", name, s, msgs, want)
			}
			for _, m := range msgs {
				if m == "" || strings.ContainsAny(m, "\r\n") {
					t.Fatalf("%s(%q): message %q is empty or spans lines", name, s, m)
				}
			}
		}

		wantValue := len(s) <= LabelValueMaxLength && labelValueRE.MatchString(s)
		check("IsValidLabelValue", IsValidLabelValue(s), wantValue)
		check("ValidateLabelValue", ValidateLabelValue(s), wantValue)
		if validLabelValue(s) != wantValue {
			t.Fatalf("validLabelValue(%q) = %v, want %v", s, !wantValue, wantValue)
		}

		wantKey := oracleQualifiedName(s)
		check("IsQualifiedName", IsQualifiedName(s), wantKey)
		check("ValidateLabelKey", ValidateLabelKey(s), wantKey)
		if validLabelKey(s) != wantKey {
			t.Fatalf("validLabelKey(%q) = %v, want %v", s, !wantKey, wantKey)
		}

		wantLabel := len(s) <= DNS1123LabelMaxLength && dnsLabelRE.MatchString(s)
		check("IsDNS1123Label", IsDNS1123Label(s), wantLabel)
		wantSub := len(s) <= DNS1123SubdomainMaxLength && dnsSubdomainE.MatchString(s)
		check("IsDNS1123Subdomain", IsDNS1123Subdomain(s), wantSub)

		// The formats nest: a DNS label is a subdomain, a label value and a
		// qualified name; a non-empty label value is a qualified name.
		if wantLabel && !(wantSub && wantValue && wantKey) {
			t.Fatalf("%q is a DNS label but subdomain=%v value=%v key=%v", s, wantSub, wantValue, wantKey)
		}
		if wantValue && s != "" && !wantKey {
			t.Fatalf("%q is a non-empty label value but no qualified name", s)
		}
		// A subdomain prefix turns a valid name into a valid key.
		if wantKey && !strings.Contains(s, "/") {
			if IsQualifiedName("example.com/"+s) != nil {
				t.Fatalf("example.com/%s refused", s)
			}
		}
	})
}

// oracleQualifiedName is apimachinery's IsQualifiedName written with its
// regular expressions: an optional non-empty DNS-1123 subdomain prefix of
// at most 253 bytes and a '/', then a 1-63 byte label name.
func oracleQualifiedName(s string) bool {
	parts := strings.Split(s, "/")
	name := parts[0]
	switch len(parts) {
	case 1:
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" || len(prefix) > DNS1123SubdomainMaxLength || !dnsSubdomainE.MatchString(prefix) {
			return false
		}
	default:
		return false
	}
	return name != "" && len(name) <= LabelKeyNameMaxLength && labelNameRE.MatchString(name)
}
