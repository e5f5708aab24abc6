package cluster_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"github.com/podsem/podsem/workloads"
)

// runObjects runs testdata/<name>.json and returns the final objects.
func runObjects(t *testing.T, name string) []api.Object {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := cluster.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	return res.Objects
}

// The goldens of the StatefulSet, DaemonSet and Job controllers (replayed
// by TestGolden), as stories:
//
// statefulset-scale: "web", 2 replicas, OrderedReady, on 2 nodes: web-0 is
// created, and web-1 only once web-0 is Running and Ready ("Create Pod
// web-0 in StatefulSet web successful"). Scaled to 3 at 10 s: web-2. At
// 30 s web-1 is deleted: its successor, named web-1 again, is created only
// once the old object is gone (the kubelet's final DELETE). Scaled to 1 at
// 1 m: web-2 is deleted first, web-1 only after web-2 is gone.
//
// statefulset-rollout: 3 replicas, a new image applied at 10 s: the
// rolling update replaces web-2, then web-1, then web-0, each once its
// predecessor is Running and Ready; a second ControllerRevision, and the
// update revision becomes current.
//
// statefulset-claims: "db" with a volumeClaimTemplate "data": the claim
// data-db-0 is created before the pod ("Create Claim data-db-0 Pod db-0 in
// StatefulSet db success"); the pod then waits unschedulable on its unbound
// claim (binding is the PersistentVolume controller's, not modelled here).
//
// statefulset-node-lost: node-2 (running web-1) is lost at 10 s; the node
// lifecycle controller marks it Unknown and taints it at 68 s; taint
// eviction marks web-1 for deletion 300 s later, and it stays terminating
// (its kubelet never confirms): no second web-1. The out-of-service taint
// at 8 m lets pod GC force-delete it at its next pass, and the StatefulSet
// recreates web-1 on node-1.
//
// daemonset-nodes: "agent" gets a pod per node (each pinned by the
// matchFields metadata.name term the DaemonSet controller writes), one for
// node-3 when it registers at 10 s, a successor for the pod deleted at
// 30 s, and node-2's pod is deleted when node-2 is tainted NoExecute at
// 1 m (the DaemonSet controller and taint eviction both act on it). The
// DaemonSet's one template is ControllerRevision agent-<hash>, revision 1,
// whose hash every pod carries.
//
// daemonset-rollout: "agent" on 2 nodes, revisionHistoryLimit 1, rolled
// from fluentd:v1 to v2 at 10 s and to v3 at 1 m (one node at a time,
// maxUnavailable 1), then back to v2 at 2 m ("kubectl rollout undo"):
// revisions 1, 2, 3 are created in turn; v3's first sync deletes
// revision 1 (v1: two old revisions, one over the limit, and no pod runs
// it any more); the rollback renumbers v2's revision 4 instead of creating
// one. Left: revisions 3 (v3) and 4 (v2), and two v2 pods.
//
// job-complete: "pi", completions 2, parallelism 2, backoffLimit 1: one pod
// exits 0 at 10 s (Succeeded), the other 1 at 20 s (Failed); the
// replacement comes after the 10-s pod failure back-off, exits 0 at 40 s:
// "Job completed".
//
// job-failed: backoffLimit 0, its pod exits 3: BackoffLimitExceeded "Job
// has reached the specified backoff limit".
//
// job-deleted: the Job deleted (background propagation): the garbage
// collector deletes its pods; their tracking finalizer, whose Job is gone,
// is removed, so they leave once stopped.

// The objects the StatefulSet, DaemonSet and Job controllers leave, as a
// real control plane's `kubectl get -o yaml` would show them.
func TestAppsFinalObjects(t *testing.T) {
	t.Run("statefulset", func(t *testing.T) {
		var revs, pods int
		for _, o := range runObjects(t, "statefulset-scale") {
			switch x := o.(type) {
			case *api.ControllerRevision:
				revs++
				if r := x.ControllerRef(); r == nil || r.Kind != "StatefulSet" || r.Name != "web" {
					t.Errorf("revision %s owner %+v", x.Name, r)
				}
			case *api.StatefulSet:
				st := x.Status
				if st.Replicas != 1 || st.ReadyReplicas != 1 || st.UpdateRevision == "" || st.CurrentRevision != st.UpdateRevision || st.ObservedGeneration != x.Generation {
					t.Errorf("status %+v (generation %d)", st, x.Generation)
				}
			case *api.Pod:
				pods++
				if x.Name != "web-0" || x.Labels[api.LabelStatefulSetPodName] != "web-0" || x.Labels[api.LabelControllerRevisionHash] == "" {
					t.Errorf("pod %s labels %v", x.Name, x.Labels)
				}
			}
		}
		if revs != 1 || pods != 1 {
			t.Errorf("%d revisions, %d pods; want 1, 1", revs, pods)
		}
	})
	t.Run("statefulset rollout", func(t *testing.T) {
		var revs []string
		var set *api.StatefulSet
		var pods []*api.Pod
		for _, o := range runObjects(t, "statefulset-rollout") {
			switch x := o.(type) {
			case *api.ControllerRevision:
				revs = append(revs, x.Name)
			case *api.StatefulSet:
				set = x
			case *api.Pod:
				pods = append(pods, x)
			}
		}
		st := set.Status
		if len(revs) != 2 || st.UpdateRevision == "" || st.CurrentRevision != st.UpdateRevision || st.UpdatedReplicas != 3 || st.CurrentReplicas != 3 {
			t.Fatalf("revisions %v, status %+v", revs, st)
		}
		for _, p := range pods {
			if p.Labels[api.LabelControllerRevisionHash] != st.UpdateRevision || p.Spec.Containers[0].Image != "nginx:1.28" {
				t.Errorf("pod %s: revision %s image %s", p.Name, p.Labels[api.LabelControllerRevisionHash], p.Spec.Containers[0].Image)
			}
		}
	})
	t.Run("statefulset claims", func(t *testing.T) {
		var claims []string
		for _, o := range runObjects(t, "statefulset-claims") {
			if c, ok := o.(*api.PersistentVolumeClaim); ok {
				claims = append(claims, c.Name)
			}
		}
		if !slices.Equal(claims, []string{"data-db-0"}) {
			t.Errorf("claims %v", claims)
		}
	})
	t.Run("daemonset", func(t *testing.T) {
		nodes := map[string]bool{}
		for _, o := range runObjects(t, "daemonset-nodes") {
			switch x := o.(type) {
			case *api.Pod:
				if x.DeletionTimestamp != nil {
					continue
				}
				terms := x.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
				if len(terms) != 1 || len(terms[0].MatchFields) != 1 || terms[0].MatchFields[0].Values[0] != x.Spec.NodeName {
					t.Errorf("pod %s on %s: node affinity %+v", x.Name, x.Spec.NodeName, terms)
				}
				nodes[x.Spec.NodeName] = true
			case *api.DaemonSet:
				if st := x.Status; st.DesiredNumberScheduled != 2 || st.NumberReady != 2 || st.CurrentNumberScheduled != 2 {
					t.Errorf("status %+v", st)
				}
			}
		}
		if len(nodes) != 2 || !nodes["node-1"] || !nodes["node-3"] {
			t.Errorf("daemon pods on %v; want node-1 and node-3 (node-2 tainted)", nodes)
		}
		var revs []*api.ControllerRevision
		var hashes []string
		for _, o := range runObjects(t, "daemonset-nodes") {
			switch x := o.(type) {
			case *api.ControllerRevision:
				revs = append(revs, x)
			case *api.Pod:
				hashes = append(hashes, x.Labels[api.LabelControllerRevisionHash])
			}
		}
		if len(revs) != 1 || revs[0].Revision != 1 || revs[0].ControllerRef() == nil || revs[0].ControllerRef().Name != "agent" {
			t.Fatalf("revisions %+v", revs)
		}
		for _, h := range hashes {
			if h == "" || revs[0].Name != "agent-"+h {
				t.Errorf("pod hash %q, revision %s", h, revs[0].Name)
			}
		}
	})
	t.Run("daemonset rollout", func(t *testing.T) {
		byNumber := map[int64]*api.ControllerRevision{}
		var pods []*api.Pod
		for _, o := range runObjects(t, "daemonset-rollout") {
			switch x := o.(type) {
			case *api.ControllerRevision:
				byNumber[x.Revision] = x
			case *api.Pod:
				pods = append(pods, x)
			}
		}
		if len(byNumber) != 2 || byNumber[3] == nil || byNumber[4] == nil ||
			!strings.Contains(string(byNumber[3].Data), "fluentd:v3") || !strings.Contains(string(byNumber[4].Data), "fluentd:v2") {
			t.Fatalf("revisions %v", byNumber)
		}
		cur := byNumber[4].Labels[api.LabelControllerRevisionHash]
		for _, p := range pods {
			if p.Labels[api.LabelControllerRevisionHash] != cur || p.Spec.Containers[0].Image != "fluentd:v2" {
				t.Errorf("pod %s: hash %s image %s", p.Name, p.Labels[api.LabelControllerRevisionHash], p.Spec.Containers[0].Image)
			}
		}
		if len(pods) != 2 {
			t.Errorf("%d pods", len(pods))
		}
	})
	t.Run("job", func(t *testing.T) {
		for _, o := range runObjects(t, "job-complete") {
			switch x := o.(type) {
			case *api.Pod:
				if slices.Contains(x.Finalizers, workloads.JobTrackingFinalizer) {
					t.Errorf("pod %s keeps the tracking finalizer", x.Name)
				}
			case *api.Job:
				st := x.Status
				complete := false
				for _, c := range st.Conditions {
					complete = complete || c.Type == workloads.JobConditionComplete && c.Status == api.ConditionTrue
				}
				if !complete || st.Succeeded != 2 || st.Failed != 1 || st.CompletionTime == nil {
					t.Errorf("status %+v", st)
				}
			}
		}
	})
}
