package cluster

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestPropertySortedKeys: whatever the order of adds and removes (keys
// added out of order past the size where a list stays unsorted until its
// next read, removes while unsorted, a key removed and added again), a
// read lists exactly the keys present, in order, once each.
func TestPropertySortedKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s sortedKeys
		want := map[string]bool{}
		// Start big enough for the unsorted mode (more than 16384 keys,
		// an insert more than 64 from the end).
		base := rapid.IntRange(0, 20000).Draw(t, "base")
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
