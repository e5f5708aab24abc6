package validation_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"pgregory.net/rapid"
)

// vGenName draws a short DNS label.
func vGenName(t *rapid.T, label string) string {
	return rapid.StringMatching(`[a-z][a-z0-9]{0,6}`).Draw(t, label)
}

// vGenValidPod draws a pod the API server accepts on create and stores:
// unique container names, sidecars with probes, valid tolerations, spread
// constraints with distinct keys, an optional deadline, OS and user
// namespace.
func vGenValidPod(t *rapid.T) *api.Pod {
	used := map[string]bool{}
	uniqueName := func(label string) string {
		for {
			n := vGenName(t, label)
			if !used[n] {
				used[n] = true
				return n
			}
		}
	}
	container := func(label string) api.Container {
		return api.Container{
			Name:                     uniqueName(label),
			Image:                    rapid.SampledFrom([]string{"nginx:1.27", "busybox", "registry.k8s.io/pause:3.10"}).Draw(t, label+"-image"),
			ImagePullPolicy:          rapid.SampledFrom([]api.PullPolicy{api.PullAlways, api.PullIfNotPresent, api.PullNever}).Draw(t, label+"-pull"),
			TerminationMessagePath:   "/dev/termination-log",
			TerminationMessagePolicy: rapid.SampledFrom([]string{"File", "FallbackToLogsOnError"}).Draw(t, label+"-tmp"),
		}
	}
	probe := func() *api.Probe {
		return &api.Probe{
			ProbeHandler:     api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(int32(rapid.IntRange(1, 65535).Draw(t, "probe-port"))), Scheme: api.URISchemeHTTP}},
			TimeoutSeconds:   1,
			PeriodSeconds:    int32(rapid.IntRange(1, 60).Draw(t, "probe-period")),
			SuccessThreshold: 1,
			FailureThreshold: 3,
		}
	}
	p := &api.Pod{
		TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{
			Name:              vGenName(t, "pod-name"),
			Namespace:         vGenName(t, "namespace"),
			UID:               "uid-" + vGenName(t, "uid"),
			ResourceVersion:   fmt.Sprint(rapid.IntRange(1, 1000).Draw(t, "rv")),
			Generation:        int64(rapid.IntRange(1, 5).Draw(t, "generation")),
			CreationTimestamp: api.NewTime(time.Date(2025, 1, 1, 0, 0, rapid.IntRange(0, 3600).Draw(t, "created"), 0, time.UTC)),
			Labels:            map[string]string{"app": vGenName(t, "app")},
		},
		Spec: api.PodSpec{
			RestartPolicy:                 rapid.SampledFrom([]api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}).Draw(t, "restart"),
			TerminationGracePeriodSeconds: vPtr(int64(rapid.IntRange(-1, 600).Draw(t, "grace"))),
			DNSPolicy:                     api.DNSClusterFirst,
			SchedulerName:                 "default-scheduler",
		},
	}
	for i, n := 0, rapid.IntRange(1, 3).Draw(t, "containers"); i < n; i++ {
		c := container(fmt.Sprintf("container-%d", i))
		if rapid.Bool().Draw(t, "ready-probe") {
			c.ReadinessProbe = probe()
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "inits"); i < n; i++ {
		c := container(fmt.Sprintf("init-%d", i))
		if rapid.Bool().Draw(t, "sidecar") {
			c.RestartPolicy = vPtr(api.RestartPolicyAlways)
			c.LivenessProbe = probe()
			c.StartupProbe = probe()
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if rapid.Bool().Draw(t, "has-deadline") {
		p.Spec.ActiveDeadlineSeconds = vPtr(int64(rapid.IntRange(1, 1<<31-1).Draw(t, "deadline")))
	}
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "tolerations"); i < n; i++ {
		tol := api.Toleration{Key: "example.com/" + vGenName(t, "tol-key")}
		if rapid.Bool().Draw(t, "tol-exists") {
			tol.Operator = api.TolerationOpExists
		} else {
			tol.Operator, tol.Value = api.TolerationOpEqual, vGenName(t, "tol-value")
		}
		tol.Effect = rapid.SampledFrom([]api.TaintEffect{"", api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}).Draw(t, "tol-effect")
		if tol.Effect == api.TaintEffectNoExecute && rapid.Bool().Draw(t, "tol-seconds") {
			tol.TolerationSeconds = vPtr(int64(rapid.IntRange(0, 3600).Draw(t, "tol-seconds-value")))
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
	}
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{api.LabelHostname, api.LabelTopologyZone, api.LabelTopologyRegion}), 0, 3, rapid.ID[string]).Draw(t, "spread-keys")
	for _, k := range keys {
		c := api.TopologySpreadConstraint{
			MaxSkew: int32(rapid.IntRange(1, 5).Draw(t, "max-skew")), TopologyKey: k,
			WhenUnsatisfiable: rapid.SampledFrom([]api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}).Draw(t, "when"),
			LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
		}
		if c.WhenUnsatisfiable == api.DoNotSchedule && rapid.Bool().Draw(t, "min-domains") {
			c.MinDomains = vPtr(int32(rapid.IntRange(1, 5).Draw(t, "min-domains-value")))
		}
		if rapid.Bool().Draw(t, "match-label-keys") {
			c.MatchLabelKeys = []string{"pod-template-hash"}
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
	if rapid.Bool().Draw(t, "has-os") {
		p.Spec.OS = &api.PodOS{Name: rapid.SampledFrom([]api.OSName{api.Linux, api.Windows}).Draw(t, "os")}
	}
	if (p.Spec.OS == nil || p.Spec.OS.Name == api.Linux) && rapid.Bool().Draw(t, "userns") {
		p.Spec.HostUsers = vPtr(false)
	}
	if rapid.Bool().Draw(t, "gate") {
		p.Spec.ReadinessGates = []api.PodReadinessGate{{ConditionType: "example.com/" + api.PodConditionType(vGenName(t, "gate"))}}
	}
	return p
}

func TestPropertyValidPodsAreAccepted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := vGenValidPod(t)
		if errs := validation.ValidatePodCreate(p); len(errs) != 0 {
			t.Fatalf("valid pod rejected on create: %v", errs)
		}
		if errs := validation.ValidatePodUpdate(p, p); len(errs) != 0 {
			t.Fatalf("identity update rejected: %v", errs)
		}
		if errs := validation.ValidatePodEphemeralContainersUpdate(p, p); len(errs) != 0 {
			t.Fatalf("identity ephemeral-container update rejected: %v", errs)
		}
	})
}

func TestPropertyImmutableMetadata(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := vGenValidPod(t)
		n := vClone(t, old)
		field := rapid.SampledFrom([]string{"name", "namespace", "uid", "creationTimestamp"}).Draw(t, "field")
		switch field {
		case "name":
			n.Name += "-x"
		case "namespace":
			n.Namespace += "-x"
		case "uid":
			n.UID += "-x"
		case "creationTimestamp":
			n.CreationTimestamp = api.NewTime(n.CreationTimestamp.Add(time.Duration(rapid.IntRange(1, 1e6).Draw(t, "shift")) * time.Second))
		}
		for _, errs := range []api.FieldErrors{validation.ValidatePodUpdate(n, old), validation.ValidatePodEphemeralContainersUpdate(n, old)} {
			if !slices.ContainsFunc(errs, func(e *api.FieldError) bool {
				return e.Field == "metadata."+field && e.Type == api.ErrorTypeInvalid
			}) {
				t.Fatalf("changing %s gave %v", field, errs)
			}
		}
	})
}

func TestPropertyUpdatableFields(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := vGenValidPod(t)
		n := vClone(t, old)
		for i := range n.Spec.Containers {
			n.Spec.Containers[i].Image = "example.com/" + vGenName(t, "image")
		}
		for i := range n.Spec.InitContainers {
			n.Spec.InitContainers[i].Image = "example.com/" + vGenName(t, "init-image")
		}
		if old.Spec.ActiveDeadlineSeconds == nil {
			n.Spec.ActiveDeadlineSeconds = vPtr(int64(rapid.IntRange(1, 1<<31-1).Draw(t, "new-deadline")))
		} else {
			n.Spec.ActiveDeadlineSeconds = vPtr(int64(rapid.Int64Range(1, *old.Spec.ActiveDeadlineSeconds).Draw(t, "shorter-deadline")))
		}
		n.Spec.Tolerations = append(n.Spec.Tolerations, api.Toleration{Key: "example.com/added", Operator: api.TolerationOpExists})
		n.Labels["tier"] = vGenName(t, "tier")
		n.Generation += int64(rapid.IntRange(0, 3).Draw(t, "generation-step"))
		if errs := validation.ValidatePodUpdate(n, old); len(errs) != 0 {
			t.Fatalf("allowed update rejected: %v", errs)
		}
	})
}

func TestPropertyFrozenSpecFields(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := vGenValidPod(t)
		n := vClone(t, old)
		switch rapid.IntRange(0, 4).Draw(t, "change") {
		case 0:
			n.Spec.RestartPolicy = map[api.RestartPolicy]api.RestartPolicy{
				api.RestartPolicyAlways: api.RestartPolicyNever, api.RestartPolicyNever: api.RestartPolicyOnFailure, api.RestartPolicyOnFailure: api.RestartPolicyAlways,
			}[n.Spec.RestartPolicy]
		case 1:
			n.Spec.NodeName = "node-" + vGenName(t, "node")
		case 2:
			// Not to 1 from a negative value: that one change is allowed.
			n.Spec.TerminationGracePeriodSeconds = vPtr(max(*old.Spec.TerminationGracePeriodSeconds, 0) + int64(rapid.IntRange(2, 100).Draw(t, "grace-step")))
		case 3:
			n.Spec.Containers[0].Name += "x"
		case 4:
			n.Spec.Containers[0].Env = append(n.Spec.Containers[0].Env, api.EnvVar{Name: "DEBUG", Value: "1"})
		}
		errs := validation.ValidatePodUpdate(n, old)
		if !slices.ContainsFunc(errs, func(e *api.FieldError) bool { return e.Field == "spec" && e.Type == api.ErrorTypeForbidden }) {
			t.Fatalf("frozen spec change gave %v", errs)
		}
	})
}

func TestPropertyDeadlineNeverLengthens(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := vGenValidPod(t)
		old.Spec.ActiveDeadlineSeconds = vPtr(int64(rapid.IntRange(1, 1<<30).Draw(t, "old-deadline")))
		n := vClone(t, old)
		n.Spec.ActiveDeadlineSeconds = vPtr(*old.Spec.ActiveDeadlineSeconds + int64(rapid.IntRange(1, 1<<30).Draw(t, "longer-by")))
		errs := validation.ValidatePodUpdate(n, old)
		if !slices.ContainsFunc(errs, func(e *api.FieldError) bool { return e.Field == "spec.activeDeadlineSeconds" }) {
			t.Fatalf("lengthened deadline gave %v", errs)
		}
	})
}

func TestPropertyEphemeralContainersOnlyGrow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := vGenValidPod(t)
		n := vClone(t, old)
		n.Spec.EphemeralContainers = append(n.Spec.EphemeralContainers, api.EphemeralContainer{Container: api.Container{
			Name: "debugger-" + vGenName(t, "debugger"), Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
		}})
		if errs := validation.ValidatePodEphemeralContainersUpdate(n, old); len(errs) != 0 {
			t.Fatalf("adding an ephemeral container rejected: %v", errs)
		}
		if errs := validation.ValidatePodUpdate(n, old); !slices.ContainsFunc(errs, func(e *api.FieldError) bool { return e.Field == "spec" }) {
			t.Fatalf("adding an ephemeral container by plain update gave %v", errs)
		}
		if errs := validation.ValidatePodEphemeralContainersUpdate(old, n); !slices.ContainsFunc(errs, func(e *api.FieldError) bool {
			return e.Field == "spec.ephemeralContainers" && e.Type == api.ErrorTypeForbidden
		}) {
			t.Fatalf("removing an ephemeral container gave %v", errs)
		}
		if errs := validation.ValidatePodCreate(n); !slices.ContainsFunc(errs, func(e *api.FieldError) bool {
			return e.Field == "spec.ephemeralContainers" && e.Type == api.ErrorTypeForbidden
		}) {
			t.Fatalf("creating with an ephemeral container gave %v", errs)
		}
	})
}
