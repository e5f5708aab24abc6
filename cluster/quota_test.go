package cluster_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// TestQuotaResync: a pod deleted on a lost node stays, terminating, but
// stops counting against its quota once its grace period is over. No
// event says so: the resourcequota controller's full resync finds it, so
// the quota's status.used drops at the first resync after the grace
// period (resource-quota-sync-period 1m), and not before the default 5
// minutes.
func TestQuotaResync(t *testing.T) {
	const scenario = `{
"objects": [
 {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"},
  "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
   "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "default"}, "spec": {"hard": {"pods": "5", "requests.cpu": "1"}}},
 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
  "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}, "limits": {"cpu": "100m"}}}]}}
],
"actions": [
 {"at": "10s", "lose": "node-1"},
 {"at": "20s", "delete": "Pod/default/p"}
],
"until": "150s"}`
	used := func(config map[string]string) (api.ResourceList, bool) {
		sc, err := cluster.ParseScenario([]byte(scenario))
		if err != nil {
			t.Fatal(err)
		}
		sc.Config = config
		res, err := cluster.Run(sc, t0)
		if err != nil {
			t.Fatal(err)
		}
		var q *api.ResourceQuota
		terminating := false
		for _, o := range res.Objects {
			switch x := o.(type) {
			case *api.ResourceQuota:
				q = x
			case *api.Pod:
				terminating = x.Name == "p" && x.DeletionTimestamp != nil
			}
		}
		if q == nil {
			t.Fatal("no quota at until")
		}
		return q.Status.Used, terminating
	}
	u, terminating := used(nil)
	if !terminating {
		t.Fatal("the pod is not left terminating on its lost node")
	}
	if got := u[api.ResourcePods]; got.String() != "1" {
		t.Errorf("default resync: used pods %v before the first resync, want 1", got.String())
	}
	u, _ = used(map[string]string{"resource-quota-sync-period": "1m"})
	if got := u[api.ResourcePods]; got.String() != "0" {
		t.Errorf("1m resync: used pods %v after the grace period, want 0", got.String())
	}
	if got := u["requests.cpu"]; got.String() != "0" {
		t.Errorf("1m resync: used requests.cpu %v, want 0", got.String())
	}
}
