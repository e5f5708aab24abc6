package cluster

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// The drain's timing, as kubectl drain v1.36.3 runs with its default
// flags (k8s.io/kubectl/pkg/drain): a 429 is retried after
// EvictErrorRetryDelay, and the wait for an evicted pod's deletion polls
// the API server every second, the first time at once.
const (
	DrainEvictRetryDelay = 5 * time.Second
	DrainPollInterval    = time.Second
)

// componentDrain is the component of the drain's records, as the e2e
// harness names it.
const componentDrain = "kubectl-drain"

// drainPodState is where one pod of a drain is: kubectl runs one
// goroutine per pod that evicts (retrying a 429), then waits for the pod
// to be gone.
type drainPodState uint8

const (
	drainEvicting drainPodState = iota + 1
	drainWaiting
	drainDone
)

type drainPod struct {
	namespace, name, uid string
	state                drainPodState
	next                 time.Time // the next eviction attempt or poll
	// inFlight is set while the API server retries the eviction request
	// after a conflict on the budget (disruption.EvictionConflictRetry):
	// kubectl is still waiting for the answer.
	inFlight bool
	err      error
}

// drainRun is one `kubectl drain` in progress.
type drainRun struct {
	node     string
	opts     DrainOptions
	deadline time.Time // the global timeout; zero when none
	pods     []*drainPod
	errs     []string // in the order the pods finished
	done     bool
	// timedOut is set once the global timeout has passed: the waits for
	// deletion end at once, an eviction ends at its next attempt (kubectl
	// sleeps out its retry delay before it looks at the timeout).
	timedOut bool
}

// startDrain runs kubectl drain's first part at now: cordon, list and
// filter the node's pods (disruption.PlanDrain), report a refusal or the
// warnings, then start evicting every pod to delete, in list order.
func (m *Machine) startDrain(a Action, now time.Time) error {
	if a.Drain.DisableEviction {
		return fmt.Errorf("cluster: drain --disable-eviction: %w (NEXT.md)", errors.ErrUnsupported)
	}
	node := a.Node
	nodeRef := "Node/" + node
	if m.store.get("Node", node) == nil {
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, fmt.Sprintf("nodes %q not found", node))
		return nil
	}
	if err := m.cordon(node, true); err != nil {
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, err.Error())
		return nil
	}
	m.rec.note(now, componentDrain, "Normal", "Cordoned", nodeRef, "node/"+node+" cordoned")
	var dss []*api.DaemonSet
	for _, o := range m.store.list("DaemonSet") {
		dss = append(dss, o.(*api.DaemonSet))
	}
	plan := callPure5(m, "disruption.PlanDrain", disruption.PlanDrain, node, m.store.podsOnNode(node), dss, disruption.DrainFlags{
		Force: a.Drain.Force, IgnoreAllDaemonSets: a.Drain.IgnoreDaemonSets, DeleteEmptyDirData: a.Drain.DeleteEmptyDirData,
	}, now)
	if plan.ListError != nil {
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, plan.ListError.Error())
		return nil
	}
	if len(plan.Errors) > 0 {
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, "cannot delete: "+strings.Join(plan.Errors, "; "))
		return nil
	}
	if len(plan.Warnings) > 0 {
		m.rec.note(now, componentDrain, "Warning", "Warning", nodeRef, strings.Join(plan.Warnings, "; "))
	}
	d := &drainRun{node: node, opts: a.Drain}
	if a.Drain.Timeout > 0 {
		d.deadline = now.Add(a.Drain.Timeout)
	}
	for _, p := range plan.ToDelete() {
		d.pods = append(d.pods, &drainPod{namespace: p.Namespace, name: p.Name, uid: p.UID, state: drainEvicting, next: now})
	}
	m.drains = append(m.drains, d)
	return m.stepDrain(d, now)
}

// nextDeadline is the drain's earliest pending attempt, poll or timeout.
func (d *drainRun) nextDeadline() time.Time {
	if d.done {
		return time.Time{}
	}
	var t time.Time
	if !d.timedOut {
		t = d.deadline
	}
	for _, p := range d.pods {
		if p.state != drainDone {
			t = api.EarliestDeadline(t, p.next)
		}
	}
	return t
}

// stepDrain runs every pod whose attempt or poll is due, then finishes
// the drain when no pod is left: Drained, or DrainFailed with kubectl's
// aggregate of the pods' errors.
func (m *Machine) stepDrain(d *drainRun, now time.Time) error {
	if d.done {
		return nil
	}
	timedOut := !d.deadline.IsZero() && !now.Before(d.deadline)
	d.timedOut = timedOut
	for _, p := range d.pods {
		if p.state == drainDone || p.next.After(now) && !(timedOut && p.state == drainWaiting) {
			continue
		}
		if err := m.stepDrainPod(d, p, timedOut, now); err != nil {
			return err
		}
	}
	for _, p := range d.pods {
		if p.state != drainDone {
			return nil
		}
	}
	d.done = true
	nodeRef := "Node/" + d.node
	switch len(d.errs) {
	case 0:
		m.rec.note(now, componentDrain, "Normal", "Drained", nodeRef, "node/"+d.node+" drained")
	case 1:
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, d.errs[0])
	default:
		m.rec.note(now, componentDrain, "Warning", "DrainFailed", nodeRef, "["+strings.Join(d.errs, ", ")+"]")
	}
	return nil
}

func (m *Machine) finishDrainPod(d *drainRun, p *drainPod, err string) {
	p.state = drainDone
	if err != "" {
		d.errs = append(d.errs, err)
	}
}

// stepDrainPod is one turn of kubectl's per-pod goroutine.
func (m *Machine) stepDrainPod(d *drainRun, p *drainPod, timedOut bool, now time.Time) error {
	podRef := objRef("Pod", p.namespace, p.name)
	switch p.state {
	case drainEvicting:
		retry := p.inFlight
		p.inFlight = false
		if !retry {
			m.rec.line(now, "Normal", "Evicting", podRef, fmt.Sprintf("evicting pod %s/%s", p.namespace, p.name))
		}
		if timedOut && !retry {
			m.finishDrainPod(d, p, fmt.Sprintf("error when evicting pods/%q -n %q: global timeout reached: %v", p.name, p.namespace, d.opts.Timeout))
			return nil
		}
		var opts *api.DeleteOptions
		if g := d.opts.GracePeriodSeconds; g != nil && *g >= 0 {
			opts = &api.DeleteOptions{GracePeriodSeconds: g}
		}
		dec, conflict, err := m.evict(p.namespace, p.name, opts, retry, now)
		if err != nil {
			return err
		}
		switch {
		case conflict:
			p.inFlight = true
			p.next = now.Add(disruption.EvictionConflictRetry)
		case dec.Allowed:
			// The wait for deletion polls at once: the pod is still
			// there at this instant (the kubelet has not yet reacted).
			p.state = drainWaiting
			if m.drainPodGone(p) {
				m.drainPodEvicted(d, p, now)
				return nil
			}
			p.next = now.Add(DrainPollInterval)
		case dec.Code == 404:
			m.finishDrainPod(d, p, "")
		case dec.Code == 429:
			m.rec.add(now, Record{Component: "kube-apiserver", Type: api.EventTypeWarning, Reason: "EvictionRefused", Object: podRef,
				Message: fmt.Sprintf("budget %s/%s: %s", p.namespace, dec.Budget, dec.Message), Source: SourcePodsem})
			m.rec.line(now, "Warning", "EvictionRetry", podRef,
				fmt.Sprintf("error when evicting pods/%q -n %q (will retry after %v): %s", p.name, p.namespace, DrainEvictRetryDelay, dec.Message))
			p.next = now.Add(DrainEvictRetryDelay)
		default:
			m.finishDrainPod(d, p, fmt.Sprintf("error when evicting pods/%q -n %q: %s", p.name, p.namespace, dec.Message))
		}
	case drainWaiting:
		if m.drainPodGone(p) {
			m.drainPodEvicted(d, p, now)
			return nil
		}
		if timedOut {
			m.finishDrainPod(d, p, fmt.Sprintf("error when waiting for pod %q in namespace %q to terminate: context deadline exceeded", p.name, p.namespace))
			return nil
		}
		p.next = now.Add(DrainPollInterval)
	}
	return nil
}

// drainPodGone is the wait's test: the pod is not found, or a pod of
// another uid has its name.
func (m *Machine) drainPodGone(p *drainPod) bool {
	cur, _ := m.store.get("Pod", p.namespace+"/"+p.name).(*api.Pod)
	return cur == nil || cur.UID != p.uid
}

// drainPodEvicted records the harness's line for a pod the drain saw go.
func (m *Machine) drainPodEvicted(d *drainRun, p *drainPod, now time.Time) {
	m.rec.note(now, componentDrain, "Normal", "Evicted", objRef("Pod", p.namespace, p.name), fmt.Sprintf("pod/%s evicted (gone)", p.name))
	m.finishDrainPod(d, p, "")
}

// runDrains steps every drain in progress whose next turn has come, in
// the order the drains started.
func (m *Machine) runDrains(now time.Time) error {
	for _, d := range m.drains {
		if t := d.nextDeadline(); !t.IsZero() && !t.After(now) {
			if err := m.stepDrain(d, now); err != nil {
				return err
			}
		}
	}
	return nil
}
