package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestList checks that the listing keeps exported declarations with their
// signatures and drops comments, bodies and unexported names.
func TestList(t *testing.T) {
	dir := t.TempDir()
	src := `// Package p is a sample.
package p

// Max is documented.
const Max = 3

const hidden = 1

// T has an exported and an unexported field.
type T struct {
	// A is documented.
	Alpha int // trailing
	b     string
}

// New makes a T.
func New() *T { return &T{} }

// Get returns A.
func (t *T) Get() int { return t.Alpha }

func (t *T) set() {}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nfunc Helper() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := list(&b, dir, "example.com/p"); err != nil {
		t.Fatal(err)
	}
	want := `package p // import "example.com/p"

const Max = 3

type T struct {
	Alpha int
	// contains filtered or unexported fields
}

func New() *T

func (t *T) Get() int
`
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("listing (-want +got):\n%s", d)
	}
}
