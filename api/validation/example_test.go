package validation_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/downward"
)

// exampleSeconds returns a pointer to a number of seconds.
func exampleSeconds(v int64) *int64 { return &v }

// A pod whose init container carries a readiness probe, which only
// sidecars (restartPolicy: Always) may have, and which asks for its own
// user namespace while sharing the host's network.
func ExampleValidatePodCreate() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{
				Name: "setup", Image: "busybox", ImagePullPolicy: api.PullAlways, TerminationMessagePolicy: "File",
				ReadinessProbe: &api.Probe{
					ProbeHandler:  api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}},
					PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
				},
			}},
			Containers: []api.Container{{
				Name: "app", Image: "nginx:1.27", ImagePullPolicy: api.PullIfNotPresent, TerminationMessagePolicy: "File",
			}},
			RestartPolicy:                 api.RestartPolicyAlways,
			DNSPolicy:                     api.DNSClusterFirst,
			TerminationGracePeriodSeconds: exampleSeconds(30),
			HostNetwork:                   true,
			HostUsers:                     new(bool),
		},
	}
	for _, err := range validation.ValidatePodCreate(pod) {
		fmt.Println(err)
	}
	// Output:
	// spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always
	// spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false
}

// A running pod may get a new image and a shorter deadline, but not a
// longer one or a new name; its restart policy is frozen. A deadline error
// ends the spec checks, as upstream's does.
func ExampleValidatePodUpdate() {
	old := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name: "web", Namespace: "default", UID: "uid-web", ResourceVersion: "10",
			CreationTimestamp: api.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)),
		},
		Spec: api.PodSpec{
			Containers: []api.Container{{
				Name: "app", Image: "nginx:1.27", ImagePullPolicy: api.PullIfNotPresent, TerminationMessagePolicy: "File",
			}},
			RestartPolicy:                 api.RestartPolicyAlways,
			DNSPolicy:                     api.DNSClusterFirst,
			TerminationGracePeriodSeconds: exampleSeconds(30),
			ActiveDeadlineSeconds:         exampleSeconds(600),
			NodeName:                      "node-1",
		},
	}
	newPod := *old
	newPod.Spec.Containers = []api.Container{old.Spec.Containers[0]}
	newPod.Spec.Containers[0].Image = "nginx:1.28"
	newPod.Spec.ActiveDeadlineSeconds = exampleSeconds(300)
	fmt.Println("image and shorter deadline:", validation.ValidatePodUpdate(&newPod, old).Err())

	newPod.Spec.ActiveDeadlineSeconds = exampleSeconds(900)
	newPod.Name = "web-2"
	for _, err := range validation.ValidatePodUpdate(&newPod, old) {
		fmt.Println(err)
	}

	newPod.Name = old.Name
	newPod.Spec.ActiveDeadlineSeconds = old.Spec.ActiveDeadlineSeconds
	newPod.Spec.RestartPolicy = api.RestartPolicyNever
	for _, err := range validation.ValidatePodUpdate(&newPod, old) {
		fmt.Println(err.Field, err.Type)
	}
	// Output:
	// image and shorter deadline: <nil>
	// metadata.name: Invalid value: "web-2": field is immutable
	// spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value
	// spec FieldValueForbidden
}

// The API server merges matchLabelKeys into the term's selector when a
// pod is created, so that each revision of a Deployment only repels its
// own pods.
func ExampleMergeAffinityLabelKeys() {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-7d4b9-x2x", Namespace: "default",
		Labels: map[string]string{"app": "web", "pod-template-hash": "7d4b9"}}}
	p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector:  &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			TopologyKey:    api.LabelHostname,
			MatchLabelKeys: []string{"pod-template-hash"},
		}}}}
	merged := validation.MergeAffinityLabelKeys(p)
	sel := merged.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector
	s, _ := api.LabelSelectorAsSelector(sel)
	fmt.Println(s)
	// Output:
	// app=web,pod-template-hash in (7d4b9)
}

// A pod's environment may name one label, but only a downwardAPI volume
// file may expose the whole label map.
func ExampleValidateObjectFieldSelector() {
	p := api.NewPath("spec", "containers").Index(0).Child("env").Index(0).Child("valueFrom", "fieldRef")
	ref := api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}
	fmt.Println(validation.ValidateObjectFieldSelector(ref, downward.Env, p))
	fmt.Println(validation.ValidateObjectFieldSelector(ref, downward.Volume, p) == nil)
	// Output:
	// spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"
	// true
}

// kube-proxy runs privileged. A kube-apiserver with default flags refuses
// it; the API servers of kubeadm, kind and the managed services run with
// --allow-privileged=true and accept it.
func ExampleOptions() {
	privileged := true
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "kube-proxy-x7k2p", Namespace: "kube-system"},
		Spec: api.PodSpec{
			Containers: []api.Container{{
				Name: "kube-proxy", Image: "registry.k8s.io/kube-proxy:v1.36.3", ImagePullPolicy: api.PullIfNotPresent, TerminationMessagePolicy: "File",
				SecurityContext: &api.SecurityContext{Privileged: &privileged},
			}},
			RestartPolicy:                 api.RestartPolicyAlways,
			DNSPolicy:                     api.DNSClusterFirst,
			TerminationGracePeriodSeconds: exampleSeconds(30),
			HostNetwork:                   true,
		},
	}
	fmt.Println("default flags:", validation.ValidatePodCreate(pod))
	fmt.Println("--allow-privileged=true:", len(validation.Options{AllowPrivileged: true}.ValidatePodCreate(pod)), "errors")
	// Output:
	// default flags: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy
	// --allow-privileged=true: 0 errors
}
