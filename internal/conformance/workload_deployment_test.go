package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

func init() {
	register("workload.deployment", runWorkloadDeployment)
}

type wlDeploymentInput struct {
	Now         time.Time         `json:"now"`
	Deployment  api.Deployment    `json:"deployment"`
	ReplicaSets []*api.ReplicaSet `json:"replicaSets"`
	Pods        []*api.Pod        `json:"pods"`
}

type wlDeploymentNewRS struct {
	Replicas         int32             `json:"replicas"`
	Annotations      map[string]string `json:"annotations"`
	MinReadySeconds  int32             `json:"minReadySeconds"`
	Labels           map[string]string `json:"labels"`
	SelectorGetsHash bool              `json:"selectorGetsHash"`
	Controller       string            `json:"controller"`
}

type wlDeploymentUpdate struct {
	Name             string            `json:"name"`
	PreviousReplicas int32             `json:"previousReplicas"`
	Replicas         int32             `json:"replicas"`
	Annotations      map[string]string `json:"annotations"`
	MinReadySeconds  int32             `json:"minReadySeconds"`
}

type wlDeploymentWant struct {
	NewReplicaSet       *wlDeploymentNewRS   `json:"newReplicaSet"`
	ReplicaSetUpdates   []wlDeploymentUpdate `json:"replicaSetUpdates"`
	DeletedReplicaSets  []string             `json:"deletedReplicaSets"`
	AdoptedReplicaSets  []string             `json:"adoptedReplicaSets"`
	ReleasedReplicaSets []string             `json:"releasedReplicaSets"`
	StatusUpdated       bool                 `json:"statusUpdated"`
	Revision            string               `json:"revision"`
	Status              json.RawMessage      `json:"status"`
	SyncError           bool                 `json:"syncError"`
}

func runWorkloadDeployment(input, want json.RawMessage) error {
	var in wlDeploymentInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decode input: %w", err)
	}
	var w wlDeploymentWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decode want: %w", err)
	}
	res, err := workloads.SyncDeployment(&in.Deployment, in.ReplicaSets, in.Pods, workloads.DeploymentOptions{}, in.Now)
	if (err != nil) != w.SyncError {
		return Mismatch("syncError", w.SyncError, fmt.Sprint(err))
	}

	if d := compareNewReplicaSet(w.NewReplicaSet, res.NewReplicaSet, &in.Deployment); d != "" {
		return fmt.Errorf("newReplicaSet: %s", d)
	}
	got := make([]wlDeploymentUpdate, 0, len(res.Updates))
	for _, u := range res.Updates {
		got = append(got, wlDeploymentUpdate{Name: u.Name, PreviousReplicas: u.PreviousReplicas,
			Replicas: *u.ReplicaSet.Spec.Replicas, Annotations: u.ReplicaSet.Annotations, MinReadySeconds: u.ReplicaSet.Spec.MinReadySeconds})
	}
	if len(got) != len(w.ReplicaSetUpdates) {
		return Mismatch("replicaSetUpdates", w.ReplicaSetUpdates, got)
	}
	for i := range got {
		g, x := got[i], w.ReplicaSetUpdates[i]
		if g.Name != x.Name || g.PreviousReplicas != x.PreviousReplicas || g.Replicas != x.Replicas ||
			g.MinReadySeconds != x.MinReadySeconds || !maps.Equal(depNilIfEmpty(g.Annotations), depNilIfEmpty(x.Annotations)) {
			return Mismatch(fmt.Sprintf("replicaSetUpdates[%d]", i), w.ReplicaSetUpdates, got)
		}
	}
	if !slices.Equal(depNilIfEmptySlice(res.Deleted), depNilIfEmptySlice(w.DeletedReplicaSets)) {
		return Mismatch("deletedReplicaSets", w.DeletedReplicaSets, res.Deleted)
	}
	if !sameSet(res.Adopted, w.AdoptedReplicaSets) {
		return Mismatch("adoptedReplicaSets", w.AdoptedReplicaSets, res.Adopted)
	}
	if !sameSet(res.Released, w.ReleasedReplicaSets) {
		return Mismatch("releasedReplicaSets", w.ReleasedReplicaSets, res.Released)
	}
	if res.StatusUpdated != w.StatusUpdated {
		return Mismatch("statusUpdated", w.StatusUpdated, res.StatusUpdated)
	}
	if res.Revision != w.Revision {
		return Mismatch("revision", w.Revision, res.Revision)
	}

	// The created ReplicaSet's name is not upstream's: messages naming it
	// carry the token {newReplicaSet} in the vectors.
	st := res.Status
	st.Conditions = slices.Clone(st.Conditions)
	if res.NewReplicaSet != nil {
		for i := range st.Conditions {
			st.Conditions[i].Message = strings.ReplaceAll(st.Conditions[i].Message, `"`+res.NewReplicaSet.Name+`"`, `"{newReplicaSet}"`)
		}
	}
	return compareDeploymentStatus(w.Status, st)
}

func compareNewReplicaSet(w *wlDeploymentNewRS, got *api.ReplicaSet, d *api.Deployment) string {
	if (w == nil) != (got == nil) {
		return fmt.Sprintf("want present=%v, got %s", w != nil, jsonString(got))
	}
	if w == nil {
		return ""
	}
	hash := got.Labels[workloads.LabelPodTemplateHash]
	labels := maps.Clone(got.Labels)
	delete(labels, workloads.LabelPodTemplateHash)
	ctrl := ""
	if ref := got.ControllerRef(); ref != nil && ref.UID == d.UID {
		ctrl = ref.Name
	}
	gotW := wlDeploymentNewRS{
		Replicas: *got.Spec.Replicas, Annotations: got.Annotations, MinReadySeconds: got.Spec.MinReadySeconds,
		Labels: labels, Controller: ctrl,
		SelectorGetsHash: hash != "" && got.Spec.Selector != nil && got.Spec.Selector.MatchLabels[workloads.LabelPodTemplateHash] == hash &&
			got.Spec.Template.Labels[workloads.LabelPodTemplateHash] == hash,
	}
	if gotW.Replicas != w.Replicas || gotW.MinReadySeconds != w.MinReadySeconds || gotW.Controller != w.Controller ||
		gotW.SelectorGetsHash != w.SelectorGetsHash || !maps.Equal(depNilIfEmpty(gotW.Annotations), depNilIfEmpty(w.Annotations)) ||
		!maps.Equal(depNilIfEmpty(gotW.Labels), depNilIfEmpty(w.Labels)) {
		return fmt.Sprintf("want %s, got %s", jsonString(w), jsonString(gotW))
	}
	return ""
}

// compareDeploymentStatus compares field by field, conditions in order,
// times as instants; terminatingReplicas and collisionCount absent vs
// present exactly.
func compareDeploymentStatus(want json.RawMessage, got api.DeploymentStatus) error {
	var w api.DeploymentStatus
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decode want status: %w", err)
	}
	if w.WorkloadStatus != got.WorkloadStatus || w.UnavailableReplicas != got.UnavailableReplicas ||
		!depPtrEq(w.TerminatingReplicas, got.TerminatingReplicas) || !depPtrEq(w.CollisionCount, got.CollisionCount) ||
		len(w.Conditions) != len(got.Conditions) {
		return Mismatch("status", want, got)
	}
	for i := range w.Conditions {
		a, b := w.Conditions[i], got.Conditions[i]
		if a.Type != b.Type || a.Status != b.Status || a.Reason != b.Reason || a.Message != b.Message ||
			!a.LastUpdateTime.Equal(b.LastUpdateTime.Time) || !a.LastTransitionTime.Equal(b.LastTransitionTime.Time) {
			return Mismatch(fmt.Sprintf("status.conditions[%d]", i), want, got)
		}
	}
	return nil
}

func depPtrEq(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func depNilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

func depNilIfEmptySlice(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
