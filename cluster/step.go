package cluster

import "time"

// Every call the composition makes to a component's machine (its Step)
// or to a pure function of a podsem package that decides something goes
// through the helpers of this file, so that the package's own tests can
// watch it (shadow_test.go): each machine has a twin built with the same
// constructor and stepped with the same input at the same instant, and
// every answer must be the twin's — the composition adds no rule of its
// own and never reaches into a machine's state or input. With no watcher
// installed (always, outside the tests) a helper is the plain call.

// stepWatcher sees the calls the composition makes; the package's tests
// install one in Machine.shadow.
type stepWatcher interface {
	// step is told of a machine's Step before it runs (name: the
	// component, key: the object or node it serves) and returns what
	// to call with the results.
	step(name, key string, machine, in any, now time.Time) func(out ...any)
	// call is told of a call of a pure function f with args before it
	// runs and returns what to call with its results.
	call(name string, f any, args []any) func(out ...any)
}

// stepMachine steps a machine whose Step has two results ((Output,
// error), or the pod's (status, actions)).
func stepMachine[I, A, B any, M interface{ Step(I, time.Time) (A, B) }](m *Machine, name, key string, machine M, in I, now time.Time) (A, B) {
	if m.shadow == nil {
		return machine.Step(in, now)
	}
	after := m.shadow.step(name, key, machine, in, now)
	a, b := machine.Step(in, now)
	after(a, b)
	return a, b
}

// stepMachine1 steps a machine whose Step has one result (pod GC's
// pass, a probe worker's report, the eviction manager's pass).
func stepMachine1[I, A any, M interface{ Step(I, time.Time) A }](m *Machine, name, key string, machine M, in I, now time.Time) A {
	if m.shadow == nil {
		return machine.Step(in, now)
	}
	after := m.shadow.step(name, key, machine, in, now)
	a := machine.Step(in, now)
	after(a)
	return a
}

// callPure5 returns f's answer to the composition's inputs: a pure
// function of a podsem package (disruption.Evict, disruption.PlanDrain).
func callPure5[A, B, C, D, E, R any](m *Machine, name string, f func(A, B, C, D, E) R, a A, b B, c C, d D, e E) R {
	if m.shadow == nil {
		return f(a, b, c, d, e)
	}
	after := m.shadow.call(name, f, []any{a, b, c, d, e})
	r := f(a, b, c, d, e)
	after(r)
	return r
}

// callPure4x2 is callPure5 for a function of four arguments and two
// results (disruption.Evaluate).
func callPure4x2[A, B, C, D, R, S any](m *Machine, name string, f func(A, B, C, D) (R, S), a A, b B, c C, d D) (R, S) {
	if m.shadow == nil {
		return f(a, b, c, d)
	}
	after := m.shadow.call(name, f, []any{a, b, c, d})
	r, s := f(a, b, c, d)
	after(r, s)
	return r, s
}

// callPure1x2 is callPure5 for a function of one argument and two
// results (lifecycle.Admit).
func callPure1x2[A, R, S any](m *Machine, name string, f func(A) (R, S), a A) (R, S) {
	if m.shadow == nil {
		return f(a)
	}
	after := m.shadow.call(name, f, []any{a})
	r, s := f(a)
	after(r, s)
	return r, s
}

// callPure6x3 is callPure5 for a function of six arguments and three
// results (managedfields.Apply).
func callPure6x3[A, B, C, D, E, F, R, S, T any](m *Machine, name string, f func(A, B, C, D, E, F) (R, S, T), a A, b B, c C, d D, e E, g F) (R, S, T) {
	if m.shadow == nil {
		return f(a, b, c, d, e, g)
	}
	after := m.shadow.call(name, f, []any{a, b, c, d, e, g})
	r, s, t := f(a, b, c, d, e, g)
	after(r, s, t)
	return r, s, t
}

// callPure5x2 is callPure5 for a function of five arguments and two
// results (managedfields.Update).
func callPure5x2[A, B, C, D, E, R, S any](m *Machine, name string, f func(A, B, C, D, E) (R, S), a A, b B, c C, d D, e E) (R, S) {
	if m.shadow == nil {
		return f(a, b, c, d, e)
	}
	after := m.shadow.call(name, f, []any{a, b, c, d, e})
	r, s := f(a, b, c, d, e)
	after(r, s)
	return r, s
}
