package api

import "strings"

// This file holds the API server's rules for paths inside a volume
// (pkg/apis/core/validation validateLocalDescendingPath and friends):
// the items of configMap, secret, downwardAPI and projected volumes, a
// volume mount's subPath and a gitRepo directory. The kubelet's atomic
// writer (pkg/volume/util AtomicWriter) refuses the same paths before it
// writes a volume's files. One home, so that package validation and the
// downward API's volume files give the same answer with the same
// message.

// ValidateLocalDescendingPath requires path to stay below the directory
// it is relative to: not absolute ("must be a relative path") and
// without a ".." element ("must not contain '..'"), reported at fldPath
// with path as the value, as the API server does. Elements are separated
// by "/" only, as on the API server's Linux (a backslash is an ordinary
// character there). The empty path passes; callers that require one say
// so themselves.
func ValidateLocalDescendingPath(path string, fldPath Path) FieldErrors {
	var errs FieldErrors
	if strings.HasPrefix(path, "/") {
		errs = append(errs, Invalid(fldPath, path, "must be a relative path"))
	}
	return append(errs, ValidatePathNoBacksteps(path, fldPath)...)
}

// ValidateLocalNonReservedPath is ValidateLocalDescendingPath that also
// refuses a path whose first element starts with ".." ("must not start
// with '..'"), such as "..data", the name the kubelet's atomic writer
// gives its own directory of a volume's current files. That error is
// left out when the ".." element check has already caught the path.
// The API server applies it to the items of configMap, secret,
// downwardAPI and projected volumes.
func ValidateLocalNonReservedPath(path string, fldPath Path) FieldErrors {
	errs := ValidateLocalDescendingPath(path, fldPath)
	if strings.HasPrefix(path, "..") && !strings.HasPrefix(path, "../") {
		errs = append(errs, Invalid(fldPath, path, "must not start with '..'"))
	}
	return errs
}

// ValidatePathNoBacksteps refuses a path with ".." as one of its
// "/"-separated elements ("must not contain '..'"), once however many
// there are, as the API server checks hostPath paths and
// ValidateLocalDescendingPath builds on.
func ValidatePathNoBacksteps(path string, fldPath Path) FieldErrors {
	for part := range strings.SplitSeq(path, "/") {
		if part == ".." {
			return FieldErrors{Invalid(fldPath, path, "must not contain '..'")}
		}
	}
	return nil
}
