// Package sample is parsed (never built) by niltest's own tests: each
// exported function's comment says whether Nilable lists it.
package sample

import (
	"context"
	"time"

	"github.com/podsem/podsem/api"
)

type Obj struct{ N int }

type Fn func()

type Names []string

type Labels map[string]string

type Doer interface{ Do() }

type Count int

type unexported struct{}

// Listed: a pointer.
func Ptr(o *Obj) {}

// Listed: a slice.
func Slice(s []int) {}

// Listed: variadic.
func Variadic(s ...int) {}

// Listed: a map.
func Map(m map[string]int) {}

// Listed: a func.
func Func(f func()) {}

// Listed: a channel.
func Chan(c chan int) {}

// Listed: an interface literal, any and error.
func Iface(v interface{ M() }) {}
func Any(v any)                {}
func Err(err error)            {}

// Listed: named types of this package.
func NamedFunc(f Fn)       {}
func NamedSlice(n Names)   {}
func NamedMap(l Labels)    {}
func NamedIface(d Doer)    {}
func NamedPtr(p *Count)    {}
func Second(n int, o *Obj) {}

// Listed: a named type of the module (api.ResourceList is a map) and of
// the standard library (context.Context is an interface).
func ModuleMap(l api.ResourceList) {}
func StdIface(ctx context.Context) {}

// Not listed: values.
func Value(o Obj, n int, s string, c Count) {}
func Array(a [3]int)                        {}
func ModuleValue(q api.Quantity)            {}
func StdValue(t time.Time, d time.Duration) {}
func Generic[T any](v T)                    {}
func unexportedFunc(o *Obj)                 {}
func NoParams() *Obj                        { return nil }

// Listed: a pointer receiver, a map receiver, and a value receiver with a
// nilable parameter.
func (o *Obj) PtrRecv()           {}
func (l Labels) MapRecv()         {}
func (o Obj) ValueRecvArg(p *Obj) {}

// Not listed: a value receiver without nilable parameters, and methods of
// unexported types.
func (o Obj) ValueRecv()      {}
func (u *unexported) Hidden() {}
