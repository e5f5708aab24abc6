package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

func init() {
	register("kubelet.admission", runKubeletAdmission)
}

type kubeletAdmissionInput struct {
	Node                   *api.Node               `json:"node"`
	Pod                    *api.Pod                `json:"pod"`
	Pods                   []*api.Pod              `json:"pods"`
	EvictionNodeConditions []api.NodeConditionType `json:"eviction_node_conditions"`
	AllowedUnsafeSysctls   []string                `json:"allowed_unsafe_sysctls"`
	KernelVersion          string                  `json:"kernel_version"`
}

type kubeletAdmissionStatus struct {
	Phase    string `json:"phase"`
	Reason   string `json:"reason"`
	Message  string `json:"message"`
	QOSClass string `json:"qosClass,omitempty"`
}

type kubeletAdmissionPreempted struct {
	Name string `json:"name"`
	kubeletAdmissionStatus
}

type kubeletAdmissionWant struct {
	Admit     bool                        `json:"admit"`
	Handler   string                      `json:"handler"`
	Reason    string                      `json:"reason"`
	Message   string                      `json:"message"`
	Status    *kubeletAdmissionStatus     `json:"status"`
	Preempted []kubeletAdmissionPreempted `json:"preempted"`
}

func runKubeletAdmission(input, want json.RawMessage) error {
	var in kubeletAdmissionInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w kubeletAdmissionWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	r, err := lifecycle.Admit(lifecycle.AdmitInput{
		Node:           in.Node,
		Pod:            in.Pod,
		Pods:           in.Pods,
		NodeConditions: in.EvictionNodeConditions,
		Config: lifecycle.AdmitConfig{
			AllowedUnsafeSysctls: in.AllowedUnsafeSysctls,
			KernelVersion:        in.KernelVersion,
		},
	})
	if err != nil {
		return fmt.Errorf("admit: %w", err)
	}
	if r.Admit != w.Admit {
		return Mismatch("admit", w.Admit, fmt.Sprintf("%v (%s %s: %s)", r.Admit, r.Handler, r.Reason, r.Message))
	}
	if r.Reason != w.Reason || r.Message != w.Message {
		if !sameShortExtendedResource(r, w) && !(r.Reason == w.Reason && samePreemptionShortfall(r.Message, w.Message)) {
			return Mismatch("reason and message", w.Reason+": "+w.Message, r.Reason+": "+r.Message)
		}
		// Upstream met the short extended resources in another (random)
		// order: compare the status with the one it wrote.
		r.Reason, r.Message = w.Reason, w.Message
		r.Status.Reason, r.Status.Message = w.Reason, "Pod was rejected: "+w.Message
	}
	if w.Status != nil {
		got := kubeletAdmissionStatus{Phase: string(r.Status.Phase), Reason: r.Status.Reason,
			Message: r.Status.Message, QOSClass: string(r.Status.QOSClass)}
		if got != *w.Status {
			return Mismatch("status", *w.Status, got)
		}
	} else if !r.Admit {
		return Mismatch("status", nil, r.Status)
	}
	got := make([]kubeletAdmissionPreempted, len(r.Preempted))
	for i, p := range r.Preempted {
		got[i] = kubeletAdmissionPreempted{Name: p.Pod.Name, kubeletAdmissionStatus: kubeletAdmissionStatus{
			Phase: string(p.Status.Phase), Reason: p.Status.Reason, Message: p.Status.Message}}
	}
	if len(got) != len(w.Preempted) {
		return Mismatch("preempted", w.Preempted, got)
	}
	for i := range got {
		if got[i] != w.Preempted[i] {
			return Mismatch(fmt.Sprintf("preempted[%d]", i), w.Preempted[i], got[i])
		}
	}
	return nil
}

// sameShortExtendedResource reports whether the verdict and the vector
// differ only in which short extended resource they name. The kubelet
// checks the extended (scalar) resources in Go map order, which is random,
// and reports the first short one, so when several are short any of them
// is upstream's answer: the vector's must then be one of those Admit lists
// in Insufficient, with the same numbers, and Admit's own must be a scalar
// resource too (cpu, memory, ephemeral-storage and pods are checked first,
// in a fixed order).
func sameShortExtendedResource(r lifecycle.AdmitResult, w kubeletAdmissionWant) bool {
	if len(r.Insufficient) == 0 || !api.ResourceName(r.Insufficient[0].Resource).IsScalar() {
		return false
	}
	for _, ins := range r.Insufficient {
		if !api.ResourceName(ins.Resource).IsScalar() {
			continue
		}
		msg := fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d",
			ins.Resource, ins.Requested, ins.Used, ins.Capacity)
		if w.Reason == lifecycle.ReasonOutOfPrefix+ins.Resource && w.Message == msg {
			return true
		}
	}
	return false
}

// samePreemptionShortfall reports whether two UnexpectedAdmissionError
// messages differ only in the order of the extended resources in their
// list of what could not be freed ("[(res: pods, q: 1), (res: a/b, q: 2),
// (res: c/d, q: 1), ]"): the kubelet builds that list from the short
// resources in the order its resource check found them, which for
// extended resources is Go map order (random); the other resources come
// first, in a fixed order, and must match exactly.
func samePreemptionShortfall(got, want string) bool {
	split := func(m string) (string, []string, bool) {
		head, list, ok := strings.Cut(m, "[")
		if !ok || !strings.HasSuffix(list, "]") {
			return "", nil, false
		}
		items := strings.Split(strings.TrimSuffix(list, "]"), "), ")
		return head, items, true
	}
	gh, gi, ok1 := split(got)
	wh, wi, ok2 := split(want)
	if !ok1 || !ok2 || gh != wh || len(gi) != len(wi) {
		return false
	}
	for i := range gi {
		name, _, _ := strings.Cut(strings.TrimPrefix(gi[i], "(res: "), ",")
		if !api.ResourceName(name).IsScalar() && gi[i] != wi[i] {
			return false
		}
	}
	slices.Sort(gi)
	slices.Sort(wi)
	return slices.Equal(gi, wi)
}

func TestSamePreemptionShortfall(t *testing.T) {
	const head = "Unexpected error ...: no set of running pods found to reclaim resources: "
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{head + "[(res: cpu, q: 1), (res: a.io/x, q: 2), (res: b.io/y, q: 1), ]", head + "[(res: cpu, q: 1), (res: b.io/y, q: 1), (res: a.io/x, q: 2), ]", true},
		{head + "[(res: cpu, q: 1), (res: memory, q: 2), ]", head + "[(res: memory, q: 2), (res: cpu, q: 1), ]", false},
		{head + "[(res: a.io/x, q: 2), ]", head + "[(res: a.io/x, q: 3), ]", false},
		{head + "[(res: a.io/x, q: 2), ]", "other [(res: a.io/x, q: 2), ]", false},
	} {
		if got := samePreemptionShortfall(c.got, c.want); got != c.same {
			t.Errorf("samePreemptionShortfall(%q, %q) = %v, want %v", c.got, c.want, got, c.same)
		}
	}
}
