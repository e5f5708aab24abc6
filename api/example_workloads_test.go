package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// `kubectl create deployment web --image=nginx` sends a Deployment with
// only a selector and a template; the API server stores it with the
// apps/v1 defaults filled in.
func ExampleDefaultDeployment() {
	d := &api.Deployment{Spec: api.DeploymentSpec{
		Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		Template: api.PodTemplateSpec{
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
		},
	}}
	api.DefaultDeployment(d)
	ru := d.Spec.Strategy.RollingUpdate
	fmt.Println("replicas:", *d.Spec.Replicas)
	fmt.Println("strategy:", d.Spec.Strategy.Type, "maxSurge", ru.MaxSurge, "maxUnavailable", ru.MaxUnavailable)
	fmt.Println("revisionHistoryLimit:", *d.Spec.RevisionHistoryLimit, "progressDeadlineSeconds:", *d.Spec.ProgressDeadlineSeconds)
	fmt.Println("template restartPolicy:", d.Spec.Template.Spec.RestartPolicy, "imagePullPolicy:", d.Spec.Template.Spec.Containers[0].ImagePullPolicy)
	// Output:
	// replicas: 1
	// strategy: RollingUpdate maxSurge 25% maxUnavailable 25%
	// revisionHistoryLimit: 10 progressDeadlineSeconds: 600
	// template restartPolicy: Always imagePullPolicy: Always
}

// A ReplicaSet created without spec.replicas runs one pod.
func ExampleDefaultReplicaSet() {
	rs := &api.ReplicaSet{}
	api.DefaultReplicaSet(rs)
	fmt.Println("replicas:", *rs.Spec.Replicas)
	// Output:
	// replicas: 1
}

// The StatefulSet of the "web" tutorial, as stored: ordered pod
// management, a rolling update from partition 0, and claims kept when
// the set scales down or is deleted.
func ExampleDefaultStatefulSet() {
	set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.StatefulSetSpec{ServiceName: "nginx"}}
	api.DefaultStatefulSet(set)
	s := set.Spec
	fmt.Println("replicas:", *s.Replicas, "podManagementPolicy:", s.PodManagementPolicy)
	fmt.Println("updateStrategy:", s.UpdateStrategy.Type, "partition", *s.UpdateStrategy.RollingUpdate.Partition)
	fmt.Println("claims whenDeleted:", s.PersistentVolumeClaimRetentionPolicy.WhenDeleted, "whenScaled:", s.PersistentVolumeClaimRetentionPolicy.WhenScaled)
	// Output:
	// replicas: 1 podManagementPolicy: OrderedReady
	// updateStrategy: RollingUpdate partition 0
	// claims whenDeleted: Retain whenScaled: Retain
}

// A DaemonSet rolls a template change out one node at a time unless told
// otherwise.
func ExampleDefaultDaemonSet() {
	ds := &api.DaemonSet{}
	api.DefaultDaemonSet(ds)
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	fmt.Println(ds.Spec.UpdateStrategy.Type, "maxUnavailable", ru.MaxUnavailable, "maxSurge", ru.MaxSurge)
	// Output:
	// RollingUpdate maxUnavailable 1 maxSurge 0
}

// The "pi" Job of the Jobs walkthrough sets backoffLimit 4 and nothing
// else: it runs one pod to one completion.
func ExampleDefaultJob() {
	four := int32(4)
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi"}, Spec: api.JobSpec{BackoffLimit: &four,
		Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever,
			Containers: []api.Container{{Name: "pi", Image: "perl:5.34.0"}}}}}}
	api.DefaultJob(job)
	s := job.Spec
	fmt.Println("completions:", *s.Completions, "parallelism:", *s.Parallelism, "backoffLimit:", *s.BackoffLimit)
	fmt.Println("completionMode:", *s.CompletionMode, "podReplacementPolicy:", *s.PodReplacementPolicy, "suspend:", *s.Suspend)
	// Output:
	// completions: 1 parallelism: 1 backoffLimit: 4
	// completionMode: NonIndexed podReplacementPolicy: TerminatingOrFailed suspend: false
}
