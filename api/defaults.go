package api

// API server v1 defaults for pods (pkg/apis/core/v1 defaulting in
// Kubernetes v1.36.3, default feature gates: PodLevelResources on).
const (
	// DefaultTerminationGracePeriodSeconds is the value the API server's
	// defaulting gives spec.terminationGracePeriodSeconds when a pod is
	// created without one. Pods stored before defaulting (or built by hand)
	// may lack it; upstream's functions then treat the absent value as 0 at
	// the API server's DELETE and as "no preference" in the kubelet, and
	// podsem's calculators that mirror them do the same. The models that
	// follow a pod through the cluster (termination.BuildTimeline,
	// lifecycle.Machine) read such a pod as stored, through the one
	// function termination.StoredGracePeriodSeconds.
	DefaultTerminationGracePeriodSeconds int64 = 30
	DefaultSchedulerName                       = "default-scheduler"
	DefaultTerminationMessagePath              = "/dev/termination-log"
	DefaultTerminationMessagePolicy            = "File"
	// DefaultVolumeMode is the file mode (0644) of secret, configMap,
	// downwardAPI and projected volume files when none is given.
	DefaultVolumeMode int32 = 0o644
	// Probe timing defaults.
	DefaultProbeTimeoutSeconds   int32 = 1
	DefaultProbePeriodSeconds    int32 = 10
	DefaultProbeSuccessThreshold int32 = 1
	DefaultProbeFailureThreshold int32 = 3
)

// DefaultPod applies the API server's v1 defaulting to pod in place, as
// happens when a pod is created or updated through the API: restartPolicy
// Always, dnsPolicy ClusterFirst, schedulerName default-scheduler,
// terminationGracePeriodSeconds 30, an empty pod securityContext,
// enableServiceLinks true, container imagePullPolicy (Always for a :latest
// or untagged image, else IfNotPresent), terminationMessagePath/Policy, port
// protocol TCP (and hostPort = containerPort under hostNetwork), probe
// timing and httpGet path/scheme, volume modes and an emptyDir for a volume
// with no source, the rbd, iscsi and azureDisk source defaults and a generic
// ephemeral volume's claim volumeMode Filesystem, fieldRef apiVersion v1, quantities rounded up to milli
// units, container requests copied from limits, and pod-level resource
// defaults (requests from limits or the container aggregate, hugepage
// limits; other pod-level limits are never defaulted).
//
// Nothing in podsem calls it implicitly: most inputs (and most conformance
// vectors) are deliberately not defaulted, so callers opt in. A nil pod is
// left alone.
func DefaultPod(pod *Pod) {
	if pod == nil {
		return
	}
	s := &pod.Spec
	defaultPodSpec(s, s.HostNetwork)
	// Requests default to limits per container, before the pod-level
	// defaults that aggregate them.
	for i := range s.Containers {
		copyLimitsToRequests(&s.Containers[i].Resources)
	}
	for i := range s.InitContainers {
		copyLimitsToRequests(&s.InitContainers[i].Resources)
	}
	defaultHugePagePodLimits(pod)
	defaultPodRequests(pod)
	if s.EnableServiceLinks == nil {
		t := true
		s.EnableServiceLinks = &t
	}
}

// defaultPodSpec is the v1 defaulting of a pod spec wherever one appears
// (SetDefaults_PodSpec and the generated per-field defaults: containers,
// probes, volumes, ports, quantities). hostNetworkPorts applies the
// hostNetwork port default, which upstream applies to pods only
// (SetDefaults_Pod), never to a workload's template.
func defaultPodSpec(s *PodSpec, hostNetworkPorts bool) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		g := DefaultTerminationGracePeriodSeconds
		s.TerminationGracePeriodSeconds = &g
	}
	if s.SchedulerName == "" {
		s.SchedulerName = DefaultSchedulerName
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i], hostNetworkPorts)
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i], hostNetworkPorts)
	}
	for i := range s.EphemeralContainers {
		defaultContainer(&s.EphemeralContainers[i].Container, false)
	}
	roundUpToMilli(s.Overhead)
	if s.Resources != nil {
		roundUpToMilli(s.Resources.Limits)
		roundUpToMilli(s.Resources.Requests)
	}
}

// InitialPodStatus returns the status the API server stores for a pod it
// creates, whatever status the request carried (the pod registry
// strategy's PrepareForCreate in pkg/registry/core/pod, v1.36.3): phase
// Pending, the pod's QoS class (ComputePodQOS), which the API server fixes
// here for the pod's whole life, and, while spec.schedulingGates is not
// empty, a PodScheduled=False condition with reason SchedulingGated and
// upstream's message (KEP-3521). It is where every pod's status starts
// before kube-scheduler or the kubelet writes to it. A nil pod gives the
// zero PodStatus.
func InitialPodStatus(pod *Pod) PodStatus {
	if pod == nil {
		return PodStatus{}
	}
	st := PodStatus{Phase: PodPending, QOSClass: ComputePodQOS(pod)}
	if len(pod.Spec.SchedulingGates) > 0 {
		st.Conditions = []PodCondition{{
			Type:    PodScheduled,
			Status:  ConditionFalse,
			Reason:  PodReasonSchedulingGated,
			Message: MessageSchedulingGated,
		}}
	}
	return st
}

func copyLimitsToRequests(r *ResourceRequirements) {
	if r.Limits == nil {
		return
	}
	if r.Requests == nil {
		r.Requests = make(ResourceList, len(r.Limits))
	}
	for k, v := range r.Limits {
		if _, ok := r.Requests[k]; !ok {
			r.Requests[k] = v
		}
	}
}

func roundUpToMilli(l ResourceList) {
	for k, v := range l {
		if v.scale >= -3 {
			// No digit below the milli scale: RoundUp(-3) keeps the value
			// (however large; MilliValue would saturate at the int64 limit).
			continue
		}
		m := NewMilliQuantity(v.MilliValue(), v.Format())
		if m.Cmp(v) != 0 {
			l[k] = m
		}
	}
}

// ImagePullPolicyFor is the imagePullPolicy the API server's v1 defaulting
// gives a container (or image volume) with none: Always when the image's
// tag is "latest", spelled out or implied by a reference with neither tag
// nor digest ("nginx", "localhost:5000/nginx"); IfNotPresent otherwise,
// including a digest-only reference ("nginx@sha256:…") and a reference
// the API server cannot parse (it ignores the error and sees no tag). A
// reference with both, such as "nginx:latest@sha256:…", has tag latest and
// gets Always. It is the one default for the whole module: the pod state
// machine pulls by it too.
func ImagePullPolicyFor(image string) PullPolicy {
	if tag, _ := imageTag(image); tag == "latest" {
		return PullAlways
	}
	return PullIfNotPresent
}

func defaultContainer(c *Container, hostNetwork bool) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = ImagePullPolicyFor(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = DefaultTerminationMessagePath
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = DefaultTerminationMessagePolicy
	}
	for j := range c.Ports {
		p := &c.Ports[j]
		if p.Protocol == "" {
			p.Protocol = ProtocolTCP
		}
		if hostNetwork && p.HostPort == 0 {
			p.HostPort = p.ContainerPort
		}
	}
	for _, pr := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if pr != nil {
			defaultProbe(pr)
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil && h.HTTPGet != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
	for j := range c.Env {
		if vf := c.Env[j].ValueFrom; vf != nil && vf.FieldRef != nil && vf.FieldRef.APIVersion == "" {
			vf.FieldRef.APIVersion = "v1"
		}
	}
	roundUpToMilli(c.Resources.Limits)
	roundUpToMilli(c.Resources.Requests)
}

func defaultProbe(p *Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = DefaultProbeTimeoutSeconds
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = DefaultProbePeriodSeconds
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = DefaultProbeSuccessThreshold
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = DefaultProbeFailureThreshold
	}
	if p.HTTPGet != nil {
		defaultHTTPGet(p.HTTPGet)
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		empty := ""
		p.GRPC.Service = &empty
	}
}

func defaultHTTPGet(h *HTTPGetAction) {
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = URISchemeHTTP
	}
}

func defaultMode(m **int32) {
	if *m == nil {
		v := DefaultVolumeMode
		*m = &v
	}
}

func defaultVolume(v *Volume) {
	vs := &v.VolumeSource
	if *vs == (VolumeSource{}) {
		vs.EmptyDir = &EmptyDirVolumeSource{}
	}
	if vs.Secret != nil {
		defaultMode(&vs.Secret.DefaultMode)
	}
	if vs.ConfigMap != nil {
		defaultMode(&vs.ConfigMap.DefaultMode)
	}
	if vs.DownwardAPI != nil {
		defaultMode(&vs.DownwardAPI.DefaultMode)
		defaultFieldRefs(vs.DownwardAPI.Items)
	}
	if vs.Projected != nil {
		defaultMode(&vs.Projected.DefaultMode)
		for i := range vs.Projected.Sources {
			src := &vs.Projected.Sources[i]
			if src.DownwardAPI != nil {
				defaultFieldRefs(src.DownwardAPI.Items)
			}
			if src.ServiceAccountToken != nil && src.ServiceAccountToken.ExpirationSeconds == nil {
				h := int64(3600)
				src.ServiceAccountToken.ExpirationSeconds = &h
			}
		}
	}
	if vs.HostPath != nil && vs.HostPath.Type == nil {
		t := ""
		vs.HostPath.Type = &t
	}
	if vs.Image != nil && vs.Image.PullPolicy == "" {
		vs.Image.PullPolicy = ImagePullPolicyFor(vs.Image.Reference)
	}
	defaultInTreeVolume(vs)
}

func defaultFieldRefs(items []DownwardAPIVolumeFile) {
	for i := range items {
		if f := items[i].FieldRef; f != nil && f.APIVersion == "" {
			f.APIVersion = "v1"
		}
	}
}

// IsSupportedPodLevelResource reports whether name may be set in a pod's
// spec.resources: cpu, memory and hugepages-* (component-helpers resource).
func IsSupportedPodLevelResource(name ResourceName) bool {
	return name == ResourceCPU || name == ResourceMemory || name.IsHugePages()
}

// isOvercommitAllowed: huge pages may not be overcommitted (requests must
// equal limits); every other resource may.
func isOvercommitAllowed(name ResourceName) bool { return !name.IsHugePages() }

func hasSupported(l ResourceList) bool {
	for k := range l {
		if IsSupportedPodLevelResource(k) {
			return true
		}
	}
	return false
}

// defaultHugePagePodLimits: with pod-level resources partly given, a hugepage
// limit set on containers but not on the pod (and not requested at pod
// level) becomes the pod's limit, aggregated over the containers.
func defaultHugePagePodLimits(pod *Pod) {
	r := pod.Spec.Resources
	if r == nil || (len(r.Limits) == 0 && len(r.Requests) == 0) {
		return
	}
	lims := r.Limits
	if lims == nil {
		lims = ResourceList{}
	}
	for k, v := range AggregateContainerLimits(pod, PodResourcesOptions{}) {
		if !k.IsHugePages() {
			continue
		}
		if _, ok := r.Requests[k]; ok {
			continue
		}
		if _, ok := lims[k]; !ok {
			lims[k] = v
		}
	}
	if len(lims) > 0 {
		r.Limits = lims
	}
}

// defaultPodRequests: with pod-level limits given, a pod-level request
// missing for a resource the containers request becomes the containers'
// aggregate request (overcommittable resources only); one still missing
// becomes the pod-level limit.
func defaultPodRequests(pod *Pod) {
	r := pod.Spec.Resources
	if r == nil || len(r.Limits) == 0 {
		return
	}
	reqs := r.Requests
	if reqs == nil {
		reqs = ResourceList{}
	}
	for k, v := range AggregateContainerRequests(pod, PodResourcesOptions{}) {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) && isOvercommitAllowed(k) {
			reqs[k] = v
		}
	}
	for k, v := range r.Limits {
		if _, ok := reqs[k]; !ok && IsSupportedPodLevelResource(k) {
			reqs[k] = v
		}
	}
	if len(reqs) > 0 {
		r.Requests = reqs
	}
}
