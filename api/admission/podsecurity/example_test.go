package podsecurity_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

// A Deployment's pod as most manifests write it, created in a namespace
// labelled pod-security.kubernetes.io/enforce=restricted: the API server
// refuses it, one reason per check the pod fails. (Baseline allows it: it
// shares nothing with the node.)
func ExampleAdmit() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "nginx-7c5ddbdf54-x8zq2", Namespace: "web"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name:  "nginx",
			Image: "nginx:1.27",
			Ports: []api.ContainerPort{{ContainerPort: 80}},
		}}},
	}
	restricted, _ := podsecurity.ParsePolicy("restricted", "latest")
	fmt.Println(podsecurity.Admit(pod, restricted))
	// Output:
	// pods "nginx-7c5ddbdf54-x8zq2" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")
}

// The same pod hardened as the restricted standard asks: run as non-root
// with the runtime's seccomp profile (set once for the pod), and in the
// container no privilege escalation and every capability dropped.
func ExampleEvaluate() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "web"},
		Spec: api.PodSpec{
			SecurityContext: &api.PodSecurityContext{
				RunAsNonRoot:   ptr(true),
				SeccompProfile: &api.SeccompProfile{Type: api.SeccompProfileTypeRuntimeDefault},
			},
			Containers: []api.Container{{
				Name:  "nginx",
				Image: "nginxinc/nginx-unprivileged:1.27",
				SecurityContext: &api.SecurityContext{
					AllowPrivilegeEscalation: ptr(false),
					Capabilities:             &api.Capabilities{Drop: []string{"ALL"}},
				},
			}},
		},
	}
	res, _ := podsecurity.Evaluate(pod, podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()})
	fmt.Println("allowed:", res.Allowed, "evaluated at", res.Evaluated)

	// The node-agent variant mounts the node's logs: restricted names the
	// volume type, baseline names the hostPath volume.
	pod.Spec.Volumes = []api.Volume{{Name: "varlog", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/var/log"}}}}
	for _, level := range []podsecurity.Level{podsecurity.LevelRestricted, podsecurity.LevelBaseline} {
		res, _ := podsecurity.Evaluate(pod, podsecurity.Policy{Level: level, Version: podsecurity.LatestVersion()})
		for _, f := range res.Forbidden {
			fmt.Printf("%s: %s: %s (%s)\n", level, f.Check, f.Reason, f.Detail)
		}
	}
	// Output:
	// allowed: true evaluated at v1.35
	// restricted: restrictedVolumes: restricted volume types (volume "varlog" uses restricted volume type "hostPath")
	// baseline: hostPathVolumes: hostPath volumes (volume "varlog")
}

// A namespace can pin the standards to a release with
// pod-security.kubernetes.io/enforce-version: a probe that names a host is
// allowed by baseline as v1.33 wrote it, and refused from v1.34, when the
// check was added.
func ExampleParseVersion() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "checker"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name:          "app",
			Image:         "registry.example/app:1.0",
			LivenessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Host: "10.0.0.1", Path: "/healthz"}}},
		}}},
	}
	for _, s := range []string{"v1.33", "v1.34", "latest", "1.34"} {
		v, err := podsecurity.ParseVersion(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		res, _ := podsecurity.Evaluate(pod, podsecurity.Policy{Level: podsecurity.LevelBaseline, Version: v})
		fmt.Printf("%s: allowed=%v", v, res.Allowed)
		if !res.Allowed {
			fmt.Print(" ", res.ForbiddenDetail())
		}
		fmt.Println()
	}
	// Output:
	// v1.33: allowed=true
	// v1.34: allowed=false probe or lifecycle host (container "app" uses probe or lifecycle host "10.0.0.1")
	// latest: allowed=false probe or lifecycle host (container "app" uses probe or lifecycle host "10.0.0.1")
	// podsecurity: invalid input: version "1.34": must be "latest" or "v1.x"
}
