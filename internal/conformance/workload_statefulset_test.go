package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// workload.statefulset: one sync of the StatefulSet controller through
// workloads.ReconcileStatefulSet.
func init() {
	register("workload.statefulset", runStatefulSet)
}

type statefulSetCase struct {
	StatefulSet         *api.StatefulSet             `json:"statefulSet"`
	Pods                []*api.Pod                   `json:"pods"`
	PVCs                []*api.PersistentVolumeClaim `json:"pvcs"`
	ControllerRevisions []*api.ControllerRevision    `json:"controllerRevisions"`
	Now                 time.Time                    `json:"now"`
}

type statefulSetWant struct {
	Actions         []map[string]any `json:"actions"`
	RevisionActions []map[string]any `json:"revisionActions"`
	Status          map[string]any   `json:"status"`
	SyncError       bool             `json:"syncError"`
}

func runStatefulSet(input, want json.RawMessage) error {
	var in statefulSetCase
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w statefulSetWant
	if err := decodeGeneric(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	res, err := workloads.ReconcileStatefulSet(workloads.StatefulSetInput{
		Set: in.StatefulSet, Pods: in.Pods, Claims: in.PVCs, Revisions: in.ControllerRevisions,
	}, workloads.StatefulSetConfig{}, in.Now)
	if err != nil {
		return fmt.Errorf("ReconcileStatefulSet: %w", err)
	}
	if (res.Err != nil) != w.SyncError {
		return Mismatch("syncError", w.SyncError, fmt.Sprint(res.Err))
	}
	got := make([]map[string]any, 0, len(res.Actions))
	for _, a := range res.Actions {
		got = append(got, statefulSetActionJSON(a))
	}
	parallel := in.StatefulSet.Spec.PodManagementPolicy == api.ParallelPodManagement
	if d := compareStatefulSetActions(w.Actions, got, in.StatefulSet.Name, parallel); d != "" {
		return Mismatch("actions ("+d+")", w.Actions, got)
	}
	gotRev := make([]map[string]any, 0, len(res.RevisionActions))
	for _, a := range res.RevisionActions {
		gotRev = append(gotRev, revisionActionJSON(a))
	}
	if d := SameJSON(toGeneric(w.RevisionActions), toGeneric(gotRev), "revisionActions"); d != "" || len(w.RevisionActions) != len(gotRev) {
		return Mismatch("revisionActions ("+d+")", w.RevisionActions, gotRev)
	}
	var gotStatus map[string]any
	if res.WriteStatus {
		st := res.Status
		cc := int32(0)
		if st.CollisionCount != nil {
			cc = *st.CollisionCount
		}
		gotStatus = map[string]any{
			"replicas": st.Replicas, "readyReplicas": st.ReadyReplicas, "currentReplicas": st.CurrentReplicas,
			"updatedReplicas": st.UpdatedReplicas, "availableReplicas": st.AvailableReplicas,
			"currentRevision": st.CurrentRevision, "updateRevision": st.UpdateRevision,
			"collisionCount": cc, "observedGeneration": st.ObservedGeneration,
		}
	}
	if (w.Status == nil) != (gotStatus == nil) {
		return Mismatch("status", w.Status, gotStatus)
	}
	if gotStatus != nil {
		if d := SameJSON(toGeneric(w.Status), toGeneric(gotStatus), "status"); d != "" {
			return Mismatch("status ("+d+")", w.Status, gotStatus)
		}
	}
	return nil
}

func decodeGeneric(b []byte, v any) error {
	return json.Unmarshal(b, v)
}

// toGeneric re-reads a value as a generic JSON tree with json.Number
// numbers, the form SameJSON compares.
func toGeneric(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	g, err := DecodeNumbers(b)
	if err != nil {
		return err.Error()
	}
	return g
}

func statefulSetActionJSON(a workloads.StatefulSetAction) map[string]any {
	claims := func(p *api.Pod) map[string]any {
		m := map[string]any{}
		if p == nil {
			return m
		}
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil {
				m[v.Name] = v.PersistentVolumeClaim.ClaimName
			}
		}
		return m
	}
	switch a.Kind {
	case workloads.StatefulSetAdopt:
		return map[string]any{"op": "adopt-pod", "name": a.Pod}
	case workloads.StatefulSetRelease:
		return map[string]any{"op": "release-pod", "name": a.Pod}
	case workloads.StatefulSetCreateClaim:
		return map[string]any{"op": "create-pvc", "name": a.Claim.Name, "labels": a.Claim.Labels}
	case workloads.StatefulSetUpdateClaim:
		refs := a.Claim.OwnerReferences
		if refs == nil {
			refs = []api.OwnerReference{}
		}
		return map[string]any{"op": "update-pvc", "name": a.Claim.Name, "ownerReferences": refs}
	case workloads.StatefulSetCreate:
		return map[string]any{"op": "create-pod", "name": a.Pod, "revision": a.Revision, "claims": claims(a.Object)}
	case workloads.StatefulSetUpdate:
		var labels map[string]string
		if a.Object != nil {
			labels = a.Object.Labels
		}
		return map[string]any{"op": "update-pod", "name": a.Pod, "labels": labels, "claims": claims(a.Object)}
	case workloads.StatefulSetDelete:
		return map[string]any{"op": "delete-pod", "name": a.Pod}
	}
	return map[string]any{"op": a.Kind.String(), "name": a.Pod}
}

func revisionActionJSON(a workloads.ControllerRevisionAction) map[string]any {
	r := a.Revision
	switch a.Kind {
	case workloads.RevisionAdopt:
		return map[string]any{"op": "adopt-revision", "name": r.Name}
	case workloads.RevisionCreate:
		return map[string]any{"op": "create-revision", "name": r.Name, "revision": r.Revision, "data": string(r.Data)}
	case workloads.RevisionUpdate:
		return map[string]any{"op": "update-revision", "name": r.Name, "revision": r.Revision}
	case workloads.RevisionDelete:
		return map[string]any{"op": "delete-revision", "name": r.Name}
	}
	return map[string]any{"op": a.Kind.String()}
}

// compareStatefulSetActions compares the pod and claim writes as the
// family's compare says: in order for OrderedReady; for Parallel the
// adoptions and releases first in order, then the writes grouped by
// ordinal, each group in order and the groups as a set.
func compareStatefulSetActions(want, got []map[string]any, set string, parallel bool) string {
	if !parallel {
		return sameActionList(want, got, "")
	}
	split := func(l []map[string]any) ([]map[string]any, map[int][]map[string]any) {
		var head []map[string]any
		groups := map[int][]map[string]any{}
		for _, a := range l {
			op, _ := a["op"].(string)
			if op == "adopt-pod" || op == "release-pod" {
				head = append(head, a)
				continue
			}
			name, _ := a["name"].(string)
			groups[nameOrdinal(name)] = append(groups[nameOrdinal(name)], a)
		}
		return head, groups
	}
	wh, wg := split(want)
	gh, gg := split(got)
	if d := sameActionList(wh, gh, "adopt/release "); d != "" {
		return d
	}
	var ords []int
	for o := range wg {
		ords = append(ords, o)
	}
	for o := range gg {
		if _, ok := wg[o]; !ok {
			ords = append(ords, o)
		}
	}
	sort.Ints(ords)
	for _, o := range ords {
		if d := sameActionList(wg[o], gg[o], fmt.Sprintf("ordinal %d ", o)); d != "" {
			return d
		}
	}
	return ""
}

func nameOrdinal(name string) int {
	i := strings.LastIndexByte(name, '-')
	n := 0
	if i < 0 || i == len(name)-1 {
		return -1
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func sameActionList(want, got []map[string]any, what string) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%s%d actions, want %d", what, len(got), len(want))
	}
	for i := range want {
		w, g := toGeneric(want[i]), toGeneric(got[i])
		if d := SameJSON(w, g, fmt.Sprintf("%s[%d]", what, i)); d != "" {
			return d
		}
		// SameJSON treats absent and empty alike; the op and name must
		// be there.
		if !reflect.DeepEqual(want[i]["op"], got[i]["op"]) {
			return fmt.Sprintf("%s[%d].op", what, i)
		}
	}
	return ""
}
