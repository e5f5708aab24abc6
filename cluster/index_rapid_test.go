package cluster

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestPropertySortedKeys: whatever the order of adds and removes (keys
// appended, added out of order and kept aside until the next read, removed
// while changes are pending, removed and added again, reads in between), a
// read lists exactly the keys present, in order, once each, and len counts
// them.
func TestPropertySortedKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s sortedKeys
		want := map[string]bool{}
		base := rapid.IntRange(0, 2000).Draw(t, "base")
		for i := 0; i < base; i++ {
			k := fmt.Sprintf("k%06d", 2*i)
			s.add(k)
			want[k] = true
		}
		key := rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf("k%06d", rapid.IntRange(0, 2*base+10).Draw(t, "n"))
		})
		for _, op := range rapid.SliceOfN(rapid.IntRange(0, 2), 1, 60).Draw(t, "ops") {
			k := key.Draw(t, "key")
			switch op {
			case 0:
				s.add(k)
				want[k] = true
			case 1:
				s.remove(k)
				delete(want, k)
			default:
				if s.len() != len(want) {
					t.Fatalf("len %d, want %d", s.len(), len(want))
				}
				if got, w := s.list(), slices.Sorted(maps.Keys(want)); !slices.Equal(got, w) {
					t.Fatalf("read: %d keys, want %d", len(got), len(w))
				}
			}
		}
		if got, w := s.list(), slices.Sorted(maps.Keys(want)); !slices.Equal(got, w) {
			t.Fatalf("final read: %d keys, want %d", len(got), len(w))
		}
	})
}
