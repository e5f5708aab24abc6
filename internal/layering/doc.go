// Package layering keeps the module's import graph in the order of its
// design: api at the bottom, importing only api/... (api/validation also
// uses downward's field-path vocabulary); the semantic packages above it,
// each importing only packages of a lower rank, so that arrows run one way
// and there are no cycles; proptest, the internal tooling, cmd/ and
// examples/ on top. Its tests also keep the semantic packages a pure core:
// no os, net, net/http or os/exec imports, no wall clock (time.Now,
// time.Since and friends), no goroutines. They read the module's source
// with go/parser and need no network. It has no code of its own.
package layering
