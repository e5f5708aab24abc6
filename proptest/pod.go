package proptest

import (
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

// Constraints is a set of pod features that decide where a pod may run.
// PodOptions.Without lists the ones generated pods must not carry, so that
// a property can be stated for code that handles only some of them.
type Constraints uint16

// The features PodOptions.Without can leave out.
const (
	// NodeAffinity: spec.nodeSelector and spec.affinity.nodeAffinity.
	NodeAffinity Constraints = 1 << iota
	// PodAffinity: spec.affinity.podAffinity and podAntiAffinity.
	PodAffinity
	// TopologySpread: spec.topologySpreadConstraints.
	TopologySpread
	// Tolerations: the pod's own spec.tolerations. Stored pods still get
	// the not-ready and unreachable tolerations the DefaultTolerationSeconds
	// admission plugin adds to every pod.
	Tolerations
	// HostPorts: containers' ports[].hostPort.
	HostPorts
	// ExtendedResources: nvidia.com/gpu and hugepages-2Mi requests.
	ExtendedResources
)

// PodOptions configure Pod. The zero value draws every kind of pod the
// package knows, in the namespaces, apps and topology of its defaults.
type PodOptions struct {
	// Namespaces the pods are created in. Nil means "default", "team-a"
	// and "team-b".
	Namespaces []string
	// Apps are the values of the pods' app label; workload names, pod
	// (anti-)affinity and spread selectors are built from them, so a small
	// set makes pods select each other. Nil means "web", "api", "worker",
	// "cache" and "batch".
	Apps []string
	// PriorityClasses are the classes that exist: pods name one of them
	// (or none) in spec.priorityClassName and, unless AsWritten, carry the
	// priority and preemption policy the Priority admission plugin resolves
	// from them (admission.ResolvePriority). Nil means
	// DefaultPriorityClasses(); an empty non-nil slice means no class
	// exists and no pod names one.
	PriorityClasses []api.PriorityClass
	// Topology is the world node affinity and spread constraints refer to.
	Topology Topology
	// NodeNames are nodes that node affinity's matchFields terms and
	// DaemonSet pods may name; nil means none is named.
	NodeNames []string
	// Without lists the constraints the pods never carry.
	Without Constraints
	// MaxContainers bounds spec.containers (at least one is drawn); 0
	// means 3. MaxInitContainers bounds spec.initContainers, sidecars
	// included; 0 means 3 and a negative value none.
	MaxContainers     int
	MaxInitContainers int
	// AsWritten leaves pods as a user writes them: no uid, creation time
	// or generation, no priority resolved, none of the API server's
	// defaulting or admission. Such a pod passes create validation once
	// api.DefaultPod has been applied to it. Otherwise pods are as the API
	// server stores them after a create: defaulted (api.DefaultPod), with
	// the Priority and DefaultTolerationSeconds admission plugins applied
	// (admission.ResolvePriority, admission.DefaultTolerations), a uid,
	// generation 1 and a creation time in the day before Now.
	AsWritten bool
	// Now is the moment the pods are observed at; zero means
	// 2025-06-01T12:00:00Z.
	Now time.Time
}

// DefaultPriorityClasses returns the PriorityClasses generated pods name
// when PodOptions.PriorityClasses is nil, and that generated clusters hold:
// the two system classes the API server creates
// (api.SystemPriorityClasses) and four of a typical cluster —
// "batch-low" (100, never preempts), "standard" (1000, the global
// default), "high-priority" (100000) and "critical-apps" (1000000). Each
// is stored as the API server would store it (preemptionPolicy defaulted).
func DefaultPriorityClasses() []api.PriorityClass {
	class := func(name string, value int32, def bool, policy api.PreemptionPolicy, desc string) api.PriorityClass {
		pc := api.PriorityClass{
			TypeMeta:   api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta: api.ObjectMeta{Name: name, UID: uidOf("PriorityClass", "", name)},
			Value:      value, GlobalDefault: def, Description: desc,
		}
		if policy != "" {
			pc.PreemptionPolicy = &policy
		}
		api.DefaultPriorityClass(&pc)
		return pc
	}
	return append(api.SystemPriorityClasses(),
		class("batch-low", 100, false, api.PreemptNever, "Batch work that waits rather than preempts."),
		class("standard", 1000, true, "", "The default for pods that name no class."),
		class("high-priority", 100000, false, "", "User-facing services."),
		class("critical-apps", 1000000, false, "", "Services the whole cluster depends on."),
	)
}

// Pod returns a generator of pods that pass the API server's create
// validation (after api.DefaultPod when opts.AsWritten is set), drawn to
// exercise the pod semantics: regular and init containers and sidecars
// (init containers with restartPolicy Always); liveness, readiness and
// startup probes with each mechanism (exec, httpGet, tcpSocket, grpc) and
// valid timings and thresholds; postStart and preStop hooks (exec,
// httpGet, sleep within the grace period); requests and limits of cpu,
// memory and ephemeral-storage (requests never above limits, pods of each
// QoS class), nvidia.com/gpu and hugepages-2Mi (requests equal to limits,
// huge pages beside cpu or memory); container ports, host ports,
// environment variables with fieldRef and resourceFieldRef, emptyDir,
// configMap and secret volumes and their mounts, security contexts;
// required and preferred node affinity (every operator, matchFields),
// nodeSelector, required and preferred pod affinity and anti-affinity
// (namespaces, namespaceSelector, matchLabelKeys, mismatchLabelKeys),
// topology spread constraints (minDomains with DoNotSchedule,
// matchLabelKeys, node inclusion policies), tolerations, priority classes,
// terminationGracePeriodSeconds, activeDeadlineSeconds, readiness gates,
// and labels, annotations and owner references of ReplicaSet, StatefulSet,
// Job and DaemonSet pods and of bare ones.
//
// The pods are new: unscheduled, with the status the API server gives a
// pod it creates (phase Pending and the pod's QoS class), or none when
// AsWritten.
func Pod(opts PodOptions) *rapid.Generator[*api.Pod] {
	g := newPodGen(opts)
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		d := newDrawer(t)
		id := g.drawIdentity(d)
		p := g.drawPod(d, id)
		g.finish(d, p)
		return p
	})
}

// podGen holds PodOptions with their defaults resolved.
type podGen struct {
	opts       PodOptions
	namespaces []string
	apps       []string
	classes    []api.PriorityClass
	tp         Topology
	maxC       int
	maxInit    int
	now        time.Time
	// appsIn, when set (by Cluster), are the apps of each namespace whose
	// pods exist: pod affinity looks for them rather than for any app.
	appsIn map[string][]string
}

// affinityApps are the apps pod affinity terms of p may select.
func (g *podGen) affinityApps(p *api.Pod) []string {
	if apps := g.appsIn[p.Namespace]; len(apps) > 0 {
		return apps
	}
	return g.apps
}

func newPodGen(opts PodOptions) *podGen {
	g := &podGen{opts: opts, tp: opts.Topology, now: nowOr(opts.Now)}
	g.namespaces = opts.Namespaces
	if g.namespaces == nil {
		g.namespaces = []string{"default", "team-a", "team-b"}
	}
	g.apps = opts.Apps
	if g.apps == nil {
		g.apps = []string{"web", "api", "worker", "cache", "batch"}
	}
	g.classes = opts.PriorityClasses
	if g.classes == nil {
		g.classes = DefaultPriorityClasses()
	}
	g.maxC = opts.MaxContainers
	if g.maxC <= 0 {
		g.maxC = 3
	}
	g.maxInit = opts.MaxInitContainers
	switch {
	case g.maxInit == 0:
		g.maxInit = 3
	case g.maxInit < 0:
		g.maxInit = 0
	}
	return g
}

// Owner kinds of generated pods.
const (
	kindBare        = ""
	kindReplicaSet  = "ReplicaSet"
	kindStatefulSet = "StatefulSet"
	kindJob         = "Job"
	kindDaemonSet   = "DaemonSet"
)

// identity is who a pod is: its namespace, app, the controller that owns
// it and its name.
type identity struct {
	namespace, app string
	kind           string
	owner          string // the owner's name
	hash           string // pod-template-hash or controller-revision-hash
	ordinal        int    // a StatefulSet pod's index
	name           string
}

func (g *podGen) drawIdentity(d *drawer) identity {
	id := identity{
		namespace: pick(d, "namespace", g.namespaces),
		app:       pick(d, "app", g.apps),
		kind:      pick(d, "owner-kind", []string{kindReplicaSet, kindBare, kindStatefulSet, kindJob, kindDaemonSet}),
	}
	id.hash = templateHash(id.namespace, id.app, intIn(d, "revision", 0, 2))
	suffix := encode(hashOf(strconv.Itoa(intIn(d, "name-suffix", 0, 1<<20))), 5)
	switch id.kind {
	case kindReplicaSet:
		id.owner = id.app + "-" + id.hash
		id.name = id.owner + "-" + suffix
	case kindStatefulSet:
		id.owner = id.app
		id.ordinal = intIn(d, "ordinal", 0, 4)
		id.name = id.app + "-" + strconv.Itoa(id.ordinal)
	case kindJob, kindDaemonSet:
		id.owner = id.app
		id.name = id.app + "-" + suffix
	default:
		id.name = id.app
		if flip(d, "bare-suffix") {
			id.name += "-" + suffix
		}
	}
	return id
}

// drawPod draws the pod's metadata and spec.
func (g *podGen) drawPod(d *drawer, id identity) *api.Pod {
	p := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: id.name, Namespace: id.namespace},
	}
	g.drawMeta(d, p, id)
	s := &p.Spec
	switch id.kind {
	case kindJob:
		s.RestartPolicy = pick(d, "restart-policy", []api.RestartPolicy{api.RestartPolicyNever, api.RestartPolicyOnFailure})
	case kindBare:
		s.RestartPolicy = pick(d, "restart-policy", []api.RestartPolicy{"", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever})
	default:
		s.RestartPolicy = pick(d, "restart-policy", []api.RestartPolicy{"", api.RestartPolicyAlways})
	}
	// Optional fields are left unset about as often as they are set, so
	// that every package's reading of an absent value is exercised.
	if flip(d, "grace-set") {
		s.TerminationGracePeriodSeconds = ptr(int64(pick(d, "grace", []int{30, 0, 5, 10, 60, 120, 300, 3600})))
	}
	if flip(d, "deadline") {
		s.ActiveDeadlineSeconds = ptr(int64(pick(d, "deadline-seconds", []int{600, 60, 3600, 86400})))
	}
	if id.kind == kindStatefulSet {
		s.Hostname, s.Subdomain = id.name, id.app
	}
	if chance(d, "service-account", 3) {
		s.ServiceAccountName = id.app
		if chance(d, "automount", 3) {
			s.AutomountServiceAccountToken = ptr(false)
		}
	}
	if chance(d, "dns-default", 10) {
		s.DNSPolicy = api.DNSDefault
	}
	if chance(d, "os", 5) {
		s.OS = &api.PodOS{Name: api.Linux}
	}
	if chance(d, "pod-security", 4) {
		uid := int64(pick(d, "run-as-user", []int{1000, 65532, 101}))
		s.SecurityContext = &api.PodSecurityContext{
			RunAsNonRoot:   ptr(true),
			RunAsUser:      &uid,
			FSGroup:        ptr(uid),
			SeccompProfile: &api.SeccompProfile{Type: "RuntimeDefault"},
		}
	}
	if chance(d, "readiness-gate", 10) {
		s.ReadinessGates = []api.PodReadinessGate{{ConditionType: "example.com/load-balancer-ready"}}
	}
	g.drawVolumes(d, p)
	g.drawContainers(d, p)
	g.drawPlacement(d, p, id)
	if len(g.classes) > 0 && !chance(d, "no-priority-class", 3) {
		s.PriorityClassName = pick(d, "priority-class", g.classes).Name
	}
	return p
}

// drawMeta draws labels, annotations and the owner reference.
func (g *podGen) drawMeta(d *drawer, p *api.Pod, id identity) {
	labels := map[string]string{"app": id.app}
	switch id.kind {
	case kindReplicaSet:
		labels[workloads.LabelPodTemplateHash] = id.hash
	case kindStatefulSet:
		labels[api.LabelControllerRevisionHash] = id.owner + "-" + id.hash
		labels[api.LabelStatefulSetPodName] = id.name
		labels[api.LabelPodIndex] = strconv.Itoa(id.ordinal)
	case kindJob:
		labels["batch.kubernetes.io/job-name"] = id.owner
		labels["job-name"] = id.owner
	case kindDaemonSet:
		labels[api.LabelControllerRevisionHash] = id.hash
		labels["pod-template-generation"] = "1"
	}
	if flip(d, "label-app-name") {
		labels[labelAppName] = id.app
	}
	if chance(d, "label-tier", 3) {
		labels[labelTier] = pick(d, "tier", []string{"frontend", "backend", "data"})
	}
	if chance(d, "label-team", 3) {
		labels[labelTeam] = pick(d, "team", []string{"team-a", "team-b", "platform"})
	}
	if chance(d, "label-version", 4) {
		labels["version"] = pick(d, "version", []string{"v1.4.2", "1.0", "2025.06.01-rc.1"})
	}
	p.Labels = labels

	var ann map[string]string
	add := func(k, v string) {
		if ann == nil {
			ann = map[string]string{}
		}
		ann[k] = v
	}
	if chance(d, "ann-prometheus", 3) {
		add("prometheus.io/scrape", "true")
		add("prometheus.io/port", "9090")
	}
	if chance(d, "ann-safe-to-evict", 6) {
		add("cluster-autoscaler.kubernetes.io/safe-to-evict", strconv.FormatBool(flip(d, "safe-to-evict")))
	}
	if chance(d, "ann-deletion-cost", 6) {
		add("controller.kubernetes.io/pod-deletion-cost", strconv.Itoa(intIn(d, "deletion-cost", -1000, 1000)))
	}
	if chance(d, "ann-description", 8) {
		add("example.com/description", "Free text: annotations take any value, even = and / or \"quotes\".")
	}
	p.Annotations = ann

	if id.kind != kindBare {
		apiVersion := "apps/v1"
		if id.kind == kindJob {
			apiVersion = "batch/v1"
		}
		p.OwnerReferences = []api.OwnerReference{{
			APIVersion: apiVersion, Kind: id.kind, Name: id.owner,
			UID:        uidOf(id.kind, id.namespace, id.owner),
			Controller: ptr(true), BlockOwnerDeletion: ptr(true),
		}}
	}
}

// finish turns a drawn pod into the stored object, unless AsWritten.
func (g *podGen) finish(d *drawer, p *api.Pod) {
	if g.opts.AsWritten {
		return
	}
	p.UID = uidOf("Pod", p.Namespace, p.Name)
	p.Generation = 1
	p.CreationTimestamp = api.NewTime(g.now.Add(-time.Duration(intIn(d, "age-seconds", 0, 86400)) * time.Second))
	if prio, err := admission.ResolvePriority(p, g.classes); err == nil {
		prio.Apply(p)
	} else {
		// The class list lacks the one named (only possible with a caller's
		// list that misses it): the pod is stored without it, as if it
		// named none.
		p.Spec.PriorityClassName = ""
	}
	api.DefaultPod(p)
	p.Spec.Tolerations = admission.DefaultTolerations(p, admission.TolerationSeconds{})
	p.Status = api.InitialPodStatus(p)
}

// drawVolumes draws the pod's volumes: scratch space, configuration and
// a certificate.
func (g *podGen) drawVolumes(d *drawer, p *api.Pod) {
	if chance(d, "vol-cache", 3) {
		ed := &api.EmptyDirVolumeSource{}
		if flip(d, "vol-cache-limit") {
			q := api.MustParseQuantity(pick(d, "vol-cache-size", []string{"1Gi", "500Mi", "10Gi"}))
			ed.SizeLimit = &q
		}
		if chance(d, "vol-cache-memory", 5) {
			ed.Medium = "Memory"
		}
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "cache", VolumeSource: api.VolumeSource{EmptyDir: ed}})
	}
	if chance(d, "vol-config", 3) {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "config", VolumeSource: api.VolumeSource{
			ConfigMap: &api.ConfigMapVolumeSource{LocalObjectReference: api.LocalObjectReference{Name: p.Labels["app"] + "-config"}},
		}})
	}
	if chance(d, "vol-tls", 5) {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "tls", VolumeSource: api.VolumeSource{
			Secret: &api.SecretVolumeSource{SecretName: p.Labels["app"] + "-tls"},
		}})
	}
}

// mountPath is where containers mount each generated volume.
func mountPath(volume string) string {
	switch volume {
	case "cache":
		return "/var/cache/app"
	case "config":
		return "/etc/app"
	}
	return "/etc/tls"
}

// drawPlacement draws the constraints on where the pod may run.
func (g *podGen) drawPlacement(d *drawer, p *api.Pod, id identity) {
	w := g.opts.Without
	var aff api.Affinity
	if w&NodeAffinity == 0 {
		p.Spec.NodeSelector = g.drawNodeSelector(d)
		aff.NodeAffinity = g.drawNodeAffinity(d, id)
	}
	if w&PodAffinity == 0 {
		aff.PodAffinity, aff.PodAntiAffinity = g.drawPodAffinity(d, p)
	}
	if aff != (api.Affinity{}) {
		p.Spec.Affinity = &aff
	}
	if w&TopologySpread == 0 {
		p.Spec.TopologySpreadConstraints = g.drawSpread(d, p)
	}
	if w&Tolerations == 0 {
		p.Spec.Tolerations = g.drawTolerations(d, p, id)
	}
}
