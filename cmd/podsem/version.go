package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// kubernetesVersion is the Kubernetes release whose answers podsem gives:
// its conformance vectors were produced by running that release's code.
const kubernetesVersion = "v1.36.3"

const versionUsage = "usage: podsem version"

// runVersion is the version command (see the package doc).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, versionUsage)
		return 2
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "podsem %s\nKubernetes %s\n", moduleVersion(info, ok), kubernetesVersion)
	return 0
}

// moduleVersion is the version of the main module recorded in a binary's
// build information: a tag such as v0.1.0 or a pseudo-version for `go
// install …@version`; for a build from a checkout, "(devel)" (which Go
// writes as such, or not at all under go test) or, when Go stamps version
// control information, a pseudo-version of the commit.
func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}
