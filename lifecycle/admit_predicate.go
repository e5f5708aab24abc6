package lifecycle

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
)

// kubeletOS is the operating system of the kubelet Admit models
// (runtime.GOOS of a linux kubelet).
const kubeletOS = string(api.Linux)

// supplementalGroupsPolicyStrict is the supplementalGroupsPolicy that
// needs the node's support.
const supplementalGroupsPolicyStrict = "Strict"

// reasonTaintsNotTolerated is the TaintToleration reason the kubelet's
// taint check gives (tainttoleration.ErrReasonNotMatch), worded unlike the
// scheduler filter's scheduling.ReasonTaints.
const reasonTaintsNotTolerated = "node(s) had taints that the pod didn't tolerate"

// predicateVerdict is the predicate handler's answer.
type predicateVerdict struct {
	admit           bool
	reason, message string
	preempted       []Preemption
	insufficient    []scheduling.InsufficientResource
}

// predicateFailure is one failure of the kubelet's general filter: a
// failed predicate (PredicateFailureError) or a resource short
// (InsufficientResourceError, insufficient set).
type predicateFailure struct {
	predicate, desc string
	insufficient    *scheduling.InsufficientResource
}

// reasonAndMessage is the status reason and message the predicate handler
// gives for a failure.
func (f *predicateFailure) reasonAndMessage() (string, string) {
	if r := f.insufficient; r != nil {
		return ReasonOutOfPrefix + r.Resource, fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d",
			r.Resource, r.Requested, r.Used, r.Capacity)
	}
	return f.predicate, fmt.Sprintf("Predicate %s failed: %s", f.predicate, f.desc)
}

// admitPredicates is the predicate admit handler (predicateAdmitHandler.Admit)
// with the critical pod admission handler as its failure handler.
func admitPredicates(in AdmitInput) (predicateVerdict, error) {
	pod := in.Pod
	// The checks preemption cannot help come first, so that no pod is
	// preempted in vain.
	cached := withKubeletOSLabel(in.Node)
	if os, ok := pod.Labels[api.LabelOS]; ok && os != kubeletOS {
		return predicateVerdict{reason: ReasonPodOSSelectorNodeLabelDoesNotMatch,
			message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label"}, nil
	}
	if pod.Spec.OS != nil && string(pod.Spec.OS.Name) != kubeletOS {
		return predicateVerdict{reason: ReasonPodOSNotSupported,
			message: "Failed to admit pod as the OS field doesn't match node OS"}, nil
	}
	if rejectsSupplementalGroupsPolicy(pod, in.Node) {
		return predicateVerdict{reason: ReasonSupplementalGroupsPolicyNotSupported,
			message: "SupplementalGroupsPolicy=" + supplementalGroupsPolicyStrict + " is not supported in this node"}, nil
	}

	filtered := withoutMissingExtendedResources(pod, in.Node)
	fails, err := generalFilter(filtered, cached, in.Pods)
	if err != nil {
		return predicateVerdict{}, err
	}
	if onlyNodeAffinity(fails) {
		// The kubelet re-reads the node from the API server, without its
		// own OS label, and tries once more.
		if fails, err = generalFilter(filtered, in.Node, in.Pods); err != nil {
			return predicateVerdict{}, err
		}
	}
	if len(fails) == 0 {
		return predicateVerdict{admit: true}, nil
	}
	if !api.IsCriticalPod(pod) {
		reason, message := fails[0].reasonAndMessage()
		return predicateVerdict{reason: reason, message: message, insufficient: insufficientOf(fails)}, nil
	}
	// The critical pod admission handler: a critical pod is not refused
	// for resources while other pods can make room.
	for i := range fails {
		if fails[i].insufficient == nil {
			reason, message := fails[i].reasonAndMessage()
			return predicateVerdict{reason: reason, message: message}, nil
		}
	}
	victims, err := podsToPreempt(pod, in.Pods, requirementsOf(fails))
	if err != nil {
		return predicateVerdict{reason: ReasonUnexpectedAdmissionError,
			message:      "Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: " + err.Error(),
			insufficient: insufficientOf(fails)}, nil
	}
	v := predicateVerdict{admit: true, preempted: make([]Preemption, len(victims)), insufficient: insufficientOf(fails)}
	for i, p := range victims {
		v.preempted[i] = Preemption{Pod: p, Status: preemptedStatus(p, in.Now), Kill: KilledForCriticalPod(),
			Event: api.Event{Type: api.EventTypeWarning, Reason: ReasonPreempting, Note: PreemptedMessage,
				Regarding: api.PodReference(p), Source: api.EventSourceKubelet}}
	}
	return v, nil
}

// preemptedStatus is the status the kubelet's critical pod admission
// handler writes for a pod it preempts: the kubelet's kill status
// (termination.KubeletKillStatus), whose DisruptionTarget condition here
// carries its own message rather than the status message.
func preemptedStatus(p *api.Pod, now time.Time) api.PodStatus {
	return killStatus(p, api.PodFailed, ReasonPreempting, PreemptedMessage, now)
}

// killStatus is the status the kubelet's kill writes (its status
// function): termination.KubeletKillStatus, except that the critical pod
// admission handler's kill (reason ReasonPreempting) gives the
// DisruptionTarget condition PreemptedConditionMessage instead of the
// status message.
func killStatus(p *api.Pod, phase api.PodPhase, reason, message string, now time.Time) api.PodStatus {
	st := termination.KubeletKillStatus(p, phase, reason, message, now)
	if reason != ReasonPreempting {
		return st
	}
	for i := range st.Conditions {
		if st.Conditions[i].Type == api.DisruptionTarget {
			st.Conditions[i].Message = PreemptedConditionMessage
		}
	}
	return st
}

// insufficientOf lists the resources short among the failures, in order;
// nil when none is.
func insufficientOf(fails []predicateFailure) []scheduling.InsufficientResource {
	var out []scheduling.InsufficientResource
	for i := range fails {
		if r := fails[i].insufficient; r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// withKubeletOSLabel returns the node as the kubelet's cache holds it once
// its OS check has run (rejectPodAdmissionBasedOnOSSelector writes the
// kubelet's OS into the cached node's labels): a copy with
// kubernetes.io/os set to linux when the node has labels and another or
// no OS label; the node itself otherwise.
func withKubeletOSLabel(node *api.Node) *api.Node {
	if len(node.Labels) == 0 || node.Labels[api.LabelOS] == kubeletOS {
		return node
	}
	c := *node
	c.Labels = make(map[string]string, len(node.Labels)+1)
	for k, v := range node.Labels {
		c.Labels[k] = v
	}
	c.Labels[api.LabelOS] = kubeletOS
	return &c
}

// rejectsSupplementalGroupsPolicy reports whether the pod asks for
// supplementalGroupsPolicy Strict on a node whose status.features does not
// say it supports it (the SupplementalGroupsPolicy feature is beyond
// alpha in v1.36.3, so the kubelet checks).
func rejectsSupplementalGroupsPolicy(pod *api.Pod, node *api.Node) bool {
	sc := pod.Spec.SecurityContext
	if sc == nil || sc.SupplementalGroupsPolicy == nil || *sc.SupplementalGroupsPolicy != supplementalGroupsPolicyStrict {
		return false
	}
	f := node.Status.Features
	return f == nil || f.SupplementalGroupsPolicy == nil || !*f.SupplementalGroupsPolicy
}

// withoutMissingExtendedResources drops from the containers' requests the
// extended resources the node's allocatable does not list at all
// (removeMissingExtendedResources): cluster-level resources the node does
// not know about. A resource listed with 0 stays and is checked. The pod
// is returned as it is when nothing is dropped, else a copy.
func withoutMissingExtendedResources(pod *api.Pod, node *api.Node) *api.Pod {
	missing := func(list []api.Container) bool {
		for i := range list {
			for name := range list[i].Resources.Requests {
				if _, ok := node.Status.Allocatable[name]; !ok && name.IsExtended() {
					return true
				}
			}
		}
		return false
	}
	if !missing(pod.Spec.Containers) && !missing(pod.Spec.InitContainers) {
		return pod
	}
	filter := func(list []api.Container) []api.Container {
		out := make([]api.Container, len(list))
		for i := range list {
			out[i] = list[i]
			reqs := api.ResourceList{}
			for name, q := range list[i].Resources.Requests {
				if _, ok := node.Status.Allocatable[name]; !ok && name.IsExtended() {
					continue
				}
				reqs[name] = q
			}
			out[i].Resources.Requests = reqs
		}
		return out
	}
	c := *pod
	c.Spec.Containers = filter(pod.Spec.Containers)
	c.Spec.InitContainers = filter(pod.Spec.InitContainers)
	return &c
}

// generalFilter is the kubelet's generalFilter: kube-scheduler's
// AdmissionCheck with every failure, then the node's NoExecute taints the
// pod does not tolerate, unless it is a static pod.
func generalFilter(pod *api.Pod, node *api.Node, pods []*api.Pod) ([]predicateFailure, error) {
	checks, err := scheduling.AdmissionCheck(pod, node, pods)
	if err != nil {
		return nil, err
	}
	fails := make([]predicateFailure, 0, len(checks)+1)
	for _, c := range checks {
		fails = append(fails, predicateFailure{predicate: c.Plugin, desc: c.Reason, insufficient: c.Insufficient})
	}
	if !api.IsStaticPod(pod) && untoleratedNoExecute(node.Spec.Taints, pod.Spec.Tolerations) {
		fails = append(fails, predicateFailure{predicate: scheduling.PluginTaintToleration, desc: reasonTaintsNotTolerated})
	}
	return fails, nil
}

// untoleratedNoExecute reports whether some NoExecute taint is tolerated
// by none of the tolerations; the kubelet looks at no other effect.
func untoleratedNoExecute(taints []api.Taint, tols []api.Toleration) bool {
	_, found := api.FindUntoleratedTaint(taints, tols, api.TaintEffectNoExecute)
	return found
}

// onlyNodeAffinity reports whether there are failures and all are node
// affinity's, the case in which the kubelet re-reads the node.
func onlyNodeAffinity(fails []predicateFailure) bool {
	for i := range fails {
		if fails[i].insufficient != nil || fails[i].desc != scheduling.ReasonNodeAffinity {
			return false
		}
	}
	return len(fails) > 0
}
