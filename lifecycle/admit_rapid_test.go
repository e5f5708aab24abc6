package lifecycle_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// admitWorld draws a node and the pods running on it, each with cpu and
// memory requests (sometimes none), some with a priority, and a pod to
// admit, critical or not.
type admitWorld struct {
	node     *api.Node
	pods     []*api.Pod
	pod      *api.Pod
	podSlots int64
	cpu, mem int64 // allocatable, milli-cpu and bytes
}

func drawAdmitPod(t *rapid.T, name string, critical bool) *api.Pod {
	cpu := rapid.Int64Range(0, 4000).Draw(t, name+".cpu")
	mem := rapid.Int64Range(0, 8).Draw(t, name+".memGi4") * (1 << 28) // quarters of a GiB
	p := &api.Pod{}
	p.Name, p.Namespace = name, "default"
	p.Spec.NodeName = "node-1"
	reqs := api.ResourceList{}
	if cpu > 0 {
		reqs[api.ResourceCPU] = api.NewMilliQuantity(cpu, api.DecimalSI)
	}
	if mem > 0 {
		reqs[api.ResourceMemory] = api.NewQuantity(mem, api.BinarySI)
	}
	c := api.Container{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{Requests: reqs}}
	if rapid.Bool().Draw(t, name+".guaranteed") && cpu > 0 && mem > 0 {
		c.Resources.Limits = reqs
	}
	p.Spec.Containers = []api.Container{c}
	switch {
	case critical:
		prio := int32(api.SystemCriticalPriority)
		p.Spec.Priority = &prio
	case rapid.Bool().Draw(t, name+".hasPriority"):
		prio := rapid.Int32Range(0, 1000).Draw(t, name+".priority")
		p.Spec.Priority = &prio
	}
	return p
}

func drawAdmitWorld(t *rapid.T) admitWorld {
	w := admitWorld{
		podSlots: rapid.Int64Range(0, 6).Draw(t, "pods"),
		cpu:      rapid.Int64Range(0, 8000).Draw(t, "cpu"),
		mem:      rapid.Int64Range(0, 32).Draw(t, "memGi4") * (1 << 28),
	}
	w.node = &api.Node{}
	w.node.Name = "node-1"
	w.node.Labels = map[string]string{api.LabelOS: "linux"}
	w.node.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(w.cpu, api.DecimalSI),
		api.ResourceMemory: api.NewQuantity(w.mem, api.BinarySI),
		api.ResourcePods:   api.NewQuantity(w.podSlots, api.DecimalSI),
	}
	n := rapid.IntRange(0, 6).Draw(t, "running")
	for i := range n {
		w.pods = append(w.pods, drawAdmitPod(t, "p"+strconv.Itoa(i), false))
	}
	w.pod = drawAdmitPod(t, "new", rapid.Bool().Draw(t, "critical"))
	return w
}

// sums returns the cpu and memory the pods request.
func sums(pods []*api.Pod) (cpu, mem int64) {
	for _, p := range pods {
		r := api.PodRequests(p, api.PodResourcesOptions{})
		cpu += r.Cpu().MilliValue()
		mem += r.Memory().Value()
	}
	return cpu, mem
}

// fits reports whether pod fits beside pods on w's node, as the kubelet's
// resource check sees it: a pod slot left, and each positive request at
// most what the running pods leave of allocatable.
func (w *admitWorld) fits(pod *api.Pod, pods []*api.Pod) error {
	if int64(len(pods))+1 > w.podSlots {
		return fmt.Errorf("%d pods running, %d slots", len(pods), w.podSlots)
	}
	cpu, mem := sums(pods)
	r := api.PodRequests(pod, api.PodResourcesOptions{})
	if c := r.Cpu().MilliValue(); c > 0 && c > w.cpu-cpu {
		return fmt.Errorf("cpu %dm wanted, %dm of %dm used", c, cpu, w.cpu)
	}
	if m := r.Memory().Value(); m > 0 && m > w.mem-mem {
		return fmt.Errorf("memory %d wanted, %d of %d used", m, mem, w.mem)
	}
	return nil
}

// The kubelet never admits a pod whose requests exceed the node's
// allocatable minus what the admitted pods request, nor one beyond the
// node's pod count — unless the pod is critical, and then only by
// preempting pods: once the preempted pods are gone it fits, and every one
// of them was preemptable (not critical). A pod refused for a resource
// indeed does not fit, and is written Failed.
func TestRapidAdmitNeverOvercommits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawAdmitWorld(t)
		r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: w.node, Pod: w.pod, Pods: w.pods})
		if err != nil {
			t.Fatal(err)
		}
		misfit := w.fits(w.pod, w.pods)
		if !r.Admit {
			if r.Status.Phase != api.PodFailed || r.Status.Reason != r.Reason {
				t.Fatalf("refused with status %+v", r.Status)
			}
			if misfit == nil {
				t.Fatalf("refused a pod that fits: %s: %s", r.Reason, r.Message)
			}
			return
		}
		if len(r.Preempted) == 0 {
			if misfit != nil {
				t.Fatalf("admitted a pod that does not fit (%v)", misfit)
			}
			return
		}
		if !api.IsCriticalPod(w.pod) {
			t.Fatalf("preempted %d pods for a pod that is not critical", len(r.Preempted))
		}
		gone := map[*api.Pod]bool{}
		for _, v := range r.Preempted {
			if api.IsCriticalPod(v.Pod) || gone[v.Pod] {
				t.Fatalf("preempted %s twice or though critical", v.Pod.Name)
			}
			if v.Status.Phase != api.PodFailed || v.Status.Reason != lifecycle.ReasonPreempting {
				t.Fatalf("preempted %s with status %+v", v.Pod.Name, v.Status)
			}
			if e := v.Event; e.Type != api.EventTypeWarning || e.Reason != lifecycle.ReasonPreempting ||
				e.Note != lifecycle.PreemptedMessage || e.Regarding != api.PodReference(v.Pod) {
				t.Fatalf("preempted %s with event %+v", v.Pod.Name, e)
			}
			// The victim's own machine, handed the kill, writes the very
			// status Admit promises.
			now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
			m := lifecycle.NewMachine(v.Pod, lifecycle.MachineConfig{})
			m.Step(lifecycle.Scheduled(w.node.Name), now)
			st, _ := m.Step(v.Kill, now)
			got := api.FindCondition(st.Conditions, api.DisruptionTarget)
			want := api.FindCondition(v.Status.Conditions, api.DisruptionTarget)
			if st.Phase != v.Status.Phase || st.Reason != v.Status.Reason || st.Message != v.Status.Message ||
				got == nil || want == nil || got.Message != want.Message || got.Reason != want.Reason {
				t.Fatalf("preempted %s: machine status %s/%s/%q %+v, Admit's %s/%s/%q %+v", v.Pod.Name,
					st.Phase, st.Reason, st.Message, got, v.Status.Phase, v.Status.Reason, v.Status.Message, want)
			}
			gone[v.Pod] = true
		}
		var left []*api.Pod
		for _, p := range w.pods {
			if !gone[p] {
				left = append(left, p)
			}
		}
		if err := w.fits(w.pod, left); err != nil {
			t.Fatalf("critical pod admitted after preempting %d pods still does not fit: %v", len(r.Preempted), err)
		}
	})
}

// A pod the kubelet refuses never runs: handed Admit's verdict
// (AdmitResult.MachineEvent), its Machine reports the refusal's Failed
// status and, whatever the runtime says next, never a Running phase or a
// started container.
func TestRapidRejectedByAdmitNeverRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawAdmitWorld(t)
		w.pod.UID = "u-new"
		grace := int64(30)
		w.pod.Spec.TerminationGracePeriodSeconds = &grace
		r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: w.node, Pod: w.pod, Pods: w.pods})
		if err != nil {
			t.Fatal(err)
		}
		if r.Admit {
			t.Skip("admitted")
		}
		now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
		m := lifecycle.NewMachine(w.pod, lifecycle.MachineConfig{})
		st, _ := m.Step(r.MachineEvent("node-1"), now)
		if st.Phase != api.PodFailed || st.Reason != r.Reason || st.Message != r.Status.Message {
			t.Fatalf("status after the refusal: %s %s %q, want Failed %s %q", st.Phase, st.Reason, st.Message, r.Reason, r.Status.Message)
		}
		events := []lifecycle.Event{lifecycle.SandboxReady("10.0.0.9"), lifecycle.ImagePulled("app"),
			lifecycle.ContainerStarted("app"), lifecycle.Tick(), lifecycle.DeletionRequested(30)}
		for i := range rapid.IntRange(0, 6).Draw(t, "steps") {
			now = now.Add(time.Second)
			st, _ = m.Step(rapid.SampledFrom(events).Draw(t, fmt.Sprintf("event%d", i)), now)
			if st.Phase == api.PodRunning {
				t.Fatalf("a refused pod runs")
			}
			for _, cs := range st.ContainerStatuses {
				if cs.State.Running != nil || cs.Started != nil && *cs.Started {
					t.Fatalf("container %s of a refused pod started", cs.Name)
				}
			}
		}
	})
}
