package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
}

// Case is one vector: an input and upstream's answer.
type Case struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Want  json.RawMessage `json:"want"`
}

// Dir returns the vector directory: $PODSEM_CONFORMANCE_DIR when set, else
// ../shared/conformance relative to the module root (root is the module's
// directory).
func Dir(root string) string {
	if d := os.Getenv("PODSEM_CONFORMANCE_DIR"); d != "" {
		return d
	}
	return filepath.Join(root, "..", "shared", "conformance")
}

// Load reads every *.json family in dir, sorted by file name.
func Load(dir string) ([]Family, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	out := make([]Family, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var fam Family
		if err := json.Unmarshal(b, &fam); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if fam.Family == "" {
			return nil, fmt.Errorf("%s: no family name", f)
		}
		fam.File = f
		out = append(out, fam)
	}
	return out, nil
}
