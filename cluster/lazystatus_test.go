package cluster

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// TestLazyStatusPosts: the kubelets' unchanged periodic node status
// posts, computed when read (kubelet.statusAt) rather than written, change
// nothing that happens: every scenario of testdata and testdata/e2e gives
// the same records and, once the store's resourceVersions are set aside
// (the posts not written do not bump them), the same objects at until as
// with the posts written (Machine.writeStatusPosts). Each scenario runs as it
// is and stretched to 16 minutes (three periodic posts) with its first
// node lost at 10m7s, between two of them, and restored at 13m.
func TestLazyStatusPosts(t *testing.T) {
	var files []string
	for _, pattern := range []string{"testdata/*.json", "testdata/e2e/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("%d scenario files", len(files))
	}
	rv := regexp.MustCompile(`"resourceVersion":"[0-9]*",?`)
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	compare := func(t *testing.T, sc *Scenario) {
		t.Helper()
		lazy, errLazy := run(sc, start, nil)
		eager, errEager := run(sc, start, (*Machine).writeStatusPosts)
		if (errLazy == nil) != (errEager == nil) {
			t.Fatalf("errors differ: lazy %v, eager %v", errLazy, errEager)
		}
		if errLazy != nil {
			return
		}
		if d := cmp.Diff(eager.Records, lazy.Records, cmp.AllowUnexported(Record{})); d != "" {
			t.Fatalf("records differ (-eager +lazy):\n%s", d)
		}
		objs := func(os []api.Object) string {
			var b strings.Builder
			for _, o := range os {
				j, err := json.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(rv.ReplaceAll(j, nil))
				b.WriteByte('\n')
			}
			return b.String()
		}
		if d := cmp.Diff(objs(eager.Objects), objs(lazy.Objects)); d != "" {
			t.Fatalf("objects at until differ (-eager +lazy):\n%s", d)
		}
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if strings.HasPrefix(path, "testdata/e2e/") {
			name = "e2e/" + name
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := ParseScenario(data)
			if err != nil {
				t.Skipf("not a scenario: %v", err)
			}
			sc.LoadLocation = time.LoadLocation
			compare(t, sc)
			var node string
			for _, o := range sc.Objects {
				if n, ok := o.(*api.Node); ok {
					node = n.Name
					break
				}
			}
			if node == "" || sc.Until >= 16*time.Minute {
				return
			}
			sc.Until = 16 * time.Minute
			sc.Actions = append(sc.Actions,
				Action{At: 10*time.Minute + 7*time.Second, Kind: ActionLose, Node: node},
				Action{At: 13 * time.Minute, Kind: ActionRestore, Node: node})
			compare(t, sc)
		})
	}
}

// A kubelet's node status post computed when read (statusAt) is the post
// a kubelet writing every periodic post would have made last: posts come
// every NodeStatusReportFrequency from the last written one (a written
// post of changed conditions restarts the period), a post due at an
// instant is not made before the kubelets run at it, and a kubelet gone
// silent keeps its last.
func TestPropertyStatusComputedWhenRead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		k := newKubelet("node-1", 0)
		k.statusAnchor = t0 // the registration's post
		written, next := t0, t0.Add(NodeStatusReportFrequency)
		phase, now := t0, t0
		silentAt := time.Duration(rapid.IntRange(-1, 3000).Draw(t, "silent")) * time.Second
		for i := range rapid.IntRange(1, 60).Draw(t, "instants") {
			step := time.Duration(rapid.IntRange(0, 200_000).Draw(t, "ms")) * time.Millisecond
			if rapid.Bool().Draw(t, "onPost") && !k.silent {
				now = next // an instant at a periodic post
			} else if at := now.Add(step); k.silent || !at.After(next) {
				now = at
			} else {
				now = next
			}
			if rapid.Bool().Draw(t, "read") {
				if got := k.statusAt(now, phase); !got.Equal(written) {
					t.Fatalf("instant %d at %v: statusAt %v, the kubelet wrote %v (ran last at %v)", i, now.Sub(t0), got.Sub(t0), written.Sub(t0), phase.Sub(t0))
				}
			}
			if silentAt >= 0 && !k.silent && !now.Before(t0.Add(silentAt)) {
				k.silencedStatus = k.statusAt(now, phase)
				k.silent = true
				if !k.silencedStatus.Equal(written) {
					t.Fatalf("silenced at %v: status %v, the kubelet wrote %v", now.Sub(t0), k.silencedStatus.Sub(t0), written.Sub(t0))
				}
			}
			if rapid.IntRange(0, 3).Draw(t, "runs") > 0 || now.Equal(next) {
				phase = now
				switch {
				case k.silent:
				case !now.Before(next):
					written, next = now, now.Add(NodeStatusReportFrequency)
				case rapid.IntRange(0, 5).Draw(t, "changed") == 0:
					// A post of changed conditions restarts the period.
					k.statusAnchor = now
					written, next = now, now.Add(NodeStatusReportFrequency)
				}
			}
		}
	})
}

// A node status post written off the Lease's cadence (as a graceful
// shutdown posts at once) and a loss soon after it: the node lifecycle
// controller's probe time counts from the post when it came after the
// last Lease renewal, so the NotReady transition and everything after it
// come at the same instants whether the kubelet's later periodic posts
// are written or computed when read. The post's instant, the loss's
// delay after it or after one of the periodic posts that follow it, and
// how long the run goes on are random.
func TestPropertyLazyStatusOffCadence(t *testing.T) {
	node := ReadyNode("node-1")
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		post := time.Duration(rapid.IntRange(1, 600_000).Draw(t, "postMs")) * time.Millisecond
		// The loss comes up to 12 s after the written post or after one
		// of the next two periodic posts (off the Lease's cadence too).
		periods := time.Duration(rapid.IntRange(0, 2).Draw(t, "periods"))
		lose := post + periods*NodeStatusReportFrequency + time.Duration(rapid.IntRange(0, 12_000).Draw(t, "loseAfterMs"))*time.Millisecond
		until := lose + time.Duration(rapid.IntRange(30, 120).Draw(t, "untilAfterS"))*time.Second
		runOne := func(eager bool) ([]Record, []api.Object) {
			m, _, err := New([]api.Object{node.DeepCopy()}, Config{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			if eager {
				m.writeStatusPosts()
			}
			var log []Record
			advance := func(to time.Time) {
				for d := m.NextDeadline(); !d.IsZero() && d.Before(to); d = m.NextDeadline() {
					out, err := m.Step(Tick(), d)
					if err != nil {
						t.Fatal(err)
					}
					log = append(log, out.Records...)
				}
			}
			advance(t0.Add(post))
			out, err := m.Step(Tick(), t0.Add(post))
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, out.Records...)
			if err := m.postNodeStatus(m.kubelets["node-1"], t0.Add(post)); err != nil {
				t.Fatal(err)
			}
			advance(t0.Add(lose))
			out, err = m.Step(Do(Action{Kind: ActionLose, Node: "node-1"}), t0.Add(lose))
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, out.Records...)
			advance(t0.Add(until))
			return log, m.Objects()
		}
		eagerLog, eagerObjs := runOne(true)
		lazyLog, lazyObjs := runOne(false)
		if d := cmp.Diff(eagerLog, lazyLog, cmp.AllowUnexported(Record{})); d != "" {
			t.Fatalf("post at %v, loss at %v: records differ (-eager +lazy):\n%s", post, lose, d)
		}
		en, ln := eagerObjs[0].(*api.Node), lazyObjs[0].(*api.Node)
		if d := cmp.Diff(en.Status.Conditions, ln.Status.Conditions); d != "" {
			t.Fatalf("post at %v, loss at %v: node conditions differ (-eager +lazy):\n%s", post, lose, d)
		}
	})
}
