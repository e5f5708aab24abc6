package proptest_test

import (
	"testing"

	"github.com/podsem/podsem/proptest"
)

// BenchmarkCluster500x5000 draws a 500-node, 5,000-pod cluster.
func BenchmarkCluster500x5000(b *testing.B) {
	g := proptest.Cluster(proptest.ClusterOptions{Nodes: 500, Pods: 5000})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Example(i)
	}
}

// BenchmarkPod draws one pod.
func BenchmarkPod(b *testing.B) {
	g := proptest.Pod(proptest.PodOptions{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.Example(i)
	}
}
