package disruption_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"pgregory.net/rapid"
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

// TestBudgetForPodProperties: whatever the budgets and their order, the
// budget chosen selects the pod and no budget that selects it has a
// smaller name; a Warning comes exactly when two or more select it; and
// reordering the budgets changes nothing.
func TestBudgetForPodProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		labels := rapid.MapOfN(rapid.SampledFrom([]string{"app", "tier"}), rapid.SampledFrom([]string{"web", "db"}), 0, 2).Draw(t, "labels")
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "shop", Labels: labels}}
		n := rapid.IntRange(0, 5).Draw(t, "budgets")
		var pdbs []*api.PodDisruptionBudget
		for i := 0; i < n; i++ {
			var sel *api.LabelSelector
			switch rapid.IntRange(0, 3).Draw(t, "selector") {
			case 0: // absent
			case 1:
				sel = &api.LabelSelector{}
			default:
				sel = &api.LabelSelector{MatchLabels: rapid.MapOfN(rapid.SampledFrom([]string{"app", "tier"}), rapid.SampledFrom([]string{"web", "db"}), 1, 2).Draw(t, "match")}
			}
			ns := rapid.SampledFrom([]string{"shop", "other"}).Draw(t, "namespace")
			pdbs = append(pdbs, budget(fmt.Sprintf("b%d", rapid.IntRange(0, 9).Draw(t, "name")), ns, sel))
		}
		selects := func(b *api.PodDisruptionBudget) bool {
			if b.Namespace != pod.Namespace || b.Spec.Selector == nil || len(pod.Labels) == 0 {
				return false
			}
			for k, v := range b.Spec.Selector.MatchLabels {
				if pod.Labels[k] != v {
					return false
				}
			}
			return true
		}
		var selecting []*api.PodDisruptionBudget
		for _, b := range pdbs {
			if selects(b) {
				selecting = append(selecting, b)
			}
		}
		got, ev := disruption.BudgetForPod(pod, pdbs)
		if (got == nil) != (len(selecting) == 0) {
			t.Fatalf("chosen %v with %d selecting budgets", got, len(selecting))
		}
		if got != nil {
			if !selects(got) {
				t.Fatalf("chosen %s does not select the pod", got.Name)
			}
			for _, b := range selecting {
				if b.Name < got.Name {
					t.Fatalf("chosen %s, but %s selects the pod and sorts first", got.Name, b.Name)
				}
			}
		}
		if (ev != nil) != (len(selecting) > 1) {
			t.Fatalf("event %v with %d selecting budgets", ev, len(selecting))
		}
		rev := slices.Clone(pdbs)
		slices.Reverse(rev)
		if again, _ := disruption.BudgetForPod(pod, rev); again != nil && got != nil && again.Name != got.Name {
			t.Fatalf("reordered budgets chose %s, not %s", again.Name, got.Name)
		}
	})
}
