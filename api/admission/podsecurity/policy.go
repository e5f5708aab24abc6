package podsecurity

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// Level is a Pod Security Standards level: privileged, baseline or
// restricted, as a namespace's pod-security.kubernetes.io/enforce label
// names it. The zero Level is not a level.
type Level string

// The three levels, from the least to the most strict.
const (
	// LevelPrivileged allows everything: no check runs.
	LevelPrivileged Level = "privileged"
	// LevelBaseline forbids the known privilege escalations: host
	// namespaces, privileged containers, added capabilities beyond the
	// default set, hostPath volumes, host ports, ...
	LevelBaseline Level = "baseline"
	// LevelRestricted adds the hardening best practices to baseline:
	// allowPrivilegeEscalation=false, runAsNonRoot, a seccomp profile,
	// dropping ALL capabilities, only the safe volume types, ...
	LevelRestricted Level = "restricted"
)

// levelsText is the list of valid levels as upstream's parse error words
// it.
const levelsText = "privileged, baseline, restricted"

// ParseLevel reads a level as the pod-security.kubernetes.io/enforce label
// writes it ("privileged", "baseline" or "restricted", exactly, lower
// case), as k8s.io/pod-security-admission's api.ParseLevel does. Any other
// string is an error naming it, wrapping api.ErrInvalidInput.
func ParseLevel(s string) (Level, error) {
	l := Level(s)
	if !l.valid() {
		return "", fmt.Errorf("%w: level %q: must be one of %s", errInvalidInput, s, levelsText)
	}
	return l, nil
}

func (l Level) valid() bool {
	return l == LevelPrivileged || l == LevelBaseline || l == LevelRestricted
}

// rank orders the levels by strictness: privileged 0, baseline 1,
// restricted 2.
func (l Level) rank() int {
	switch l {
	case LevelBaseline:
		return 1
	case LevelRestricted:
		return 2
	}
	return 0
}

// Version is a Pod Security Standards policy version: "latest" or a
// Kubernetes minor release "v1.N", as a namespace's
// pod-security.kubernetes.io/enforce-version label names it. A version
// selects the variant of each check that the standards had in that
// release; a version newer than the newest variant of any check behaves as
// that newest one, and "latest" is newer than every version.
//
// The zero Version (v0.0) is not a version: Evaluate refuses it. Make one
// with ParseVersion, LatestVersion or MajorMinorVersion.
type Version struct {
	major, minor int
	latest       bool
}

// LatestVersion is "latest": the newest variant of every check the
// release knows.
func LatestVersion() Version { return Version{latest: true} }

// MajorMinorVersion is the policy version "v<major>.<minor>". Pod Security
// versions are Kubernetes minor releases of major version 1; any other
// major version, or a negative minor, makes a Version that Evaluate
// refuses.
func MajorMinorVersion(major, minor int) Version { return Version{major: major, minor: minor} }

// ParseVersion reads a version as the pod-security.kubernetes.io/*-version
// labels write it: "latest", or "v1." followed by a minor version number
// without leading zeros ("v1.0", "v1.36", "v1.40"), as
// k8s.io/pod-security-admission's api.ParseVersion accepts it. Anything
// else ("1.36", "v1.036", "v2.0", "Latest", " v1.36") is an error naming
// the string, wrapping api.ErrInvalidInput.
func ParseVersion(s string) (Version, error) {
	if s == "latest" {
		return LatestVersion(), nil
	}
	minor, ok := strings.CutPrefix(s, "v1.")
	if !ok || !decimal(minor) {
		return Version{}, fmt.Errorf(`%w: version %q: must be "latest" or "v1.x"`, errInvalidInput, s)
	}
	n, err := strconv.Atoi(minor)
	if err != nil {
		return Version{}, fmt.Errorf(`%w: version %q: must be "latest" or "v1.x"`, errInvalidInput, s)
	}
	return MajorMinorVersion(1, n), nil
}

// decimal reports whether s is "0" or digits without a leading zero: the
// minor numbers upstream's version pattern accepts.
func decimal(s string) bool {
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Latest reports whether v is "latest".
func (v Version) Latest() bool { return v.latest }

// Major is v's major version (1); 0 for "latest".
func (v Version) Major() int { return v.major }

// Minor is v's minor version; 0 for "latest".
func (v Version) Minor() int { return v.minor }

// String renders v as the labels write it: "latest" or "v1.36".
func (v Version) String() string {
	if v.latest {
		return "latest"
	}
	return "v" + strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor)
}

// Older reports whether v is an older policy version than other. "latest"
// is newer than every version, even ones no release has reached yet.
func (v Version) Older(other Version) bool {
	if v.latest {
		return false
	}
	if other.latest {
		return true
	}
	if v.major != other.major {
		return v.major < other.major
	}
	return v.minor < other.minor
}

func (v Version) valid() bool {
	return v.latest || (v.major == 1 && v.minor >= 0)
}

// Policy is a level at a version: what a namespace's
// pod-security.kubernetes.io/enforce and enforce-version labels select (the
// version label defaults to "latest"), upstream's api.LevelVersion.
type Policy struct {
	Level   Level
	Version Version
}

// String renders the policy as the API server's messages quote it:
// "restricted:latest", "baseline:v1.30".
func (p Policy) String() string {
	return string(p.Level) + ":" + p.Version.String()
}

// ParsePolicy reads a level and a version as the namespace labels write
// them (see ParseLevel and ParseVersion); the error names the first string
// that is not valid.
func ParsePolicy(level, version string) (Policy, error) {
	l, err := ParseLevel(level)
	if err != nil {
		return Policy{}, err
	}
	v, err := ParseVersion(version)
	if err != nil {
		return Policy{}, err
	}
	return Policy{Level: l, Version: v}, nil
}

// validate refuses a policy whose level or version is not one upstream
// can parse, naming the value.
func (p Policy) validate() error {
	if !p.Level.valid() {
		return fmt.Errorf("%w: level %q: must be one of %s", errInvalidInput, string(p.Level), levelsText)
	}
	if !p.Version.valid() {
		return fmt.Errorf(`%w: version %q: must be "latest" or "v1.x"`, errInvalidInput, p.Version.String())
	}
	return nil
}

// errInvalidInput is api.ErrInvalidInput in this package's context.
var errInvalidInput = fmt.Errorf("podsecurity: %w", api.ErrInvalidInput)

// The namespace labels Pod Security admission reads its enforce policy
// from.
const (
	LabelEnforce        = "pod-security.kubernetes.io/enforce"
	LabelEnforceVersion = "pod-security.kubernetes.io/enforce-version"
)

// NamespacePolicy is the policy Pod Security admission enforces in a
// namespace with labels, as kube-apiserver v1.36.3 runs the plugin with
// its default configuration: privileged:latest where the namespace has
// no LabelEnforce, "latest" where it has no LabelEnforceVersion, and, as
// upstream's PolicyToEvaluate falls back, restricted for a level it
// cannot parse and latest for a version it cannot parse.
func NamespacePolicy(labels map[string]string) Policy {
	p := Policy{Level: LevelPrivileged, Version: LatestVersion()}
	if s, ok := labels[LabelEnforce]; ok {
		l, err := ParseLevel(s)
		if err != nil {
			l = LevelRestricted
		}
		p.Level = l
	}
	if s, ok := labels[LabelEnforceVersion]; ok {
		v, err := ParseVersion(s)
		if err != nil {
			v = LatestVersion()
		}
		p.Version = v
	}
	return p
}
