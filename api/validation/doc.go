// Package validation is the Kubernetes API server's validation of pods:
// what POST, PUT and the ephemeralcontainers subresource refuse, with
// upstream's field paths and error types (pkg/apis/core/validation).
package validation
