package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// smallCluster is nodes nodes of 8 cpu and deployments Deployments of
// replicas pods (100m each): a baseline until the 5,000-node
// benchmarks (BenchmarkDrain, BenchmarkZoneOutage, BenchmarkRollout on
// internal/benchdata) exist.
func smallCluster(nodes, deployments, replicas int) []api.Object {
	var objs []api.Object
	for i := 0; i < nodes; i++ {
		alloc := api.ResourceList{"cpu": api.MustParseQuantity("8"), "memory": api.MustParseQuantity("32Gi"), "pods": api.MustParseQuantity("110")}
		name := fmt.Sprintf("node-%03d", i)
		objs = append(objs, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}})
	}
	for i := 0; i < deployments; i++ {
		n := int32(replicas)
		name := fmt.Sprintf("app-%02d", i)
		objs = append(objs, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "app:1",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m")}}}}}}}})
	}
	return objs
}

// BenchmarkRunDrainSmall runs a scenario of 20 nodes and 200 pods of 10
// Deployments: settle, drain one node, run 5 minutes. It reports the
// simulated seconds per wall second. A baseline for the next steps' work
// on the store's copies (NEXT.md, "Performance").
func BenchmarkRunDrainSmall(b *testing.B) {
	sc := &cluster.Scenario{Objects: smallCluster(20, 10, 20), Until: 5 * time.Minute,
		Actions: []cluster.Action{{At: 10 * time.Second, Kind: cluster.ActionDrain, Node: "node-003"}}}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	var simulated time.Duration
	for b.Loop() {
		res, err := cluster.Run(sc, start)
		if err != nil {
			b.Fatal(err)
		}
		simulated += sc.Until + res.T0.Sub(start)
	}
	b.ReportMetric(simulated.Seconds()/b.Elapsed().Seconds(), "sim-s/s")
}
