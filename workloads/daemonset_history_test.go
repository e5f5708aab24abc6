package workloads_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// dsRevision is ds's revision numbered n, as the controller creates it.
func dsRevision(t *testing.T, ds *api.DaemonSet, n int64) *api.ControllerRevision {
	t.Helper()
	r, err := workloads.NewDaemonSetRevision(ds, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func revActions(r workloads.DaemonSetSync) []string {
	var out []string
	for _, a := range r.RevisionActions {
		out = append(out, a.Kind.String()+" "+a.Revision.Name)
	}
	return out
}

func TestNewDaemonSetRevision(t *testing.T) {
	ds := fluentd()
	r := dsRevision(t, ds, 3)
	hash, _ := workloads.DaemonSetRevisionHash(ds)
	data, _ := workloads.DaemonSetRevisionData(ds)
	if r.Name != ds.Name+"-"+hash || r.Namespace != ds.Namespace || r.Revision != 3 || !bytes.Equal(r.Data, data) {
		t.Errorf("revision %s/%s #%d %s", r.Namespace, r.Name, r.Revision, r.Data)
	}
	if r.Labels[api.LabelControllerRevisionHash] != hash || r.Labels["name"] != "fluentd-elasticsearch" {
		t.Errorf("labels %v", r.Labels)
	}
	if ref := r.ControllerRef(); ref == nil || ref.Kind != "DaemonSet" || ref.UID != ds.UID {
		t.Errorf("controller %+v", ref)
	}
	if !strings.HasPrefix(string(data), `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"name":"fluentd-elasticsearch"}}`) {
		t.Errorf("data %s", data)
	}
	// Nothing aliases the DaemonSet.
	r.Annotations["x"] = "y"
	r.Labels["x"] = "y"
	if ds.Annotations["x"] != "" || ds.Spec.Template.Labels["x"] != "" {
		t.Error("the revision aliases the DaemonSet's maps")
	}
}

func TestDaemonSetHistoryClaim(t *testing.T) {
	ds := fluentd()
	cur := dsRevision(t, ds, 2)
	// An owned revision whose labels no longer match: released.
	stray := dsRevision(t, ds, 1)
	stray.Name, stray.Labels = "fluentd-elasticsearch-stray", map[string]string{api.LabelControllerRevisionHash: "stray"}
	// Another namespace's, another controller's and a nil entry: ignored.
	elsewhere := dsRevision(t, ds, 1)
	elsewhere.Namespace = "default"
	foreign := dsRevision(t, ds, 1)
	foreign.Name, foreign.OwnerReferences = "foreign", []api.OwnerReference{workloads.NewControllerRef(&api.ObjectMeta{Name: "x", UID: "x"}, "apps/v1", "DaemonSet")}
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Revisions: []*api.ControllerRevision{nil, elsewhere, foreign, stray, cur}})
	if got, want := revActions(r), []string{"ReleaseRevision fluentd-elasticsearch-stray"}; !slices.Equal(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
	if rel := r.RevisionActions[0].Revision; rel.ControllerRef() != nil || stray.ControllerRef() == nil {
		t.Error("the release must drop the reference on a copy")
	}
	if r.CurrentRevision != cur {
		t.Errorf("current %v", r.CurrentRevision)
	}
}

func TestDaemonSetHistoryLabelsAndNumbers(t *testing.T) {
	ds := fluentd()
	// The current template's revision, without a hash label and numbered
	// below an old one: labelled with its name, then renumbered.
	cur := dsRevision(t, ds, 1)
	delete(cur.Labels, api.LabelControllerRevisionHash)
	old := fluentd()
	old.Spec.Template.Spec.Containers[0].Image = "fluentd:old"
	prev := dsRevision(t, old, 4)
	pod := dsPod(t, ds, "a", "n1", 0)
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1"), Pods: []*api.Pod{pod}, Revisions: []*api.ControllerRevision{cur, prev}})
	if got := revActions(r); len(got) != 2 || got[0] != "UpdateRevision "+cur.Name || got[1] != "UpdateRevision "+cur.Name {
		t.Fatalf("actions %v", got)
	}
	if l := r.RevisionActions[0].Revision.Labels; l[api.LabelControllerRevisionHash] != cur.Name || r.RevisionActions[0].Revision.Revision != 1 {
		t.Errorf("label update %v", r.RevisionActions[0].Revision)
	}
	if c := r.CurrentRevision; c.Revision != 5 || c.Labels[api.LabelControllerRevisionHash] != cur.Name {
		t.Errorf("current %s #%d %v", c.Name, c.Revision, c.Labels)
	}
	if _, has := cur.Labels[api.LabelControllerRevisionHash]; has {
		t.Error("the input revision was modified")
	}
}

func TestDaemonSetHistoryNameTakenBySameData(t *testing.T) {
	// The name is taken by a revision with the same data that the
	// DaemonSet does not claim (another owner): it is used as it is.
	ds := fluentd()
	other := dsRevision(t, ds, 7)
	other.OwnerReferences = []api.OwnerReference{workloads.NewControllerRef(&api.ObjectMeta{Name: "x", UID: "x"}, "apps/v1", "DaemonSet")}
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Revisions: []*api.ControllerRevision{other}})
	if len(r.RevisionActions) != 0 || r.CurrentRevision != other || r.Err != nil || r.Status.CollisionCount != nil {
		t.Errorf("actions %v current %v err %v", revActions(r), r.CurrentRevision, r.Err)
	}
}

func TestDaemonSetHistoryCleanup(t *testing.T) {
	ds := fluentd()
	limit := int32(1)
	ds.Spec.RevisionHistoryLimit = &limit
	var revs []*api.ControllerRevision
	var pods []*api.Pod
	for i, img := range []string{"v1", "v2", "v3", "v4"} {
		old := fluentd()
		old.Spec.Template.Spec.Containers[0].Image = img
		revs = append(revs, dsRevision(t, old, int64(i+1)))
		if img == "v1" {
			// A pod still runs v1; a terminal one being deleted keeps
			// v3 too.
			p := dsPod(t, old, "p1", "n1", 0)
			p.Labels[api.LabelControllerRevisionHash] = revs[i].Labels[api.LabelControllerRevisionHash]
			pods = append(pods, p)
		}
		if img == "v3" {
			p := dsPod(t, old, "p3", "n1", 0)
			p.Labels[api.LabelControllerRevisionHash] = revs[i].Labels[api.LabelControllerRevisionHash]
			p.Status.Phase = api.PodFailed
			p.DeletionTimestamp = &api.Time{Time: dsT0}
			pods = append(pods, p)
		}
	}
	revs = append(revs, dsRevision(t, ds, 5))
	r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1"), Pods: pods, Revisions: revs})
	// Four old revisions, limit 1: three to go, but v1 and v3 are live:
	// only v2 and v4 go, oldest first.
	want := []string{"DeleteRevision " + revs[1].Name, "DeleteRevision " + revs[3].Name}
	if got := revActions(r); !slices.Equal(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
	// Without the limit set, ten are kept.
	ds.Spec.RevisionHistoryLimit = nil
	if r := dsSync(t, workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1"), Pods: pods, Revisions: revs}); len(r.RevisionActions) != 0 {
		t.Errorf("default limit: %v", revActions(r))
	}
}

func TestDaemonSetHistoryCleanupWaitsForManage(t *testing.T) {
	// While the expectations of the first sync are pending, the history
	// is built but not pruned.
	ds := fluentd()
	zero := int32(0)
	ds.Spec.RevisionHistoryLimit = &zero
	old := fluentd()
	old.Spec.Template.Spec.Containers[0].Image = "v0"
	revs := []*api.ControllerRevision{dsRevision(t, old, 1)}
	var c workloads.DaemonSetController
	r, err := c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1"), Revisions: revs}, dsT0)
	if err != nil || len(r.Create) != 1 {
		t.Fatal(err, r.Create)
	}
	if got := revActions(r); len(got) != 2 || !strings.HasPrefix(got[0], "CreateRevision") || got[1] != "DeleteRevision "+revs[0].Name {
		t.Errorf("first sync %v", got)
	}
	revs = []*api.ControllerRevision{revs[0], r.RevisionActions[0].Revision}
	r, err = c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: dsNodes("n1"), Revisions: revs}, dsT0)
	if err != nil || len(r.RevisionActions) != 0 {
		t.Errorf("pending expectations: %v %v", revActions(r), err)
	}
}

func TestDaemonSetHistoryNilEntries(t *testing.T) {
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds", Namespace: "ns"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}
	r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{DaemonSet: ds, Revisions: []*api.ControllerRevision{nil}}, dsT0)
	if err != nil || r.CurrentRevision == nil || len(r.RevisionActions) != 1 {
		t.Errorf("nil revision entry: %v %v", revActions(r), err)
	}
}
