package scheduling_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// The PriorityClasses of the priority documentation: a high-priority class
// and a non-preempting one, next to the built-in system classes.
func ExampleResolvePriority() {
	never := api.PreemptNever
	lower := api.PreemptLowerPriority
	classes := append(scheduling.SystemPriorityClasses(),
		api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Value: 1000000, PreemptionPolicy: &lower},
		api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-priority-nonpreempting"}, Value: 1000000, PreemptionPolicy: &never},
	)
	for _, name := range []string{"high-priority", "high-priority-nonpreempting", "system-node-critical", "", "gold"} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"}}
		pod.Spec.PriorityClassName = name
		p, err := scheduling.ResolvePriority(pod, classes)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q -> priority %d, %s\n", name, p.Value, *p.PreemptionPolicy)
	}
	// Output:
	// "high-priority" -> priority 1000000, PreemptLowerPriority
	// "high-priority-nonpreempting" -> priority 1000000, Never
	// "system-node-critical" -> priority 2000001000, PreemptLowerPriority
	// "" -> priority 0, PreemptLowerPriority
	// pods "nginx" is forbidden: no PriorityClass with name gold was found
}

func ExampleAdmitPriorityClass() {
	existing := scheduling.SystemPriorityClasses()
	for _, pc := range []api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Value: 1000000, GlobalDefault: true},
		{ObjectMeta: api.ObjectMeta{Name: "too-high"}, Value: 1000000001},
		{ObjectMeta: api.ObjectMeta{Name: "system-mine"}, Value: 5},
	} {
		if err := scheduling.AdmitPriorityClass(&pc, existing); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s stored with preemptionPolicy %s\n", pc.Name, *pc.PreemptionPolicy)
		existing = append(existing, pc)
	}
	second := api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "other-default"}, Value: 1, GlobalDefault: true}
	fmt.Println(scheduling.AdmitPriorityClass(&second, existing))
	// Output:
	// high-priority stored with preemptionPolicy PreemptLowerPriority
	// PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000
	// PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class
	// priorityclasses.scheduling.k8s.io "other-default" is forbidden: PriorityClass high-priority is already marked as default. Only one default can exist
}

// The scheduling queue hands out higher priorities first, and the earlier
// arrival among equals.
func ExampleSortQueue() {
	t0 := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	prio := func(v int32) *int32 { return &v }
	pod := func(name string, p *int32) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1"}, Spec: api.PodSpec{Priority: p}}
	}
	q := []scheduling.QueuedPod{
		{Pod: pod("low", prio(0)), Timestamp: t0},
		{Pod: pod("high", prio(1000)), Timestamp: t0.Add(2 * time.Second)},
		{Pod: pod("mid-late", prio(100)), Timestamp: t0.Add(3 * time.Second)},
		{Pod: pod("mid-early", prio(100)), Timestamp: t0.Add(time.Second)},
	}
	scheduling.SortQueue(q)
	for _, p := range q {
		fmt.Println(p.Pod.Key())
	}
	// Output:
	// ns-1/high
	// ns-1/mid-early
	// ns-1/mid-late
	// ns-1/low
}
