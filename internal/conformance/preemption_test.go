package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

func init() {
	register("preemption.default", runPreemptionDefault)
}

func podKeys(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		if p == nil {
			out[i] = "<nil>"
			continue
		}
		out[i] = p.Namespace + "/" + p.Name
	}
	sort.Strings(out)
	return out
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func runPreemptionDefault(input, want json.RawMessage) error {
	var in struct {
		Preemptor api.Pod                   `json:"preemptor"`
		Nodes     []api.Node                `json:"nodes"`
		Pods      []api.Pod                 `json:"pods"`
		PDBs      []api.PodDisruptionBudget `json:"pdbs"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	type cand struct {
		Victims       []string `json:"victims"`
		PDBViolations int      `json:"pdb_violations"`
	}
	var w struct {
		NominatedNode      string          `json:"nominated_node"`
		Nomination         string          `json:"nomination"`
		Victims            []string        `json:"victims"`
		Deleted            []string        `json:"deleted"`
		ClearedNominations []string        `json:"cleared_nominations"`
		Tie                []string        `json:"tie"`
		Candidates         map[string]cand `json:"candidates"`
		Message            string          `json:"message"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	nodes := make([]*api.Node, len(in.Nodes))
	for i := range in.Nodes {
		nodes[i] = &in.Nodes[i]
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	pdbs := make([]*api.PodDisruptionBudget, len(in.PDBs))
	for i := range in.PDBs {
		pdbs[i] = &in.PDBs[i]
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		return fmt.Errorf("building the snapshot: %w", err)
	}
	cy := c.NewCycle(&in.Preemptor)
	var d scheduling.Decision
	cy.Decide(&d)
	r := preemption.Preempt(cy, &d, pdbs, preemption.Config{}, time.Time{})
	// The same attempt through the scheduling loop's PostFilter seam,
	// which reads the budgets from the snapshot.
	for _, pdb := range pdbs {
		if err := c.SetPodDisruptionBudget(pdb); err != nil {
			return fmt.Errorf("building the snapshot: %w", err)
		}
	}
	post, err := preemption.New(preemption.Config{})
	if err != nil {
		return err
	}
	pf := post.PostFilter(cy, &d, time.Time{})
	if pf.Message != r.Message || pf.NominatedNodeName != r.Node || pf.Nominate != (r.Nomination != preemption.NominationKeep) ||
		!slices.Equal(podKeys(pf.Victims), podKeys(r.Victims)) {
		return Mismatch("PostFilter seam", r.String(), fmt.Sprintf("%+v", pf))
	}

	if got := r.Nomination.String(); got != w.Nomination {
		return Mismatch("nomination", w.Nomination, fmt.Sprintf("%s (%s)", got, r.Message))
	}
	if len(w.Tie) > 0 {
		if !slices.Contains(w.Tie, r.Node) {
			return Mismatch("nominated_node (tie)", w.Tie, r.Node)
		}
		if !slices.Equal(sortedCopy(w.Tie), sortedCopy(r.Tied)) {
			return Mismatch("tie", w.Tie, r.Tied)
		}
	} else if r.Node != w.NominatedNode {
		return Mismatch("nominated_node", w.NominatedNode, r.Node)
	}
	wantVictims := w.Victims
	if len(w.Tie) > 0 {
		wantVictims = w.Candidates[r.Node].Victims
	}
	if got := podKeys(r.Victims); !slices.Equal(sortedCopy(wantVictims), got) {
		return Mismatch("victims", wantVictims, got)
	}
	if len(w.Tie) == 0 {
		if got := podKeys(r.Deleted); !slices.Equal(sortedCopy(w.Deleted), got) {
			return Mismatch("deleted", w.Deleted, got)
		}
		if got := podKeys(r.ClearedNominations); !slices.Equal(sortedCopy(w.ClearedNominations), got) {
			return Mismatch("cleared_nominations", w.ClearedNominations, got)
		}
	}
	// The message is informational: upstream's text also carries other
	// PostFilter plugins' words; only its shape is checked.
	if (w.Message == "") != (r.Message == "") || (r.Message != "" && !strings.HasPrefix(r.Message, preemption.MessagePrefix)) {
		return Mismatch("message", w.Message, r.Message)
	}
	gotCands := map[string]cand{}
	for _, c := range r.Candidates {
		gotCands[c.Node] = cand{Victims: podKeys(c.Victims), PDBViolations: c.PDBViolations}
	}
	if len(gotCands) != len(w.Candidates) {
		return Mismatch("candidates", w.Candidates, gotCands)
	}
	for node, wc := range w.Candidates {
		gc, ok := gotCands[node]
		if !ok || gc.PDBViolations != wc.PDBViolations || !slices.Equal(sortedCopy(wc.Victims), gc.Victims) {
			return Mismatch("candidates", w.Candidates, gotCands)
		}
	}
	return nil
}
