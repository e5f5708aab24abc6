package resourcequota_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/resourcequota"
)

// A namespace's quota of two pods: the resourcequota controller tallies
// the two running, and the admission plugin refuses a third.
func ExampleAdmit() {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "pods", Namespace: "team"},
		Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{api.ResourcePods: api.MustParseQuantity("2")}}}
	running := []resourcequota.Object{}
	for _, name := range []string{"a", "b"} {
		running = append(running, resourcequota.Object{Kind: "Pod", Resource: "pods",
			Object: &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "team"}}})
	}
	st, _, _ := resourcequota.Status(q, running, now)
	q.Status = st
	used := q.Status.Used[api.ResourcePods]
	fmt.Println("used:", used.String())
	third := resourcequota.Object{Kind: "Pod", Resource: "pods", Object: &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "team"}}}
	_, err := resourcequota.Admit([]*api.ResourceQuota{q}, third, "web-7c9d4", now)
	fmt.Println(err)
	// Output:
	// used: 2
	// pods "web-7c9d4" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2
}
