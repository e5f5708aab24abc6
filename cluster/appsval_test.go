package cluster_test

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// TestAppsSpecRefused: a Deployment, ReplicaSet, DaemonSet or StatefulSet apply that the API
// server's apps validation refuses for its spec (beyond the pod
// template) is not stored: the scenario records ActionFailed with the 422
// text, and the stored object stays as it was (its ReplicaSet keeps its
// 2 pods). The refusals: a rolling update that may neither surge nor go
// unavailable, a progress deadline not past minReadySeconds, a
// Deployment created with a negative revisionHistoryLimit, a DaemonSet
// whose rolling update would both surge and go unavailable, a
// StatefulSet with an unknown podManagementPolicy, and a
// ReplicaSet whose selector an update changes (immutable in apps/v1).
func TestAppsSpecRefused(t *testing.T) {
	const tmpl = `"template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}`
	scenario := `{
	  "objects": [
	    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
	       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}},
	    {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
	     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `}},
	    {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "cache", "namespace": "default"},
	     "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "cache"}},
	       "template": {"metadata": {"labels": {"app": "cache", "tier": "be"}}, "spec": {"containers": [{"name": "redis", "image": "redis:7"}]}}}}
	  ],
	  "actions": [
	    {"at": "10s", "apply": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
	      "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `,
	        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}}}},
	    {"at": "11s", "apply": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
	      "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `,
	        "minReadySeconds": 30, "progressDeadlineSeconds": 30}}},
	    {"at": "12s", "apply": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "api", "namespace": "default"},
	      "spec": {"selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `, "revisionHistoryLimit": -1}}},
	    {"at": "12s", "apply": {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent", "namespace": "default"},
	      "spec": {"selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `,
	        "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}}}}},
	    {"at": "12s", "apply": {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "default"},
	      "spec": {"serviceName": "db", "podManagementPolicy": "Random", "selector": {"matchLabels": {"app": "web"}}, ` + tmpl + `}}},
	    {"at": "13s", "apply": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "cache", "namespace": "default"},
	      "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "cache", "tier": "be"}},
	       "template": {"metadata": {"labels": {"app": "cache", "tier": "be"}}, "spec": {"containers": [{"name": "redis", "image": "redis:7"}]}}}}}
	  ],
	  "until": "30s"
	}`
	res, failed := actionFailures(t, scenario)
	want := []string{
		`apply Deployment/default/web: Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when ` + "`maxSurge`" + ` is 0`,
		`apply Deployment/default/web: Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds`,
		`apply Deployment/default/api: Deployment.apps "api" is invalid: spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0`,
		`apply DaemonSet/default/agent: DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`,
		`apply StatefulSet/default/db: StatefulSet.apps "db" is invalid: spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
		`apply ReplicaSet/default/cache: ReplicaSet.apps "cache" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"cache","tier":"be"}}: field is immutable`,
	}
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("ActionFailed messages:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	for _, o := range res.Objects {
		switch x := o.(type) {
		case *api.Deployment:
			if x.Name != "web" {
				t.Errorf("Deployment %s stored", x.Name)
			}
			if ru := x.Spec.Strategy.RollingUpdate; ru == nil || ru.MaxSurge.String() != "25%" || x.Spec.MinReadySeconds != 0 {
				t.Errorf("stored Deployment changed by a refused apply: %+v", x.Spec.Strategy)
			}
		case *api.DaemonSet:
			t.Errorf("DaemonSet %s stored", x.Name)
		case *api.StatefulSet:
			t.Errorf("StatefulSet %s stored", x.Name)
		case *api.ReplicaSet:
			if x.Name == "cache" && len(x.Spec.Selector.MatchLabels) != 1 {
				t.Errorf("stored ReplicaSet selector changed: %v", x.Spec.Selector.MatchLabels)
			}
		}
	}
}

// actionFailures runs the scenario (JSON) and returns its result and the
// messages of its ActionFailed records, in order.
func actionFailures(t *testing.T, scenario string) (cluster.Result, []string) {
	t.Helper()
	sc, err := cluster.ParseScenario([]byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, r := range res.Records {
		if r.Reason == "ActionFailed" {
			failed = append(failed, r.Message)
		}
	}
	return res, failed
}
