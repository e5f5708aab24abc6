package benchdata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		file             string
		nodes, pods, pdb int
	}{{"spread-5k.json.gz", 5000, 50000, 0}, {"preempt-5k.json.gz", 5000, 50000, 3}} {
		c, err := Load(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Nodes) != tc.nodes || len(c.Pods) != tc.pods || len(c.PDBs) != tc.pdb || c.Pod == nil {
			t.Errorf("%s: %d nodes, %d pods, %d budgets, pod %v", tc.file, len(c.Nodes), len(c.Pods), len(c.PDBs), c.Pod != nil)
		}
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(plain, []byte(`{"nodes": [], "pod": {"metadata": {"name": "p"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(plain); err != nil || c.Pod.Name != "p" {
		t.Errorf("plain JSON: %v %v", c, err)
	}
	nopod := filepath.Join(dir, "nopod.json")
	if err := os.WriteFile(nopod, []byte(`{"nodes": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(nopod); err == nil || !strings.Contains(err.Error(), "nopod.json") {
		t.Errorf("no pod: %v", err)
	}
	t.Setenv(EnvVar, "")
	if _, ok, err := FromEnv(); ok || err != nil {
		t.Errorf("unset: %v %v", ok, err)
	}
}
