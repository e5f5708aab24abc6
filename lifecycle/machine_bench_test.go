package lifecycle

import (
	"strconv"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// manyContainersPod is a pod of n regular containers and no init
// containers, restartPolicy Always, all on an image already on the node.
func manyContainersPod(n int) *api.Pod {
	apps := make([]api.Container, n)
	for i := range apps {
		apps[i] = api.Container{Name: "c" + strconv.Itoa(i), Image: "busybox"}
	}
	pod := appPod(api.RestartPolicyAlways, nil, apps...)
	pod.CreationTimestamp = api.NewTime(machineT0)
	return pod
}

// manyContainersStep is one event of manyContainersScript with its time.
type manyContainersStep struct {
	at time.Time
	ev Event
}

// manyContainersScript brings a pod of n containers up one start at a
// time, then lets a few of them crash and come back after the crash-loop
// back-off: the kubelet's life of a big pod, one event per step.
func manyContainersScript(n int) []manyContainersStep {
	now := machineT0
	var s []manyContainersStep
	add := func(d time.Duration, ev Event) {
		now = now.Add(d)
		s = append(s, manyContainersStep{now, ev})
	}
	add(0, Scheduled("n1"))
	add(time.Second, SandboxReady("10.0.0.1"))
	for i := range n {
		add(time.Millisecond, ContainerStarted("c"+strconv.Itoa(i)))
	}
	crashed := min(n, 5)
	for i := range crashed {
		add(time.Second, ContainerExited("c"+strconv.Itoa(i*n/crashed), 1, ""))
	}
	add(15*time.Second, Tick()) // every back-off (10 s) has run out
	for i := range crashed {
		add(time.Millisecond, ContainerStarted("c"+strconv.Itoa(i*n/crashed)))
	}
	return s
}

// BenchmarkMachineStepContainers measures one Machine step of a pod with
// many regular containers: the scheduling, the sandbox, each container's
// start, a few crashes and their restarts (manyContainersScript). A step
// costs time linear in the pod's containers at worst: ns/step grows about
// tenfold from 100 to 1,000 containers, not a hundredfold.
func BenchmarkMachineStepContainers(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 2000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			pod := manyContainersPod(n)
			script := manyContainersScript(n)
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				m := NewMachine(pod, present)
				for _, s := range script {
					m.Step(s.ev, s.at)
				}
				steps += len(script)
				if st := m.Pod().Status; st.Phase != api.PodRunning {
					b.Fatalf("phase %s after the script", st.Phase)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
		})
	}
}
