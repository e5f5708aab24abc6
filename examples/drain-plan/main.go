// Command drain-plan prints what `kubectl drain node-1 --ignore-daemonsets
// --delete-emptydir-data` would do on a small cluster: which pods it
// leaves, which it evicts, what the Eviction API answers for each (a
// ZooKeeper ensemble guarded by a PodDisruptionBudget lets one pod go at a
// time), and how the drain gets through once the disruption controller
// counts the replacement pod healthy: only when the two-minute
// disruptedPods entry left by the eviction, keyed by the pod's name, which
// the replacement shares, runs out.
//
// The cluster is embedded as `kubectl get -o json` output; run it with
//
//	go run ./examples/drain-plan
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// clusterJSON holds the pods of node-1 and node-2, the DaemonSet, the
// workload controllers and the PodDisruptionBudget, as a kind: List.
const clusterJSON = `{"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "zk", "namespace": "default", "uid": "uid-zk"}, "spec": {"replicas": 3}},
 {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web-7d9f", "namespace": "default", "uid": "uid-web-7d9f"}, "spec": {"replicas": 2}},
 {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "kube-proxy", "namespace": "kube-system", "uid": "uid-kube-proxy"}},
 {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
  "metadata": {"name": "zk-pdb", "namespace": "default", "generation": 1},
  "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "zookeeper"}}}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "zk-0", "namespace": "default", "uid": "uid-zk-0", "resourceVersion": "101", "labels": {"app": "zookeeper"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "zk", "uid": "uid-zk", "controller": true}]},
  "spec": {"nodeName": "node-1", "containers": [{"name": "zk", "image": "zookeeper:3.9"}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "zk-1", "namespace": "default", "uid": "uid-zk-1", "resourceVersion": "102", "labels": {"app": "zookeeper"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "zk", "uid": "uid-zk", "controller": true}]},
  "spec": {"nodeName": "node-1", "containers": [{"name": "zk", "image": "zookeeper:3.9"}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "zk-2", "namespace": "default", "uid": "uid-zk-2", "resourceVersion": "103", "labels": {"app": "zookeeper"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "zk", "uid": "uid-zk", "controller": true}]},
  "spec": {"nodeName": "node-2", "containers": [{"name": "zk", "image": "zookeeper:3.9"}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "web-7d9f-abcde", "namespace": "default", "uid": "uid-web-a", "resourceVersion": "201", "labels": {"app": "web"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f", "uid": "uid-web-7d9f", "controller": true}]},
  "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": "nginx:1.27"}],
   "volumes": [{"name": "cache", "emptyDir": {}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "kube-proxy-x1", "namespace": "kube-system", "uid": "uid-kp-1", "resourceVersion": "301",
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "kube-proxy", "uid": "uid-kube-proxy", "controller": true}]},
  "spec": {"nodeName": "node-1", "containers": [{"name": "kube-proxy", "image": "registry.k8s.io/kube-proxy:v1.36.3"}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "etcd-node-1", "namespace": "kube-system", "uid": "uid-etcd", "resourceVersion": "302",
   "annotations": {"kubernetes.io/config.mirror": "3f2a"},
   "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "uid-node-1", "controller": true}]},
  "spec": {"nodeName": "node-1", "containers": [{"name": "etcd", "image": "registry.k8s.io/etcd:3.6.4-0"}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
 {"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "report-28765", "namespace": "default", "uid": "uid-report", "resourceVersion": "401"},
  "spec": {"nodeName": "node-1", "containers": [{"name": "report", "image": "busybox:1.36"}]},
  "status": {"phase": "Succeeded"}}
]}`

type cluster struct {
	pods        []*api.Pod
	daemonSets  []*api.DaemonSet
	pdbs        []*api.PodDisruptionBudget
	controllers disruption.Controllers
}

func load() (*cluster, error) {
	objs, err := api.Decode([]byte(clusterJSON))
	if err != nil {
		return nil, err
	}
	c := &cluster{}
	for _, o := range objs {
		switch v := o.(type) {
		case *api.Pod:
			c.pods = append(c.pods, v)
		case *api.DaemonSet:
			c.daemonSets = append(c.daemonSets, v)
		case *api.PodDisruptionBudget:
			c.pdbs = append(c.pdbs, v)
		case *api.StatefulSet:
			c.controllers.StatefulSets = append(c.controllers.StatefulSets, v)
		case *api.ReplicaSet:
			c.controllers.ReplicaSets = append(c.controllers.ReplicaSets, v)
		}
	}
	return c, nil
}

// sync runs the disruption controller over every budget.
func (c *cluster) sync(now time.Time) {
	for _, b := range c.pdbs {
		var res disruption.Result
		b.Status, res = disruption.Evaluate(b, c.pods, c.controllers, now)
		fmt.Printf("  [disruption controller] %s: %d healthy of %d expected, %d desired, %d disruptions allowed\n",
			b.Name, b.Status.CurrentHealthy, b.Status.ExpectedPods, b.Status.DesiredHealthy, b.Status.DisruptionsAllowed)
		for _, name := range res.Disrupted {
			if until := b.Status.DisruptedPods[name].Add(disruption.DeletionTimeout); until.After(now) {
				fmt.Printf("    %s is in disruptedPods, not counted healthy until %s\n", name, until.Format(time.TimeOnly))
			}
		}
	}
}

// evict asks the Eviction API for pod and applies the answer: the budget
// status written and the pod marked for deletion.
func (c *cluster) evict(pod *api.Pod, now time.Time) bool {
	ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace}}
	d := disruption.Evict(pod, ev, c.pdbs, disruption.EvictOptions{}, now)
	if d.BudgetUpdated {
		for _, b := range c.pdbs {
			if b.Name == d.Budget && b.Namespace == pod.Namespace {
				b.Status = *d.BudgetStatus
			}
		}
	}
	if !d.Allowed {
		causes := make([]string, 0, len(d.Causes))
		for _, cause := range d.Causes {
			causes = append(causes, cause.Message)
		}
		fmt.Printf("  error when evicting pods/%q -n %q (will retry after 5s): %s %s\n", pod.Name, pod.Namespace, d.Message, strings.Join(causes, "; "))
		return false
	}
	pod.DeletionTimestamp = api.NewTimePtr(now)
	pod.Status.Conditions = append(pod.Status.Conditions, *d.DisruptionTarget)
	how := "no budget guards it"
	if d.Budget != "" {
		how = fmt.Sprintf("%s, budget %s", d.Rule, d.Budget)
	}
	fmt.Printf("  pod/%s evicted (%s)\n", pod.Name, how)
	return true
}

func main() {
	c, err := load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "drain-plan:", err)
		os.Exit(1)
	}
	now := time.Date(2025, 3, 3, 8, 0, 0, 0, time.UTC)
	flags := disruption.DrainFlags{IgnoreAllDaemonSets: true, DeleteEmptyDirData: true}

	fmt.Println("$ kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data")
	c.sync(now)
	plan := disruption.PlanDrain("node-1", c.pods, c.daemonSets, flags, now)
	fmt.Printf("node/node-1 cordoned; pods are removed by %s\n", plan.Method())
	for _, d := range plan.Pods {
		verdict := "leave"
		if d.Delete {
			verdict = "remove"
		}
		line := fmt.Sprintf("  %-6s %-28s %-7s (filter %s)", verdict, d.Pod.Key(), d.Reason, d.Filter)
		if d.Message != "" {
			line += ": " + d.Message
		}
		fmt.Println(line)
	}
	if len(plan.Warnings) > 0 {
		fmt.Println("Warning:", strings.Join(plan.Warnings, "; "))
	}
	if plan.Blocked() {
		fmt.Println("error: unable to drain node \"node-1\":", strings.Join(plan.Errors, "; "))
		return
	}

	pending := plan.ToDelete()
	for round := 1; len(pending) > 0 && round <= 5; round++ {
		if round > 1 {
			// A minute later the StatefulSet has replaced the evicted
			// pods on another node and they are Ready; the disruption
			// controller resyncs.
			now = now.Add(time.Minute)
			for _, p := range c.pods {
				if p.DeletionTimestamp != nil && p.Labels["app"] == "zookeeper" {
					repl := *p
					repl.UID, repl.DeletionTimestamp, repl.Spec.NodeName = p.UID+"-new", nil, "node-3"
					repl.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
					*p = repl
					fmt.Printf("  %s recreated on node-3 and Ready\n", p.Name)
				}
			}
			c.sync(now)
		}
		fmt.Printf("round %d at %s:\n", round, now.Format(time.TimeOnly))
		var retry []*api.Pod
		for _, p := range pending {
			fmt.Printf("  evicting pod %s\n", p.Key())
			if !c.evict(p, now) {
				retry = append(retry, p)
			}
		}
		pending = retry
	}
	if len(pending) > 0 {
		fmt.Printf("error: %d pods could not be evicted\n", len(pending))
		return
	}
	fmt.Println("node/node-1 drained")
}
