// Package readme keeps the module's README honest: its tests check that
// every Go snippet of the README's tour is an excerpt of a compiled
// Example function, that the conformance table lists every vector family
// with its public case count, and that every program under examples/ is
// in the examples table. It has no code of its own.
package readme
