package scheduling

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
)

// LoopConfig is what a Loop runs with: the KubeSchedulerConfiguration
// fields of the queue and the algorithm, and the profile's PostFilter
// plugin. Its zero value is v1.36.3's defaults without a PostFilter
// plugin; the default profile's PostFilter, DefaultPreemption, is in
// package preemption (preemption.New, or preemption.NewLoop for the whole
// default profile), which this package does not import.
type LoopConfig struct {
	// Queue is the scheduling queue's timing (backoff, the unschedulable
	// pool's flush).
	Queue QueueConfig
	// PercentageOfNodesToScore is the KubeSchedulerConfiguration field
	// (see Scheduler); 0 means adaptive.
	PercentageOfNodesToScore int32
	// PostFilter is the profile's PostFilter plugin, called when a pod
	// fits nowhere; nil means none (no preemption). DynamicResources'
	// PostFilter, part of every profile here, runs before it, and when
	// it fails (an earlier PreFilter rejected the pod as
	// UnschedulableAndUnresolvable, so DynamicResources' PreFilter never
	// ran: the message ends in "not found") this one is not called.
	PostFilter PostFilter
	// SchedulerName is the profile's schedulerName: the loop schedules
	// the pods whose spec.schedulerName is this or unset. "" means
	// "default-scheduler".
	SchedulerName string
}

// Loop is kube-scheduler's scheduling loop (pkg/scheduler's
// Scheduler.ScheduleOne with its cache, scheduling queue and event
// handlers, one profile) as a pure state machine: the caller feeds it the
// informer events and the passing of time through Step, and gets back the
// API calls the scheduler would make, as Actions. It performs nothing
// itself and never reads the clock.
//
// Like upstream's scheduler it owns its snapshot (Cluster, the cache) and
// its Queue: after NewLoop, change them only through Step. Cluster and
// Queue stay readable (Explain, WhatIf, State) between steps.
//
// A Tick runs one scheduling attempt, as one turn of ScheduleOne does (at
// most one per Tick: while more pods are ready, NextDeadline is the
// current time):
//
//  1. pop the next pod from the queue (nothing to pop: nothing happens;
//     a pod being deleted is not tried, only a FailedScheduling event is
//     recorded);
//  2. decide (Scheduler.ScheduleOne: the nominated node first, the node
//     tree from a rotating start index, numFeasibleNodesToFind, every
//     filter and score, selectHost);
//  3. a pod that fits is bound: the loop assumes the binding in its
//     snapshot at once (the cache's AssumePod) and asks for ActionBind.
//     The pod leaves the queue. When its binding waits in VolumeBinding's
//     PreBind (the action's Volumes has Claims), the loop remembers it
//     until the pod informer reports it bound (PodUpdated with
//     spec.nodeName) or the caller reports the binding failed
//     (BindFailed: the assumed pod is forgotten, which moves the pods an
//     assigned pod's deletion moves; it comes back to the queue with its
//     counts and backs off after the error; its nomination is cleared;
//     and a SchedulerError ActionFailedScheduling carries the PreBind
//     error);
//  4. a pod that fits nowhere goes to the PostFilter plugin, if any, with
//     the cycle and its decision; its victims become ActionPreempt (those
//     already terminating are left alone), the nominations it clears
//     ActionClearNomination, and its nomination ActionNominate — or, with
//     no PostFilter, or after a cycle that failed with an error, a stale
//     status.nominatedNodeName is cleared (ActionClearNomination);
//  5. a pod that was not bound goes back to the queue (the unschedulable
//     pool after a rejection, backoff after an error) and gets
//     ActionFailedScheduling: the PodScheduled=False condition (reason
//     Unschedulable, or SchedulerError after an error) with the FitError
//     message, the PostFilter plugins' message appended, as the
//     FailedScheduling event says it (postFilterMessage: DynamicResources'
//     PostFilter runs before the configured one, as in v1.36.3's default
//     profile).
//
// The loop applies its own writes to its snapshot and queue at once — the
// binding (assumed as the cache assumes it), the nominations it sets and
// clears (as the queue's nominator records them) — so that reporting them
// back as PodUpdated changes nothing in them (the binding's report is, for
// the queue, the assigned pod's addition, as the pod informer's is). It
// does not apply the preemptions:
// a victim keeps counting on its node until the caller reports it
// terminating (PodUpdated, with its deletionTimestamp and the
// DisruptionTarget condition) and then gone (PodDeleted), which is what
// brings the preemptor back from the unschedulable pool; its next attempt
// tries the nominated node first.
//
// The other inputs update the snapshot and the queue as the scheduler's
// event handlers do: a new pending pod is queued (gated while it has
// scheduling gates; pods of another scheduler are only recorded), an
// update refreshes it (ungating it when its gates are gone; other changes
// leave it where it is, as Queue.Update does), a pod bound by someone else
// or deleted leaves the queue; an update that would clear a bound pod's
// spec.nodeName (the API server never allows it: a stale view of a pod the
// loop bound) is ignored. Cluster events move pods
// from the unschedulable pool to backoff or active as v1.36.3's queue
// moves them with SchedulerQueueingHints on: a pod moves when no plugin
// rejected it, or when a plugin that rejected it registered for the event
// (its EventsToRegister) and its queueing hint for the change says Queue.
// A node update is one event per kind of change: labels, taints (or the
// node becoming schedulable), allocatable; conditions, addresses and
// heartbeats move nothing. Every plugin that registers for a node's
// addition but not for a taint change gets the taint change too, with no
// hint (the scheduler's workaround for kubernetes#109437), so a taint
// change brings back, for example, a pod NodeResourcesFit rejected. The
// hints modelled are v1.36.3's:
//   - node events: NodeResourcesFit (the pod fits the node's allocatable
//     alone, and the node is new or an amount it requests grew),
//     NodeAffinity (the node now matches, and did not), NodeUnschedulable
//     (added schedulable, or no longer unschedulable), TaintToleration
//     (its taints now tolerated, and were not), InterPodAffinity (a
//     topology key of a term gained, lost or changed), PodTopologySpread
//     (the node has every topology key of the hard constraints and is new,
//     deleted, or changed in them or in its taints);
//   - an assigned pod added (reported bound, or the loop's own binding
//     once the pod informer shows it) or relabelled: InterPodAffinity (its
//     required affinity terms now all match, or its anti-affinity terms no
//     longer do) and PodTopologySpread (a pod of the namespace its hard
//     constraints select, or whose selection changed);
//   - a bound pod deleted or finished: NodeResourcesFit (always),
//     NodePorts (it held a conflicting host port), InterPodAffinity (it
//     matched all the anti-affinity terms, or its own all match the pod),
//     PodTopologySpread (selected, same namespace), VolumeRestrictions (of
//     the namespace, it held a conflicting disk or used one of the pod's
//     claims), NodeVolumeLimits (it had a claim, an ephemeral volume or a
//     migratable in-tree volume).
//
// The other plugins' hints (DynamicResources, the volume plugins' storage
// and node hints, NodePorts and NodeName for a node added) are not
// modelled and say Queue; a storage object set or deleted moves the pods
// the volume plugins rejected, a Namespace those InterPodAffinity
// rejected.
//
// NextDeadline says when the loop must next be ticked. A Loop is not safe
// for concurrent use; a nil *Loop returns an error from Step.
type Loop struct {
	c    *Cluster
	q    *Queue
	s    Scheduler
	post PostFilter
	// name is the profile's schedulerName.
	name string
	d    Decision
	now  time.Time
	// binding holds the pods whose binding waits in PreBind, with the
	// queue entry Done took out (its counts): until the binding is
	// confirmed (the pod informer's update with spec.nodeName) or fails
	// (BindFailed, which puts the entry back).
	binding map[string]*queueEntry
	// assumed holds the pods the loop bound whose binding the pod
	// informer has not shown yet: for the informer that confirmation is
	// the assigned pod's addition (the cluster event the queue then gets),
	// whatever the snapshot already holds.
	assumed map[string]bool
	// keyBuf is the scratch space podKey builds a key to look up in.
	keyBuf []byte
}

// podKey is p's key, namespace/name: the snapshot's own string for a pod
// it holds (looked up without building one: a pod's events, bindings and
// cycles each need its key), else a new one.
func (l *Loop) podKey(p *api.Pod) string {
	l.keyBuf = append(append(append(l.keyBuf[:0], p.Namespace...), '/'), p.Name...)
	if pi := l.c.pods[string(l.keyBuf)]; pi != nil {
		return pi.key
	}
	return string(l.keyBuf)
}

// errNilLoop is what Step on a nil *Loop returns.
var errNilLoop = fmt.Errorf("%w: loop: nil", errInvalidInput)

// NewLoop returns a scheduling loop over the snapshot c, which it owns
// from now on, with configuration cfg, whose clock starts at start (the
// queue's start: see NewQueue). Every pending pod c already holds (no
// spec.nodeName, not Succeeded or Failed, of this scheduler) is queued at
// start, in namespace/name order. A nil c, or a cfg the queue or the
// algorithm rejects (a negative duration, PodMaxBackoff below
// PodInitialBackoff, PercentageOfNodesToScore outside 0..100), is an
// error wrapping api.ErrInvalidInput.
func NewLoop(c *Cluster, cfg LoopConfig, start time.Time) (*Loop, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: cluster: nil", errInvalidInput)
	}
	if p := cfg.PercentageOfNodesToScore; p < 0 || p > 100 {
		return nil, fmt.Errorf("%w: LoopConfig.PercentageOfNodesToScore: %d: not in valid range [0-100]", errInvalidInput, p)
	}
	q, err := NewQueue(cfg.Queue, start)
	if err != nil {
		return nil, err
	}
	l := &Loop{c: c, q: q, s: Scheduler{PercentageOfNodesToScore: cfg.PercentageOfNodesToScore},
		post: cfg.PostFilter, name: cfg.SchedulerName, now: start}
	if l.name == "" {
		l.name = api.DefaultSchedulerName
	}
	keys := make([]string, 0, len(c.pods))
	for key, p := range c.pods {
		if l.queues(p.pod) {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		if err := q.Add(c.pods[key].pod, start); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// queues reports whether the loop queues pod p: pending, not finished,
// and of this scheduler (responsibleForPod).
func (l *Loop) queues(p *api.Pod) bool {
	return p.Spec.NodeName == "" && counted(p) && (p.Spec.SchedulerName == "" || p.Spec.SchedulerName == l.name)
}

// Cluster returns the loop's snapshot, for queries (NewCycle, Explain,
// WhatIf, NodeByName, ...); change it only through Step. Nil for a nil
// Loop.
func (l *Loop) Cluster() *Cluster {
	if l == nil {
		return nil
	}
	return l.c
}

// Queue returns the loop's scheduling queue, for reading (State, Entry,
// Len); change it only through Step. Nil for a nil Loop.
func (l *Loop) Queue() *Queue {
	if l == nil {
		return nil
	}
	return l.q
}

// Scheduler returns the algorithm's state between cycles (its
// NextStartNodeIndex moves with every attempt); the zero value for a nil
// Loop.
func (l *Loop) Scheduler() Scheduler {
	if l == nil {
		return Scheduler{}
	}
	return l.s
}

// NextDeadline returns the earliest time the loop must be stepped with a
// Tick even if no input arrives: the latest time it was stepped at when
// the queue has a pod to hand out now (Queue.NextDeadline), else the next
// backoff expiry or unschedulable-pool flush that makes one available.
// The zero time means never, until an input arrives. A nil Loop has none.
func (l *Loop) NextDeadline() time.Time {
	if l == nil {
		return time.Time{}
	}
	return l.q.NextDeadline()
}

// Step feeds the loop one input at now and returns what it did and what
// the caller is to do (see Loop). A now earlier than the previous step's
// is taken as that time: the loop's clock never runs backwards.
//
// A nil input object, an input of an unknown kind, a pod or node the
// snapshot cannot index (no name, a duplicate), a deletion of an object the
// loop does not hold, or a nil Loop is an error wrapping api.ErrInvalidInput;
// the loop is then unchanged (for a failed update, the snapshot holds the
// object as before the update failed).
func (l *Loop) Step(in Input, now time.Time) (StepResult, error) {
	if l == nil {
		return StepResult{}, errNilLoop
	}
	if now.Before(l.now) {
		now = l.now
	}
	l.now = now
	var err error
	switch in.Kind {
	case InputTick:
		return l.scheduleOne(now), nil
	case InputPodAdded:
		err = l.podAdded(in.Pod, now)
	case InputPodUpdated:
		err = l.podUpdated(in.Pod, now)
	case InputPodDeleted:
		err = l.podDeleted(in.Namespace, in.Name, now)
	case InputNodeAdded:
		err = l.nodeAdded(in.Node, now)
	case InputNodeUpdated:
		err = l.nodeUpdated(in.Node, now)
	case InputNodeDeleted:
		err = l.nodeDeleted(in.Name, now)
	case InputObjectSet:
		if err = l.c.setObject(in.Object); err == nil {
			l.objectChanged(in.Object, now)
		}
	case InputObjectDeleted:
		if err = l.c.removeObject(in.Object); err == nil {
			l.objectChanged(in.Object, now)
		}
	case InputBindFailed:
		return l.bindFailed(in.Pod, in.Message, now)
	default:
		err = fmt.Errorf("%w: input: unknown kind %v", errInvalidInput, in.Kind)
	}
	return StepResult{}, err
}

// scheduleOne is one turn of ScheduleOne at now: pop, decide, then bind
// or handle the failure.
func (l *Loop) scheduleOne(now time.Time) StepResult {
	pod, attempts, ok := l.q.Pop(now)
	if !ok {
		return StepResult{}
	}
	res := StepResult{Pod: pod, Attempts: attempts}
	key := l.podKey(pod)
	if pod.DeletionTimestamp != nil {
		// skipPodSchedule: a pod being deleted is dropped from the queue.
		l.q.Done(key, now)
		res.Actions = []Action{{Kind: ActionFailedScheduling, Pod: pod, Event: l.event(pod, api.EventTypeWarning,
			"FailedScheduling", "Scheduling", "skip schedule deleting pod: "+key)}}
		return res
	}
	cy := l.c.NewCycle(pod)
	d := &l.d
	if _, err := l.s.ScheduleOne(cy, d); err != nil {
		// The snapshot has no node (ErrNoNodesAvailable): the cycle ends
		// before any plugin runs, an UnschedulableAndUnresolvable status
		// without plugins, which the queue backs off as an error.
		res.Message = err.Error()
		reason := api.PodReasonUnschedulable
		if !errors.Is(err, ErrNoNodesAvailable) {
			reason = api.PodReasonSchedulerError
		}
		l.q.FailWithError(key, now)
		res.Actions = l.renominate(res.Actions, pod, true, "")
		res.Actions = append(res.Actions, l.failedScheduling(pod, reason, res.Message))
		return res
	}
	res.Decision = d
	if err := d.filterError(); err != nil {
		res.Message = err.Error()
		l.q.FailWithError(key, now)
		res.Actions = l.renominate(res.Actions, pod, true, "")
		res.Actions = append(res.Actions, l.failedScheduling(pod, api.PodReasonSchedulerError, res.Message))
		return res
	}
	if i, ok := d.Chosen(); ok {
		return l.bind(res, pod, l.c.nodes[i].name, cy.store.volumeBinding.preBind(l.c.nodes[i]), now)
	}
	res.Message = d.Message()
	res.UnschedulablePlugins = d.UnschedulablePlugins()
	// Without a PostFilter plugin the nomination is cleared.
	nominate, nominee := true, ""
	var r *PostFilterResult
	if cy.draStateMissing() {
		// DynamicResources' PostFilter fails first (draStateMissing): no
		// preemption, the nomination kept.
		nominate = false
		res.Message += " " + draStateNotFound
	} else {
		if l.post != nil {
			pr := l.post.PostFilter(cy, d, now)
			r = &pr
			res.PostFilter = r
			nominate, nominee = r.Nominate, r.NominatedNodeName
			res.Actions = l.preempt(res.Actions, pod, r)
		}
		if msg := postFilterMessage(pod, r); msg != "" {
			res.Message += " " + msg
		}
	}
	if len(res.UnschedulablePlugins) == 0 {
		l.q.FailWithError(key, now)
	} else {
		l.q.Fail(key, res.UnschedulablePlugins, now)
	}
	res.Actions = l.renominate(res.Actions, pod, nominate, nominee)
	res.Actions = append(res.Actions, l.failedScheduling(pod, api.PodReasonUnschedulable, res.Message))
	return res
}

// bind assumes pod on node in the snapshot, takes it out of the queue and
// asks for the binding.
func (l *Loop) bind(res StepResult, pod *api.Pod, node string, vols *PreBindVolumes, now time.Time) StepResult {
	key := l.podKey(pod)
	bound := *pod
	bound.Spec.NodeName = node
	if err := l.c.UpdatePod(&bound); err != nil {
		// Every queued pod is in the snapshot; a failed assume is the
		// scheduler's own error, and the pod backs off.
		res.Message = err.Error()
		l.q.FailWithError(key, now)
		res.Actions = append(res.Actions, l.failedScheduling(pod, api.PodReasonSchedulerError, res.Message))
		return res
	}
	e, _ := l.q.takeDone(key, now)
	if vols != nil && len(vols.Claims) > 0 && e != nil {
		// The binding cycle waits in PreBind (after Done, as upstream's
		// binding cycle calls it before PreBind).
		if l.binding == nil {
			l.binding = map[string]*queueEntry{}
		}
		l.binding[key] = e
	}
	res.Node, res.Bound = node, &bound
	res.Actions = append(res.Actions, Action{Kind: ActionBind, Pod: pod, Node: node, Volumes: vols, Event: l.event(pod, api.EventTypeNormal,
		"Scheduled", "Binding", "Successfully assigned "+key+" to "+node)})
	// The binding's confirmation, the pod informer's update that shows
	// it bound, is the assigned pod's addition for the queue.
	if l.assumed == nil {
		l.assumed = map[string]bool{}
	}
	l.assumed[key] = true
	return res
}

// bindFailed is the binding cycle's failure for p, whose binding waited
// in PreBind (handleBindingCycleError): the assumed binding is forgotten
// in the snapshot, which is an assigned pod's deletion for the queue's
// other pods; then the failure handler's work for an error: the pod backs
// off, its nomination is cleared, and the FailedScheduling action carries
// the message with reason SchedulerError. A pod whose binding is not
// waiting (bound meanwhile, deleted, or never waiting) is left as it is,
// as upstream's handler leaves a pod its informer shows bound or gone.
func (l *Loop) bindFailed(p *api.Pod, msg string, now time.Time) (StepResult, error) {
	if p == nil {
		return StepResult{}, fmt.Errorf("%w: BindFailed: pod: nil", errInvalidInput)
	}
	key := p.Key()
	e := l.binding[key]
	if e == nil || p.Spec.NodeName != "" {
		return StepResult{}, nil
	}
	delete(l.binding, key)
	delete(l.assumed, key)
	var assumed *api.Pod
	var assumedInfo *PodInfo
	if pi := l.c.pods[key]; pi != nil {
		assumed, assumedInfo = pi.pod, pi
	}
	if err := l.c.updatePod(key, p); err != nil {
		return StepResult{}, err
	}
	if assumed != nil {
		l.requeueForPod(eventAssignedPodDelete, podChange{old: assumed, oldInfo: assumedInfo}, now)
	}
	res := StepResult{Pod: p, Message: msg}
	l.q.readdAfterError(e, p, now)
	res.Actions = l.renominate(res.Actions, p, true, "")
	res.Actions = append(res.Actions, l.failedScheduling(p, api.PodReasonSchedulerError, msg))
	return res, nil
}

// preempt turns a PostFilter result into actions: the lower-priority
// nominations it clears, then the victims not already terminating, as
// upstream's asynchronous preemption issues them.
func (l *Loop) preempt(out []Action, preemptor *api.Pod, r *PostFilterResult) []Action {
	for _, p := range r.ClearNominations {
		if p != nil && p.Status.NominatedNodeName != "" {
			out = append(out, Action{Kind: ActionClearNomination, Pod: p})
			l.setNomination(p, "")
		}
	}
	if len(r.Victims) == 0 {
		return out
	}
	scheduler := preemptor.Spec.SchedulerName
	if scheduler == "" {
		scheduler = l.name
	}
	for _, v := range r.Victims {
		if v == nil || v.DeletionTimestamp != nil {
			continue
		}
		out = append(out, Action{Kind: ActionPreempt, Pod: v, Node: r.NominatedNodeName, Preemptor: preemptor,
			Condition: &api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue,
				ObservedGeneration: v.Generation, Reason: api.PodReasonPreemptionByScheduler,
				Message: scheduler + ": preempting to accommodate a higher priority pod"},
			DeleteOptions: &api.DeleteOptions{},
			Event: withRelated(l.event(v, api.EventTypeNormal, "Preempted", "Preempting",
				fmt.Sprintf("Preempted by pod %s on node %s", preemptor.UID, r.NominatedNodeName)), preemptor)})
	}
	return out
}

// renominate applies the attempt's nominating info to the failed pod:
// with nominate, its status.nominatedNodeName becomes node when it
// differs (ActionNominate, or ActionClearNomination for "").
func (l *Loop) renominate(out []Action, pod *api.Pod, nominate bool, node string) []Action {
	if !nominate || pod.Status.NominatedNodeName == node {
		return out
	}
	if node == "" {
		out = append(out, Action{Kind: ActionClearNomination, Pod: pod})
	} else {
		out = append(out, Action{Kind: ActionNominate, Pod: pod, Node: node})
	}
	l.setNomination(pod, node)
	return out
}

// setNomination records in the snapshot and the queue that p's
// status.nominatedNodeName is now node, as the scheduler's nominator does
// before the patch comes back.
func (l *Loop) setNomination(p *api.Pod, node string) {
	cur := l.c.pods[l.podKey(p)]
	if cur == nil || cur.pod.Spec.NodeName != "" {
		return
	}
	cp := *cur.pod
	cp.Status.NominatedNodeName = node
	if l.c.UpdatePod(&cp) == nil {
		if _, queued := l.q.entries[cur.key]; queued {
			l.q.Update(&cp, l.now)
		}
	}
}

// failedScheduling is the FailedScheduling action for pod with the
// condition's reason and the message.
func (l *Loop) failedScheduling(pod *api.Pod, reason, msg string) Action {
	return Action{Kind: ActionFailedScheduling, Pod: pod,
		Condition: &api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse,
			ObservedGeneration: pod.Generation, Reason: reason, Message: msg},
		Event: l.event(pod, api.EventTypeWarning, "FailedScheduling", "Scheduling", msg)}
}

// event is the Event the scheduler records about pod: its note cut to
// the Events API's limit, its source the profile's schedulerName.
func (l *Loop) event(pod *api.Pod, typ, reason, action, note string) *api.Event {
	return &api.Event{Type: typ, Reason: reason, Action: action, Note: truncateNote(note),
		Regarding: api.PodReference(pod), Source: l.name}
}

// withRelated sets the event's related object to pod.
func withRelated(e *api.Event, pod *api.Pod) *api.Event {
	ref := api.PodReference(pod)
	e.Related = &ref
	return e
}
