// Command syncvectors keeps the module's own copy of the conformance
// vectors (internal/conformance/testdata/vectors, gzip-compressed, next/
// included) equal to ../shared/conformance, so that a clone without the
// workspace around it still runs every family.
//
// Run from the module root:
//
//	go run ./internal/cmd/syncvectors          # refresh the copy
//	go run ./internal/cmd/syncvectors -check   # fail if the copy differs
//
// The comparison is by decompressed content. A family whose content is
// unchanged is not rewritten; a changed or new one is written with a fixed
// gzip header (no name, no modification time), so its bytes depend only on
// its content. Without ../shared/conformance (a fresh clone) -check says so
// and succeeds.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/podsem/podsem/internal/conformance"
)

func main() {
	check := flag.Bool("check", false, "report differences and exit 1 if any, changing nothing")
	from := flag.String("from", filepath.FromSlash(conformance.SharedDir), "the vector directory to copy")
	to := flag.String("to", filepath.FromSlash(conformance.VendoredDir), "the in-module copy")
	flag.Parse()
	if err := run(os.Stdout, *from, *to, *check); err != nil {
		fmt.Fprintln(os.Stderr, "syncvectors:", err)
		os.Exit(1)
	}
}

// errDiffer is returned by a check that found differences.
var errDiffer = errors.New("the in-module vectors differ")

func run(w io.Writer, from, to string, check bool) error {
	if fi, err := os.Stat(from); err != nil || !fi.IsDir() {
		if check {
			fmt.Fprintf(w, "vectors: no %s here; nothing to compare the in-module copy with (skipped)\n", from)
			return nil
		}
		return fmt.Errorf("no vector directory %s", from)
	}
	d, err := compare(from, to)
	if err != nil {
		return err
	}
	if check {
		if d.empty() {
			fmt.Fprintf(w, "vectors: %s matches %s (%d families)\n", to, from, d.same)
			return nil
		}
		fmt.Fprintf(w, "vectors: %s differs from %s:\n%s", to, from, d)
		fmt.Fprintf(w, "refresh it with .ci/sync-vectors and commit %s\n", to)
		return errDiffer
	}
	for _, f := range d.write {
		if err := writeGzip(filepath.Join(to, filepath.FromSlash(f.Name)+".gz"), f.Data); err != nil {
			return err
		}
	}
	for _, f := range d.remove {
		if err := os.Remove(f.Path); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "vectors: %s: %d families unchanged, %d written, %d removed\n", to, d.same, len(d.write), len(d.remove))
	return nil
}

// diff is what separates the copy from its source.
type diff struct {
	same   int
	write  []conformance.File // new or changed in the source
	remove []conformance.File // in the copy only
	isNew  map[string]bool
}

func (d diff) empty() bool { return len(d.write) == 0 && len(d.remove) == 0 }

func (d diff) String() string {
	var b strings.Builder
	for _, f := range d.write {
		what := "changed"
		if d.isNew[f.Name] {
			what = "missing from the copy"
		}
		fmt.Fprintf(&b, "  %s: %s\n", f.Name, what)
	}
	for _, f := range d.remove {
		fmt.Fprintf(&b, "  %s: only in the copy\n", f.Name)
	}
	return b.String()
}

func compare(from, to string) (diff, error) {
	src, err := conformance.ReadFiles(from)
	if err != nil {
		return diff{}, err
	}
	var dst []conformance.File
	if _, err := os.Stat(to); err == nil {
		if dst, err = conformance.ReadFiles(to); err != nil {
			return diff{}, err
		}
	}
	have := make(map[string]conformance.File, len(dst))
	for _, f := range dst {
		have[f.Name] = f
	}
	d := diff{isNew: map[string]bool{}}
	for _, f := range src {
		old, ok := have[f.Name]
		delete(have, f.Name)
		switch {
		case ok && bytes.Equal(old.Data, f.Data):
			d.same++
		default:
			d.isNew[f.Name] = !ok
			d.write = append(d.write, f)
		}
	}
	for _, f := range dst {
		if _, extra := have[f.Name]; extra {
			d.remove = append(d.remove, f)
		}
	}
	return d, nil
}

// writeGzip writes data compressed with a header that carries no name and
// no time, through a temporary file renamed into place.
func writeGzip(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
