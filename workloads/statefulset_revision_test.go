package workloads

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

// The docs' "web" set: the revision kube-controller-manager v1.36.3
// records for it is web-6949bfdf68 with exactly these bytes.
const webRevisionData = `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"registry.k8s.io/nginx-slim:0.21","imagePullPolicy":"IfNotPresent","name":"nginx","ports":[{"containerPort":80,"name":"web","protocol":"TCP"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/usr/share/nginx/html","name":"www"}]}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":10}}}}`

func TestStatefulSetRevision(t *testing.T) {
	set := nginxSet(3)
	data, err := StatefulSetRevisionData(set)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != webRevisionData {
		t.Errorf("data:\n got %s\nwant %s", data, webRevisionData)
	}
	rev, err := NewStatefulSetRevision(set, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Name != "web-6949bfdf68" || rev.Labels[api.LabelControllerRevisionHashKey] != "6949bfdf68" || rev.Labels["app"] != "nginx" || rev.Revision != 1 {
		t.Errorf("revision %s %v %d", rev.Name, rev.Labels, rev.Revision)
	}
	if ref := rev.ControllerRef(); ref == nil || ref.UID != set.UID || ref.Kind != "StatefulSet" {
		t.Errorf("owner %v", rev.OwnerReferences)
	}
	if h := HashControllerRevision(data, 1); h == "6949bfdf68" || strings.Trim(h, "bcdfghjklmnpqrstvwxz2456789") != "" {
		t.Errorf("collision count 1: hash %q", h)
	}
	if got := ControllerRevisionName(strings.Repeat("a", 250), "x"); len(got) != 225 {
		t.Errorf("long prefix: %d bytes", len(got))
	}

	// A change of template is a new revision; applying the old one
	// restores the old template.
	newer := nginxSet(3)
	newer.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:0.24"
	back, err := ApplyStatefulSetRevision(newer, rev)
	if err != nil {
		t.Fatal(err)
	}
	if img := back.Spec.Template.Spec.Containers[0].Image; img != "registry.k8s.io/nginx-slim:0.21" {
		t.Errorf("applied revision image %s", img)
	}
	if newer.Spec.Template.Spec.Containers[0].Image != "registry.k8s.io/nginx-slim:0.24" {
		t.Error("ApplyStatefulSetRevision modified its input")
	}
}

func TestReconcileStatefulSetRevisions(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	old := func(name, data string, n int64) *api.ControllerRevision {
		return &api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "nginx"},
			OwnerReferences: []api.OwnerReference{statefulSetRef(nginxSet(1))}}, Data: []byte(data), Revision: n}
	}
	// Written by an older serializer, without the empty members: the same
	// template, so no new revision.
	short := strings.NewReplacer(`"resources":{},`, "", `"securityContext":{},`, "").Replace(webRevisionData)
	res, err := ReconcileStatefulSet(StatefulSetInput{Set: nginxSet(1), Revisions: []*api.ControllerRevision{old("web-6949bfdf68", short, 1)}}, StatefulSetConfig{}, now)
	if err != nil || len(res.RevisionActions) != 0 || res.UpdateRevision.Name != "web-6949bfdf68" {
		t.Errorf("semantically equal revision: %v %v", res.RevisionActions, err)
	}
	// The template of an older revision again: a rollback renumbers it.
	newer := nginxSet(1)
	newer.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:0.24"
	newData, _ := StatefulSetRevisionData(newer)
	revs := []*api.ControllerRevision{old("web-6949bfdf68", webRevisionData, 1), old("web-other", string(newData), 2)}
	res, _ = ReconcileStatefulSet(StatefulSetInput{Set: nginxSet(1), Revisions: revs}, StatefulSetConfig{}, now)
	if got := actionList(res.RevisionActions); !cmp.Equal(got, []string{"UpdateRevision web-6949bfdf68 3"}) {
		t.Errorf("rollback: %v", got)
	}
	// A name taken by other data: the collision count goes up.
	res, _ = ReconcileStatefulSet(StatefulSetInput{Set: nginxSet(1), Revisions: []*api.ControllerRevision{old("web-6949bfdf68", string(newData), 1)}}, StatefulSetConfig{}, now)
	if len(res.RevisionActions) == 0 || res.RevisionActions[len(res.RevisionActions)-1].Kind != RevisionCreate || *res.Status.CollisionCount != 1 {
		t.Errorf("collision: %v, count %v", actionList(res.RevisionActions), res.Status.CollisionCount)
	}
}

func actionList[T interface{ String() string }](l []T) []string {
	var out []string
	for _, a := range l {
		out = append(out, a.String())
	}
	return out
}

func TestStatefulSetPodAndClaims(t *testing.T) {
	set := nginxSet(3)
	set.Spec.Template.Spec.Volumes = []api.Volume{{Name: "www"}, {Name: "cache"}}
	set.Spec.VolumeClaimTemplates[0].Labels = map[string]string{"tier": "data", "app": "other"}
	pod, err := StatefulSetPod(set, 2, "web-6949bfdf68")
	if err != nil {
		t.Fatal(err)
	}
	if pod.Name != "web-2" || pod.GenerateName != "web-" || pod.Namespace != "default" || pod.Spec.Hostname != "web-2" || pod.Spec.Subdomain != "nginx" {
		t.Errorf("identity %s %s %s %s.%s", pod.Name, pod.GenerateName, pod.Namespace, pod.Spec.Hostname, pod.Spec.Subdomain)
	}
	want := map[string]string{"app": "nginx", api.LabelStatefulSetPodName: "web-2", api.LabelPodIndex: "2", api.LabelControllerRevisionHash: "web-6949bfdf68"}
	if d := cmp.Diff(want, pod.Labels); d != "" {
		t.Errorf("labels -want +got:\n%s", d)
	}
	if len(pod.Spec.Volumes) != 2 || pod.Spec.Volumes[0].PersistentVolumeClaim == nil || pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "www-web-2" || pod.Spec.Volumes[1].Name != "cache" {
		t.Errorf("volumes %+v", pod.Spec.Volumes)
	}
	claims, _ := StatefulSetClaims(set, 2)
	if len(claims) != 1 || claims[0].Name != "www-web-2" || !cmp.Equal(claims[0].Labels, map[string]string{"tier": "data", "app": "nginx"}) {
		t.Errorf("claims %v %v", claims[0].Name, claims[0].Labels)
	}
	if set.Spec.VolumeClaimTemplates[0].Labels["app"] != "other" {
		t.Error("StatefulSetClaims modified the template")
	}
}

// The retention policy's owner references, for a pod in range and one
// scaled away.
func TestClaimRetention(t *testing.T) {
	setRef := "StatefulSet/web"
	tests := []struct {
		scaled, deleted api.PersistentVolumeClaimRetentionPolicyType
		inRange         []string
		scaledAway      []string
	}{
		{retain, retain, nil, nil},
		{retain, del, []string{setRef}, []string{setRef}},
		{del, retain, nil, []string{"Pod/web-3"}},
		{del, del, []string{setRef}, []string{"Pod/web-3"}},
	}
	for _, tt := range tests {
		set := nginxSet(3)
		set.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = tt.scaled
		set.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = tt.deleted
		s := &ssSync{set: set}
		for _, ord := range []int{1, 3} {
			pod := newStatefulSetPod(set, ord, "")
			pod.UID = "uid-" + pod.Name
			claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www-" + pod.Name, OwnerReferences: []api.OwnerReference{
				{APIVersion: "example.com/v1", Kind: "Backup", Name: "nightly", UID: "uid-backup"}}}}
			var got []string
			for _, r := range s.claimOwnerRefs(claim, pod) {
				if r.Kind != "Backup" {
					got = append(got, r.Kind+"/"+r.Name)
				}
			}
			want := tt.inRange
			if ord == 3 {
				want = tt.scaledAway
			}
			if !cmp.Equal(got, want) {
				t.Errorf("%s/%s, %s: refs %v, want %v", tt.scaled, tt.deleted, pod.Name, got, want)
			}
			fixed := *claim
			fixed.OwnerReferences = s.claimOwnerRefs(claim, pod)
			if !s.claimOwnerUpToDate(&fixed, pod) {
				t.Errorf("%s/%s, %s: the repaired claim is not up to date", tt.scaled, tt.deleted, pod.Name)
			}
		}
	}
}

// Under Parallel management the pods are handled in slowStartBatch's
// batches (1, 2, 4, ...): a failed write stops the sync after its batch.
func TestParallelBatchesStopAfterAFailure(t *testing.T) {
	set := nginxSet(7)
	set.Spec.PodManagementPolicy = api.ParallelPodManagement
	deleting := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www-web-1", Namespace: "default", DeletionTimestamp: api.NewTimePtr(t0)}}
	res, err := ReconcileStatefulSet(StatefulSetInput{Set: set, Claims: []*api.PersistentVolumeClaim{deleting}}, StatefulSetConfig{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"CreateClaim www-web-0 (missing)", "Create web-0 (missing)", "CreateClaim www-web-2 (missing)", "Create web-2 (missing)"}
	if d := cmp.Diff(want, actionList(res.Actions)); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	if res.Err == nil || !strings.Contains(res.Err.Error(), "www-web-1 is being deleted") {
		t.Errorf("err %v", res.Err)
	}
}

// A set of 2,147,483,647 replicas with one pod: one sync costs what its
// pods cost, not what its replicas would (under OrderedReady it creates
// web-1 and stops).
func TestHugeReplicaCount(t *testing.T) {
	set := nginxSet(1<<31 - 1)
	w := newSSWorld(set)
	res, err := ReconcileStatefulSet(w.input(), StatefulSetConfig{}, t0)
	if err != nil || w.apply(res, t0) != nil {
		t.Fatal(err)
	}
	_ = w.ready("web-0", t0)
	for _, gate := range []bool{false, true} {
		res, err = ReconcileStatefulSet(w.input(), StatefulSetConfig{MaxUnavailable: gate}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if got := actionList(res.Actions); !cmp.Equal(got, []string{"CreateClaim www-web-1 (missing)", "Create web-1 (missing)"}) {
			t.Errorf("gate %v: %v", gate, got)
		}
	}
}
