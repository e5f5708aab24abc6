package workloads

import (
	"bytes"
	"fmt"
	"maps"

	"github.com/podsem/podsem/api"
)

// DaemonSetRevisionData is the Data of the ControllerRevision the
// DaemonSet controller records for ds's pod template
// (pkg/controller/daemon getPatch): the JSON strategic merge patch
//
//	{"spec":{"template":{"$patch":"replace", ...the template...}}}
//
// written as StatefulSetRevisionData writes a StatefulSet's: compact, keys
// sorted, with the members the apps/v1 types write even when empty. The
// controller compares these bytes, not the templates, to find the current
// revision. A nil DaemonSet is an error wrapping api.ErrInvalidInput.
func DaemonSetRevisionData(ds *api.DaemonSet) ([]byte, error) {
	if ds == nil {
		return nil, fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	data, err := templateRevisionData(&ds.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("%w: daemonset %s/%s: spec.template: %v", errInvalidInput, ds.Namespace, ds.Name, err)
	}
	return data, nil
}

// NewDaemonSetRevision is the ControllerRevision the DaemonSet controller
// creates for ds's current template (pkg/controller/daemon snapshot): in
// ds's namespace, named "<ds name>-<hash>" with hash =
// DaemonSetRevisionHash(ds) (the template hash with status.collisionCount),
// labelled with the template's labels plus controller-revision-hash =
// hash, annotated with ds's annotations, controlled by ds (apps/v1
// DaemonSet), carrying DaemonSetRevisionData and the given revision
// number. Nothing of it aliases ds. A nil DaemonSet is an error wrapping
// api.ErrInvalidInput.
func NewDaemonSetRevision(ds *api.DaemonSet, revision int64) (*api.ControllerRevision, error) {
	data, err := DaemonSetRevisionData(ds)
	if err != nil {
		return nil, err
	}
	hash, err := DaemonSetRevisionHash(ds)
	if err != nil {
		return nil, err
	}
	labels := make(map[string]string, len(ds.Spec.Template.Labels)+1)
	maps.Copy(labels, ds.Spec.Template.Labels)
	labels[api.LabelControllerRevisionHash] = hash
	return &api.ControllerRevision{
		TypeMeta: api.TypeMeta{Kind: "ControllerRevision", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{
			Name:            ds.Name + "-" + hash,
			Namespace:       ds.Namespace,
			Labels:          labels,
			Annotations:     maps.Clone(ds.Annotations),
			OwnerReferences: []api.OwnerReference{NewControllerRef(&ds.ObjectMeta, "apps/v1", "DaemonSet")},
		},
		Data:     data,
		Revision: revision,
	}, nil
}

// constructHistory is the controller's constructHistory: claim the
// namespace's ControllerRevisions, label the ones without a hash, find
// the one that restores the template (dedupCurHistories when several do,
// snapshot when none does) and number it above the rest. It fills the
// sync's revision writes, relabels and current revision, and returns the
// revisions that are not current; ok is false when the sync stops here (a
// hash collision: the collision count is bumped in the status and the
// sync fails, to be retried with the new hash).
func (s *daemonSync) constructHistory(selector api.Selector, revs []*api.ControllerRevision) (old []*api.ControllerRevision, ok bool, err error) {
	ds := s.ds
	data, err := DaemonSetRevisionData(ds)
	if err != nil {
		return nil, false, err
	}
	act := func(kind ControllerRevisionActionKind, r *api.ControllerRevision) {
		s.out.RevisionActions = append(s.out.RevisionActions, ControllerRevisionAction{Kind: kind, Revision: r})
	}
	// controlledHistories: every revision of the namespace, claimed by
	// the selector (ClaimControllerRevisions).
	taken := map[string]*api.ControllerRevision{}
	var claimed []*api.ControllerRevision
	for _, r := range revs {
		if r == nil || r.Namespace != ds.Namespace {
			continue
		}
		taken[r.Name] = r
		switch ClaimObject(&ds.ObjectMeta, &r.ObjectMeta, selector.Matches(api.Set(r.Labels))) {
		case ClaimOwned:
			claimed = append(claimed, r)
		case ClaimAdopt:
			c := *r
			c.OwnerReferences = AdoptOwnerReferences(r.OwnerReferences, NewControllerRef(&ds.ObjectMeta, "apps/v1", "DaemonSet"))
			act(RevisionAdopt, &c)
			claimed = append(claimed, &c)
		case ClaimRelease:
			c := *r
			c.OwnerReferences = ReleaseOwnerReferences(r.OwnerReferences, ds.UID)
			act(RevisionRelease, &c)
		}
	}
	var current []*api.ControllerRevision
	for _, r := range claimed {
		if _, has := r.Labels[api.LabelControllerRevisionHash]; !has {
			// The name stands in for the hash: no collision to fear.
			c := *r
			c.Labels = make(map[string]string, len(r.Labels)+1)
			maps.Copy(c.Labels, r.Labels)
			c.Labels[api.LabelControllerRevisionHash] = r.Name
			act(RevisionUpdate, &c)
			r = &c
		}
		if bytes.Equal(r.Data, data) {
			current = append(current, r)
		} else {
			old = append(old, r)
		}
	}
	next := nextRevisionNumber(old)
	var cur *api.ControllerRevision
	switch len(current) {
	case 0:
		cand, err := NewDaemonSetRevision(ds, next)
		if err != nil {
			return nil, false, err
		}
		switch have := taken[cand.Name]; {
		case have == nil:
			act(RevisionCreate, cand)
			cur = cand
		case bytes.Equal(have.Data, data):
			cur = have // created already, under another owner or labels
		default:
			// A hash collision: bump status.collisionCount and fail; the
			// next sync hashes with the new count.
			st := ds.Status
			n := int32(1)
			if st.CollisionCount != nil {
				n = *st.CollisionCount + 1
			}
			st.CollisionCount = &n
			s.out.Status, s.out.StatusUpdated = st, true
			s.out.Err = fmt.Errorf("failed to construct revisions of DaemonSet: controllerrevisions.apps %q already exists", cand.Name)
			return nil, false, nil
		}
	default:
		cur = s.dedupCurrent(current)
		if cur.Revision < next {
			c := *cur
			c.Revision = next
			act(RevisionUpdate, &c)
			cur = &c
		}
	}
	s.out.CurrentRevision = cur
	s.hash = cur.Labels[api.LabelControllerRevisionHash]
	return old, true, nil
}

// dedupCurrent is dedupCurHistories: of several revisions restoring the
// template, keep the highest-numbered (the last of equal ones), move the
// claimed pods onto its hash and delete the others.
func (s *daemonSync) dedupCurrent(current []*api.ControllerRevision) *api.ControllerRevision {
	keep := current[0]
	for _, r := range current[1:] {
		if r.Revision >= keep.Revision {
			keep = r
		}
	}
	if len(current) == 1 {
		return keep
	}
	hash := keep.Labels[api.LabelControllerRevisionHash]
	for _, p := range s.claimed {
		if p.Labels[api.LabelControllerRevisionHash] != hash {
			q := *p
			q.Labels = make(map[string]string, len(p.Labels)+1)
			maps.Copy(q.Labels, p.Labels)
			q.Labels[api.LabelControllerRevisionHash] = hash
			s.out.Relabel = append(s.out.Relabel, &q)
		}
	}
	for _, r := range current {
		if r.Name != keep.Name {
			s.out.RevisionActions = append(s.out.RevisionActions, ControllerRevisionAction{Kind: RevisionDelete, Revision: r})
		}
	}
	return keep
}

// cleanupHistory is the controller's cleanupHistory: when old holds more
// than revisionHistoryLimit revisions, delete the excess oldest first,
// skipping the revisions a daemon pod still carries the hash of (those
// count toward the excess but are kept).
func (s *daemonSync) cleanupHistory(old []*api.ControllerRevision) {
	live := func(r *api.ControllerRevision) bool {
		h := r.Labels[api.LabelControllerRevisionHash]
		return h != "" && s.liveHashes[h]
	}
	for _, r := range revisionsToPrune(old, live, len(old)-revisionHistoryLimit(s.ds.Spec.RevisionHistoryLimit)) {
		s.out.RevisionActions = append(s.out.RevisionActions, ControllerRevisionAction{Kind: RevisionDelete, Revision: r})
	}
}
