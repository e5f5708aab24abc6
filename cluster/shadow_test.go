package cluster

import (
	"fmt"
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
	"github.com/podsem/podsem/nodelifecycle"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/preemption"
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
// answer must be its twin's, and so must its NextDeadline (and a pod
// machine's Pod) after the step; the input must come out of the step
// unchanged. A difference means the composition changed a machine's
// state behind its Step (or kept and changed something the machine
// holds: an object of its input, an answer it returned), or the machine
// changed its input, or its answer depends on something besides its
// state, its input and now. Each pure function the composition calls
// (disruption.Evict, Evaluate, PlanDrain, lifecycle.Admit) is called a
// second time with a copy of its arguments: the same answer, and the
// arguments unchanged.

// shadow is the check: a stepWatcher (step.go) holding the twins.
type shadow struct {
	m     *Machine
	fatal func(format string, args ...any)
	twins map[any]any // machine → its twin
	// steps and calls count what was checked, by component name.
	steps map[string]int
	calls map[string]int
}

// installShadow installs the check on m (before its objects are loaded).
func installShadow(m *Machine, fatal func(format string, args ...any)) *shadow {
	s := &shadow{m: m, fatal: fatal, twins: map[any]any{}, steps: map[string]int{}, calls: map[string]int{}}
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
	if equal(reflect.ValueOf(a), reflect.ValueOf(b), map[[2]uintptr]bool{}) {
		return ""
	}
	return cmp.Diff(a, b, cmpOpts...)
}

// equal is reflect.DeepEqual but for functions, which it takes as equal
// (the pod GC's NodeExists).
func equal(a, b reflect.Value, seen map[[2]uintptr]bool) bool {
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
		return equal(a.Elem(), b.Elem(), seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem(), seen)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equal(a.Index(i), b.Index(i), seen) {
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
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !equal(it.Value(), bv, seen) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !equal(a.Field(i), b.Field(i), seen) {
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
	twin, ok := s.twins[machine]
	if !ok {
		twin = s.newTwin(name, key, machine)
		s.twins[machine] = twin
		s.sameState(name, key, machine, twin, "before its first step")
	}
	snap := snapshot(in)
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

// sameState compares what the machine says of its state with its twin's.
func (s *shadow) sameState(name, key string, machine, twin any, when string) {
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
	snap := make([]reflect.Value, len(args))
	fv := reflect.ValueOf(f)
	for i, a := range args {
		snap[i] = valueOf(snapshot(a), fv.Type().In(i))
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
			twin, err = preemption.NewLoop(sc, s.m.start)
		}
	case "replicaset-controller":
		twin = workloads.NewReplicaSetController()
	case "deployment-controller":
		twin = workloads.NewDeploymentController(workloads.DeploymentOptions{})
	case "statefulset-controller":
		twin = workloads.NewStatefulSetController(workloads.StatefulSetConfig{})
	case "daemonset-controller":
		twin = &workloads.DaemonSetController{}
	case "job-controller":
		twin = workloads.NewJobController(workloads.JobConfig{})
	case "node-lifecycle-controller":
		twin, err = nodelifecycle.NewController(cfg.NodeLifecycle)
	case "taint-eviction-controller":
		twin = nodelifecycle.NewTaintEviction()
	case "pod-garbage-collector":
		twin = termination.NewCollector(termination.GCConfig{})
	case "eviction-manager":
		twin, err = nodepressure.NewManager(cfg.Eviction, nodepressure.LayoutShared)
	case "persistentvolume-controller":
		twin = volume.NewPersistentVolumeController(cfg.Storage.Binder)
	case "attachdetach-controller":
		twin = volume.NewAttachDetachController(cfg.Storage.AttachDetach)
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

// snapshot copies v with every pointer, slice and map it reaches (shared
// pointers stay shared, cycles are kept), unexported fields included;
// functions and channels are kept as they are.
func snapshot(v any) any {
	if v == nil {
		return nil
	}
	c := copier{seen: map[ptrKey]reflect.Value{}}
	return c.copy(reflect.ValueOf(v)).Interface()
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

type copier struct{ seen map[ptrKey]reflect.Value }

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
		if p, ok := c.seen[k]; ok {
			set(dst, p)
			return
		}
		p := reflect.New(v.Type().Elem())
		c.seen[k] = p
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
	"daemonset-controller", "job-controller", "node-lifecycle-controller", "taint-eviction-controller",
	"pod-garbage-collector", "eviction-manager", "persistentvolume-controller", "attachdetach-controller",
	"kubelet", "prober",
	"disruption.Evict", "disruption.Evaluate", "disruption.PlanDrain", "lifecycle.Admit",
}

// TestShadowCatchesTampering: the check is not vacuous. A composition
// that steps a machine behind the helpers' back (here: a pod's machine,
// told that its container exited when the runtime said nothing) leaves
// its twin behind, and the machine's next step (the pod's deletion) is
// reported.
func TestShadowCatchesTampering(t *testing.T) {
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
	if len(reports) > 0 {
		t.Fatalf("untampered: %s", reports[0])
	}
	// Let the pods start.
	for d := m.NextDeadline(); !d.IsZero() && d.Before(start.Add(time.Minute)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	if len(reports) > 0 {
		t.Fatalf("untampered: %s", reports[0])
	}
	now := m.now.Add(time.Second)
	var r *podRun
	for _, n := range m.kubeletOrder() {
		for _, key := range slices.Sorted(maps.Keys(m.kubelets[n].pods)) {
			if r == nil {
				r = m.kubelets[n].pods[key]
			}
		}
	}
	if r == nil {
		t.Fatal("no pod runs")
	}
	r.m.Step(lifecycle.ContainerExited(r.m.Pod().Spec.Containers[0].Name, 1, "Error"), now)
	ns, name, _ := strings.Cut(r.key, "/")
	if _, err := m.Step(Do(Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: ns, Name: name}}), now); err != nil {
		t.Fatal(err)
	}
	for d := m.NextDeadline(); len(reports) == 0 && !d.IsZero() && d.Before(now.Add(10*time.Minute)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	if len(reports) == 0 || !strings.HasPrefix(reports[0], "kubelet "+r.key) {
		t.Fatalf("the tampered pod machine went unnoticed: %q", reports)
	}
	t.Logf("reported: %.200s", reports[0])
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
	calls := 0
	count := func(*api.Pod) (int, error) { calls++; return calls, nil }
	callPure1x2(m, "count", count, &api.Pod{})
	if len(reports) == 0 || !strings.Contains(reports[0], "count: result 0 differs") {
		t.Errorf("a function with hidden state went unnoticed: %q", reports)
	}
}
