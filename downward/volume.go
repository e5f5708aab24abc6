package downward

import (
	"errors"
	"fmt"
	"path"
	"sort"

	"github.com/podsem/podsem/api"
)

// DefaultFileMode is the mode of a volume file when neither the item nor
// the volume's defaultMode sets one (the API default for defaultMode,
// 0644).
const DefaultFileMode int32 = 0o644

// File is one file of a downwardAPI or projected volume: its path
// relative to the mount point, its content and its mode bits as the
// volume plugin writes them.
type File struct {
	Path string
	Data string
	Mode int32
}

// VolumeFiles returns the files a pod's downwardAPI or projected volume
// shows, sorted by path, as the kubelet's volume plugins compute them
// (pkg/volume/downwardapi CollectData, pkg/volume/projected).
//
// downwardAPI items (of a downwardAPI volume, or of a projected volume's
// downwardAPI sources): the path is cleaned (path.Clean); the mode is the
// item's mode, else the volume's defaultMode, else 0644; a fieldRef is
// resolved with FieldRef in Volume mode (apiVersion is not consulted) and
// a resourceFieldRef reads the named container or init container with
// its unset or zero cpu, memory and ephemeral-storage limits taken from
// allocatable (the node's status.allocatable; pod-level limits are not
// consulted on this path, unlike for environment variables), rounded up
// after division by the divisor.
//
// A projected volume's configMap and secret sources are read through
// lookup: all keys as files, or only the listed items (a missing key is
// an error unless the source is optional); a missing optional object
// adds nothing. serviceAccountToken sources are not modelled (only the
// API server can mint the token) and add no file. Later sources win on
// equal paths.
//
// Every file path must stay inside the volume, by the API server's rule
// for these items (api.ValidateLocalNonReservedPath, which the kubelet's
// atomic writer enforces again before writing): a downwardAPI item's or
// a configMap or secret item's path, and a key listed without items,
// must be non-empty, relative, without a ".." element and must not start
// with "..". A file whose path breaks the rule is left out of the result
// and contributes an error wrapping ErrInvalidPath and the API server's
// *api.FieldError (field, value and message, e.g.
// spec.volumes[0].downwardAPI.path: Invalid value: "../x": must not
// contain '..'; the field is the volume's index in pod.Spec.Volumes,
// found by name). Every returned path is therefore local to the volume.
//
// Every other item that cannot be resolved contributes an error; the
// result then still lists those files (empty) and the error joins all
// failures, as the kubelet reports them before refusing to set the
// volume up. A volume of any other kind is an error. A nil lookup is none
// (ErrNoLookup when a source needs one); a nil pod or volume is an error
// wrapping api.ErrInvalidInput.
func VolumeFiles(pod *api.Pod, vol *api.Volume, allocatable api.ResourceList, lookup Lookup) ([]File, error) {
	switch {
	case pod == nil:
		return nil, fmt.Errorf("%w: pod: nil", errInvalidInput)
	case vol == nil:
		return nil, fmt.Errorf("%w: volume: nil", errInvalidInput)
	}
	files := map[string]File{}
	var errs []error
	fld := volumePath(pod, vol.Name)
	switch {
	case vol.DownwardAPI != nil:
		mode := modeOr(vol.DownwardAPI.DefaultMode, DefaultFileMode)
		errs = collectDownward(files, pod, vol.DownwardAPI.Items, mode, allocatable, fmt.Sprintf("volume %q", vol.Name), fld.Child("downwardAPI"))
	case vol.Projected != nil:
		mode := modeOr(vol.Projected.DefaultMode, DefaultFileMode)
		for i, src := range vol.Projected.Sources {
			where := fmt.Sprintf("volume %q source %d", vol.Name, i)
			sp := fld.Child("projected", "sources").Index(i)
			switch {
			case src.DownwardAPI != nil:
				errs = append(errs, collectDownward(files, pod, src.DownwardAPI.Items, mode, allocatable, where, sp.Child("downwardAPI"))...)
			case src.ConfigMap != nil:
				data, skip, err := fetchConfigMap(lookup, pod.Namespace, src.ConfigMap.Name, src.ConfigMap.Optional)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", where, err))
				} else if !skip {
					errs = append(errs, collectKeys(files, data, src.ConfigMap.Items, mode, isTrue(src.ConfigMap.Optional), where, sp.Child("configMap", "items"))...)
				}
			case src.Secret != nil:
				data, skip, err := fetchSecret(lookup, pod.Namespace, src.Secret.Name, src.Secret.Optional)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", where, err))
				} else if !skip {
					str := make(map[string]string, len(data))
					for k, v := range data {
						str[k] = string(v)
					}
					errs = append(errs, collectKeys(files, str, src.Secret.Items, mode, isTrue(src.Secret.Optional), where, sp.Child("secret", "items"))...)
				}
			}
		}
	default:
		return nil, fmt.Errorf("downward: volume %q is neither downwardAPI nor projected", vol.Name)
	}
	out := make([]File, 0, len(files))
	for _, f := range files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, errors.Join(errs...)
}

func modeOr(m *int32, def int32) int32 {
	if m != nil {
		return *m
	}
	return def
}

// volumePath is where the API server reports the errors of the pod's
// volume named name: spec.volumes[i], or spec.volumes[name] for a volume
// the pod does not list.
func volumePath(pod *api.Pod, name string) api.Path {
	p := api.NewPath("spec", "volumes")
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].Name == name {
			return p.Index(i)
		}
	}
	return p.Key(name)
}

// checkFilePath applies the API server's rule for a volume item's path
// (required, then api.ValidateLocalNonReservedPath) and returns one
// error per failure, each wrapping ErrInvalidPath and the field error.
func checkFilePath(p string, fld api.Path, where string) []error {
	ferrs := api.ValidateLocalNonReservedPath(p, fld)
	if p == "" {
		ferrs = append(api.FieldErrors{api.Required(fld, "")}, ferrs...)
	}
	errs := make([]error, 0, len(ferrs))
	for _, fe := range ferrs {
		errs = append(errs, fmt.Errorf("%s: %w: %w", where, ErrInvalidPath, fe))
	}
	return errs
}

// collectDownward adds a downwardAPI volume's or projection's items.
// Their path errors are reported at fld itself (not the item's index),
// as the API server reports them.
func collectDownward(files map[string]File, pod *api.Pod, items []api.DownwardAPIVolumeFile, defMode int32, allocatable api.ResourceList, where string, fld api.Path) []error {
	var errs []error
	for _, it := range items {
		if perrs := checkFilePath(it.Path, fld.Child("path"), where); len(perrs) > 0 {
			errs = append(errs, perrs...)
			continue
		}
		f := File{Path: path.Clean(it.Path), Mode: modeOr(it.Mode, defMode)}
		var err error
		switch {
		case it.FieldRef != nil:
			f.Data, err = metadataField(&pod.ObjectMeta, it.FieldRef.FieldPath)
		case it.ResourceFieldRef != nil:
			f.Data, err = volumeResource(pod, *it.ResourceFieldRef, allocatable)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s, file %q: %w", where, it.Path, err))
		}
		files[f.Path] = f
	}
	return errs
}

// collectKeys adds a ConfigMap's or Secret's keys as files: every key
// under its own name when items is empty, else the listed keys at their
// paths (pkg/volume/configmap MakePayload and its secret twin). A key
// used as a file name obeys the items' path rule; the API server's own
// rule for keys is stricter, but the data here comes from the caller's
// Lookup, which need not have been validated.
func collectKeys(files map[string]File, data map[string]string, items []api.KeyToPath, defMode int32, optional bool, where string, fld api.Path) []error {
	var errs []error
	if len(items) == 0 {
		for _, k := range sortedKeys(data) {
			if perrs := checkFilePath(k, api.NewPath("data"), where); len(perrs) > 0 {
				errs = append(errs, perrs...)
				continue
			}
			files[k] = File{Path: k, Data: data[k], Mode: defMode}
		}
		return errs
	}
	for i, it := range items {
		if perrs := checkFilePath(it.Path, fld.Index(i).Child("path"), where); len(perrs) > 0 {
			errs = append(errs, perrs...)
			continue
		}
		v, ok := data[it.Key]
		if !ok {
			if optional {
				continue
			}
			errs = append(errs, fmt.Errorf("%s: %w: configured to use key %q but it does not exist", where, ErrMissingKey, it.Key))
			continue
		}
		files[it.Path] = File{Path: it.Path, Data: v, Mode: modeOr(it.Mode, defMode)}
	}
	return errs
}

// OnDiskMode returns the mode a volume file of pod ends up with once the
// kubelet applies volume ownership (pkg/volume SetVolumeOwnership): when
// the pod sets securityContext.fsGroup, or runs in a user namespace
// (hostUsers: false, which treats the volume as if fsGroup were 0),
// downwardAPI and projected volumes, being read-only, get the group and
// owner read bits (0440) added. Otherwise mode is unchanged. A nil pod has
// no volume files: the result is 0.
func OnDiskMode(pod *api.Pod, mode int32) int32 {
	if pod == nil {
		return 0
	}
	fsGroup := pod.Spec.SecurityContext != nil && pod.Spec.SecurityContext.FSGroup != nil
	userNS := pod.Spec.HostUsers != nil && !*pod.Spec.HostUsers
	if fsGroup || userNS {
		return mode | 0o440
	}
	return mode
}
