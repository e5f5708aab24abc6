package api

import (
	"strings"
	"testing"
)

func TestValidateLocalNonReservedPath(t *testing.T) {
	cases := []struct{ path, want string }{
		{"a/b", ""},
		{"..a/b", `p: Invalid value: "..a/b": must not start with '..'`},
		{"a..", ""},
		{`a\..\b`, ""},
		{"/a", `p: Invalid value: "/a": must be a relative path`},
		{"../a/../b", `p: Invalid value: "../a/../b": must not contain '..'`},
		{"/..", `[p: Invalid value: "/..": must be a relative path, p: Invalid value: "/..": must not contain '..']`},
		{"", ""},
	}
	for _, c := range cases {
		errs := ValidateLocalNonReservedPath(c.path, NewPath("p"))
		got := ""
		if len(errs) > 0 {
			got = errs.Error()
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.path, got, c.want)
		}
		if desc := ValidateLocalDescendingPath(c.path, NewPath("p")); strings.HasPrefix(c.path, "..") && !strings.HasPrefix(c.path, "../") && len(desc) != 0 {
			t.Errorf("%q: descending rule refuses it: %v", c.path, desc)
		}
	}
}
