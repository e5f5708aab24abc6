package cluster_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// TestJobSpecRefused: a Job apply the API server's batch validation
// refuses is not stored; the scenario records ActionFailed with the 422
// text. The refusals: a Job created with a negative backoffLimit and a
// successPolicy without Indexed completion, and an update changing a
// NonIndexed Job's completions (immutable). An update of parallelism
// alone is accepted.
func TestJobSpecRefused(t *testing.T) {
	const tmpl = `"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34"}]}}`
	scenario := `{
	  "objects": [
	    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
	       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}},
	    {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi", "namespace": "default"},
	     "spec": {"completions": 3, "parallelism": 1, ` + tmpl + `}}
	  ],
	  "actions": [
	    {"at": "5s", "apply": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "x", "namespace": "default"},
	      "spec": {"backoffLimit": -1, "completions": 2, "successPolicy": {"rules": [{"succeededCount": 1}]}, ` + tmpl + `}}},
	    {"at": "6s", "apply": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi", "namespace": "default"},
	      "spec": {"completions": 5, "parallelism": 1, ` + tmpl + `}}},
	    {"at": "7s", "apply": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi", "namespace": "default"},
	      "spec": {"completions": 3, "parallelism": 2, ` + tmpl + `}}}
	  ],
	  "until": "8s"
	}`
	res, failed := actionFailures(t, scenario)
	want := []string{
		`apply Job/default/x: Job.batch "x" is invalid: [spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0, spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode]`,
		`apply Job/default/pi: Job.batch "pi" is invalid: spec.completions: Invalid value: 5: field is immutable`,
	}
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("ActionFailed messages:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	for _, o := range res.Objects {
		if j, ok := o.(*api.Job); ok {
			if j.Name != "pi" {
				t.Errorf("Job %s stored", j.Name)
				continue
			}
			if *j.Spec.Completions != 3 || *j.Spec.Parallelism != 2 {
				t.Errorf("stored Job pi: completions %d parallelism %d, want 3 and 2", *j.Spec.Completions, *j.Spec.Parallelism)
			}
		}
	}
}

// TestJobLabelsDefaulted: a Job created without labels is served with its
// template's labels, the Job strategy's generated ones included, whether
// the template had labels (SetDefaults_Job gives the Job the template's
// map itself, which the strategy then fills) or none (the defaulting of
// what the API server reads back copies them); a Job with labels of its
// own keeps them as they are.
func TestJobLabelsDefaulted(t *testing.T) {
	job := func(name, meta, tmplMeta string) string {
		return `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "` + name + `", "namespace": "default"` + meta + `},
		  "spec": {"template": {"metadata": {` + tmplMeta + `}, "spec": {"restartPolicy": "Never", "containers": [{"name": "w", "image": "busybox:1.36"}]}}}}`
	}
	scenario := `{
	  "objects": [
	    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
	       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}},
	    ` + job("shared", "", `"labels": {"app": "batch"}`) + `,
	    ` + job("bare", "", "") + `,
	    ` + job("own", `, "labels": {"team": "a"}`, `"labels": {"app": "batch"}`) + `,
	    ` + job("same", `, "labels": {"app": "batch"}`, `"labels": {"app": "batch"}`) + `
	  ],
	  "until": "1s"
	}`
	res, failed := actionFailures(t, scenario)
	if len(failed) > 0 {
		t.Fatalf("ActionFailed: %v", failed)
	}
	generated := func(j *api.Job, extra ...string) []string {
		out := append([]string{"batch.kubernetes.io/controller-uid=" + j.UID, "batch.kubernetes.io/job-name=" + j.Name,
			"controller-uid=" + j.UID, "job-name=" + j.Name}, extra...)
		slices.Sort(out)
		return out
	}
	for _, o := range res.Objects {
		j, ok := o.(*api.Job)
		if !ok {
			continue
		}
		var got []string
		for k, v := range j.Labels {
			got = append(got, k+"="+v)
		}
		slices.Sort(got)
		var want []string
		switch j.Name {
		case "shared":
			want = generated(j, "app=batch")
		case "bare":
			want = generated(j)
		case "own":
			want = []string{"team=a"}
		case "same":
			want = []string{"app=batch"} // its own map: the strategy's labels go to the template alone
		}
		if !slices.Equal(got, want) {
			t.Errorf("Job %s labels %v, want %v", j.Name, got, want)
		}
	}
}
