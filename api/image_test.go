package api

import (
	"strings"
	"testing"
)

func TestImagePullPolicyFor(t *testing.T) {
	sha := "sha256:" + strings.Repeat("0a", 32)
	tests := []struct {
		image string
		want  PullPolicy
	}{
		// The cases of the API server's defaulting.
		{"nginx", PullAlways},
		{"nginx:latest", PullAlways},
		{"nginx:1.25", PullIfNotPresent},
		{"nginx@" + sha, PullIfNotPresent},
		// Tag and digest: the tag is latest, so Always, as the API server
		// defaults it (the digest does not pin it for defaulting).
		{"nginx:latest@" + sha, PullAlways},
		{"nginx:1.25@" + sha, PullIfNotPresent},
		{"library/nginx:latest@" + sha, PullAlways},
		// Registries, with and without port.
		{"localhost:5000/nginx", PullAlways},
		{"localhost:5000/nginx:latest", PullAlways},
		{"localhost:5000/nginx:1", PullIfNotPresent},
		{"localhost/nginx", PullAlways},
		{"registry.example.com/team/app", PullAlways},
		{"registry.example.com:443/team/app:v2", PullIfNotPresent},
		{"[::1]:5000/app", PullAlways},
		{"Registry.Example.com/app", PullAlways}, // domains may be upper case
		{"UPPER/app", PullAlways},                // an upper-case first part is a domain
		{"gcr.io/distroless/static:nonroot", PullIfNotPresent},
		{"nginx:LATEST", PullIfNotPresent}, // tags are case-sensitive
		{"my-app__x.y/z-1:latest", PullAlways},
		// References the API server cannot parse: no tag, IfNotPresent.
		{"", PullIfNotPresent},
		{"Nginx", PullIfNotPresent},
		{"library/Nginx:latest", PullIfNotPresent},
		{"nginx:latest@sha256:0123", PullIfNotPresent},                       // digest too short
		{"nginx:latest@sha256:" + strings.Repeat("A", 64), PullIfNotPresent}, // upper-case hex
		{"nginx:latest@md5:" + strings.Repeat("a", 32), PullIfNotPresent},    // unsupported algorithm
		{"nginx:latest@sha512:" + strings.Repeat("a", 128), PullAlways},
		{strings.Repeat("ab", 32), PullIfNotPresent}, // a bare 64-hex identifier
		{"nginx:", PullIfNotPresent},
		{"nginx:-x", PullIfNotPresent},
		{"nginx::latest", PullIfNotPresent},
		{"-nginx", PullIfNotPresent},
		{"a/" + strings.Repeat("x", 250), PullIfNotPresent}, // name over 255 characters
		{"nginx latest", PullIfNotPresent},
	}
	for _, tc := range tests {
		if got := ImagePullPolicyFor(tc.image); got != tc.want {
			t.Errorf("ImagePullPolicyFor(%q) = %s, want %s", tc.image, got, tc.want)
		}
	}
}

func FuzzImagePullPolicyFor(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:latest@sha256:" + strings.Repeat("0", 64), "localhost:5000/a", "", "[::1]/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		p := ImagePullPolicyFor(image)
		if p != PullAlways && p != PullIfNotPresent {
			t.Fatalf("ImagePullPolicyFor(%q) = %q", image, p)
		}
	})
}

func BenchmarkImagePullPolicyFor(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ImagePullPolicyFor("registry.example.com:5000/team/app:v1.2.3")
	}
}
