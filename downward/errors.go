package downward

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers can tell the kinds apart with errors.Is; the messages name the
// field path, resource or object and the value involved.
var (
	// ErrUnsupportedVersion: a fieldRef's apiVersion is not "v1" (only the
	// environment-variable path checks it, as the kubelet's
	// ConvertDownwardAPIFieldLabel does).
	ErrUnsupportedVersion = errors.New("unsupported pod version")

	// ErrUnsupportedField: the field path names no field the downward API
	// resolves on this path, or uses a subscript where none is allowed.
	ErrUnsupportedField = errors.New("unsupported field path")

	// ErrInvalidKey: the key inside metadata.labels['...'] or
	// metadata.annotations['...'] is not a valid qualified name.
	ErrInvalidKey = errors.New("invalid key subscript")

	// ErrUnsupportedResource: a resourceFieldRef names a resource the
	// downward API does not expose.
	ErrUnsupportedResource = errors.New("unsupported container resource")

	// ErrContainerNotFound: the named container is neither a container nor
	// an init container of the pod.
	ErrContainerNotFound = errors.New("container not found")

	// ErrNoNode: the answer needs the kubelet's Node object (host IPs,
	// allocatable) and the Context carries none, or the node has no usable
	// InternalIP/ExternalIP address.
	ErrNoNode = errors.New("node information unavailable")

	// ErrNotFound is what a Lookup returns (possibly wrapped) when a
	// ConfigMap, Secret, env file or key does not exist. Optional
	// references to missing objects are then skipped, as the kubelet does.
	ErrNotFound = errors.New("not found")

	// ErrMissingKey: a non-optional configMapKeyRef, secretKeyRef or
	// fileKeyRef names a key its object lacks.
	ErrMissingKey = errors.New("key not found")

	// ErrInvalidPath: a volume file's path would leave the volume
	// directory or take the kubelet's reserved "..data" names: it is
	// empty, absolute, has a ".." element or starts with "..". The error
	// also wraps the API server's *api.FieldError for the path.
	ErrInvalidPath = errors.New("invalid volume file path")

	// ErrExpansionLimit: expanding a container's env values would produce
	// more than MaxExpandedEnvironmentBytes. The error names the entry.
	ErrExpansionLimit = errors.New("expanded environment too large")

	// ErrNoLookup: the container references ConfigMaps, Secrets or env
	// files and no Lookup was given (the kubelet's "no kubeClient defined").
	ErrNoLookup = errors.New("no lookup for configMaps, secrets or env files")
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors for arguments a function cannot work with at all (a nil object)
// wrap it and name the argument, so errors.Is(err, api.ErrInvalidInput)
// holds across podsem.
var errInvalidInput = fmt.Errorf("downward: %w", api.ErrInvalidInput)
