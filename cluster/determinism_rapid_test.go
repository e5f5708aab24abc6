package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// TestPropertyDeterministic: a random scenario — a random cluster and a
// random sequence of scale, delete, cordon, drain, lose, restore and exit
// actions — run twice gives byte-identical event logs and final objects
// (issue 22's "the same input gives a byte-identical event log").
func TestPropertyDeterministic(t *testing.T) {
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
		sc := &Scenario{Objects: objs, Until: 10 * time.Minute}
		at := time.Duration(0)
		for i, n := 0, rapid.IntRange(0, 6).Draw(t, "actions"); i < n; i++ {
			at += time.Duration(rapid.IntRange(0, 90).Draw(t, "gap seconds")) * time.Second
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			a := Action{At: at}
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				a.Kind, a.Ref, a.Replicas = ActionScale, ObjectRef{Kind: "Deployment", Namespace: "default",
					Name: fmt.Sprintf("app%d", rapid.IntRange(0, deps-1).Draw(t, "deployment"))}, int32(rapid.IntRange(0, 6).Draw(t, "replicas"))
			case 1:
				a.Kind, a.Node = ActionCordon, node
			case 2:
				a.Kind, a.Node = ActionDrain, node
			case 3:
				a.Kind, a.Node = ActionLose, node
			case 4:
				a.Kind, a.Node = ActionRestore, node
			case 5:
				a.Kind, a.Node = ActionUncordon, node
			}
			sc.Actions = append(sc.Actions, a)
		}
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		run := func() []byte {
			res, err := Run(sc, start)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteJSON(&buf, append(res.Setup, res.Records...)); err != nil {
				t.Fatal(err)
			}
			for _, o := range res.Objects {
				b, err := json.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(append(b, '\n'))
			}
			return buf.Bytes()
		}
		if a, b := run(), run(); !bytes.Equal(a, b) {
			al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
			for i := range al {
				if i >= len(bl) || !bytes.Equal(al[i], bl[i]) {
					var bi []byte
					if i < len(bl) {
						bi = bl[i]
					}
					t.Fatalf("two runs of the same scenario differ at line %d:\n%s\n%s", i+1, al[i], bi)
				}
			}
			t.Fatalf("two runs of the same scenario differ in length")
		}
	})
}
