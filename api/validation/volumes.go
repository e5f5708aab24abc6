package validation

import (
	"strconv"

	"github.com/podsem/podsem/api"
)

// validateVolumes checks spec.volumes (core validation's ValidateVolumes):
// unique DNS-label names and exactly one valid source each. It returns the
// valid volumes by name, which container volume mounts must refer to.
func validateVolumes(pod *api.Pod, p api.Path, opts podValidationOptions) (map[string]*api.VolumeSource, api.FieldErrors) {
	var errs api.FieldErrors
	vols := make(map[string]*api.VolumeSource, len(pod.Spec.Volumes))
	// The claims the pod's ephemeral volumes will create; a
	// persistentVolumeClaim volume may not name one of them.
	created := map[string]bool{}
	if pod.Name != "" {
		for _, v := range pod.Spec.Volumes {
			if v.Ephemeral != nil {
				created[pod.Name+"-"+v.Name] = true
			}
		}
	}
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		ip := p.Index(i)
		np := ip.Child("name")
		pvcName := ""
		if pod.Name != "" && v.Name != "" {
			pvcName = pod.Name + "-" + v.Name
		}
		el := validateVolumeSource(&v.VolumeSource, ip, pvcName, opts)
		if v.Name == "" {
			el = append(el, api.Required(np, ""))
		} else {
			for _, msg := range api.IsDNS1123Label(v.Name) {
				el = append(el, api.Invalid(np, v.Name, msg))
			}
		}
		if _, dup := vols[v.Name]; dup {
			el = append(el, api.Duplicate(np, v.Name))
		}
		if len(el) == 0 {
			vols[v.Name] = &v.VolumeSource
		} else {
			errs = append(errs, el...)
		}
		if c := v.PersistentVolumeClaim; c != nil && created[c.ClaimName] {
			errs = append(errs, api.Invalid(ip.Child("persistentVolumeClaim").Child("claimName"), c.ClaimName, "must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return vols, errs
}

// validateVolumeSource requires exactly one source and checks the one
// given; a second source is Forbidden at its own field.
//
// pvcName is the name of the claim an ephemeral volume source would create
// (pod name, "-", volume name), or "" when either name is missing; it must
// be a DNS subdomain, reported at the volume's name.
func validateVolumeSource(s *api.VolumeSource, p api.Path, pvcName string, opts podValidationOptions) api.FieldErrors {
	var errs api.FieldErrors
	n := 0
	one := func(name string) bool {
		if n > 0 {
			errs = append(errs, api.Forbidden(p.Child(name), "may not specify more than 1 volume type"))
			return false
		}
		n++
		return true
	}
	if s.EmptyDir != nil && one("emptyDir") {
		if s.EmptyDir.SizeLimit != nil && s.EmptyDir.SizeLimit.Sign() < 0 {
			errs = append(errs, api.Forbidden(p.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
	}
	if s.HostPath != nil && one("hostPath") {
		errs = append(errs, validateHostPath(s.HostPath, p.Child("hostPath"))...)
	}
	if s.GitRepo != nil && one("gitRepo") {
		if s.GitRepo.Repository == "" {
			errs = append(errs, api.Required(p.Child("gitRepo").Child("repository"), ""))
		}
		if s.GitRepo.Directory != "" {
			errs = append(errs, api.ValidateLocalDescendingPath(s.GitRepo.Directory, p.Child("gitRepo").Child("directory"))...)
		}
	}
	if s.Secret != nil && one("secret") {
		if s.Secret.SecretName == "" {
			errs = append(errs, api.Required(p.Child("secret").Child("secretName"), ""))
		}
		errs = append(errs, validateFileMode(s.Secret.DefaultMode, p.Child("secret").Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(s.Secret.Items, p.Child("secret").Child("items"))...)
	}
	if s.NFS != nil && one("nfs") {
		if s.NFS.Server == "" {
			errs = append(errs, api.Required(p.Child("nfs").Child("server"), ""))
		}
		if s.NFS.Path == "" {
			errs = append(errs, api.Required(p.Child("nfs").Child("path"), ""))
		} else if s.NFS.Path[0] != '/' {
			errs = append(errs, api.Invalid(p.Child("nfs").Child("path"), s.NFS.Path, "must be an absolute path"))
		}
	}
	if s.PersistentVolumeClaim != nil && one("persistentVolumeClaim") && s.PersistentVolumeClaim.ClaimName == "" {
		errs = append(errs, api.Required(p.Child("persistentVolumeClaim").Child("claimName"), ""))
	}
	if s.DownwardAPI != nil && one("downwardAPI") {
		errs = append(errs, validateFileMode(s.DownwardAPI.DefaultMode, p.Child("downwardAPI").Child("defaultMode"))...)
		// Upstream reports every item's errors at downwardAPI itself,
		// without the item's index.
		for _, it := range s.DownwardAPI.Items {
			errs = append(errs, ValidateDownwardAPIVolumeFile(it, p.Child("downwardAPI"))...)
		}
	}
	if s.ConfigMap != nil && one("configMap") {
		if s.ConfigMap.Name == "" {
			errs = append(errs, api.Required(p.Child("configMap").Child("name"), ""))
		}
		errs = append(errs, validateFileMode(s.ConfigMap.DefaultMode, p.Child("configMap").Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(s.ConfigMap.Items, p.Child("configMap").Child("items"))...)
	}
	if s.Projected != nil && one("projected") {
		errs = append(errs, validateFileMode(s.Projected.DefaultMode, p.Child("projected").Child("defaultMode"))...)
		errs = append(errs, validateProjectionSources(s.Projected, p.Child("projected"), opts)...)
	}
	if s.Ephemeral != nil && one("ephemeral") {
		if s.Ephemeral.VolumeClaimTemplate == nil {
			errs = append(errs, api.Required(p.Child("ephemeral").Child("volumeClaimTemplate"), ""))
		} else {
			errs = append(errs, validateClaimTemplate(s.Ephemeral.VolumeClaimTemplate, p.Child("ephemeral").Child("volumeClaimTemplate"))...)
		}
		if pvcName != "" {
			for _, msg := range api.IsDNS1123Subdomain(pvcName) {
				errs = append(errs, api.Invalid(p.Child("name"), pvcName, "PVC name "+strconv.Quote(pvcName)+": "+msg))
			}
		}
	}
	if s.CSI != nil && one("csi") && s.CSI.Driver == "" {
		errs = append(errs, api.Required(p.Child("csi").Child("driver"), ""))
	}
	if s.Image != nil && one("image") {
		if s.Image.Reference == "" {
			errs = append(errs, api.Required(p.Child("image").Child("reference"), ""))
		}
		switch s.Image.PullPolicy {
		case api.PullAlways, api.PullIfNotPresent, api.PullNever:
		case "":
			errs = append(errs, api.Required(p.Child("image").Child("pullPolicy"), ""))
		default:
			errs = append(errs, api.NotSupported(p.Child("image").Child("pullPolicy"), string(s.Image.PullPolicy), []string{"Always", "IfNotPresent", "Never"}))
		}
	}
	if n == 0 {
		errs = append(errs, api.Required(p, "must specify a volume type"))
	}
	return errs
}

// validateHostPath requires a path without ".." and a known type. Pods
// with hostUsers: false may use hostPath volumes in v1.36.
func validateHostPath(h *api.HostPathVolumeSource, p api.Path) api.FieldErrors {
	if h.Path == "" {
		return api.FieldErrors{api.Required(p.Child("path"), "")}
	}
	errs := api.ValidatePathNoBacksteps(h.Path, p.Child("path"))
	if h.Type != nil {
		switch *h.Type {
		case "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice", "BlockDevice":
		default:
			errs = append(errs, api.NotSupported(p.Child("type"), *h.Type, []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}))
		}
	}
	return errs
}

// validateKeyToPaths checks the items of a secret or configMap volume.
func validateKeyToPaths(items []api.KeyToPath, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, it := range items {
		errs = append(errs, validateKeyToPath(it, p.Index(i))...)
	}
	return errs
}

// validateKeyToPath checks one item of a secret or configMap volume or
// projection (upstream's validateKeyToPath): a key, a path that stays
// inside the volume and does not start with "..", and a valid mode.
func validateKeyToPath(it api.KeyToPath, ip api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if it.Key == "" {
		errs = append(errs, api.Required(ip.Child("key"), ""))
	}
	if it.Path == "" {
		errs = append(errs, api.Required(ip.Child("path"), ""))
	}
	errs = append(errs, api.ValidateLocalNonReservedPath(it.Path, ip.Child("path"))...)
	return append(errs, validateFileMode(it.Mode, ip.Child("mode"))...)
}

// validateFileMode checks a volume's defaultMode or an item's mode: a
// file mode between 0 and 0777 (octal).
func validateFileMode(mode *int32, p api.Path) api.FieldErrors {
	if mode != nil && (*mode < 0 || *mode > 0o777) {
		return api.FieldErrors{api.Invalid(p, *mode, "must be a number between 0 and 0777 (octal), both inclusive")}
	}
	return nil
}

// maxProjectedTokenExpiration is the longest expirationSeconds a projected
// service account token may ask for: 2^32 seconds.
const maxProjectedTokenExpiration = 1 << 32

// validateProjectionSources checks a projected volume's sources in
// upstream's order (core validation's validateProjectionSources): per
// source the secret, configMap, downwardAPI and serviceAccountToken
// projections, then the rule that a source holds at most one of them (a
// source with none passes). A file path may appear once across all the
// sources of the volume; a repeat is reported at the projected field with
// the source's name (secret, configMap) or the path (downwardAPI).
func validateProjectionSources(proj *api.ProjectedVolumeSource, p api.Path, opts podValidationOptions) api.FieldErrors {
	var errs api.FieldErrors
	paths := map[string]bool{}
	claim := func(path string, value any) {
		if path == "" {
			return
		}
		if paths[path] {
			errs = append(errs, api.Invalid(p, value, "conflicting duplicate paths"))
			return
		}
		paths[path] = true
	}
	for i, src := range proj.Sources {
		sp := p.Child("sources").Index(i)
		n := 0
		// A secret or configMap projection: a name, and its items.
		keys := func(field, name string, items []api.KeyToPath) {
			n++
			if name == "" {
				errs = append(errs, api.Required(sp.Child(field).Child("name"), ""))
			}
			for j, it := range items {
				errs = append(errs, validateKeyToPath(it, sp.Child(field).Child("items").Index(j))...)
				claim(it.Path, name)
			}
		}
		if sec := src.Secret; sec != nil {
			keys("secret", sec.Name, sec.Items)
		}
		if cm := src.ConfigMap; cm != nil {
			keys("configMap", cm.Name, cm.Items)
		}
		if da := src.DownwardAPI; da != nil {
			n++
			// Reported at the source's downwardAPI field, not the item's
			// index, as for a downwardAPI volume.
			for _, it := range da.Items {
				errs = append(errs, ValidateDownwardAPIVolumeFile(it, sp.Child("downwardAPI"))...)
				claim(it.Path, it.Path)
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			n++
			tp := sp.Child("serviceAccountToken")
			// An unset expirationSeconds is defaulted to 3600 before
			// validation runs.
			if e := t.ExpirationSeconds; e != nil {
				if *e < 600 {
					errs = append(errs, api.Invalid(tp.Child("expirationSeconds"), *e, "may not specify a duration less than 10 minutes"))
				}
				if *e > maxProjectedTokenExpiration {
					errs = append(errs, api.Invalid(tp.Child("expirationSeconds"), *e, "may not specify a duration larger than 2^32 seconds"))
				}
			}
			// Upstream reports the token's path at the projected field,
			// not at the source.
			switch {
			case t.Path == "":
				errs = append(errs, api.Required(p.Child("path"), ""))
			case !opts.allowNonLocalProjectedTokenPath:
				errs = append(errs, api.ValidateLocalNonReservedPath(t.Path, p.Child("path"))...)
			}
		}
		if n > 1 {
			errs = append(errs, api.Forbidden(sp, "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}
