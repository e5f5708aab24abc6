package workloads

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// PodFailureVerdict is what a Job's pod failure policy says about one
// failed pod (pkg/controller/job matchPodFailurePolicy).
type PodFailureVerdict struct {
	// Action is the matched rule's action (JobActionFailJob,
	// JobActionFailIndex, JobActionIgnore, JobActionCount), "" when no
	// rule matched (or there is no policy).
	Action string
	// Rule is the index of the matched rule, -1 when none matched.
	Rule int
	// CountFailed is false only when an Ignore rule matched: the failure
	// then counts neither in status.failed nor towards backoffLimit.
	CountFailed bool
	// JobFailureMessage is the message of the Job's FailureTarget and
	// Failed conditions when a FailJob rule matched, e.g. "Container main
	// for pod default/pi-1 failed with exit code 42 matching FailJob rule
	// at index 0"; "" otherwise.
	JobFailureMessage string
}

// MatchPodFailurePolicy evaluates a Job's spec.podFailurePolicy against a
// failed pod the way the Job controller does (pkg/controller/job
// pod_failure_policy.go). Rules are tried in order and the first that
// matches wins:
//
//   - onExitCodes looks at terminated containers with a non-zero exit code,
//     regular containers before init containers, restricted to
//     containerName when set; In / NotIn compare the exit code with values.
//   - onPodConditions matches a pod condition of equal type and status
//     (e.g. DisruptionTarget True, set when the pod was preempted, evicted
//     or its node drained).
//
// A FailJob match carries the message the Job's conditions will show; an
// Ignore match is the only one that does not count. With a nil policy (or
// no match) the failure counts and no action applies. The caller decides
// whether the pod has failed: the function looks at statuses only. A nil
// pod is an error.
func MatchPodFailurePolicy(policy *api.PodFailurePolicy, pod *api.Pod) (PodFailureVerdict, error) {
	if pod == nil {
		return PodFailureVerdict{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	return matchPodFailurePolicy(policy, pod), nil
}

func matchPodFailurePolicy(policy *api.PodFailurePolicy, pod *api.Pod) PodFailureVerdict {
	none := PodFailureVerdict{Rule: -1, CountFailed: true}
	if policy == nil {
		return none
	}
	for i := range policy.Rules {
		rule := &policy.Rules[i]
		var failJobMsg string
		switch {
		case rule.OnExitCodes != nil:
			cs := exitCodeMatch(&pod.Status, rule.OnExitCodes)
			if cs == nil {
				continue
			}
			failJobMsg = fmt.Sprintf("Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d",
				cs.Name, pod.Namespace, pod.Name, cs.State.Terminated.ExitCode, rule.Action, i)
		case rule.OnPodConditions != nil:
			c := podConditionMatch(&pod.Status, rule.OnPodConditions)
			if c == nil {
				continue
			}
			failJobMsg = fmt.Sprintf("Pod %s/%s has condition %s matching %s rule at index %d",
				pod.Namespace, pod.Name, c.Type, rule.Action, i)
		default:
			continue
		}
		switch rule.Action {
		case JobActionIgnore:
			return PodFailureVerdict{Action: JobActionIgnore, Rule: i}
		case JobActionCount, JobActionFailIndex:
			return PodFailureVerdict{Action: rule.Action, Rule: i, CountFailed: true}
		case JobActionFailJob:
			return PodFailureVerdict{Action: JobActionFailJob, Rule: i, CountFailed: true, JobFailureMessage: failJobMsg}
		}
		// An action this release does not know matches nothing: the next
		// rule is tried.
	}
	return none
}

// exitCodeMatch returns the first terminated container (regular ones, then
// init containers) whose non-zero exit code satisfies req.
func exitCodeMatch(st *api.PodStatus, req *api.PodFailurePolicyOnExitCodesRequirement) *api.ContainerStatus {
	if cs := exitCodeMatchIn(st.ContainerStatuses, req); cs != nil {
		return cs
	}
	return exitCodeMatchIn(st.InitContainerStatuses, req)
}

func exitCodeMatchIn(list []api.ContainerStatus, req *api.PodFailurePolicyOnExitCodesRequirement) *api.ContainerStatus {
	for i := range list {
		cs := &list[i]
		t := cs.State.Terminated
		if t == nil || t.ExitCode == 0 {
			continue
		}
		if req.ContainerName != nil && *req.ContainerName != cs.Name {
			continue
		}
		in := false
		for _, v := range req.Values {
			if v == t.ExitCode {
				in = true
				break
			}
		}
		switch {
		case req.Operator == "In" && in, req.Operator == "NotIn" && !in:
			return cs
		}
	}
	return nil
}

// podConditionMatch returns the first pod condition (in the pod's order)
// equal in type and status to one of the patterns.
func podConditionMatch(st *api.PodStatus, patterns []api.PodFailurePolicyOnPodConditionsPattern) *api.PodCondition {
	for i := range st.Conditions {
		c := &st.Conditions[i]
		for _, p := range patterns {
			if c.Type == p.Type && c.Status == p.Status {
				return c
			}
		}
	}
	return nil
}
