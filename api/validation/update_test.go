package validation_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// vStoredPod is vBasePod as the API server stores it: identity fields set,
// bound to a node, with a NoExecute toleration.
func vStoredPod() *api.Pod {
	p := vBasePod()
	p.UID = "uid-web"
	p.ResourceVersion = "10"
	p.Generation = 1
	p.CreationTimestamp = api.NewTime(time.Date(2024, 12, 31, 23, 0, 0, 0, time.UTC))
	p.Spec.NodeName = "node-1"
	p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: vPtr(int64(300))}}
	return p
}

// vClone deep-copies a pod through its JSON form.
func vClone(t interface{ Fatalf(string, ...any) }, p *api.Pod) *api.Pod {
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var out api.Pod
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return &out
}

func TestValidatePodUpdateRules(t *testing.T) {
	deleted := api.NewTimePtr(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name   string
		old    func(p *api.Pod)
		mutate func(p *api.Pod)
		want   []string
	}{
		{"no change", nil, func(p *api.Pod) {}, nil},
		{"image", nil, func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, nil},
		{"init image", nil, func(p *api.Pod) { p.Spec.InitContainers[0].Image = "busybox:2" }, nil},
		{"image emptied", nil, func(p *api.Pod) { p.Spec.Containers[0].Image = "" },
			[]string{"spec.containers[0].image FieldValueRequired"}},
		{"labels and annotations", nil, func(p *api.Pod) {
			p.Labels = map[string]string{"tier": "frontend"}
			p.Annotations = map[string]string{"note": "updated"}
		}, nil},
		{"bad label", nil, func(p *api.Pod) { p.Labels["bad key!"] = "x" }, []string{"metadata.labels FieldValueInvalid"}},
		{"name", nil, func(p *api.Pod) { p.Name = "web-x" }, []string{"metadata.name FieldValueInvalid"}},
		{"namespace", nil, func(p *api.Pod) { p.Namespace = "other" }, []string{"metadata.namespace FieldValueInvalid"}},
		{"uid", nil, func(p *api.Pod) { p.UID = "uid-other" }, []string{"metadata.uid FieldValueInvalid"}},
		{"creationTimestamp", nil, func(p *api.Pod) { p.CreationTimestamp = api.NewTime(p.CreationTimestamp.Add(time.Minute)) },
			[]string{"metadata.creationTimestamp FieldValueInvalid"}},
		{"resourceVersion missing", nil, func(p *api.Pod) { p.ResourceVersion = "" },
			[]string{"metadata.resourceVersion FieldValueInvalid"}},
		{"generation up", nil, func(p *api.Pod) { p.Generation = 2 }, nil},
		{"generation down", nil, func(p *api.Pod) { p.Generation = 0 }, []string{"metadata.generation FieldValueInvalid"}},
		{"generation negative", nil, func(p *api.Pod) { p.Generation = -1 }, []string{"metadata.generation FieldValueInvalid"}},
		{"deletionTimestamp set", nil, func(p *api.Pod) { p.DeletionTimestamp = deleted },
			[]string{"metadata.deletionTimestamp FieldValueInvalid"}},
		{"deletionGracePeriodSeconds set", nil, func(p *api.Pod) { p.DeletionGracePeriodSeconds = vPtr(int64(5)) },
			[]string{"metadata.deletionGracePeriodSeconds FieldValueInvalid"}},
		{"finalizer added while deleting",
			func(p *api.Pod) { p.DeletionTimestamp, p.DeletionGracePeriodSeconds = deleted, vPtr(int64(30)) },
			func(p *api.Pod) { p.Finalizers = []string{"example.com/another"} },
			[]string{"metadata.finalizers FieldValueForbidden"}},
		{"finalizer removed while deleting",
			func(p *api.Pod) {
				p.DeletionTimestamp, p.DeletionGracePeriodSeconds = deleted, vPtr(int64(30))
				p.Finalizers = []string{"example.com/cleanup"}
			},
			func(p *api.Pod) { p.Finalizers = nil }, nil},
		{"finalizer added before deletion", nil, func(p *api.Pod) { p.Finalizers = []string{"example.com/another"} }, nil},

		// activeDeadlineSeconds.
		{"deadline set", nil, func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(600)) }, nil},
		{"deadline shortened", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(100)) },
			func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(90)) }, nil},
		{"deadline lengthened", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(100)) },
			func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(110)) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"deadline removed", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(100)) },
			func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = nil },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"deadline to zero", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(100)) },
			func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(0)) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"deadline negative", nil, func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(-5)) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},

		// Tolerations and scheduling gates.
		{"toleration added", nil, func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "example.com/dedicated", Operator: api.TolerationOpEqual, Value: "db", Effect: api.TaintEffectNoSchedule})
		}, nil},
		{"tolerationSeconds changed", nil, func(p *api.Pod) { p.Spec.Tolerations[0].TolerationSeconds = vPtr(int64(60)) }, nil},
		{"toleration key changed", nil, func(p *api.Pod) { p.Spec.Tolerations[0].Key = api.TaintNodeUnreachable },
			[]string{"spec.tolerations FieldValueForbidden"}},
		{"toleration removed", nil, func(p *api.Pod) { p.Spec.Tolerations = nil },
			[]string{"spec.tolerations FieldValueForbidden"}},
		{"scheduling gate added", nil, func(p *api.Pod) { p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/other"}} },
			[]string{"spec.schedulingGates[0].name FieldValueForbidden"}},
		{"scheduling gate removed", func(p *api.Pod) {
			p.Spec.NodeName = ""
			p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}}
		}, func(p *api.Pod) { p.Spec.SchedulingGates = nil }, nil},
		{"gated pod gains a nodeSelector", func(p *api.Pod) {
			p.Spec.NodeName = ""
			p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}}
			p.Spec.NodeSelector = map[string]string{"disktype": "ssd"}
		}, func(p *api.Pod) { p.Spec.NodeSelector["zone"] = "a" }, nil},
		{"gated pod changes its nodeSelector", func(p *api.Pod) {
			p.Spec.NodeName = ""
			p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}}
			p.Spec.NodeSelector = map[string]string{"disktype": "ssd"}
		}, func(p *api.Pod) { p.Spec.NodeSelector["disktype"] = "hdd" },
			[]string{"spec.nodeSelector FieldValueInvalid"}},
		{"ungated pod gains a nodeSelector", nil, func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disktype": "ssd"} },
			[]string{"spec FieldValueForbidden"}},

		// Everything else is frozen.
		{"resources", nil, func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests["cpu"] = api.MustParseQuantity("200m") },
			[]string{"spec FieldValueForbidden"}},
		{"same resources spelled differently", nil, func(p *api.Pod) { p.Spec.Containers[0].Resources.Requests["cpu"] = api.MustParseQuantity("0.1") }, nil},
		{"restart policy", nil, func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyNever }, []string{"spec FieldValueForbidden"}},
		{"container renamed", nil, func(p *api.Pod) { p.Spec.Containers[0].Name = "renamed" }, []string{"spec FieldValueForbidden"}},
		{"node name", nil, func(p *api.Pod) { p.Spec.NodeName = "node-9" }, []string{"spec FieldValueForbidden"}},
		{"grace period", nil, func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(55)) }, []string{"spec FieldValueForbidden"}},
		{"negative grace period to one", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-1)) },
			func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(1)) }, nil},
		{"ephemeral container through update", nil, func(p *api.Pod) {
			p.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{Name: "debugger", Image: "busybox", ImagePullPolicy: api.PullIfNotPresent, TerminationMessagePolicy: "File"}}}
		}, []string{"spec FieldValueForbidden"}},
		{"container added stops the checks", nil, func(p *api.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "extra", Image: "busybox", ImagePullPolicy: api.PullAlways, TerminationMessagePolicy: "File"})
			p.Spec.RestartPolicy = api.RestartPolicyNever
			p.Spec.ActiveDeadlineSeconds = vPtr(int64(-1))
		}, []string{"spec.activeDeadlineSeconds FieldValueInvalid", "spec.containers FieldValueForbidden"}},

		// Found by differential testing against upstream validation.
		{"one negative grace period for another", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-5)) },
			func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-1)) }, nil},
		{"negative grace period to 5", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(-5)) },
			func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = vPtr(int64(5)) }, []string{"spec FieldValueForbidden"}},
		{"stop signal without an OS", nil, func(p *api.Pod) { p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("SIGTERM")} },
			[]string{"spec FieldValueForbidden", "spec.containers[0].lifecycle.stopSignal FieldValueForbidden"}},
		{"stop signal unknown to linux", func(p *api.Pod) { p.Spec.OS = &api.PodOS{Name: api.Linux} },
			func(p *api.Pod) { p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("SIGRTMIN+16")} },
			[]string{"spec FieldValueForbidden", "spec.containers[0].lifecycle.stopSignal FieldValueNotSupported"}},
		{"real-time stop signal on linux", func(p *api.Pod) { p.Spec.OS = &api.PodOS{Name: api.Linux} },
			func(p *api.Pod) { p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: vPtr("SIGRTMAX-14")} },
			[]string{"spec FieldValueForbidden"}},
		{"the same new scheduling gate twice", nil, func(p *api.Pod) {
			p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/g"}, {Name: "example.com/g"}}
		}, []string{"spec.schedulingGates[1] FieldValueDuplicate", "spec.schedulingGates[1].name FieldValueForbidden"}},
		{"finalizer that is not a qualified name", nil, func(p *api.Pod) { p.Finalizers = []string{"bad finalizer"} },
			[]string{"metadata.finalizers FieldValueInvalid", "metadata.finalizers[0] FieldValueInvalid"}},
		{"host net sysctl kept from the old pod", func(p *api.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports[0].HostPort = 8080
			p.Spec.SecurityContext = &api.PodSecurityContext{Sysctls: []api.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}}}
		}, func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := vStoredPod()
			if tt.old != nil {
				tt.old(old)
			}
			if errs := validation.ValidatePodUpdate(old, old); len(errs) != 0 {
				t.Fatalf("old pod does not update onto itself: %v", errs)
			}
			newPod := vClone(t, old)
			tt.mutate(newPod)
			got := vPairs(validation.ValidatePodUpdate(newPod, old))
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

func TestValidatePodEphemeralContainersUpdate(t *testing.T) {
	debugger := func(name string) api.EphemeralContainer {
		return api.EphemeralContainer{Container: api.Container{
			Name: name, Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
		}}
	}
	tests := []struct {
		name   string
		old    func(p *api.Pod)
		mutate func(p *api.Pod)
		want   []string
	}{
		{"add one", nil, func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("debugger-0")} }, nil},
		{"add a second", func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("debugger-0")} },
			func(p *api.Pod) {
				p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, debugger("debugger-1"))
			}, nil},
		{"change one", func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("debugger-0")} },
			func(p *api.Pod) { p.Spec.EphemeralContainers[0].Image = "busybox:other" },
			[]string{"spec.ephemeralContainers FieldValueForbidden"}},
		{"remove one", func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("debugger-0")} },
			func(p *api.Pod) { p.Spec.EphemeralContainers = nil },
			[]string{"spec.ephemeralContainers FieldValueForbidden"}},
		{"add one with ports", nil, func(p *api.Pod) {
			d := debugger("debugger-0")
			d.Ports = []api.ContainerPort{{ContainerPort: 9999, Protocol: api.ProtocolTCP}}
			p.Spec.EphemeralContainers = []api.EphemeralContainer{d}
		}, []string{"spec.ephemeralContainers[0].ports FieldValueForbidden"}},
		{"add one named like the app", nil, func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("app")} },
			[]string{"spec.ephemeralContainers[0].name FieldValueDuplicate"}},
		{"other spec changes are not checked", nil, func(p *api.Pod) {
			p.Spec.Containers[0].Image = "nginx:1.28"
			p.Spec.RestartPolicy = api.RestartPolicyNever
		}, nil},
		{"metadata rules still apply", nil, func(p *api.Pod) { p.Name = "web-x" }, []string{"metadata.name FieldValueInvalid"}},
		{"new pod must be valid", nil, func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = vPtr(int64(0)) },
			[]string{"spec.activeDeadlineSeconds FieldValueInvalid"}},
		{"static pod", func(p *api.Pod) { p.Annotations = map[string]string{"kubernetes.io/config.mirror": "hash"} },
			func(p *api.Pod) { p.Spec.EphemeralContainers = []api.EphemeralContainer{debugger("debugger-0")} },
			// The path upstream reports is a root with an empty name: "[]".
			[]string{"[] FieldValueForbidden"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := vStoredPod()
			if tt.old != nil {
				tt.old(old)
			}
			newPod := vClone(t, old)
			tt.mutate(newPod)
			got := vPairs(validation.ValidatePodEphemeralContainersUpdate(newPod, old))
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

func TestValidatePodUpdateNil(t *testing.T) {
	p := vStoredPod()
	if len(validation.ValidatePodUpdate(nil, p)) == 0 || len(validation.ValidatePodUpdate(p, nil)) == 0 {
		t.Error("nil pod accepted by ValidatePodUpdate")
	}
	if len(validation.ValidatePodEphemeralContainersUpdate(nil, p)) == 0 {
		t.Error("nil pod accepted by ValidatePodEphemeralContainersUpdate")
	}
}

// vPodFieldUpdateCases cover updates touching dnsConfig, hostAliases,
// hostnameOverride, resourceClaims, volumeDevices, recursiveReadOnly and
// the pod security context policies. sub "ephemeralcontainers" goes
// through ValidatePodEphemeralContainersUpdate. Every expectation was checked
// against the v1.36.3 API server's validation.
var vPodFieldUpdateCases = []struct {
	name   string
	sub    string
	old    func(p *api.Pod)
	mutate func(p *api.Pod)
	want   []string
}{
	{"dnsConfig added", "", nil, func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"10.0.0.10"}}
	}, []string{"spec FieldValueForbidden"}},
	{"invalid dnsConfig added", "", nil, func(p *api.Pod) {
		p.Spec.DNSConfig = &api.PodDNSConfig{Nameservers: []string{"010.0.0.10"}}
	}, []string{"spec FieldValueForbidden", "spec.dnsConfig.nameservers[0] FieldValueInvalid"}},
	{"host alias hostname changed", "",
		func(p *api.Pod) { p.Spec.HostAliases = []api.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"db"}}} },
		func(p *api.Pod) { p.Spec.HostAliases[0].Hostnames[0] = "cache" },
		[]string{"spec FieldValueForbidden"}},
	{"hostnameOverride removed", "",
		func(p *api.Pod) { p.Spec.HostnameOverride = vPtr("web-0") },
		func(p *api.Pod) { p.Spec.HostnameOverride = nil },
		[]string{"spec FieldValueForbidden"}},
	{"resource claim source switched", "",
		func(p *api.Pod) {
			p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: vPtr("gpu-claim")}}
			p.Spec.Containers[0].Resources.Claims = []api.ResourceClaim{{Name: "gpu"}}
		},
		func(p *api.Pod) {
			p.Spec.ResourceClaims[0].ResourceClaimName = nil
			p.Spec.ResourceClaims[0].ResourceClaimTemplateName = vPtr("gpu-template")
		},
		[]string{"spec FieldValueForbidden"}},
	{"container claim reference dropped with the pod claim", "",
		func(p *api.Pod) {
			p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimName: vPtr("gpu-claim")}}
			p.Spec.Containers[0].Resources.Claims = []api.ResourceClaim{{Name: "gpu"}}
		},
		func(p *api.Pod) { p.Spec.ResourceClaims = nil },
		[]string{"spec FieldValueForbidden", "spec.containers[0].resources.claims[0] FieldValueNotFound"}},
	{"seLinuxChangePolicy MountOption stays accepted once stored", "",
		func(p *api.Pod) {
			p.Spec.SecurityContext = &api.PodSecurityContext{SELinuxChangePolicy: vPtr("MountOption")}
		},
		func(p *api.Pod) { p.Labels["tier"] = "frontend" },
		nil},
	{"stored Recursive lets MountOption validate, but the spec is immutable", "",
		func(p *api.Pod) {
			p.Spec.SecurityContext = &api.PodSecurityContext{SELinuxChangePolicy: vPtr("Recursive")}
		},
		func(p *api.Pod) { p.Spec.SecurityContext.SELinuxChangePolicy = vPtr("MountOption") },
		[]string{"spec FieldValueForbidden"}},
	{"MountOption without a stored policy", "", nil,
		func(p *api.Pod) {
			p.Spec.SecurityContext = &api.PodSecurityContext{SELinuxChangePolicy: vPtr("MountOption")}
		},
		[]string{"spec FieldValueForbidden", "spec.securityContext.seLinuxChangePolicy FieldValueNotSupported"}},
	{"supplementalGroupsPolicy changed", "",
		func(p *api.Pod) {
			p.Spec.SecurityContext = &api.PodSecurityContext{SupplementalGroupsPolicy: vPtr("Merge")}
		},
		func(p *api.Pod) { p.Spec.SecurityContext.SupplementalGroupsPolicy = vPtr("Strict") },
		[]string{"spec FieldValueForbidden"}},
	{"stored user-namespaced pod with volume devices and hostNetwork", "",
		func(p *api.Pod) {
			vVolumes(p, false)
			p.Spec.HostUsers = vPtr(false)
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports[0].HostPort = 8080
			p.Spec.Containers[0].VolumeDevices = []api.VolumeDevice{{Name: "blk", DevicePath: "/dev/xvda"}}
		},
		func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" },
		nil},
	{"volume device added to a user-namespaced pod", "",
		func(p *api.Pod) {
			vVolumes(p, false)
			p.Spec.HostUsers = vPtr(false)
		},
		func(p *api.Pod) {
			p.Spec.InitContainers[0].VolumeDevices = []api.VolumeDevice{{Name: "blk", DevicePath: "/dev/xvda"}}
		},
		[]string{"spec FieldValueForbidden", "spec.initContainers[0].volumeDevices FieldValueForbidden"}},
	{"debug container with a block device", "ephemeralcontainers",
		func(p *api.Pod) { vVolumes(p, true) },
		func(p *api.Pod) {
			p.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{
				Name: "debugger", Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
				VolumeDevices: []api.VolumeDevice{{Name: "eph", DevicePath: "/dev/xvda"}},
			}}}
		},
		nil},
	{"debug container with a writable recursively read-only mount and an unknown claim", "ephemeralcontainers",
		func(p *api.Pod) { vVolumes(p, false) },
		func(p *api.Pod) {
			p.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{
				Name: "debugger", Image: "busybox", ImagePullPolicy: api.PullIfNotPresent,
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
				VolumeMounts: []api.VolumeMount{{Name: "scratch", MountPath: "/x", RecursiveReadOnly: vPtr("Enabled")}},
				Resources:    api.ResourceRequirements{Claims: []api.ResourceClaim{{Name: "gpu"}}},
			}}}
		},
		[]string{
			"spec.ephemeralContainers[0].resources FieldValueForbidden",
			"spec.ephemeralContainers[0].resources.claims[0] FieldValueNotFound",
			"spec.ephemeralContainers[0].volumeMounts.recursiveReadOnly FieldValueForbidden",
		}},
}

func TestValidatePodUpdatePodFields(t *testing.T) {
	for _, tt := range vPodFieldUpdateCases {
		t.Run(tt.name, func(t *testing.T) {
			old := vStoredPod()
			if tt.old != nil {
				tt.old(old)
			}
			validate := validation.ValidatePodUpdate
			if tt.sub == "ephemeralcontainers" {
				validate = validation.ValidatePodEphemeralContainersUpdate
			}
			if errs := validate(old, old); len(errs) != 0 {
				t.Fatalf("old pod does not update onto itself: %v", errs)
			}
			newPod := vClone(t, old)
			tt.mutate(newPod)
			got := vPairs(validate(newPod, old))
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
