package niltest

import (
	"fmt"
	"slices"
	"testing"
)

func TestNilable(t *testing.T) {
	got, err := Nilable("testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"(*Obj).PtrRecv", "Any", "Chan", "Err", "Func", "Iface", "Labels.MapRecv", "Map",
		"ModuleMap", "NamedFunc", "NamedIface", "NamedMap", "NamedPtr", "NamedSlice",
		"Obj.ValueRecvArg", "Ptr", "Second", "Slice", "StdIface", "Variadic",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Nilable:\n got %q\nwant %q", got, want)
	}
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	all, err := Nilable("testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(*testing.T){}
	for _, n := range all {
		cases[n] = func(*testing.T) {}
	}
	r := &recorder{TB: t}
	Check(r, "testdata/sample", cases, nil)
	if len(r.errs) != 0 {
		t.Errorf("a complete table: %q", r.errs)
	}

	delete(cases, "Ptr")
	cases["Gone"] = func(*testing.T) {}
	r = &recorder{TB: t}
	Check(r, "testdata/sample", cases, map[string]string{"Slice": "a test of exclusions", "Vanished": "stale"})
	want := []string{
		"Ptr can be handed nil but the nil table has no case for it",
		"the nil table covers Gone, which is not an exported function or method that can be handed nil",
		"Vanished is excluded, but it is not an exported function or method that can be handed nil",
	}
	if !slices.Equal(r.errs, want) {
		t.Errorf("an incomplete table:\n got %q\nwant %q", r.errs, want)
	}
}

func TestZeroAndInvalid(t *testing.T) {
	r := &recorder{TB: t}
	Zero(r, 0, "", false, nil, struct{ A int }{})
	if len(r.errs) != 0 {
		t.Errorf("zero values: %q", r.errs)
	}
	Zero(r, 1, "x")
	if len(r.errs) != 2 {
		t.Errorf("non-zero values: %q", r.errs)
	}
	sentinel := fmt.Errorf("pkg: invalid input")
	r = &recorder{TB: t}
	Invalid(r, fmt.Errorf("%w: pod: nil", sentinel), sentinel, "pod")
	if len(r.errs) != 0 {
		t.Errorf("a wrapped sentinel naming the argument: %q", r.errs)
	}
	Invalid(r, fmt.Errorf("%w: node: nil", sentinel), sentinel, "pod")
	Invalid(r, fmt.Errorf("pod: nil"), sentinel, "pod")
	Invalid(r, nil, sentinel, "pod")
	if len(r.errs) != 3 {
		t.Errorf("wrong argument, no sentinel, no error: %q", r.errs)
	}
}
