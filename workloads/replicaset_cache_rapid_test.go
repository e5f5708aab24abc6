package workloads

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// rsWorld is a pod informer cache and the ReplicaSets of a random story:
// the cache's content, and its changes since the incremental
// controller's last step.
type rsWorld struct {
	pods   map[string]*api.Pod
	events []PodChange
	sets   [4]*api.ReplicaSet
	seq    int
	now    time.Time
}

// The set slots: two of Deployment a in ns-1 (their pods rank each
// other's deletions), one in ns-1 of Deployment b or of no one, one of
// Deployment a in ns-2.
var rsSlots = [4]struct{ ns, name, owner string }{
	{"ns-1", "a-1", "uid-dep-a"}, {"ns-1", "a-2", "uid-dep-a"}, {"ns-1", "b-1", "uid-dep-b"}, {"ns-2", "c-1", "uid-dep-a"},
}

// The selectors a set may have, and the template labels of each.
var rsSelectors = []struct {
	sel  *api.LabelSelector
	tmpl map[string]string
}{
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, map[string]string{"app": "web"}},
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, map[string]string{"app": "web", "ver": "v1"}},
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "web", "ver": "v1"}}, map[string]string{"app": "web", "ver": "v1"}},
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "web", "ver": "v2"}}, map[string]string{"app": "web", "ver": "v2"}},
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "ver", Operator: api.LabelSelectorOpIn, Values: []string{"v1", "v2"}}}}, map[string]string{"app": "web", "ver": "v2"}},
	{&api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, map[string]string{"app": "db"}},
}

var rsPodLabels = []map[string]string{
	{"app": "web"}, {"app": "web", "ver": "v1"}, {"app": "web", "ver": "v2"}, {"app": "db"}, {"app": "web", "ver": "v1", "extra": "x"}, nil,
}

func (w *rsWorld) put(p *api.Pod) {
	w.events = append(w.events, PodChange{Old: w.pods[p.Key()], New: p})
	w.pods[p.Key()] = p
}

func (w *rsWorld) remove(key string) {
	if old := w.pods[key]; old != nil {
		w.events = append(w.events, PodChange{Old: old})
		delete(w.pods, key)
	}
}

func (w *rsWorld) sorted() []*api.Pod {
	var out []*api.Pod
	for _, k := range slices.Sorted(maps.Keys(w.pods)) {
		out = append(out, w.pods[k])
	}
	return out
}

func (w *rsWorld) newUID() string {
	w.seq++
	return fmt.Sprintf("uid-%d", w.seq)
}

// drawSet draws a new spec for slot i (a new object; the uid kept unless
// the set is recreated).
func (w *rsWorld) drawSet(t *rapid.T, i int) {
	old := w.sets[i]
	rs := &api.ReplicaSet{}
	if old != nil {
		rs = old.DeepCopy()
		rs.Generation++
	} else {
		rs.Namespace, rs.Name, rs.UID, rs.Generation = rsSlots[i].ns, rsSlots[i].name, w.newUID(), 1
	}
	if old != nil && rapid.IntRange(0, 9).Draw(t, "recreate") == 0 {
		rs = &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: rsSlots[i].ns, Name: rsSlots[i].name, UID: w.newUID(), Generation: 1}}
	}
	rs.OwnerReferences = nil
	if owner := rsSlots[i].owner; owner != "uid-dep-b" || rapid.Bool().Draw(t, "owned") {
		rs.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "dep", UID: owner, Controller: ptr(true)}}
	}
	s := rsSelectors[rapid.IntRange(0, len(rsSelectors)-1).Draw(t, "selector")]
	rs.Spec.Selector, rs.Spec.Template.Labels = s.sel, s.tmpl
	rs.Spec.Replicas = ptr(int32(rapid.IntRange(0, 6).Draw(t, "replicas")))
	rs.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 10}).Draw(t, "minReadySeconds")
	rs.DeletionTimestamp = nil
	if rapid.IntRange(0, 9).Draw(t, "deleting") == 0 {
		rs.DeletionTimestamp = api.NewTimePtr(w.now)
	}
	w.sets[i] = rs
}

// drawPod draws the pod ns/name anew (uid: kept, or a new one).
func (w *rsWorld) drawPod(t *rapid.T, ns, name, uid string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, UID: uid}}
	p.Labels = rsPodLabels[rapid.IntRange(0, len(rsPodLabels)-1).Draw(t, "labels")]
	switch owner := rapid.IntRange(0, 9).Draw(t, "owner"); {
	case owner < 5:
		if rs := w.sets[rapid.IntRange(0, 3).Draw(t, "set")]; rs != nil {
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: ptr(true)}}
		}
	case owner == 5:
		p.OwnerReferences = []api.OwnerReference{{Kind: "StatefulSet", Name: "db", UID: "uid-other", Controller: ptr(true)}}
	case owner == 6:
		if rs := w.sets[rapid.IntRange(0, 3).Draw(t, "set")]; rs != nil {
			p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID}}
		}
	}
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2", "node-3"}).Draw(t, "node")
	p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodRunning, api.PodPending, api.PodSucceeded, api.PodFailed, api.PodUnknown}).Draw(t, "phase")
	if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
		p.DeletionTimestamp = api.NewTimePtr(w.now)
	}
	if rapid.Bool().Draw(t, "ready") {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(w.now.Add(-time.Duration(rapid.IntRange(0, 20).Draw(t, "ready for")) * time.Second))}}
	}
	p.CreationTimestamp = api.NewTime(w.now.Add(-time.Duration(rapid.IntRange(0, 3600).Draw(t, "age")) * time.Second))
	if rapid.IntRange(0, 3).Draw(t, "cost") == 0 {
		p.Annotations = map[string]string{AnnotationPodDeletionCost: "5"}
	}
	return p
}

// apply carries out some of a sync's writes, as the API server would.
func (w *rsWorld) apply(t *rapid.T, rs *api.ReplicaSet, res ReplicaSetSync) {
	ref := NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
	for _, p := range res.Adopted {
		if cur := w.pods[p.Key()]; cur == p && rapid.IntRange(0, 3).Draw(t, "adopt") > 0 {
			n := p.DeepCopy()
			n.OwnerReferences = AdoptOwnerReferences(n.OwnerReferences, ref)
			w.put(n)
		}
	}
	for _, p := range res.Released {
		if cur := w.pods[p.Key()]; cur == p && rapid.IntRange(0, 3).Draw(t, "release") > 0 {
			n := p.DeepCopy()
			n.OwnerReferences = ReleaseOwnerReferences(n.OwnerReferences, rs.UID)
			w.put(n)
		}
	}
	for i := 0; i < res.Created && res.NewPod != nil; i++ {
		if rapid.IntRange(0, 3).Draw(t, "create") == 0 {
			continue // seen later, or never
		}
		n := res.NewPod.DeepCopy()
		uid := w.newUID()
		n.Name, n.UID = rs.Name+"-"+uid, uid
		n.CreationTimestamp = api.NewTime(w.now)
		w.put(n)
	}
	for _, p := range res.Delete {
		switch rapid.IntRange(0, 2).Draw(t, "delete") {
		case 0:
			w.remove(p.Key())
		case 1:
			if cur := w.pods[p.Key()]; cur != nil {
				n := cur.DeepCopy()
				n.DeletionTimestamp = api.NewTimePtr(w.now)
				w.put(n)
			}
		}
	}
	if res.StatusUpdated && rapid.Bool().Draw(t, "status") {
		n := rs.DeepCopy()
		n.Status = res.Status
		w.sets[slices.Index(w.sets[:], rs)] = n
	}
}

// An incremental ReplicaSet controller, fed the pod cache's changes,
// answers every step exactly as a controller given the whole cache (in
// key order) at that step: through random stories of pods added,
// updated and deleted (controlled, orphaned, another controller's, of a
// non-controller owner, terminating, finished, ready for a while or not,
// relabeled), sets changing selector, template labels, minReadySeconds,
// replicas and deletion or recreated under another uid, two sets of one
// Deployment ranking each other's pods, and the syncs' own writes
// carried out (some of them, some creations never observed), with time
// passing between steps (and now and then going back).
func TestIncrementalReplicaSetControllerMatchesFull(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := &rsWorld{pods: map[string]*api.Pod{}, now: t0}
		full, inc := NewReplicaSetController(), NewIncrementalReplicaSetController()
		for i := range w.sets {
			if rapid.Bool().Draw(t, "set exists") {
				w.drawSet(t, i)
			}
		}
		for range rapid.IntRange(0, 12).Draw(t, "initial pods") {
			ns := rapid.SampledFrom([]string{"ns-1", "ns-1", "ns-2"}).Draw(t, "ns")
			w.put(w.drawPod(t, ns, fmt.Sprintf("p%d", rapid.IntRange(0, 9).Draw(t, "name")), w.newUID()))
		}
		steps := rapid.IntRange(1, 40).Draw(t, "steps")
		for step := range steps {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op < 3: // a pod added or changed
				ns := rapid.SampledFrom([]string{"ns-1", "ns-1", "ns-2"}).Draw(t, "ns")
				name := fmt.Sprintf("p%d", rapid.IntRange(0, 9).Draw(t, "name"))
				uid := w.newUID()
				if old := w.pods[ns+"/"+name]; old != nil && rapid.IntRange(0, 4).Draw(t, "same pod") > 0 {
					uid = old.UID
				}
				w.put(w.drawPod(t, ns, name, uid))
			case op == 3: // a pod deleted
				if keys := slices.Sorted(maps.Keys(w.pods)); len(keys) > 0 {
					w.remove(rapid.SampledFrom(keys).Draw(t, "victim"))
				}
			case op == 4: // a set changed, created or recreated
				w.drawSet(t, rapid.IntRange(0, 3).Draw(t, "set"))
			default: // a sync
				// Mostly forward; now and then a step back (a caller's
				// clock is its own business).
				w.now = w.now.Add(time.Duration(rapid.IntRange(-3, 15).Draw(t, "elapsed")) * time.Second)
				i := rapid.IntRange(0, 3).Draw(t, "set")
				rs := w.sets[i]
				if rs == nil {
					continue
				}
				var others []*api.ReplicaSet
				for j, o := range w.sets {
					if j != i && o != nil {
						others = append(others, o)
					}
				}
				var accept *int
				if rapid.IntRange(0, 3).Draw(t, "quota") == 0 {
					accept = ptr(rapid.IntRange(0, 3).Draw(t, "accept"))
				}
				want, werr := full.Step(ReplicaSetInput{ReplicaSet: rs, Pods: w.sorted(), OtherReplicaSets: others, AcceptCreates: accept}, w.now)
				got, gerr := inc.Step(ReplicaSetInput{ReplicaSet: rs, PodEvents: w.events, OtherReplicaSets: others, AcceptCreates: accept}, w.now)
				w.events = nil
				if werr != nil || gerr != nil {
					t.Fatalf("step %d: errors %v, %v", step, werr, gerr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d, set %s at %s:\nincremental %s\nfull        %s", step, rs.Name, w.now.Sub(t0), syncString(got), syncString(want))
				}
				if g, f := inc.NextDeadline(), full.NextDeadline(); !g.Equal(f) {
					t.Fatalf("step %d: next deadline %v, full %v", step, g, f)
				}
				w.apply(t, rs, got)
			}
		}
	})
}

func syncString(s ReplicaSetSync) string {
	return fmt.Sprintf("adopt %v release %v managed %v create %d/%d/%d delete %v status %+v (updated %v) err %v exp %+v requeue %v events %d",
		podNames(s.Adopted), podNames(s.Released), s.Managed, s.Create, s.CreateAttempts, s.Created, podNames(s.Delete),
		s.Status, s.StatusUpdated, s.Err, s.Expectations, s.RequeueAfter, len(s.Events))
}
