package workloads

import (
	"encoding/json"
	"slices"

	"github.com/podsem/podsem/api"
)

// The history rules the StatefulSet and DaemonSet controllers share
// (pkg/controller/history and the two controllers' history code): how a
// revision of the pod template is written, numbered, found again and
// pruned.

// defaultRevisionHistoryLimit is apps/v1's default spec.revisionHistoryLimit
// of a StatefulSet and a DaemonSet, used when the field is unset.
const defaultRevisionHistoryLimit = 10

// revisionHistoryLimit is spec.revisionHistoryLimit, defaulted.
func revisionHistoryLimit(limit *int32) int {
	if limit == nil {
		return defaultRevisionHistoryLimit
	}
	return int(*limit)
}

// templateRevisionData is the Data both controllers record for a pod
// template: the strategic merge patch {"spec":{"template":{"$patch":
// "replace", ...}}} that restores it, as upstream's getPatch writes it
// (see StatefulSetRevisionData).
func templateRevisionData(tmpl *api.PodTemplateSpec) ([]byte, error) {
	m, err := v1Template(tmpl)
	if err != nil {
		return nil, err
	}
	m["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": m}})
}

// nextRevisionNumber is the number a new (or renumbered) current revision
// gets: one more than the highest among revs, 1 for none.
func nextRevisionNumber(revs []*api.ControllerRevision) int64 {
	var top int64
	for _, r := range revs {
		top = max(top, r.Revision)
	}
	return top + 1
}

// splitRevisions separates the revisions that restore the current
// template (equal, by the controller's own comparison) from the others,
// each in the order given.
func splitRevisions(revs []*api.ControllerRevision, equal func(*api.ControllerRevision) bool) (same, other []*api.ControllerRevision) {
	for _, r := range revs {
		if equal(r) {
			same = append(same, r)
		} else {
			other = append(other, r)
		}
	}
	return same, other
}

// revisionsToPrune picks the history to delete: up to n revisions of revs
// that are not live, oldest first (sortRevisions' order: revision number,
// then creation time, then name). revs is not modified.
func revisionsToPrune(revs []*api.ControllerRevision, live func(*api.ControllerRevision) bool, n int) []*api.ControllerRevision {
	if n <= 0 {
		return nil
	}
	sorted := slices.Clone(revs)
	sortRevisions(sorted)
	var out []*api.ControllerRevision
	for _, r := range sorted {
		if len(out) == n {
			break
		}
		if !live(r) {
			out = append(out, r)
		}
	}
	return out
}
