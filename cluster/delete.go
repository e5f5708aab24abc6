package cluster

import (
	"time"

	"github.com/podsem/podsem/api"
)

// deleteAction is the scenario's delete action: a DELETE of Action.Ref
// with Action.DeleteOptions, or, without options, as the harness deletes
// (deleteObject: background propagation, the object's own grace period).
// Options that name no propagation policy take kubectl delete's
// (background), except for a pod, whose registry default is the same.
func (m *Machine) deleteAction(a Action, now time.Time) error {
	if a.DeleteOptions == nil {
		return m.deleteObject(a.Ref, now)
	}
	opts := *a.DeleteOptions
	if opts.PropagationPolicy == nil && opts.OrphanDependents == nil && a.Ref.Kind != "Pod" {
		bg := api.DeletePropagationBackground
		opts.PropagationPolicy = &bg
	}
	return m.deleteWithOptions(a.Ref.Kind, a.Ref.key(), &opts, now)
}
