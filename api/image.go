package api

import (
	"regexp"
	"strings"
)

// The image reference grammar of the container ecosystem
// (github.com/distribution/reference, which the API server's
// pkg/util/parsers uses), as regular expressions:
//
//	reference := name [ ":" tag ] [ "@" digest ]
//	name      := [ domain "/" ] path-component { "/" path-component }
//	domain    := host [ ":" port ]         host: DNS labels or [ipv6]
//	path-component := [a-z0-9]+ { separator [a-z0-9]+ }, separator . _ __ or -+
//	tag       := [\w][\w.-]{0,127}
//	digest    := algorithm ":" at least 32 hex digits
var (
	imageRefRE = func() *regexp.Regexp {
		const (
			alnum     = `[a-z0-9]+`
			sep       = `(?:[._]|__|[-]+)`
			component = alnum + `(?:` + sep + alnum + `)*`
			label     = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
			host      = `(?:` + label + `(?:\.` + label + `)*|\[(?:[a-fA-F0-9:]+)\])`
			domain    = host + `(?::[0-9]+)?`
			name      = `(?:` + domain + `/)?` + component + `(?:/` + component + `)*`
			tag       = `[\w][\w.-]{0,127}`
			digest    = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
		)
		return regexp.MustCompile(`^(` + name + `)(?::(` + tag + `))?(?:@(` + digest + `))?$`)
	}()
	hexIdentifierRE = regexp.MustCompile(`^[a-f0-9]{64}$`)
)

// maxImageNameLength is the longest repository name (domain and path) a
// reference may have.
const maxImageNameLength = 255

// imageTag returns the tag of an image reference as the API server's
// defaulting reads it (pkg/util/parsers ParseImageName over the
// distribution reference library's ParseNormalizedNamed): the explicit tag;
// "latest" when neither a tag nor a digest is given; "" when only a digest
// is. ok is false for a reference the library rejects (empty, an upper-case
// repository path, a bare 64-hex identifier, a malformed or unsupported
// digest, a name over 255 characters); the API server then ignores the
// error and sees no tag.
func imageTag(image string) (tag string, ok bool) {
	if hexIdentifierRE.MatchString(image) {
		return "", false
	}
	// Docker Hub normalization: a first component that is not a registry
	// (no '.', no ':', not localhost, all lower case) is a path component.
	dom, rest := "docker.io", image
	if i := strings.IndexByte(image, '/'); i >= 0 {
		first := image[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first {
			dom, rest = first, image[i+1:]
		}
	}
	if dom == "docker.io" && !strings.Contains(rest, "/") {
		rest = "library/" + rest
	}
	repo := rest
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		repo = rest[:i]
	}
	if strings.ToLower(repo) != repo {
		return "", false
	}
	m := imageRefRE.FindStringSubmatch(dom + "/" + rest)
	if m == nil || len(m[1]) > maxImageNameLength {
		return "", false
	}
	if m[3] != "" && !supportedDigest(m[3]) {
		return "", false
	}
	if m[2] == "" && m[3] == "" {
		return "latest", true
	}
	return m[2], true
}

// supportedDigest reports whether d (algorithm:hex) is a digest the API
// server can verify: sha256, sha384 or sha512 with exactly as many
// lower-case hex digits as the hash has.
func supportedDigest(d string) bool {
	alg, hex, _ := strings.Cut(d, ":")
	n := 0
	switch alg {
	case "sha256":
		n = 64
	case "sha384":
		n = 96
	case "sha512":
		n = 128
	}
	if n == 0 || len(hex) != n {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
