package cluster_test

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/cluster"
)

// TestWorkloadTemplateRefused: a workload whose pod template the API
// server's apps or batch validation refuses is never stored. As a
// scenario object it makes the run fail at creation, naming the object
// and giving the 422 text, as the e2e harness's run stops with
// "run failed: create ..." on a real v1.36.3 control plane (no
// ReplicaSet, no FailedCreate loop). A refused mid-run apply is the
// deployment-refused-update golden.
func TestWorkloadTemplateRefused(t *testing.T) {
	cases := []struct {
		name, object, want string
	}{{
		name: "privileged container (--allow-privileged off)",
		object: `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
		  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
		    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
		      {"name": "nginx", "image": "nginx:1.27", "securityContext": {"privileged": true}}]}}}}`,
		want: `Deployment/default/web: Deployment.apps "web" is invalid: spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy`,
	}, {
		name: "selector does not match the template",
		object: `{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web", "namespace": "default"},
		  "spec": {"selector": {"matchLabels": {"app": "web"}},
		    "template": {"metadata": {"labels": {"app": "api"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}}}`,
		want: `ReplicaSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: ` + "`selector` does not match template `labels`",
	}, {
		name: "StatefulSet without a selector",
		object: `{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "default"},
		  "spec": {"serviceName": "db", "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{"name": "db", "image": "postgres:16"}]}}}}`,
		want: `StatefulSet.apps "db" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value:`,
	}, {
		name: "DaemonSet restartPolicy Never",
		object: `{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent", "namespace": "default"},
		  "spec": {"selector": {"matchLabels": {"app": "agent"}},
		    "template": {"metadata": {"labels": {"app": "agent"}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "a", "image": "agent:1"}]}}}}`,
		want: `DaemonSet.apps "agent" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
	}, {
		name: "Job with the default restartPolicy Always",
		object: `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi", "namespace": "default"},
		  "spec": {"template": {"spec": {"containers": [{"name": "pi", "image": "perl:5.34"}]}}}}`,
		want: `Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := cluster.ParseScenario([]byte(`{"objects": [` + c.object + `], "until": "10s"}`))
			if err != nil {
				t.Fatal(err)
			}
			res, err := cluster.Run(sc, t0)
			if err == nil {
				t.Fatalf("Run accepted the workload: %d records", len(res.Records))
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("Run: %v\nwant it to contain %s", err, c.want)
			}
			if _, _, err := cluster.New(sc.Objects, cluster.Config{}, t0); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v\nwant it to contain %s", err, c.want)
			}
		})
	}
}
