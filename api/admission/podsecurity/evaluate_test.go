package podsecurity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

func ptr[T any](v T) *T { return &v }

// hardened is a pod every level allows at every version: what the
// restricted standard asks of each container, set once at the pod level
// where it can be.
func hardened() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PodSpec{
			SecurityContext: &api.PodSecurityContext{
				RunAsNonRoot:   ptr(true),
				SeccompProfile: &api.SeccompProfile{Type: api.SeccompProfileTypeRuntimeDefault},
			},
			Containers: []api.Container{{Name: "app", Image: "registry.example/app:1.0", SecurityContext: &api.SecurityContext{
				AllowPrivilegeEscalation: ptr(false),
				Capabilities:             &api.Capabilities{Drop: []string{"ALL"}},
			}}},
		},
	}
}

// with returns hardened() changed by each of fs.
func with(fs ...func(p *api.Pod)) *api.Pod {
	p := hardened()
	for _, f := range fs {
		f(p)
	}
	return p
}

func app(p *api.Pod) *api.Container { return &p.Spec.Containers[0] }

func policy(t *testing.T, level, version string) podsecurity.Policy {
	t.Helper()
	p, err := podsecurity.ParsePolicy(level, version)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// want is "reason (detail)" per failing check, as ForbiddenDetail joins
// them; "" for an allowed pod.
func TestEvaluate(t *testing.T) {
	tests := []struct {
		name    string
		pod     *api.Pod
		level   string
		version string
		want    string
	}{
		{"hardened pod at restricted", hardened(), "restricted", "latest", ""},
		{"privileged allows anything", with(func(p *api.Pod) {
			p.Spec.HostNetwork = true
			app(p).SecurityContext.Privileged = ptr(true)
		}), "privileged", "latest", ""},

		// host namespaces, in the order hostNetwork, hostPID, hostIPC.
		{"host namespaces", with(func(p *api.Pod) { p.Spec.HostIPC, p.Spec.HostPID, p.Spec.HostNetwork = true, true, true }),
			"baseline", "v1.0", "host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)"},

		// capabilities: baseline's list before v1.22 at restricted too.
		{"baseline capabilities", with(func(p *api.Pod) { app(p).SecurityContext.Capabilities.Add = []string{"SYS_ADMIN", "CHOWN", "NET_RAW"} }),
			"baseline", "latest", `non-default capabilities (container "app" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)`},
		{"restricted v1.21 judges capabilities by baseline's list", with(func(p *api.Pod) { app(p).SecurityContext.Capabilities = &api.Capabilities{Add: []string{"NET_RAW"}} }),
			"restricted", "v1.21", `non-default capabilities (container "app" must not include "NET_RAW" in securityContext.capabilities.add)`},
		{"restricted v1.22 requires drop ALL and replaces the baseline check", with(func(p *api.Pod) {
			app(p).SecurityContext.Capabilities = &api.Capabilities{Add: []string{"NET_RAW", "NET_BIND_SERVICE"}}
		}),
			"restricted", "v1.22", `unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]; container "app" must not include "NET_RAW" in securityContext.capabilities.add)`},
		{"restricted allows adding NET_BIND_SERVICE", with(func(p *api.Pod) { app(p).SecurityContext.Capabilities.Add = []string{"NET_BIND_SERVICE"} }),
			"restricted", "latest", ""},

		// volumes: restricted's volume check replaces hostPath volumes.
		{"hostPath at baseline", with(func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "a", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/"}}},
				{Name: "b", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/var"}}}}
		}), "baseline", "latest", `hostPath volumes (volumes "a", "b")`},
		{"restricted volume types", with(func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{
				{Name: "host", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/"}}},
				{Name: "cfg", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{}}},
				{Name: "nfs", VolumeSource: api.VolumeSource{NFS: &api.NFSVolumeSource{Server: "s", Path: "/"}}},
				{Name: "none"},
			}
		}), "restricted", "latest", `restricted volume types (volumes "host", "nfs", "none" use restricted volume types "hostPath", "nfs", "unknown")`},
		{"image volumes are allowed at every version", with(func(p *api.Pod) {
			p.Spec.Volumes = []api.Volume{{Name: "img", VolumeSource: api.VolumeSource{Image: &api.ImageVolumeSource{Reference: "x"}}}}
			p.Spec.SecurityContext.SeccompProfile = nil // v1.0 has no seccomp field check
		}), "restricted", "v1.0", ""},

		// host ports: sorted as strings, containers in visiting order.
		{"host ports", with(func(p *api.Pod) {
			p.Spec.InitContainers = []api.Container{{Name: "init", Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 80}}}}
			app(p).Ports = []api.ContainerPort{{ContainerPort: 1, HostPort: 10250}, {ContainerPort: 2}}
		}), "baseline", "latest", `hostPort (containers "init", "app" use hostPorts 10250, 80)`},

		// probe and lifecycle hosts from v1.34, containers as a sorted set.
		{"probe host before v1.34", with(func(p *api.Pod) {
			app(p).LivenessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Host: "10.0.0.1"}}}
		}), "baseline", "v1.33", ""},
		{"probe and lifecycle hosts", with(func(p *api.Pod) {
			p.Spec.InitContainers = []api.Container{{Name: "z-init", StartupProbe: &api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: &api.TCPSocketAction{Host: "b.example"}}}}}
			app(p).LivenessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Host: "10.0.0.1"}}}
			app(p).Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{HTTPGet: &api.HTTPGetAction{Host: "10.0.0.1"}}}
		}), "baseline", "v1.34", `probe or lifecycle host (containers "app", "z-init" use probe or lifecycle hosts "10.0.0.1", "b.example")`},

		// AppArmor: field and annotation, plural when more than one value.
		{"AppArmor field and annotations", with(func(p *api.Pod) {
			p.Annotations = map[string]string{
				api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "app":     "unconfined",
				api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "sidecar": "localhost/x",
			}
			p.Spec.SecurityContext.AppArmorProfile = &api.AppArmorProfile{Type: api.AppArmorProfileTypeUnconfined}
			app(p).SecurityContext.AppArmorProfile = &api.AppArmorProfile{Type: api.AppArmorProfileTypeUnconfined}
		}), "baseline", "v1.0", `forbidden AppArmor profiles (pod and container "app" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app="unconfined"")`},

		// SELinux: container_engine_t from v1.31; user and role never.
		{"SELinux type at v1.30", with(func(p *api.Pod) {
			app(p).SecurityContext.SELinuxOptions = &api.SELinuxOptions{Type: "container_engine_t"}
		}),
			"baseline", "v1.30", `seLinuxOptions (container "app" set forbidden securityContext.seLinuxOptions: type "container_engine_t")`},
		{"SELinux type at v1.31", with(func(p *api.Pod) {
			app(p).SecurityContext.SELinuxOptions = &api.SELinuxOptions{Type: "container_engine_t"}
		}),
			"baseline", "v1.31", ""},
		{"SELinux user, role and types", with(func(p *api.Pod) {
			p.Spec.SecurityContext.SELinuxOptions = &api.SELinuxOptions{User: "system_u", Type: "spc_t"}
			app(p).SecurityContext.SELinuxOptions = &api.SELinuxOptions{Role: "r", Type: "unconfined_t", Level: "s0"}
		}), "baseline", "latest", `seLinuxOptions (pod and container "app" set forbidden securityContext.seLinuxOptions: types "spc_t", "unconfined_t"; user may not be set; role may not be set)`},

		// procMount, and the v1.35 user-namespace relaxation of baseline only.
		{"procMount", with(func(p *api.Pod) { app(p).SecurityContext.ProcMount = ptr(api.UnmaskedProcMount) }),
			"baseline", "latest", `procMount (container "app" must not set securityContext.procMount to "Unmasked")`},
		{"procMount in a user namespace at baseline v1.34", with(func(p *api.Pod) {
			p.Spec.HostUsers = ptr(false)
			app(p).SecurityContext.ProcMount = ptr(api.UnmaskedProcMount)
		}), "baseline", "v1.34", `procMount (container "app" must not set securityContext.procMount to "Unmasked")`},
		{"procMount in a user namespace at baseline v1.35", with(func(p *api.Pod) {
			p.Spec.HostUsers = ptr(false)
			app(p).SecurityContext.ProcMount = ptr(api.UnmaskedProcMount)
		}), "baseline", "v1.35", ""},
		{"procMount in a user namespace at restricted v1.35 comes after the capabilities check", with(func(p *api.Pod) {
			p.Spec.HostUsers = ptr(false)
			app(p).SecurityContext.ProcMount = ptr(api.UnmaskedProcMount)
			app(p).SecurityContext.Capabilities = nil
		}), "restricted", "latest", `unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), procMount (container "app" must not set securityContext.procMount to "Unmasked")`},

		// seccomp: annotations before v1.19, the field after.
		{"seccomp annotations at v1.18", with(func(p *api.Pod) {
			p.Annotations = map[string]string{
				api.SeccompPodAnnotationKey:                      "unconfined",
				api.SeccompContainerAnnotationKeyPrefix + "app":  "docker/default",
				api.SeccompContainerAnnotationKeyPrefix + "gone": "unconfined",
			}
			p.Spec.SecurityContext.SeccompProfile.Type = api.SeccompProfileTypeUnconfined
		}), "baseline", "v1.18", `seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")`},
		{"seccomp field at v1.19", with(func(p *api.Pod) {
			p.Annotations = map[string]string{api.SeccompPodAnnotationKey: "unconfined"}
			p.Spec.SecurityContext.SeccompProfile.Type = api.SeccompProfileTypeUnconfined
			app(p).SecurityContext.SeccompProfile = &api.SeccompProfile{Type: api.SeccompProfileTypeUnconfined}
		}), "baseline", "v1.19", `seccompProfile (pod and container "app" must not set securityContext.seccompProfile.type to "Unconfined")`},
		{"restricted seccomp missing on a container", with(func(p *api.Pod) {
			p.Spec.SecurityContext.SeccompProfile = nil
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "side", SecurityContext: &api.SecurityContext{
				AllowPrivilegeEscalation: ptr(false), Capabilities: &api.Capabilities{Drop: []string{"ALL"}},
				SeccompProfile: &api.SeccompProfile{Type: api.SeccompProfileTypeLocalhost, LocalhostProfile: ptr("p.json")},
			}})
		}), "restricted", "latest", `seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`},

		// sysctls: the allowed list grows by version.
		{"sysctls at v1.26", with(func(p *api.Pod) {
			p.Spec.SecurityContext.Sysctls = []api.Sysctl{{Name: "net.ipv4.ip_local_reserved_ports"}, {Name: "net.ipv4.tcp_rmem"}, {Name: "kernel.shm_rmid_forced"}}
		}), "baseline", "v1.26", "forbidden sysctls (net.ipv4.ip_local_reserved_ports, net.ipv4.tcp_rmem)"},
		{"sysctls at v1.31", with(func(p *api.Pod) {
			p.Spec.SecurityContext.Sysctls = []api.Sysctl{{Name: "net.ipv4.tcp_keepalive_time"}, {Name: "net.ipv4.tcp_wmem"}, {Name: "net.core.somaxconn"}}
		}), "baseline", "v1.31", "forbidden sysctls (net.ipv4.tcp_wmem, net.core.somaxconn)"},
		{"sysctls at v1.32", with(func(p *api.Pod) {
			p.Spec.SecurityContext.Sysctls = []api.Sysctl{{Name: "net.ipv4.tcp_keepalive_time"}, {Name: "net.ipv4.tcp_wmem"}}
		}), "baseline", "v1.32", ""},

		// Windows HostProcess; Windows pods skip Linux-only restricted checks from v1.25.
		{"hostProcess", with(func(p *api.Pod) {
			p.Spec.SecurityContext.WindowsOptions = &api.WindowsSecurityContextOptions{HostProcess: ptr(true)}
			app(p).SecurityContext.WindowsOptions = &api.WindowsSecurityContextOptions{HostProcess: ptr(true)}
		}), "baseline", "latest", `hostProcess (pod and container "app" must not set securityContext.windowsOptions.hostProcess=true)`},
		{"windows pod at restricted v1.24", with(func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			app(p).SecurityContext = nil
			p.Spec.SecurityContext.SeccompProfile = nil
		}), "restricted", "v1.24", `allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`},
		{"windows pod at restricted v1.25", with(func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			app(p).SecurityContext = nil
			p.Spec.SecurityContext.SeccompProfile = nil
		}), "restricted", "v1.25", ""},

		{"windows pod with an unconfined seccomp profile: restricted skips it, baseline does not", with(func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			p.Spec.SecurityContext.SeccompProfile.Type = api.SeccompProfileTypeUnconfined
		}), "restricted", "v1.25", ""},
		{"the same pod at baseline", with(func(p *api.Pod) {
			p.Spec.OS = &api.PodOS{Name: api.Windows}
			p.Spec.SecurityContext.SeccompProfile.Type = api.SeccompProfileTypeUnconfined
		}), "baseline", "v1.25", `seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")`},

		// allowPrivilegeEscalation from v1.8; runAsNonRoot; runAsUser from v1.23.
		{"allowPrivilegeEscalation before v1.8", with(func(p *api.Pod) { app(p).SecurityContext.AllowPrivilegeEscalation = nil }),
			"restricted", "v1.7", ""},
		{"runAsNonRoot false", with(func(p *api.Pod) {
			p.Spec.SecurityContext.RunAsNonRoot = ptr(false)
			app(p).SecurityContext.RunAsNonRoot = ptr(false)
		}), "restricted", "latest", `runAsNonRoot != true (pod and container "app" must not set securityContext.runAsNonRoot=false)`},
		{"runAsUser=0 at v1.22", with(func(p *api.Pod) { p.Spec.SecurityContext.RunAsUser = ptr(int64(0)) }), "restricted", "v1.22", ""},
		{"runAsUser=0 at v1.23", with(func(p *api.Pod) { p.Spec.SecurityContext.RunAsUser = ptr(int64(0)) }), "restricted", "v1.23",
			`runAsUser=0 (pod must not set runAsUser=0)`},
		{"root in a user namespace at v1.34", with(func(p *api.Pod) {
			p.Spec.HostUsers = ptr(false)
			p.Spec.SecurityContext.RunAsNonRoot = nil
			app(p).SecurityContext.RunAsUser = ptr(int64(0))
		}), "restricted", "v1.34", `runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), runAsUser=0 (container "app" must not set runAsUser=0)`},
		{"root in a user namespace at v1.35", with(func(p *api.Pod) {
			p.Spec.HostUsers = ptr(false)
			p.Spec.SecurityContext.RunAsNonRoot = nil
			app(p).SecurityContext.RunAsUser = ptr(int64(0))
		}), "restricted", "v1.35", ""},

		// Every container kind, in the order init, regular, ephemeral.
		{"privileged containers of every kind", with(func(p *api.Pod) {
			p.Spec.InitContainers = []api.Container{{Name: "init", SecurityContext: &api.SecurityContext{Privileged: ptr(true)}}}
			p.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{Name: "debug", SecurityContext: &api.SecurityContext{Privileged: ptr(true)}}}}
			app(p).SecurityContext.Privileged = ptr(true)
		}), "baseline", "latest", `privileged (containers "init", "app", "debug" must not set securityContext.privileged=true)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := podsecurity.Evaluate(tt.pod, policy(t, tt.level, tt.version))
			if err != nil {
				t.Fatal(err)
			}
			if got := res.ForbiddenDetail(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if res.Allowed != (tt.want == "") {
				t.Errorf("Allowed = %v with forbidden %q", res.Allowed, res.ForbiddenDetail())
			}
		})
	}
}

// TestNewerVersionsAsNewest: "latest" and versions beyond the newest
// policy version run v1.35's variants, and the message still quotes the
// version asked for.
func TestNewerVersionsAsNewest(t *testing.T) {
	pod := with(func(p *api.Pod) {
		p.Spec.HostUsers = ptr(false)
		p.Spec.SecurityContext.RunAsNonRoot = nil
		app(p).SecurityContext.ProcMount = ptr(api.UnmaskedProcMount)
		app(p).LivenessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Host: "h"}}}
	})
	newest, err := podsecurity.Evaluate(pod, policy(t, "restricted", "v1.35"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"latest", "v1.36", "v1.40", "v1.1000"} {
		res, err := podsecurity.Evaluate(pod, policy(t, "restricted", v))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(newest.Forbidden, res.Forbidden); diff != "" {
			t.Errorf("%s differs from v1.35 (-v1.35 +%s):\n%s", v, v, diff)
		}
		if res.Evaluated.String() != "v1.35" {
			t.Errorf("%s evaluated as %s, want v1.35", v, res.Evaluated)
		}
		if want := `violates PodSecurity "restricted:` + v + `"`; !strings.Contains(res.Message("web"), want) {
			t.Errorf("message %q does not quote %s", res.Message("web"), want)
		}
	}
}

func TestAdmit(t *testing.T) {
	pod := with(func(p *api.Pod) { p.Spec.HostPID = true })
	err := podsecurity.Admit(pod, policy(t, "baseline", "latest"))
	var ae *admission.Error
	if !errors.As(err, &ae) || !errors.Is(err, admission.ErrForbidden) || ae.Code() != 403 || ae.Reason != "Forbidden" {
		t.Fatalf("got %v, want a 403 Forbidden *admission.Error", err)
	}
	if want := `pods "web" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	// A pod without a name yet is named by its generateName, or "Unknown".
	pod.Name, pod.GenerateName = "", "web-"
	if err := podsecurity.Admit(pod, policy(t, "baseline", "latest")); !strings.HasPrefix(err.Error(), `pods "web-" is forbidden: `) {
		t.Errorf("generateName: got %v", err)
	}
	pod.GenerateName = ""
	if err := podsecurity.Admit(pod, policy(t, "baseline", "latest")); !strings.HasPrefix(err.Error(), `pods "Unknown" is forbidden: `) {
		t.Errorf("no name: got %v", err)
	}
	if err := podsecurity.Admit(pod, policy(t, "privileged", "latest")); err != nil {
		t.Errorf("privileged: got %v", err)
	}
}

func TestEvaluateRefusesBadPolicies(t *testing.T) {
	for _, tt := range []struct {
		policy podsecurity.Policy
		want   string
	}{
		{podsecurity.Policy{}, `level ""`},
		{podsecurity.Policy{Level: "Restricted", Version: podsecurity.LatestVersion()}, `level "Restricted"`},
		{podsecurity.Policy{Level: podsecurity.LevelBaseline}, `version "v0.0"`},
		{podsecurity.Policy{Level: podsecurity.LevelBaseline, Version: podsecurity.MajorMinorVersion(2, 0)}, `version "v2.0"`},
		{podsecurity.Policy{Level: podsecurity.LevelBaseline, Version: podsecurity.MajorMinorVersion(1, -1)}, `version "v1.-1"`},
	} {
		_, err := podsecurity.Evaluate(hardened(), tt.policy)
		if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: got %v, want an invalid-input error naming %s", tt.policy, err, tt.want)
		}
		if err := podsecurity.Admit(hardened(), tt.policy); !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("Admit %+v: got %v, want an invalid-input error", tt.policy, err)
		}
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"privileged", "baseline", "restricted"} {
		if l, err := podsecurity.ParseLevel(s); err != nil || string(l) != s {
			t.Errorf("ParseLevel(%q) = %q, %v", s, l, err)
		}
	}
	for _, s := range []string{"", "Baseline", " restricted", "restricted ", "none"} {
		if _, err := podsecurity.ParseLevel(s); !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), `"`+s+`"`) {
			t.Errorf("ParseLevel(%q): got %v, want an error naming it", s, err)
		}
	}
	for _, s := range []string{"latest", "v1.0", "v1.9", "v1.10", "v1.36", "v1.40"} {
		if v, err := podsecurity.ParseVersion(s); err != nil || v.String() != s {
			t.Errorf("ParseVersion(%q) = %s, %v", s, v, err)
		}
	}
	for _, s := range []string{"", "Latest", "1.36", "v1", "v1.", "v1.036", "v1.00", "v2.0", "v1.36.3", "v1.-1", "v1.+1", " v1.3", "v1.3\n", "v1.99999999999999999999"} {
		if _, err := podsecurity.ParseVersion(s); !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("ParseVersion(%q): got %v, want an error", s, err)
		}
	}
	v, _ := podsecurity.ParseVersion("v1.30")
	if v.Major() != 1 || v.Minor() != 30 || v.Latest() || !v.Older(podsecurity.MajorMinorVersion(1, 31)) ||
		v.Older(podsecurity.MajorMinorVersion(1, 30)) || !v.Older(podsecurity.LatestVersion()) || podsecurity.LatestVersion().Older(v) {
		t.Errorf("v1.30 compares wrongly")
	}
	if _, err := podsecurity.ParsePolicy("restricted", "v1.x"); err == nil || !strings.Contains(err.Error(), `"v1.x"`) {
		t.Errorf("ParsePolicy with a bad version: %v", err)
	}
	if p := policy(t, "baseline", "v1.30"); p.String() != "baseline:v1.30" {
		t.Errorf("Policy.String = %s", p)
	}
}
