package preemption

import (
	"time"

	"github.com/podsem/podsem/scheduling"
)

// defaultPreemption is the DefaultPreemption plugin as the scheduling
// loop's PostFilter.
type defaultPreemption struct{ cfg Config }

// New returns kube-scheduler's DefaultPreemption PostFilter plugin with
// configuration cfg (its zero value is v1.36.3's DefaultPreemptionArgs),
// to plug into a scheduling.Loop as LoopConfig.PostFilter, as upstream's
// default profile plugs it into the framework:
//
//	post, err := preemption.New(preemption.Config{MinCandidateNodesPercentage: 100})
//	...
//	l, err := scheduling.NewLoop(c, scheduling.LoopConfig{PostFilter: post}, start)
//
// A cfg that kube-scheduler's configuration validation would refuse is
// refused (see Config.Validate), with a nil PostFilter.
//
// Each call runs Preempt on the loop's cycle and decision with the
// PodDisruptionBudgets the loop's snapshot holds
// (Cluster.PodDisruptionBudgets) and the loop's clock, and answers as the
// plugin does: Success with the nominated node, the victims and the
// lower-priority nominations to clear; Unschedulable with the
// "preemption: ..." message when no node helps (the nomination is then
// cleared) or when the pod may not preempt (the nomination is kept); Error
// when the dry run failed. As v1.36.3's asynchronous preemption
// (SchedulerAsyncPreemption) does, when every victim is already
// terminating nothing is deleted and no nomination is cleared.
func New(cfg Config) (scheduling.PostFilter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return defaultPreemption{cfg: cfg}, nil
}

// NewLoop returns kube-scheduler v1.36.3's scheduling loop as it ships:
// the default profile, with DefaultPreemption (default arguments) as its
// PostFilter and the default queue, over the snapshot c from start (see
// scheduling.NewLoop).
func NewLoop(c *scheduling.Cluster, start time.Time) (*scheduling.Loop, error) {
	return scheduling.NewLoop(c, scheduling.LoopConfig{PostFilter: defaultPreemption{}}, start)
}

// PostFilter runs DefaultPreemption for the loop (see New).
func (p defaultPreemption) PostFilter(cy *scheduling.Cycle, d *scheduling.Decision, now time.Time) scheduling.PostFilterResult {
	var c *scheduling.Cluster
	if cy != nil {
		c = cy.Cluster()
	}
	return Preempt(cy, d, c.PodDisruptionBudgets(), p.cfg, now).postFilterResult()
}

// postFilterResult is the result as the plugin hands it to the framework.
func (r Result) postFilterResult() scheduling.PostFilterResult {
	out := scheduling.PostFilterResult{Message: r.Message, Err: r.Err}
	switch {
	case r.Err != nil:
		out.Code = scheduling.Error
	case r.Nomination == NominationKeep:
		out.Code = scheduling.Unschedulable
	case r.Nomination == NominationClear:
		out.Code, out.Nominate = scheduling.Unschedulable, true
	default:
		out.Code, out.Nominate, out.NominatedNodeName = scheduling.Success, true, r.Node
		out.Victims = r.Victims
		if len(r.Deleted) > 0 {
			out.ClearNominations = r.ClearedNominations
		}
	}
	return out
}
