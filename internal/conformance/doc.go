// Package conformance loads the conformance vectors — cases whose answers
// were produced by running Kubernetes v1.36.3's own code — and holds the
// helpers the conformance test uses to compare podsem's answers with them.
//
// The test in this package reads every *.json family in ../shared/conformance
// (or $PODSEM_CONFORMANCE_DIR), dispatches each family by name to an adapter
// that runs the case through podsem's public API, and prints one line per
// family: "conformance: <family>: N passed, M failed". A family without an
// adapter prints "not implemented (N cases)"; it, and any mismatch, fails
// the test. It also checks that every
// Kubernetes object inside every vector decodes into the api types and
// encodes back without losing a value.
package conformance
