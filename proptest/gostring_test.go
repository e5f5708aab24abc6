package proptest_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/proptest"
)

// recorder is a testing.TB for rapid that keeps what a failing property
// prints instead of failing the test that runs it.
type recorder struct {
	mu     sync.Mutex
	log    []string
	failed bool
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestMyScheduler" }
func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, fmt.Sprintf(format, args...))
}
func (r *recorder) Log(args ...any)                  { r.Logf("%s", fmt.Sprint(args...)) }
func (r *recorder) Skipf(format string, args ...any) {}
func (r *recorder) Skip(args ...any)                 {}
func (r *recorder) SkipNow()                         {}
func (r *recorder) Errorf(format string, args ...any) {
	r.Logf(format, args...)
	r.Fail()
}
func (r *recorder) Error(args ...any)                 { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...) }
func (r *recorder) FailNow()                          { r.Fail() }
func (r *recorder) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// A property that fails on every cluster with a pending pod: what rapid
// prints about the drawn cluster is one readable line per object (kind and
// JSON), never a pointer or a quantity's internals, and it says how to
// replay the failure.
func TestFailingPropertyPrintsReadableCluster(t *testing.T) {
	clusters := proptest.Cluster(proptest.ClusterOptions{Nodes: 2, Pods: 3, Pending: 1})
	rec := &recorder{}
	rapid.Check(rec, func(t *rapid.T) {
		c := clusters.Draw(t, "cluster")
		if len(c.Pending()) > 0 {
			t.Fatalf("my scheduler left %s pending", c.Pending()[0].Name)
		}
	})
	if !rec.Failed() {
		t.Fatal("the property did not fail")
	}
	out := strings.Join(rec.log, "\n")
	t.Logf("what the failure prints:\n%s", out)
	for _, want := range []string{"[rapid] draw cluster: ClusterState at ", "\n  Node {", "\n  Pod {", "-rapid.seed="} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "0xc") || strings.Contains(out, "api.Quantity{") {
		t.Errorf("output shows pointers or quantity internals")
	}
}
