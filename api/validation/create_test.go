package validation_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// vPtr returns a pointer to v.
func vPtr[T any](v T) *T { return &v }

// vPairs renders errors as sorted, distinct "field Type" strings, the
// form the conformance vectors compare.
func vPairs(errs api.FieldErrors) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, e := range errs {
		s := e.Field + " " + string(e.Type)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// vBasePod is a valid, v1-defaulted pod: one app container with a port,
// resources and a readiness probe, one init container, and a spread
// constraint.
func vBasePod() *api.Pod {
	probe := &api.Probe{
		ProbeHandler:     api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(8080), Scheme: api.URISchemeHTTP}},
		TimeoutSeconds:   1,
		PeriodSeconds:    10,
		SuccessThreshold: 1,
		FailureThreshold: 3,
	}
	return &api.Pod{
		TypeMeta:   api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{
				Name: "init", Image: "busybox", ImagePullPolicy: api.PullAlways,
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
			}},
			Containers: []api.Container{{
				Name: "app", Image: "nginx:1.27", ImagePullPolicy: api.PullIfNotPresent,
				Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: api.ProtocolTCP}},
				Resources: api.ResourceRequirements{
					Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m"), "memory": api.MustParseQuantity("64Mi")},
					Limits:   api.ResourceList{"memory": api.MustParseQuantity("128Mi")},
				},
				ReadinessProbe:         probe,
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
			}},
			RestartPolicy:                 api.RestartPolicyAlways,
			TerminationGracePeriodSeconds: vPtr(int64(30)),
			DNSPolicy:                     api.DNSClusterFirst,
			SchedulerName:                 "default-scheduler",
			EnableServiceLinks:            vPtr(true),
			TopologySpreadConstraints: []api.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			}},
		},
	}
}

func TestValidatePodCreateBaseIsValid(t *testing.T) {
	if errs := validation.ValidatePodCreate(vBasePod()); len(errs) != 0 {
		t.Fatalf("base pod rejected: %v", errs)
	}
}

func TestValidatePodCreateNil(t *testing.T) {
	if errs := validation.ValidatePodCreate(nil); len(errs) == 0 {
		t.Fatal("nil pod accepted")
	}
}

func TestValidatePodCreateRules(t *testing.T) {
	sidecar := func(p *api.Pod) *api.Container {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{
			Name: "proxy", Image: "envoy", ImagePullPolicy: api.PullAlways, RestartPolicy: vPtr(api.RestartPolicyAlways),
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
		})
		return &p.Spec.InitContainers[len(p.Spec.InitContainers)-1]
	}
	ephemeral := func(p *api.Pod) *api.EphemeralContainer {
		p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, api.EphemeralContainer{Container: api.Container{
			Name: "debugger", Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
		}})
		return &p.Spec.EphemeralContainers[len(p.Spec.EphemeralContainers)-1]
	}
	exec := &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"true"}}}
	liveness := func() *api.Probe {
		return &api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: &api.TCPSocketAction{Port: api.FromInt32(80)}}, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	}
	tsc := func(p *api.Pod) *api.TopologySpreadConstraint { return &p.Spec.TopologySpreadConstraints[0] }
	tests := []struct {
		name   string
		mutate func(p *api.Pod)
		want   []string
	}{
		// Names.
		{"duplicate app container", func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
			[]string{"spec.containers[1].name FieldValueDuplicate"}},
		{"init named like app container", func(p *api.Pod) { p.Spec.InitContainers[0].Name = "app" },
			[]string{"spec.initContainers[0].name FieldValueDuplicate"}},
		{"ephemeral named like init container", func(p *api.Pod) { ephemeral(p).Name = "init" },
			[]string{"spec.ephemeralContainers FieldValueForbidden", "spec.ephemeralContainers[0].name FieldValueDuplicate"}},
		{"container name not a DNS label", func(p *api.Pod) { p.Spec.Containers[0].Name = "App_1" },
			[]string{"spec.containers[0].name FieldValueInvalid"}},
		{"no image", func(p *api.Pod) { p.Spec.Containers[0].Image = "" },
			[]string{"spec.containers[0].image FieldValueRequired"}},
		{"image with whitespace", func(p *api.Pod) { p.Spec.Containers[0].Image = " nginx" },
			[]string{"spec.containers[0].image FieldValueInvalid"}},
		{"no containers", func(p *api.Pod) { p.Spec.Containers = nil },
			[]string{"spec.containers FieldValueRequired"}},

		// Init containers and sidecars.
		{"lifecycle on init container", func(p *api.Pod) { p.Spec.InitContainers[0].Lifecycle = &api.Lifecycle{PostStart: exec} },
			[]string{"spec.initContainers[0].lifecycle FieldValueForbidden"}},
		{"probes on init container", func(p *api.Pod) {
			c := &p.Spec.InitContainers[0]
			c.LivenessProbe, c.ReadinessProbe, c.StartupProbe = liveness(), liveness(), liveness()
		}, []string{
			"spec.initContainers[0].livenessProbe FieldValueForbidden",
			"spec.initContainers[0].readinessProbe FieldValueForbidden",
			"spec.initContainers[0].startupProbe FieldValueForbidden",
		}},
		{"probes and lifecycle on sidecar", func(p *api.Pod) {
			c := sidecar(p)
			c.LivenessProbe, c.StartupProbe = liveness(), liveness()
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 5}}}
		}, nil},
		{"sidecar liveness successThreshold", func(p *api.Pod) {
			c := sidecar(p)
			c.LivenessProbe = liveness()
			c.LivenessProbe.SuccessThreshold = 2
		}, []string{"spec.initContainers[1].livenessProbe.successThreshold FieldValueInvalid"}},
		{"preStop sleep longer than grace", func(p *api.Pod) {
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 31}}}
		}, []string{"spec.containers[0].lifecycle.preStop.sleep FieldValueInvalid"}},
		{"hook with two handlers", func(p *api.Pod) {
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PostStart: &api.LifecycleHandler{Exec: exec.Exec, Sleep: &api.SleepAction{Seconds: 1}}}
		}, []string{"spec.containers[0].lifecycle.postStart.sleep FieldValueForbidden"}},
		{"probe without handler", func(p *api.Pod) { p.Spec.Containers[0].ReadinessProbe.HTTPGet = nil },
			[]string{"spec.containers[0].readinessProbe FieldValueRequired"}},
		{"readiness probe with grace", func(p *api.Pod) { p.Spec.Containers[0].ReadinessProbe.TerminationGracePeriodSeconds = vPtr(int64(5)) },
			[]string{"spec.containers[0].readinessProbe.terminationGracePeriodSeconds FieldValueInvalid"}},
		{"negative probe period", func(p *api.Pod) { p.Spec.Containers[0].ReadinessProbe.PeriodSeconds = -1 },
			[]string{"spec.containers[0].readinessProbe.periodSeconds FieldValueInvalid"}},
		{"init restartPolicy Never", func(p *api.Pod) { p.Spec.InitContainers[0].RestartPolicy = vPtr(api.RestartPolicyNever) }, nil},
		{"init restartPolicy unknown", func(p *api.Pod) { p.Spec.InitContainers[0].RestartPolicy = vPtr(api.RestartPolicy("Sometimes")) },
			[]string{"spec.initContainers[0].restartPolicy FieldValueNotSupported"}},
		{"app container restartPolicy", func(p *api.Pod) { p.Spec.Containers[0].RestartPolicy = vPtr(api.RestartPolicyAlways) }, nil},
		{"restart rules without policy", func(p *api.Pod) {
			p.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.RestartRuleActionRestart, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: "In", Values: []int32{42}}}}
		}, []string{"spec.containers[0].restartPolicy FieldValueRequired"}},
		{"restart rule with bad operator", func(p *api.Pod) {
			p.Spec.Containers[0].RestartPolicy = vPtr(api.RestartPolicyNever)
			p.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.RestartRuleActionRestart, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: "Gt"}}}
		}, []string{"spec.containers[0].restartPolicyRules[0].exitCodes.operator FieldValueNotSupported"}},

		// Ephemeral containers.
		{"ephemeral container on create", func(p *api.Pod) { ephemeral(p).TargetContainerName = "app" },
			[]string{"spec.ephemeralContainers FieldValueForbidden"}},
		{"ephemeral container with forbidden fields", func(p *api.Pod) {
			ec := ephemeral(p)
			ec.Ports = []api.ContainerPort{{ContainerPort: 9999, Protocol: api.ProtocolTCP}}
			ec.ReadinessProbe = liveness()
			ec.Lifecycle = &api.Lifecycle{PostStart: exec}
			ec.Resources.Requests = api.ResourceList{"cpu": api.MustParseQuantity("10m")}
			ec.TargetContainerName = "nosuch"
		}, []string{
			"spec.ephemeralContainers FieldValueForbidden",
			"spec.ephemeralContainers[0].lifecycle FieldValueForbidden",
			"spec.ephemeralContainers[0].ports FieldValueForbidden",
			"spec.ephemeralContainers[0].readinessProbe FieldValueForbidden",
			"spec.ephemeralContainers[0].resources FieldValueForbidden",
			"spec.ephemeralContainers[0].targetContainerName FieldValueNotFound",
		}},

		// Host namespaces and user namespaces.
		{"hostUsers false alone", func(p *api.Pod) { p.Spec.HostUsers = vPtr(false) }, nil},
		{"hostUsers false with host namespaces", func(p *api.Pod) {
			p.Spec.HostUsers = vPtr(false)
			p.Spec.HostNetwork, p.Spec.HostPID, p.Spec.HostIPC = true, true, true
			p.Spec.Containers[0].Ports[0].HostPort = 8080
		}, []string{"spec.HostIPC FieldValueForbidden", "spec.HostPID FieldValueForbidden", "spec.hostNetwork FieldValueForbidden"}},
		{"hostUsers false with hostPath volume", func(p *api.Pod) {
			p.Spec.HostUsers = vPtr(false)
			p.Spec.Volumes = []api.Volume{{Name: "host", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/var/log", Type: vPtr("")}}}}
		}, nil},
		{"hostNetwork port mismatch", func(p *api.Pod) { p.Spec.HostNetwork = true },
			[]string{"spec.containers[0].ports[0].hostPort FieldValueInvalid"}},

		// OS.
		{"os empty", func(p *api.Pod) { p.Spec.OS = &api.PodOS{} }, []string{"spec.os.name FieldValueRequired"}},
		{"os unknown", func(p *api.Pod) { p.Spec.OS = &api.PodOS{Name: "Linux"} }, []string{"spec.os FieldValueNotSupported"}},
		{"linux with windows options", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Linux}
			p.Spec.SecurityContext = &api.PodSecurityContext{WindowsOptions: &api.WindowsSecurityContextOptions{RunAsUserName: vPtr("ContainerUser")}}
		}, []string{"spec.securityContext.windowsOptions FieldValueForbidden"}},
		{"windows with hostNetwork", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports[0].HostPort = 8080
		}, nil},
		{"windows with linux settings", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			p.Spec.HostUsers = vPtr(false)
			p.Spec.HostIPC = true
			p.Spec.SecurityContext = &api.PodSecurityContext{SELinuxOptions: &api.SELinuxOptions{Level: "s0:c1,c2"}}
			p.Spec.Containers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(false), RunAsUser: vPtr(int64(1000))}
		}, []string{
			"spec.HostIPC FieldValueForbidden",
			"spec.containers[0].securityContext.privileged FieldValueForbidden",
			"spec.containers[0].securityContext.runAsUser FieldValueForbidden",
			"spec.hostIPC FieldValueForbidden",
			"spec.hostUsers FieldValueForbidden",
			"spec.securityContext.seLinuxOptions FieldValueForbidden",
		}},

		// Readiness gates.
		{"readiness gate ok", func(p *api.Pod) {
			p.Spec.ReadinessGates = []api.PodReadinessGate{{ConditionType: "example.com/feature-1"}}
		}, nil},
		{"readiness gate empty and bad", func(p *api.Pod) {
			p.Spec.ReadinessGates = []api.PodReadinessGate{{ConditionType: ""}, {ConditionType: "bad gate!"}}
		}, []string{"spec.readinessGates[0].conditionType FieldValueInvalid", "spec.readinessGates[1].conditionType FieldValueInvalid"}},

		// Grace period, deadline and restart policy.
		{"negative grace accepted", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-1)) }, nil},
		{"grace required", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = nil },
			[]string{"spec.terminationGracePeriodSeconds FieldValueRequired"}},
		{"deadline zero", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(0)) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"deadline too large", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(1) << 31) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"deadline one", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(1)) }, nil},
		{"restart policy unknown", func(p *api.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			[]string{"spec.restartPolicy FieldValueNotSupported"}},
		{"restart policy missing", func(p *api.Pod) { p.Spec.RestartPolicy = "" },
			[]string{"spec.restartPolicy FieldValueRequired"}},

		// Topology spread.
		{"maxSkew zero", func(p *api.Pod) { tsc(p).MaxSkew = 0 },
			[]string{"spec.topologySpreadConstraints[0].maxSkew FieldValueInvalid"}},
		{"topologyKey empty", func(p *api.Pod) { tsc(p).TopologyKey = "" },
			[]string{"spec.topologySpreadConstraints[0].topologyKey FieldValueRequired"}},
		{"whenUnsatisfiable unknown", func(p *api.Pod) { tsc(p).WhenUnsatisfiable = "Sometimes" },
			[]string{"spec.topologySpreadConstraints[0].whenUnsatisfiable FieldValueNotSupported"}},
		{"minDomains zero", func(p *api.Pod) { tsc(p).MinDomains = vPtr(int32(0)) },
			[]string{"spec.topologySpreadConstraints[0].minDomains FieldValueInvalid"}},
		{"minDomains with ScheduleAnyway", func(p *api.Pod) {
			tsc(p).MinDomains = vPtr(int32(2))
			tsc(p).WhenUnsatisfiable = api.ScheduleAnyway
		}, []string{"spec.topologySpreadConstraints[0].minDomains FieldValueInvalid"}},
		{"node inclusion policies", func(p *api.Pod) {
			tsc(p).NodeAffinityPolicy = vPtr(api.NodeInclusionPolicy("Always"))
			tsc(p).NodeTaintsPolicy = vPtr(api.NodeInclusionPolicyHonor)
		}, []string{"spec.topologySpreadConstraints[0].nodeAffinityPolicy FieldValueNotSupported"}},
		{"matchLabelKeys without selector", func(p *api.Pod) {
			tsc(p).LabelSelector = nil
			tsc(p).MatchLabelKeys = []string{"pod-template-hash"}
		}, []string{"spec.topologySpreadConstraints[0].matchLabelKeys FieldValueForbidden"}},
		{"matchLabelKeys also in selector", func(p *api.Pod) { tsc(p).MatchLabelKeys = []string{"tier", "app"} },
			[]string{"spec.topologySpreadConstraints[0][1] FieldValueInvalid"}},
		{"matchLabelKeys missing from the pod", func(p *api.Pod) { tsc(p).MatchLabelKeys = []string{"pod-template-hash"} }, nil},
		{"duplicate constraints", func(p *api.Pod) {
			c := *tsc(p)
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c, c)
		}, []string{
			"spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable} FieldValueDuplicate",
			"spec.topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable} FieldValueDuplicate",
		}},

		// Tolerations.
		{"toleration bad key", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "bad key!", Operator: api.TolerationOpExists}}
		},
			[]string{"spec.tolerations[0].key FieldValueInvalid"}},
		{"toleration empty key with Equal", func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpEqual, Value: "v"}} },
			[]string{"spec.tolerations[0].operator FieldValueInvalid"}},
		{"toleration empty key with Exists", func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{{Operator: api.TolerationOpExists}} }, nil},
		{"toleration Exists with value", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Value: "v"}}
		}, []string{"spec.tolerations[0].operator FieldValueInvalid"}},
		{"toleration Lt operator", func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Lt", Value: "5"}} },
			[]string{"spec.tolerations[0].operator FieldValueNotSupported"}},
		{"toleration bad effect", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpEqual, Value: "v", Effect: "NoRun"}}
		}, []string{"spec.tolerations[0].effect FieldValueNotSupported"}},
		{"tolerationSeconds with NoSchedule", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule, TolerationSeconds: vPtr(int64(60))}}
		}, []string{"spec.tolerations[0].effect FieldValueInvalid"}},
		{"tolerationSeconds with NoExecute", func(p *api.Pod) {
			p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: vPtr(int64(60))}}
		}, nil},

		// Resources and ports.
		{"request above limit", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests["memory"] = api.MustParseQuantity("256Mi")
		}, []string{"spec.containers[0].resources.requests FieldValueInvalid"}},
		{"negative request", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests["cpu"] = api.MustParseQuantity("-1")
		}, []string{"spec.containers[0].resources.requests[cpu] FieldValueInvalid"}},
		{"unknown resource", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests["gpu"] = api.MustParseQuantity("1")
		}, []string{"spec.containers[0].resources.requests[gpu] FieldValueInvalid"}},
		{"extended resource request without limit", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = api.MustParseQuantity("1")
		}, []string{"spec.containers[0].resources.limits FieldValueRequired"}},
		{"port without protocol and bad name", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{Name: "Http", ContainerPort: 70000}}
		}, []string{
			"spec.containers[0].ports[0].containerPort FieldValueInvalid",
			"spec.containers[0].ports[0].name FieldValueInvalid",
			"spec.containers[0].ports[0].protocol FieldValueRequired",
		}},
		{"host port claimed twice", func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{
				{ContainerPort: 80, HostPort: 80, Protocol: api.ProtocolTCP},
				{ContainerPort: 81, HostPort: 80, Protocol: api.ProtocolTCP},
			}
		}, []string{"spec.containers[0].ports[1].hostPort FieldValueDuplicate"}},
		{"mount of unknown volume", func(p *api.Pod) {
			p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "scratch", MountPath: "/scratch"}}
		}, []string{"spec.containers[0].volumeMounts[0].name FieldValueNotFound"}},

		// Metadata.
		{"bad name", func(p *api.Pod) { p.Name = "Web_1" }, []string{"metadata.name FieldValueInvalid"}},
		{"no name but generateName", func(p *api.Pod) { p.Name, p.GenerateName = "", "web-" }, nil},
		{"no name", func(p *api.Pod) { p.Name = "" }, []string{"metadata.name FieldValueRequired"}},
		{"no namespace", func(p *api.Pod) { p.Namespace = "" }, []string{"metadata.namespace FieldValueRequired"}},
		{"bad label", func(p *api.Pod) { p.Labels["bad key!"] = "x" }, []string{"metadata.labels FieldValueInvalid"}},
		{"bad annotation", func(p *api.Pod) { p.Annotations = map[string]string{"-bad/": "x"} }, []string{"metadata.annotations FieldValueInvalid"}},
		{"bad deletion cost", func(p *api.Pod) { p.Annotations = map[string]string{"controller.kubernetes.io/pod-deletion-cost": "x"} },
			[]string{"metadata.annotations[controller.kubernetes.io/pod-deletion-cost] FieldValueInvalid"}},
		{"unqualified finalizer", func(p *api.Pod) { p.Finalizers = []string{"cleanup"} }, []string{"metadata.finalizers[0] FieldValueInvalid"}},
		{"nodeName with scheduling gates", func(p *api.Pod) {
			p.Spec.NodeName = "node-1"
			p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}}
		}, []string{"spec.nodeName FieldValueForbidden"}},

		// Found by differential testing against upstream validation.
		{"privileged container outside windows", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: "darwin"}
			p.Spec.Containers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(true)}
		}, []string{"spec.containers[0].securityContext.privileged FieldValueForbidden", "spec.os FieldValueNotSupported"}},
		{"privileged init container", func(p *api.Pod) {
			p.Spec.InitContainers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(true)}
		}, []string{"spec.initContainers[0].securityContext.privileged FieldValueForbidden"}},
		{"one hostProcess container on linux", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Linux}
			p.Spec.Containers[0].SecurityContext = &api.SecurityContext{WindowsOptions: &api.WindowsSecurityContextOptions{HostProcess: vPtr(true)}}
		}, []string{
			"spec FieldValueForbidden",
			"spec FieldValueInvalid",
			"spec.containers[0].securityContext.windowsOptions FieldValueForbidden",
			"spec.hostNetwork FieldValueInvalid",
		}},
		{"net sysctl with hostNetwork", func(p *api.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports[0].HostPort = 8080
			p.Spec.SecurityContext = &api.PodSecurityContext{Sysctls: []api.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}, {Name: "kernel.shm_rmid_forced", Value: "1"}}}
		}, []string{"spec.securityContext.sysctls[0].name FieldValueInvalid"}},
		{"ipc sysctls with hostIPC", func(p *api.Pod) {
			p.Spec.HostIPC = true
			p.Spec.SecurityContext = &api.PodSecurityContext{Sysctls: []api.Sysctl{{Name: "net.core.somaxconn", Value: "1"}, {Name: "kernel/msgmax", Value: "1"}, {Name: "fs.mqueue.msg_max", Value: "1"}}}
		}, []string{"spec.securityContext.sysctls[1].name FieldValueInvalid", "spec.securityContext.sysctls[2].name FieldValueInvalid"}},
		{"unmasked procMount in the host user namespace", func(p *api.Pod) {
			p.Spec.Containers[0].SecurityContext = &api.SecurityContext{ProcMount: vPtr("Unmasked")}
		}, []string{"spec.containers[0].securityContext.procMount FieldValueInvalid"}},
		{"no privilege escalation with SYS_ADMIN spelled without CAP_", func(p *api.Pod) {
			p.Spec.Containers[0].SecurityContext = &api.SecurityContext{AllowPrivilegeEscalation: vPtr(false), Capabilities: &api.Capabilities{Add: []string{"SYS_ADMIN"}}}
		}, nil},
		{"zero sleep with a negative grace period, which counts as 1", func(p *api.Pod) {
			p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-1))
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 0}}}
		}, nil},
		{"sleep of 2 with a negative grace period, which counts as 1", func(p *api.Pod) {
			p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-30))
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 2}}}
		}, []string{"spec.containers[0].lifecycle.preStop.sleep FieldValueInvalid"}},
		{"stop signals are dropped from a new pod, emptied lifecycles too", func(p *api.Pod) {
			p.Spec.InitContainers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("SIGTERM")}
			p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("NOT-A-SIGNAL")}
		}, nil},
		{"pod-level resources on a windows pod, whatever their values", func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			p.Spec.Resources = &api.ResourceRequirements{Requests: api.ResourceList{"example.com/gpu": api.MustParseQuantity("1")}}
		}, []string{"spec.resources FieldValueForbidden"}},
		{"image pull secret without a name is not an error", func(p *api.Pod) {
			p.Spec.ImagePullSecrets = []api.LocalObjectReference{{Name: ""}}
		}, nil},
		{"anti-affinity term without a topology key", func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			}}}}
		}, []string{
			"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey FieldValueInvalid",
			"spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey FieldValueRequired",
		}},
		{"affinity matchLabelKeys merged over a selector on the same key", func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{
				Weight: 10,
				PodAffinityTerm: api.PodAffinityTerm{
					LabelSelector:  &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
					TopologyKey:    "kubernetes.io/hostname",
					MatchLabelKeys: []string{"missing", "app"},
				},
			}}}}
		}, []string{"spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm[1] FieldValueInvalid"}},
		{"affinity matchLabelKeys on a label the pod lacks", func(p *api.Pod) {
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"tier": "db"}},
				TopologyKey:       "kubernetes.io/hostname",
				MatchLabelKeys:    []string{"missing"},
				MismatchLabelKeys: []string{"app"},
			}}}}
		}, nil},
		{"env sources checked in depth", func(p *api.Pod) {
			p.Spec.InitContainers[0].Env = []api.EnvVar{
				{Name: "A", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "s"}, Key: "bad key!"}}},
				{Name: "B", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "bogus"}}},
				{Name: "C", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.gpu"}}},
				{Name: "D", ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: &api.ConfigMapKeySelector{Key: "..k"}}},
			}
		}, []string{
			"spec.initContainers[0].env[0].valueFrom.secretKeyRef.key FieldValueInvalid",
			"spec.initContainers[0].env[1].valueFrom.fieldRef.fieldPath FieldValueInvalid",
			"spec.initContainers[0].env[2].valueFrom.resourceFieldRef.resource FieldValueNotSupported",
			"spec.initContainers[0].env[3].valueFrom.configMapKeyRef.key FieldValueInvalid",
			"spec.initContainers[0].env[3].valueFrom.configMapKeyRef.name FieldValueInvalid",
		}},
		{"RestartContainer resize policy on a run-to-completion init container", func(p *api.Pod) {
			p.Spec.InitContainers[0].ResizePolicy = []api.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "NotRequired"}, {ResourceName: "memory", RestartPolicy: "RestartContainer"}}
		}, []string{"spec.initContainers[0].resizePolicy[1].restartPolicy FieldValueInvalid"}},
		{"secret volume with a mode beyond 0777, and its mount", func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "sec", VolumeSource: api.VolumeSource{Secret: &api.SecretVolumeSource{SecretName: "s", DefaultMode: vPtr(int32(0o1000))}}}}
			p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "sec", MountPath: "/s"}}
		}, []string{"spec.containers[0].volumeMounts[0].name FieldValueNotFound", "spec.volumes[0].secret.defaultMode FieldValueInvalid"}},
		{"image volume mounted with a subPath", func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "img", VolumeSource: api.VolumeSource{Image: &api.ImageVolumeSource{Reference: "busybox", PullPolicy: api.PullIfNotPresent}}}}
			p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "img", MountPath: "/i", SubPath: "bin"}}
		}, nil},
		{"pod-level huge pages below the containers' limits", func(p *api.Pod) {
			q := api.MustParseQuantity
			p.Spec.Resources = &api.ResourceRequirements{
				Limits:   api.ResourceList{"hugepages-2Mi": q("2Mi"), "memory": q("1Gi")},
				Requests: api.ResourceList{"hugepages-2Mi": q("2Mi"), "memory": q("1Gi")},
			}
			p.Spec.Containers[0].Resources = api.ResourceRequirements{
				Limits:   api.ResourceList{"hugepages-2Mi": q("4Mi"), "memory": q("64Mi")},
				Requests: api.ResourceList{"hugepages-2Mi": q("4Mi"), "memory": q("64Mi")},
			}
		}, []string{
			"spec.resources.containers[0][hugepages-2Mi].limits FieldValueInvalid",
			"spec.resources.limits[hugepages-2Mi] FieldValueInvalid",
			"spec.resources.requests[hugepages-2Mi] FieldValueInvalid",
		}},
		{"pod-level request over its limit still gets the consistency checks", func(p *api.Pod) {
			q := api.MustParseQuantity
			p.Spec.Resources = &api.ResourceRequirements{
				Limits:   api.ResourceList{"cpu": q("10m")},
				Requests: api.ResourceList{"cpu": q("500m")},
				Claims:   []api.ResourceClaim{{Name: "c"}},
			}
			p.Spec.Containers[0].Resources = api.ResourceRequirements{Limits: api.ResourceList{"cpu": q("500m")}, Requests: api.ResourceList{"cpu": q("500m")}}
		}, []string{
			"spec.resources.claims FieldValueForbidden",
			"spec.resources.claims[0] FieldValueNotFound",
			"spec.resources.containers[0][cpu].limits FieldValueInvalid",
			"spec.resources.requests FieldValueInvalid",
		}},
		{"finalizer that is not a qualified name", func(p *api.Pod) { p.Finalizers = []string{"example.com/ok", "bad finalizer"} },
			[]string{"metadata.finalizers FieldValueInvalid", "metadata.finalizers[1] FieldValueInvalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vBasePod()
			tt.mutate(p)
			got := vPairs(validation.ValidatePodCreate(p))
			want := tt.want
			if want == nil {
				want = []string{}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

func TestValidatePodCreateDoesNotModifyPod(t *testing.T) {
	p := vBasePod()
	p.Spec.TopologySpreadConstraints[0].MatchLabelKeys = []string{"app"}
	p.Status.Phase = api.PodRunning
	before := fmt.Sprintf("%+v", *p.Spec.TopologySpreadConstraints[0].LabelSelector)
	validation.ValidatePodCreate(p)
	if after := fmt.Sprintf("%+v", *p.Spec.TopologySpreadConstraints[0].LabelSelector); after != before {
		t.Errorf("labelSelector changed: %s -> %s", before, after)
	}
	if p.Status.Phase != api.PodRunning {
		t.Errorf("status changed")
	}
}

func BenchmarkValidatePodCreate(b *testing.B) {
	p := vBasePod()
	b.ReportAllocs()
	for b.Loop() {
		validation.ValidatePodCreate(p)
	}
}

func BenchmarkValidatePodUpdate(b *testing.B) {
	old := vStoredPod()
	n := vClone(b, old)
	n.Spec.Containers[0].Image = "nginx:1.28"
	b.ReportAllocs()
	for b.Loop() {
		validation.ValidatePodUpdate(n, old)
	}
}

func TestValidatePodCreateKeepsCallersStopSignals(t *testing.T) {
	p := vBasePod()
	p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("SIGTERM")}
	validation.ValidatePodCreate(p)
	if p.Spec.Containers[0].Lifecycle == nil || p.Spec.Containers[0].Lifecycle.StopSignal == nil {
		t.Errorf("ValidatePodCreate dropped the caller's stop signal")
	}
}

// vVolumes gives the pod a claim-backed volume "blk", an emptyDir
// "scratch" and, with ephemeral, a generic ephemeral volume "eph".
func vVolumes(p *api.Pod, ephemeral bool) {
	p.Spec.Volumes = append(p.Spec.Volumes,
		api.Volume{Name: "blk", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
		api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}},
	)
	if ephemeral {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "eph", VolumeSource: api.VolumeSource{Ephemeral: &api.EphemeralVolumeSource{
			VolumeClaimTemplate: &api.PersistentVolumeClaimTemplate{Spec: map[string]any{
				"accessModes": []any{"ReadWriteOnce"},
				"resources":   map[string]any{"requests": map[string]any{"storage": "1Gi"}},
			}},
		}}})
	}
}

// vPodFieldCreateCases cover dnsConfig, hostAliases, hostnameOverride,
// resourceClaims, volumeDevices, recursiveReadOnly, mount propagation,
// supplementalGroupsPolicy and seLinuxChangePolicy on create. Every
// expectation was checked against the v1.36.3 API server's validation.
var vPodFieldCreateCases = []struct {
	name   string
	mutate func(p *api.Pod)
	want   []string
}{
	// spec.dnsConfig.
	{"dnsPolicy None needs a dnsConfig", func(p *api.Pod) { p.Spec.DNSPolicy = api.DNSNone },
		[]string{"spec.dnsConfig FieldValueRequired"}},
	{"dnsPolicy None needs nameservers, and nothing else is checked without them", func(p *api.Pod) {
		p.Spec.DNSPolicy = api.DNSNone
		p.Spec.DNSConfig = &api.PodDNSConfig{Searches: []string{"Bad_Domain"}, Options: []api.PodDNSConfigOption{{Value: vPtr("1")}}}
	}, []string{"spec.dnsConfig.nameservers FieldValueRequired"}},
	{"dnsPolicy None with one nameserver", func(p *api.Pod) {
		p.Spec.DNSPolicy = api.DNSNone
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"10.96.0.10"}}
	}, nil},
	{"more than three nameservers, one with a zero-padded octet", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"1.1.1.1", "2001:db8::1", "8.8.8.8", "010.0.0.1"}}
	}, []string{"spec.dnsConfig.nameservers FieldValueInvalid", "spec.dnsConfig.nameservers[3] FieldValueInvalid"}},
	{"IPv4-mapped, zoned and malformed nameservers", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"::ffff:10.0.0.1", "fe80::1%eth0", "1.2.3"}}
	}, []string{"spec.dnsConfig.nameservers[0] FieldValueInvalid", "spec.dnsConfig.nameservers[1] FieldValueInvalid", "spec.dnsConfig.nameservers[2] FieldValueInvalid"}},
	{"a non-canonical IPv6 nameserver is still accepted", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"FE80:0:0:0:0:0:0:0ABC"}}
	}, nil},
	{"root, trailing-dot and underscore search domains", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Searches: []string{".", "svc.cluster.local.", "_sip._tcp.example.com"}}
	}, nil},
	{"search domains that are not subdomains", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Searches: []string{"Example.com", "..", "a..b", ""}}
	}, []string{
		"spec.dnsConfig.searches[0] FieldValueInvalid", "spec.dnsConfig.searches[1] FieldValueInvalid",
		"spec.dnsConfig.searches[2] FieldValueInvalid", "spec.dnsConfig.searches[3] FieldValueInvalid",
	}},
	{"more than 32 search domains", func(p *api.Pod) {
		s := make([]string, 33)
		for i := range s {
			s[i] = fmt.Sprintf("d%d.example.com", i)
		}
		p.Spec.DNSConfig = &api.PodDNSConfig{Searches: s}
	}, []string{"spec.dnsConfig.searches FieldValueInvalid"}},
	{"search list longer than 2048 characters with its spaces", func(p *api.Pod) {
		s := make([]string, 9)
		for i := range s {
			s[i] = strings.Repeat("a", 228) // 9*228 + 8 spaces = 2060
		}
		p.Spec.DNSConfig = &api.PodDNSConfig{Searches: s}
	}, []string{"spec.dnsConfig.searches FieldValueInvalid"}},
	{"resolver option without a name", func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Options: []api.PodDNSConfigOption{{Name: "ndots", Value: vPtr("2")}, {Value: vPtr("x")}}}
	}, []string{"spec.dnsConfig.options[1] FieldValueRequired"}},

	// spec.hostAliases.
	{"host alias with a bad hostname and one with a bad ip", func(p *api.Pod) {
		p.Spec.HostAliases = []api.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"db.local", "Bad_Name"}}, {IP: "1.2.3"}}
	}, []string{"spec.hostAliases[0].hostnames[1] FieldValueInvalid", "spec.hostAliases[1].ip FieldValueInvalid"}},
	{"host aliases are allowed with hostNetwork", func(p *api.Pod) {
		p.Spec.HostNetwork = true
		p.Spec.Containers[0].Ports[0].HostPort = 8080
		p.Spec.HostAliases = []api.HostAlias{{IP: "2001:db8::10", Hostnames: []string{"db"}}}
	}, nil},

	// spec.hostnameOverride.
	{"hostnameOverride that is a subdomain", func(p *api.Pod) { p.Spec.HostnameOverride = vPtr("node-a.example") }, nil},
	{"hostnameOverride with setHostnameAsFQDN and hostNetwork", func(p *api.Pod) {
		p.Spec.HostnameOverride = vPtr("web")
		p.Spec.SetHostnameAsFQDN = vPtr(true)
		p.Spec.HostNetwork = true
		p.Spec.Containers[0].Ports[0].HostPort = 8080
	}, []string{"spec.hostnameOverride FieldValueForbidden"}},
	{"hostnameOverride of 65 characters", func(p *api.Pod) { p.Spec.HostnameOverride = vPtr(strings.Repeat("h", 65)) },
		[]string{"spec.hostnameOverride FieldValueTooLong"}},
	{"empty hostnameOverride", func(p *api.Pod) { p.Spec.HostnameOverride = vPtr("") },
		[]string{"spec.hostnameOverride FieldValueInvalid"}},

	// spec.resourceClaims and resources.claims.
	{"pod claims: duplicate, bad name, no source", func(p *api.Pod) {
		p.Spec.ResourceClaims = []api.PodResourceClaim{
			{Name: "gpu", ResourceClaimName: vPtr("gpu-claim")},
			{Name: "gpu", ResourceClaimTemplateName: vPtr("gpu-template")},
			{Name: "Bad_Name"},
		}
	}, []string{"spec.resourceClaims[1].name FieldValueDuplicate", "spec.resourceClaims[2] FieldValueInvalid", "spec.resourceClaims[2].name FieldValueInvalid"}},
	{"pod claim with both sources, one not a subdomain", func(p *api.Pod) {
		p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: vPtr("Bad_Claim"), ResourceClaimTemplateName: vPtr("t")}}
	}, []string{"spec.resourceClaims[0] FieldValueInvalid", "spec.resourceClaims[0].resourceClaimName FieldValueInvalid"}},
	{"container claims: whole claim twice via a request, unknown, empty", func(p *api.Pod) {
		p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: vPtr("gpu-claim")}}
		p.Spec.Containers[0].Resources.Claims = []api.ResourceClaim{{Name: "gpu"}, {Name: "gpu", Request: "r1"}, {Name: "nic"}, {}}
	}, []string{"spec.containers[0].resources.claims[1] FieldValueDuplicate", "spec.containers[0].resources.claims[2] FieldValueNotFound", "spec.containers[0].resources.claims[3] FieldValueRequired"}},
	{"container claims: distinct requests, then the whole claim, then a bad request", func(p *api.Pod) {
		p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: vPtr("gpu-template")}, {Name: "nic", ResourceClaimName: vPtr("nic")}}
		p.Spec.InitContainers[0].Resources.Claims = []api.ResourceClaim{{Name: "gpu", Request: "a"}, {Name: "gpu", Request: "b"}, {Name: "gpu"}, {Name: "nic", Request: "Bad_Req"}, {Name: "nic", Request: "Bad_Req"}}
	}, []string{"spec.initContainers[0].resources.claims[2] FieldValueDuplicate", "spec.initContainers[0].resources.claims[3].request FieldValueInvalid", "spec.initContainers[0].resources.claims[4] FieldValueDuplicate", "spec.initContainers[0].resources.claims[4].request FieldValueInvalid"}},
	{"pod-level claims must also name pod claims", func(p *api.Pod) {
		p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: vPtr("gpu-claim")}}
		p.Spec.Resources = &api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("1")}, Claims: []api.ResourceClaim{{Name: "gpu"}, {Name: "other"}}}
	}, []string{"spec.resources.claims FieldValueForbidden", "spec.resources.claims[1] FieldValueNotFound"}},
	{"static pods take no resource claims", func(p *api.Pod) {
		p.Annotations = map[string]string{"kubernetes.io/config.mirror": "hash"}
		p.Spec.NodeName = "node-1"
		p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "Bad_Name"}}
	}, []string{"[] FieldValueForbidden"}},

	// volumeDevices.
	{"volume devices: not a claim, unknown, reused path, empty name, backsteps", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeDevices = []api.VolumeDevice{
			{Name: "blk", DevicePath: "/dev/xvda"},
			{Name: "scratch", DevicePath: "/dev/xvdb"},
			{Name: "missing", DevicePath: "/dev/xvda"},
			{DevicePath: "dev/rel/../x"},
		}
	}, []string{
		"spec.containers[0].volumeDevices[1].name FieldValueInvalid",
		"spec.containers[0].volumeDevices[2].devicePath FieldValueInvalid",
		"spec.containers[0].volumeDevices[2].name FieldValueNotFound",
		"spec.containers[0].volumeDevices[3].devicePath FieldValueInvalid",
		"spec.containers[0].volumeDevices[3].name FieldValueNotFound",
		"spec.containers[0].volumeDevices[3].name FieldValueRequired",
	}},
	{"an ephemeral volume may be a block device", func(p *api.Pod) {
		vVolumes(p, true)
		p.Spec.Containers[0].VolumeDevices = []api.VolumeDevice{{Name: "eph", DevicePath: "/dev/xvda"}, {Name: "blk", DevicePath: "/dev/xvdb"}}
	}, nil},
	{"a device and a mount share a path", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "scratch", MountPath: "/data"}}
		p.Spec.Containers[0].VolumeDevices = []api.VolumeDevice{{Name: "blk", DevicePath: "/data"}}
	}, []string{"spec.containers[0].volumeDevices[0].devicePath FieldValueInvalid", "spec.containers[0].volumeMounts[0].mountPath FieldValueInvalid"}},
	{"a volume both mounted and used as a device", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "blk", MountPath: "/mnt"}}
		p.Spec.Containers[0].VolumeDevices = []api.VolumeDevice{{Name: "blk", DevicePath: "/dev/xvda"}}
	}, []string{"spec.containers[0].volumeDevices[0].name FieldValueInvalid", "spec.containers[0].volumeMounts[0].name FieldValueInvalid"}},
	{"volume devices in a user namespace", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.HostUsers = vPtr(false)
		p.Spec.InitContainers[0].VolumeDevices = []api.VolumeDevice{{Name: "blk", DevicePath: "/dev/xvda"}}
	}, []string{"spec.initContainers[0].volumeDevices FieldValueForbidden"}},
	{"ephemeral volume whose claim name would be too long", func(p *api.Pod) {
		p.Name = strings.Repeat("w", 250)
		vVolumes(p, true)
	}, []string{"spec.volumes[2].name FieldValueInvalid"}},
	{"claim volume naming the claim of an ephemeral volume", func(p *api.Pod) {
		vVolumes(p, true)
		p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName = "web-eph"
	}, []string{"spec.volumes[0].persistentVolumeClaim.claimName FieldValueInvalid"}},

	{"claim template: only labels and annotations in metadata, access modes and storage required", func(p *api.Pod) {
		p.Spec.Volumes = []api.Volume{{Name: "eph", VolumeSource: api.VolumeSource{Ephemeral: &api.EphemeralVolumeSource{
			VolumeClaimTemplate: &api.PersistentVolumeClaimTemplate{
				ObjectMeta: api.ObjectMeta{Name: "fixed", Labels: map[string]string{"bad key!": "x"}},
				Spec:       map[string]any{"storageClassName": "Fast_SSD"},
			},
		}}}}
	}, []string{
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.labels FieldValueInvalid",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name FieldValueForbidden",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes FieldValueRequired",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage] FieldValueRequired",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.storageClassName FieldValueInvalid",
	}},
	{"claim template: ReadWriteOncePod mixed, zero storage, unknown mode, mismatched data sources", func(p *api.Pod) {
		p.Spec.Volumes = []api.Volume{{Name: "eph", VolumeSource: api.VolumeSource{Ephemeral: &api.EphemeralVolumeSource{
			VolumeClaimTemplate: &api.PersistentVolumeClaimTemplate{Spec: map[string]any{
				"accessModes":   []any{"ReadWriteOncePod", "ReadWriteOnce", "WriteOnly"},
				"resources":     map[string]any{"requests": map[string]any{"storage": "0"}},
				"volumeMode":    "Raw",
				"dataSource":    map[string]any{"kind": "VolumeSnapshot", "name": "snap"},
				"dataSourceRef": map[string]any{"kind": "PersistentVolumeClaim", "name": "src"},
			}},
		}}}}
	}, []string{
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec FieldValueInvalid",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes FieldValueForbidden",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes FieldValueNotSupported",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.dataSource FieldValueInvalid",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage] FieldValueInvalid",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.volumeMode FieldValueNotSupported",
	}},

	// recursiveReadOnly and mountPropagation (reported at the list's path).
	{"recursiveReadOnly rules", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{
			{Name: "scratch", MountPath: "/a", ReadOnly: true, RecursiveReadOnly: vPtr("Enabled")},
			{Name: "scratch", MountPath: "/b", ReadOnly: true, RecursiveReadOnly: vPtr("IfPossible"), MountPropagation: vPtr("None")},
			{Name: "scratch", MountPath: "/c", RecursiveReadOnly: vPtr("Disabled"), MountPropagation: vPtr("HostToContainer")},
		}
		p.Spec.InitContainers[0].VolumeMounts = []api.VolumeMount{
			{Name: "scratch", MountPath: "/d", RecursiveReadOnly: vPtr("IfPossible")},
		}
	}, []string{"spec.initContainers[0].volumeMounts.recursiveReadOnly FieldValueForbidden"}},
	{"recursiveReadOnly with propagation, and an unknown value", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{
			{Name: "scratch", MountPath: "/a", ReadOnly: true, RecursiveReadOnly: vPtr("Enabled"), MountPropagation: vPtr("HostToContainer")},
		}
		p.Spec.InitContainers[0].VolumeMounts = []api.VolumeMount{
			{Name: "scratch", MountPath: "/b", ReadOnly: true, RecursiveReadOnly: vPtr("Always")},
		}
	}, []string{"spec.containers[0].volumeMounts.recursiveReadOnly FieldValueForbidden", "spec.initContainers[0].volumeMounts.recursiveReadOnly FieldValueNotSupported"}},
	// (Privileged containers themselves are refused by the API server's
	// default --allow-privileged=false.)
	{"Bidirectional propagation needs a privileged container", func(p *api.Pod) {
		vVolumes(p, false)
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "scratch", MountPath: "/a", MountPropagation: vPtr("Bidirectional")}}
		p.Spec.InitContainers[0].VolumeMounts = []api.VolumeMount{{Name: "scratch", MountPath: "/a", MountPropagation: vPtr("Bidirectional")}}
		p.Spec.InitContainers[0].SecurityContext = &api.SecurityContext{Privileged: vPtr(true)}
	}, []string{"spec.containers[0].volumeMounts.mountPropagation FieldValueForbidden", "spec.initContainers[0].securityContext.privileged FieldValueForbidden"}},

	// Pod security context policies.
	{"supplementalGroupsPolicy Strict and seLinuxChangePolicy Recursive", func(p *api.Pod) {
		p.Spec.SecurityContext = &api.PodSecurityContext{SupplementalGroupsPolicy: vPtr("Strict"), SELinuxChangePolicy: vPtr("Recursive")}
	}, nil},
	{"unknown supplementalGroupsPolicy; MountOption needs SELinuxMount", func(p *api.Pod) {
		p.Spec.SecurityContext = &api.PodSecurityContext{SupplementalGroupsPolicy: vPtr("Loose"), SELinuxChangePolicy: vPtr("MountOption")}
	}, []string{"spec.securityContext.seLinuxChangePolicy FieldValueNotSupported", "spec.securityContext.supplementalGroupsPolicy FieldValueNotSupported"}},
	{"neither policy on a windows pod", func(p *api.Pod) {
		p.Spec.OS = &api.PodOS{Name: api.Windows}
		p.Spec.SecurityContext = &api.PodSecurityContext{SupplementalGroupsPolicy: vPtr("Merge"), SELinuxChangePolicy: vPtr("Recursive")}
	}, []string{"spec.securityContext.seLinuxChangePolicy FieldValueForbidden", "spec.securityContext.supplementalGroupsPolicy FieldValueForbidden"}},
}

func TestValidatePodCreatePodFields(t *testing.T) {
	for _, tt := range vPodFieldCreateCases {
		t.Run(tt.name, func(t *testing.T) {
			p := vBasePod()
			tt.mutate(p)
			got := vPairs(validation.ValidatePodCreate(p))
			want := tt.want
			if want == nil {
				want = []string{}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}
