package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The frontend ReplicaSet (3 replicas) run by a controller fed its pod
// informer's events, as kube-controller-manager's is: each step reads
// what changed in the pod cache since the previous one, not the whole
// cache. The cache starts with two of the set's pods: the controller
// creates the third and waits to observe it; when its pod arrives (an
// ADDED event) and later turns Ready (a MODIFIED event), the status
// follows, without the controller being shown the other pods again.
func ExampleNewIncrementalReplicaSetController() {
	c := workloads.NewIncrementalReplicaSetController()
	rs := frontend(3)
	a, b := frontendPod("frontend-b2zdv", "node-1", time.Hour), frontendPod("frontend-vcmts", "node-2", 0)
	show := func(step string, in workloads.ReplicaSetInput, now time.Time) {
		in.ReplicaSet = rs
		res, err := c.Step(in, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		st := res.Status
		fmt.Printf("%s: create %d; replicas %d, ready %d; waiting for %d creations\n", step, res.Created, st.Replicas, st.ReadyReplicas, res.Expectations.Add)
		if res.StatusUpdated {
			rs = rs.DeepCopy()
			rs.Status = res.Status
		}
	}

	// The informer lists the two pods: two ADDED events.
	show("listed", workloads.ReplicaSetInput{PodEvents: []workloads.PodChange{{New: a}, {New: b}}}, rsNow)

	// The pod the controller created reaches the cache.
	c3 := frontendPod("frontend-wtsmm", "node-3", 0)
	show("created pod observed", workloads.ReplicaSetInput{PodEvents: []workloads.PodChange{{New: c3}}}, rsNow.Add(time.Second))

	// frontend-vcmts turns Ready.
	ready := frontendPod("frontend-vcmts", "node-2", time.Second)
	show("pod ready", workloads.ReplicaSetInput{PodEvents: []workloads.PodChange{{Old: b, New: ready}}}, rsNow.Add(2*time.Second))

	// Giving it whole pod lists is refused: its cache is its own.
	_, err := c.Step(workloads.ReplicaSetInput{ReplicaSet: rs, Pods: []*api.Pod{a}}, rsNow)
	fmt.Println(err)
	// Output:
	// listed: create 1; replicas 2, ready 1; waiting for 1 creations
	// created pod observed: create 0; replicas 3, ready 1; waiting for 0 creations
	// pod ready: create 0; replicas 3, ready 2; waiting for 0 creations
	// workloads: invalid input: pods: 1 given to an incremental controller, which reads podEvents (pods must be nil)
}
