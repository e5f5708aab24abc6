package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// A pod with an init container, a sidecar and two app containers. The app
// containers and the sidecar run together (250m + 250m + 100m cpu); the
// init container runs before the sidecar is started (it is declared first),
// so its 1 cpu alone is a floor, and the larger of the two wins. Overhead
// adds to requests, and to limits only where a limit is set.
func ExampleFitRequestOptions() {
	q := api.MustParseQuantity
	always := api.RestartPolicyAlways
	pod := &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{
			{Name: "migrate", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("1"), "memory": q("64Mi")}}},
			{Name: "proxy", RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("100m"), "memory": q("32Mi")}}},
		},
		Containers: []api.Container{
			{Name: "app", Resources: api.ResourceRequirements{
				Requests: api.ResourceList{"cpu": q("250m"), "memory": q("64Mi")},
				Limits:   api.ResourceList{"cpu": q("500m"), "memory": q("128Mi")}}},
			{Name: "log", Resources: api.ResourceRequirements{
				Requests: api.ResourceList{"cpu": q("250m"), "memory": q("64Mi")},
				Limits:   api.ResourceList{"cpu": q("500m"), "memory": q("128Mi")}}},
		},
		Overhead: api.ResourceList{"cpu": q("50m")},
	}}
	req := api.PodRequests(pod, scheduling.FitRequestOptions())
	lim := api.PodLimits(pod, scheduling.FitRequestOptions())
	fmt.Println("requests:", req.Cpu().String(), req.Memory().String())
	fmt.Println("limits:  ", lim.Cpu().String(), lim.Memory().String())
	opts := scheduling.FitRequestOptions()
	opts.ExcludeOverhead = true
	noOverhead := api.PodRequests(pod, opts)
	fmt.Println("without overhead:", noOverhead.Cpu().String())
	// Output:
	// requests: 1050m 160Mi
	// limits:   1050m 256Mi
	// without overhead: 1
}
