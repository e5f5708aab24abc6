package managedfields

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Path is a field's place in an object, written as structured-merge-diff
// and kube-apiserver's conflict messages write it:
// .spec.template.spec.containers[name="web"].image for a field of an
// associative list's item, [name="web"] alone for the item itself,
// .metadata.finalizers[="example.com/x"] for a member of a set.
type Path string

// elem is one step of a path: an object field (or map key), an
// associative list's item (its key fields and values), or a set's member.
type elem struct {
	field  string
	keys   []keyField
	member any
	kind   elemKind
}

type elemKind uint8

const (
	elemField elemKind = iota
	elemItem
	elemMember
)

type keyField struct {
	name  string
	value any
}

func (e elem) String() string {
	switch e.kind {
	case elemItem:
		var b strings.Builder
		b.WriteByte('[')
		for i, k := range e.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(k.name)
			b.WriteByte('=')
			b.WriteString(jsonText(k.value))
		}
		b.WriteByte(']')
		return b.String()
	case elemMember:
		return "[=" + jsonText(e.member) + "]"
	}
	return "." + e.field
}

// jsonText is v as JSON (numbers as decoded, strings quoted).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func pathOf(es []elem) Path {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.String())
	}
	return Path(b.String())
}

// under reports whether p lies strictly inside q.
func (p Path) under(q Path) bool {
	if len(p) <= len(q) || !strings.HasPrefix(string(p), string(q)) {
		return false
	}
	c := p[len(q)]
	return c == '.' || c == '['
}

// Set is a set of field paths: the fields a manager owns.
type Set struct {
	m map[Path][]elem
}

func (s *Set) add(es []elem) {
	if s.m == nil {
		s.m = map[Path][]elem{}
	}
	p := pathOf(es)
	if _, ok := s.m[p]; !ok {
		s.m[p] = slices.Clone(es)
	}
}

// Has reports whether the set holds p.
func (s Set) Has(p Path) bool {
	_, ok := s.m[p]
	return ok
}

// Len is the number of paths in the set.
func (s Set) Len() int { return len(s.m) }

// Paths lists the set's paths in order.
func (s Set) Paths() []Path {
	out := make([]Path, 0, len(s.m))
	for p := range s.m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// hasUnder reports whether the set holds p or a path inside it.
func (s Set) hasUnder(p Path) bool {
	if s.Has(p) {
		return true
	}
	for q := range s.m {
		if q.under(p) {
			return true
		}
	}
	return false
}

func (s Set) clone() Set {
	out := Set{m: make(map[Path][]elem, len(s.m))}
	for p, es := range s.m {
		out.m[p] = es
	}
	return out
}

func (s *Set) remove(p Path) { delete(s.m, p) }

func sortStrings(s []string) { slices.Sort(s) }
