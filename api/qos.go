package api

// qosSums accumulates the positive cpu and memory quantities of requests
// and limits; only those two resources decide a QoS class.
type qosSums struct {
	req, lim       [2]Quantity
	hasReq, hasLim [2]bool
}

// qosIndex maps the QoS compute resources to their slot.
func qosIndex(name ResourceName) int {
	switch name {
	case ResourceCPU:
		return 0
	case ResourceMemory:
		return 1
	}
	return -1
}

// add sums the positive cpu and memory quantities of l into the
// accumulators and reports which of cpu, memory it saw.
func addQOS(sum *[2]Quantity, has *[2]bool, l ResourceList) (seen [2]bool) {
	for name, q := range l {
		i := qosIndex(name)
		if i < 0 || q.Sign() <= 0 {
			continue
		}
		seen[i] = true
		if has[i] {
			sum[i] = sum[i].Add(q)
		} else {
			sum[i], has[i] = q, true
		}
	}
	return seen
}

// ComputePodQOS computes the pod's quality-of-service class as Kubernetes
// v1.36.3 does (pkg/apis/core/v1/helper/qos ComputePodQOS, PodLevelResources
// on). Only cpu and memory count, and zero quantities are ignored.
//
// When the pod sets spec.resources at all, the pod-level values alone
// decide: BestEffort with neither requests nor limits; Guaranteed when
// limits name both cpu and memory and every request equals its limit for
// the same set of resources; else Burstable.
//
// Otherwise the requests and limits of all regular, init and sidecar
// containers are summed per resource (ephemeral containers have none):
// BestEffort when nothing is set; Guaranteed when every container limits
// both cpu and memory and the summed requests equal the summed limits
// resource by resource (a resource requested nowhere is fine, since the
// API server defaults requests from limits); else Burstable.
//
// The pod is read as given; apply DefaultPod first to see the class of
// the pod as the API server stores it. A nil pod has no class: the result
// is "".
func ComputePodQOS(pod *Pod) PodQOSClass {
	if pod == nil {
		return ""
	}
	var s qosSums
	guaranteed := true
	if r := pod.Spec.Resources; r != nil {
		addQOS(&s.req, &s.hasReq, r.Requests)
		if len(r.Limits) > 0 {
			seen := addQOS(&s.lim, &s.hasLim, r.Limits)
			if !seen[0] || !seen[1] {
				guaranteed = false
			}
		}
	} else {
		for _, list := range [2][]Container{pod.Spec.Containers, pod.Spec.InitContainers} {
			for i := range list {
				res := &list[i].Resources
				addQOS(&s.req, &s.hasReq, res.Requests)
				seen := addQOS(&s.lim, &s.hasLim, res.Limits)
				if !seen[0] || !seen[1] {
					guaranteed = false
				}
			}
		}
	}
	nReq, nLim := 0, 0
	for i := range 2 {
		if s.hasReq[i] {
			nReq++
		}
		if s.hasLim[i] {
			nLim++
		}
	}
	if nReq == 0 && nLim == 0 {
		return PodQOSBestEffort
	}
	if guaranteed {
		for i := range 2 {
			if s.hasReq[i] && (!s.hasLim[i] || s.lim[i].Cmp(s.req[i]) != 0) {
				guaranteed = false
			}
		}
	}
	if guaranteed && nReq == nLim {
		return PodQOSGuaranteed
	}
	return PodQOSBurstable
}

// PodQOS returns the pod's QoS class as the kubelet and scheduler read it
// (pkg/apis/core/v1/helper/qos GetPodQOS): status.qosClass when it is set —
// the API server fixes the class when the pod is created (see
// InitialPodStatus) and it survives in-place resizes — else
// ComputePodQOS(pod). A nil pod has no class: the result is "".
func PodQOS(pod *Pod) PodQOSClass {
	if pod != nil && pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return ComputePodQOS(pod)
}
