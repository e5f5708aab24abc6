package namespace_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// Deleting a namespace: its pods go first, and only once they are gone
// does the controller delete the rest and remove its finalizer.
func ExampleSync() {
	f := &fakeAPI{pods: []*api.Pod{runningPod("web-1", 30)},
		others: []namespace.Object{{Group: "apps", Version: "v1", Resource: "deployments"}}}
	ns := deleting()

	r, _ := namespace.Sync(ns, f, t0.Add(namespace.DeletionGracePeriod))
	fmt.Println(f.calls, "estimate", r.Estimate, "back in", r.RequeueAfter())
	fmt.Println(r.Status.Conditions[3].Message)

	f.gone("web-1") // its kubelet stopped it
	ns.Status = r.Status
	r, _ = namespace.Sync(ns, f, t0.Add(10*time.Second))
	fmt.Println(f.calls, "finalize", r.Finalize)
	fmt.Println(r.Status.Conditions[3].Message)
	// Output:
	// [DeletePods team] estimate 30 back in 16s
	// Some resources are remaining: pods. has 1 resource instances
	// [DeletePods team DeletePods team DeleteContent team] finalize true
	// All content successfully removed
}

// A create in a namespace being deleted is refused, naming the object by
// its generateName when it has no name yet.
func ExampleAdmit() {
	ns := deleting()
	fmt.Println(namespace.Admit(ns, "pods", "web-5d8f7-"))
	// Output:
	// pods "web-5d8f7-" is forbidden: unable to create new content in namespace team because it is being terminated
}
