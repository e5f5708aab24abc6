package validation

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

// envFieldPaths are the unsubscripted paths API validation admits in an
// environment variable's fieldRef (validEnvDownwardAPIFieldPathExpressions).
var envFieldPaths = []string{
	downward.PathName, downward.PathNamespace, downward.PathUID, downward.PathNodeName, downward.PathServiceAccountName,
	downward.PathHostIP, downward.PathHostIPs, downward.PathPodIP, downward.PathPodIPs,
}

// volumeFieldPaths are the unsubscripted paths API validation admits in a
// downwardAPI volume file's fieldRef
// (validVolumeDownwardAPIFieldPathExpressions).
var volumeFieldPaths = []string{downward.PathAnnotations, downward.PathLabels, downward.PathName, downward.PathNamespace, downward.PathUID}

// resourceFieldPaths are the resources API validation admits in a
// resourceFieldRef besides requests.hugepages-* and limits.hugepages-*
// (validContainerResourceFieldPathExpressions).
var resourceFieldPaths = []string{
	downward.LimitsCPU, downward.LimitsEphemeralStorage, downward.LimitsMemory,
	downward.RequestsCPU, downward.RequestsEphemeralStorage, downward.RequestsMemory,
}

// The divisors API validation accepts, by their canonical spelling
// (validateContainerResourceDivisor).
var (
	cpuDivisors  = []string{"1m", "1"}
	sizeDivisors = []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}
)

// DownwardAPIFieldPaths returns the unsubscripted field paths the API
// server accepts in a fieldRef for mode, sorted: in downward.Env the
// identity and per-pod runtime fields (metadata.name, metadata.namespace,
// metadata.uid, spec.nodeName, spec.serviceAccountName, status.hostIP(s),
// status.podIP(s)), in downward.Volume the identity fields and the whole
// metadata.labels and metadata.annotations maps. Both modes also accept
// metadata.labels['<key>'] and metadata.annotations['<key>']. This is
// the API server's list (pkg/apis/core/validation); the kubelet resolves
// a little more (see downward.FieldRef).
func DownwardAPIFieldPaths(mode downward.Mode) []string {
	src := envFieldPaths
	if mode == downward.Volume {
		src = volumeFieldPaths
	}
	out := slices.Clone(src)
	sort.Strings(out)
	return out
}

// ValidateObjectFieldSelector checks a fieldRef the way the API server
// validates it in a pod (pkg/apis/core/validation
// validateObjectFieldSelector), for an environment variable
// (downward.Env) or a downwardAPI volume file (downward.Volume), with
// fldPath the path of the fieldRef itself. apiVersion is required
// (api.DefaultPod sets "v1") and must be "v1"; the path must pass the
// field-label conversion (downward.CanonicalFieldPath, so spec.host is
// accepted as spec.nodeName); a subscript is allowed on metadata.labels
// (the key must be a qualified name) and metadata.annotations (the key
// must be one once lowercased) only; an unsubscripted path must be one
// of DownwardAPIFieldPaths(mode).
func ValidateObjectFieldSelector(ref api.ObjectFieldSelector, mode downward.Mode, fldPath api.Path) api.FieldErrors {
	if ref.APIVersion == "" {
		return api.FieldErrors{api.Required(fldPath.Child("apiVersion"), "")}
	}
	if ref.FieldPath == "" {
		return api.FieldErrors{api.Required(fldPath.Child("fieldPath"), "")}
	}
	internal, err := downward.CanonicalFieldPath(ref.APIVersion, ref.FieldPath)
	if err != nil {
		return api.FieldErrors{api.Invalid(fldPath.Child("fieldPath"), ref.FieldPath, "error converting fieldPath: "+err.Error())}
	}
	if path, key, ok := downward.SplitSubscript(internal); ok {
		switch path {
		case downward.PathAnnotations:
			key = strings.ToLower(key)
		case downward.PathLabels:
		default:
			return api.FieldErrors{api.Invalid(fldPath, path, "does not support subscript")}
		}
		var errs api.FieldErrors
		for _, msg := range api.IsQualifiedName(key) {
			errs = append(errs, api.Invalid(fldPath, key, msg))
		}
		return errs
	}
	allowed := DownwardAPIFieldPaths(mode)
	if slices.Contains(allowed, internal) {
		return nil
	}
	return api.FieldErrors{api.NotSupported(fldPath.Child("fieldPath"), internal, allowed)}
}

// ValidateResourceFieldSelector checks a resourceFieldRef the way the
// API server does (pkg/apis/core/validation
// validateContainerResourceFieldSelector and
// validateContainerResourceDivisor), for an environment variable
// (downward.Env) or a volume file (downward.Volume, where containerName
// is required). The resource must be limits/requests of cpu, memory or
// ephemeral-storage, or start with limits.hugepages- or
// requests.hugepages-. A set divisor must be 1m or 1 for cpu, and one of
// 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei for memory,
// ephemeral-storage and huge pages (compared by canonical form, so 1000m
// counts as 1).
func ValidateResourceFieldSelector(ref api.ResourceFieldSelector, mode downward.Mode, fldPath api.Path) api.FieldErrors {
	var errs api.FieldErrors
	switch {
	case mode == downward.Volume && ref.ContainerName == "":
		errs = append(errs, api.Required(fldPath.Child("containerName"), ""))
	case ref.Resource == "":
		errs = append(errs, api.Required(fldPath.Child("resource"), ""))
	case !slices.Contains(resourceFieldPaths, ref.Resource) && !isHugePagesRef(ref.Resource):
		errs = append(errs, api.NotSupported(fldPath.Child("resource"), ref.Resource, resourceFieldPaths))
	}
	if ref.Divisor == nil || ref.Divisor.IsZero() {
		return errs
	}
	d := ref.Divisor.String()
	switch ref.Resource {
	case downward.LimitsCPU, downward.RequestsCPU:
		if !slices.Contains(cpuDivisors, d) {
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case downward.LimitsMemory, downward.RequestsMemory, downward.LimitsEphemeralStorage, downward.RequestsEphemeralStorage:
		if !slices.Contains(sizeDivisors, d) {
			kind := "memory"
			if strings.HasSuffix(ref.Resource, "ephemeral-storage") {
				kind = "local ephemeral storage"
			}
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource,
				fmt.Sprintf("only divisor's values %s are supported with the %s resource", strings.Join(sizeDivisors, ", "), kind)))
		}
	default:
		if isHugePagesRef(ref.Resource) && !slices.Contains(sizeDivisors, d) {
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource,
				fmt.Sprintf("only divisor's values %s are supported with the hugepages resource", strings.Join(sizeDivisors, ", "))))
		}
	}
	return errs
}

// ValidateDownwardAPIVolumeFile checks one item of a downwardAPI volume
// or projection as the API server does (pkg/apis/core/validation
// validateDownwardAPIVolumeFile): a relative path without ".." elements
// that does not start with "..", exactly one of fieldRef and
// resourceFieldRef (each validated in downward.Volume mode), and a mode
// between 0 and 0777. fldPath is where upstream reports the item's
// errors: for a pod's downwardAPI volume that is the volume's
// downwardAPI field itself, not the item's index.
func ValidateDownwardAPIVolumeFile(file api.DownwardAPIVolumeFile, fldPath api.Path) api.FieldErrors {
	var errs api.FieldErrors
	p := fldPath.Child("path")
	if file.Path == "" {
		errs = append(errs, api.Required(p, ""))
	}
	errs = append(errs, api.ValidateLocalNonReservedPath(file.Path, p)...)
	switch {
	case file.FieldRef != nil:
		errs = append(errs, ValidateObjectFieldSelector(*file.FieldRef, downward.Volume, fldPath.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			errs = append(errs, api.Invalid(fldPath, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		errs = append(errs, ValidateResourceFieldSelector(*file.ResourceFieldRef, downward.Volume, fldPath.Child("resourceFieldRef"))...)
	default:
		errs = append(errs, api.Required(fldPath, "one of fieldRef and resourceFieldRef is required"))
	}
	errs = append(errs, validateFileMode(file.Mode, fldPath.Child("mode"))...)
	return errs
}

func isHugePagesRef(resource string) bool {
	return strings.HasPrefix(resource, "limits.hugepages-") || strings.HasPrefix(resource, "requests.hugepages-")
}
