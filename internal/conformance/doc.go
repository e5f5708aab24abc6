// Package conformance loads the conformance vectors — cases whose answers
// were produced by running Kubernetes v1.36.3's own code — and holds the
// helpers the conformance test uses to compare podsem's answers with them.
//
// The vectors come from $PODSEM_CONFORMANCE_DIR when it is set, else from
// ../shared/conformance next to the module when that exists, else from the
// module's own gzip-compressed copy in testdata/vectors, so a fresh clone
// runs them too (Pick; the test prints which one it read). .ci/sync-vectors
// refreshes the copy and .ci/run fails when it differs from
// ../shared/conformance.
//
// The test reads every family at the top of that directory and in its
// next/ subdirectory (the families of open issues), dispatches each family
// by name to an adapter that runs the case through podsem's public API, and
// prints one line per family: "conformance: <family>: N passed, M failed".
// A top-level family without an adapter prints "not implemented (N
// cases)"; it, and any mismatch, fails the test. A next/ family without an
// adapter prints "pending (N cases)" and does not fail; with one, it must
// pass like the others. The test also checks that every Kubernetes object
// inside every vector decodes into the api types and encodes back without
// losing a value (objects of next/ families whose kind api does not decode
// yet are counted and skipped).
package conformance
