package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// The checks the kubelet borrows from kube-scheduler when it admits a pod
// bound to its node: every failure, resources first (with the numbers),
// then node affinity, node name and host ports.
func ExampleAdmissionCheck() {
	n := node("node-1", "2", "4Gi", map[string]string{"disktype": "hdd"})
	running := pod("cache", "node-1", "1500m", "3Gi", nil)
	web := pod("web", "node-1", "1", "2Gi", nil)
	web.Spec.NodeSelector = map[string]string{"disktype": "ssd"}

	fails, err := scheduling.AdmissionCheck(web, n, []*api.Pod{running})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range fails {
		if r := f.Insufficient; r != nil {
			fmt.Printf("%s: %s (requested %d, used %d, capacity %d)\n", f.Plugin, f.Reason, r.Requested, r.Used, r.Capacity)
			continue
		}
		fmt.Printf("%s: %s\n", f.Plugin, f.Reason)
	}
	// Output:
	// NodeResourcesFit: Insufficient cpu (requested 1000, used 1500, capacity 2000)
	// NodeResourcesFit: Insufficient memory (requested 2147483648, used 3221225472, capacity 4294967296)
	// NodeAffinity: node(s) didn't match Pod's node affinity/selector
}
