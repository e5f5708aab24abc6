// Package readme keeps the module's README honest: its tests check that
// every Go block of the README's tour is the whole of an example test
// file, compiles on its own and links its Examples on pkg.go.dev, that the conformance table lists every vector family
// with its public case count, and that every program under examples/ is
// in the examples table. It has no code of its own.
package readme
