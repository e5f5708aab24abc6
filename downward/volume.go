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
// Every item that cannot be resolved contributes an error; the result
// then still lists all files (the failing ones empty) and the error joins
// all failures, as the kubelet reports them before refusing to set the
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
	switch {
	case vol.DownwardAPI != nil:
		mode := modeOr(vol.DownwardAPI.DefaultMode, DefaultFileMode)
		errs = collectDownward(files, pod, vol.DownwardAPI.Items, mode, allocatable, fmt.Sprintf("volume %q", vol.Name))
	case vol.Projected != nil:
		mode := modeOr(vol.Projected.DefaultMode, DefaultFileMode)
		for i, src := range vol.Projected.Sources {
			where := fmt.Sprintf("volume %q source %d", vol.Name, i)
			switch {
			case src.DownwardAPI != nil:
				errs = append(errs, collectDownward(files, pod, src.DownwardAPI.Items, mode, allocatable, where)...)
			case src.ConfigMap != nil:
				data, skip, err := fetchConfigMap(lookup, pod.Namespace, src.ConfigMap.Name, src.ConfigMap.Optional)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", where, err))
				} else if !skip {
					errs = append(errs, collectKeys(files, data, src.ConfigMap.Items, mode, isTrue(src.ConfigMap.Optional), where)...)
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
					errs = append(errs, collectKeys(files, str, src.Secret.Items, mode, isTrue(src.Secret.Optional), where)...)
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

func collectDownward(files map[string]File, pod *api.Pod, items []api.DownwardAPIVolumeFile, defMode int32, allocatable api.ResourceList, where string) []error {
	var errs []error
	for _, it := range items {
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
// paths (pkg/volume/configmap MakePayload and its secret twin).
func collectKeys(files map[string]File, data map[string]string, items []api.KeyToPath, defMode int32, optional bool, where string) []error {
	if len(items) == 0 {
		for k, v := range data {
			files[k] = File{Path: k, Data: v, Mode: defMode}
		}
		return nil
	}
	var errs []error
	for _, it := range items {
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
