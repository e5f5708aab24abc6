package downward

import (
	"fmt"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
)

// envFieldPaths are the unsubscripted paths API validation admits in an
// environment variable's fieldRef (validEnvDownwardAPIFieldPathExpressions).
var envFieldPaths = []string{
	PathName, PathNamespace, PathUID, PathNodeName, PathServiceAccountName,
	PathHostIP, PathHostIPs, PathPodIP, PathPodIPs,
}

// volumeFieldPaths are the unsubscripted paths API validation admits in a
// downwardAPI volume file's fieldRef
// (validVolumeDownwardAPIFieldPathExpressions).
var volumeFieldPaths = []string{PathAnnotations, PathLabels, PathName, PathNamespace, PathUID}

// resourcePaths are the resources API validation admits in a
// resourceFieldRef besides requests.hugepages-* and limits.hugepages-*.
var resourcePaths = []string{
	LimitsCPU, LimitsEphemeralStorage, LimitsMemory,
	RequestsCPU, RequestsEphemeralStorage, RequestsMemory,
}

// AllowedFieldPaths returns the unsubscripted field paths the API server
// accepts for a fieldRef in mode, sorted. Both modes also accept
// metadata.labels['<key>'] and metadata.annotations['<key>']. Env has
// the per-pod runtime fields (spec.nodeName, spec.serviceAccountName,
// status.hostIP(s), status.podIP(s)); only Volume has the whole
// metadata.labels and metadata.annotations maps.
func AllowedFieldPaths(mode Mode) []string {
	var src []string
	if mode == Volume {
		src = volumeFieldPaths
	} else {
		src = envFieldPaths
	}
	out := append([]string(nil), src...)
	sort.Strings(out)
	return out
}

// ValidateFieldRef checks a fieldRef the way the API server validates a
// pod (pkg/apis/core/validation validateObjectFieldSelector), for an
// environment variable (Env) or a downwardAPI volume file (Volume), with
// fldPath the path of the fieldRef itself. apiVersion is required
// (api.DefaultPod sets "v1") and must be "v1"; the path must convert
// (CanonicalFieldPath, so spec.host is accepted as spec.nodeName); a
// subscript is allowed on metadata.labels (the key must be a qualified
// name) and metadata.annotations (the key must be one once lowercased)
// only; an unsubscripted path must be one of AllowedFieldPaths(mode).
func ValidateFieldRef(ref api.ObjectFieldSelector, mode Mode, fldPath api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if ref.APIVersion == "" {
		return append(errs, api.Required(fldPath.Child("apiVersion"), ""))
	}
	if ref.FieldPath == "" {
		return append(errs, api.Required(fldPath.Child("fieldPath"), ""))
	}
	internal, err := CanonicalFieldPath(ref.APIVersion, ref.FieldPath)
	if err != nil {
		return append(errs, api.Invalid(fldPath.Child("fieldPath"), ref.FieldPath, "error converting fieldPath: "+err.Error()))
	}
	if path, key, ok := SplitSubscript(internal); ok {
		switch path {
		case PathAnnotations:
			key = strings.ToLower(key)
		case PathLabels:
		default:
			return append(errs, api.Invalid(fldPath, path, "does not support subscript"))
		}
		for _, msg := range api.IsQualifiedName(key) {
			errs = append(errs, api.Invalid(fldPath, key, msg))
		}
		return errs
	}
	allowed := AllowedFieldPaths(mode)
	for _, p := range allowed {
		if p == internal {
			return nil
		}
	}
	return append(errs, api.NotSupported(fldPath.Child("fieldPath"), internal, allowed))
}

// validDivisors are the divisors API validation accepts, by the
// canonical spelling of the divisor.
var (
	cpuDivisors  = []string{"1m", "1"}
	sizeDivisors = []string{"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"}
)

// ValidateResourceFieldRef checks a resourceFieldRef the way the API
// server does (validateContainerResourceFieldSelector and
// validateContainerResourceDivisor), for an environment variable (Env)
// or a volume file (Volume, where containerName is required). The
// resource must be limits/requests of cpu, memory or ephemeral-storage,
// or start with limits.hugepages- or requests.hugepages-. A set divisor
// must be 1m or 1 for cpu, and one of 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki,
// 1Mi, 1Gi, 1Ti, 1Pi, 1Ei for memory, ephemeral-storage and huge pages
// (compared by canonical form, so 1000m counts as 1).
func ValidateResourceFieldRef(ref api.ResourceFieldSelector, mode Mode, fldPath api.Path) api.FieldErrors {
	var errs api.FieldErrors
	switch {
	case mode == Volume && ref.ContainerName == "":
		errs = append(errs, api.Required(fldPath.Child("containerName"), ""))
	case ref.Resource == "":
		errs = append(errs, api.Required(fldPath.Child("resource"), ""))
	case !contains(resourcePaths, ref.Resource) && !isHugePagesRef(ref.Resource):
		errs = append(errs, api.NotSupported(fldPath.Child("resource"), ref.Resource, resourcePaths))
	}
	if ref.Divisor == nil || ref.Divisor.IsZero() {
		return errs
	}
	d := ref.Divisor.String()
	switch ref.Resource {
	case LimitsCPU, RequestsCPU:
		if !contains(cpuDivisors, d) {
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case LimitsMemory, RequestsMemory, LimitsEphemeralStorage, RequestsEphemeralStorage:
		if !contains(sizeDivisors, d) {
			kind := "memory"
			if strings.HasSuffix(ref.Resource, "ephemeral-storage") {
				kind = "local ephemeral storage"
			}
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource,
				fmt.Sprintf("only divisor's values %s are supported with the %s resource", strings.Join(sizeDivisors, ", "), kind)))
		}
	default:
		if isHugePagesRef(ref.Resource) && !contains(sizeDivisors, d) {
			errs = append(errs, api.Invalid(fldPath.Child("divisor"), ref.Resource,
				fmt.Sprintf("only divisor's values %s are supported with the hugepages resource", strings.Join(sizeDivisors, ", "))))
		}
	}
	return errs
}

// ValidateVolumeFile checks one item of a downwardAPI volume or
// projection as the API server does (validateDownwardAPIVolumeFile):
// a relative path without ".." elements that does not start with "..",
// exactly one of fieldRef and resourceFieldRef (each validated in Volume
// mode), and a mode between 0 and 0777.
func ValidateVolumeFile(file api.DownwardAPIVolumeFile, fldPath api.Path) api.FieldErrors {
	var errs api.FieldErrors
	p := fldPath.Child("path")
	if file.Path == "" {
		errs = append(errs, api.Required(p, ""))
	}
	if strings.HasPrefix(file.Path, "/") {
		errs = append(errs, api.Invalid(p, file.Path, "must be a relative path"))
	}
	for _, part := range strings.Split(file.Path, "/") {
		if part == ".." {
			errs = append(errs, api.Invalid(p, file.Path, "must not contain '..'"))
			break
		}
	}
	if strings.HasPrefix(file.Path, "..") && !strings.HasPrefix(file.Path, "../") {
		errs = append(errs, api.Invalid(p, file.Path, "must not start with '..'"))
	}
	switch {
	case file.FieldRef != nil:
		errs = append(errs, ValidateFieldRef(*file.FieldRef, Volume, fldPath.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			errs = append(errs, api.Invalid(fldPath, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		errs = append(errs, ValidateResourceFieldRef(*file.ResourceFieldRef, Volume, fldPath.Child("resourceFieldRef"))...)
	default:
		errs = append(errs, api.Required(fldPath, "one of fieldRef and resourceFieldRef is required"))
	}
	if file.Mode != nil && (*file.Mode > 0o777 || *file.Mode < 0) {
		errs = append(errs, api.Invalid(fldPath.Child("mode"), *file.Mode, "must be a number between 0 and 0777 (octal), both inclusive"))
	}
	return errs
}

func isHugePagesRef(resource string) bool {
	return strings.HasPrefix(resource, "limits.hugepages-") || strings.HasPrefix(resource, "requests.hugepages-")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
