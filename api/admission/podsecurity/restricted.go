package podsecurity

import (
	"strings"

	"github.com/podsem/podsem/api"
)

// The restricted checks of k8s.io/pod-security-admission's policy package,
// one function per variant, named after the check. The Windows (v1.25)
// and user-namespace (v1.35) variants wrap these (see checks.go).

// allowPrivilegeEscalation: every container must set
// allowPrivilegeEscalation to false.
func allowPrivilegeEscalation(pod *api.Pod) (Forbidden, bool) {
	var containers []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		if c.SecurityContext == nil || c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation {
			containers = append(containers, c.Name)
		}
	})
	if len(containers) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{
		Reason: "allowPrivilegeEscalation != false",
		Detail: containersPhrase(containers) + " must set securityContext.allowPrivilegeEscalation=false",
	}, true
}

// capabilitiesRestricted: every container must drop ALL capabilities and
// may add back only NET_BIND_SERVICE.
func capabilitiesRestricted(pod *api.Pod) (Forbidden, bool) {
	var missingDropAll, adding, caps []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		if c.SecurityContext == nil || c.SecurityContext.Capabilities == nil {
			missingDropAll = append(missingDropAll, c.Name)
			return
		}
		dropsAll := false
		for _, cap := range c.SecurityContext.Capabilities.Drop {
			if cap == "ALL" {
				dropsAll = true
				break
			}
		}
		if !dropsAll {
			missingDropAll = append(missingDropAll, c.Name)
		}
		bad := false
		for _, cap := range c.SecurityContext.Capabilities.Add {
			if cap != "NET_BIND_SERVICE" {
				bad = true
				caps = append(caps, cap)
			}
		}
		if bad {
			adding = append(adding, c.Name)
		}
	})
	var details []string
	if len(missingDropAll) > 0 {
		details = append(details, containersPhrase(missingDropAll)+` must set securityContext.capabilities.drop=["ALL"]`)
	}
	if len(adding) > 0 {
		details = append(details, containersPhrase(adding)+" must not include "+joinQuote(set(caps))+" in securityContext.capabilities.add")
	}
	if len(details) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "unrestricted capabilities", Detail: strings.Join(details, "; ")}, true
}

// restrictedVolumes: only the volume types that carry no node access and
// need no privileged driver: configMap, csi, downwardAPI, emptyDir,
// ephemeral, image, persistentVolumeClaim, projected, secret. Upstream
// added image to its only (v1.0) variant, so it is allowed at every policy
// version.
func restrictedVolumes(pod *api.Pod) (Forbidden, bool) {
	var names, types []string
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		t := restrictedVolumeType(&v.VolumeSource)
		if t == "" {
			continue
		}
		names = append(names, v.Name)
		types = append(types, t)
	}
	if len(names) == 0 {
		return Forbidden{}, false
	}
	types = set(types)
	return Forbidden{
		Reason: "restricted volume types",
		Detail: pluralize("volume", "volumes", len(names)) + " " + joinQuote(names) + " " +
			pluralize("uses", "use", len(names)) + " " +
			pluralize("restricted volume type", "restricted volume types", len(types)) + " " + joinQuote(types),
	}, true
}

// restrictedVolumeType is the name restricted gives the volume's type, ""
// for an allowed type, "unknown" for a volume with no source podsem
// models (upstream also names glusterfs, flexVolume, cephfs, flocker, fc,
// quobyte, photonPersistentDisk, scaleIO and storageos, which podsem's
// data model does not decode).
func restrictedVolumeType(s *api.VolumeSource) string {
	switch {
	case s.ConfigMap != nil, s.CSI != nil, s.DownwardAPI != nil, s.EmptyDir != nil, s.Ephemeral != nil,
		s.Image != nil, s.PersistentVolumeClaim != nil, s.Projected != nil, s.Secret != nil:
		return ""
	case s.HostPath != nil:
		return "hostPath"
	case s.GCEPersistentDisk != nil:
		return "gcePersistentDisk"
	case s.AWSElasticBlockStore != nil:
		return "awsElasticBlockStore"
	case s.GitRepo != nil:
		return "gitRepo"
	case s.NFS != nil:
		return "nfs"
	case s.ISCSI != nil:
		return "iscsi"
	case s.RBD != nil:
		return "rbd"
	case s.Cinder != nil:
		return "cinder"
	case s.AzureFile != nil:
		return "azureFile"
	case s.VsphereVolume != nil:
		return "vsphereVolume"
	case s.AzureDisk != nil:
		return "azureDisk"
	case s.PortworxVolume != nil:
		return "portworxVolume"
	}
	return "unknown"
}

// runAsNonRoot: the pod, or else every container, must set runAsNonRoot
// to true; no container may set it to false.
func runAsNonRoot(pod *api.Pod) (Forbidden, bool) {
	var setters []string
	podNonRoot := false
	if sc := pod.Spec.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		if *sc.RunAsNonRoot {
			podNonRoot = true
		} else {
			setters = append(setters, "pod")
		}
	}
	var explicit, implicit []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		switch {
		case c.SecurityContext != nil && c.SecurityContext.RunAsNonRoot != nil:
			if !*c.SecurityContext.RunAsNonRoot {
				explicit = append(explicit, c.Name)
			}
		case !podNonRoot:
			implicit = append(implicit, c.Name)
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, containersPhrase(explicit))
	}
	if len(setters) > 0 {
		return Forbidden{
			Reason: "runAsNonRoot != true",
			Detail: strings.Join(setters, " and ") + " must not set securityContext.runAsNonRoot=false",
		}, true
	}
	if len(implicit) > 0 {
		return Forbidden{
			Reason: "runAsNonRoot != true",
			Detail: "pod or " + containersPhrase(implicit) + " must set securityContext.runAsNonRoot=true",
		}, true
	}
	return Forbidden{}, false
}

// runAsUser (policy v1.23+): neither the pod nor a container may set
// runAsUser to 0; leaving it unset is allowed.
func runAsUser(pod *api.Pod) (Forbidden, bool) {
	root := func(uid *int64) bool { return uid != nil && *uid == 0 }
	sc := pod.Spec.SecurityContext
	setters := badSetters(pod, sc != nil && root(sc.RunAsUser), func(c *api.Container) bool {
		return c.SecurityContext != nil && root(c.SecurityContext.RunAsUser)
	})
	if len(setters) == 0 {
		return Forbidden{}, false
	}
	return Forbidden{Reason: "runAsUser=0", Detail: strings.Join(setters, " and ") + " must not set runAsUser=0"}, true
}

// seccompRestricted (policy v1.19+): the pod, or else every container,
// must set seccompProfile.type to RuntimeDefault or Localhost, and nothing
// may set another type.
func seccompRestricted(pod *api.Pod) (Forbidden, bool) {
	var setters, badTypes []string
	podSet := false
	if sc := pod.Spec.SecurityContext; sc != nil && sc.SeccompProfile != nil {
		if validSeccompType(sc.SeccompProfile.Type) {
			podSet = true
		} else {
			setters = append(setters, "pod")
			badTypes = append(badTypes, sc.SeccompProfile.Type)
		}
	}
	var explicit, implicit []string
	eachContainer(&pod.Spec, func(c *api.Container) {
		switch {
		case c.SecurityContext != nil && c.SecurityContext.SeccompProfile != nil:
			if !validSeccompType(c.SecurityContext.SeccompProfile.Type) {
				explicit = append(explicit, c.Name)
				badTypes = append(badTypes, c.SecurityContext.SeccompProfile.Type)
			}
		case !podSet:
			implicit = append(implicit, c.Name)
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, containersPhrase(explicit))
	}
	if len(setters) > 0 {
		return seccompExplicitlyBad(setters, badTypes), true
	}
	if len(implicit) > 0 {
		return Forbidden{
			Reason: "seccompProfile",
			Detail: "pod or " + containersPhrase(implicit) + ` must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
		}, true
	}
	return Forbidden{}, false
}
