package api_test

import (
	"fmt"

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
