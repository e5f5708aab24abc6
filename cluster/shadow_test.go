package cluster

import (
	"fmt"
	"github.com/podsem/podsem/record"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/namespace"
	"github.com/podsem/podsem/nodelifecycle"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/probe"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
	"github.com/podsem/podsem/volume"
	"github.com/podsem/podsem/workloads"
)

// The shadow check of "the composition adds no rule of its own" (issue
// 22): every machine the cluster steps has a twin, built with the same
// constructor and config the composition uses, and stepped with a copy
// of the same input at the same instant right after it. The machine's
// answer must be its twin's, and so must its whole state after the step
// (every field, unexported ones included; the copies keep the
// identities of the input's objects, so that a cache keyed by them
// compares), its NextDeadline and a pod machine's Pod; the input must
// come out of the step unchanged. A difference means the composition changed a machine's
// state behind its Step (or kept and changed something the machine
// holds: an object of its input, an answer it returned), or the machine
// changed its input, or its answer depends on something besides its
// state, its input and now. Each pure function the composition calls
// (disruption.Evict, Evaluate, PlanDrain, lifecycle.Admit) is called a
// second time with a copy of its arguments: the same answer, and the
// arguments unchanged.

// shadow is the check: a stepWatcher (step.go) holding the twins.
type shadow struct {
	m      *Machine
	fatal  func(format string, args ...any)
	failed bool        // a difference was reported: the check stops
	twins  map[any]any // machine → its twin
	copier copier      // the inputs' snapshots
	// steps and calls count what was checked, by component name.
	steps map[string]int
	calls map[string]int
}

// installShadow installs the check on m (before its objects are loaded).
func installShadow(m *Machine, fatal func(format string, args ...any)) *shadow {
	s := &shadow{m: m, twins: map[any]any{}, steps: map[string]int{}, calls: map[string]int{},
		copier: copier{memo: map[ptrKey]memoEntry{}, seen: map[ptrKey]bool{}}}
	s.fatal = func(format string, args ...any) {
		// The first difference is the one to read; after it the
		// twins are behind (when fatal returns, in the package's own
		// tests of the check), and the check stops.
		s.failed = true
		fatal(format, args...)
	}
	m.shadow = s
	return s
}

// cmpOpts compare answers by value: unexported fields included, errors
// by message (two answers may hold two equal errors), functions (the
// pod GC's NodeExists) skipped, times by instant.
var cmpOpts = []cmp.Option{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(a, b error) bool { return fmt.Sprint(a) == fmt.Sprint(b) }),
	cmp.FilterPath(func(p cmp.Path) bool { return p.Last().Type().Kind() == reflect.Func }, cmp.Ignore()),
}

// diff is "" when a and b are equal (equal, the fast path), else cmp's
// report of how they differ under cmpOpts ("" if they are equal there:
// two equal errors).
func diff(a, b any) string {
	if (&eq{}).equal(reflect.ValueOf(a), reflect.ValueOf(b)) {
		return ""
	}
	return cmp.Diff(a, b, cmpOpts...)
}

// eq compares values as reflect.DeepEqual does but for functions, which
// it takes as equal (the pod GC's NodeExists). With memo (comparing a
// machine with its twin), a map keyed by pointers to input objects (a
// cache of the machine's) finds the twin's entry under the copy the twin
// was given of the key.
type eq struct {
	seen map[[2]uintptr]bool
	memo map[ptrKey]memoEntry
}

func (e *eq) equal(a, b reflect.Value) bool {
	if e.seen == nil {
		e.seen = map[[2]uintptr]bool{}
	}
	seen := e.seen
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Slice && a.Len() != b.Len() {
			return false
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if a.Kind() != reflect.Slice {
			if k[0] == k[1] || seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	switch a.Kind() {
	case reflect.Func:
		return true
	case reflect.Pointer:
		return e.equal(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return e.equal(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !e.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			k := it.Key()
			if k.Kind() == reflect.Pointer && e.memo != nil && !k.IsNil() {
				if m, ok := e.memo[ptrKey{k.Pointer(), k.Type()}]; ok {
					k = m.copy
				}
			}
			bv := b.MapIndex(k)
			if !bv.IsValid() && k.Kind() == reflect.Pointer {
				// A key the machine made itself: any equal key.
				for jt := b.MapRange(); jt.Next(); {
					if e.equal(it.Key(), jt.Key()) {
						bv = jt.Value()
						break
					}
				}
			}
			if !bv.IsValid() || !e.equal(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !e.equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return false
}

func (s *shadow) step(name, key string, machine, in any, now time.Time) func(out ...any) {
	if s.failed {
		return func(...any) {}
	}
	twin, ok := s.twins[machine]
	if !ok {
		twin = s.newTwin(name, key, machine)
		s.twins[machine] = twin
		s.sameState(name, key, machine, twin, "before its first step")
	}
	snap := s.snapshot(in)
	return func(out ...any) {
		s.steps[name]++
		if d := diff(snap, in); d != "" {
			s.fatal("%s %s at %s: the machine changed its input (-before +after):\n%s", name, key, now.Format(time.RFC3339), d)
		}
		res := reflect.ValueOf(twin).MethodByName("Step").Call([]reflect.Value{valueOf(snap, reflect.TypeOf(in)), reflect.ValueOf(now)})
		for i, r := range res {
			if d := diff(r.Interface(), out[i]); d != "" {
				s.fatal("%s %s at %s: answer %d differs from its twin's, stepped alone with the same input (-twin +composed):\n%s",
					name, key, now.Format(time.RFC3339), i, d)
			}
		}
		s.sameState(name, key, machine, twin, "after the step at "+now.Format(time.RFC3339))
	}
}

// sameState compares the machine's whole state (unexported fields
// included) with its twin's, and what it says of it: NextDeadline, and a
// pod machine's Pod.
func (s *shadow) sameState(name, key string, machine, twin any, when string) {
	if !(&eq{memo: s.copier.memo}).equal(reflect.ValueOf(machine), reflect.ValueOf(twin)) {
		s.fatal("%s %s %s: state differs from its twin's:\n%s", name, key, when, cmp.Diff(twin, machine, cmpOpts...))
	}
	type deadliner interface{ NextDeadline() time.Time }
	if a, ok := machine.(deadliner); ok {
		if got, want := a.NextDeadline(), twin.(deadliner).NextDeadline(); !got.Equal(want) {
			s.fatal("%s %s %s: NextDeadline %s, its twin's %s", name, key, when, got, want)
		}
	}
	if a, ok := machine.(*lifecycle.Machine); ok {
		if d := diff(twin.(*lifecycle.Machine).Pod(), a.Pod()); d != "" {
			s.fatal("%s %s %s: Pod differs from its twin's (-twin +composed):\n%s", name, key, when, d)
		}
	}
}

func (s *shadow) call(name string, f any, args []any) func(out ...any) {
	if s.failed {
		return func(...any) {}
	}
	snap := make([]reflect.Value, len(args))
	fv := reflect.ValueOf(f)
	for i, a := range args {
		snap[i] = valueOf(s.snapshot(a), fv.Type().In(i))
	}
	return func(out ...any) {
		s.calls[name]++
		for i, a := range args {
			if d := diff(snap[i].Interface(), a); d != "" {
				s.fatal("%s: argument %d changed by the call (-before +after):\n%s", name, i, d)
			}
		}
		for i, r := range fv.Call(snap) {
			if d := diff(r.Interface(), out[i]); d != "" {
				s.fatal("%s: result %d differs from a second call's with the same arguments (-again +first):\n%s", name, i, d)
			}
		}
	}
}

// newTwin builds the twin of a machine the composition steps for the
// first time, with the constructor and config the composition uses.
func (s *shadow) newTwin(name, key string, machine any) any {
	cfg := s.m.cfg
	var twin any
	var err error
	switch name {
	case "kube-scheduler":
		var sc *scheduling.Cluster
		if sc, err = scheduling.NewCluster(nil, nil, scheduling.Config{}); err == nil {
			twin, err = newSchedulerLoop(sc, s.m.start)
		}
	case "replicaset-controller":
		twin = workloads.NewIncrementalReplicaSetController()
	case "deployment-controller":
		twin = workloads.NewDeploymentController(workloads.DeploymentOptions{})
	case "statefulset-controller":
		twin = workloads.NewStatefulSetController(workloads.StatefulSetConfig{})
	case "daemonset-controller":
		twin = &workloads.DaemonSetController{}
	case "job-controller":
		twin = workloads.NewJobController(workloads.JobConfig{})
	case workloads.TTLAfterFinishedControllerName:
		twin = new(workloads.TTLAfterFinishedController)
	case "node-lifecycle-controller":
		twin, err = nodelifecycle.NewController(slidingMonitor(cfg.NodeLifecycle))
	case "taint-eviction-controller":
		twin = nodelifecycle.NewTaintEviction()
	case "namespace-controller":
		twin = namespace.NewController()
	case "pod-garbage-collector":
		twin = termination.NewCollector(podGCConfig(cfg.PodGC))
	case "eviction-manager":
		twin, err = nodepressure.NewManager(cfg.Eviction, nodepressure.LayoutShared)
	case "persistentvolume-controller":
		twin = volume.NewPersistentVolumeController(cfg.Storage.Binder)
	case "attachdetach-controller":
		twin = volume.NewAttachDetachController(cfg.Storage.AttachDetach)
	case "event-correlator":
		twin = record.NewCorrelator()
	case "event-series":
		twin = record.NewSeries(s.m.start)
	case "kubelet":
		// The kubelet makes a pod's machine from the pod it admits and
		// steps it at once: the machine's pod before that step is the
		// one it was made from (NewMachine keeps metadata and spec).
		twin = lifecycle.NewMachine(machine.(*lifecycle.Machine).Pod(), lifecycle.MachineConfig{})
	case "prober":
		// A worker is made from the pod as its machine reports it and
		// ticked in the same pass, before the machine is stepped again.
		for _, k := range s.m.kubelets {
			r := k.pods[key]
			if r == nil {
				continue
			}
			for _, p := range r.probes {
				if p.w == machine {
					twin, err = probe.NewWorker(p.kind, r.m.Pod(), p.container, probe.WorkerConfig{})
				}
			}
		}
	default:
		s.fatal("%s %s: no twin for this component: add it to newTwin", name, key)
	}
	if err != nil || twin == nil || reflect.TypeOf(twin) != reflect.TypeOf(machine) {
		s.fatal("%s %s: twin %T (error %v) for a machine %T", name, key, twin, err, machine)
	}
	return twin
}

// valueOf is v as a reflect.Value of type t (a nil interface or pointer
// included).
func valueOf(v any, t reflect.Type) reflect.Value {
	if v == nil {
		return reflect.Zero(t)
	}
	return reflect.ValueOf(v)
}

// snapshot copies v with every pointer, slice and map it reaches
// (shared pointers stay shared, cycles are kept), unexported fields
// included; functions and channels are kept as they are. A pointer met
// in an earlier snapshot whose object is unchanged since gets the same
// copy: the twin sees the identities its machine sees (a cache keyed by
// the input's pods hits for the twin when it hits for the machine).
func (s *shadow) snapshot(v any) any {
	if v == nil {
		return nil
	}
	clear(s.copier.seen)
	return s.copier.copy(reflect.ValueOf(v)).Interface()
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

// memoEntry is an object snapshot copied, and its copy (orig keeps the
// object alive, so that its address names it).
type memoEntry struct{ orig, copy reflect.Value }

type copier struct {
	memo map[ptrKey]memoEntry // every pointer copied so far
	seen map[ptrKey]bool      // the pointers of this snapshot
}

func (c *copier) copy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	c.into(out, v)
	return out
}

func (c *copier) into(dst, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		k := ptrKey{v.Pointer(), v.Type()}
		if m, ok := c.memo[k]; ok && (c.seen[k] || (&eq{}).equal(v.Elem(), m.copy.Elem())) {
			c.seen[k] = true
			set(dst, m.copy)
			return
		}
		p := reflect.New(v.Type().Elem())
		c.memo[k], c.seen[k] = memoEntry{v, p}, true
		c.into(p.Elem(), v.Elem())
		set(dst, p)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		set(dst, c.copy(v.Elem()))
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Cap())
		for i := 0; i < v.Len(); i++ {
			c.into(s.Index(i), v.Index(i))
		}
		set(dst, s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			c.into(dst.Index(i), v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		mp := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			mp.SetMapIndex(c.copy(it.Key()), c.copy(it.Value()))
		}
		set(dst, mp)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			set(dst, v)
			return
		}
		if !v.CanAddr() {
			a := reflect.New(v.Type()).Elem()
			a.Set(v)
			v = a
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if !f.CanInterface() {
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			c.into(dst.Field(i), f)
		}
	default:
		set(dst, v)
	}
}

// set stores v in dst, an addressable value, unexported field or not.
func set(dst, v reflect.Value) {
	if !dst.CanSet() {
		dst = reflect.NewAt(dst.Type(), unsafe.Pointer(dst.UnsafeAddr())).Elem()
	}
	dst.Set(v)
}

// runShadowed runs a scenario as Run does, with the shadow check
// installed before the objects are created.
func runShadowed(t *testing.T, sc *Scenario, start time.Time) *shadow {
	t.Helper()
	cfg, _, err := ConfigFromFlags(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := newMachine(start, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := installShadow(m, t.Fatalf)
	m.kubeletCheck = t.Fatalf                                    // and the kubeletQueue against a scan of every kubelet
	if err := m.createSystemPriorityClasses(start); err != nil { // as New does
		t.Fatal(err)
	}
	if _, err := m.load(sc.Objects, start); err != nil {
		t.Fatal(err)
	}
	t0, _, _, err := m.settleBefore(DefaultSettleTimeout)
	if err != nil {
		t.Fatal(err)
	}
	m.answers = newAnswers(m, t0)
	until := t0.Add(sc.Until)
	advance := func(to time.Time) {
		for d := m.NextDeadline(); !d.IsZero() && d.Before(to); d = m.NextDeadline() {
			if _, err := m.Step(Tick(), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, a := range sc.Actions {
		at := t0.Add(a.At)
		if at.After(until) {
			break
		}
		advance(at)
		if _, err := m.Step(Do(a), at); err != nil {
			t.Fatal(err)
		}
	}
	advance(until)
	if _, err := m.Step(Tick(), until); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestShadowGolden runs every golden scenario of testdata/ under the
// shadow check: every step of every machine is what its twin answers
// alone, and every pure call answers the same twice.
func TestShadowGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	total := map[string]int{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := ParseScenario(data)
			if err != nil {
				t.Fatal(err)
			}
			s := runShadowed(t, sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
			for k, n := range s.steps {
				total[k] += n
			}
			for k, n := range s.calls {
				total[k] += n
			}
		})
	}
	for _, name := range shadowed {
		if total[name] == 0 {
			t.Errorf("no golden scenario steps %s: the check does not cover it", name)
		}
	}
	t.Logf("checked: %v", total)
}

// shadowed are the machines and pure functions the check covers.
var shadowed = []string{
	"kube-scheduler", "replicaset-controller", "deployment-controller", "statefulset-controller",
	"daemonset-controller", "job-controller", workloads.TTLAfterFinishedControllerName, "node-lifecycle-controller", "taint-eviction-controller",
	"namespace-controller", "pod-garbage-collector", "eviction-manager", "persistentvolume-controller", "attachdetach-controller",
	"kubelet", "prober",
	"disruption.Evict", "disruption.Evaluate", "disruption.PlanDrain", "lifecycle.Admit",
}

// TestShadowCatchesTampering: the check is not vacuous. A composition
// that steps a machine behind the helpers' back (a pod's machine told
// that its container exited when the runtime said nothing) leaves its
// twin behind, and the machine's next step (the pod's deletion) is
// reported; so is one that changes in place an object a machine was
// given (a pod of the informer cache, which kube-scheduler keeps).
func TestShadowCatchesTampering(t *testing.T) {
	t.Run("stepped behind its back", func(t *testing.T) {
		var r *podRun
		reports := tampered(t, func(m *Machine, now time.Time) string {
			for _, n := range m.kubeletOrder() {
				for _, key := range slices.Sorted(maps.Keys(m.kubelets[n].pods)) {
					if r == nil {
						r = m.kubelets[n].pods[key]
					}
				}
			}
			r.m.Step(lifecycle.ContainerExited(r.m.Pod().Spec.Containers[0].Name, 1, "Error"), now)
			return r.key
		})
		if len(reports) == 0 || !strings.HasPrefix(reports[0], "kubelet "+r.key) {
			t.Fatalf("the tampered pod machine went unnoticed: %q", reports)
		}
		t.Logf("reported: %.200s", reports[0])
	})
	t.Run("input changed in place", func(t *testing.T) {
		reports := tampered(t, func(m *Machine, now time.Time) string {
			pods := m.cache.pods()
			pods[0].Spec.Containers[0].Image = "tampered:1"
			return pods[len(pods)-1].Key()
		})
		if len(reports) == 0 || !strings.Contains(reports[0], "state differs from its twin's") || !strings.Contains(reports[0], "tampered:1") {
			t.Fatalf("the tampered cache went unnoticed: %q", reports)
		}
		t.Logf("reported: %.200s", reports[0])
	})
}

// tampered runs testdata/node-lost.json for a minute under the check,
// tampers (tamper returns a pod to delete next), deletes the pod and
// runs on for ten minutes or until the check reports: its reports.
func tampered(t *testing.T, tamper func(m *Machine, now time.Time) string) []string {
	data, err := os.ReadFile("testdata/node-lost.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	m, _, err := newMachine(start, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var reports []string
	installShadow(m, func(format string, args ...any) { reports = append(reports, fmt.Sprintf(format, args...)) })
	if _, err := m.load(sc.Objects, start); err != nil {
		t.Fatal(err)
	}
	for d := m.NextDeadline(); !d.IsZero() && d.Before(start.Add(time.Minute)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	if len(reports) > 0 {
		t.Fatalf("untampered: %s", reports[0])
	}
	now := m.now.Add(time.Second)
	ns, name, _ := strings.Cut(tamper(m, now), "/")
	if _, err := m.Step(Do(Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: ns, Name: name}}), now); err != nil {
		t.Fatal(err)
	}
	for d := m.NextDeadline(); len(reports) == 0 && !d.IsZero() && d.Before(now.Add(10*time.Minute)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	return reports
}

// TestShadowCatchesImpureCalls: a "pure" function that changes its
// argument, or answers from hidden state, is reported.
func TestShadowCatchesImpureCalls(t *testing.T) {
	m, _, err := newMachine(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC), Config{})
	if err != nil {
		t.Fatal(err)
	}
	var reports []string
	installShadow(m, func(format string, args ...any) { reports = append(reports, fmt.Sprintf(format, args...)) })
	rename := func(p *api.Pod) (string, error) { p.Name += "-x"; return p.Name, nil }
	callPure1x2(m, "rename", rename, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}})
	if len(reports) == 0 || !strings.Contains(reports[0], "rename: argument 0 changed") {
		t.Errorf("a function changing its argument went unnoticed: %q", reports)
	}
	reports = nil
	installShadow(m, func(format string, args ...any) { reports = append(reports, fmt.Sprintf(format, args...)) })
	calls := 0
	count := func(*api.Pod) (int, error) { calls++; return calls, nil }
	callPure1x2(m, "count", count, &api.Pod{})
	if len(reports) == 0 || !strings.Contains(reports[0], "count: result 0 differs") {
		t.Errorf("a function with hidden state went unnoticed: %q", reports)
	}
}
