package workloads_test

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// `kubectl describe replicaset web-7d4b9c` lists the controller's pod
// events; the create's names the pod the API server generated.
func ExamplePodCreatedEvent() {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-7d4b9c", Namespace: "shop", UID: "rs-1"}}
	owner := workloads.WorkloadReference("ReplicaSet", "apps/v1", &rs.ObjectMeta)
	fmt.Println(workloads.PodCreatedEvent(owner, workloads.ReplicaSetControllerName, "web-7d4b9c-x2k8p"))
	fmt.Println(workloads.PodCreateFailedEvent(owner, workloads.ReplicaSetControllerName, errors.New(`pods "web-7d4b9c-" is forbidden: exceeded quota`)))
	fmt.Println(workloads.PodDeletedEvent(owner, workloads.ReplicaSetControllerName, "web-7d4b9c-x2k8p"))
	// Output:
	// Normal SuccessfulCreate: Created pod: web-7d4b9c-x2k8p
	// Warning FailedCreate: Error creating: pods "web-7d4b9c-" is forbidden: exceeded quota
	// Normal SuccessfulDelete: Deleted pod: web-7d4b9c-x2k8p
}

// The Deployment controller's events of a rollout: the new ReplicaSet
// scaled up, the old one down.
func ExampleScaledReplicaSetEvent() {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"}}
	fmt.Println(workloads.ScaledReplicaSetEvent(d, "web-6d8f7", 0, 1))
	fmt.Println(workloads.ScaledReplicaSetEvent(d, "web-5c9a2", 3, 2))
	// Output:
	// Normal ScalingReplicaSet: Scaled up replica set web-6d8f7 from 0 to 1
	// Normal ScalingReplicaSet: Scaled down replica set web-5c9a2 from 3 to 2
}

// The StatefulSet tutorial's "web" set records one event per claim and
// pod it creates.
func ExampleStatefulSetPodEvent() {
	set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	fmt.Println(workloads.StatefulSetClaimEvent(set, "create", "www-web-0", "web-0", nil))
	fmt.Println(workloads.StatefulSetPodEvent(set, "create", "web-0", nil))
	fmt.Println(workloads.StatefulSetPodEvent(set, "delete", "web-1", nil))
	// Output:
	// Normal SuccessfulCreate: Create Claim www-web-0 Pod web-0 in StatefulSet web success
	// Normal SuccessfulCreate: Create Pod web-0 in StatefulSet web successful
	// Normal SuccessfulDelete: Delete Pod web-1 in StatefulSet web successful
}

// The API server gives the "pi" Job of the Jobs walkthrough a selector on
// its uid and labels its template to match, unless the manifest sets
// manualSelector.
func ExampleGenerateJobSelector() {
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default", UID: "8f1d2c3b-0000-4000-8000-000000000001"}}
	workloads.GenerateJobSelector(job)
	fmt.Println("selector:", job.Spec.Selector.MatchLabels)
	fmt.Println("template labels:", job.Spec.Template.Labels)
	// Output:
	// selector: map[batch.kubernetes.io/controller-uid:8f1d2c3b-0000-4000-8000-000000000001]
	// template labels: map[batch.kubernetes.io/controller-uid:8f1d2c3b-0000-4000-8000-000000000001 batch.kubernetes.io/job-name:pi controller-uid:8f1d2c3b-0000-4000-8000-000000000001 job-name:pi]
}
