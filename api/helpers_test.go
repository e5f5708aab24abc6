package api

// fataler is what objectAs needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// objectAs returns objs[i] as a T, failing t (rather than panicking) when
// the list is too short or the item is of another kind.
func objectAs[T Object](t fataler, objs []Object, i int) T {
	t.Helper()
	if i >= len(objs) {
		t.Fatalf("want at least %d objects, got %d", i+1, len(objs))
	}
	v, ok := objs[i].(T)
	if !ok {
		var want T
		t.Fatalf("object %d is a %T, want a %T", i, objs[i], want)
	}
	return v
}
