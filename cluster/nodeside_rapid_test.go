package cluster

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// TestPropertyKubeletKillsAreFinal: in random clusters under random
// pressure, shutdown, lose, restore and scale actions (graceful node
// shutdown on or off), a pod that has gone Failed — evicted by a
// kubelet's eviction manager, killed by its node shutdown manager,
// refused at admission — never runs a container again nor leaves Failed
// (the watch log shows no later change to a running container or another
// phase); and the same scenario run twice gives byte-identical logs.
func TestPropertyKubeletKillsAreFinal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := genCluster(t)
		nodes, deps := 0, 0
		for _, o := range objs {
			switch o.(type) {
			case *api.Node:
				nodes++
			case *api.Deployment:
				deps++
			}
		}
		sc := &Scenario{Objects: objs, Until: 8 * time.Minute}
		if rapid.Bool().Draw(t, "graceful") {
			sc.Config = map[string]string{"shutdown-grace-period": "30s", "shutdown-grace-period-critical-pods": "10s"}
		}
		at := time.Duration(0)
		for i, n := 0, rapid.IntRange(1, 6).Draw(t, "actions"); i < n; i++ {
			at += time.Duration(rapid.IntRange(0, 60).Draw(t, "gap seconds")) * time.Second
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			a := Action{At: at, Node: node}
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0, 1:
				a.Kind = ActionPressure
				a.Signal = "memory.available"
				a.Value = rapid.SampledFrom([]string{"10Mi", "50Mi", "99Mi", "500Mi", "2%", "50%"}).Draw(t, "value")
			case 2:
				a.Kind = ActionShutdown
			case 3:
				a.Kind = rapid.SampledFrom([]ActionKind{ActionLose, ActionRestore}).Draw(t, "lose/restore")
			case 4:
				a.Kind, a.Node, a.Ref, a.Replicas = ActionScale, "", ObjectRef{Kind: "Deployment", Namespace: "default",
					Name: fmt.Sprintf("app%d", rapid.IntRange(0, deps-1).Draw(t, "deployment"))}, int32(rapid.IntRange(0, 6).Draw(t, "replicas"))
			}
			sc.Actions = append(sc.Actions, a)
		}
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		run := func() ([]Record, []byte) {
			res, err := Run(sc, start)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			recs := append(res.Setup, res.Records...)
			if err := WriteJSON(&buf, recs); err != nil {
				t.Fatal(err)
			}
			return recs, buf.Bytes()
		}
		recs, a := run()
		if _, b := run(); !bytes.Equal(a, b) {
			t.Fatalf("two runs of the same scenario differ")
		}
		failed := map[string]bool{}
		for _, r := range recs {
			if r.Source != SourceWatch || !strings.HasPrefix(r.Object, "Pod/") {
				continue
			}
			if failed[r.Object] {
				for _, field := range strings.Split(r.Message, "; ") {
					name, change, _ := strings.Cut(field, ": ")
					_, after, _ := strings.Cut(change, " -> ")
					if (name == "containers" && strings.Contains(after, "running")) || name == "phase" {
						t.Fatalf("at %vs %s, Failed before, changed: %s", r.Offset, r.Object, r.Message)
					}
				}
			}
			if strings.Contains(r.Message, "phase: ") && strings.Contains(r.Message, "-> Failed") {
				failed[r.Object] = true
			}
		}
	})
}
