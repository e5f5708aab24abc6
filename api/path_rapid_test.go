package api

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// TestPathRendering: a Path built from any sequence of steps, however
// long (past the steps it keeps unrendered), and from any branch point of
// a shared prefix, renders as the steps joined one by one: a field with a
// dot after a non-empty path, an element as [i], a key as [k].
func TestPathRendering(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SampledFrom([]string{"", "spec", "containers", "a.b", "x"})
		n := rapid.IntRange(0, 3*pathSteps).Draw(t, "steps")
		var p Path
		want := ""
		var prefixes []Path
		var prefixWants []string
		for i := 0; i < n; i++ {
			prefixes, prefixWants = append(prefixes, p), append(prefixWants, want)
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0:
				name := names.Draw(t, "name")
				p = p.Child(name)
				if want != "" {
					want += "."
				}
				want += name
			case 1:
				i := rapid.IntRange(-1, 1000).Draw(t, "index")
				p = p.Index(i)
				want += "[" + strconv.Itoa(i) + "]"
			default:
				k := names.Draw(t, "key")
				p = p.Key(k)
				want += "[" + k + "]"
			}
			if got := p.String(); got != want {
				t.Fatalf("path = %q, want %q", got, want)
			}
		}
		// Building on a prefix leaves the longer paths built from it alone.
		for i, q := range prefixes {
			if got := q.Child("tail").String(); got != joinField(prefixWants[i], "tail") {
				t.Fatalf("prefix %d + tail = %q, want %q", i, got, joinField(prefixWants[i], "tail"))
			}
		}
		if got := p.String(); got != want {
			t.Fatalf("path after its prefixes were extended = %q, want %q", got, want)
		}
	})
}

func joinField(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

// BenchmarkPathBuild builds the path of a container's resource limit, as
// validation does at every field it checks, and renders none.
func BenchmarkPathBuild(b *testing.B) {
	b.ReportAllocs()
	var sink Path
	for i := 0; b.Loop(); i++ {
		sink = NewPath("spec").Child("containers").Index(i%4).Child("resources", "limits").Key("cpu")
	}
	_ = sink
}
