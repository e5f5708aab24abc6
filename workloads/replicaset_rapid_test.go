package workloads

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// A ReplicaSet sync never deletes more than the excess nor creates more
// than the deficit: in a random namespace of pods — owned, orphaned,
// another controller's, relabeled, terminating, finished, in another
// namespace — the replicas it counts are exactly the active pods it
// controls or adopts; it creates at most spec.replicas minus that many
// (and at most BurstReplicas), deletes at most that many minus
// spec.replicas, only pods it counts, each once, and never both.
func TestReplicaSetSyncBounded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := webRS(int32(rapid.IntRange(0, 12).Draw(t, "replicas")))
		if rapid.Bool().Draw(t, "deleting") {
			rs.DeletionTimestamp = api.NewTimePtr(t0)
		}
		if rapid.Bool().Draw(t, "deployment") {
			rs.OwnerReferences = []api.OwnerReference{{Kind: "Deployment", UID: "uid-dep", Controller: ptr(true)}}
		}
		n := rapid.IntRange(0, 20).Draw(t, "pods")
		var pods []*api.Pod
		want := 0
		for i := range n {
			name := fmt.Sprintf("p%d", i)
			p := newPod(name)
			owner := rapid.SampledFrom([]string{"mine", "orphan", "other", "non-controller"}).Draw(t, "owner "+name)
			switch owner {
			case "mine":
				mine(p)
			case "other":
				ownedBy("uid-other", true)(p)
			case "non-controller":
				ownedBy("uid-web", false)(p)
			}
			matches := rapid.IntRange(0, 4).Draw(t, "labels "+name) > 0
			if !matches {
				p.Labels = map[string]string{"app": "db"}
			}
			if rapid.IntRange(0, 9).Draw(t, "ns "+name) == 0 {
				p.Namespace = "ns-2"
			}
			p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodPending, api.PodSucceeded, api.PodFailed, api.PodUnknown, ""}).Draw(t, "phase "+name)
			if rapid.IntRange(0, 5).Draw(t, "terminating "+name) == 0 {
				terminating(p)
			}
			if !rapid.Bool().Draw(t, "ready "+name) {
				unready(p)
			}
			p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2"}).Draw(t, "node "+name)
			p.CreationTimestamp = api.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 100000).Draw(t, "age "+name)) * time.Second))
			p.Annotations = map[string]string{AnnotationPodDeletionCost: rapid.SampledFrom([]string{"0", "5", "-3", "+1", "x"}).Draw(t, "cost "+name)}
			pods = append(pods, p)
			active := p.Namespace == rs.Namespace && p.DeletionTimestamp == nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
			if active && matches && (owner == "mine" || (owner == "orphan" || owner == "non-controller") && rs.DeletionTimestamp == nil) {
				want++
			}
		}
		var accept *int
		if rapid.Bool().Draw(t, "quota") {
			accept = ptr(rapid.IntRange(0, 12).Draw(t, "accept"))
		}
		pending := ReplicaSetExpectations{Add: rapid.IntRange(-1, 1).Draw(t, "pending add")}

		res, err := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods, AcceptCreates: accept}, pending, t0)
		if err != nil {
			t.Fatal(err)
		}
		replicas := int(*rs.Spec.Replicas)
		if int(res.Status.Replicas) != want {
			t.Fatalf("counted %d replicas, want %d", res.Status.Replicas, want)
		}
		deficit, excess := max(replicas-want, 0), max(want-replicas, 0)
		if res.Created > res.CreateAttempts || res.CreateAttempts > res.Create || res.Create > min(deficit, BurstReplicas) {
			t.Fatalf("created %d of %d attempts of %d, deficit %d", res.Created, res.CreateAttempts, res.Create, deficit)
		}
		if len(res.Delete) > excess {
			t.Fatalf("deleted %d, excess %d", len(res.Delete), excess)
		}
		if res.Create > 0 && len(res.Delete) > 0 {
			t.Fatal("both created and deleted")
		}
		if (res.Create > 0 || len(res.Delete) > 0) && (!res.Managed || !pending.Satisfied() || rs.DeletionTimestamp != nil) {
			t.Fatal("acted while it should only write status")
		}
		seen := map[*api.Pod]bool{}
		for _, p := range res.Delete {
			if seen[p] || p.Namespace != rs.Namespace || p.DeletionTimestamp != nil {
				t.Fatalf("deleted %s twice or a pod it does not count", p.Name)
			}
			seen[p] = true
			if ref := p.ControllerRef(); ref != nil && ref.UID != rs.UID {
				t.Fatalf("deleted another controller's pod %s", p.Name)
			}
		}
	})
}

// The controller's expectations keep a slow cache from making it
// overshoot: driven step by step while its creations and deletions reach
// the cache only some steps later (always within ExpectationsTimeout), a
// ReplicaSetController scaled between random sizes never has more pods in
// existence or in flight than the largest size asked for, and once the
// cache catches up it settles at the size asked for last.
func TestReplicaSetControllerNoOvershoot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := webRS(int32(rapid.IntRange(0, 8).Draw(t, "replicas")))
		most := int(*rs.Spec.Replicas)
		var c ReplicaSetController
		var pods []*api.Pod
		type flight struct {
			create  int
			deleted []*api.Pod
			at      time.Time
			lands   int
		}
		var inFlight []flight
		now := t0
		made := 0
		live := func() int {
			n := 0
			for _, p := range pods {
				if p.DeletionTimestamp == nil {
					n++
				}
			}
			for _, f := range inFlight {
				n += f.create - len(f.deleted)
			}
			return n
		}
		for step := range 30 {
			now = now.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "wait")) * time.Second)
			if rapid.IntRange(0, 5).Draw(t, "rescale") == 0 {
				r := int32(rapid.IntRange(0, 8).Draw(t, "new replicas"))
				next := *rs
				next.Spec.Replicas = &r
				rs = &next
				most = max(most, int(r))
			}
			// Flights land in the cache when due.
			kept := inFlight[:0]
			for _, f := range inFlight {
				if f.lands > step {
					kept = append(kept, f)
					continue
				}
				for range f.create {
					made++
					p := newPod(fmt.Sprintf("web-%d", made), mine)
					p.CreationTimestamp = api.NewTime(f.at)
					pods = append(pods, p)
				}
				for _, d := range f.deleted {
					for i, p := range pods {
						if p == d {
							np := *p
							np.DeletionTimestamp = api.NewTimePtr(f.at)
							pods[i] = &np
						}
					}
				}
			}
			inFlight = kept
			res, err := c.Step(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, now)
			if err != nil {
				t.Fatal(err)
			}
			if res.Created > 0 || len(res.Delete) > 0 {
				inFlight = append(inFlight, flight{create: res.Created, deleted: res.Delete, at: now, lands: step + rapid.IntRange(1, 4).Draw(t, "delay")})
			}
			if n := live(); n > most {
				t.Fatalf("step %d: %d pods live or in flight, never asked for more than %d", step, n, most)
			}
		}
		// The cache catches up, the controller settles.
		for range 3 {
			for _, f := range inFlight {
				for range f.create {
					made++
					p := newPod(fmt.Sprintf("web-%d", made), mine)
					p.CreationTimestamp = api.NewTime(f.at)
					pods = append(pods, p)
				}
				for _, d := range f.deleted {
					for j, p := range pods {
						if p == d {
							np := *p
							np.DeletionTimestamp = api.NewTimePtr(f.at)
							pods[j] = &np
						}
					}
				}
			}
			inFlight = nil
			now = now.Add(time.Second)
			res, err := c.Step(ReplicaSetInput{ReplicaSet: rs, Pods: pods}, now)
			if err != nil {
				t.Fatal(err)
			}
			if res.Created > 0 || len(res.Delete) > 0 {
				inFlight = append(inFlight, flight{create: res.Created, deleted: res.Delete, at: now})
			}
		}
		if n := live(); n != int(*rs.Spec.Replicas) {
			t.Fatalf("settled at %d pods, want %d", n, *rs.Spec.Replicas)
		}
	})
}
