package lifecycle

import (
	"errors"
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// requirement is an amount of one resource a critical pod still needs
// freed (admissionRequirement).
type requirement struct {
	resource api.ResourceName
	quantity int64
}

// requirements lists what a critical pod lacks, in the order of the
// resource failures.
type requirements []requirement

// requirementsOf turns resource failures into what must be freed: the
// request minus what is left (InsufficientResourceError
// GetInsufficientAmount). Like the kubelet's, the int64 arithmetic here
// wraps rather than saturates; amounts near the int64 limits are not
// requests a node can have.
func requirementsOf(fails []predicateFailure) requirements {
	out := make(requirements, 0, len(fails))
	for i := range fails {
		r := fails[i].insufficient
		out = append(out, requirement{resource: api.ResourceName(r.Resource),
			quantity: r.Requested - (r.Capacity - r.Used)})
	}
	return out
}

// String is the kubelet's rendering in its error message:
// "[(res: memory, q: 236636672), ]".
func (rs requirements) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range rs {
		fmt.Fprintf(&b, "(res: %s, q: %d), ", r.resource, r.quantity)
	}
	b.WriteByte(']')
	return b.String()
}

// errNoPodsToReclaim is the preemption failure's error text.
var errNoPodsToReclaim = errors.New("no set of running pods found to reclaim resources")

// podRequest is the pod's request of a resource as the kubelet's
// preemption counts it (pkg/api/v1/resource GetResourceRequest): 1 for
// pods, milli-units for cpu, whole units otherwise.
func podRequest(p *api.Pod, name api.ResourceName) int64 {
	if name == api.ResourcePods {
		return 1
	}
	q := nodepressure.ResourceRequest(p, name)
	if name == api.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

// subtract returns what is still needed once the pods are gone: each
// requirement less the pods' requests, stopping at the first pod that
// covers it, and dropped when covered.
func (rs requirements) subtract(pods ...*api.Pod) requirements {
	out := requirements{}
	for _, r := range rs {
		left := r.quantity
		for _, p := range pods {
			left -= podRequest(p, r.resource)
			if left <= 0 {
				break
			}
		}
		if left > 0 {
			out = append(out, requirement{resource: r.resource, quantity: left})
		}
	}
	return out
}

// distance is how far a pod's requests fall short of the requirements:
// the sum over requirements of the squared fraction left unmet.
func (rs requirements) distance(p *api.Pod) float64 {
	d := 0.0
	for _, r := range rs {
		left := float64(r.quantity - podRequest(p, r.resource))
		if left > 0 {
			f := left / float64(r.quantity)
			d += f * f
		}
	}
	return d
}

// podsToPreempt chooses the pods the kubelet evicts to admit a critical pod
// (pkg/kubelet/preemption getPodsToPreempt): among the pods it may preempt,
// first the guaranteed pods needed even if every burstable and best-effort
// pod went, then the burstable pods needed beside all best-effort pods and
// those guaranteed ones, then the best-effort pods still needed. The
// result lists best-effort, then burstable, then guaranteed victims.
func podsToPreempt(pod *api.Pod, pods []*api.Pod, need requirements) ([]*api.Pod, error) {
	var bestEffort, burstable, guaranteed []*api.Pod
	for _, p := range pods {
		if !preemptable(pod, p) {
			continue
		}
		switch api.PodQOS(p) {
		case api.PodQOSBestEffort:
			bestEffort = append(bestEffort, p)
		case api.PodQOSBurstable:
			burstable = append(burstable, p)
		case api.PodQOSGuaranteed:
			guaranteed = append(guaranteed, p)
		}
	}
	all := append(append(append([]*api.Pod(nil), bestEffort...), burstable...), guaranteed...)
	if unmet := need.subtract(all...); len(unmet) > 0 {
		return nil, fmt.Errorf("%w: %s", errNoPodsToReclaim, unmet)
	}
	lower := append(append([]*api.Pod(nil), bestEffort...), burstable...)
	guaranteedOut, err := closestPods(guaranteed, need.subtract(lower...))
	if err != nil {
		return nil, err
	}
	burstableOut, err := closestPods(burstable, need.subtract(append(append([]*api.Pod(nil), bestEffort...), guaranteedOut...)...))
	if err != nil {
		return nil, err
	}
	bestEffortOut, err := closestPods(bestEffort, need.subtract(append(append([]*api.Pod(nil), burstableOut...), guaranteedOut...)...))
	if err != nil {
		return nil, err
	}
	return append(append(bestEffortOut, burstableOut...), guaranteedOut...), nil
}

// closestPods picks pods until the requirements are met, each time the pod
// whose requests come closest (smallest distance; among equals the one
// with the smaller memory, then cpu, request, the later one on a full tie)
// (getPodsToPreemptByDistance). The candidate list is worked on in a
// copy, with the kubelet's swap-with-last removal so that ties break as
// there.
func closestPods(candidates []*api.Pod, need requirements) ([]*api.Pod, error) {
	pods := append([]*api.Pod(nil), candidates...)
	var out []*api.Pod
	for len(need) > 0 {
		if len(pods) == 0 {
			return nil, fmt.Errorf("%w: %s", errNoPodsToReclaim, need)
		}
		best, bestDist := 0, float64(len(need)+1)
		for i, p := range pods {
			d := need.distance(p)
			if d < bestDist || (d == bestDist && smallerRequest(p, pods[best])) {
				best, bestDist = i, d
			}
		}
		need = need.subtract(pods[best])
		out = append(out, pods[best])
		pods[best] = pods[len(pods)-1]
		pods = pods[:len(pods)-1]
	}
	return out, nil
}

// smallerRequest reports whether a requests less memory than b, or as much
// memory and less cpu, or as much of both (then true).
func smallerRequest(a, b *api.Pod) bool {
	for _, name := range [...]api.ResourceName{api.ResourceMemory, api.ResourceCPU} {
		x, y := podRequest(a, name), podRequest(b, name)
		if x != y {
			return x < y
		}
	}
	return true
}

// preemptable reports whether the kubelet may preempt victim to admit pod
// (pkg/kubelet/types Preemptable): a critical pod may preempt any pod that
// is not critical, and otherwise only pods of strictly lower
// spec.priority, when both set one.
func preemptable(pod, victim *api.Pod) bool {
	if api.IsCriticalPod(pod) && !api.IsCriticalPod(victim) {
		return true
	}
	if pod.Spec.Priority != nil && victim.Spec.Priority != nil {
		return *pod.Spec.Priority > *victim.Spec.Priority
	}
	return false
}
