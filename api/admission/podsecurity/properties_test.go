package podsecurity_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

// maybe draws nil or a value from gen.
func maybe[T any](t *rapid.T, gen *rapid.Generator[T], label string) *T {
	if !rapid.Bool().Draw(t, label+"?") {
		return nil
	}
	v := gen.Draw(t, label)
	return &v
}

// securityContext draws a container security context from the values the
// standards judge, the allowed and the forbidden ones.
func securityContext(t *rapid.T, label string) *api.SecurityContext {
	if !rapid.Bool().Draw(t, label) {
		return nil
	}
	caps := rapid.SliceOfN(rapid.SampledFrom([]string{"ALL", "NET_BIND_SERVICE", "CHOWN", "NET_RAW", "SYS_ADMIN"}), 0, 2)
	sc := &api.SecurityContext{
		Privileged:               maybe(t, rapid.Bool(), label+".privileged"),
		AllowPrivilegeEscalation: maybe(t, rapid.Bool(), label+".allowPrivilegeEscalation"),
		RunAsNonRoot:             maybe(t, rapid.Bool(), label+".runAsNonRoot"),
		RunAsUser:                maybe(t, rapid.Int64Range(0, 2), label+".runAsUser"),
		ProcMount:                maybe(t, rapid.SampledFrom([]string{api.DefaultProcMount, api.UnmaskedProcMount}), label+".procMount"),
	}
	if rapid.Bool().Draw(t, label+".capabilities") {
		sc.Capabilities = &api.Capabilities{Add: caps.Draw(t, label+".add"), Drop: caps.Draw(t, label+".drop")}
	}
	if rapid.Bool().Draw(t, label+".seccomp") {
		sc.SeccompProfile = &api.SeccompProfile{Type: rapid.SampledFrom([]string{"RuntimeDefault", "Localhost", "Unconfined"}).Draw(t, label+".seccompType")}
	}
	if rapid.Bool().Draw(t, label+".apparmor") {
		sc.AppArmorProfile = &api.AppArmorProfile{Type: rapid.SampledFrom([]string{"RuntimeDefault", "Localhost", "Unconfined"}).Draw(t, label+".apparmorType")}
	}
	if rapid.Bool().Draw(t, label+".selinux") {
		sc.SELinuxOptions = &api.SELinuxOptions{
			Type: rapid.SampledFrom([]string{"", "container_t", "container_engine_t", "spc_t"}).Draw(t, label+".selinuxType"),
			User: rapid.SampledFrom([]string{"", "system_u"}).Draw(t, label+".selinuxUser"),
		}
	}
	if rapid.Bool().Draw(t, label+".windows") {
		sc.WindowsOptions = &api.WindowsSecurityContextOptions{HostProcess: maybe(t, rapid.Bool(), label+".hostProcess")}
	}
	return sc
}

func container(t *rapid.T, name string) api.Container {
	c := api.Container{Name: name, Image: "registry.example/app:1.0", SecurityContext: securityContext(t, name+".securityContext")}
	if rapid.Bool().Draw(t, name+".hostPort") {
		c.Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: rapid.Int32Range(0, 2).Draw(t, name+".hostPortNumber") * 8080}}
	}
	if rapid.Bool().Draw(t, name+".probe") {
		c.LivenessProbe = &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{
			Host: rapid.SampledFrom([]string{"", "10.0.0.1"}).Draw(t, name+".probeHost"),
		}}}
	}
	return c
}

// genPod draws a pod touching every check of the standards.
func genPod(t *rapid.T) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	p.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	p.Spec.HostPID = rapid.Bool().Draw(t, "hostPID")
	p.Spec.HostUsers = maybe(t, rapid.Bool(), "hostUsers")
	if rapid.Bool().Draw(t, "windows") {
		p.Spec.OS = &api.PodOS{Name: api.Windows}
	}
	if rapid.Bool().Draw(t, "podSecurityContext") {
		sc := securityContext(t, "pod")
		p.Spec.SecurityContext = &api.PodSecurityContext{}
		if sc != nil {
			p.Spec.SecurityContext.RunAsNonRoot = sc.RunAsNonRoot
			p.Spec.SecurityContext.RunAsUser = sc.RunAsUser
			p.Spec.SecurityContext.SeccompProfile = sc.SeccompProfile
			p.Spec.SecurityContext.AppArmorProfile = sc.AppArmorProfile
			p.Spec.SecurityContext.SELinuxOptions = sc.SELinuxOptions
			p.Spec.SecurityContext.WindowsOptions = sc.WindowsOptions
		}
		for _, name := range rapid.SliceOfN(rapid.SampledFrom([]string{"kernel.shm_rmid_forced", "net.ipv4.tcp_rmem", "net.core.somaxconn"}), 0, 2).Draw(t, "sysctls") {
			p.Spec.SecurityContext.Sysctls = append(p.Spec.SecurityContext.Sysctls, api.Sysctl{Name: name, Value: "1"})
		}
	}
	p.Spec.Containers = []api.Container{container(t, "app")}
	if rapid.Bool().Draw(t, "sidecar") {
		p.Spec.InitContainers = []api.Container{container(t, "side")}
	}
	for i, kind := range rapid.SliceOfN(rapid.SampledFrom([]string{"hostPath", "emptyDir", "nfs", "image", "none"}), 0, 2).Draw(t, "volumes") {
		v := api.Volume{Name: fmt.Sprintf("vol-%d", i)}
		switch kind {
		case "hostPath":
			v.HostPath = &api.HostPathVolumeSource{Path: "/"}
		case "emptyDir":
			v.EmptyDir = &api.EmptyDirVolumeSource{}
		case "nfs":
			v.NFS = &api.NFSVolumeSource{Server: "s", Path: "/"}
		case "image":
			v.Image = &api.ImageVolumeSource{Reference: "x"}
		}
		p.Spec.Volumes = append(p.Spec.Volumes, v)
	}
	annotations := map[string]string{}
	if rapid.Bool().Draw(t, "apparmorAnnotation") {
		annotations[api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix+"app"] = rapid.SampledFrom([]string{"runtime/default", "unconfined", "localhost/x"}).Draw(t, "apparmorValue")
	}
	if rapid.Bool().Draw(t, "seccompAnnotation") {
		annotations[api.SeccompPodAnnotationKey] = rapid.SampledFrom([]string{"runtime/default", "unconfined"}).Draw(t, "seccompValue")
	}
	if len(annotations) > 0 {
		p.Annotations = annotations
	}
	if p.Spec.OS != nil {
		windowsOnly(p)
	}
	return p
}

// windowsOnly clears what the API server's validation refuses in a pod
// with spec.os.name windows: the Linux-only security fields. (Restricted
// skips its Linux-only checks for Windows pods from v1.25 and replaces
// baseline's seccomp and capabilities checks there, so on a Windows pod
// that validation would refuse, baseline can forbid what restricted
// allows; the standards are nested for the pods the API server accepts.)
func windowsOnly(p *api.Pod) {
	p.Spec.HostUsers = nil
	if sc := p.Spec.SecurityContext; sc != nil {
		sc.RunAsUser, sc.SeccompProfile, sc.AppArmorProfile, sc.SELinuxOptions, sc.Sysctls = nil, nil, nil, nil, nil
	}
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if sc := cs[i].SecurityContext; sc != nil {
				*sc = api.SecurityContext{RunAsNonRoot: sc.RunAsNonRoot, WindowsOptions: sc.WindowsOptions}
			}
		}
	}
}

var genVersion = rapid.Custom(func(t *rapid.T) podsecurity.Version {
	if rapid.Bool().Draw(t, "latest") {
		return podsecurity.LatestVersion()
	}
	return podsecurity.MajorMinorVersion(1, rapid.IntRange(0, 40).Draw(t, "minor"))
})

func evaluate(t *rapid.T, pod *api.Pod, level podsecurity.Level, v podsecurity.Version) podsecurity.Result {
	res, err := podsecurity.Evaluate(pod, podsecurity.Policy{Level: level, Version: v})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPropertyLevelsAreNested: the levels only tighten. At any version, a
// pod restricted allows is allowed by baseline, a pod baseline allows is
// allowed by privileged, and privileged allows every pod (for the pods the
// API server's validation accepts: see windowsOnly).
func TestPropertyLevelsAreNested(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genPod(t)
		v := genVersion.Draw(t, "version")
		priv := evaluate(t, pod, podsecurity.LevelPrivileged, v)
		base := evaluate(t, pod, podsecurity.LevelBaseline, v)
		restr := evaluate(t, pod, podsecurity.LevelRestricted, v)
		if !priv.Allowed || len(priv.Forbidden) != 0 {
			t.Fatalf("privileged forbids: %s", priv.ForbiddenDetail())
		}
		if restr.Allowed && !base.Allowed {
			t.Fatalf("restricted allows what baseline forbids: %s", base.ForbiddenDetail())
		}
		// Every failure at baseline fails restricted too, possibly under
		// the restricted check that replaces it.
		if len(base.Forbidden) > 0 && len(restr.Forbidden) == 0 {
			t.Fatalf("baseline forbids (%s), restricted does not", base.ForbiddenDetail())
		}
	})
}

// TestPropertyNewerVersionsAsNewest: "latest" and any version past v1.35
// judge a pod exactly as v1.35 does.
func TestPropertyNewerVersionsAsNewest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genPod(t)
		level := rapid.SampledFrom([]podsecurity.Level{podsecurity.LevelBaseline, podsecurity.LevelRestricted}).Draw(t, "level")
		want := evaluate(t, pod, level, podsecurity.MajorMinorVersion(1, 35)).ForbiddenDetail()
		for _, v := range []podsecurity.Version{podsecurity.LatestVersion(), podsecurity.MajorMinorVersion(1, rapid.IntRange(36, 1000).Draw(t, "minor"))} {
			if got := evaluate(t, pod, level, v).ForbiddenDetail(); got != want {
				t.Fatalf("%s: %q, v1.35: %q", v, got, want)
			}
		}
	})
}

// TestPropertyAnswersAgree: Allowed, the forbidden list, Message and Admit
// tell the same story, each check fails at most once, and evaluation
// leaves the pod as it was.
func TestPropertyAnswersAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genPod(t)
		before, _ := json.Marshal(pod)
		p := podsecurity.Policy{
			Level:   rapid.SampledFrom([]podsecurity.Level{podsecurity.LevelPrivileged, podsecurity.LevelBaseline, podsecurity.LevelRestricted}).Draw(t, "level"),
			Version: genVersion.Draw(t, "version"),
		}
		res := evaluate(t, pod, p.Level, p.Version)
		err := podsecurity.Admit(pod, p)
		if res.Allowed != (len(res.Forbidden) == 0) || res.Allowed != (res.Message(pod.Name) == "") || res.Allowed != (err == nil) {
			t.Fatalf("allowed %v, %d forbidden, message %q, Admit %v", res.Allowed, len(res.Forbidden), res.Message(pod.Name), err)
		}
		if err != nil && err.Error() != res.Message(pod.Name) {
			t.Fatalf("Admit says %q, Message %q", err, res.Message(pod.Name))
		}
		seen := map[string]bool{}
		for _, f := range res.Forbidden {
			if f.Reason == "" || f.Check == "" || seen[f.Check] {
				t.Fatalf("bad forbidden entry %+v in %+v", f, res.Forbidden)
			}
			seen[f.Check] = true
		}
		if after, _ := json.Marshal(pod); string(after) != string(before) {
			t.Fatalf("Evaluate changed the pod:\n%s\n%s", before, after)
		}
	})
}
