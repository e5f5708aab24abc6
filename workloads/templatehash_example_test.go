package workloads_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The Deployment of the rollout walkthrough runs nginx:1.27 with a CPU
// and memory request. After the API server's defaulting (imagePullPolicy,
// terminationMessagePath, restartPolicy, dnsPolicy, schedulerName, ...)
// the Deployment controller hashes the template and names its ReplicaSet
// <deployment>-<hash>: a real v1.36.3 control plane created web-64fc7794bb
// for exactly this template. `kubectl set image deployment/web
// nginx=nginx:1.28` gives a new template and a new ReplicaSet; when a
// ReplicaSet of the wanted name exists with another template, the
// controller bumps status.collisionCount and the hash changes with it.
func ExampleDefaultPodTemplateHash() {
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{
					Name:  "nginx",
					Image: "nginx:1.27",
					Resources: api.ResourceRequirements{Requests: api.ResourceList{
						api.ResourceCPU:    api.MustParseQuantity("500m"),
						api.ResourceMemory: api.MustParseQuantity("128Mi"),
					}},
				}}},
			},
		},
	}
	api.DefaultDeployment(d)
	fmt.Println("ReplicaSet:", d.Name+"-"+workloads.DefaultPodTemplateHash(&d.Spec.Template, nil))

	collisions := int32(1)
	fmt.Println("after one collision:", d.Name+"-"+workloads.DefaultPodTemplateHash(&d.Spec.Template, &collisions))

	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	fmt.Println("after set image:", d.Name+"-"+workloads.DefaultPodTemplateHash(&d.Spec.Template, nil))
	// Output:
	// ReplicaSet: web-64fc7794bb
	// after one collision: web-7f864479cf
	// after set image: web-784c5cc65c
}
