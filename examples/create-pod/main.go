// Command create-pod shows what the API server does with `kubectl create -f`
// of two pods, step by step as `podsem explain` does it: v1 defaulting, the
// Priority admission plugin, create validation, and the pod as stored
// (Pending, its QoS class), read back as `kubectl get pods` shows it.
//
//	go run ./examples/create-pod
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/lifecycle"
)

// manifests is a PriorityClass and two pods: web asks for it and sets
// requests equal to limits; setup-probe gives its init container a
// readiness probe, which only sidecars (restartPolicy: Always) may have.
const manifests = `{"kind": "List", "apiVersion": "v1", "items": [
  {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "shop-high"}, "value": 100000},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "shop"},
   "spec": {"priorityClassName": "shop-high", "containers": [{"name": "app", "image": "nginx:1.27",
     "resources": {"requests": {"cpu": "500m", "memory": "256Mi"}, "limits": {"cpu": "500m", "memory": "256Mi"}}}]}},
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "setup-probe", "namespace": "shop"},
   "spec": {"initContainers": [{"name": "setup", "image": "busybox", "readinessProbe": {"exec": {"command": ["true"]}}}],
     "containers": [{"name": "app", "image": "nginx:1.27", "resources": {"requests": {"cpu": "100m"}}}]}}
]}`

func main() {
	objs, err := api.Decode([]byte(manifests))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	classes := api.SystemPriorityClasses()
	for _, o := range objs {
		if pc, ok := o.(*api.PriorityClass); ok {
			classes = append(classes, *pc)
		}
	}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, o := range objs {
		pod, ok := o.(*api.Pod)
		if !ok {
			continue
		}
		fmt.Printf("pod %s:\n", pod.Key())
		api.DefaultPod(pod) // what the API server fills in: restartPolicy, dnsPolicy, grace, probe periods, ...
		pr, err := admission.ResolvePriority(pod, classes)
		if err != nil {
			fmt.Printf("  refused by admission: %v\n", err)
			continue
		}
		pr.Apply(pod)
		from := "no PriorityClass named, none is globalDefault"
		if pr.ClassName != "" {
			from = "from PriorityClass " + pr.ClassName
		}
		fmt.Printf("  admitted: priority %d (%s)\n", pr.Value, from)
		if errs := validation.ValidatePodCreate(pod); len(errs) > 0 {
			for _, e := range errs {
				fmt.Printf("  refused: %v\n", e)
			}
			continue
		}
		stored := validation.PrepareForCreate(pod)
		req := api.PodRequests(stored, api.PodResourcesOptions{})
		fmt.Printf("  stored: phase %s, QoS class %s, requests cpu %s memory %s\n",
			stored.Status.Phase, stored.Status.QOSClass, req.Cpu().String(), req.Memory().String())
		row := lifecycle.DisplayStatus(stored, now)
		fmt.Printf("  kubectl get pods: %s %s %s\n", row.Ready, row.Status, row.Restarts)
	}
}
