package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"pgregory.net/rapid"
)

// TestPropertyApplyOwnership: a Deployment applied with random manifests
// (replicas or not, labels, an env var or not, an image) and scaled at
// random, as the harness applies (forced, field manager kubectl). After
// each apply, every field the manifest sets holds the manifest's value; a
// label the previous manifest set and this one does not is gone; and
// spec.replicas follows field ownership: the manifest's when it sets it;
// kept when a manifest leaves it out but the scale subresource still owns
// it (it changed it, and no apply changed it since); removed and
// defaulted to 1 when kubectl alone owned it.
func TestPropertyApplyOwnership(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		node := &api.Node{}
		node.Name = "node-1"
		node.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("64"), api.ResourcePods: api.MustParseQuantity("110")}
		node.Status.Capacity = node.Status.Allocatable
		node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}
		m, _, err := cluster.New([]api.Object{node}, cluster.Config{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		// spec.replicas: its value, and who owns it (kubectl's applies, the
		// scale subresource's writes; both when an apply set the value a
		// scale had already written).
		cur := int32(1)
		kubectlOwns, scaleOwns := false, false
		prevLabels := map[string]string{}
		for i, n := 0, rapid.IntRange(1, 8).Draw(t, "steps"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(1, 30).Draw(t, "gap")) * time.Second)
			var a cluster.Action
			if i > 0 && rapid.IntRange(0, 2).Draw(t, "scale?") == 0 {
				r := int32(rapid.IntRange(0, 5).Draw(t, "scale"))
				a = cluster.Action{Kind: cluster.ActionScale, Ref: cluster.ObjectRef{Kind: "Deployment", Namespace: "default", Name: "web"}, Replicas: r}
				if r != cur {
					// A write takes only the fields it changes: a scale to
					// the same number leaves the ownership as it was.
					cur, scaleOwns, kubectlOwns = r, true, false
				}
			} else {
				d := &api.Deployment{}
				d.APIVersion, d.Kind, d.Name, d.Namespace = "apps/v1", "Deployment", "web", "default"
				d.Labels = map[string]string{"app": "web"}
				for _, k := range []string{"tier", "team"} {
					if rapid.Bool().Draw(t, "label "+k) {
						d.Labels[k] = "x"
					}
				}
				sel := map[string]string{"app": "web"}
				d.Spec.Selector = &api.LabelSelector{MatchLabels: sel}
				d.Spec.Template.Labels = map[string]string{"app": "web"}
				c := api.Container{Name: "web", Image: fmt.Sprintf("nginx:1.%d", rapid.IntRange(0, 2).Draw(t, "image"))}
				if rapid.Bool().Draw(t, "env") {
					c.Env = []api.EnvVar{{Name: "MODE", Value: "blue"}}
				}
				d.Spec.Template.Spec.Containers = []api.Container{c}
				if rapid.Bool().Draw(t, "replicas?") {
					r := int32(rapid.IntRange(0, 5).Draw(t, "replicas"))
					d.Spec.Replicas = &r
					if r != cur {
						scaleOwns = false // forced: the scale's ownership is taken
					}
					cur, kubectlOwns = r, true
				} else {
					if kubectlOwns && !scaleOwns {
						cur = 1 // removed, and defaulted again
					}
					kubectlOwns = false
				}
				a = cluster.Action{Kind: cluster.ActionApply, Object: d}
				out, err := m.Step(cluster.Do(a), now)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range out.Records {
					if r.Reason == "ActionFailed" {
						t.Fatalf("apply failed: %s", r.Message)
					}
				}
				got := stored(t, m)
				for k, v := range d.Labels {
					if got.Labels[k] != v {
						t.Fatalf("label %s=%q, manifest %q", k, got.Labels[k], v)
					}
				}
				for k := range prevLabels {
					if _, still := d.Labels[k]; !still {
						if _, there := got.Labels[k]; there {
							t.Fatalf("label %s kept after the manifest dropped it: %v", k, got.Labels)
						}
					}
				}
				gc := got.Spec.Template.Spec.Containers[0]
				if gc.Image != c.Image || len(gc.Env) != len(c.Env) {
					t.Fatalf("container %s env %v, manifest %s env %v", gc.Image, gc.Env, c.Image, c.Env)
				}
				if got.Spec.Replicas == nil || *got.Spec.Replicas != cur {
					t.Fatalf("replicas %d, want %d", *got.Spec.Replicas, cur)
				}
				prevLabels = d.Labels
				continue
			}
			if _, err := m.Step(cluster.Do(a), now); err != nil {
				t.Fatal(err)
			}
			if got := stored(t, m); got.Spec.Replicas == nil || *got.Spec.Replicas != cur {
				t.Fatalf("after the scale: replicas %d, want %d", *got.Spec.Replicas, cur)
			}
		}
	})
}

func stored(t *rapid.T, m *cluster.Machine) *api.Deployment {
	for _, o := range m.Objects() {
		if d, ok := o.(*api.Deployment); ok && d.Name == "web" {
			return d
		}
	}
	t.Fatal("no Deployment web")
	return nil
}
