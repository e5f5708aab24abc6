package namespace_test

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// TestPropertyQueue: over random changes, passes and results, the
// controller's queue keeps its promises: a namespace is never due before
// DeletionGracePeriod has passed since the change that queued it (unless
// a pass's requeue said sooner), a Tick at NextDeadline hands out at least
// one namespace, the namespaces due are sorted and each at most once, and
// one never deleted is never due.
func TestPropertyQueue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := namespace.NewController()
		names := []string{"a", "b", "c", "live"}
		now := t0
		earliest := map[string]time.Time{} // the earliest a namespace may be due
		for i := 0; i < 40; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 20_000).Draw(t, "ms")) * time.Millisecond)
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				name := rapid.SampledFrom(names).Draw(t, "name")
				ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
				if name != "live" {
					ns.DeletionTimestamp = api.NewTimePtr(now)
					if e, ok := earliest[name]; !ok || now.Add(namespace.DeletionGracePeriod).Before(e) {
						earliest[name] = now.Add(namespace.DeletionGracePeriod)
					}
				}
				if _, err := c.Step(namespace.Input{Kind: namespace.NamespaceChanged, Namespace: ns}, now); err != nil {
					t.Fatal(err)
				}
			case 1:
				if d := c.NextDeadline(); !d.IsZero() {
					now = d
				}
				out, err := c.Step(namespace.Input{Kind: namespace.Tick}, now)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.IsSorted(out.Due) || len(slices.Compact(slices.Clone(out.Due))) != len(out.Due) {
					t.Fatalf("due %v: not sorted or repeated", out.Due)
				}
				for _, n := range out.Due {
					if n == "live" {
						t.Fatal("a namespace never deleted is due")
					}
					if e := earliest[n]; now.Before(e) {
						t.Fatalf("%s due at %v, before %v", n, now, e)
					}
					delete(earliest, n)
					r := namespace.Result{Estimate: int64(rapid.IntRange(0, 60).Draw(t, "estimate"))}
					if rapid.Bool().Draw(t, "failed") {
						r.Err = namespace.ErrTerminating
						earliest[n] = now // the back-off starts at 5 ms
					} else if r.Estimate > 0 {
						earliest[n] = now.Add(r.RequeueAfter())
					}
					if _, err := c.Step(namespace.Input{Kind: namespace.Synced, Name: n, Result: r}, now); err != nil {
						t.Fatal(err)
					}
				}
			case 2:
				before := c.NextDeadline()
				if before.IsZero() {
					continue
				}
				out, _ := c.Step(namespace.Input{Kind: namespace.Tick}, before)
				if len(out.Due) == 0 {
					t.Fatalf("a Tick at the next deadline %v hands out nothing", before)
				}
				now = before
				for _, n := range out.Due {
					delete(earliest, n)
					_, _ = c.Step(namespace.Input{Kind: namespace.Synced, Name: n}, now)
				}
			case 3:
				name := rapid.SampledFrom(names).Draw(t, "gone")
				delete(earliest, name)
				_, _ = c.Step(namespace.Input{Kind: namespace.NamespaceGone, Name: name}, now)
			}
		}
	})
}
