package podsecurity_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

// A pod created in a namespace labelled
// pod-security.kubernetes.io/enforce=baseline: the PodSecurity admission
// plugin refuses it for sharing the node's network and mounting its
// files, with the message kubectl prints.
func ExampleAdmit_baseline() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "node-agent", Namespace: "monitoring"},
		Spec: api.PodSpec{
			HostNetwork: true,
			Containers:  []api.Container{{Name: "agent", Image: "agent:1.0"}},
			Volumes: []api.Volume{{Name: "varlog", VolumeSource: api.VolumeSource{
				HostPath: &api.HostPathVolumeSource{Path: "/var/log"},
			}}},
		},
	}
	baseline, err := podsecurity.ParsePolicy("baseline", "latest")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(podsecurity.Admit(pod, baseline))
	// Output:
	// pods "node-agent" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volume "varlog")
}
