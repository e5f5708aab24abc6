package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSyncThenCheck copies a source with a next/ family, checks the copy,
// changes the source in three ways and sees each reported, then syncs again
// and gets the same bytes as a fresh copy.
func TestSyncThenCheck(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "vectors")
	write(t, filepath.Join(src, "a.json"), `{"family":"a"}`)
	write(t, filepath.Join(src, "next", "b.json"), `{"family":"b"}`)
	write(t, filepath.Join(src, "README.md"), "not a family")

	if err := run(io.Discard, src, dst, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.json.gz", "next/b.json.gz"} {
		if _, err := os.Stat(filepath.Join(dst, f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(io.Discard, src, dst, true); err != nil {
		t.Fatalf("check after sync: %v", err)
	}

	write(t, filepath.Join(src, "a.json"), `{"family":"a","cases":[]}`)
	write(t, filepath.Join(src, "c.json"), `{"family":"c"}`)
	if err := os.Rename(filepath.Join(src, "next", "b.json"), filepath.Join(src, "b.json")); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, src, dst, true); !errors.Is(err, errDiffer) {
		t.Fatalf("check after changes: err = %v", err)
	}
	for _, want := range []string{"a.json: changed", "c.json: missing from the copy", "b.json: missing from the copy", "next/b.json: only in the copy"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}

	if err := run(io.Discard, src, dst, false); err != nil {
		t.Fatal(err)
	}
	if err := run(io.Discard, src, dst, true); err != nil {
		t.Fatalf("check after second sync: %v", err)
	}
	fresh := filepath.Join(t.TempDir(), "vectors")
	if err := run(io.Discard, src, fresh, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.json.gz", "b.json.gz", "c.json.gz"} {
		x, _ := os.ReadFile(filepath.Join(dst, f))
		y, _ := os.ReadFile(filepath.Join(fresh, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s: bytes differ between two syncs of the same content", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "next", "b.json.gz")); !os.IsNotExist(err) {
		t.Errorf("next/b.json.gz left in the copy after it moved up: %v", err)
	}
}

// TestCheckWithoutSource succeeds with a note: a fresh clone has no
// ../shared/conformance to compare with.
func TestCheckWithoutSource(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, filepath.Join(t.TempDir(), "absent"), t.TempDir(), true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "skipped") {
		t.Errorf("no note: %q", out.String())
	}
}
