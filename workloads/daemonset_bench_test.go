package workloads_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// BenchmarkSyncDaemonSet5000Nodes is one steady-state sync of a DaemonSet
// over 5,000 nodes, each already running its ready daemon pod: the
// per-node placement, the claim and the status, with nothing to create.
func BenchmarkSyncDaemonSet5000Nodes(b *testing.B) {
	ds := fluentd()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range 5000 {
		name := fmt.Sprintf("node-%04d", i)
		nodes = append(nodes, exampleNode(name, false, api.Taint{Key: "example.com/pool", Value: "a", Effect: api.TaintEffectPreferNoSchedule}))
		p, err := workloads.NewDaemonPod(ds, name, "")
		if err != nil {
			b.Fatal(err)
		}
		p.Name, p.Namespace, p.UID = "fluentd-"+name, ds.Namespace, "uid-"+name
		p.Spec.NodeName = name
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		pods = append(pods, p)
	}
	rev, err := workloads.NewDaemonSetRevision(ds, 1)
	if err != nil {
		b.Fatal(err)
	}
	in := workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, Pods: pods, Revisions: []*api.ControllerRevision{rev}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r, err := workloads.SyncDaemonSet(in, now)
		if err != nil || len(r.Create) != 0 {
			b.Fatal(err, len(r.Create))
		}
	}
}
