package cluster_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// runAnswers runs testdata/<name>.json and returns its Answers.
func runAnswers(t *testing.T, name string) cluster.Answers {
	t.Helper()
	_, res := runScenario(t, filepath.Join("testdata", name+".json"))
	return res.Answers
}

// TestAnswersBudgetHold: in drain-pdb the budget refuses the second
// pod's eviction at 30.5 s (the first pod's eviction charged the budget
// at 30 s, and the second, made at the same instant, lost the write race
// and was retried by the API server), 35.5 and 40.5 s and grants it at
// 45.5 s: held 15 s; the
// replacements are unavailable for the 11 s from their creation to their
// first passing readiness probe (start 1 s, probe period 10 s).
func TestAnswersBudgetHold(t *testing.T) {
	a := runAnswers(t, "drain-pdb")
	if len(a.Budgets) != 1 {
		t.Fatalf("budgets: %+v", a.Budgets)
	}
	b := a.Budgets[0]
	if b.Budget != "default/web" || b.Refusals != 3 || b.First != 30500*time.Millisecond || b.Held != 15*time.Second || len(b.Pods) != 1 {
		t.Errorf("budget hold: %+v", b)
	}
	var replaced, replacements int
	for _, p := range a.Pods {
		switch {
		case p.Created > 0:
			replacements++
			if p.Unavailable != 11*time.Second || p.Node != "node-2" || p.IsGone {
				t.Errorf("replacement: %+v", p)
			}
		case p.IsGone:
			replaced++
			if p.Unavailable != 0 || p.Node != "node-1" || p.Terminating != p.Gone {
				t.Errorf("evicted: %+v", p)
			}
		}
	}
	if replaced != 2 || replacements != 2 {
		t.Errorf("%d evicted, %d replacements: %+v", replaced, replacements, a.Pods)
	}
}

// TestAnswersServiceEndpoints: a pod of a Service's two deleted at 10 s
// leaves the ready endpoints at once (terminating), its replacement joins
// when ready at 11 s.
func TestAnswersServiceEndpoints(t *testing.T) {
	a := runAnswers(t, "service-endpoints")
	if len(a.Services) != 1 || a.Services[0].Service != "default/web" {
		t.Fatalf("services: %+v", a.Services)
	}
	var got []string
	for _, c := range a.Services[0].Changes {
		got = append(got, fmt.Sprintf("%v:%d", c.At, len(c.Ready)))
	}
	if want := "0s:2 10s:1 11s:2"; strings.Join(got, " ") != want {
		t.Errorf("ready endpoints over time: %v, want %s", got, want)
	}
}

// TestAnswersCreatedExact: a pod created 2.5 s after t=0 is unavailable
// from that instant (its creationTimestamp, truncated to the second as the
// API server stores it, would say 2 s), and only the pod that existed at
// t=0 is marked AtStart.
func TestAnswersCreatedExact(t *testing.T) {
	node := cluster.ReadyNode("node-1")
	pod := func(name string) *api.Pod {
		p := &api.Pod{}
		p.APIVersion, p.Kind, p.Name, p.Namespace = "v1", "Pod", name, "default"
		p.Spec.Containers = []api.Container{{Name: "c", Image: "nginx"}}
		return p
	}
	sc := cluster.Scenario{Objects: []api.Object{node, pod("early")}, Until: 10 * time.Second,
		Actions: []cluster.Action{{At: 2500 * time.Millisecond, Kind: cluster.ActionApply, Object: pod("late")}}}
	res, err := cluster.Run(&sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]cluster.PodFate{}
	for _, f := range res.Answers.Pods {
		got[f.Pod] = f
	}
	early, late := got["default/early"], got["default/late"]
	if !early.AtStart || early.Created > 0 || early.Unavailable != 0 {
		t.Errorf("early: %+v", early)
	}
	// Started 1 s after binding (the default model), ready at once: 1 s
	// unavailable from 2.5 s.
	if late.AtStart || late.Created != 2500*time.Millisecond || late.Unavailable != time.Second {
		t.Errorf("late: %+v", late)
	}
}
