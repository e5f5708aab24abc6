package workloads_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

// genFencepost draws a maxSurge or maxUnavailable as an integer or a
// percentage, zero included.
func genFencepost(t *rapid.T, label string) api.IntOrString {
	if rapid.Bool().Draw(t, label+"IsPercent") {
		return api.FromString(fmt.Sprintf("%d%%", rapid.IntRange(0, 100).Draw(t, label+"Percent")))
	}
	return api.FromInt32(int32(rapid.IntRange(0, 5).Draw(t, label)))
}

// fenceposts resolves them as the Deployment documentation states:
// maxSurge rounded up, maxUnavailable rounded down and at most replicas,
// maxUnavailable 1 when both come to 0.
func fenceposts(t *rapid.T, surge, unavailable api.IntOrString, replicas int32) (int32, int32) {
	s, err1 := api.ScaledValueFromIntOrPercent(&surge, int(replicas), true)
	u, err2 := api.ScaledValueFromIntOrPercent(&unavailable, int(replicas), false)
	if err1 != nil || err2 != nil {
		t.Fatalf("fenceposts %v %v: %v %v", surge, unavailable, err1, err2)
	}
	if s == 0 && u == 0 {
		u = 1
	}
	return int32(s), min(int32(u), replicas)
}

// TestDeploymentRolloutBounds: during a rollout (one template change, or
// a second one arriving mid-rollout) a RollingUpdate Deployment never runs
// more than replicas + maxSurge pods and never has fewer than
// replicas − maxUnavailable available, whatever the fenceposts and
// however slowly new pods become available; once they all do, the
// rollout completes. Pods are modelled as upstream's controllers leave
// them: a ReplicaSet runs spec.replicas pods, a scale-down removes pods
// at once (available ones counted out first), new pods become available
// when the step's draw says so, and always after the 20th sync.
func TestDeploymentRolloutBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := int32(rapid.IntRange(0, 20).Draw(t, "replicas"))
		surge, unavailable := genFencepost(t, "maxSurge"), genFencepost(t, "maxUnavailable")
		maxSurge, maxUnavailable := fenceposts(t, surge, unavailable, replicas)
		c := &depCluster{d: newDeployment("web", replicas, "web:1", surge, unavailable), now: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)}
		for range 3 { // the first rollout, all pods available
			if _, err := c.sync(workloads.DeploymentOptions{}); err != nil {
				t.Fatal(err)
			}
			c.settle(nil)
			c.now = c.now.Add(10 * time.Second)
		}
		check := func(when string) {
			total, available := c.pods()
			if total > replicas+maxSurge {
				t.Fatalf("%s: %d pods > %d replicas + %d maxSurge (%s)", when, total, replicas, maxSurge, c.describe())
			}
			if available < replicas-maxUnavailable {
				t.Fatalf("%s: %d available < %d replicas − %d maxUnavailable (%s)", when, available, replicas, maxUnavailable, c.describe())
			}
		}
		check("before the rollout")

		c.d.Spec.Template.Spec.Containers[0].Image = "web:2"
		c.d.Generation++
		rollover := rapid.IntRange(0, 10).Draw(t, "rolloverAt")
		steps := int(4*replicas) + 40
		for i := range steps {
			if i == rollover && rapid.Bool().Draw(t, "rollover") {
				c.d.Spec.Template.Spec.Containers[0].Image = "web:3"
				c.d.Generation++
			}
			if _, err := c.sync(workloads.DeploymentOptions{}); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("after sync %d", i+1))
			slow := i < 20 && rapid.Bool().Draw(t, "slow")
			c.settle(func(*api.ReplicaSet) bool { return !slow })
			check(fmt.Sprintf("after pods settled %d", i+1))
			c.now = c.now.Add(10 * time.Second)
		}
		st := c.d.Status
		if st.UpdatedReplicas != replicas || st.Replicas != replicas || st.AvailableReplicas != replicas {
			t.Fatalf("rollout not complete after %d syncs: %+v (%s)", steps, st.WorkloadStatus, c.describe())
		}
		for _, rs := range c.rss {
			if !c.isNew(rs) && *rs.Spec.Replicas != 0 {
				t.Fatalf("old ReplicaSet %s still has %d replicas", rs.Name, *rs.Spec.Replicas)
			}
		}
	})
}

// TestSyncDeploymentAnyState: from any mix of ReplicaSets (owned, orphaned
// or another's, any sizes, statuses, revisions and replica annotations,
// junk included) and any Deployment (either strategy, paused or not, being
// deleted or not), one sync answers without panicking, leaves its inputs
// as they were, gives the same answer without the pods unless
// DeploymentReadsPods, never writes a negative spec.replicas, creates at most one
// ReplicaSet and only when none has the Deployment's template, and deletes
// only old ReplicaSets without replicas.
func TestSyncDeploymentAnyState(t *testing.T) {
	images := []string{"web:1", "web:2", "web:3"}
	rapid.Check(t, func(t *rapid.T) {
		replicas := int32(rapid.IntRange(0, 12).Draw(t, "replicas"))
		d := newDeployment("web", replicas, rapid.SampledFrom(images).Draw(t, "image"),
			genFencepost(t, "maxSurge"), genFencepost(t, "maxUnavailable"))
		if rapid.Bool().Draw(t, "recreate") {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
		}
		d.Spec.Paused = rapid.Bool().Draw(t, "paused")
		d.Spec.RevisionHistoryLimit = depPtr(int32(rapid.IntRange(0, 3).Draw(t, "history")))
		if rapid.Bool().Draw(t, "deleting") {
			d.DeletionTimestamp = api.NewTimePtr(time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC))
		}
		junk := []string{"", "0", "3", "12", "-1", "+2", "x"}
		n := rapid.IntRange(0, 5).Draw(t, "replicaSets")
		var rss []*api.ReplicaSet
		for i := range n {
			name := fmt.Sprintf("web-%d", i)
			image := rapid.SampledFrom(images).Draw(t, "rsImage")
			labels := map[string]string{"app": "web", workloads.LabelPodTemplateHash: name}
			spec := int32(rapid.IntRange(0, 12).Draw(t, "rsReplicas"))
			ann := map[string]string{}
			for _, k := range []string{workloads.AnnotationDeploymentRevision, workloads.AnnotationDeploymentDesiredReplicas, workloads.AnnotationDeploymentMaxReplicas} {
				if v := rapid.SampledFrom(junk).Draw(t, k); v != "" {
					ann[k] = v
				}
			}
			rs := &api.ReplicaSet{
				ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: int64(rapid.IntRange(1, 3).Draw(t, "gen")),
					CreationTimestamp: api.NewTime(time.Date(2025, 3, 1, 8, rapid.IntRange(0, 3).Draw(t, "created"), 0, 0, time.UTC)),
					Labels:            labels, Annotations: ann},
				Spec: api.ReplicaSetSpec{Replicas: &spec, Selector: &api.LabelSelector{MatchLabels: labels},
					Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
						Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: image}}}}},
				Status: api.ReplicaSetStatus{Replicas: int32(rapid.IntRange(0, 12).Draw(t, "rsStatus")),
					AvailableReplicas: int32(rapid.IntRange(0, 12).Draw(t, "rsAvailable")), ObservedGeneration: int64(rapid.IntRange(0, 3).Draw(t, "observed"))},
			}
			switch rapid.IntRange(0, 2).Draw(t, "owner") {
			case 0:
				rs.OwnerReferences = []api.OwnerReference{workloads.NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")}
			case 1:
				rs.OwnerReferences = []api.OwnerReference{workloads.NewControllerRef(&api.ObjectMeta{Name: "other", UID: "uid-other"}, "apps/v1", "Deployment")}
			}
			rss = append(rss, rs)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 4).Draw(t, "pods") {
			rs := rapid.SampledFrom(append(rss, nil)).Draw(t, "podOwner")
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-pod-%d", i), Namespace: "default", Labels: map[string]string{"app": "web"}},
				Status: api.PodStatus{Phase: rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed}).Draw(t, "podPhase")}}
			if rs != nil {
				p.Labels = rs.Spec.Template.Labels
				p.OwnerReferences = []api.OwnerReference{workloads.NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")}
			}
			pods = append(pods, p)
		}
		before, _ := json.Marshal([]any{d, rss, pods})
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		res, err := workloads.SyncDeployment(d, rss, pods, workloads.DeploymentOptions{}, now)
		if after, _ := json.Marshal([]any{d, rss, pods}); string(before) != string(after) {
			t.Fatalf("inputs changed")
		}
		if !workloads.DeploymentReadsPods(d) {
			// DeploymentReadsPods: without the pods, the same sync.
			res2, err2 := workloads.SyncDeployment(d, rss, nil, workloads.DeploymentOptions{}, now)
			a, _ := json.Marshal([]any{res, fmt.Sprint(err)})
			b, _ := json.Marshal([]any{res2, fmt.Sprint(err2)})
			if string(a) != string(b) {
				t.Fatalf("the pods changed a sync that does not read them:\n%s\n%s", a, b)
			}
		}
		if err != nil {
			return // upstream's own sync errors (none expected here, but allowed)
		}
		for _, u := range res.Updates {
			if *u.ReplicaSet.Spec.Replicas < 0 {
				t.Fatalf("%s scaled to %d", u.Name, *u.ReplicaSet.Spec.Replicas)
			}
		}
		if res.NewReplicaSet != nil {
			for _, rs := range rss {
				if rs.Spec.Template.Spec.Containers[0].Image == d.Spec.Template.Spec.Containers[0].Image && rs.ControllerRef() != nil && rs.ControllerRef().UID == d.UID {
					t.Fatalf("created a ReplicaSet though %s has the template", rs.Name)
				}
			}
		}
		for _, name := range res.Deleted {
			for _, rs := range rss {
				if rs.Name == name && (*rs.Spec.Replicas != 0 || rs.Status.Replicas != 0) {
					t.Fatalf("deleted %s with replicas", name)
				}
			}
		}
	})
}
