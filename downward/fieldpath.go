package downward

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// The field paths a fieldRef may name. Which of them a given path
// resolves is decided by the path (Env or Volume mode), see FieldRef.
const (
	PathName               = "metadata.name"
	PathNamespace          = "metadata.namespace"
	PathUID                = "metadata.uid"
	PathLabels             = "metadata.labels"
	PathAnnotations        = "metadata.annotations"
	PathNodeName           = "spec.nodeName"
	PathServiceAccountName = "spec.serviceAccountName"
	PathHostIP             = "status.hostIP"
	PathHostIPs            = "status.hostIPs"
	PathPodIP              = "status.podIP"
	PathPodIPs             = "status.podIPs"

	// PathHost is the pre-v1 spelling of spec.nodeName, still accepted
	// by the field-label conversion for old clients.
	PathHost = "spec.host"
)

// SplitSubscript splits a subscripted field path such as
// metadata.labels['app'] into its path ("metadata.labels") and key
// ("app"), as pkg/fieldpath's SplitMaybeSubscriptedPath does. A path is
// subscripted when it ends in "']" and holds "['" after a non-empty
// prefix; the key is everything between the first "['" and the final
// "']", so metadata.annotations['a[b]c'] has the key a[b]c, and a key
// may be empty (rejected later, as not a qualified name). Anything else
// comes back unchanged with ok false.
func SplitSubscript(fieldPath string) (path, key string, ok bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return fieldPath, "", false
	}
	inner := fieldPath[:len(fieldPath)-2]
	i := strings.Index(inner, "['")
	if i <= 0 {
		return fieldPath, "", false
	}
	return inner[:i], inner[i+2:], true
}

// FormatMap renders a label or annotation map as the downward API shows
// a whole map (pkg/fieldpath FormatMap): one key="value" line per entry,
// keys in byte order, values quoted as Go's strconv.Quote does (so a
// newline is \n, a quote \" and non-printable bytes are escaped), lines
// joined by "\n" with no trailing newline. An empty map gives "".
func FormatMap(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	n := 0
	for k, v := range m {
		keys = append(keys, k)
		n += len(k) + len(v) + 4
	}
	sort.Strings(keys)
	var b strings.Builder
	b.Grow(n)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(m[k]))
	}
	return b.String()
}

// CanonicalFieldPath is the API server's field-label conversion for the
// downward API (pkg/apis/core/pods ConvertDownwardAPIFieldLabel): it
// accepts apiVersion "v1" only ("" counts as "v1", the API default), lets
// subscripts only on metadata.labels and metadata.annotations (the key is
// not checked here), maps the legacy spec.host to spec.nodeName, and
// accepts exactly these unsubscripted paths: metadata.name,
// metadata.namespace, metadata.uid, metadata.labels,
// metadata.annotations, spec.nodeName, spec.serviceAccountName,
// spec.restartPolicy, spec.schedulerName, status.phase, status.hostIP,
// status.hostIPs, status.podIP and status.podIPs. Passing this check does
// not make a path resolvable: the kubelet cannot resolve
// spec.restartPolicy, spec.schedulerName or status.phase.
func CanonicalFieldPath(apiVersion, fieldPath string) (string, error) {
	if apiVersion != "" && apiVersion != "v1" {
		return "", fmt.Errorf("%w: %q (fieldPath %q)", ErrUnsupportedVersion, apiVersion, fieldPath)
	}
	if path, _, ok := SplitSubscript(fieldPath); ok {
		switch path {
		case PathAnnotations, PathLabels:
			return fieldPath, nil
		}
		return "", fmt.Errorf("%w: field label does not support subscript: %q", ErrUnsupportedField, fieldPath)
	}
	switch fieldPath {
	case PathAnnotations, PathLabels, PathName, PathNamespace, PathUID,
		PathNodeName, "spec.restartPolicy", PathServiceAccountName, "spec.schedulerName",
		"status.phase", PathHostIP, PathHostIPs, PathPodIP, PathPodIPs:
		return fieldPath, nil
	case PathHost:
		return PathNodeName, nil
	}
	return "", fmt.Errorf("%w: field label not supported: %q", ErrUnsupportedField, fieldPath)
}

// metadataField resolves the metadata paths the downward API reads
// straight from the object (pkg/fieldpath ExtractFieldPathAsString):
// name, namespace, uid, the whole label and annotation maps, and one
// label or annotation by key. A missing key gives "". Label keys must be
// qualified names; annotation keys are checked lowercased, so
// metadata.annotations['Example.com/Key'] is accepted (and looked up with
// its original case).
func metadataField(meta *api.ObjectMeta, fieldPath string) (string, error) {
	if path, key, ok := SplitSubscript(fieldPath); ok {
		switch path {
		case PathAnnotations:
			if msgs := api.IsQualifiedName(strings.ToLower(key)); len(msgs) != 0 {
				return "", fmt.Errorf("%w in %q: %s", ErrInvalidKey, fieldPath, strings.Join(msgs, ";"))
			}
			return meta.Annotations[key], nil
		case PathLabels:
			if msgs := api.IsQualifiedName(key); len(msgs) != 0 {
				return "", fmt.Errorf("%w in %q: %s", ErrInvalidKey, fieldPath, strings.Join(msgs, ";"))
			}
			return meta.Labels[key], nil
		}
		return "", fmt.Errorf("%w: %q does not support a subscript", ErrUnsupportedField, fieldPath)
	}
	switch fieldPath {
	case PathAnnotations:
		return FormatMap(meta.Annotations), nil
	case PathLabels:
		return FormatMap(meta.Labels), nil
	case PathName:
		return meta.Name, nil
	case PathNamespace:
		return meta.Namespace, nil
	case PathUID:
		return meta.UID, nil
	}
	return "", fmt.Errorf("%w: %q", ErrUnsupportedField, fieldPath)
}
