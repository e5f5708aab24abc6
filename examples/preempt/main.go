// Command preempt replays two "who loses?" decisions on a small embedded
// cluster, as Kubernetes v1.36.3 makes them:
//
//   - kube-scheduler's DefaultPreemption for a high-priority pod that fits
//     nowhere: the scheduling cycle's FitError, then, from that cycle's
//     decision, which nodes preemption tries, the minimal victims on each
//     (with the PodDisruptionBudget that reshapes them), the node it picks
//     and why, and the nominations it clears; then the same turn of the
//     scheduling loop (preemption.NewLoop: the default profile, with
//     DefaultPreemption as its PostFilter) and the API calls it asks for;
//   - the kubelet's ranking of one node's pods under memory pressure.
//
// Usage:
//
//	go run ./examples/preempt
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// clusterJSON: four 4-cpu nodes. node-a runs a pod more important than
// the preemptor; node-b runs batch work and a cache; node-c is reserved
// for GPU work by a taint; node-d runs one big batch pod and has a report
// pod nominated to it. A budget allows one batch pod to be disrupted.
const clusterJSON = `{"kind": "List", "items": [
 {"kind": "Node", "metadata": {"name": "node-a", "labels": {"kubernetes.io/hostname": "node-a"}},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "node-b", "labels": {"kubernetes.io/hostname": "node-b"}},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "node-c", "labels": {"kubernetes.io/hostname": "node-c"}},
  "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "node-d", "labels": {"kubernetes.io/hostname": "node-d"}},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},

 {"kind": "Pod", "metadata": {"name": "web-1", "namespace": "shop", "labels": {"app": "web"}},
  "spec": {"nodeName": "node-a", "priority": 200000, "containers": [{"name": "c", "image": "web", "resources": {"requests": {"cpu": "2"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:00:00Z"}},
 {"kind": "Pod", "metadata": {"name": "batch-1", "namespace": "shop", "labels": {"app": "batch"}},
  "spec": {"nodeName": "node-a", "priority": 0, "containers": [{"name": "c", "image": "batch", "resources": {"requests": {"cpu": "2"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:01:00Z"}},
 {"kind": "Pod", "metadata": {"name": "batch-2", "namespace": "shop", "uid": "uid-batch-2", "labels": {"app": "batch"}},
  "spec": {"nodeName": "node-b", "priority": 0, "containers": [{"name": "c", "image": "batch", "resources": {"requests": {"cpu": "1", "memory": "256Mi"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:10:00Z"}},
 {"kind": "Pod", "metadata": {"name": "batch-3", "namespace": "shop", "uid": "uid-batch-3", "labels": {"app": "batch"}},
  "spec": {"nodeName": "node-b", "priority": 0, "containers": [{"name": "c", "image": "batch", "resources": {"requests": {"cpu": "2"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:05:00Z"}},
 {"kind": "Pod", "metadata": {"name": "cache", "namespace": "shop", "uid": "uid-cache", "labels": {"app": "cache"}},
  "spec": {"nodeName": "node-b", "priority": 500, "containers": [{"name": "c", "image": "redis", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:02:00Z"}},
 {"kind": "Pod", "metadata": {"name": "batch-4", "namespace": "shop", "labels": {"app": "batch"}},
  "spec": {"nodeName": "node-d", "priority": 0, "containers": [{"name": "c", "image": "batch", "resources": {"requests": {"cpu": "4"}}}]},
  "status": {"phase": "Running", "startTime": "2025-03-01T08:20:00Z"}},
 {"kind": "Pod", "metadata": {"name": "report", "namespace": "shop", "labels": {"app": "report"}},
  "spec": {"priority": 50, "containers": [{"name": "c", "image": "report", "resources": {"requests": {"cpu": "1"}}}]},
  "status": {"phase": "Pending", "nominatedNodeName": "node-d"}},

 {"kind": "PodDisruptionBudget", "apiVersion": "policy/v1", "metadata": {"name": "batch", "namespace": "shop"},
  "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "batch"}}},
  "status": {"disruptionsAllowed": 1, "currentHealthy": 4, "desiredHealthy": 3, "expectedPods": 4}}
]}`

// preemptorJSON is the pending high-priority pod.
const preemptorJSON = `{"kind": "Pod", "metadata": {"name": "payments", "namespace": "shop"},
 "spec": {"priority": 100000, "containers": [{"name": "c", "image": "payments", "resources": {"requests": {"cpu": "3"}}}]},
 "status": {"phase": "Pending"}}`

// statsJSON is node-b's Summary API pod stats.
const statsJSON = `[
 {"podRef": {"name": "batch-2", "namespace": "shop", "uid": "uid-batch-2"}, "memory": {"workingSetBytes": 734003200}},
 {"podRef": {"name": "batch-3", "namespace": "shop", "uid": "uid-batch-3"}, "memory": {"workingSetBytes": 314572800}},
 {"podRef": {"name": "cache", "namespace": "shop", "uid": "uid-cache"}, "memory": {"workingSetBytes": 943718400}}
]`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "preempt:", err)
		os.Exit(1)
	}
}

func run() error {
	objs, err := api.Decode([]byte(clusterJSON))
	if err != nil {
		return err
	}
	var pods []*api.Pod
	for _, o := range objs {
		if p, ok := o.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	var preemptor api.Pod
	if err := json.Unmarshal([]byte(preemptorJSON), &preemptor); err != nil {
		return err
	}
	// The snapshot holds the nodes, the pods and the budget.
	c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		return err
	}
	if err := c.AddObjects(objs...); err != nil {
		return err
	}
	now := time.Now()

	fmt.Println("== kube-scheduler: preemption for shop/payments (priority 100000, 3 cpu)")
	// The scheduling cycle finds no node; preemption starts from that
	// cycle and its decision.
	cy := c.NewCycle(&preemptor)
	var d scheduling.Decision
	cy.Decide(&d)
	fmt.Println(d.Message())
	r := preemption.Preempt(cy, &d, c.PodDisruptionBudgets(), preemption.Config{}, now)
	fmt.Println(r)
	fmt.Println()
	fmt.Println("candidates (dry-run order; the lowest highest-victim priority wins here):")
	for _, cand := range r.Candidates {
		top := api.PodPriority(cand.Victims[0])
		fmt.Printf("  %s: %d victim(s), highest victim priority %d, %d PDB violation(s)\n",
			cand.Node, len(cand.Victims), top, cand.PDBViolations)
	}
	fmt.Printf("nominatedNodeName of shop/payments: %s (%s)\n", r.Node, r.Nomination)

	fmt.Println()
	fmt.Println("== the scheduling loop's turn for shop/payments: what it asks the API server for")
	// The loop owns the snapshot from here on; shop/report, pending, was
	// queued with it, but shop/payments is more important and goes first.
	l, err := preemption.NewLoop(c, now)
	if err != nil {
		return err
	}
	if _, err := l.Step(scheduling.PodAdded(&preemptor), now); err != nil {
		return err
	}
	res, err := l.Step(scheduling.Tick(), now)
	if err != nil {
		return err
	}
	for _, a := range res.Actions {
		switch a.Kind {
		case scheduling.ActionPreempt:
			fmt.Printf("  %s: %s=%s (%s), then DELETE with its own grace period\n",
				a, a.Condition.Type, a.Condition.Status, a.Condition.Reason)
		case scheduling.ActionFailedScheduling:
			fmt.Printf("  %s: PodScheduled=False (%s)\n", a.Kind, a.Condition.Reason)
		default:
			fmt.Printf("  %s\n", a)
		}
	}
	fmt.Println()
	fmt.Println("== kubelet on node-b: eviction order under memory.available pressure")
	var stats []nodepressure.PodStats
	if err := json.Unmarshal([]byte(statsJSON), &stats); err != nil {
		return err
	}
	var onB []*api.Pod
	for _, p := range pods {
		if p.Spec.NodeName == "node-b" {
			onB = append(onB, p)
		}
	}
	ranks, err := nodepressure.RankForEviction(onB, nodepressure.StatsByUID(stats), nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared)
	if err != nil {
		return err
	}
	for i, rk := range ranks {
		fmt.Printf("  %d. %-8s %s\n", i+1, rk.Pod.Name, rk.Reason())
	}
	return nil
}
