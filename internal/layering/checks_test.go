package layering

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// synthetic parses one file per package from srcs (package path → source)
// into what the checks read, so the checks can be shown failing.
func synthetic(t *testing.T, srcs map[string]string) map[string]*pkgSource {
	t.Helper()
	pkgs := map[string]*pkgSource{}
	for pkg, text := range srcs {
		src := &pkgSource{imports: map[string][]token.Position{}, std: map[string][]token.Position{}, fset: token.NewFileSet()}
		f, err := parser.ParseFile(src.fset, pkg+"/x.go", text, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		src.files = append(src.files, f)
		for _, im := range f.Imports {
			ip := strings.Trim(im.Path.Value, `"`)
			if rel, ok := strings.CutPrefix(ip, modulePath+"/"); ok {
				src.imports[rel] = append(src.imports[rel], src.fset.Position(im.Pos()))
			} else {
				src.std[ip] = append(src.std[ip], src.fset.Position(im.Pos()))
			}
		}
		pkgs[pkg] = src
	}
	return pkgs
}

// wantMessages fails t unless msgs holds exactly one message containing
// each of wants, in order.
func wantMessages(t *testing.T, what string, msgs []string, wants ...string) {
	t.Helper()
	if len(msgs) != len(wants) {
		t.Errorf("%s: got %d messages, want %d:\n%s", what, len(msgs), len(wants), strings.Join(msgs, "\n"))
		return
	}
	for i, w := range wants {
		if !strings.Contains(msgs[i], w) {
			t.Errorf("%s: message %d is %q, want one containing %q", what, i, msgs[i], w)
		}
	}
}

func TestChecksCatchViolations(t *testing.T) {
	table := []place{
		{"api", 0, core},
		{"api/validation", 1, core},
		{"low", 10, core},
		{"high", 20, core},
		{"sib", 20, core},
		{"tools/...", 30, outer},
		{"tools/special", 5, outer},
	}
	pkgs := synthetic(t, map[string]string{
		"api":            `package api; import _ "github.com/podsem/podsem/low"`,
		"api/validation": `package validation; import _ "github.com/podsem/podsem/api"`,
		"low": `package low
import ("net"; "os"; t "time"; "fmt")
func F() { go func() {}(); _ = t.Now(); f := t.Since; _ = f; fmt.Println(); println(); _ = net.IPv4len; _ = os.Args }`,
		"high":          `package high; import (_ "github.com/podsem/podsem/low"; _ "github.com/podsem/podsem/sib"; "time"); var _ = time.Second`,
		"sib":           `package sib; import _ "github.com/podsem/podsem/high"`,
		"tools/a":       `package a; import (_ "github.com/podsem/podsem/high"; "os"); func F() { go F(); _ = os.Args }`,
		"tools/special": `package special; import _ "github.com/podsem/podsem/low"`,
		"stray":         `package stray; import _ "github.com/podsem/podsem/api"`,
	})

	wantMessages(t, "unplaced", unplaced(table, pkgs), "package stray has no place in the layering")
	if pl, _ := placeOf(table, "tools/a"); pl.rank != 30 {
		t.Errorf("tools/a placed at %d, want the pattern's 30", pl.rank)
	}
	wantMessages(t, "rankViolations", rankViolations(table, pkgs),
		"api (rank 0) imports low (rank 10)",
		"high (rank 20) imports sib (rank 20)",
		"sib (rank 20) imports high (rank 20)",
		"tools/special (rank 5) imports low (rank 10)",
	)
	wantMessages(t, "floorViolations", floorViolations(pkgs, map[string]map[string]string{"api/validation": {"low": "why"}}),
		"api imports low: api/... is the ground floor",
		"floorExceptions allows api/validation to import low, which it no longer does",
	)
	wantMessages(t, "impurities", impurities(table, pkgs, map[string]map[string]string{"low": {"net": "why"}, "high": {"os": "why"}}),
		"low imports os",
		"low starts a goroutine",
		"low uses time.Now",
		"low uses time.Since",
		"low uses fmt.Println",
		"low calls println",
		"knownImpure lets high import os, which it no longer does",
	)
}
