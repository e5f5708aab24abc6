package admission_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// The PriorityClasses of the priority documentation: a high-priority class
// and a non-preempting one, next to the built-in system classes.
func ExampleResolvePriority() {
	never := api.PreemptNever
	lower := api.PreemptLowerPriority
	classes := append(api.SystemPriorityClasses(),
		api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Value: 1000000, PreemptionPolicy: &lower},
		api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "high-priority-nonpreempting"}, Value: 1000000, PreemptionPolicy: &never},
	)
	for _, name := range []string{"high-priority", "high-priority-nonpreempting", "system-node-critical", "", "gold"} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "nginx", Namespace: "default"}}
		pod.Spec.PriorityClassName = name
		p, err := admission.ResolvePriority(pod, classes)
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
	existing := api.SystemPriorityClasses()
	for _, pc := range []api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Value: 1000000, GlobalDefault: true},
		{ObjectMeta: api.ObjectMeta{Name: "too-high"}, Value: 1000000001},
		{ObjectMeta: api.ObjectMeta{Name: "system-mine"}, Value: 5},
	} {
		if err := admission.AdmitPriorityClass(&pc, existing); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s stored with preemptionPolicy %s\n", pc.Name, *pc.PreemptionPolicy)
		existing = append(existing, pc)
	}
	second := api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "other-default"}, Value: 1, GlobalDefault: true}
	fmt.Println(admission.AdmitPriorityClass(&second, existing))
	// Output:
	// high-priority stored with preemptionPolicy PreemptLowerPriority
	// PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000
	// PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class
	// priorityclasses.scheduling.k8s.io "other-default" is forbidden: PriorityClass high-priority is already marked as default. Only one default can exist
}
