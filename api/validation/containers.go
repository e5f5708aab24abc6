package validation

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

// containerContext carries what container validation needs from the pod:
// its volumes, its grace period (which bounds preStop sleeps) and whether
// the pod runs in the host's user namespace.
type containerContext struct {
	volumes       map[string]*api.VolumeSource
	gracePeriod   *int64
	hostUsers     bool
	restartPolicy api.RestartPolicy
	os            *api.PodOS
	// podClaims are the names of spec.resourceClaims.
	podClaims map[string]bool
	// allowInitRestartContainer: the old pod already had a non-sidecar
	// init container with a RestartContainer resize policy.
	allowInitRestartContainer bool
	// allowPrivileged is kube-apiserver's --allow-privileged.
	allowPrivileged bool
}

// validateContainers checks spec.containers, as core validation's
// validateContainers does: at least one container, the common rules, unique
// names among regular containers, probe and hook rules, restart policy
// values, and host ports unique across all regular containers.
func validateContainers(containers []api.Container, cc *containerContext, p api.Path) api.FieldErrors {
	if len(containers) == 0 {
		return api.FieldErrors{api.Required(p, "")}
	}
	var errs api.FieldErrors
	names := make(map[string]bool, len(containers))
	for i := range containers {
		c := &containers[i]
		ip := p.Index(i)
		errs = append(errs, validateContainerCommon(c, cc, ip)...)
		if names[c.Name] {
			errs = append(errs, api.Duplicate(ip.Child("name"), c.Name))
		} else {
			names[c.Name] = true
		}
		errs = append(errs, validateContainerHooksAndProbes(c, cc, ip)...)
		errs = append(errs, validateContainerRestartPolicy(c, ip)...)
	}
	return append(errs, hostPortConflicts(containers, p)...)
}

// validateInitContainers checks spec.initContainers: the common rules,
// names unique among init and regular containers, restart policy values,
// host ports per container (they run one at a time), and that only
// sidecars (restartPolicy Always) carry lifecycle hooks and probes.
func validateInitContainers(inits, regular []api.Container, cc *containerContext, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	names := make(map[string]bool, len(inits)+len(regular))
	for i := range regular {
		names[regular[i].Name] = true
	}
	for i := range inits {
		c := &inits[i]
		ip := p.Index(i)
		errs = append(errs, validateContainerCommon(c, cc, ip)...)
		errs = append(errs, validateContainerRestartPolicy(c, ip)...)
		if names[c.Name] {
			errs = append(errs, api.Duplicate(ip.Child("name"), c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		// Upstream checks each init container's host ports on its own and
		// reports them under index 0 of the list, whatever the container.
		errs = append(errs, hostPortConflicts(inits[i:i+1], p)...)
		if c.IsSidecar() {
			errs = append(errs, validateContainerHooksAndProbes(c, cc, ip)...)
			continue
		}
		const msg = "may not be set for init containers without restartPolicy=Always"
		if c.Lifecycle != nil {
			errs = append(errs, api.Forbidden(ip.Child("lifecycle"), msg))
		}
		if c.LivenessProbe != nil {
			errs = append(errs, api.Forbidden(ip.Child("livenessProbe"), msg))
		}
		if c.ReadinessProbe != nil {
			errs = append(errs, api.Forbidden(ip.Child("readinessProbe"), msg))
		}
		if c.StartupProbe != nil {
			errs = append(errs, api.Forbidden(ip.Child("startupProbe"), msg))
		}
		// Restarting a run-to-completion init container on resize makes no
		// sense (unless the stored pod already asked for it).
		if !cc.allowInitRestartContainer {
			for j, rp := range c.ResizePolicy {
				if rp.RestartPolicy == resizeRestartContainer {
					errs = append(errs, api.Invalid(ip.Child("resizePolicy").Index(j).Child("restartPolicy"), rp.RestartPolicy,
						"must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return errs
}

// validateEphemeralContainers checks spec.ephemeralContainers: the common
// rules, names unique across every container of the pod, a target that is
// a regular or init container, none of the fields an ephemeral container may
// not have (ports, resources, probes, lifecycle, restart and resize
// policies), and no subPath mounts.
func validateEphemeralContainers(ephemeral []api.EphemeralContainer, regular, inits []api.Container, cc *containerContext, p api.Path) api.FieldErrors {
	if len(ephemeral) == 0 {
		return nil
	}
	var errs api.FieldErrors
	others := make(map[string]bool, len(regular)+len(inits))
	all := make(map[string]bool, len(regular)+len(inits)+len(ephemeral))
	for i := range regular {
		others[regular[i].Name], all[regular[i].Name] = true, true
	}
	for i := range inits {
		others[inits[i].Name], all[inits[i].Name] = true, true
	}
	for i := range ephemeral {
		ec := &ephemeral[i]
		c := &ec.Container
		ip := p.Index(i)
		errs = append(errs, validateContainerCommon(c, cc, ip)...)
		errs = append(errs, validateImageWhitespace(c, ip)...)
		if all[c.Name] {
			errs = append(errs, api.Duplicate(ip.Child("name"), c.Name))
		} else {
			all[c.Name] = true
		}
		if ec.TargetContainerName != "" && !others[ec.TargetContainerName] {
			errs = append(errs, api.NotFound(ip.Child("targetContainerName"), ec.TargetContainerName))
		}
		errs = append(errs, forbiddenEphemeralFields(c, ip)...)
		for j, m := range c.VolumeMounts {
			if m.SubPath != "" {
				errs = append(errs, api.Forbidden(ip.Child("volumeMounts").Index(j).Child("subPath"), "cannot be set for an Ephemeral Container"))
			}
			if m.SubPathExpr != "" {
				errs = append(errs, api.Forbidden(ip.Child("volumeMounts").Index(j).Child("subPathExpr"), "cannot be set for an Ephemeral Container"))
			}
		}
	}
	return errs
}

// forbiddenEphemeralFields reports every field set on an ephemeral
// container that is not on upstream's allow list.
func forbiddenEphemeralFields(c *api.Container, p api.Path) api.FieldErrors {
	const msg = "cannot be set for an Ephemeral Container"
	var errs api.FieldErrors
	if len(c.Ports) > 0 {
		errs = append(errs, api.Forbidden(p.Child("ports"), msg))
	}
	if !semanticEqual(c.Resources, api.ResourceRequirements{}) {
		errs = append(errs, api.Forbidden(p.Child("resources"), msg))
	}
	if len(c.ResizePolicy) > 0 {
		errs = append(errs, api.Forbidden(p.Child("resizePolicy"), msg))
	}
	if c.RestartPolicy != nil {
		errs = append(errs, api.Forbidden(p.Child("restartPolicy"), msg))
	}
	if len(c.RestartPolicyRules) > 0 {
		errs = append(errs, api.Forbidden(p.Child("restartPolicyRules"), msg))
	}
	if c.LivenessProbe != nil {
		errs = append(errs, api.Forbidden(p.Child("livenessProbe"), msg))
	}
	if c.ReadinessProbe != nil {
		errs = append(errs, api.Forbidden(p.Child("readinessProbe"), msg))
	}
	if c.StartupProbe != nil {
		errs = append(errs, api.Forbidden(p.Child("startupProbe"), msg))
	}
	if c.Lifecycle != nil {
		errs = append(errs, api.Forbidden(p.Child("lifecycle"), msg))
	}
	return errs
}

// validateContainerCommon holds the rules every kind of container obeys
// (core validation's validateContainerCommon): a DNS-label name, an image,
// a known terminationMessagePolicy and imagePullPolicy, valid ports,
// environment, volume mounts, resources, resize policy and security
// context.
func validateContainerCommon(c *api.Container, cc *containerContext, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if c.Name == "" {
		errs = append(errs, api.Required(p.Child("name"), ""))
	} else {
		for _, msg := range api.IsDNS1123Label(c.Name) {
			errs = append(errs, api.Invalid(p.Child("name"), c.Name, msg))
		}
	}
	if c.Image == "" {
		errs = append(errs, api.Required(p.Child("image"), ""))
	}
	switch c.TerminationMessagePolicy {
	case "File", "FallbackToLogsOnError":
	case "":
		errs = append(errs, api.Required(p.Child("terminationMessagePolicy"), ""))
	default:
		errs = append(errs, api.NotSupported(p.Child("terminationMessagePolicy"), c.TerminationMessagePolicy, []string{"File", "FallbackToLogsOnError"}))
	}
	errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, p.Child("env"))...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, p.Child("envFrom"))...)
	errs = append(errs, validateVolumeMounts(c, cc.volumes, p.Child("volumeMounts"))...)
	if len(c.VolumeDevices) > 0 {
		errs = append(errs, validateVolumeDevices(c, cc.volumes, p.Child("volumeDevices"))...)
	}
	switch c.ImagePullPolicy {
	case api.PullAlways, api.PullIfNotPresent, api.PullNever:
	case "":
		errs = append(errs, api.Required(p.Child("imagePullPolicy"), ""))
	default:
		errs = append(errs, api.NotSupported(p.Child("imagePullPolicy"), c.ImagePullPolicy, []string{"Always", "IfNotPresent", "Never"}))
	}
	errs = append(errs, validateResourceRequirements(&c.Resources, cc.podClaims, p.Child("resources"))...)
	errs = append(errs, validateResizePolicy(c.ResizePolicy, cc.restartPolicy, p.Child("resizePolicy"))...)
	return append(errs, validateSecurityContext(c.SecurityContext, p.Child("securityContext"), cc.hostUsers, cc.allowPrivileged)...)
}

// validateImageWhitespace is the pod-only rule (not applied to pod
// templates) that an image has no leading or trailing whitespace.
func validateImageWhitespace(c *api.Container, p api.Path) api.FieldErrors {
	if len(strings.TrimSpace(c.Image)) != len(c.Image) {
		return api.FieldErrors{api.Invalid(p.Child("image"), c.Image, "must not have leading or trailing whitespace")}
	}
	return nil
}

// validateContainerHooksAndProbes applies the hook and probe rules of
// regular containers and sidecars.
func validateContainerHooksAndProbes(c *api.Container, cc *containerContext, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	grace := cc.gracePeriod
	if c.Lifecycle != nil {
		errs = append(errs, validateLifecycle(c.Lifecycle, grace, cc.os, p.Child("lifecycle"))...)
	}
	errs = append(errs, validateProbe(c.LivenessProbe, probeLiveness, grace, p.Child("livenessProbe"))...)
	errs = append(errs, validateProbe(c.ReadinessProbe, probeReadiness, grace, p.Child("readinessProbe"))...)
	return append(errs, validateProbe(c.StartupProbe, probeStartup, grace, p.Child("startupProbe"))...)
}

var restartPolicyValues = []string{"Always", "Never", "OnFailure"}

// validateContainerRestartPolicy checks a container's own restartPolicy
// and restartPolicyRules, which container restart rules (KEP-5307, on by
// default in v1.36) allow on regular and init containers alike.
func validateContainerRestartPolicy(c *api.Container, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if c.RestartPolicy != nil {
		switch *c.RestartPolicy {
		case api.RestartPolicyAlways, api.RestartPolicyNever, api.RestartPolicyOnFailure:
		default:
			errs = append(errs, api.NotSupported(p.Child("restartPolicy"), string(*c.RestartPolicy), restartPolicyValues))
		}
	} else if len(c.RestartPolicyRules) > 0 {
		errs = append(errs, api.Required(p.Child("restartPolicy"), "must specify restartPolicy when restart rules are used"))
	}
	rp := p.Child("restartPolicyRules")
	if len(c.RestartPolicyRules) > 20 {
		errs = append(errs, api.TooMany(rp, len(c.RestartPolicyRules), 20))
	}
	for i, r := range c.RestartPolicyRules {
		ip := rp.Index(i)
		switch r.Action {
		case api.RestartRuleActionRestart, api.RestartRuleActionRestartAllContainers:
		case "":
			errs = append(errs, api.Required(ip.Child("action"), ""))
		default:
			errs = append(errs, api.NotSupported(ip.Child("action"), string(r.Action), []string{"Restart", "RestartAllContainers"}))
		}
		if r.ExitCodes == nil {
			errs = append(errs, api.Required(ip.Child("exitCodes"), "must be specified"))
			continue
		}
		ep := ip.Child("exitCodes")
		switch r.ExitCodes.Operator {
		case api.ExitCodesOpIn, api.ExitCodesOpNotIn:
		case "":
			errs = append(errs, api.Required(ep.Child("operator"), ""))
		default:
			errs = append(errs, api.NotSupported(ep.Child("operator"), r.ExitCodes.Operator, []string{"In", "NotIn"}))
		}
		if len(r.ExitCodes.Values) > 255 {
			errs = append(errs, api.TooMany(ep.Child("values"), len(r.ExitCodes.Values), 255))
		}
		seen := make(map[int32]bool, len(r.ExitCodes.Values))
		for j, v := range r.ExitCodes.Values {
			if seen[v] {
				errs = append(errs, api.Duplicate(ep.Child("values").Index(j), v))
			}
			seen[v] = true
		}
	}
	return errs
}

// hostPortConflicts reports a (protocol, hostIP, hostPort) claimed twice
// among containers (core validation's AccumulateUniqueHostPorts).
func hostPortConflicts(containers []api.Container, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	seen := map[string]bool{}
	for i := range containers {
		for j, port := range containers[i].Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if seen[key] {
				errs = append(errs, api.Duplicate(p.Index(i).Child("ports").Index(j).Child("hostPort"), key))
			}
			seen[key] = true
		}
	}
	return errs
}

// validateContainerPorts checks names (IANA service names, unique),
// container and host port numbers and protocols.
func validateContainerPorts(ports []api.ContainerPort, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	names := map[string]bool{}
	for i, port := range ports {
		ip := p.Index(i)
		if port.Name != "" {
			if msgs := isValidPortName(port.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					errs = append(errs, api.Invalid(ip.Child("name"), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, api.Duplicate(ip.Child("name"), port.Name))
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, api.Required(ip.Child("containerPort"), ""))
		} else if !validPortNum(int64(port.ContainerPort)) {
			errs = append(errs, api.Invalid(ip.Child("containerPort"), port.ContainerPort, portRangeMsg))
		}
		if port.HostPort != 0 && !validPortNum(int64(port.HostPort)) {
			errs = append(errs, api.Invalid(ip.Child("hostPort"), port.HostPort, portRangeMsg))
		}
		switch port.Protocol {
		case api.ProtocolTCP, api.ProtocolUDP, api.ProtocolSCTP:
		case "":
			errs = append(errs, api.Required(ip.Child("protocol"), ""))
		default:
			errs = append(errs, api.NotSupported(ip.Child("protocol"), string(port.Protocol), []string{"SCTP", "TCP", "UDP"}))
		}
	}
	return errs
}

const portRangeMsg = "must be between 1 and 65535, inclusive"

func validPortNum(n int64) bool { return n >= 1 && n <= 65535 }

// isValidPortName is apimachinery's IsValidPortName: an IANA service name
// of 1-15 lower-case alphanumerics and dashes, with a letter, no dash at
// either end and no two dashes in a row.
func isValidPortName(s string) []string {
	var msgs []string
	if len(s) > 15 {
		msgs = append(msgs, "must be no more than 15 characters")
	}
	letter, ok := false, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9', c == '-':
		default:
			ok = false
		}
	}
	if !ok {
		msgs = append(msgs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !letter {
		msgs = append(msgs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(s, "--") {
		msgs = append(msgs, "must not contain consecutive hyphens")
	}
	if s != "" && (s[0] == '-' || s[len(s)-1] == '-') {
		msgs = append(msgs, "must not begin or end with a hyphen")
	}
	return msgs
}

// validateEnv checks environment variables: a name of printable ASCII
// without '=' (relaxed names, GA in v1.34) and at most one value source.
func validateEnv(env []api.EnvVar, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, ev := range env {
		ip := p.Index(i)
		if ev.Name == "" {
			errs = append(errs, api.Required(ip.Child("name"), ""))
		} else if !isRelaxedEnvVarName(ev.Name) {
			errs = append(errs, api.Invalid(ip.Child("name"), ev.Name, "a valid environment variable name must consist only of printable ASCII characters other than '='"))
		}
		if ev.ValueFrom == nil {
			continue
		}
		vp := ip.Child("valueFrom")
		n := 0
		vf := ev.ValueFrom
		if vf.FieldRef != nil {
			n++
			errs = append(errs, ValidateObjectFieldSelector(*vf.FieldRef, downward.Env, vp.Child("fieldRef"))...)
		}
		if vf.ResourceFieldRef != nil {
			n++
			errs = append(errs, ValidateResourceFieldSelector(*vf.ResourceFieldRef, downward.Env, vp.Child("resourceFieldRef"))...)
		}
		if vf.ConfigMapKeyRef != nil {
			n++
			errs = append(errs, validateKeySelector(vf.ConfigMapKeyRef.Name, vf.ConfigMapKeyRef.Key, vp.Child("configMapKeyRef"))...)
		}
		if vf.SecretKeyRef != nil {
			n++
			errs = append(errs, validateKeySelector(vf.SecretKeyRef.Name, vf.SecretKeyRef.Key, vp.Child("secretKeyRef"))...)
		}
		if vf.FileKeyRef != nil {
			n++
		}
		switch {
		case n == 0:
			errs = append(errs, api.Invalid(vp, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
		case ev.Value != "":
			errs = append(errs, api.Invalid(vp, "", "may not be specified when `value` is not empty"))
		case n > 1:
			errs = append(errs, api.Invalid(vp, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

// validateKeySelector checks a configMapKeyRef or secretKeyRef: the name
// a DNS subdomain (so an empty one is Invalid, not Required), the key
// present and a valid configuration key.
func validateKeySelector(name, key string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, msg := range api.IsDNS1123Subdomain(name) {
		errs = append(errs, api.Invalid(p.Child("name"), name, msg))
	}
	if key == "" {
		return append(errs, api.Required(p.Child("key"), ""))
	}
	for _, msg := range isConfigMapKey(key) {
		errs = append(errs, api.Invalid(p.Child("key"), key, msg))
	}
	return errs
}

// isConfigMapKey returns why s is not a valid ConfigMap or Secret key:
// at most 253 characters of [-._a-zA-Z0-9], and not ".", ".." or
// anything starting with "..".
func isConfigMapKey(s string) []string {
	var msgs []string
	if len(s) > 253 {
		msgs = append(msgs, "must be no more than 253 characters")
	}
	ok := s != ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			ok = false
			break
		}
	}
	if !ok {
		msgs = append(msgs, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')")
	}
	switch {
	case s == ".":
		msgs = append(msgs, "must not be '.'")
	case s == "..":
		msgs = append(msgs, "must not be '..'")
	case strings.HasPrefix(s, ".."):
		msgs = append(msgs, "must not start with '..'")
	}
	return msgs
}

func isRelaxedEnvVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' || s[i] == '=' {
			return false
		}
	}
	return true
}

// validateEnvFrom checks envFrom sources: exactly one of configMapRef or
// secretRef, each naming its object.
func validateEnvFrom(from []api.EnvFromSource, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, ef := range from {
		ip := p.Index(i)
		if ef.Prefix != "" && !isRelaxedEnvVarName(ef.Prefix) {
			errs = append(errs, api.Invalid(ip.Child("prefix"), ef.Prefix, "a valid environment variable name must consist only of printable ASCII characters other than '='"))
		}
		n := 0
		if ef.ConfigMapRef != nil {
			n++
			if ef.ConfigMapRef.Name == "" {
				errs = append(errs, api.Required(ip.Child("configMapRef").Child("name"), ""))
			}
		}
		if ef.SecretRef != nil {
			n++
			if ef.SecretRef.Name == "" {
				errs = append(errs, api.Required(ip.Child("secretRef").Child("name"), ""))
			}
		}
		if n == 0 {
			errs = append(errs, api.Invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if n > 1 {
			errs = append(errs, api.Invalid(p, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

// validateVolumeMounts checks that each mount of the container names a
// volume of the pod, has a unique mount path and a relative, non-escaping
// subPath, uses neither a name nor a path of the container's volumeDevices,
// asks for Bidirectional propagation only in a privileged container, and
// sets recursiveReadOnly consistently.
func validateVolumeMounts(c *api.Container, volumes map[string]*api.VolumeSource, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	paths := map[string]bool{}
	// Upstream keeps one device path per volume name (the last one).
	var devPathByName map[string]string
	var devPaths map[string]bool
	if len(c.VolumeDevices) > 0 {
		devPathByName = make(map[string]string, len(c.VolumeDevices))
		for _, d := range c.VolumeDevices {
			devPathByName[d.Name] = d.DevicePath
		}
		devPaths = make(map[string]bool, len(devPathByName))
		for _, dp := range devPathByName {
			devPaths[dp] = true
		}
	}
	privileged := c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged
	for i, m := range c.VolumeMounts {
		ip := p.Index(i)
		if m.Name == "" {
			errs = append(errs, api.Required(ip.Child("name"), ""))
		}
		_, ok := volumes[m.Name]
		if !ok {
			errs = append(errs, api.NotFound(ip.Child("name"), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, api.Required(ip.Child("mountPath"), ""))
		}
		if paths[m.MountPath] {
			errs = append(errs, api.Invalid(ip.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
		if _, ok := devPathByName[m.Name]; ok {
			errs = append(errs, api.Invalid(ip.Child("name"), m.Name, "must not already exist in volumeDevices"))
		}
		if devPaths[m.MountPath] {
			errs = append(errs, api.Invalid(ip.Child("mountPath"), m.MountPath, "must not already exist as a path in volumeDevices"))
		}
		// Image volumes may be mounted with a subPath in v1.36.
		// Upstream reports subPath problems under the list's path, not the
		// mount's; kept for identical field names.
		if m.SubPath != "" {
			errs = append(errs, api.ValidateLocalDescendingPath(m.SubPath, p.Child("subPath"))...)
		}
		if m.SubPathExpr != "" {
			if m.SubPath != "" {
				errs = append(errs, api.Invalid(ip.Child("subPathExpr"), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, api.ValidateLocalDescendingPath(m.SubPathExpr, p.Child("subPathExpr"))...)
		}
		if m.MountPropagation != nil {
			switch *m.MountPropagation {
			case "None", "HostToContainer", "Bidirectional":
			default:
				errs = append(errs, api.NotSupported(p.Child("mountPropagation"), *m.MountPropagation, []string{"Bidirectional", "HostToContainer", "None"}))
			}
			if *m.MountPropagation == "Bidirectional" && !privileged {
				errs = append(errs, api.Forbidden(p.Child("mountPropagation"), "Bidirectional mount propagation is available only to privileged containers"))
			}
		}
		if m.RecursiveReadOnly != nil {
			errs = append(errs, validateRecursiveReadOnly(&c.VolumeMounts[i], p.Child("recursiveReadOnly"))...)
		}
	}
	return errs
}

// validateResizePolicy checks in-place resize policies: cpu or memory,
// each at most once, with NotRequired or RestartContainer.
func validateResizePolicy(policies []api.ContainerResizePolicy, podRestart api.RestartPolicy, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	seen := map[api.ResourceName]bool{}
	for i, rp := range policies {
		if seen[rp.ResourceName] {
			errs = append(errs, api.Duplicate(p.Index(i), string(rp.ResourceName)))
		}
		seen[rp.ResourceName] = true
		switch rp.ResourceName {
		case api.ResourceCPU, api.ResourceMemory:
		case "":
			errs = append(errs, api.Required(p, ""))
		default:
			errs = append(errs, api.NotSupported(p, string(rp.ResourceName), []string{"cpu", "memory"}))
		}
		switch rp.RestartPolicy {
		case "NotRequired", "RestartContainer":
		case "":
			errs = append(errs, api.Required(p, ""))
		default:
			errs = append(errs, api.NotSupported(p, rp.RestartPolicy, []string{"NotRequired", "RestartContainer"}))
		}
		if podRestart == api.RestartPolicyNever && rp.RestartPolicy != "NotRequired" {
			errs = append(errs, api.Invalid(p, rp.RestartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'"))
		}
	}
	return errs
}
