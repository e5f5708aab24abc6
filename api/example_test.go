package api_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Decode reads `kubectl get -o json` output, lists included.
func ExampleDecode() {
	doc := `{"kind":"List","items":[
	  {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"shop"},
	   "spec":{"containers":[{"name":"app","image":"nginx","resources":{"requests":{"cpu":0.25}}}]}},
	  {"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a"},"status":{"allocatable":{"cpu":"4"}}}]}`
	objs, err := api.Decode([]byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objs {
		switch o := o.(type) {
		case *api.Pod:
			cpu := o.Spec.Containers[0].Resources.Requests.Cpu()
			fmt.Printf("pod %s requests cpu %s\n", o.Key(), cpu.String())
		case *api.Node:
			cpu := o.Status.Allocatable.Cpu()
			fmt.Printf("node %s allocatable cpu %s\n", o.Name, cpu.String())
		}
	}
	// Output:
	// pod shop/web requests cpu 250m
	// node node-a allocatable cpu 4
}

// DefaultPod applies the API server's defaulting only when asked: here a
// container with a limit and no request gets the limit as its request.
func ExampleDefaultPod() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name: "app", Image: "nginx",
		Resources: api.ResourceRequirements{Limits: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("512Mi")}},
	}}}}
	api.DefaultPod(pod)
	c := pod.Spec.Containers[0]
	mem := c.Resources.Requests.Memory()
	fmt.Println(pod.Spec.RestartPolicy, *pod.Spec.TerminationGracePeriodSeconds, c.ImagePullPolicy, mem.String())
	// Output: Always 30 Always 512Mi
}

// A pod the API server has just created starts Pending with its QoS class
// fixed, and says why it is not scheduled while scheduling gates remain.
func ExampleInitialPodStatus() {
	pod := &api.Pod{Spec: api.PodSpec{
		Containers:      []api.Container{{Name: "job", Image: "busybox"}},
		SchedulingGates: []api.PodSchedulingGate{{Name: "example.com/quota"}},
	}}
	st := api.InitialPodStatus(pod)
	fmt.Println(st.Phase, st.QOSClass)
	for _, c := range st.Conditions {
		fmt.Printf("%s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	// Output:
	// Pending BestEffort
	// PodScheduled=False SchedulingGated: Scheduling is blocked due to non-empty scheduling gates
}

// PodRequests follows the init container rule of the Kubernetes docs: the
// effective request is the larger of the highest init container request and
// the sum of the app containers; a sidecar adds to everything started after
// it.
func ExamplePodRequests() {
	q := api.MustParseQuantity
	always := api.RestartPolicyAlways
	cpu := func(v string) api.ResourceRequirements {
		return api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: q(v)}}
	}
	pod := &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{
			{Name: "migrate", Resources: cpu("2")},
			{Name: "proxy", RestartPolicy: &always, Resources: cpu("100m")},
		},
		Containers: []api.Container{{Name: "a", Resources: cpu("500m")}, {Name: "b", Resources: cpu("700m")}},
		Overhead:   api.ResourceList{api.ResourceCPU: q("50m")},
	}}
	req := api.PodRequests(pod, api.PodResourcesOptions{})
	noOverhead := api.PodRequests(pod, api.PodResourcesOptions{ExcludeOverhead: true})
	a, b := req.Cpu(), noOverhead.Cpu()
	fmt.Println(a.String(), b.String())
	// Output: 2050m 2
}

// FindContainer looks a container up by name in any of the pod's three
// lists and says which kind it is and where it sits.
func ExamplePodSpec_FindContainer() {
	always := api.RestartPolicyAlways
	spec := api.PodSpec{
		InitContainers: []api.Container{{Name: "migrate"}, {Name: "proxy", RestartPolicy: &always}},
		Containers:     []api.Container{{Name: "app"}},
	}
	for _, name := range []string{"app", "migrate", "proxy", "debug"} {
		ref, ok := spec.FindContainer(name)
		if !ok {
			fmt.Printf("%s: not in the pod\n", name)
			continue
		}
		fmt.Printf("%s: %s at %s\n", name, ref.Kind, ref.Path())
	}
	// Output:
	// app: container at spec.containers[0]
	// migrate: init container at spec.initContainers[0]
	// proxy: sidecar container at spec.initContainers[1]
	// debug: not in the pod
}

// The API server pulls an image on every start (Always) when its tag is
// latest, written or implied; a digest alone pins it, a digest beside the
// tag latest does not.
func ExampleImagePullPolicyFor() {
	digest := "@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac"
	for _, image := range []string{"nginx", "nginx:1.27", "nginx" + digest, "nginx:latest" + digest, "localhost:5000/nginx"} {
		fmt.Printf("%-12s %s\n", api.ImagePullPolicyFor(image), image)
	}
	// Output:
	// Always       nginx
	// IfNotPresent nginx:1.27
	// IfNotPresent nginx@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac
	// Always       nginx:latest@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac
	// Always       localhost:5000/nginx
}

// QoS classes: requests equal to limits for cpu and memory make a pod
// Guaranteed; status.qosClass, once set, is what the kubelet keeps using.
func ExampleComputePodQOS() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name: "app",
		Resources: api.ResourceRequirements{Limits: api.ResourceList{
			api.ResourceCPU:    api.MustParseQuantity("500m"),
			api.ResourceMemory: api.MustParseQuantity("128Mi"),
		}},
	}}}}
	fmt.Println("as given:", api.ComputePodQOS(pod))
	api.DefaultPod(pod) // requests copied from limits, as the API server does
	fmt.Println("defaulted:", api.ComputePodQOS(pod))
	// Output:
	// as given: Burstable
	// defaulted: Guaranteed
}

// The reference a kubelet event about a sidecar names: the pod, with the
// container's place in the spec as the field path.
func ExampleContainerReference() {
	always := api.RestartPolicyAlways
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "shop", Name: "web-0", UID: "5f0c"},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{Name: "proxy", RestartPolicy: &always}},
			Containers:     []api.Container{{Name: "app"}},
		},
	}
	ref := api.ContainerReference(pod, "proxy")
	fmt.Println(ref.Kind, ref.Namespace+"/"+ref.Name, ref.FieldPath)
	// Output: Pod shop/web-0 spec.initContainers{proxy}
}

// Two machines' next deadlines merged: the zero time is "none".
func ExampleEarliestDeadline() {
	backoff := time.Date(2026, 1, 1, 10, 0, 10, 0, time.UTC)
	probe := time.Date(2026, 1, 1, 10, 0, 5, 0, time.UTC)
	fmt.Println(api.EarliestDeadline(backoff, probe).Format(time.TimeOnly))
	fmt.Println(api.EarliestDeadline(time.Time{}, backoff).Format(time.TimeOnly))
	fmt.Println(api.EarliestDeadline(time.Time{}, time.Time{}).IsZero())
	// Output:
	// 10:00:05
	// 10:00:10
	// true
}
