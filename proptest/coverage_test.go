package proptest_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/proptest"
)

// podFeature is one thing Pod's documentation says its pods carry.
type podFeature struct {
	name string
	has  func(p *api.Pod) bool
}

func anyContainer(p *api.Pod, f func(c *api.Container, sidecar bool) bool) bool {
	for i := range p.Spec.InitContainers {
		if f(&p.Spec.InitContainers[i], p.Spec.InitContainers[i].IsSidecar()) {
			return true
		}
	}
	for i := range p.Spec.Containers {
		if f(&p.Spec.Containers[i], false) {
			return true
		}
	}
	return false
}

func anyProbe(p *api.Pod, f func(kind string, pr *api.Probe) bool) bool {
	return anyContainer(p, func(c *api.Container, _ bool) bool {
		return c.LivenessProbe != nil && f("liveness", c.LivenessProbe) ||
			c.ReadinessProbe != nil && f("readiness", c.ReadinessProbe) ||
			c.StartupProbe != nil && f("startup", c.StartupProbe)
	})
}

func anyNodeRequirement(p *api.Pod, f func(r api.NodeSelectorRequirement, field bool) bool) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return false
	}
	terms := []api.NodeSelectorTerm{}
	if r := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		terms = append(terms, r.NodeSelectorTerms...)
	}
	for _, pt := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		terms = append(terms, pt.Preference)
	}
	for _, term := range terms {
		for _, r := range term.MatchExpressions {
			if f(r, false) {
				return true
			}
		}
		for _, r := range term.MatchFields {
			if f(r, true) {
				return true
			}
		}
	}
	return false
}

func podTerms(p *api.Pod) (affReq, affPref, antiReq, antiPref []api.PodAffinityTerm) {
	a := p.Spec.Affinity
	if a == nil {
		return
	}
	if pa := a.PodAffinity; pa != nil {
		affReq = pa.RequiredDuringSchedulingIgnoredDuringExecution
		for _, w := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			affPref = append(affPref, w.PodAffinityTerm)
		}
	}
	if pa := a.PodAntiAffinity; pa != nil {
		antiReq = pa.RequiredDuringSchedulingIgnoredDuringExecution
		for _, w := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			antiPref = append(antiPref, w.PodAffinityTerm)
		}
	}
	return
}

func anyPodTerm(p *api.Pod, f func(api.PodAffinityTerm) bool) bool {
	a, b, c, d := podTerms(p)
	return slices.ContainsFunc(slices.Concat(a, b, c, d), f)
}

func anySpread(p *api.Pod, f func(api.TopologySpreadConstraint) bool) bool {
	return slices.ContainsFunc(p.Spec.TopologySpreadConstraints, f)
}

func anyToleration(p *api.Pod, f func(api.Toleration) bool) bool {
	return slices.ContainsFunc(p.Spec.Tolerations, f)
}

func anyEnv(p *api.Pod, f func(api.EnvVar) bool) bool {
	return anyContainer(p, func(c *api.Container, _ bool) bool { return slices.ContainsFunc(c.Env, f) })
}

func anyResource(p *api.Pod, f func(r *api.ResourceRequirements) bool) bool {
	return anyContainer(p, func(c *api.Container, _ bool) bool { return f(&c.Resources) })
}

func anyVolume(p *api.Pod, f func(api.Volume) bool) bool {
	return slices.ContainsFunc(p.Spec.Volumes, f)
}

func ownedBy(kind string) func(p *api.Pod) bool {
	return func(p *api.Pod) bool {
		ref := p.ControllerRef()
		if kind == "" {
			return ref == nil
		}
		return ref != nil && ref.Kind == kind
	}
}

func hasPriorityClass(name string) func(p *api.Pod) bool {
	return func(p *api.Pod) bool { return p.Spec.PriorityClassName == name }
}

// podFeatures lists every field Pod's documentation claims, as a predicate.
func podFeatures() []podFeature {
	handler := func(kind, mech string) podFeature {
		return podFeature{kind + " probe " + mech, func(p *api.Pod) bool {
			return anyProbe(p, func(k string, pr *api.Probe) bool {
				if k != kind {
					return false
				}
				switch mech {
				case "exec":
					return pr.Exec != nil
				case "httpGet":
					return pr.HTTPGet != nil
				case "tcpSocket":
					return pr.TCPSocket != nil
				}
				return pr.GRPC != nil
			})
		}}
	}
	op := func(o api.NodeSelectorOperator) podFeature {
		return podFeature{"node affinity operator " + string(o), func(p *api.Pod) bool {
			return anyNodeRequirement(p, func(r api.NodeSelectorRequirement, field bool) bool { return !field && r.Operator == o })
		}}
	}
	qos := func(c api.PodQOSClass) podFeature {
		return podFeature{"QoS " + string(c), func(p *api.Pod) bool { return api.ComputePodQOS(p) == c }}
	}
	restart := func(rp api.RestartPolicy) podFeature {
		return podFeature{"restartPolicy " + string(rp), func(p *api.Pod) bool { return p.Spec.RestartPolicy == rp }}
	}
	fs := []podFeature{
		{"init container", func(p *api.Pod) bool {
			return slices.ContainsFunc(p.Spec.InitContainers, func(c api.Container) bool { return !c.IsSidecar() })
		}},
		{"sidecar", func(p *api.Pod) bool {
			return slices.ContainsFunc(p.Spec.InitContainers, func(c api.Container) bool { return c.IsSidecar() })
		}},
		{"two regular containers", func(p *api.Pod) bool { return len(p.Spec.Containers) >= 2 }},
		{"sidecar with startup probe", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, sc bool) bool { return sc && c.StartupProbe != nil })
		}},
		{"sidecar with preStop", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, sc bool) bool { return sc && c.Lifecycle != nil && c.Lifecycle.PreStop != nil })
		}},
		{"readiness successThreshold > 1", func(p *api.Pod) bool {
			return anyProbe(p, func(k string, pr *api.Probe) bool { return k == "readiness" && pr.SuccessThreshold > 1 })
		}},
		{"failureThreshold other than 3", func(p *api.Pod) bool {
			return anyProbe(p, func(_ string, pr *api.Probe) bool { return pr.FailureThreshold != 3 })
		}},
		{"probe initialDelaySeconds", func(p *api.Pod) bool {
			return anyProbe(p, func(_ string, pr *api.Probe) bool { return pr.InitialDelaySeconds > 0 })
		}},
		{"probe terminationGracePeriodSeconds", func(p *api.Pod) bool {
			return anyProbe(p, func(_ string, pr *api.Probe) bool { return pr.TerminationGracePeriodSeconds != nil })
		}},
		{"probe on a named port", func(p *api.Pod) bool {
			return anyProbe(p, func(_ string, pr *api.Probe) bool {
				return pr.HTTPGet != nil && pr.HTTPGet.Port.IsString || pr.TCPSocket != nil && pr.TCPSocket.Port.IsString
			})
		}},
		{"httpGet HTTPS", func(p *api.Pod) bool {
			return anyProbe(p, func(_ string, pr *api.Probe) bool {
				return pr.HTTPGet != nil && pr.HTTPGet.Scheme == api.URISchemeHTTPS
			})
		}},
		{"postStart exec", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return c.Lifecycle != nil && c.Lifecycle.PostStart != nil && c.Lifecycle.PostStart.Exec != nil
			})
		}},
		{"postStart httpGet", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return c.Lifecycle != nil && c.Lifecycle.PostStart != nil && c.Lifecycle.PostStart.HTTPGet != nil
			})
		}},
		{"preStop exec", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Exec != nil
			})
		}},
		{"preStop httpGet", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.HTTPGet != nil
			})
		}},
		{"preStop sleep > 0", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil && c.Lifecycle.PreStop.Sleep.Seconds > 0
			})
		}},
		{"cpu request", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool { _, ok := r.Requests[api.ResourceCPU]; return ok })
		}},
		{"cpu limit above request", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool {
				l, ok1 := r.Limits[api.ResourceCPU]
				q, ok2 := r.Requests[api.ResourceCPU]
				return ok1 && ok2 && l.Cmp(q) > 0
			})
		}},
		{"memory limit", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool { _, ok := r.Limits[api.ResourceMemory]; return ok })
		}},
		{"ephemeral-storage request", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool { _, ok := r.Requests[api.ResourceEphemeralStorage]; return ok })
		}},
		{"nvidia.com/gpu", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool { _, ok := r.Limits["nvidia.com/gpu"]; return ok })
		}},
		{"hugepages-2Mi", func(p *api.Pod) bool {
			return anyResource(p, func(r *api.ResourceRequirements) bool { _, ok := r.Limits["hugepages-2Mi"]; return ok })
		}},
		qos(api.PodQOSBestEffort), qos(api.PodQOSBurstable), qos(api.PodQOSGuaranteed),
		{"container port", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool { return len(c.Ports) > 0 })
		}},
		{"host port", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return slices.ContainsFunc(c.Ports, func(cp api.ContainerPort) bool { return cp.HostPort != 0 })
			})
		}},
		{"UDP port", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool {
				return slices.ContainsFunc(c.Ports, func(cp api.ContainerPort) bool { return cp.Protocol == api.ProtocolUDP })
			})
		}},
		{"env fieldRef", func(p *api.Pod) bool {
			return anyEnv(p, func(e api.EnvVar) bool { return e.ValueFrom != nil && e.ValueFrom.FieldRef != nil })
		}},
		{"env resourceFieldRef", func(p *api.Pod) bool {
			return anyEnv(p, func(e api.EnvVar) bool { return e.ValueFrom != nil && e.ValueFrom.ResourceFieldRef != nil })
		}},
		{"env secretKeyRef", func(p *api.Pod) bool {
			return anyEnv(p, func(e api.EnvVar) bool { return e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil })
		}},
		{"env configMapKeyRef", func(p *api.Pod) bool {
			return anyEnv(p, func(e api.EnvVar) bool { return e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil })
		}},
		{"envFrom", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool { return len(c.EnvFrom) > 0 })
		}},
		{"emptyDir volume", func(p *api.Pod) bool { return anyVolume(p, func(v api.Volume) bool { return v.EmptyDir != nil }) }},
		{"configMap volume", func(p *api.Pod) bool { return anyVolume(p, func(v api.Volume) bool { return v.ConfigMap != nil }) }},
		{"secret volume", func(p *api.Pod) bool { return anyVolume(p, func(v api.Volume) bool { return v.Secret != nil }) }},
		{"volume mount", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool { return len(c.VolumeMounts) > 0 })
		}},
		{"container securityContext", func(p *api.Pod) bool {
			return anyContainer(p, func(c *api.Container, _ bool) bool { return c.SecurityContext != nil })
		}},
		{"pod securityContext runAsNonRoot", func(p *api.Pod) bool {
			return p.Spec.SecurityContext != nil && p.Spec.SecurityContext.RunAsNonRoot != nil
		}},
		{"nodeSelector", func(p *api.Pod) bool { return len(p.Spec.NodeSelector) > 0 }},
		{"required node affinity", func(p *api.Pod) bool {
			return p.Spec.Affinity != nil && p.Spec.Affinity.NodeAffinity != nil && p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil
		}},
		{"preferred node affinity", func(p *api.Pod) bool {
			return p.Spec.Affinity != nil && p.Spec.Affinity.NodeAffinity != nil && len(p.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
		}},
		op(api.NodeSelectorOpIn), op(api.NodeSelectorOpNotIn), op(api.NodeSelectorOpExists),
		op(api.NodeSelectorOpDoesNotExist), op(api.NodeSelectorOpGt), op(api.NodeSelectorOpLt),
		{"node affinity matchFields", func(p *api.Pod) bool {
			return anyNodeRequirement(p, func(_ api.NodeSelectorRequirement, field bool) bool { return field })
		}},
		{"required pod affinity", func(p *api.Pod) bool { a, _, _, _ := podTerms(p); return len(a) > 0 }},
		{"preferred pod affinity", func(p *api.Pod) bool { _, a, _, _ := podTerms(p); return len(a) > 0 }},
		{"required pod anti-affinity", func(p *api.Pod) bool { _, _, a, _ := podTerms(p); return len(a) > 0 }},
		{"preferred pod anti-affinity", func(p *api.Pod) bool { _, _, _, a := podTerms(p); return len(a) > 0 }},
		{"pod affinity namespaces", func(p *api.Pod) bool {
			return anyPodTerm(p, func(t api.PodAffinityTerm) bool { return len(t.Namespaces) > 0 })
		}},
		{"pod affinity namespaceSelector", func(p *api.Pod) bool {
			return anyPodTerm(p, func(t api.PodAffinityTerm) bool { return t.NamespaceSelector != nil })
		}},
		{"pod affinity matchLabelKeys", func(p *api.Pod) bool {
			return anyPodTerm(p, func(t api.PodAffinityTerm) bool { return len(t.MatchLabelKeys) > 0 })
		}},
		{"pod affinity mismatchLabelKeys", func(p *api.Pod) bool {
			return anyPodTerm(p, func(t api.PodAffinityTerm) bool { return len(t.MismatchLabelKeys) > 0 })
		}},
		{"spread DoNotSchedule", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return c.WhenUnsatisfiable == api.DoNotSchedule })
		}},
		{"spread ScheduleAnyway", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return c.WhenUnsatisfiable == api.ScheduleAnyway })
		}},
		{"two spread constraints", func(p *api.Pod) bool { return len(p.Spec.TopologySpreadConstraints) == 2 }},
		{"spread minDomains", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return c.MinDomains != nil })
		}},
		{"spread matchLabelKeys", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return len(c.MatchLabelKeys) > 0 })
		}},
		{"spread nodeAffinityPolicy", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return c.NodeAffinityPolicy != nil })
		}},
		{"spread nodeTaintsPolicy", func(p *api.Pod) bool {
			return anySpread(p, func(c api.TopologySpreadConstraint) bool { return c.NodeTaintsPolicy != nil })
		}},
		{"toleration Equal", func(p *api.Pod) bool {
			return anyToleration(p, func(t api.Toleration) bool { return t.Value != "" })
		}},
		{"toleration Exists (beyond admission's)", func(p *api.Pod) bool {
			return anyToleration(p, func(t api.Toleration) bool {
				return t.Operator == api.TolerationOpExists && t.Key != "" && t.Key != api.TaintNodeNotReady && t.Key != api.TaintNodeUnreachable
			})
		}},
		{"admission's default tolerations", func(p *api.Pod) bool {
			return anyToleration(p, func(t api.Toleration) bool {
				return t.Key == api.TaintNodeNotReady && t.TolerationSeconds != nil && *t.TolerationSeconds == 300
			})
		}},
		{"toleration of every taint", func(p *api.Pod) bool {
			return anyToleration(p, func(t api.Toleration) bool { return t.Key == "" })
		}},
		{"tolerationSeconds other than admission's 300", func(p *api.Pod) bool {
			return anyToleration(p, func(t api.Toleration) bool { return t.TolerationSeconds != nil && *t.TolerationSeconds != 300 })
		}},
		{"priorityClassName standard (the global default)", hasPriorityClass("standard")},
		{"spec.priority", func(p *api.Pod) bool { return p.Spec.Priority != nil && *p.Spec.Priority > 0 }},
		{"priorityClassName system-node-critical", hasPriorityClass("system-node-critical")},
		{"priorityClassName batch-low", hasPriorityClass("batch-low")},
		{"priorityClassName critical-apps", hasPriorityClass("critical-apps")},
		{"preemptionPolicy Never", func(p *api.Pod) bool {
			return p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy == api.PreemptNever
		}},
		{"terminationGracePeriodSeconds 0", func(p *api.Pod) bool {
			return p.Spec.TerminationGracePeriodSeconds != nil && *p.Spec.TerminationGracePeriodSeconds == 0
		}},
		{"terminationGracePeriodSeconds > 30", func(p *api.Pod) bool {
			return p.Spec.TerminationGracePeriodSeconds != nil && *p.Spec.TerminationGracePeriodSeconds > 30
		}},
		{"activeDeadlineSeconds", func(p *api.Pod) bool { return p.Spec.ActiveDeadlineSeconds != nil }},
		restart(api.RestartPolicyAlways), restart(api.RestartPolicyOnFailure), restart(api.RestartPolicyNever),
		{"readiness gate", func(p *api.Pod) bool { return len(p.Spec.ReadinessGates) > 0 }},
		{"spec.os", func(p *api.Pod) bool { return p.Spec.OS != nil }},
		{"serviceAccountName", func(p *api.Pod) bool { return p.Spec.ServiceAccountName != "" }},
		{"hostname and subdomain", func(p *api.Pod) bool { return p.Spec.Hostname != "" && p.Spec.Subdomain != "" }},
		{"prefixed label key", func(p *api.Pod) bool { _, ok := p.Labels["app.kubernetes.io/name"]; return ok }},
		{"annotations", func(p *api.Pod) bool { return len(p.Annotations) > 0 }},
		{"pod-deletion-cost", func(p *api.Pod) bool { _, ok := p.Annotations["controller.kubernetes.io/pod-deletion-cost"]; return ok }},
		{"owned by ReplicaSet", ownedBy("ReplicaSet")}, {"owned by StatefulSet", ownedBy("StatefulSet")},
		{"owned by Job", ownedBy("Job")}, {"owned by DaemonSet", ownedBy("DaemonSet")}, {"bare pod", ownedBy("")},
	}
	for _, kind := range []string{"liveness", "readiness", "startup"} {
		for _, mech := range []string{"exec", "httpGet", "tcpSocket", "grpc"} {
			fs = append(fs, handler(kind, mech))
		}
	}
	return fs
}

// Over 2,000 pods (seeds 0..1999, so the figures are the same on every
// run), Pod produces every field its documentation claims.
func TestPodCoverage(t *testing.T) {
	const draws = 2000
	g := proptest.Pod(proptest.PodOptions{NodeNames: []string{"node-1", "node-2", "node-3"}})
	fs := podFeatures()
	counts := make([]int, len(fs))
	for seed := range draws {
		p := g.Example(seed)
		for i, f := range fs {
			if f.has(p) {
				counts[i]++
			}
		}
	}
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] < counts[order[b]] })
	for _, i := range order {
		t.Logf("%5.1f%%  %s", 100*float64(counts[i])/draws, fs[i].name)
		if counts[i] == 0 {
			t.Errorf("no pod in %d has %s", draws, fs[i].name)
		}
	}
}
