package nodelifecycle

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func noExec(key string) api.Taint { return api.Taint{Key: key, Effect: api.TaintEffectNoExecute} }

func tolerate(key string, seconds *int64) api.Toleration {
	return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: seconds}
}

func TestEvaluateNoExecute(t *testing.T) {
	tests := []struct {
		name        string
		taints      []api.Taint
		tolerations []api.Toleration
		want        NoExecuteOutcome
		after       time.Duration
	}{
		{"no taints", nil, nil, NoExecuteNoTaints, 0},
		{"only NoSchedule taints", []api.Taint{{Key: "a", Effect: api.TaintEffectNoSchedule}}, nil, NoExecuteNoTaints, 0},
		{"untolerated", []api.Taint{noExec("a")}, nil, NoExecuteUntolerated, 0},
		{"one of two untolerated", []api.Taint{noExec("a"), noExec("b")}, []api.Toleration{tolerate("a", nil)}, NoExecuteUntolerated, 0},
		{"forever", []api.Taint{noExec("a")}, []api.Toleration{tolerate("a", nil)}, NoExecuteForever, 0},
		{"bounded", []api.Taint{noExec("a")}, []api.Toleration{tolerate("a", ptr(int64(300)))}, NoExecuteDeadline, 300 * time.Second},
		{"minimum over taints", []api.Taint{noExec("a"), noExec("b")}, []api.Toleration{tolerate("a", ptr(int64(300))), tolerate("b", ptr(int64(60)))}, NoExecuteDeadline, time.Minute},
		{"forever and bounded: bounded wins", []api.Taint{noExec("a"), noExec("b")}, []api.Toleration{tolerate("a", nil), tolerate("b", ptr(int64(60)))}, NoExecuteDeadline, time.Minute},
		{"first match only: earlier forever makes later bound moot", []api.Taint{noExec("a")}, []api.Toleration{tolerate("a", nil), tolerate("a", ptr(int64(60)))}, NoExecuteForever, 0},
		{"first match only: earlier bound wins over later forever", []api.Taint{noExec("a")}, []api.Toleration{{Operator: api.TolerationOpExists, TolerationSeconds: ptr(int64(10))}, tolerate("a", nil)}, NoExecuteDeadline, 10 * time.Second},
		{"zero seconds", []api.Taint{noExec("a")}, []api.Toleration{tolerate("a", ptr(int64(0)))}, NoExecuteDeadline, 0},
		{"negative seconds", []api.Taint{noExec("a"), noExec("b")}, []api.Toleration{tolerate("a", ptr(int64(-5))), tolerate("b", ptr(int64(60)))}, NoExecuteDeadline, 0},
		{"value must match under Equal", []api.Taint{{Key: "a", Value: "x", Effect: api.TaintEffectNoExecute}}, []api.Toleration{{Key: "a", Value: "y"}}, NoExecuteUntolerated, 0},
		{"NoSchedule toleration does not count", []api.Taint{noExec("a")}, []api.Toleration{{Key: "a", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}, NoExecuteUntolerated, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := EvaluateNoExecute(tt.taints, tt.tolerations)
			if d.Outcome != tt.want || d.After != tt.after {
				t.Errorf("got %v after %v, want %v after %v", d.Outcome, d.After, tt.want, tt.after)
			}
			if (d.Outcome == NoExecuteUntolerated) != (d.Untolerated != nil) || (d.Outcome == NoExecuteDeadline) != (d.Decisive != nil) {
				t.Errorf("pointers inconsistent with outcome: %+v", d)
			}
		})
	}
}

func TestEvaluateNoExecuteAllocatesNothing(t *testing.T) {
	taints := []api.Taint{noExec(api.TaintNodeUnreachable), {Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}}
	tols := []api.Toleration{tolerate(api.TaintNodeNotReady, ptr(int64(300))), tolerate(api.TaintNodeUnreachable, ptr(int64(300)))}
	if n := testing.AllocsPerRun(100, func() { EvaluateNoExecute(taints, tols) }); n != 0 {
		t.Errorf("allocations per call: %v", n)
	}
}

// script runs a TaintEviction through steps and renders its actions.
type step struct {
	at     int // seconds after t0
	taints []api.Taint
	tols   []api.Toleration
	pod    bool // a pod event (tols), else a node event (taints)
	tick   bool
}

// feed is c.Step for inputs that cannot be bad.
func feed(c *TaintEviction, ev Event, now time.Time) []TaintEvictionAction {
	acts, err := c.Step(ev, now)
	if err != nil {
		panic(err)
	}
	return acts
}

func runScript(pod *api.Pod, node *api.Node, steps []step) []string {
	c := NewTaintEviction()
	var out []string
	record := func(acts []TaintEvictionAction) {
		for _, a := range acts {
			s := fmt.Sprintf("%s %s @%ds", a.Kind, a.Pod, int(a.At.Sub(t0)/time.Second))
			if a.Kind == CancelEviction {
				s = fmt.Sprintf("%s %s", a.Kind, a.Pod)
			}
			if a.Kind == EvictPod && a.DisruptionTarget == nil {
				s += " (no patch)"
			}
			out = append(out, s)
		}
	}
	record(feed(c, PodUpdated(pod), t0))
	record(feed(c, NodeUpdated(node), t0))
	for _, s := range steps {
		at := t0.Add(time.Duration(s.at) * time.Second)
		switch {
		case s.tick:
			record(feed(c, Tick(), at))
		case s.pod:
			p := *pod
			p.Spec.Tolerations = s.tols
			pod = &p
			record(feed(c, PodUpdated(pod), at))
		default:
			n := *node
			n.Spec.Taints = s.taints
			node = &n
			record(feed(c, NodeUpdated(node), at))
		}
	}
	for {
		next := c.NextDeadline()
		if next.IsZero() {
			break
		}
		record(feed(c, Tick(), next))
	}
	return out
}

func TestTaintEvictionScripts(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: []api.Taint{
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(t0.Add(-time.Hour))},
	}}}
	pod := newPod("web-0")
	pod.Spec.Tolerations = []api.Toleration{tolerate(api.TaintNodeUnreachable, ptr(int64(300)))}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"counts from processing, not timeAdded", nil, []string{"ScheduleEviction ns-1/web-0 @300s", "EvictPod ns-1/web-0 @300s"}},
		{"a shorter toleration later does not advance it", []step{{at: 10, pod: true, tols: []api.Toleration{tolerate(api.TaintNodeUnreachable, ptr(int64(5)))}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "EvictPod ns-1/web-0 @300s"}},
		{"zero seconds later does not advance it either", []step{{at: 10, pod: true, tols: []api.Toleration{tolerate(api.TaintNodeUnreachable, ptr(int64(0)))}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "EvictPod ns-1/web-0 @300s"}},
		{"tolerating forever cancels", []step{{at: 10, pod: true, tols: []api.Toleration{tolerate(api.TaintNodeUnreachable, nil)}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0"}},
		{"removing every NoExecute taint cancels", []step{{at: 10, taints: []api.Taint{{Key: "x", Effect: api.TaintEffectNoSchedule}}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0"}},
		{"an untolerated taint evicts at once", []step{{at: 10, taints: []api.Taint{noExec(api.TaintNodeUnreachable), noExec("other")}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0", "EvictPod ns-1/web-0 @10s"}},
		{"an unchanged taint list is no event", []step{{at: 10, taints: node.Spec.Taints}}, []string{"ScheduleEviction ns-1/web-0 @300s", "EvictPod ns-1/web-0 @300s"}},
		{"a re-added taint starts afresh", []step{{at: 10, taints: nil}, {at: 20, taints: []api.Taint{noExec(api.TaintNodeUnreachable)}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0", "ScheduleEviction ns-1/web-0 @320s", "EvictPod ns-1/web-0 @320s"}},
		{"an event at the instant an eviction falls due comes first", []step{{at: 300, taints: nil}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0"}},
		{"an eviction due before an event fires first", []step{{at: 301, taints: nil}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "EvictPod ns-1/web-0 @300s"}},
		{"a pod event at the first instant replaces the deadline", []step{{at: 0, pod: true, tols: []api.Toleration{tolerate(api.TaintNodeUnreachable, ptr(int64(600)))}}},
			[]string{"ScheduleEviction ns-1/web-0 @300s", "CancelEviction ns-1/web-0", "ScheduleEviction ns-1/web-0 @600s", "EvictPod ns-1/web-0 @600s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, runScript(pod, node, tt.steps)); d != "" {
				t.Errorf("-want +got:\n%s", d)
			}
		})
	}
}

func TestTaintEvictionCondition(t *testing.T) {
	pod := newPod("web-0")
	pod.Generation = 4
	c := TaintEvictionCondition(pod, t0)
	want := &api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonDeletionByTaintManager,
		Message: MessageDeletionByTaintManager, ObservedGeneration: 4, LastTransitionTime: api.NewTime(t0)}
	if d := cmp.Diff(want, c); d != "" {
		t.Fatalf("-want +got:\n%s", d)
	}
	// An equal condition (observedGeneration aside) means no patch.
	old := *c
	old.ObservedGeneration = 0
	old.LastTransitionTime = api.NewTime(t0.Add(-time.Hour))
	pod.Status.Conditions = append(pod.Status.Conditions, old)
	if got := TaintEvictionCondition(pod, t0); got != nil {
		t.Errorf("equal condition: got a patch %+v", got)
	}
	// Another reason with the same status keeps the transition time.
	pod.Status.Conditions[len(pod.Status.Conditions)-1].Reason = api.PodReasonEvictionByEvictionAPI
	if got := TaintEvictionCondition(pod, t0); got == nil || !got.LastTransitionTime.Equal(t0.Add(-time.Hour)) {
		t.Errorf("same status: got %+v", got)
	}
	if TaintEvictionCondition(nil, t0) != nil {
		t.Error("nil pod")
	}
}

var keys = []string{api.TaintNodeUnreachable, api.TaintNodeNotReady, "example.com/a"}

func genTaints(t *rapid.T, label string) []api.Taint {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) api.Taint {
		return api.Taint{
			Key:    rapid.SampledFrom(keys).Draw(t, "key"),
			Effect: rapid.SampledFrom([]api.TaintEffect{api.TaintEffectNoExecute, api.TaintEffectNoExecute, api.TaintEffectNoSchedule}).Draw(t, "effect"),
		}
	}), 0, 3).Draw(t, label)
}

func genTolerations(t *rapid.T, label string) []api.Toleration {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) api.Toleration {
		tol := api.Toleration{
			Key:      rapid.SampledFrom(append([]string{""}, keys...)).Draw(t, "key"),
			Operator: api.TolerationOpExists,
			Effect:   rapid.SampledFrom([]api.TaintEffect{"", api.TaintEffectNoExecute, api.TaintEffectNoSchedule}).Draw(t, "effect"),
		}
		if rapid.IntRange(0, 3).Draw(t, "bounded") > 0 {
			tol.TolerationSeconds = ptr(rapid.Int64Range(-5, 600).Draw(t, "seconds"))
		}
		return tol
	}), 0, 3).Draw(t, label)
}

// A pod is never evicted before its tolerations allow (and each action
// carries the event upstream records, a cancel only for a pending
// deletion): every eviction is
// either at an instant where the pod's tolerations give it no time (an
// untolerated taint, or a bound ≤ 0 with nothing pending), or at exactly
// the deadline computed when it was scheduled, never cancelled since.
func TestTaintEvictionNeverEarly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := NewTaintEviction()
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: genTaints(t, "taints")}}
		pods := map[string]*api.Pod{}
		type sched struct{ at, deadline time.Time }
		pending := map[string]sched{}
		now := t0
		check := func(acts []TaintEvictionAction) {
			for _, a := range acts {
				p := pods[a.Pod]
				// Every cancel and deletion carries its event about the
				// pod; a schedule records none.
				want, ok := TaintEvictionEvent(a.Kind, p.Namespace, p.Name)
				if ok != (a.Event != nil) || ok && !cmp.Equal(want, *a.Event) {
					t.Fatalf("%s %s: event %+v", a.Kind, a.Pod, a.Event)
				}
				switch a.Kind {
				case ScheduleEviction:
					d := EvaluateNoExecute(node.Spec.Taints, p.Spec.Tolerations)
					if d.Outcome != NoExecuteDeadline || !a.At.Equal(now.Add(d.After)) {
						t.Fatalf("%s scheduled at %v, decision %v after %v at %v", a.Pod, a.At, d.Outcome, d.After, now)
					}
					pending[a.Pod] = sched{now, a.At}
				case CancelEviction:
					// "Cancelling deletion" only for a deletion waiting.
					if _, ok := pending[a.Pod]; !ok {
						t.Fatalf("%s cancelled with nothing pending", a.Pod)
					}
					delete(pending, a.Pod)
				case EvictPod:
					if s, ok := pending[a.Pod]; ok {
						if !a.At.Equal(s.deadline) {
							t.Fatalf("%s evicted at %v, scheduled for %v", a.Pod, a.At, s.deadline)
						}
						delete(pending, a.Pod)
						continue
					}
					d := EvaluateNoExecute(node.Spec.Taints, p.Spec.Tolerations)
					if !a.At.Equal(now) || !(d.Outcome == NoExecuteUntolerated || d.Outcome == NoExecuteDeadline && d.After == 0) {
						t.Fatalf("%s evicted at %v (now %v) with decision %v after %v", a.Pod, a.At, now, d.Outcome, d.After)
					}
				}
			}
		}
		for i := range rapid.IntRange(1, 3).Draw(t, "pods") {
			p := newPod(fmt.Sprintf("p%d", i))
			p.Spec.Tolerations = genTolerations(t, "tolerations")
			pods[p.Key()] = p
			check(feed(c, PodUpdated(p), now))
		}
		check(feed(c, NodeUpdated(node), now))
		for range rapid.IntRange(0, 6).Draw(t, "events") {
			// Evictions due before the next event fire at their own time.
			next := now.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "gap")) * time.Second)
			for {
				at := c.NextDeadline()
				if at.IsZero() || at.After(next) {
					break
				}
				now = at
				check(feed(c, Tick(), at))
			}
			now = next
			if rapid.Bool().Draw(t, "nodeEvent") {
				n := *node
				n.Spec.Taints = genTaints(t, "taints")
				node = &n
				check(feed(c, NodeUpdated(node), now))
			} else {
				key := rapid.SampledFrom(slices.Sorted(maps.Keys(pods))).Draw(t, "pod")
				p := *pods[key]
				p.Spec.Tolerations = genTolerations(t, "tolerations")
				pods[key] = &p
				check(feed(c, PodUpdated(&p), now))
			}
		}
	})
}

// Removing every NoExecute taint cancels every pending eviction: nothing
// fires afterwards, however long the clock runs.
func TestTaintEvictionRemovalCancels(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := NewTaintEviction()
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: genTaints(t, "taints")}}
		for i := range rapid.IntRange(1, 4).Draw(t, "pods") {
			p := newPod(fmt.Sprintf("p%d", i))
			p.Spec.Tolerations = genTolerations(t, "tolerations")
			feed(c, PodUpdated(p), t0)
		}
		feed(c, NodeUpdated(node), t0)
		at := t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "later")) * time.Second)
		n := *node
		n.Spec.Taints = nil
		for _, tt := range node.Spec.Taints {
			if tt.Effect != api.TaintEffectNoExecute {
				n.Spec.Taints = append(n.Spec.Taints, tt)
			}
		}
		acts := feed(c, NodeUpdated(&n), at)
		for _, a := range acts {
			if a.Kind == EvictPod && a.At.After(at) {
				t.Fatalf("eviction after the removal: %+v", a)
			}
		}
		if next := c.NextDeadline(); !next.IsZero() {
			t.Fatalf("still pending at %v", next)
		}
		if acts := feed(c, Tick(), at.Add(100*365*24*time.Hour)); len(acts) > 0 {
			t.Fatalf("fired later: %+v", acts)
		}
	})
}

// referenceNoExecute is a plain restatement of upstream's two steps
// (GetMatchingTolerations, then getMinTolerationTime) to fuzz against.
func referenceNoExecute(taints []api.Taint, tols []api.Toleration) (NoExecuteOutcome, time.Duration) {
	var ne []api.Taint
	for _, t := range taints {
		if t.Effect == api.TaintEffectNoExecute {
			ne = append(ne, t)
		}
	}
	if len(ne) == 0 {
		return NoExecuteNoTaints, 0
	}
	var used []api.Toleration
	for i := range ne {
		found := false
		for j := range tols {
			if tols[j].ToleratesTaint(&ne[i]) {
				used, found = append(used, tols[j]), true
				break
			}
		}
		if !found {
			return NoExecuteUntolerated, 0
		}
	}
	best := int64(-1)
	for _, u := range used {
		if u.TolerationSeconds == nil {
			continue
		}
		if *u.TolerationSeconds <= 0 {
			return NoExecuteDeadline, 0
		}
		if best < 0 || *u.TolerationSeconds < best {
			best = *u.TolerationSeconds
		}
	}
	if best < 0 {
		return NoExecuteForever, 0
	}
	return NoExecuteDeadline, secondsDuration(best)
}

// FuzzEvaluateNoExecute: arbitrary taints and tolerations never panic and
// agree with the plain restatement of upstream's rule.
func FuzzEvaluateNoExecute(f *testing.F) {
	f.Add([]byte(`[{"key":"a","effect":"NoExecute"}]`), []byte(`[{"operator":"Exists","tolerationSeconds":5}]`))
	f.Add([]byte(`[{"key":"a","value":"x","effect":"NoExecute"},{"key":"b","effect":"NoSchedule"}]`), []byte(`[{"key":"a","value":"x"},{"key":"a","operator":"Exists","tolerationSeconds":-1}]`))
	f.Add([]byte(`[{"key":"a","effect":"NoExecute"}]`), []byte(`[{"key":"a","operator":"Exists","tolerationSeconds":9223372036854775807}]`))
	f.Fuzz(func(t *testing.T, rawTaints, rawTols []byte) {
		var taints []api.Taint
		var tols []api.Toleration
		if json.Unmarshal(rawTaints, &taints) != nil || json.Unmarshal(rawTols, &tols) != nil {
			return
		}
		d := EvaluateNoExecute(taints, tols)
		outcome, after := referenceNoExecute(taints, tols)
		if d.Outcome != outcome || d.After != after {
			t.Fatalf("got %v %v, reference %v %v", d.Outcome, d.After, outcome, after)
		}
		if d.After < 0 {
			t.Fatalf("negative delay %v", d.After)
		}
	})
}

func TestZeroAndNilControllers(t *testing.T) {
	var zero TaintEviction
	pod := newPod("web-0")
	feed(&zero, PodUpdated(pod), t0)
	acts := feed(&zero, NodeUpdated(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: []api.Taint{noExec("x")}}}), t0)
	if len(acts) != 1 || acts[0].Kind != EvictPod {
		t.Errorf("zero value: %+v", acts)
	}
	var nilC *TaintEviction
	for _, ev := range []Event{PodUpdated(pod), Tick(), NodeDeleted("x"), PodDeleted("a", "b")} {
		if acts, err := nilC.Step(ev, t0); acts != nil || !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("nil receiver, %s: %v %v", ev.Kind, acts, err)
		}
	}
	if !nilC.NextDeadline().IsZero() {
		t.Error("nil receiver has a next eviction")
	}
	// Bad events change nothing, not even the firing of due evictions.
	c := NewTaintEviction()
	seconds := int64(5)
	pod.Spec.Tolerations = []api.Toleration{tolerate("x", &seconds)}
	feed(c, PodUpdated(pod), t0)
	feed(c, NodeUpdated(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: []api.Taint{noExec("x")}}}), t0)
	for _, ev := range []Event{NodeUpdated(nil), PodUpdated(nil), {Kind: EventPodDeleted + 1}} {
		if acts, err := c.Step(ev, t0.Add(time.Minute)); acts != nil || !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("%s: %v %v", ev.Kind, acts, err)
		}
	}
	if next := c.NextDeadline(); !next.Equal(t0.Add(5 * time.Second)) {
		t.Errorf("pending eviction %v after bad events", next)
	}
	var m Monitor
	if _, err := m.Step(MonitorInput{Node: nodeWith(cond(api.NodeReady, api.ConditionTrue))}, t0); err != nil {
		t.Errorf("zero Monitor: %v", err)
	}
	var nilM *Monitor
	if _, err := nilM.Step(MonitorInput{Node: nodeWith()}, t0); err == nil || nilM.NodeNotReady("x") || !nilM.NextDeadline().IsZero() {
		t.Error("nil Monitor")
	}
}
