package proptest

import (
	"fmt"
	"strings"
)

// GoString renders the cluster one object per line, as rapid logs a drawn
// value (%#v) when a property fails: a header with the counts and the
// time, then each namespace, priority class, node, workload, budget and
// pod as its kind and its JSON (the api types' GoString), so a failure
// reads as the objects that caused it and each line can be pasted into a
// manifest for `podsem explain`. A nil state renders as
// "(*proptest.ClusterState)(nil)".
func (c *ClusterState) GoString() string {
	if c == nil {
		return "(*proptest.ClusterState)(nil)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterState at %s: %d nodes, %d pods (%d pending), %d ReplicaSets, %d StatefulSets, %d PodDisruptionBudgets\n",
		c.Now.UTC().Format("2006-01-02T15:04:05Z"), len(c.Nodes), len(c.Pods), len(c.Pending()), len(c.ReplicaSets), len(c.StatefulSets), len(c.PDBs))
	line := func(v fmt.GoStringer) {
		b.WriteString("  ")
		b.WriteString(v.GoString())
		b.WriteByte('\n')
	}
	for _, n := range c.Namespaces {
		line(n)
	}
	for _, pc := range c.PriorityClasses {
		line(pc)
	}
	for _, n := range c.Nodes {
		line(n)
	}
	for _, r := range c.ReplicaSets {
		line(r)
	}
	for _, s := range c.StatefulSets {
		line(s)
	}
	for _, p := range c.PDBs {
		line(p)
	}
	for _, p := range c.Pods {
		line(p)
	}
	return b.String()
}
