package workloads

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// A StatefulSet never has two live pods of one ordinal. The whole
// controller (StatefulSetController, so claims, revisions and adoption
// included) is driven against a small API server where deleted pods stay
// Terminating for a while (or for good, as on a lost node, until the test
// removes them), pods become Ready, fail or lose readiness, a foreign pod
// may take a member's name, and the set is rescaled, its template changed,
// its partition moved. The API server would refuse a create whose name is
// taken; the property is that the controller never asks for one, and that
// no two of the set's pods ever carry the same pod-index.
func TestStatefulSetNeverTwoPodsOfOneOrdinal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := nginxSet(int32(rapid.IntRange(0, 5).Draw(t, "replicas")))
		if rapid.Bool().Draw(t, "parallel") {
			set.Spec.PodManagementPolicy = api.ParallelPodManagement
		}
		if start := rapid.IntRange(0, 2).Draw(t, "start"); start > 0 {
			set.Spec.Ordinals = &api.StatefulSetOrdinals{Start: int32(start)}
		}
		if rapid.Bool().Draw(t, "ondelete") {
			set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
		}
		pols := []api.PersistentVolumeClaimRetentionPolicyType{retain, del}
		set.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = rapid.SampledFrom(pols).Draw(t, "whenScaled")
		set.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = rapid.SampledFrom(pols).Draw(t, "whenDeleted")
		set.Spec.MinReadySeconds = int32(rapid.SampledFrom([]int{0, 10}).Draw(t, "minReady"))
		w := newSSWorld(set)
		c := NewStatefulSetController(StatefulSetConfig{MaxUnavailable: rapid.Bool().Draw(t, "maxUnavailable gate")})
		linger := map[string]int{} // terminating pods: steps until the object goes (-1: never)
		now := t0
		for step := range 15 {
			now = now.Add(5 * time.Second)
			for _, name := range slices.Sorted(maps.Keys(w.pods)) {
				p := w.pods[name]
				if p.DeletionTimestamp != nil {
					if _, ok := linger[name]; !ok {
						linger[name] = rapid.IntRange(-1, 3).Draw(t, "linger "+name)
					}
					if linger[name] == 0 {
						delete(linger, name)
						_ = w.gone(name)
					} else if linger[name] > 0 {
						linger[name]--
					}
					continue
				}
				switch rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("fate %s %d", name, step)) {
				case 0, 1, 2:
					_ = w.ready(name, now.Add(-time.Duration(rapid.IntRange(0, 20).Draw(t, "ready for"))*time.Second))
				case 3:
					_ = w.notReady(name, now)
				case 4:
					_ = w.fail(name)
				}
			}
			switch rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("change %d", step)) {
			case 0:
				set.Spec.Replicas = ptr(int32(rapid.IntRange(0, 5).Draw(t, "replicas")))
				set.Generation++
			case 1:
				set.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:0." + strconv.Itoa(rapid.IntRange(20, 23).Draw(t, "image"))
				set.Generation++
			case 2:
				if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
					ru.Partition = ptr(int32(rapid.IntRange(0, 4).Draw(t, "partition")))
					set.Generation++
				}
			case 3:
				// A pod of another owner takes a member's name.
				name := "web-" + strconv.Itoa(rapid.IntRange(0, 6).Draw(t, "foreign"))
				if w.pods[name] == nil {
					p := newPod(name)
					p.Namespace = "default"
					p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "other", UID: "uid-other", Controller: ptr(true)}}
					w.pods[name] = p
				}
			}
			res, err := c.Step(w.input(), now)
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			if err := w.apply(res, now); err != nil {
				t.Fatalf("step %d: %v (actions %v)", step, err, res.Actions)
			}
			seen := map[string]string{}
			for _, name := range slices.Sorted(maps.Keys(w.pods)) {
				p := w.pods[name]
				if ref := p.ControllerRef(); ref == nil || ref.UID != set.UID {
					continue
				}
				idx := p.Labels[api.LabelPodIndex]
				if other, dup := seen[idx]; dup {
					t.Fatalf("step %d: %s and %s both hold ordinal %s", step, other, name, idx)
				}
				seen[idx] = name
			}
			if d := c.NextDeadline(); !d.IsZero() && !d.After(now) {
				t.Fatalf("step %d: next deadline %v is not after now %v", step, d, now)
			}
		}
	})
}
