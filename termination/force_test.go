package termination

import (
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
)

func TestMayForceDelete(t *testing.T) {
	running := runningPod(i64(30))
	unscheduled := runningPod(i64(30))
	unscheduled.Spec.NodeName = ""
	done := runningPod(i64(30))
	done.Status.Phase = api.PodSucceeded
	tests := []struct {
		name    string
		pod     *api.Pod
		req     ForceDeleteRequest
		allowed bool
		risk    bool
	}{
		{"kubelet after confirmation", running, ForceDeleteRequest{Actor: ActorKubelet, TerminationConfirmed: true, NodeExists: true}, true, false},
		{"kubelet before confirmation", running, ForceDeleteRequest{Actor: ActorKubelet, NodeExists: true}, false, false},
		{"podgc, node gone", running, ForceDeleteRequest{Actor: ActorPodGC}, true, false},
		{"podgc, node out of service", running, ForceDeleteRequest{Actor: ActorPodGC, NodeExists: true, NodeOutOfService: true}, true, false},
		{"podgc, node present", running, ForceDeleteRequest{Actor: ActorPodGC, NodeExists: true}, false, false},
		{"user knowingly", running, ForceDeleteRequest{Actor: ActorUser, NodeExists: true, Acknowledged: true}, true, true},
		{"user unaware", running, ForceDeleteRequest{Actor: ActorUser, NodeExists: true}, false, true},
		{"controller", running, ForceDeleteRequest{Actor: ActorController, NodeExists: true, Acknowledged: true}, false, false},
		{"controller, unscheduled pod", unscheduled, ForceDeleteRequest{Actor: ActorController}, true, false},
		{"controller, finished pod", done, ForceDeleteRequest{Actor: ActorController, NodeExists: true}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := MayForceDelete(tt.pod, tt.req)
			if d.Allowed != tt.allowed || d.AtMostOneAtRisk != tt.risk || d.Reason == "" {
				t.Errorf("got %+v, want allowed=%v risk=%v", d, tt.allowed, tt.risk)
			}
			if d.AtMostOneAtRisk && d.Warning != ForceDeleteWarning {
				t.Errorf("risky force deletion without the warning: %+v", d)
			}
		})
	}
	if d := MayForceDelete(nil, ForceDeleteRequest{Actor: ActorUser, Acknowledged: true}); d.Allowed {
		t.Error("nil pod allowed")
	}
}

func TestKubectlDeleteOptions(t *testing.T) {
	tests := []struct {
		name    string
		flags   KubectlDeleteFlags
		grace   *int64
		warning bool
		err     bool
	}{
		{"no flags", KubectlDeleteFlags{}, nil, false, false},
		{"grace 10", KubectlDeleteFlags{GracePeriod: i64(10)}, i64(10), false, false},
		{"grace 0 without force becomes 1", KubectlDeleteFlags{GracePeriod: i64(0)}, i64(1), false, false},
		{"force", KubectlDeleteFlags{Force: true}, i64(0), true, false},
		{"force grace 0", KubectlDeleteFlags{Force: true, GracePeriod: i64(0)}, i64(0), true, false},
		{"force grace 5", KubectlDeleteFlags{Force: true, GracePeriod: i64(5)}, nil, false, true},
		{"now", KubectlDeleteFlags{Now: true}, i64(1), false, false},
		{"now and grace", KubectlDeleteFlags{Now: true, GracePeriod: i64(3)}, nil, false, true},
		{"negative grace ignored", KubectlDeleteFlags{GracePeriod: i64(-1)}, nil, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, w, err := KubectlDeleteOptions(tt.flags)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v", err)
			}
			if err != nil {
				if !errors.Is(err, ErrKubectlFlags) {
					t.Errorf("error does not wrap ErrKubectlFlags: %v", err)
				}
				return
			}
			if !eqPtr(o.GracePeriodSeconds, tt.grace) || (w == ForceDeleteWarning) != tt.warning || o.PropagationPolicy == nil || *o.PropagationPolicy != "Background" {
				t.Errorf("options %+v (grace %v) warning %q", o, ptrStr(o.GracePeriodSeconds), w)
			}
			if IsForceDeletion(&o) != tt.warning {
				t.Errorf("IsForceDeletion = %v", IsForceDeletion(&o))
			}
		})
	}
}
