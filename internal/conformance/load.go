package conformance

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Family is one vector file: its name, provenance, schemas and cases.
type Family struct {
	Family      string `json:"family"`
	Source      string `json:"source"`
	Description string `json:"description"`
	InputSchema string `json:"input_schema"`
	WantSchema  string `json:"want_schema"`
	Compare     string `json:"compare"`
	Cases       []Case `json:"cases"`
	// File is the path the family was read from.
	File string `json:"-"`
	// Next marks a family of an open issue, read from the next/
	// subdirectory: without an adapter it is pending rather than failing.
	Next bool `json:"-"`
}

// Case is one vector: an input and upstream's answer.
type Case struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Want  json.RawMessage `json:"want"`
}

// EnvDir names the environment variable that points the runner at another
// vector directory (the same families, other cases).
const EnvDir = "PODSEM_CONFORMANCE_DIR"

// SharedDir is the workspace's vector directory relative to the module
// root; it exists next to a checkout inside the workspace, not in a fresh
// clone.
const SharedDir = "../shared/conformance"

// VendoredDir is the in-module copy of SharedDir relative to the module
// root: every family gzip-compressed, next/ included. .ci/sync-vectors
// refreshes it and .ci/run checks that it matches SharedDir.
const VendoredDir = "internal/conformance/testdata/vectors"

// NextDir is the subdirectory holding the families of open issues.
const NextDir = "next"

// Source is the vector directory the runner reads.
type Source struct {
	// Dir is the directory's path.
	Dir string
	// Why says, for a person, which of the candidates it is.
	Why string
}

// Pick chooses the vector directory for the module whose root directory is
// root: $PODSEM_CONFORMANCE_DIR when set, else ../shared/conformance when
// it exists, else the in-module copy.
func Pick(root string) Source {
	if d := os.Getenv(EnvDir); d != "" {
		return Source{Dir: d, Why: "$" + EnvDir + " (" + d + ")"}
	}
	shared := filepath.Join(root, filepath.FromSlash(SharedDir))
	if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
		return Source{Dir: shared, Why: SharedDir}
	}
	return Source{
		Dir: filepath.Join(root, filepath.FromSlash(VendoredDir)),
		Why: "the in-module copy " + VendoredDir + " (no " + SharedDir + " here)",
	}
}

// File is one family file's content, decompressed.
type File struct {
	// Name is the path below the vector directory with a slash and
	// without ".gz": "probe.http.json", "next/scheduling.schedule-one.json".
	Name string
	// Path is where it was read from.
	Path string
	Data []byte
}

// ReadFiles reads every family file of dir, *.json or *.json.gz, at the
// top and in next/, sorted by Name (top-level families first). A family
// present both plain and compressed is an error.
func ReadFiles(dir string) ([]File, error) {
	var out []File
	seen := map[string]string{}
	for _, sub := range []string{"", NextDir} {
		d := filepath.Join(dir, sub)
		ents, err := os.ReadDir(d)
		if err != nil {
			if sub != "" && errors.Is(err, os.ErrNotExist) {
				continue
			}
			return nil, err
		}
		var batch []File
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || !(strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".json.gz")) {
				continue
			}
			p := filepath.Join(d, n)
			name := path.Join(sub, strings.TrimSuffix(n, ".gz"))
			if prev, dup := seen[name]; dup {
				return nil, fmt.Errorf("%s: family file also present as %s", p, prev)
			}
			seen[name] = p
			b, err := readMaybeGzip(p)
			if err != nil {
				return nil, err
			}
			batch = append(batch, File{Name: name, Path: p, Data: b})
		}
		sort.Slice(batch, func(i, j int) bool { return batch[i].Name < batch[j].Name })
		out = append(out, batch...)
	}
	return out, nil
}

func readMaybeGzip(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil || !strings.HasSuffix(p, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return out, nil
}

// Load reads and parses every family of dir (see ReadFiles).
func Load(dir string) ([]Family, error) {
	files, err := ReadFiles(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Family, 0, len(files))
	for _, f := range files {
		var fam Family
		if err := json.Unmarshal(f.Data, &fam); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if fam.Family == "" {
			return nil, fmt.Errorf("%s: no family name", f.Path)
		}
		fam.File = f.Path
		fam.Next = strings.HasPrefix(f.Name, NextDir+"/")
		out = append(out, fam)
	}
	return out, nil
}
