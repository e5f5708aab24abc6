// Command schedule-batch places pending pods one by one as kube-scheduler
// v1.36.3 would: its scheduling loop (scheduling.Loop, with the default
// profile's DefaultPreemption as the PostFilter: preemption.NewLoop), all
// pure — each tick pops the next pod, decides where it goes (the node tree
// walked from a rotating start index, the adaptive
// percentageOfNodesToScore, the default profile's filters and scores,
// selectHost's pick) and binds it into the loop's snapshot so that the
// next decision sees it, or hands it back to the queue as unschedulable,
// preemption's verdict in its FailedScheduling message. It prints where
// each pod went and why the rest stay pending.
//
// Usage:
//
//	go run ./examples/schedule-batch                       # the embedded demo
//	go run ./examples/schedule-batch cluster.json          # its pending pods
//	go run ./examples/schedule-batch cluster.json pods.json
//
// cluster.json is a dump as `kubectl get
// nodes,pods,pvc,pv,storageclasses,csinodes,csidrivers,namespaces,services,replicasets,statefulsets
// -A -o json` prints it; its pending pods (no spec.nodeName, not finished)
// are the batch unless pods.json (a pod or a list of pods) names it. The
// pending pods of cluster.json are queued by namespace/name, those of
// pods.json in the order given, and popped in the queue's order (priority,
// then arrival); a pod that fits nowhere stays in the queue's
// unschedulable pool until a cluster event brings it back, which in a
// batch of new pods does not happen. Preemption is attempted for it; its
// actions (victims deleted, the pod nominated) are printed, not performed.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// clusterJSON: six nodes over three zones, two of them already busy, one
// cordoned; a web Deployment's ReplicaSet, whose pods the scheduler's
// default topology spread keeps apart.
const clusterJSON = `{"kind": "List", "items": [
 {"kind": "Node", "metadata": {"name": "a1", "labels": {"kubernetes.io/hostname": "a1", "topology.kubernetes.io/zone": "zone-a"}},
  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "a2", "labels": {"kubernetes.io/hostname": "a2", "topology.kubernetes.io/zone": "zone-a"}},
  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "b1", "labels": {"kubernetes.io/hostname": "b1", "topology.kubernetes.io/zone": "zone-b"}},
  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "b2", "labels": {"kubernetes.io/hostname": "b2", "topology.kubernetes.io/zone": "zone-b"}},
  "spec": {"unschedulable": true, "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]},
  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "c1", "labels": {"kubernetes.io/hostname": "c1", "topology.kubernetes.io/zone": "zone-c"}},
  "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "c2", "labels": {"kubernetes.io/hostname": "c2", "topology.kubernetes.io/zone": "zone-c"}},
  "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
 {"kind": "Pod", "metadata": {"name": "batch-0", "namespace": "jobs"},
  "spec": {"nodeName": "a1", "containers": [{"name": "c", "image": "busybox:1.37", "resources": {"requests": {"cpu": "3", "memory": "4Gi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "batch-1", "namespace": "jobs"},
  "spec": {"nodeName": "c1", "containers": [{"name": "c", "image": "busybox:1.37", "resources": {"requests": {"cpu": "6", "memory": "8Gi"}}}]}},
 {"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": {"name": "web-7d9", "namespace": "shop", "uid": "rs-web"},
  "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}}}}
]}`

// pendingJSON is the batch: four web replicas of the ReplicaSet, a
// high-priority API pod, and a pod too big for any node.
const pendingJSON = `{"kind": "List", "items": [
 {"kind": "Pod", "metadata": {"name": "web-7d9-1", "namespace": "shop", "labels": {"app": "web"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9", "uid": "rs-web", "controller": true}]},
  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "web-7d9-2", "namespace": "shop", "labels": {"app": "web"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9", "uid": "rs-web", "controller": true}]},
  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "web-7d9-3", "namespace": "shop", "labels": {"app": "web"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9", "uid": "rs-web", "controller": true}]},
  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "web-7d9-4", "namespace": "shop", "labels": {"app": "web"},
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9", "uid": "rs-web", "controller": true}]},
  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "api-0", "namespace": "shop", "labels": {"app": "api"}},
  "spec": {"priority": 1000, "containers": [{"name": "api", "image": "api:2", "resources": {"requests": {"cpu": "2", "memory": "2Gi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "train-0", "namespace": "ml"},
  "spec": {"containers": [{"name": "t", "image": "trainer:1", "resources": {"requests": {"cpu": "12", "memory": "4Gi"}}}]}},
 {"kind": "Pod", "metadata": {"name": "later-0", "namespace": "shop"},
  "spec": {"schedulingGates": [{"name": "example.com/quota"}],
   "containers": [{"name": "c", "image": "busybox:1.37", "resources": {"requests": {"cpu": "100m"}}}]}}
]}`

func main() {
	clusterData, pendingData := []byte(clusterJSON), []byte(pendingJSON)
	switch len(os.Args) {
	case 1:
	case 2, 3:
		var err error
		if clusterData, err = os.ReadFile(os.Args[1]); err != nil {
			fail(err)
		}
		pendingData = nil
		if len(os.Args) == 3 {
			if pendingData, err = os.ReadFile(os.Args[2]); err != nil {
				fail(err)
			}
		}
	default:
		fail(fmt.Errorf("usage: schedule-batch [cluster.json [pods.json]]"))
	}

	objs, err := api.Decode(clusterData)
	if err != nil {
		fail(err)
	}
	c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		fail(err)
	}
	if err := c.AddObjects(objs...); err != nil {
		fail(err)
	}
	// The loop's clock: a fixed start, one millisecond per attempt.
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l, err := preemption.NewLoop(c, now) // queues the dump's pending pods
	if err != nil {
		fail(err)
	}
	var batch []*api.Pod
	if pendingData != nil {
		more, err := api.Decode(pendingData)
		if err != nil {
			fail(err)
		}
		for _, o := range more {
			if p, ok := o.(*api.Pod); ok {
				batch = append(batch, p)
				if _, err := l.Step(scheduling.PodAdded(p), now); err != nil {
					fail(err)
				}
			}
		}
	} else {
		for _, o := range objs {
			if p, ok := o.(*api.Pod); ok && p.Spec.NodeName == "" &&
				p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
				batch = append(batch, p)
			}
		}
	}

	// Tick while the loop has work now; a pod that fits nowhere waits
	// for a later flush, which ends the batch.
	pending := map[string]scheduling.StepResult{}
	for next := l.NextDeadline(); !next.IsZero() && !next.After(now); next = l.NextDeadline() {
		now = now.Add(time.Millisecond)
		res, err := l.Step(scheduling.Tick(), now)
		if err != nil {
			fail(err)
		}
		if res.Pod == nil {
			break
		}
		key := res.Pod.Namespace + "/" + res.Pod.Name
		if res.Node != "" {
			fmt.Printf("%-14s -> %-3s (%d of %d nodes evaluated, next start index %d)\n",
				key, res.Node, len(res.Decision.Evaluated()), l.Cluster().NumNodes(), l.Scheduler().NextStartNodeIndex)
			delete(pending, key)
			continue
		}
		pending[key] = res
	}
	for _, p := range batch {
		key := p.Namespace + "/" + p.Name
		if st := scheduling.SchedulingGatesPreEnqueue(p); !st.IsSuccess() {
			fmt.Printf("%-14s pending: gated, never tried (%s)\n", key, st.Reasons[0])
			continue
		}
		res, ok := pending[key]
		if !ok {
			continue
		}
		fmt.Printf("%-14s pending: %s\n", key, res.Message)
		for _, a := range res.Actions {
			if a.Kind != scheduling.ActionFailedScheduling {
				fmt.Printf("%-14s   %s\n", "", a)
			}
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "schedule-batch:", err)
	os.Exit(1)
}
