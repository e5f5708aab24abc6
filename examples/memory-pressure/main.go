// Command memory-pressure replays a node running out of memory through the
// kubelet's eviction manager, one housekeeping pass every 10 s. A cache
// without memory requests grows until the soft threshold
// (memory.available<1Gi) has held for its one-minute grace period, and is
// evicted with a 30 s grace period; later a batch job loads a dataset far
// beyond its request, breaches the hard threshold (memory.available<500Mi)
// and is evicted at once with 1 s. The critical pods are never chosen. The
// MemoryPressure condition appears at the first breach and clears only
// once no threshold has been in force for the 5 minute transition period.
//
// The node's memory is a scripted Summary series; run it with
//
//	go run ./examples/memory-pressure
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/nodepressure"
)

const mi = 1 << 20

var start = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// workload is one pod and how its working set evolves (MiB at t).
type workload struct {
	pod   *api.Pod
	usage func(t time.Duration) uint64
}

func pod(name string, priority int32, request string, annotations map[string]string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: 1,
		Annotations: annotations, CreationTimestamp: api.NewTime(start.Add(-20 * time.Minute))}}
	p.Spec.NodeName = "node-1"
	p.Spec.Priority = &priority
	p.Spec.TerminationGracePeriodSeconds = ptr(int64(60))
	c := api.Container{Name: "app", Image: "registry.example/" + name}
	if request != "" {
		c.Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity(request)}
	}
	p.Spec.Containers = []api.Container{c}
	p.Status = api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{
		Name: "app", Ready: true, State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: p.CreationTimestamp}}}}}
	return p
}

func ptr[T any](v T) *T { return &v }

func main() {
	m, err := nodepressure.NewManager(nodepressure.Settings{
		Hard:                     map[string]string{"memory.available": "500Mi"},
		Soft:                     map[string]string{"memory.available": "1Gi"},
		SoftGracePeriod:          map[string]string{"memory.available": "1m"},
		MinimumReclaim:           map[string]string{"memory.available": "200Mi"},
		MaxPodGracePeriodSeconds: 30,
	}, nodepressure.LayoutShared)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("eviction thresholds (allocatableMemory.available is not observed here: the")
	fmt.Println("scripted Summary carries no statistics of the pods' cgroup):")
	for _, t := range m.Policy().Thresholds {
		fmt.Println("  " + t.String())
	}

	const capacity, system = 8192, 1024 // MiB
	steps := func(t time.Duration) uint64 { return uint64(t / (10 * time.Second)) }
	loads := []workload{
		{pod("kube-proxy", 2000001000, "", map[string]string{api.ConfigSourceAnnotationKey: "file"}), func(time.Duration) uint64 { return 50 }},
		{pod("coredns", 2000000000, "70Mi", nil), func(time.Duration) uint64 { return 70 }},
		{pod("web", 0, "1Gi", nil), func(t time.Duration) uint64 { return 1536 + 10*steps(t) }},
		{pod("batch", 0, "2Gi", nil), func(t time.Duration) uint64 {
			if t >= 7*time.Minute {
				return 4900 // loads its dataset
			}
			return 2048
		}},
		{pod("cache", 0, "", nil), func(t time.Duration) uint64 { return 1024 + 40*steps(t) }},
	}
	active := map[*api.Pod]bool{}
	for _, w := range loads {
		active[w.pod] = true
	}

	fmt.Println()
	fmt.Printf("%-7s  %-9s  %-28s  %s\n", "TIME", "AVAILABLE", "THRESHOLDS MET", "CONDITIONS")
	last := "-"
	for t := time.Duration(0); t <= 14*time.Minute; t += 10 * time.Second {
		now := start.Add(t)
		tm := api.NewTime(now)
		used := uint64(system)
		var pods []*api.Pod
		var stats []nodepressure.PodStats
		for _, w := range loads {
			if !active[w.pod] {
				continue
			}
			ws := w.usage(t) * mi
			used += ws / mi
			pods = append(pods, w.pod)
			mem := &nodepressure.MemoryStats{Time: tm, WorkingSetBytes: ptr(ws)}
			stats = append(stats, nodepressure.PodStats{
				PodRef:     nodepressure.PodReference{Name: w.pod.Name, Namespace: "default", UID: w.pod.UID},
				Memory:     mem,
				Containers: []nodepressure.ContainerStats{{Name: "app", Memory: mem}},
			})
		}
		avail := uint64(0)
		if used < capacity {
			avail = (capacity - used) * mi
		}
		st := m.Step(nodepressure.Observation{
			Summary: nodepressure.Summary{
				Node: nodepressure.NodeStats{NodeName: "node-1", Memory: &nodepressure.MemoryStats{
					Time: tm, AvailableBytes: ptr(avail), WorkingSetBytes: ptr(used * mi)}},
				Pods: stats,
			},
			Pods: pods,
		}, now)

		var met []string
		for _, th := range st.ThresholdsMet {
			met = append(met, short(th))
		}
		var conds []string
		for _, c := range st.Conditions {
			conds = append(conds, string(c))
		}
		if len(met) == 0 {
			met = []string{"-"}
		}
		if len(conds) == 0 {
			conds = []string{"none"}
		}
		line := fmt.Sprintf("%-28s  %s", strings.Join(met, ", "), strings.Join(conds, ","))
		if line != last || st.Eviction != nil {
			fmt.Printf("%-7s  %-9s  %s\n", fmt.Sprintf("+%v", t), api.NewQuantity(int64(avail), api.BinarySI).String(), line)
			last = line
		}
		if e := st.Eviction; e != nil {
			kind := "soft"
			if st.Reclaim.Threshold.Hard() {
				kind = "hard"
			}
			fmt.Printf("         evict %s (%s threshold): grace %ds, %s\n", e.Pod.Name, kind, e.Grace.GracePeriodSeconds, e.Grace.Reason)
			for _, p := range st.Reclaim.SkippedCritical {
				fmt.Printf("         (skipped critical pod %s)\n", p.Name)
			}
			fmt.Printf("         message: %q\n", e.Message)
			// The status the eviction manager writes. The container states
			// come later from the runtime; once a container reports a
			// terminated reason (Error for a killed process), kubectl shows
			// that instead of Evicted.
			evicted := *e.Pod
			evicted.Status = e.Status
			evicted.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app"}}
			row := lifecycle.DisplayStatus(&evicted, now)
			fmt.Printf("         NAME   READY   STATUS    RESTARTS   AGE\n")
			fmt.Printf("         %-6s %-7s %-9s %-10s %s\n", evicted.Name, row.Ready, row.Status, row.Restarts, row.Age)
			delete(active, e.Pod)
		}
	}
}

// short renders a threshold for the table: "memory.available<1Gi (soft)".
func short(t nodepressure.Threshold) string {
	s := string(t.Signal) + "<" + t.Value.String()
	if !t.Hard() {
		s += " (soft)"
	}
	return s
}
