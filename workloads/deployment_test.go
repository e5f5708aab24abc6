package workloads

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func TestResolveFenceposts(t *testing.T) {
	for _, tc := range []struct {
		surge, unavailable api.IntOrString
		replicas           int32
		wantS, wantU       int32
	}{
		{api.FromString("25%"), api.FromString("25%"), 3, 1, 0},   // the docs' nginx: up rounds up, down rounds down
		{api.FromString("25%"), api.FromString("25%"), 10, 3, 2},  // 2.5 → 3 and 2
		{api.FromString("0%"), api.FromString("10%"), 3, 0, 1},    // both 0: unavailable 1
		{api.FromInt32(0), api.FromInt32(0), 5, 0, 1},             // both 0 as written
		{api.FromInt32(2), api.FromString("100%"), 4, 2, 4},       // unavailable may be all
		{api.FromString("50%"), api.FromString("50%"), 0, 0, 1},   // no replicas
		{api.FromString("1%"), api.FromString("99%"), 100, 1, 99}, // exact
	} {
		s, u := resolveFenceposts(&tc.surge, &tc.unavailable, tc.replicas)
		if s != tc.wantS || u != tc.wantU {
			t.Errorf("%v/%v of %d: got %d/%d, want %d/%d", tc.surge, tc.unavailable, tc.replicas, s, u, tc.wantS, tc.wantU)
		}
	}
	// MaxUnavailable is capped at replicas and is 0 without replicas.
	d := testDeployment(3, api.FromInt32(1), api.FromInt32(7))
	if got := deploymentMaxUnavailable(d); got != 3 {
		t.Errorf("maxUnavailable 7 of 3 replicas: %d, want 3", got)
	}
	*d.Spec.Replicas = 0
	if got := deploymentMaxUnavailable(d); got != 0 {
		t.Errorf("maxUnavailable with 0 replicas: %d, want 0", got)
	}
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	if deploymentMaxSurge(d) != 0 || deploymentMaxUnavailable(d) != 0 {
		t.Error("Recreate has no surge and no unavailability")
	}
}

func testDeployment(replicas int32, surge, unavailable api.IntOrString) *api.Deployment {
	labels := map[string]string{"app": "web"}
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-web", Generation: 1},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:2"}}}},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			RevisionHistoryLimit:    ptr(int32(10)),
			ProgressDeadlineSeconds: ptr(int32(600)),
		},
	}
}

// testRS is a ReplicaSet of d with the given image, replicas (all
// available) and annotations.
func testRS(d *api.Deployment, name, image string, replicas int32, created time.Time, ann map[string]string) *api.ReplicaSet {
	labels := map[string]string{"app": "web", LabelPodTemplateHash: name}
	tmpl := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: image}}}}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: 1,
			CreationTimestamp: api.NewTime(created), Labels: labels, Annotations: ann,
			OwnerReferences: []api.OwnerReference{NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")}},
		Spec:   api.ReplicaSetSpec{Replicas: ptr(replicas), Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl},
		Status: api.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: replicas, AvailableReplicas: replicas, ObservedGeneration: 1, TerminatingReplicas: ptr(int32(0))},
	}
}

// The docs' proportional scaling: 10 replicas, maxSurge 3, maxUnavailable
// 2, a rollout stuck at old 8 / new 5, scaled to 15: 5 more pods, 3 to the
// old ReplicaSet and 2 to the new one (largest first, rounding).
func TestSyncDeploymentProportionalScaling(t *testing.T) {
	d := testDeployment(15, api.FromInt32(3), api.FromInt32(2))
	ann := func(rev string) map[string]string {
		return map[string]string{AnnotationDeploymentDesiredReplicas: "10", AnnotationDeploymentMaxReplicas: "13", AnnotationDeploymentRevision: rev}
	}
	old := testRS(d, "web-old", "web:1", 8, t0, ann("1"))
	newRS := testRS(d, "web-new", "web:2", 5, t0.Add(time.Hour), ann("2"))
	newRS.Status.AvailableReplicas, newRS.Status.ReadyReplicas = 0, 0
	res, err := SyncDeployment(d, []*api.ReplicaSet{newRS, old}, nil, DeploymentOptions{}, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range res.Updates {
		got = append(got, u.Name+"="+strings.Join([]string{itoa(*u.ReplicaSet.Spec.Replicas), u.ReplicaSet.Annotations[AnnotationDeploymentDesiredReplicas], u.ReplicaSet.Annotations[AnnotationDeploymentMaxReplicas]}, "/"))
	}
	if diff := cmp.Diff([]string{"web-old=11/15/18", "web-new=7/15/18"}, got); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
}

func itoa(n int32) string { b, _ := json.Marshal(n); return string(b) }

// An owned ReplicaSet whose labels no longer match the selector is
// released; an orphan that matches is adopted; one of another owner is
// left alone.
func TestSyncDeploymentClaims(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	cur := testRS(d, "web-cur", "web:2", 3, t0, map[string]string{AnnotationDeploymentRevision: "1"})
	gone := testRS(d, "web-gone", "web:1", 0, t0, nil)
	gone.Labels = map[string]string{"app": "other"}
	orphan := testRS(d, "web-orphan", "web:0", 0, t0, nil)
	orphan.OwnerReferences = nil
	foreign := testRS(d, "web-foreign", "web:0", 0, t0, nil)
	foreign.OwnerReferences[0].UID = "someone-else"
	res, err := SyncDeployment(d, []*api.ReplicaSet{cur, gone, orphan, foreign}, nil, DeploymentOptions{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(res.Adopted, []string{"web-orphan"}) || !cmp.Equal(res.Released, []string{"web-gone"}) {
		t.Errorf("adopted %v released %v", res.Adopted, res.Released)
	}
}

// A rollback makes an old ReplicaSet new again: its revision becomes
// max + 1 and the old one goes to the revision history, which keeps at
// most 2000 characters by dropping the oldest revisions.
func TestSetNewReplicaSetAnnotationsHistory(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	s := newDeploymentSyncer(d, DeploymentOptions{}, t0)
	rs := testRS(d, "web-a", "web:2", 3, t0, map[string]string{AnnotationDeploymentRevision: "2", AnnotationDeploymentRevisionHistory: "1"})
	if !s.setNewReplicaSetAnnotations(rs, "5", true) {
		t.Fatal("no change reported")
	}
	if rs.Annotations[AnnotationDeploymentRevision] != "5" || rs.Annotations[AnnotationDeploymentRevisionHistory] != "1,2" {
		t.Errorf("annotations %v", rs.Annotations)
	}
	long := strings.Repeat("1234,", 399) + "1234" // 1999 characters
	rs.Annotations[AnnotationDeploymentRevisionHistory] = long
	s.setNewReplicaSetAnnotations(rs, "6", true)
	h := rs.Annotations[AnnotationDeploymentRevisionHistory]
	if len(h) > maxRevisionHistoryChars || !strings.HasSuffix(h, ",5") || strings.Count(h, ",") != 399 {
		t.Errorf("history of %d chars ends %q, %d entries", len(h), h[len(h)-10:], strings.Count(h, ",")+1)
	}
	// A higher revision already there is kept.
	if s.setNewReplicaSetAnnotations(rs, "3", true) || rs.Annotations[AnnotationDeploymentRevision] != "6" {
		t.Errorf("lower revision: %v", rs.Annotations[AnnotationDeploymentRevision])
	}
}

func TestDefaultPodTemplateHash(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	h1 := DefaultPodTemplateHash(&d.Spec.Template, nil)
	if h1 != DefaultPodTemplateHash(&d.Spec.Template, nil) {
		t.Error("not stable")
	}
	if h1 == DefaultPodTemplateHash(&d.Spec.Template, ptr(int32(1))) {
		t.Error("collisionCount does not change the hash")
	}
	for _, c := range h1 {
		if !strings.ContainsRune("bcdfghjklmnpqrstvwxz2456789", c) {
			t.Errorf("hash %q has %q outside the safe alphabet", h1, c)
		}
	}
	// The option replaces it.
	res, err := SyncDeployment(d, nil, nil, DeploymentOptions{PodTemplateHash: func(*api.PodTemplateSpec, *int32) string { return "5d59d67564" }}, t0)
	if err != nil || res.NewReplicaSet == nil || res.NewReplicaSet.Name != "web-5d59d67564" ||
		res.NewReplicaSet.Spec.Selector.MatchLabels[LabelPodTemplateHash] != "5d59d67564" {
		t.Errorf("custom hash: %+v, %v", res.NewReplicaSet, err)
	}
}

// SyncDeployment changes none of its inputs.
func TestSyncDeploymentLeavesInputs(t *testing.T) {
	d := testDeployment(15, api.FromInt32(3), api.FromInt32(2))
	d.Annotations = map[string]string{"kubernetes.io/change-cause": "scale"}
	ann := map[string]string{AnnotationDeploymentDesiredReplicas: "10", AnnotationDeploymentMaxReplicas: "13", AnnotationDeploymentRevision: "1"}
	rss := []*api.ReplicaSet{testRS(d, "web-new", "web:3", 5, t0.Add(time.Hour), ann), testRS(d, "web-old", "web:1", 8, t0, ann)}
	before, _ := json.Marshal([]any{d, rss})
	if _, err := SyncDeployment(d, rss, nil, DeploymentOptions{}, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal([]any{d, rss})
	if string(before) != string(after) {
		t.Errorf("inputs changed:\n%s\n%s", before, after)
	}
	if rss[0].Name != "web-new" {
		t.Error("the ReplicaSet list was reordered")
	}
}

// A failing sync is retried with the work queue's back-off: 5 ms,
// doubling, and given up after 15 retries.
func TestDeploymentControllerRetry(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	d.Spec.Strategy.Type = "BlueGreen"
	var c DeploymentController
	now := t0
	for i := range deploymentMaxRetries {
		if _, err := c.Step(DeploymentInput{Deployment: d}, now); err == nil || errors.Is(err, api.ErrInvalidInput) {
			t.Fatalf("step %d: %v", i, err)
		}
		want := now.Add(retryBackoffBase << i)
		if got := c.NextDeadline(); !got.Equal(want) {
			t.Fatalf("retry %d at %v, want %v", i, got.Sub(now), want.Sub(now))
		}
		now = c.NextDeadline()
	}
	c.Step(DeploymentInput{Deployment: d}, now)
	if !c.NextDeadline().IsZero() {
		t.Errorf("after %d retries: %v, want none", deploymentMaxRetries, c.NextDeadline())
	}
	if got := retryDelay(31); got != retryBackoffMax {
		t.Errorf("delay cap: %v", got)
	}
}

// A new ReplicaSet whose name is taken by another template is a hash
// collision: collisionCount goes up and the sync fails; the next sync
// hashes with the new count.
func TestSyncDeploymentHashCollision(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	hash := func(_ *api.PodTemplateSpec, cc *int32) string {
		if cc == nil {
			return "h0"
		}
		return "h" + itoa(*cc)
	}
	taken := testRS(d, "web-h0", "web:other", 0, t0, nil)
	taken.OwnerReferences = nil
	taken.Labels = map[string]string{"app": "unrelated"}
	opts := DeploymentOptions{PodTemplateHash: hash}
	res, err := SyncDeployment(d, []*api.ReplicaSet{taken}, nil, opts, t0)
	if err == nil || errors.Is(err, api.ErrInvalidInput) || res.NewReplicaSet != nil || !res.StatusUpdated ||
		res.Status.CollisionCount == nil || *res.Status.CollisionCount != 1 {
		t.Fatalf("collision: %+v, %v", res, err)
	}
	d.Status = res.Status
	res, err = SyncDeployment(d, []*api.ReplicaSet{taken}, nil, opts, t0)
	if err != nil || res.NewReplicaSet == nil || res.NewReplicaSet.Name != "web-h1" {
		t.Fatalf("after the collision: %+v, %v", res.NewReplicaSet, err)
	}
}

// The deprecated rollback annotation is not modelled: the sync says so
// with errors.ErrUnsupported, and the controller does not retry it.
func TestSyncDeploymentRollbackUnsupported(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	d.Annotations = map[string]string{AnnotationDeprecatedRollbackTo: "1"}
	var c DeploymentController
	if _, err := c.Step(DeploymentInput{Deployment: d}, t0); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("got %v, want errors.ErrUnsupported", err)
	}
	if !c.NextDeadline().IsZero() {
		t.Errorf("retry scheduled at %v", c.NextDeadline())
	}
	d.Annotations[AnnotationDeprecatedRollbackTo] = "not-a-number" // ignored, as upstream ignores it
	if _, err := SyncDeployment(d, nil, nil, DeploymentOptions{}, t0); err != nil {
		t.Fatal(err)
	}
}

// A Deployment whose selector is empty selects every pod: upstream
// refuses it (event SelectingAll) and only records the generation.
func TestSyncDeploymentSelectingAll(t *testing.T) {
	d := testDeployment(3, api.FromString("25%"), api.FromString("25%"))
	d.Spec.Selector = &api.LabelSelector{}
	d.Generation = 4
	d.Status.ObservedGeneration = 3
	res, err := SyncDeployment(d, []*api.ReplicaSet{testRS(d, "web-a", "web:2", 3, t0, nil)}, nil, DeploymentOptions{}, t0)
	if err != nil || !res.StatusUpdated || res.Status.ObservedGeneration != 4 || res.NewReplicaSet != nil || len(res.Updates) != 0 {
		t.Fatalf("selecting all: %+v, %v", res, err)
	}
	d.Status.ObservedGeneration = 4
	if res, _ := SyncDeployment(d, nil, nil, DeploymentOptions{}, t0); res.StatusUpdated {
		t.Error("generation already observed: status written again")
	}
}
