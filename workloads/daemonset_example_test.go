package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// fluentd is the log collector of the Kubernetes docs' DaemonSet page: it
// tolerates the control plane's NoSchedule taint so that control-plane
// nodes get a pod too.
func fluentd() *api.DaemonSet {
	return &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "fluentd-elasticsearch", Namespace: "kube-system", UID: "ds-fluentd", Generation: 1,
			Annotations: map[string]string{workloads.AnnotationDaemonSetTemplateGeneration: "1"}},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"name": "fluentd-elasticsearch"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"name": "fluentd-elasticsearch"}},
				Spec: api.PodSpec{
					Containers: []api.Container{{Name: "fluentd-elasticsearch", Image: "quay.io/fluentd_elasticsearch/fluentd:v5.0.1"}},
					Tolerations: []api.Toleration{{Key: "node-role.kubernetes.io/control-plane", Operator: api.TolerationOpExists,
						Effect: api.TaintEffectNoSchedule}},
				},
			},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType},
		},
	}
}

func exampleNode(name string, unschedulable bool, taints ...api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.NodeSpec{Unschedulable: unschedulable, Taints: taints}}
}

// What does a DaemonSet run on my new node? The answer depends on the
// node's taints and the DaemonSet's template, not on whether the node is
// cordoned: daemon pods tolerate the taints the node controllers put on
// cordoned, unreachable and pressured nodes — but not the NoSchedule
// not-ready taint of a node that has just registered.
func ExampleNodeShouldRunDaemonPod() {
	ds := fluentd()
	for _, n := range []*api.Node{
		exampleNode("worker-1", false),
		exampleNode("control-plane-1", false, api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}),
		exampleNode("cordoned-1", true, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}),
		exampleNode("gpu-1", false, api.Taint{Key: "nvidia.com/gpu", Value: "present", Effect: api.TaintEffectNoSchedule}),
		exampleNode("joining-1", false, api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}),
		exampleNode("lost-1", false, api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}),
		exampleNode("drained-1", false, api.Taint{Key: "example.com/maintenance", Effect: api.TaintEffectNoExecute}),
	} {
		pl, err := workloads.NodeShouldRunDaemonPod(n, ds)
		if err != nil {
			fmt.Println(err)
			return
		}
		why := ""
		if pl.Taint != nil {
			why = " (" + pl.Taint.Key + ":" + string(pl.Taint.Effect) + ")"
		}
		fmt.Printf("%-16s run=%-5v keep=%v%s\n", n.Name, pl.ShouldRun, pl.ShouldContinueRunning, why)
	}
	// Output:
	// worker-1         run=true  keep=true
	// control-plane-1  run=true  keep=true
	// cordoned-1       run=true  keep=true
	// gpu-1            run=false keep=true (nvidia.com/gpu:NoSchedule)
	// joining-1        run=false keep=true (node.kubernetes.io/not-ready:NoSchedule)
	// lost-1           run=true  keep=true
	// drained-1        run=false keep=false (example.com/maintenance:NoExecute)
}

// The pod the DaemonSet controller creates for a node: pinned to it by a
// matchFields term the scheduler honours, tolerating what a node agent
// must survive.
func ExampleNewDaemonPod() {
	pod, err := workloads.NewDaemonPod(fluentd(), "worker-1", "6d5f8c7b9d")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("generateName:", pod.GenerateName)
	fmt.Println("labels:", api.FormatLabels(pod.Labels))
	for _, t := range pod.Spec.Tolerations {
		fmt.Printf("toleration: %s %s %s\n", t.Key, t.Operator, t.Effect)
	}
	term := pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0]
	fmt.Printf("node affinity: %s %s %v\n", term.Key, term.Operator, term.Values)
	// Output:
	// generateName: fluentd-elasticsearch-
	// labels: controller-revision-hash=6d5f8c7b9d,name=fluentd-elasticsearch,pod-template-generation=1
	// toleration: node-role.kubernetes.io/control-plane Exists NoSchedule
	// toleration: node.kubernetes.io/not-ready Exists NoExecute
	// toleration: node.kubernetes.io/unreachable Exists NoExecute
	// toleration: node.kubernetes.io/disk-pressure Exists NoSchedule
	// toleration: node.kubernetes.io/memory-pressure Exists NoSchedule
	// toleration: node.kubernetes.io/pid-pressure Exists NoSchedule
	// toleration: node.kubernetes.io/unschedulable Exists NoSchedule
	// node affinity: metadata.name In [worker-1]
}

// One sync over a cluster where one node already runs the daemon pod and
// another runs two (a leftover of an earlier sync): the controller creates
// the missing pod, deletes the younger of the two, and writes the status.
func ExampleSyncDaemonSet() {
	ds := fluentd()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	daemonPod := func(name, node string, age time.Duration) *api.Pod {
		p, _ := workloads.NewDaemonPod(ds, node, "")
		p.Name, p.Namespace, p.UID = name, ds.Namespace, "uid-"+name
		p.CreationTimestamp = api.NewTime(now.Add(-age))
		p.Spec.NodeName = node
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		return p
	}
	r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{
		DaemonSet: ds,
		Nodes:     []*api.Node{exampleNode("worker-1", false), exampleNode("worker-2", false), exampleNode("worker-3", false)},
		Pods: []*api.Pod{
			daemonPod("fluentd-a", "worker-1", time.Hour),
			daemonPod("fluentd-b", "worker-2", 2*time.Hour),
			daemonPod("fluentd-c", "worker-2", time.Minute),
		},
	}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range r.Create {
		fmt.Println("create on", c.Node)
	}
	for _, d := range r.Delete {
		fmt.Println("delete", d.Pod.Name, d.Reason)
	}
	st := r.Status
	fmt.Printf("desired %d, current %d, ready %d, updated %d (written: %v)\n",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.UpdatedNumberScheduled, r.StatusUpdated)
	// Output:
	// create on worker-3
	// delete fluentd-c Excess
	// desired 3, current 2, ready 2, updated 2 (written: true)
}

// The controller as a state machine: a daemon pod that keeps failing is
// deleted at most once per back-off period on its node, and the
// controller says when it wants to be stepped again.
func ExampleDaemonSetController() {
	ds := fluentd()
	nodes := []*api.Node{exampleNode("worker-1", false)}
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	failed := func(name string) *api.Pod {
		p, _ := workloads.NewDaemonPod(ds, "worker-1", "")
		p.Name, p.Namespace, p.UID = name, ds.Namespace, "uid-"+name
		p.Spec.NodeName = "worker-1"
		p.Status.Phase = api.PodFailed
		return p
	}
	var c workloads.DaemonSetController
	step := func(at time.Duration, pods ...*api.Pod) {
		r, err := c.Step(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, Pods: pods}, t0.Add(at))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("at %v: %d created, %d deleted", at, len(r.Create), len(r.Delete))
		if d := c.NextDeadline(); !d.IsZero() {
			fmt.Printf(", next sync at %v", d.Sub(t0))
		}
		fmt.Println()
	}
	step(0, failed("fluentd-1"))                     // the first failure on the node: deleted at once
	step(time.Second)                                // the node has no pod: a new one
	step(1500*time.Millisecond, failed("fluentd-2")) // 1.5 s after the last delete: past the 1 s back-off
	step(2 * time.Second)                            // replaced
	step(2500*time.Millisecond, failed("fluentd-3")) // 1 s later, within the doubled 2 s: held
	step(4500*time.Millisecond, failed("fluentd-3")) // the back-off is over
	// Output:
	// at 0s: 0 created, 1 deleted
	// at 1s: 1 created, 0 deleted
	// at 1.5s: 0 created, 1 deleted
	// at 2s: 1 created, 0 deleted
	// at 2.5s: 0 created, 0 deleted, next sync at 4.5s
	// at 4.5s: 0 created, 1 deleted
}

// Which node changes make the DaemonSet controller look at a DaemonSet
// again? Only label and taint changes reach its node worker, and that
// worker enqueues a DaemonSet only when its pod on the node has to be
// created or removed, or its misscheduled count may be stale: an
// untolerated NoSchedule taint under a running daemon pod leaves the
// DaemonSet (and the desired count in its status) as it was.
func ExampleDaemonSetSyncsForNode() {
	ds := fluentd()
	yes := true
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "fluentd-x7k2p", Namespace: "kube-system",
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: &yes}}},
		Spec: api.PodSpec{NodeName: "worker-1"}}
	before := exampleNode("worker-1", false)
	for _, after := range []*api.Node{
		exampleNode("worker-1", false), // a status update: same labels and taints
		exampleNode("worker-1", false, api.Taint{Key: "gpu", Effect: api.TaintEffectNoSchedule}),
		exampleNode("worker-1", false, api.Taint{Key: "maintenance", Effect: api.TaintEffectNoExecute}),
	} {
		ignored, _ := workloads.DaemonSetIgnoresNodeUpdate(before, after)
		sync, _ := workloads.DaemonSetSyncsForNode(after, ds, []*api.Pod{pod})
		fmt.Printf("taints %v: ignored %v, DaemonSet synced %v\n", len(after.Spec.Taints), ignored, !ignored && sync)
	}
	// Output:
	// taints 0: ignored true, DaemonSet synced false
	// taints 1: ignored false, DaemonSet synced false
	// taints 1: ignored false, DaemonSet synced true
}
