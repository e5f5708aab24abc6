package conformance

import (
	"encoding/json"
	"fmt"

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
	if r.Reason != w.Reason {
		return Mismatch("reason", w.Reason, r.Reason)
	}
	if r.Message != w.Message {
		return Mismatch("message", w.Message, r.Message)
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
