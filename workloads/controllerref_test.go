package workloads

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func ownedBy(uid string, controller bool) podOpt {
	return func(p *api.Pod) {
		p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs-" + uid, UID: uid, Controller: ptr(controller)})
	}
}

func withLabels(kv ...string) podOpt {
	return func(p *api.Pod) {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func TestClaimObject(t *testing.T) {
	owner := &api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "u-web"}
	deleting := &api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "u-web", DeletionTimestamp: api.NewTimePtr(t0)}
	tests := []struct {
		name    string
		owner   *api.ObjectMeta
		pod     *api.Pod
		matches bool
		want    Claim
	}{
		{"owned and matching stays", owner, newPod("a", ownedBy("u-web", true)), true, ClaimOwned},
		{"owned, no longer matching, is released", owner, newPod("a", ownedBy("u-web", true)), false, ClaimRelease},
		{"owned, not matching, owner deleting: left alone", deleting, newPod("a", ownedBy("u-web", true)), false, ClaimIgnored},
		{"owned and matching while the owner is deleted still counts", deleting, newPod("a", ownedBy("u-web", true)), true, ClaimOwned},
		{"another controller's pod is never adopted", owner, newPod("a", ownedBy("u-other", true)), true, ClaimIgnored},
		{"a matching orphan is adopted", owner, newPod("a"), true, ClaimAdopt},
		{"a non-controller owner reference still leaves an orphan", owner, newPod("a", ownedBy("u-other", false)), true, ClaimAdopt},
		{"a non-matching orphan is ignored", owner, newPod("a"), false, ClaimIgnored},
		{"a terminating orphan is not adopted", owner, newPod("a", terminating), true, ClaimIgnored},
		{"an owner being deleted adopts nothing", deleting, newPod("a"), true, ClaimIgnored},
		{"an orphan in another namespace is not adopted", owner, newPod("a", func(p *api.Pod) { p.Namespace = "ns-2" }), true, ClaimIgnored},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ClaimObject(tt.owner, &tt.pod.ObjectMeta, tt.matches); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestClaimPods(t *testing.T) {
	owner := &api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "u-web"}
	sel := api.SelectorFromSet(api.Set{"app": "web"})
	pods := []*api.Pod{
		newPod("kept", ownedBy("u-web", true)),
		newPod("orphan"),
		nil,
		newPod("moved", ownedBy("u-web", true), withLabels("app", "db")),
		newPod("theirs", ownedBy("u-db", true)),
		newPod("stranger", withLabels("app", "db")),
	}
	c := ClaimPods(owner, sel, pods)
	names := func(ps []*api.Pod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	got := [][]string{names(c.Claimed), names(c.Adopted), names(c.Released)}
	want := [][]string{{"kept", "orphan"}, {"orphan"}, {"moved"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	rs := []*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "ns-1", Labels: map[string]string{"app": "web"}}}, nil}
	if c := ClaimReplicaSets(owner, sel, rs); len(c.Adopted) != 1 || len(c.Claimed) != 1 {
		t.Errorf("ClaimReplicaSets: %+v", c)
	}
	if c := ClaimPods(owner, nil, pods); len(c.Claimed)+len(c.Adopted)+len(c.Released) != 0 {
		t.Errorf("nil selector claimed %+v", c)
	}
}

func TestOwnerReferencePatches(t *testing.T) {
	owner := &api.ObjectMeta{Name: "web", UID: "u-web"}
	ref := NewControllerRef(owner, "apps/v1", "ReplicaSet")
	want := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u-web", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	if d := cmp.Diff(want, ref); d != "" {
		t.Fatalf("NewControllerRef -want +got:\n%s", d)
	}
	other := api.OwnerReference{Kind: "Thing", UID: "u-thing"}
	plain := api.OwnerReference{Kind: "ReplicaSet", UID: "u-web"}
	refs := []api.OwnerReference{other, plain}
	if d := cmp.Diff([]api.OwnerReference{other, ref}, AdoptOwnerReferences(refs, ref)); d != "" {
		t.Errorf("adopt over a non-controller reference of the same uid: %s", d)
	}
	if d := cmp.Diff([]api.OwnerReference{other, ref}, AdoptOwnerReferences([]api.OwnerReference{other}, ref)); d != "" {
		t.Errorf("adopt: %s", d)
	}
	if d := cmp.Diff([]api.OwnerReference{other}, ReleaseOwnerReferences(refs, "u-web")); d != "" {
		t.Errorf("release: %s", d)
	}
	if refs[1] != plain {
		t.Error("the input was modified")
	}
}
