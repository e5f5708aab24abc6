package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// workload.daemonset: NodeShouldRunDaemonPod per node, and one sync of the
// DaemonSet controller (workloads.SyncDaemonSet).

func init() {
	register("workload.daemonset", runDaemonSet)
}

type daemonSetCaseInput struct {
	Now       time.Time     `json:"now"`
	DaemonSet api.DaemonSet `json:"daemonSet"`
	Nodes     []*api.Node   `json:"nodes"`
	Pods      []*api.Pod    `json:"pods"`
}

type daemonSetNodeVerdict struct {
	Name                  string `json:"name"`
	ShouldRun             bool   `json:"shouldRun"`
	ShouldContinueRunning bool   `json:"shouldContinueRunning"`
}

type daemonSetCreated struct {
	Node        string            `json:"node"`
	Labels      map[string]string `json:"labels"`
	Tolerations []api.Toleration  `json:"tolerations"`
	Affinity    *api.Affinity     `json:"affinity"`
}

type daemonSetCaseWant struct {
	Nodes         []daemonSetNodeVerdict `json:"nodes"`
	Created       []daemonSetCreated     `json:"created"`
	Deleted       []string               `json:"deleted"`
	Adopted       []string               `json:"adopted"`
	Released      []string               `json:"released"`
	StatusUpdated bool                   `json:"statusUpdated"`
	Status        json.RawMessage        `json:"status"`
	SyncError     bool                   `json:"syncError"`
}

func runDaemonSet(input, want json.RawMessage) error {
	var in daemonSetCaseInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w daemonSetCaseWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}

	var verdicts []daemonSetNodeVerdict
	for _, n := range in.Nodes {
		pl, err := workloads.NodeShouldRunDaemonPod(n, &in.DaemonSet)
		if err != nil {
			return err
		}
		verdicts = append(verdicts, daemonSetNodeVerdict{Name: n.Name, ShouldRun: pl.ShouldRun, ShouldContinueRunning: pl.ShouldContinueRunning})
	}
	if d := SameJSON(dsJSONTree(w.Nodes), dsJSONTree(verdicts), "nodes"); d != "" {
		return Mismatch("nodes ("+d+")", w.Nodes, verdicts)
	}

	r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{DaemonSet: &in.DaemonSet, Nodes: in.Nodes, Pods: in.Pods}, in.Now)
	if gotErr := err != nil || r.Err != nil; gotErr != w.SyncError {
		return Mismatch("syncError", w.SyncError, fmt.Sprint(err, r.Err))
	}
	if err != nil {
		return nil
	}

	var created []daemonSetCreated
	for _, c := range r.Create {
		labels := maps.Clone(c.Pod.Labels)
		// The revision hash is upstream's own hash of the template: the
		// family leaves it out.
		delete(labels, api.LabelControllerRevisionHash)
		created = append(created, daemonSetCreated{Node: c.Node, Labels: labels, Tolerations: c.Pod.Spec.Tolerations, Affinity: c.Pod.Spec.Affinity})
	}
	slices.SortStableFunc(created, func(a, b daemonSetCreated) int { return strings.Compare(a.Node, b.Node) })
	if d := SameJSON(dsJSONTree(w.Created), dsJSONTree(created), "created"); d != "" {
		return Mismatch("created ("+d+")", w.Created, created)
	}

	var deleted []string
	for _, d := range r.Delete {
		deleted = append(deleted, d.Pod.Name)
	}
	for _, c := range []struct {
		what      string
		want, got []string
	}{
		{"deleted", w.Deleted, deleted},
		{"adopted", w.Adopted, dsPodNames(r.Adopt)},
		{"released", w.Released, dsPodNames(r.Release)},
	} {
		g := slices.Clone(c.got)
		slices.Sort(g)
		wn := slices.Clone(c.want)
		slices.Sort(wn)
		if !slices.Equal(g, wn) {
			return Mismatch(c.what, wn, g)
		}
	}
	if r.StatusUpdated != w.StatusUpdated {
		return Mismatch("statusUpdated", w.StatusUpdated, r.StatusUpdated)
	}
	wantStatus, err := DecodeNumbers(w.Status)
	if err != nil {
		return fmt.Errorf("decoding want status: %w", err)
	}
	if d := SameJSON(wantStatus, dsJSONTree(r.Status), "status"); d != "" {
		return Mismatch("status ("+d+")", string(w.Status), r.Status)
	}
	return nil
}

func dsPodNames(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// dsJSONTree renders v as the generic JSON tree SameJSON compares, numbers
// as json.Number like DecodeNumbers gives the wanted side.
func dsJSONTree(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unencodable: %v", err)
	}
	t, err := DecodeNumbers(b)
	if err != nil {
		return fmt.Sprintf("undecodable: %v", err)
	}
	return t
}
