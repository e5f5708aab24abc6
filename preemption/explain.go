package preemption

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// String explains the result for people: the decision on the first line,
// then one line per node with its filter status and what the dry run
// made of it.
func (r Result) String() string {
	var b strings.Builder
	switch {
	case r.Err != nil:
		fmt.Fprintf(&b, "preemption failed (nomination kept): %v", r.Err)
	case !r.Eligible:
		fmt.Fprintf(&b, "not eligible (nomination kept): %s", strings.TrimPrefix(r.Message, MessagePrefix))
	case r.Node == "":
		fmt.Fprintf(&b, "no node helps (nomination cleared): %s", strings.TrimPrefix(r.Message, MessagePrefix))
	default:
		fmt.Fprintf(&b, "nominate %s: evict %s (%d PDB violation(s))", r.Node, podList(r.Victims), r.PDBViolations)
		if len(r.Deleted) != len(r.Victims) {
			fmt.Fprintf(&b, "; delete %s", podList(r.Deleted))
		}
		if len(r.ClearedNominations) > 0 {
			fmt.Fprintf(&b, "; clear nominations of %s", podList(r.ClearedNominations))
		}
		if len(r.Tied) > 0 {
			fmt.Fprintf(&b, "; tied with %s", strings.Join(r.Tied, ", "))
		}
	}
	cands := make(map[string]*Candidate, len(r.Candidates))
	for i := range r.Candidates {
		cands[r.Candidates[i].Node] = &r.Candidates[i]
	}
	for _, n := range r.Nodes {
		fmt.Fprintf(&b, "\n  %s: %s", n.Node, n.Filter.String())
		switch c := cands[n.Node]; {
		case c != nil:
			fmt.Fprintf(&b, " -> candidate: evict %s (%d PDB violation(s))", podList(c.Victims), c.PDBViolations)
		case n.Evaluated:
			fmt.Fprintf(&b, " -> not helped: %s", n.DryRun.String())
		case n.Filter.Code.String() != "Unschedulable":
			b.WriteString(" -> not tried")
		default:
			b.WriteString(" -> not reached")
		}
	}
	return b.String()
}

func podList(pods []*api.Pod) string {
	if len(pods) == 0 {
		return "nothing"
	}
	keys := make([]string, len(pods))
	for i, p := range pods {
		keys[i] = p.Namespace + "/" + p.Name
	}
	return strings.Join(keys, ", ")
}
