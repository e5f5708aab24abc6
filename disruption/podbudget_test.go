package disruption_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

func budget(name, ns string, sel *api.LabelSelector) *api.PodDisruptionBudget {
	return &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.PodDisruptionBudgetSpec{Selector: sel}}
}

func TestBudgetForPod(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "shop", Labels: map[string]string{"app": "web", "tier": "front"}}}
	byApp := budget("by-app", "shop", &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}})
	byTier := budget("by-tier", "shop", &api.LabelSelector{MatchLabels: map[string]string{"tier": "front"}})
	everyPod := budget("all", "shop", &api.LabelSelector{})
	noSelector := budget("none", "shop", nil)
	elsewhere := budget("a-other", "other", &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}})
	other := budget("by-db", "shop", &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}})
	for _, tc := range []struct {
		name  string
		pod   *api.Pod
		pdbs  []*api.PodDisruptionBudget
		want  string // the chosen budget's name, "" for none
		event string // the event's note, "" for none
	}{
		{"none selects it", pod, []*api.PodDisruptionBudget{other, noSelector, elsewhere, nil}, "", ""},
		{"one", pod, []*api.PodDisruptionBudget{other, byTier}, "by-tier", ""},
		{"two: the first by name, whatever the order", pod, []*api.PodDisruptionBudget{byTier, byApp}, "by-app",
			`Pod "shop"/"web-1" matches multiple PodDisruptionBudgets.  Chose "by-app" arbitrarily.`},
		{"an empty selector selects every pod", pod, []*api.PodDisruptionBudget{byTier, everyPod}, "all",
			`Pod "shop"/"web-1" matches multiple PodDisruptionBudgets.  Chose "all" arbitrarily.`},
		{"a pod without labels: none", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "shop"}}, []*api.PodDisruptionBudget{everyPod}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ev := disruption.BudgetForPod(tc.pod, tc.pdbs)
			name := ""
			if got != nil {
				name = got.Name
			}
			if name != tc.want {
				t.Errorf("chosen = %q, want %q", name, tc.want)
			}
			note := ""
			if ev != nil {
				note = ev.Note
				if ev.Type != api.EventTypeWarning || ev.Reason != disruption.EventMultiplePodDisruptionBudgets ||
					ev.Source != disruption.EventSourceDisruption || ev.Regarding.Kind != "Pod" || ev.Regarding.Name != tc.pod.Name {
					t.Errorf("event = %+v", ev)
				}
			}
			if note != tc.event {
				t.Errorf("event note = %q, want %q", note, tc.event)
			}
		})
	}
}
