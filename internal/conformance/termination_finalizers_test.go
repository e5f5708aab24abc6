package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/termination"
)

func init() {
	register("termination.delete-finalizers", runDeleteFinalizers)
}

func runDeleteFinalizers(input, want json.RawMessage) error {
	var in struct {
		Pod api.Pod `json:"pod"`
		Ops []struct {
			Op                 string   `json:"op"`
			AtSeconds          int64    `json:"at_seconds"`
			GracePeriodSeconds *int64   `json:"gracePeriodSeconds"`
			PropagationPolicy  *string  `json:"propagationPolicy"`
			OrphanDependents   *bool    `json:"orphanDependents"`
			NoOptions          bool     `json:"no_options"`
			Finalizers         []string `json:"finalizers"`
		} `json:"ops"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	type object struct {
		DeletionTimestamp          *time.Time `json:"deletionTimestamp"`
		DeletionGracePeriodSeconds *int64     `json:"deletionGracePeriodSeconds"`
		Finalizers                 []string   `json:"finalizers"`
		Generation                 int64      `json:"generation"`
	}
	type step struct {
		Error       bool    `json:"error"`
		ErrorReason string  `json:"error_reason"`
		ErrorCode   int     `json:"error_code"`
		DeletedNow  *bool   `json:"deleted_now"`
		Returned    string  `json:"returned"`
		Exists      bool    `json:"exists"`
		Object      *object `json:"object"`
	}
	var w struct {
		Steps []step `json:"steps"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	base := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	pod := &in.Pod
	var got []step
	for _, op := range in.Ops {
		now := base.Add(time.Duration(op.AtSeconds) * time.Second)
		var s step
		switch op.Op {
		case "delete":
			opts := &api.DeleteOptions{GracePeriodSeconds: op.GracePeriodSeconds, PropagationPolicy: op.PropagationPolicy, OrphanDependents: op.OrphanDependents}
			if op.NoOptions {
				// A DELETE handed to the registry without options is one
				// with gracePeriodSeconds 0.
				zero := int64(0)
				opts = &api.DeleteOptions{GracePeriodSeconds: &zero}
			}
			d, err := termination.APIServerGrace(pod, opts, now)
			if err != nil {
				s.Error = true
				s.ErrorReason, s.ErrorCode = "Invalid", 422
			} else {
				removed := d.Immediate
				s.DeletedNow, s.Returned = &removed, "Pod"
				pod = d.Apply(pod)
			}
		case "update-finalizers":
			u, err := termination.UpdateFinalizers(pod, op.Finalizers)
			if err != nil {
				var ae *admission.Error
				if !errors.As(err, &ae) {
					return fmt.Errorf("update-finalizers: %v", err)
				}
				s.Error, s.ErrorReason, s.ErrorCode = true, ae.Reason, 422
			} else {
				pod = u.Pod
			}
		default:
			return fmt.Errorf("unknown op %q", op.Op)
		}
		s.Exists = pod != nil
		if pod != nil {
			o := &object{DeletionGracePeriodSeconds: pod.DeletionGracePeriodSeconds, Finalizers: slices.Clone(pod.Finalizers), Generation: pod.Generation}
			if o.Finalizers == nil {
				o.Finalizers = []string{}
			}
			if pod.DeletionTimestamp != nil {
				t := pod.DeletionTimestamp.Time
				o.DeletionTimestamp = &t
			}
			s.Object = o
		}
		got = append(got, s)
		if pod == nil {
			break
		}
	}
	if len(got) != len(w.Steps) {
		return Mismatch("steps", len(w.Steps), len(got))
	}
	for i := range got {
		g, e := got[i], w.Steps[i]
		if e.Object != nil && e.Object.Finalizers == nil {
			e.Object.Finalizers = []string{}
		}
		if g.Error != e.Error || g.ErrorReason != e.ErrorReason || g.ErrorCode != e.ErrorCode ||
			(g.DeletedNow == nil) != (e.DeletedNow == nil) || g.DeletedNow != nil && *g.DeletedNow != *e.DeletedNow ||
			g.Returned != e.Returned || g.Exists != e.Exists || (g.Object == nil) != (e.Object == nil) {
			return Mismatch(fmt.Sprintf("steps[%d]", i), e, g)
		}
		if g.Object != nil {
			ge, ee := g.Object, e.Object
			if !timesEqual(ge.DeletionTimestamp, ee.DeletionTimestamp) || !termSameInt64Ptr(ge.DeletionGracePeriodSeconds, ee.DeletionGracePeriodSeconds) ||
				!slices.Equal(ge.Finalizers, ee.Finalizers) || ge.Generation != ee.Generation {
				return Mismatch(fmt.Sprintf("steps[%d].object", i), *ee, *ge)
			}
		}
	}
	return nil
}

func timesEqual(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}
