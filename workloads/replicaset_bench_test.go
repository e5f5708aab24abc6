package workloads

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// benchReplicaSet is a 10,000-replica ReplicaSet of a Deployment with
// its pods spread over 500 nodes, Ready for between one minute and a
// week, a tenth of them with a deletion cost.
func benchReplicaSet(b *testing.B, pods int) (*api.ReplicaSet, []*api.Pod) {
	b.Helper()
	rs := webRS(10000)
	rs.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-dep", Controller: ptr(true)}}
	rs.Spec.MinReadySeconds = 10
	out := make([]*api.Pod, pods)
	for i := range out {
		name := fmt.Sprintf("web-%05d", i)
		p := newPod(name, mine)
		p.Spec.NodeName = fmt.Sprintf("node-%03d", i%500)
		age := time.Minute + time.Duration(i*60)*time.Second
		p.CreationTimestamp = api.NewTime(t0.Add(-age - time.Minute))
		p.Status.Conditions[0].LastTransitionTime = api.NewTime(t0.Add(-age))
		if i%10 == 0 {
			p.Annotations = map[string]string{AnnotationPodDeletionCost: fmt.Sprint(i % 7)}
		}
		out[i] = p
	}
	return rs, out
}

// BenchmarkSyncReplicaSet is one sync of a 10,000-replica ReplicaSet:
// steady (10,000 pods: nothing to do, the status counted), scale-up (9,500
// pods: 500 creations) and scale-down (10,500 pods: 500 victims ranked
// among them).
func BenchmarkSyncReplicaSet(b *testing.B) {
	for _, bc := range []struct {
		name string
		pods int
	}{{"steady", 10000}, {"scale-up", 9500}, {"scale-down", 10500}} {
		b.Run(bc.name, func(b *testing.B) {
			rs, pods := benchReplicaSet(b, bc.pods)
			in := ReplicaSetInput{ReplicaSet: rs, Pods: pods}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU(b)
			for range b.N {
				res, err := SyncReplicaSet(in, ReplicaSetExpectations{}, t0)
				if err != nil || res.Create+len(res.Delete) != max(bc.pods-10000, 10000-bc.pods) {
					b.Fatalf("%+v %v", res.Status, err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkReplicaSetControllerIncremental is one step of a ReplicaSet
// controller for a steady 5,000-replica set, one of whose pods changed
// since the previous step (it turns not ready, or Ready again): an
// incremental controller told the one change, and a controller given
// the 5,000 pods whole, as before it.
func BenchmarkReplicaSetControllerIncremental(b *testing.B) {
	const n = 5000
	rs, pods := benchReplicaSet(b, n)
	rs.Spec.Replicas = ptr(int32(n))
	// flipped[i] is pods[i] not ready.
	flipped := make([]*api.Pod, n)
	for i, p := range pods {
		q := p.DeepCopy()
		unready(q)
		flipped[i] = q
	}
	for _, mode := range []string{"incremental", "full"} {
		b.Run(mode, func(b *testing.B) {
			cur := append([]*api.Pod(nil), pods...)
			c := NewReplicaSetController()
			in := ReplicaSetInput{ReplicaSet: rs, Pods: cur}
			if mode == "incremental" {
				c = NewIncrementalReplicaSetController()
				in.Pods = nil
				for _, p := range pods {
					in.PodEvents = append(in.PodEvents, PodChange{New: p})
				}
			}
			if _, err := c.Step(in, t0); err != nil {
				b.Fatal(err)
			}
			events := make([]PodChange, 1)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := processCPU(b)
			for i := range b.N {
				k := i % n
				next := flipped[k]
				if cur[k] == flipped[k] {
					next = pods[k]
				}
				events[0] = PodChange{Old: cur[k], New: next}
				cur[k] = next
				if mode == "incremental" {
					in.PodEvents = events
				}
				res, err := c.Step(in, t0)
				if err != nil || res.Status.Replicas != n {
					b.Fatalf("%+v %v", res.Status, err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkRankPodsForDeletion is the deletion ranking alone of the
// 10,500 pods of a scale-down by 500, each node's 21 pods ranked 21,
// from the same order every time.
func BenchmarkRankPodsForDeletion(b *testing.B) {
	_, pods := benchReplicaSet(b, 10500)
	ranks := make([]int, len(pods))
	for i := range ranks {
		ranks[i] = 21
	}
	work := make([]*api.Pod, len(pods))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU(b)
	for range b.N {
		copy(work, pods)
		RankPodsForDeletion(work, ranks, t0)
	}
	b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op")
}
