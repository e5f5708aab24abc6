package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

// TestDispatch runs podsem's commands other than explain (whose goldens
// are in explain_test.go) and checks the exit status and where the output
// goes: help on stdout when asked for, usage on stderr for a usage error.
func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout []string // substrings stdout must hold; nil: empty
		stderr []string // substrings stderr must hold; nil: empty
	}{
		{args: nil, code: 2, stderr: []string{"Usage:", "podsem <command>", "explain", "version"}},
		{args: []string{"help"}, code: 0, stdout: []string{"Usage:", "podsem <command>", "explain", "help", "version", kubernetesVersion}},
		{args: []string{"-h"}, code: 0, stdout: []string{"Usage:"}},
		{args: []string{"--help"}, code: 0, stdout: []string{"Usage:"}},
		{args: []string{"help", "explain"}, code: 0, stdout: []string{"usage: podsem explain [--format text|mermaid] [--at TIME] [--pod NS/NAME] [--cluster FILE]... [FILE|-]...", "-format", "-at", "-cluster"}},
		{args: []string{"help", "version"}, code: 0, stdout: []string{"usage: podsem version"}},
		{args: []string{"help", "help"}, code: 0, stdout: []string{"usage: podsem help"}},
		{args: []string{"help", "simulate"}, code: 0, stdout: []string{"usage: podsem simulate", "--shard I/N", "JOB_COMPLETION_INDEX", "-format", "-merge"}},
		{args: []string{"help", "drain"}, code: 2, stderr: []string{`podsem help: unknown command "drain"`, "Usage:"}},
		{args: []string{"help", "explain", "version"}, code: 2, stderr: []string{"usage: podsem help"}},
		{args: []string{"version"}, code: 0, stdout: []string{"podsem ", "Kubernetes v1.36.3\n"}},
		{args: []string{"version", "--short"}, code: 2, stderr: []string{"usage: podsem version"}},
		{args: []string{"drain"}, code: 2, stderr: []string{`podsem: unknown command "drain"`, "Usage:", "explain"}},
		{args: []string{"simulate"}, code: 2, stderr: []string{"podsem simulate: want one SCENARIO file or DIRECTORY, got 0 arguments"}},
		{args: []string{"--format", "mermaid"}, code: 2, stderr: []string{`podsem: unknown command "--format"`}},
		{args: []string{"explain", "--format", "svg"}, code: 2, stderr: []string{`podsem explain: --format "svg": want text or mermaid`}},
		{args: []string{"explain", "--at", "yesterday"}, code: 2, stderr: []string{`podsem explain: --at "yesterday": `}},
		{args: []string{"explain", "--no-such-flag"}, code: 2, stderr: []string{"flag provided but not defined: -no-such-flag", "usage: podsem explain"}},
		{args: []string{"explain", "-h"}, code: 0, stderr: []string{"usage: podsem explain"}},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errb)
		name := "podsem " + strings.Join(tc.args, " ")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", name, code, tc.code, errb.String())
		}
		check := func(stream string, got string, want []string) {
			if want == nil && got != "" {
				t.Errorf("%s: %s = %q, want it empty", name, stream, got)
			}
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: %s = %q, want it to hold %q", name, stream, got, w)
				}
			}
		}
		check("stdout", out.String(), tc.stdout)
		check("stderr", errb.String(), tc.stderr)
	}
}

// The help lists only the commands that exist.
func TestHelpListsCommands(t *testing.T) {
	var out, errb bytes.Buffer
	run([]string{"help"}, strings.NewReader(""), &out, &errb)
	var listed []string
	inList := false
	for _, line := range strings.Split(out.String(), "\n") {
		if line == "The commands are:" {
			inList = true
			continue
		}
		if inList && strings.HasPrefix(line, "\t") {
			listed = append(listed, strings.Fields(line)[0])
		}
	}
	want := []string{"explain", "simulate", "help", "version"}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("help lists %v, want %v", listed, want)
	}
	for _, cmd := range listed {
		var o, e bytes.Buffer
		if code := run([]string{"help", cmd}, strings.NewReader(""), &o, &e); code != 0 {
			t.Errorf("podsem help %s: exit %d (stderr %q)", cmd, code, e.String())
		}
	}
}

func TestModuleVersion(t *testing.T) {
	for _, tc := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "(devel)"},
		{&debug.BuildInfo{}, true, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/podsem/podsem", Version: "(devel)"}}, true, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/podsem/podsem", Version: "v0.1.0"}}, true, "v0.1.0"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/podsem/podsem", Version: "v0.0.0-20260101120000-0123456789ab"}}, true, "v0.0.0-20260101120000-0123456789ab"},
	} {
		if got := moduleVersion(tc.info, tc.ok); got != tc.want {
			t.Errorf("moduleVersion(%+v, %v) = %q, want %q", tc.info, tc.ok, got, tc.want)
		}
	}
}
