package validation

import (
	"math"
	"sort"
	"strconv"

	"github.com/podsem/podsem/api"
)

// validatePodMetadataAndSpec is what the API server checks on every pod
// it stores (core validation's validatePodMetadataAndSpec): the metadata,
// the pod-specific annotations, the whole spec, and the pod-only rules
// (service account tokens need a service account; images have no
// surrounding whitespace).
func validatePodMetadataAndSpec(pod *api.Pod, opts podValidationOptions) api.FieldErrors {
	meta, spec := api.NewPath("metadata"), api.NewPath("spec")
	errs := validateObjectMeta(&pod.ObjectMeta, meta)
	errs = append(errs, validatePodAnnotations(pod.Annotations, &pod.Spec, meta.Child("annotations"), opts.allowInvalidDeletionCost)...)
	errs = append(errs, validatePodSpec(pod, spec, opts)...)
	if pod.Spec.ServiceAccountName == "" {
		for i, v := range pod.Spec.Volumes {
			if v.Projected == nil {
				continue
			}
			for j, src := range v.Projected.Sources {
				if src.ServiceAccountToken != nil {
					errs = append(errs, api.Forbidden(spec.Child("volumes").Index(i).Child("projected").Child("sources").Index(j).Child("serviceAccountToken"),
						"must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	for i := range pod.Spec.Containers {
		errs = append(errs, validateImageWhitespace(&pod.Spec.Containers[i], spec.Child("containers").Index(i))...)
	}
	for i := range pod.Spec.InitContainers {
		errs = append(errs, validateImageWhitespace(&pod.Spec.InitContainers[i], spec.Child("initContainers").Index(i))...)
	}
	return errs
}

// hostUsersFalse reports whether the pod asks for its own user namespace.
func hostUsersFalse(spec *api.PodSpec) bool {
	return spec.HostUsers != nil && !*spec.HostUsers
}

// validatePodSpec is core validation's ValidatePodSpec for a pod (not a
// template) with the options the API server uses for a new object under
// v1.36's default feature gates.
func validatePodSpec(pod *api.Pod, p api.Path, opts podValidationOptions) api.FieldErrors {
	spec := &pod.Spec
	var errs api.FieldErrors
	if spec.TerminationGracePeriodSeconds == nil {
		errs = append(errs, api.Required(p.Child("terminationGracePeriodSeconds"), ""))
	}
	vols, verrs := validateVolumes(pod, p.Child("volumes"), opts)
	errs = append(errs, verrs...)
	cc := &containerContext{
		volumes:       vols,
		gracePeriod:   spec.TerminationGracePeriodSeconds,
		hostUsers:     !hostUsersFalse(spec),
		restartPolicy: spec.RestartPolicy,
		os:            spec.OS,
		podClaims:     podClaimNames(spec.ResourceClaims),

		allowInitRestartContainer: opts.allowInitRestartContainer,
		allowPrivileged:           opts.allowPrivileged,
	}
	if len(spec.ResourceClaims) > 0 {
		errs = append(errs, validatePodResourceClaims(pod, p.Child("resourceClaims"))...)
	}
	errs = append(errs, validateContainers(spec.Containers, cc, p.Child("containers"))...)
	errs = append(errs, validateInitContainers(spec.InitContainers, spec.Containers, cc, p.Child("initContainers"))...)
	errs = append(errs, validateEphemeralContainers(spec.EphemeralContainers, spec.Containers, spec.InitContainers, cc, p.Child("ephemeralContainers"))...)
	errs = append(errs, validatePodResources(pod, p.Child("resources"))...)

	if spec.HostNetwork {
		for i, c := range spec.Containers {
			for j, port := range c.Ports {
				if port.HostPort != port.ContainerPort {
					errs = append(errs, api.Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
				}
			}
		}
	}
	switch spec.RestartPolicy {
	case api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever:
	case "":
		errs = append(errs, api.Required(p.Child("restartPolicy"), ""))
	default:
		errs = append(errs, api.NotSupported(p.Child("restartPolicy"), string(spec.RestartPolicy), []string{"Always", "OnFailure", "Never"}))
	}
	switch spec.DNSPolicy {
	case api.DNSClusterFirstWithHostNet, api.DNSClusterFirst, api.DNSDefault, api.DNSNone:
	case "":
		errs = append(errs, api.Required(p.Child("dnsPolicy"), ""))
	default:
		errs = append(errs, api.NotSupported(p.Child("dnsPolicy"), string(spec.DNSPolicy), []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}))
	}
	errs = append(errs, validateLabels(spec.NodeSelector, p.Child("nodeSelector"))...)
	errs = append(errs, validatePodSecurityContext(spec, p.Child("securityContext"), opts)...)
	// imagePullSecrets names are not validated (an empty one only earns a
	// warning from the API server).
	errs = append(errs, validateAffinity(spec.Affinity, p.Child("affinity"))...)
	if spec.DNSConfig != nil || spec.DNSPolicy == api.DNSNone {
		errs = append(errs, validatePodDNSConfig(spec, p.Child("dnsConfig"))...)
	}
	for i, g := range spec.ReadinessGates {
		for _, msg := range api.IsQualifiedName(string(g.ConditionType)) {
			errs = append(errs, api.Invalid(p.Child("readinessGates").Index(i).Child("conditionType"), string(g.ConditionType), msg))
		}
	}
	gates := map[string]bool{}
	for i, g := range spec.SchedulingGates {
		for _, msg := range api.IsQualifiedName(g.Name) {
			errs = append(errs, api.Invalid(p.Child("schedulingGates").Index(i), g.Name, msg))
		}
		if gates[g.Name] {
			errs = append(errs, api.Duplicate(p.Child("schedulingGates").Index(i), g.Name))
		}
		gates[g.Name] = true
	}
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	errs = append(errs, validateWindowsHostProcess(spec, p, opts.allowPrivileged)...)
	if hostUsersFalse(spec) {
		// Upstream spells two of these paths with a capital letter.
		const msg = "when `pod.Spec.HostUsers` is false"
		if spec.HostNetwork && !opts.allowUserNamespaceHostNetwork {
			errs = append(errs, api.Forbidden(p.Child("hostNetwork"), msg))
		}
		if spec.HostPID {
			errs = append(errs, api.Forbidden(p.Child("HostPID"), msg))
		}
		if spec.HostIPC {
			errs = append(errs, api.Forbidden(p.Child("HostIPC"), msg))
		}
		if !opts.allowUserNamespaceVolumeDevices {
			// Raw block devices cannot be id-mapped into a user namespace.
			for _, v := range allContainers(spec, p) {
				if len(v.c.VolumeDevices) > 0 {
					errs = append(errs, api.Forbidden(v.p.Child("volumeDevices"), msg))
				}
			}
		}
	}
	if spec.HostnameOverride != nil {
		errs = append(errs, validateHostnameOverride(spec, p.Child("hostnameOverride"))...)
	}
	for _, f := range []struct {
		name  string
		value string
	}{
		{"serviceAccountName", spec.ServiceAccountName},
		{"nodeName", spec.NodeName},
		{"priorityClassName", spec.PriorityClassName},
	} {
		if f.value == "" {
			continue
		}
		for _, msg := range api.IsDNS1123Subdomain(f.value) {
			errs = append(errs, api.Invalid(p.Child(f.name), f.value, msg))
		}
	}
	if ads := spec.ActiveDeadlineSeconds; ads != nil && (*ads < 1 || *ads > math.MaxInt32) {
		errs = append(errs, api.Invalid(p.Child("activeDeadlineSeconds"), *ads, "must be between 1 and 2147483647, inclusive"))
	}
	for _, f := range []struct {
		name  string
		value string
	}{{"hostname", spec.Hostname}, {"subdomain", spec.Subdomain}} {
		if f.value == "" {
			continue
		}
		for _, msg := range api.IsDNS1123Label(f.value) {
			errs = append(errs, api.Invalid(p.Child(f.name), f.value, msg))
		}
	}
	errs = append(errs, validateTolerations(spec.Tolerations, p.Child("tolerations"))...)
	if len(spec.HostAliases) > 0 {
		errs = append(errs, validateHostAliases(spec.HostAliases, p.Child("hostAliases"))...)
	}
	if spec.RuntimeClassName != nil {
		for _, msg := range api.IsDNS1123Subdomain(*spec.RuntimeClassName) {
			errs = append(errs, api.Invalid(p.Child("runtimeClassName"), *spec.RuntimeClassName, msg))
		}
	}
	if pp := spec.PreemptionPolicy; pp != nil {
		switch *pp {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, api.Required(p.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, api.NotSupported(p.Child("preemptionPolicy"), string(*pp), []string{"PreemptLowerPriority", "Never"}))
		}
	}
	if spec.Overhead != nil {
		errs = append(errs, validateResourceRequirements(&api.ResourceRequirements{Limits: spec.Overhead}, nil, p.Child("overhead"))...)
	}
	if spec.OS != nil {
		switch {
		case spec.OS.Name == "":
			errs = append(errs, api.Required(p.Child("os").Child("name"), "cannot be empty"))
		case spec.OS.Name != api.Linux && spec.OS.Name != api.Windows:
			errs = append(errs, api.NotSupported(p.Child("os"), string(spec.OS.Name), []string{"linux", "windows"}))
		case spec.OS.Name == api.Linux:
			errs = append(errs, validateLinuxPod(spec, p)...)
		default:
			errs = append(errs, validateWindowsPod(spec, p)...)
		}
	}
	return errs
}

// containerVisit is one container of the pod with its field path, in the
// order upstream's VisitContainersWithPath walks them: init, regular, then
// ephemeral containers.
type containerVisit struct {
	c *api.Container
	p api.Path
}

func allContainers(spec *api.PodSpec, p api.Path) []containerVisit {
	out := make([]containerVisit, 0, len(spec.InitContainers)+len(spec.Containers)+len(spec.EphemeralContainers))
	for i := range spec.InitContainers {
		out = append(out, containerVisit{&spec.InitContainers[i], p.Child("initContainers").Index(i)})
	}
	for i := range spec.Containers {
		out = append(out, containerVisit{&spec.Containers[i], p.Child("containers").Index(i)})
	}
	for i := range spec.EphemeralContainers {
		out = append(out, containerVisit{&spec.EphemeralContainers[i].Container, p.Child("ephemeralContainers").Index(i)})
	}
	return out
}

// specHasContainer reports whether any container of the pod has the name.
func specHasContainer(spec *api.PodSpec, name string) bool {
	for _, v := range allContainers(spec, api.Path{}) {
		if v.c.Name == name {
			return true
		}
	}
	return false
}

// validateLinuxPod forbids Windows options in a pod whose spec.os.name is
// linux.
func validateLinuxPod(spec *api.PodSpec, p api.Path) api.FieldErrors {
	const msg = "windows options cannot be set for a linux pod"
	var errs api.FieldErrors
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		errs = append(errs, api.Forbidden(p.Child("securityContext").Child("windowsOptions"), msg))
	}
	for _, v := range allContainers(spec, p) {
		if sc := v.c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
			errs = append(errs, api.Forbidden(v.p.Child("securityContext").Child("windowsOptions"), msg))
		}
	}
	return errs
}

// validateWindowsPod forbids the Linux-only pod and container settings in a
// pod whose spec.os.name is windows. hostNetwork stays allowed.
func validateWindowsPod(spec *api.PodSpec, p api.Path) api.FieldErrors {
	const msg = "cannot be set for a windows pod"
	var errs api.FieldErrors
	forbid := func(set bool, fp api.Path) {
		if set {
			errs = append(errs, api.Forbidden(fp, msg))
		}
	}
	scp := p.Child("securityContext")
	if sc := spec.SecurityContext; sc != nil {
		forbid(sc.AppArmorProfile != nil, scp.Child("appArmorProfile"))
		forbid(sc.SELinuxOptions != nil, scp.Child("seLinuxOptions"))
	}
	forbid(spec.HostUsers != nil, p.Child("hostUsers"))
	forbid(spec.HostPID, p.Child("hostPID"))
	forbid(spec.HostIPC, p.Child("hostIPC"))
	if sc := spec.SecurityContext; sc != nil {
		forbid(sc.SeccompProfile != nil, scp.Child("seccompProfile"))
		forbid(sc.FSGroup != nil, scp.Child("fsGroup"))
		forbid(sc.FSGroupChangePolicy != nil, scp.Child("fsGroupChangePolicy"))
		forbid(len(sc.Sysctls) > 0, scp.Child("sysctls"))
	}
	forbid(spec.ShareProcessNamespace != nil, p.Child("shareProcessNamespace"))
	if sc := spec.SecurityContext; sc != nil {
		forbid(sc.RunAsUser != nil, scp.Child("runAsUser"))
		forbid(sc.RunAsGroup != nil, scp.Child("runAsGroup"))
		forbid(sc.SupplementalGroups != nil, scp.Child("supplementalGroups"))
		forbid(sc.SupplementalGroupsPolicy != nil, scp.Child("supplementalGroupsPolicy"))
		forbid(sc.SELinuxChangePolicy != nil, scp.Child("seLinuxChangePolicy"))
	}
	for _, v := range allContainers(spec, p) {
		sc := v.c.SecurityContext
		if sc == nil {
			continue
		}
		cp := v.p.Child("securityContext")
		forbid(sc.AppArmorProfile != nil, cp.Child("appArmorProfile"))
		forbid(sc.SELinuxOptions != nil, cp.Child("seLinuxOptions"))
		forbid(sc.SeccompProfile != nil, cp.Child("seccompProfile"))
		forbid(sc.Capabilities != nil, cp.Child("capabilities"))
		forbid(sc.ReadOnlyRootFilesystem != nil, cp.Child("readOnlyRootFilesystem"))
		forbid(sc.Privileged != nil, cp.Child("privileged"))
		forbid(sc.AllowPrivilegeEscalation != nil, cp.Child("allowPrivilegeEscalation"))
		forbid(sc.ProcMount != nil, cp.Child("procMount"))
		forbid(sc.RunAsUser != nil, cp.Child("runAsUser"))
		forbid(sc.RunAsGroup != nil, cp.Child("runAsGroup"))
	}
	return errs
}

// validateWindowsHostProcess checks Windows HostProcess containers: pod and
// container settings agree, all containers or none are HostProcess, and
// HostProcess pods use the host network; and, as privileged containers,
// they are refused unless allowPrivileged (kube-apiserver's
// --allow-privileged).
func validateWindowsHostProcess(spec *api.PodSpec, p api.Path, allowPrivileged bool) api.FieldErrors {
	var errs api.FieldErrors
	var podHP *bool
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		podHP = sc.WindowsOptions.HostProcess
	}
	total, hp := 0, 0
	for _, v := range allContainers(spec, p) {
		total++
		var cHP *bool
		if sc := v.c.SecurityContext; sc != nil && sc.WindowsOptions != nil {
			cHP = sc.WindowsOptions.HostProcess
		}
		if podHP != nil && cHP != nil && *podHP != *cHP {
			errs = append(errs, api.Invalid(v.p.Child("securityContext", "windowsOptions", "hostProcess"), *cHP,
				"pod hostProcess value must be identical if both are specified, was "+strconv.FormatBool(*podHP)))
		}
		if cHP != nil && *cHP || cHP == nil && podHP != nil && *podHP {
			hp++
		}
	}
	if hp > 0 {
		if hp != total {
			errs = append(errs, api.Invalid(p, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
		}
		if !spec.HostNetwork {
			errs = append(errs, api.Invalid(p.Child("hostNetwork"), spec.HostNetwork, "hostNetwork must be true if pod contains any hostProcess containers"))
		}
		// HostProcess containers are privileged, which the default
		// cluster policy (--allow-privileged=false) refuses.
		if !allowPrivileged {
			errs = append(errs, api.Forbidden(p, "hostProcess containers are disallowed by cluster policy"))
		}
	}
	return errs
}

// validateAffinity checks node affinity (selector requirements, weights)
// and pod (anti-)affinity terms (selectors, namespaces, topology keys,
// weights).
func validateAffinity(a *api.Affinity, p api.Path) api.FieldErrors {
	if a == nil {
		return nil
	}
	var errs api.FieldErrors
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			rp := np.Child("requiredDuringSchedulingIgnoredDuringExecution")
			if len(r.NodeSelectorTerms) == 0 {
				errs = append(errs, api.Required(rp.Child("nodeSelectorTerms"), "must have at least one node selector term"))
			}
			for i, t := range r.NodeSelectorTerms {
				errs = append(errs, validateNodeSelectorTerm(t, rp.Child("nodeSelectorTerms").Index(i))...)
			}
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			ip := np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, api.Invalid(ip.Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validateNodeSelectorTerm(t.Preference, ip.Child("preference"))...)
		}
	}
	podTerms := func(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm, fp api.Path) {
		for i := range req {
			errs = append(errs, validatePodAffinityTerm(&req[i], fp.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
		}
		for i := range pref {
			ip := fp.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if w := pref[i].Weight; w <= 0 || w > 100 {
				errs = append(errs, api.Invalid(ip.Child("weight"), w, "must be in the range 1-100"))
			}
			errs = append(errs, validatePodAffinityTerm(&pref[i].PodAffinityTerm, ip.Child("podAffinityTerm"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		podTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAffinity"))
	}
	if pa := a.PodAntiAffinity; pa != nil {
		podTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAntiAffinity"))
	}
	return errs
}

func validateNodeSelectorTerm(t api.NodeSelectorTerm, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, r := range t.MatchExpressions {
		ip := p.Child("matchExpressions").Index(i)
		switch r.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, api.Required(ip.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, api.Forbidden(ip.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			if len(r.Values) != 1 {
				errs = append(errs, api.Required(ip.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, api.Invalid(ip.Child("operator"), string(r.Operator), "not a valid selector operator"))
		}
		for _, msg := range api.ValidateLabelKey(r.Key) {
			errs = append(errs, api.Invalid(ip.Child("key"), r.Key, msg))
		}
	}
	for i, r := range t.MatchFields {
		ip := p.Child("matchFields").Index(i)
		if r.Key != "metadata.name" {
			errs = append(errs, api.Invalid(ip.Child("key"), r.Key, "not a valid field selector key"))
		}
		if r.Operator != api.NodeSelectorOpIn && r.Operator != api.NodeSelectorOpNotIn {
			errs = append(errs, api.Invalid(ip.Child("operator"), string(r.Operator), "not a valid selector operator"))
		}
		if len(r.Values) != 1 {
			errs = append(errs, api.Required(ip.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	}
	return errs
}

func validatePodAffinityTerm(t *api.PodAffinityTerm, p api.Path) api.FieldErrors {
	errs := validateLabelSelector(t.LabelSelector, p.Child("labelSelector"))
	errs = append(errs, validateLabelSelector(t.NamespaceSelector, p.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range api.IsDNS1123Label(ns) {
			errs = append(errs, api.Invalid(p.Child("namespace"), ns, msg))
		}
	}
	if t.TopologyKey == "" {
		errs = append(errs, api.Required(p.Child("topologyKey"), "can not be empty"))
	}
	// The label-name check runs on an empty key too, adding an Invalid.
	for _, msg := range api.ValidateLabelKey(t.TopologyKey) {
		errs = append(errs, api.Invalid(p.Child("topologyKey"), t.TopologyKey, msg))
	}
	for _, part := range []struct {
		name string
		keys []string
	}{{"matchLabelKeys", t.MatchLabelKeys}, {"mismatchLabelKeys", t.MismatchLabelKeys}} {
		if len(part.keys) == 0 {
			continue
		}
		if t.LabelSelector == nil {
			errs = append(errs, api.Forbidden(p.Child(part.name), "must not be specified when labelSelector is not set"))
			continue
		}
		for i, k := range part.keys {
			for _, msg := range api.ValidateLabelKey(k) {
				errs = append(errs, api.Invalid(p.Child(part.name).Index(i), k, msg))
			}
		}
	}
	// A matchLabelKeys key the labelSelector already constrains (after the
	// create path merged the keys in as expressions) is reported at the
	// term's path indexed by the key's position, [i][j]; a key listed twice
	// counts at its last position.
	if sel := t.LabelSelector; sel != nil && len(t.MatchLabelKeys) > 0 {
		pos := make(map[string]int, len(t.MatchLabelKeys))
		for i, k := range t.MatchLabelKeys {
			pos[k] = i
		}
		seen := make(map[string]bool, len(sel.MatchLabels)+len(sel.MatchExpressions))
		for k := range sel.MatchLabels {
			seen[k] = true
		}
		for _, e := range sel.MatchExpressions {
			if i, ok := pos[e.Key]; ok && seen[e.Key] {
				errs = append(errs, api.Invalid(p.Index(i), e.Key, "exists in both matchLabelKeys and labelSelector"))
			}
			seen[e.Key] = true
		}
	}
	mismatch := map[string]bool{}
	for _, k := range t.MismatchLabelKeys {
		mismatch[k] = true
	}
	for i, k := range t.MatchLabelKeys {
		if mismatch[k] {
			errs = append(errs, api.Invalid(p.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	return errs
}

// sortedMapKeys returns the keys of m in order, so that errors come out in
// a stable order.
func sortedMapKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
