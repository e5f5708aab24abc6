package proptest

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// containerRole is the kind of container being drawn.
type containerRole uint8

const (
	roleRegular containerRole = iota
	roleInit                  // an init container that runs to completion
	roleSidecar               // an init container with restartPolicy Always
)

// The QoS class a pod's resources are drawn towards.
const (
	qosBurstable = iota
	qosBestEffort
	qosGuaranteed
)

// containerCtx is what the containers of one pod share while drawn.
type containerCtx struct {
	pod       *api.Pod
	names     map[string]bool
	hostPorts map[string]bool
	qos       int
	grace     int64
	gpu       bool // the pod asks for GPUs, in its first regular container
	hostPort  bool // the pod asks for a host port, on its first port
	hugePages bool // the pod asks for huge pages, in its first container with cpu or memory
}

func (cx *containerCtx) uniqueName(base string) string {
	name := base
	for i := 2; cx.names[name]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	cx.names[name] = true
	return name
}

// drawContainers draws the pod's init containers (sidecars among them)
// and its regular containers.
func (g *podGen) drawContainers(d *drawer, p *api.Pod) {
	cx := &containerCtx{
		pod:       p,
		names:     map[string]bool{},
		hostPorts: map[string]bool{},
		qos:       pick(d, "qos", []int{qosBurstable, qosBestEffort, qosGuaranteed}),
		grace:     termination.StoredGracePeriodSeconds(p),
	}
	gpus, hugePages := g.tp.offers()
	cx.gpu = gpus && g.opts.Without&ExtendedResources == 0 && chance(d, "gpu", 60)
	cx.hostPort = g.opts.Without&HostPorts == 0 && chance(d, "host-port", 25)
	cx.hugePages = hugePages && g.opts.Without&ExtendedResources == 0 && chance(d, "hugepages", 40)
	for range intIn(d, "init-containers", 0, g.maxInit) {
		role := roleInit
		if flip(d, "sidecar") {
			role = roleSidecar
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, g.drawContainer(d, cx, role))
	}
	for range intIn(d, "containers", 1, g.maxC) {
		p.Spec.Containers = append(p.Spec.Containers, g.drawContainer(d, cx, roleRegular))
	}
	if chance(d, "ann-default-container", 6) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations["kubectl.kubernetes.io/default-container"] = p.Spec.Containers[0].Name
	}
}

func (g *podGen) drawContainer(d *drawer, cx *containerCtx, role containerRole) api.Container {
	var c api.Container
	var n named
	switch role {
	case roleRegular:
		n = pickNamed(d, cx, "container", []named{
			{"app", "ghcr.io/example/app:v1.4.2"}, {"server", "nginx:1.27"}, {"cache", "redis:7.2"},
			{"worker", "example.com/team/worker@sha256:4c1b2c6fbd8f0e5c8b9d1a3f7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b"},
			{"debug", "busybox"}, {"pause", "registry.k8s.io/pause:3.10"},
		})
		if flip(d, "command") {
			c.Command = []string{"/app/server"}
			c.Args = []string{"--port=8080", "--log-level=info"}
		}
	case roleInit:
		n = pickNamed(d, cx, "init-container", []named{
			{"init-db", "busybox:1.36"}, {"migrate", "ghcr.io/example/migrate:v3"}, {"wait-for-deps", "alpine:3.20"},
		})
		c.Command = []string{"sh", "-c", "until nslookup db; do sleep 2; done"}
	case roleSidecar:
		n = pickNamed(d, cx, "sidecar", []named{
			{"istio-proxy", "docker.io/istio/proxyv2:1.22.0"}, {"log-shipper", "fluent/fluent-bit:3.0"},
			{"vault-agent", "hashicorp/vault:1.17"}, {"cloud-sql-proxy", "gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0"},
		})
		c.Args = []string{"--config=/etc/app/sidecar.yaml"}
		c.RestartPolicy = ptr(api.RestartPolicyAlways)
	}
	c.Name, c.Image = cx.uniqueName(n.name), n.image
	if chance(d, "pull-policy", 4) {
		c.ImagePullPolicy = pick(d, "pull-policy-value", []api.PullPolicy{api.PullIfNotPresent, api.PullAlways, api.PullNever})
	}
	if chance(d, "termination-message-policy", 5) {
		c.TerminationMessagePolicy = "FallbackToLogsOnError"
	}
	if role != roleInit {
		c.Ports = g.drawPorts(d, cx, role)
	}
	c.Env = drawEnv(d, cx)
	if chance(d, "env-from", 6) {
		c.EnvFrom = []api.EnvFromSource{{ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: cx.pod.Labels["app"] + "-config"}}}}
	}
	for _, v := range cx.pod.Spec.Volumes {
		if flip(d, "mount") {
			c.VolumeMounts = append(c.VolumeMounts, api.VolumeMount{Name: v.Name, MountPath: mountPath(v.Name), ReadOnly: v.Name != "cache"})
		}
	}
	c.Resources = g.drawResources(d, cx, role)
	if role != roleInit {
		if chance(d, "liveness", 2) {
			c.LivenessProbe = drawProbe(d, cx, &c, "liveness")
		}
		if chance(d, "readiness", 2) {
			c.ReadinessProbe = drawProbe(d, cx, &c, "readiness")
		}
		if chance(d, "startup", 4) {
			c.StartupProbe = drawProbe(d, cx, &c, "startup")
		}
		c.Lifecycle = drawLifecycle(d, cx, &c)
	}
	if chance(d, "security-context", 4) {
		c.SecurityContext = &api.SecurityContext{
			AllowPrivilegeEscalation: ptr(false),
			ReadOnlyRootFilesystem:   ptr(true),
			RunAsNonRoot:             ptr(true),
			Capabilities:             &api.Capabilities{Drop: []string{"ALL"}},
		}
		if chance(d, "bind-service", 4) {
			c.SecurityContext.Capabilities.Add = []string{"NET_BIND_SERVICE"}
		}
	}
	return c
}

// named is a container name with the image it usually runs.
type named struct{ name, image string }

// pickNamed draws one of the candidates whose name the pod does not use
// yet, or any when it uses them all (uniqueName then adds a suffix).
func pickNamed(d *drawer, cx *containerCtx, label string, candidates []named) named {
	var free []named
	for _, c := range candidates {
		if !cx.names[c.name] {
			free = append(free, c)
		}
	}
	if len(free) == 0 {
		free = candidates
	}
	return pick(d, label, free)
}

// drawPorts draws a container's ports: named or not, a protocol or the
// default, and now and then a host port unique in the pod.
func (g *podGen) drawPorts(d *drawer, cx *containerCtx, role containerRole) []api.ContainerPort {
	candidates := []api.ContainerPort{
		{Name: "http", ContainerPort: 8080}, {Name: "https", ContainerPort: 8443},
		{Name: "metrics", ContainerPort: 9090}, {Name: "grpc", ContainerPort: 50051},
		{Name: "dns", ContainerPort: 53, Protocol: api.ProtocolUDP}, {Name: "redis", ContainerPort: 6379},
	}
	if role == roleSidecar {
		candidates = []api.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090}, {Name: "admin", ContainerPort: 2020}}
	}
	var ports []api.ContainerPort
	for _, cp := range candidates {
		if len(ports) == 2 || !chance(d, "port", 3) {
			continue
		}
		if chance(d, "port-unnamed", 3) {
			cp.Name = ""
		}
		if cp.Protocol == "" && flip(d, "port-protocol") {
			cp.Protocol = api.ProtocolTCP
		}
		if cx.hostPort {
			cx.hostPort = false
			proto := cp.Protocol
			if proto == "" {
				proto = api.ProtocolTCP
			}
			key := fmt.Sprint(proto, "/", cp.ContainerPort)
			if !cx.hostPorts[key] {
				cx.hostPorts[key] = true
				cp.HostPort = cp.ContainerPort
			}
		}
		ports = append(ports, cp)
	}
	return ports
}

// drawEnv draws a container's environment: plain values, the downward
// API's fieldRef and resourceFieldRef, and keys of a ConfigMap and a
// Secret.
func drawEnv(d *drawer, cx *containerCtx) []api.EnvVar {
	app := cx.pod.Labels["app"]
	field := func(path string) *api.EnvVarSource {
		return &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: path}}
	}
	candidates := []api.EnvVar{
		{Name: "LOG_LEVEL", Value: "info"},
		{Name: "POD_NAME", ValueFrom: field("metadata.name")},
		{Name: "POD_NAMESPACE", ValueFrom: field("metadata.namespace")},
		{Name: "POD_IP", ValueFrom: field("status.podIP")},
		{Name: "NODE_NAME", ValueFrom: field("spec.nodeName")},
		{Name: "APP_LABEL", ValueFrom: field("metadata.labels['app']")},
		{Name: "GOMAXPROCS", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu"}}},
		{Name: "MEMORY_REQUEST", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "requests.memory"}}},
		{Name: "DB_PASSWORD", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: app + "-db"}, Key: "password"}}},
		{Name: "FEATURE_FLAGS", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{LocalObjectReference: api.LocalObjectReference{Name: app + "-config"}, Key: "flags.yaml"}}},
	}
	var env []api.EnvVar
	for _, e := range candidates {
		if chance(d, "env", 5) {
			env = append(env, e)
		}
	}
	return env
}

// cpuQuantity writes milli-cpu as people do: whole cores plain, the rest
// in millicores.
func cpuQuantity(milli int64) api.Quantity {
	if milli%1000 == 0 {
		return api.MustParseQuantity(strconv.FormatInt(milli/1000, 10))
	}
	return api.MustParseQuantity(strconv.FormatInt(milli, 10) + "m")
}

// mebiQuantity writes a size given in MiB in Gi when it is whole
// gibibytes, else in Mi.
func mebiQuantity(mi int64) api.Quantity {
	if mi%1024 == 0 {
		return api.MustParseQuantity(strconv.FormatInt(mi/1024, 10) + "Gi")
	}
	return api.MustParseQuantity(strconv.FormatInt(mi, 10) + "Mi")
}

// drawResources draws a container's requests and limits towards the
// pod's QoS class: requests never above limits, extended resources and
// huge pages with requests equal to limits (or only limits, which
// defaulting copies), huge pages only beside cpu or memory.
func (g *podGen) drawResources(d *drawer, cx *containerCtx, role containerRole) api.ResourceRequirements {
	req, lim := api.ResourceList{}, api.ResourceList{}
	// Mostly small, as most containers are (sidecars smaller still); now
	// and then a big one.
	cpus := []int64{100, 50, 250, 10, 200, 100, 500, 1000, 2000}
	mems := []int64{128, 64, 256, 32, 512, 128, 256, 1024, 2048}
	if role == roleSidecar {
		cpus, mems = []int64{50, 10, 100}, []int64{64, 32, 128}
	}
	switch cx.qos {
	case qosGuaranteed:
		cpu, mem := cpuQuantity(pick(d, "cpu", cpus)), mebiQuantity(pick(d, "memory", mems))
		lim[api.ResourceCPU], lim[api.ResourceMemory] = cpu, mem
		if flip(d, "requests-explicit") {
			req[api.ResourceCPU], req[api.ResourceMemory] = cpu, mem
		}
	case qosBurstable:
		if !chance(d, "no-cpu-request", 3) {
			m := pick(d, "cpu", cpus)
			req[api.ResourceCPU] = cpuQuantity(m)
			if chance(d, "cpu-limit", 3) {
				lim[api.ResourceCPU] = cpuQuantity(m * int64(pick(d, "cpu-limit-factor", []int{2, 1, 4})))
			}
		}
		if !chance(d, "no-memory-request", 3) {
			m := pick(d, "memory", mems)
			req[api.ResourceMemory] = mebiQuantity(m)
			if flip(d, "memory-limit") {
				lim[api.ResourceMemory] = mebiQuantity(m * int64(pick(d, "memory-limit-factor", []int{1, 2})))
			}
		}
	}
	if chance(d, "ephemeral-storage", 6) {
		m := pick(d, "ephemeral-storage-size", []int64{1024, 500, 2048})
		req[api.ResourceEphemeralStorage] = mebiQuantity(m)
		if flip(d, "ephemeral-storage-limit") {
			lim[api.ResourceEphemeralStorage] = mebiQuantity(2 * m)
		}
	}
	if g.opts.Without&ExtendedResources == 0 {
		if role == roleRegular && cx.gpu {
			cx.gpu = false
			n := api.NewQuantity(int64(intIn(d, "gpus", 1, 2)), api.DecimalSI)
			lim[resourceGPU] = n
			if flip(d, "gpu-request") {
				req[resourceGPU] = n
			}
		}
		_, reqCPU := req[api.ResourceCPU]
		_, reqMem := req[api.ResourceMemory]
		_, limCPU := lim[api.ResourceCPU]
		_, limMem := lim[api.ResourceMemory]
		if (reqCPU || reqMem || limCPU || limMem) && cx.hugePages {
			cx.hugePages = false
			hp := mebiQuantity(2 * int64(pick(d, "hugepages-pages", []int{1, 2, 64, 256})))
			lim[resourceHugePages2Mi] = hp
			if flip(d, "hugepages-request") {
				req[resourceHugePages2Mi] = hp
			}
		}
	}
	var r api.ResourceRequirements
	if len(req) > 0 {
		r.Requests = req
	}
	if len(lim) > 0 {
		r.Limits = lim
	}
	return r
}

// probePort is a port of the container to probe, by number or by name,
// or 8080 when the container declares none.
func probePort(d *drawer, c *api.Container) api.IntOrString {
	if len(c.Ports) == 0 {
		return api.FromInt32(8080)
	}
	cp := pick(d, "probe-port", c.Ports)
	if cp.Name != "" && flip(d, "probe-port-by-name") {
		return api.FromString(cp.Name)
	}
	return api.FromInt32(cp.ContainerPort)
}

// drawProbe draws a probe of the kind ("liveness", "readiness",
// "startup") with one mechanism and timings the API server accepts:
// successThreshold 1 for liveness and startup probes, a probe-level grace
// period only on those two. Zero timings are left for defaulting.
func drawProbe(d *drawer, cx *containerCtx, c *api.Container, kind string) *api.Probe {
	pr := &api.Probe{}
	switch pick(d, kind+"-mechanism", []string{"httpGet", "exec", "tcpSocket", "grpc"}) {
	case "httpGet":
		h := &api.HTTPGetAction{Path: pick(d, "probe-path", []string{"/healthz", "/ready", "/"}), Port: probePort(d, c)}
		if flip(d, "probe-scheme") {
			h.Scheme = pick(d, "probe-scheme-value", []api.URIScheme{api.URISchemeHTTP, api.URISchemeHTTPS})
		}
		if chance(d, "probe-header", 5) {
			h.HTTPHeaders = []api.HTTPHeader{{Name: "X-Probe", Value: "kubelet"}}
		}
		pr.HTTPGet = h
	case "exec":
		pr.Exec = &api.ExecAction{Command: []string{"cat", "/tmp/healthy"}}
	case "tcpSocket":
		pr.TCPSocket = &api.TCPSocketAction{Port: probePort(d, c)}
	case "grpc":
		pr.GRPC = &api.GRPCAction{Port: 50051}
		if flip(d, "grpc-service") {
			pr.GRPC.Service = ptr(kind)
		}
	}
	// Each optional timing is left unset (zero, for defaulting) about as
	// often as it is set.
	pr.InitialDelaySeconds = optional(d, "initial-delay", []int32{5, 10, 30})
	pr.TimeoutSeconds = optional(d, "timeout", []int32{1, 2, 5})
	pr.PeriodSeconds = optional(d, "period", []int32{10, 5, 30})
	pr.FailureThreshold = optional(d, "failure-threshold", []int32{3, 1, 5, 30})
	if kind == "readiness" {
		pr.SuccessThreshold = optional(d, "success-threshold", []int32{1, 2, 3})
	} else {
		pr.SuccessThreshold = optional(d, "success-threshold", []int32{1})
		if flip(d, "probe-grace") {
			pr.TerminationGracePeriodSeconds = ptr(int64(pick(d, "probe-grace-seconds", []int{10, 1, 60})))
		}
	}
	return pr
}

// drawLifecycle draws postStart and preStop hooks; a sleep never outlasts
// the pod's grace period.
func drawLifecycle(d *drawer, cx *containerCtx, c *api.Container) *api.Lifecycle {
	var lc api.Lifecycle
	if chance(d, "post-start", 6) {
		h := &api.LifecycleHandler{}
		if flip(d, "post-start-exec") {
			h.Exec = &api.ExecAction{Command: []string{"/bin/sh", "-c", "echo started > /tmp/started"}}
		} else {
			h.HTTPGet = &api.HTTPGetAction{Path: "/started", Port: probePort(d, c)}
		}
		lc.PostStart = h
	}
	if chance(d, "pre-stop", 3) {
		h := &api.LifecycleHandler{}
		switch pick(d, "pre-stop-mechanism", []string{"sleep", "exec", "httpGet"}) {
		case "sleep":
			h.Sleep = &api.SleepAction{Seconds: int64(intIn(d, "pre-stop-sleep", 0, int(min(cx.grace, 30))))}
		case "exec":
			h.Exec = &api.ExecAction{Command: []string{"/bin/sh", "-c", "nginx -s quit; sleep 5"}}
		case "httpGet":
			h.HTTPGet = &api.HTTPGetAction{Path: "/shutdown", Port: probePort(d, c), Scheme: api.URISchemeHTTP}
		}
		lc.PreStop = h
	}
	if lc.PostStart == nil && lc.PreStop == nil {
		return nil
	}
	return &lc
}
