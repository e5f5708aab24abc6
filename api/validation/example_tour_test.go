package validation_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// kube-proxy runs privileged on the host's network. A kube-apiserver with
// default flags refuses it, with the field path and wording of its errors;
// kubeadm's and kind's run with --allow-privileged=true and accept it.
func ExampleOptions_allowPrivileged() {
	privileged := true
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "kube-proxy-x7k2p", Namespace: "kube-system"},
		Spec: api.PodSpec{
			HostNetwork: true,
			Containers: []api.Container{{
				Name: "kube-proxy", Image: "registry.k8s.io/kube-proxy:v1.36.3",
				SecurityContext: &api.SecurityContext{Privileged: &privileged},
			}},
		},
	}
	api.DefaultPod(pod) // the API server defaults before it validates
	for _, err := range validation.ValidatePodCreate(pod) {
		fmt.Println("default flags:", err)
	}
	errs := validation.Options{AllowPrivileged: true}.ValidatePodCreate(pod)
	fmt.Println("--allow-privileged=true:", len(errs), "errors")
	// Output:
	// default flags: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy
	// --allow-privileged=true: 0 errors
}
