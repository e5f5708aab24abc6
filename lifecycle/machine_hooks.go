package lifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// kubeletSyncPeriod is how soon the kubelet syncs a pod again after a sync
// that recorded a failed start: the Machine takes the kubelet to sync the
// pod every second (its sync loop ticks every second), as the crash-loop
// conformance vectors do.
const kubeletSyncPeriod = time.Second

// reasonEntry is the kubelet's reason cache entry for one container
// (pkg/kubelet ReasonCache): why its latest start attempt failed, e.g.
// CrashLoopBackOff with "back-off 10s restarting failed container=...".
// The zero value is no entry.
type reasonEntry struct{ reason, message string }

// commitReasons begins a sync. The kubelet generates the status it reports
// (generateAPIPodStatus) before it syncs the containers, and the sync's
// start results update the reason cache only afterwards: a container the
// back-off held at one sync shows CrashLoopBackOff from the next one on, and
// keeps showing it until a start succeeds. So a sync renders the reasons
// the previous one left.
func (m *Machine) commitReasons() {
	m.eachContainer(func(c *mcontainer) { c.reason = c.nextReason })
}

// recordReason records in the reason cache the failed start of c, with
// the event upstream records for that failure when the entry is new.
func (m *Machine) recordReason(c *mcontainer, r reasonEntry, eventType string, acts *[]Action) {
	if c.nextReason == r {
		return
	}
	c.nextReason = r
	m.record(c, eventType, r.reason, r.message, acts)
}

// holdBack records that the crash-loop back-off of delay holds c's restart
// (kuberuntime doBackOff): the start fails with CrashLoopBackOff, and the
// kubelet records the Warning event BackOff.
func (m *Machine) holdBack(c *mcontainer, delay time.Duration, acts *[]Action) {
	r := reasonEntry{CrashLoopBackOff,
		"back-off " + delay.String() + " restarting failed container=" + c.spec.Name + " pod=" + podRef(&m.pod)}
	if c.nextReason == r {
		return
	}
	c.nextReason = r
	m.record(c, api.EventTypeWarning, "BackOff",
		"Back-off restarting failed container "+c.spec.Name+" in pod "+podRef(&m.pod), acts)
}

// podRef names the pod as the kubelet's messages do (format.Pod):
// name_namespace(uid).
func podRef(pod *api.Pod) string {
	return pod.Name + "_" + pod.Namespace + "(" + pod.UID + ")"
}

// record asks for a Kubernetes Event about the pod (c nil) or container c.
func (m *Machine) record(c *mcontainer, eventType, reason, message string, acts *[]Action) {
	ev := &api.Event{Type: eventType, Reason: reason, Note: message, Regarding: api.PodReference(&m.pod), Source: "kubelet"}
	a := Action{Kind: ActionRecordEvent, Reason: reason, Event: ev}
	if c != nil {
		a.Container = c.spec.Name
		ev.Regarding = api.ContainerReference(&m.pod, c.spec.Name)
	}
	*acts = append(*acts, a)
}

// wakeForReasons asks to be stepped at the kubelet's next sync when this
// sync recorded a reason the status does not show yet. A container still
// running (being killed after a failed probe, its restart already held
// back) needs no wake: its exit is an event, and the status shows the
// reason from then on.
func (m *Machine) wakeForReasons(now time.Time, acts *[]Action) {
	pending := false
	m.eachContainer(func(c *mcontainer) {
		if c.nextReason != c.reason && c.nextReason.reason != "" && c.state != runRunning {
			pending = true
		}
	})
	if !pending {
		return
	}
	at := now.Add(kubeletSyncPeriod)
	m.wake(at)
	if !m.syncWake.Equal(at) {
		m.syncWake = at
		*acts = append(*acts, Action{Kind: ActionRetryAt, At: at, Reason: "next sync"})
	}
}

// hasPostStart reports whether c has a postStart hook the kubelet runs
// (ephemeral containers have none).
func hasPostStart(c *mcontainer) bool {
	return c.kind != api.ContainerKindEphemeral && c.spec.Lifecycle != nil && c.spec.Lifecycle.PostStart != nil
}

// runPostStart begins c's postStart hook right after the runtime started
// it, as the kubelet's startContainer does: the caller runs an exec or
// httpGet hook; a sleep hook the Machine times itself.
func (m *Machine) runPostStart(c *mcontainer, now time.Time, acts *[]Action) {
	if !hasPostStart(c) {
		return
	}
	c.postStart, c.postStartEnd = true, time.Time{}
	m.blocked = c
	*acts = append(*acts, Action{Kind: ActionRunPostStart, Container: c.spec.Name})
	if sl := c.spec.Lifecycle.PostStart.Sleep; sl != nil {
		if sl.Seconds <= 0 {
			m.finishPostStart(c, false, "", now, acts) // returns at once
			return
		}
		c.postStartEnd = now.Add(termination.GraceDuration(sl.Seconds))
		m.wake(c.postStartEnd)
		*acts = append(*acts, Action{Kind: ActionRetryAt, At: c.postStartEnd, Reason: "postStart hook"})
	}
}

// finishPostStart ends c's postStart hook. A hook that returned ends the
// start: the container is reported running from this sync on. A hook that
// failed makes the kubelet record the Warning event FailedPostStartHook,
// kill the container (its preStop hook included) with the reason
// FailedPostStartHook, and fail the start with PostStartHookError and the
// hook's message, which the status shows until a start succeeds; the
// start is over once the container has stopped.
func (m *Machine) finishPostStart(c *mcontainer, failed bool, message string, now time.Time, acts *[]Action) {
	c.postStart, c.postStartEnd = false, time.Time{}
	if !failed {
		if m.blocked == c {
			m.blocked = nil
		}
		return
	}
	// The event's message leaves the hook's output out, as upstream does
	// so that no secret leaks into it.
	m.record(c, api.EventTypeWarning, "FailedPostStartHook", "PostStartHook failed", acts)
	c.nextReason = reasonEntry{PostStartHookError, message}
	if c.state == runRunning && c.kill == nil {
		m.startKill(c, termination.KillReasonFailedPostStartHook, nil, "postStart hook failed", "FailedPostStartHook", now, acts)
		m.blocked = c
		return
	}
	if m.blocked == c {
		m.blocked = nil
	}
}

// probeKillMessage is the message of the Killing event for a container
// that failed its liveness or startup probe (kuberuntime computePodActions
// and computeInitContainerActions).
func (m *Machine) probeKillMessage(c *mcontainer, probe string) string {
	if c.kind == api.ContainerKindSidecar {
		return "Init container " + c.spec.Name + " failed " + probe + " probe"
	}
	msg := "Container " + c.spec.Name + " failed " + probe + " probe"
	if PodRestartPolicy(&m.pod.Spec) != api.RestartPolicyNever {
		msg += ", will be restarted"
	}
	return msg
}

// reject applies the kubelet's rejection of the pod at admission
// (rejectPod): a Warning event with the admit handler's reason and
// message, and the pod Failed with that reason and the message prefixed.
// The pod is never handed to a pod worker: nothing of it runs.
func (m *Machine) reject(reason, message string, acts *[]Action) {
	m.rejected, m.finalized = true, true
	m.phase = api.PodFailed
	m.reason, m.message = reason, rejectedMessagePrefix+message
	m.record(nil, api.EventTypeWarning, reason, message, acts)
}

// rejectedStatus is the status the kubelet's status manager writes for a
// rejected pod: phase Failed, the reason and message, the QoS class as the
// pod had it and the start time of the kubelet's first status; the
// scheduler's PodScheduled condition stays as the API server holds it. No
// kubelet condition and no container status is written.
func (m *Machine) rejectedStatus(st *api.PodStatus) {
	st.Phase, st.Reason, st.Message = api.PodFailed, m.reason, m.message
	st.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionTrue, ObservedGeneration: m.pod.Generation,
		LastTransitionTime: api.NewTime(m.scheduledAt)}}
}
