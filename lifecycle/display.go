package lifecycle

import (
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// DisplayRow is what `kubectl get pods` shows for a pod besides its name.
type DisplayRow struct {
	// Ready is the READY cell, "ready/total": regular containers plus
	// sidecars in the total; a regular container counts as ready when it is
	// ready and running, a sidecar when it has started and is ready.
	Ready string
	// Status is the STATUS cell: the phase, or a more telling reason
	// (Init:1/3, CrashLoopBackOff, Completed, Terminating, ...).
	Status string
	// Restarts is the RESTARTS cell: "N", or "N (D ago)" with the time
	// since the latest restart.
	Restarts string
	// Age is the AGE cell, the time since creation ("<unknown>" without a
	// creationTimestamp).
	Age string
}

// NodeUnreachablePodReason is the pod status reason (NodeLost) the node
// lifecycle controller set on pods of unreachable nodes; kubectl shows such
// a pod that is being deleted as Unknown.
const NodeUnreachablePodReason = NodeLost

// DisplayStatus renders the READY, STATUS, RESTARTS and AGE columns of
// `kubectl get pods` at time now, exactly as the API server's table printer
// of Kubernetes v1.36.3 does (pkg/printers/internalversion printPod):
//
//   - STATUS starts as status.reason or else the phase; a PodScheduled
//     condition with reason SchedulingGated turns it into SchedulingGated.
//   - Init container statuses are scanned in order: exited 0 is done; a
//     started sidecar is fine (and counted in READY when ready); the first
//     other one decides: Init:<reason>, Init:Signal:N or Init:ExitCode:N for
//     a failed one, Init:<waiting reason> (PodInitializing excepted), else
//     Init:i/n; RESTARTS then counts init restarts up to that container.
//   - When no init container is unfinished, or the Initialized condition is
//     True, RESTARTS counts sidecar and regular containers only, and the
//     regular containers are scanned last to first (so the first container
//     has the last word): a waiting or terminated reason, Signal:N or
//     ExitCode:N replace STATUS; ready running containers count in READY.
//     When STATUS ends up Completed it becomes Running if some container is
//     ready and running and the pod is Ready; otherwise the STATUS text of
//     the first container that exited non-zero, if any; otherwise NotReady
//     if some container is ready and running.
//   - A pod being deleted shows Unknown when its reason is NodeLost, else
//     Terminating unless its phase is Succeeded or Failed.
//   - "(D ago)" uses the latest lastState.terminated.finishedAt among the
//     counted containers; durations are rendered as kubectl's HumanDuration.
//
// A nil pod has no row: the result is the zero DisplayRow.
func DisplayStatus(pod *api.Pod, now time.Time) DisplayRow {
	if pod == nil {
		return DisplayRow{}
	}
	st := &pod.Status
	restarts, sidecarRestarts := 0, 0
	total := len(pod.Spec.Containers)
	ready := 0
	var lastRestart, lastSidecarRestart time.Time

	status := string(st.Phase)
	if st.Reason != "" {
		status = st.Reason
	}
	for i := range st.Conditions {
		if st.Conditions[i].Type == api.PodScheduled && st.Conditions[i].Reason == api.PodReasonSchedulingGated {
			status = api.PodReasonSchedulingGated
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].IsSidecar() {
			total++
		}
	}
	isSidecar := func(name string) bool {
		ref, ok := pod.Spec.FindContainer(name)
		return ok && ref.Kind == api.ContainerKindSidecar
	}

	initializing := false
	for i := range st.InitContainerStatuses {
		cs := &st.InitContainerStatuses[i]
		restarts += int(cs.RestartCount)
		if t := cs.LastTerminationState.Terminated; t != nil && lastRestart.Before(t.FinishedAt.Time) {
			lastRestart = t.FinishedAt.Time
		}
		sidecar := isSidecar(cs.Name)
		if sidecar {
			sidecarRestarts += int(cs.RestartCount)
			if t := cs.LastTerminationState.Terminated; t != nil && lastSidecarRestart.Before(t.FinishedAt.Time) {
				lastSidecarRestart = t.FinishedAt.Time
			}
		}
		t := cs.State.Terminated
		switch {
		case t != nil && t.ExitCode == 0:
			continue
		case sidecar && cs.Started != nil && *cs.Started:
			if cs.Ready {
				ready++
			}
			continue
		case t != nil:
			switch {
			case t.Reason != "":
				status = "Init:" + t.Reason
			case t.Signal != 0:
				status = "Init:Signal:" + strconv.Itoa(int(t.Signal))
			default:
				status = "Init:ExitCode:" + strconv.Itoa(int(t.ExitCode))
			}
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != PodInitializing:
			status = "Init:" + cs.State.Waiting.Reason
		default:
			status = "Init:" + strconv.Itoa(i) + "/" + strconv.Itoa(len(pod.Spec.InitContainers))
		}
		initializing = true
		break
	}

	if !initializing || initializedTrue(st) {
		restarts = sidecarRestarts
		lastRestart = lastSidecarRestart
		hasRunning := false
		// errorReason remembers the STATUS text of the last container
		// scanned (so the first in list order) that terminated with a
		// non-zero exit code.
		errorReason := ""
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			cs := &st.ContainerStatuses[i]
			restarts += int(cs.RestartCount)
			if t := cs.LastTerminationState.Terminated; t != nil && lastRestart.Before(t.FinishedAt.Time) {
				lastRestart = t.FinishedAt.Time
			}
			w, t := cs.State.Waiting, cs.State.Terminated
			switch {
			case w != nil && w.Reason != "":
				status = w.Reason
			case t != nil:
				switch {
				case t.Reason != "":
					status = t.Reason
				case t.Signal != 0:
					status = "Signal:" + strconv.Itoa(int(t.Signal))
				default:
					status = "ExitCode:" + strconv.Itoa(int(t.ExitCode))
				}
				if t.ExitCode != 0 {
					errorReason = status
				}
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
				ready++
			}
		}
		if status == Completed {
			switch {
			case hasRunning && api.IsPodReady(pod):
				status = string(api.PodRunning)
			case errorReason != "":
				status = errorReason
			case hasRunning:
				status = "NotReady"
			}
		}
	}

	if pod.DeletionTimestamp != nil {
		switch {
		case st.Reason == NodeUnreachablePodReason:
			status = string(api.PodUnknown)
		case !st.Phase.IsTerminal():
			status = "Terminating"
		}
	}

	row := DisplayRow{
		Ready:    strconv.Itoa(ready) + "/" + strconv.Itoa(total),
		Status:   status,
		Restarts: strconv.Itoa(restarts),
		Age:      Since(pod.CreationTimestamp.Time, now),
	}
	if restarts != 0 && !lastRestart.IsZero() {
		row.Restarts += " (" + Since(lastRestart, now) + " ago)"
	}
	return row
}

func initializedTrue(st *api.PodStatus) bool {
	c := api.FindCondition(st.Conditions, api.PodInitialized)
	return c != nil && c.Status == api.ConditionTrue
}

// Since renders the time from t to now as kubectl's AGE-style columns do
// (translateTimestampSince): "<unknown>" for a zero t, otherwise
// HumanDuration(now - t).
func Since(t, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t))
}

// HumanDuration renders d the way kubectl does
// (k8s.io/apimachinery/pkg/util/duration HumanDuration), to at most two
// units with precision falling as d grows: seconds below 2 minutes; minutes
// and seconds below 10 minutes; minutes below 3 hours; hours and minutes
// below 8 hours; hours below 2 days; days and hours below 8 days; days
// below 2 years; years and days below 8 years; then years. Whole units are
// truncated. Up to a second in the future (clock skew) is "0s"; further in
// the future is "<invalid>".
func HumanDuration(d time.Duration) string {
	seconds := int64(d.Seconds())
	switch {
	case seconds < -1:
		return "<invalid>"
	case seconds < 0:
		return "0s"
	case seconds < 60*2:
		return itoa(seconds) + "s"
	}
	minutes := int64(d / time.Minute)
	if minutes < 10 {
		if s := int64(d/time.Second) % 60; s != 0 {
			return itoa(minutes) + "m" + itoa(s) + "s"
		}
		return itoa(minutes) + "m"
	}
	if minutes < 60*3 {
		return itoa(minutes) + "m"
	}
	hours := int64(d / time.Hour)
	switch {
	case hours < 8:
		if m := minutes % 60; m != 0 {
			return itoa(hours) + "h" + itoa(m) + "m"
		}
		return itoa(hours) + "h"
	case hours < 48:
		return itoa(hours) + "h"
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return itoa(hours/24) + "d" + itoa(h) + "h"
		}
		return itoa(hours/24) + "d"
	case hours < 24*365*2:
		return itoa(hours/24) + "d"
	case hours < 24*365*8:
		if dy := (hours / 24) % 365; dy != 0 {
			return itoa(hours/24/365) + "y" + itoa(dy) + "d"
		}
		return itoa(hours/24/365) + "y"
	}
	return itoa(hours/24/365) + "y"
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
