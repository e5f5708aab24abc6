package podsecurity_test

import (
	"errors"
	"regexp"
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

// FuzzParseLevel: ParseLevel never panics, accepts exactly the three level
// names, and an error names the string.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"", "privileged", "baseline", "restricted", "Restricted", "restricted ", "baseline\x00", "🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := podsecurity.ParseLevel(s)
		valid := s == "privileged" || s == "baseline" || s == "restricted"
		if valid != (err == nil) {
			t.Fatalf("ParseLevel(%q) = %q, %v", s, l, err)
		}
		if err != nil && (!errors.Is(err, api.ErrInvalidInput) || l != "") {
			t.Fatalf("ParseLevel(%q) = %q, %v: want the zero Level and an invalid-input error", s, l, err)
		}
		if err == nil && string(l) != s {
			t.Fatalf("ParseLevel(%q) = %q", s, l)
		}
	})
}

// versionPattern is the pattern k8s.io/pod-security-admission's
// ParseVersion matches before converting the minor number.
var versionPattern = regexp.MustCompile(`^v1\.([0-9]|[1-9][0-9]*)$`)

// FuzzParseVersion: ParseVersion never panics, accepts exactly "latest" and
// the strings upstream's pattern matches whose minor number fits an int,
// and what it accepts renders back to the same string.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"", "latest", "v1.0", "v1.36", "v1.036", "v1.", "v2.0", "1.36", "v1.36\n", "v1.99999999999999999999", "v1.-0", "Latest"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := podsecurity.ParseVersion(s)
		valid := s == "latest"
		if m := versionPattern.FindStringSubmatch(s); m != nil {
			_, aerr := strconv.Atoi(m[1])
			valid = aerr == nil
		}
		if valid != (err == nil) {
			t.Fatalf("ParseVersion(%q) = %v, %v; upstream accepts it: %v", s, v, err, valid)
		}
		if err != nil {
			if !errors.Is(err, api.ErrInvalidInput) {
				t.Fatalf("ParseVersion(%q): %v does not wrap api.ErrInvalidInput", s, err)
			}
			return
		}
		if v.String() != s {
			t.Fatalf("ParseVersion(%q).String() = %q", s, v)
		}
		if _, err := podsecurity.Evaluate(&api.Pod{}, podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: v}); err != nil {
			t.Fatalf("Evaluate refuses parsed version %q: %v", s, err)
		}
	})
}
