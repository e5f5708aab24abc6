package workloads_test

import (
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
	return api.FromInt(int32(rapid.IntRange(0, 5).Draw(t, label)))
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
