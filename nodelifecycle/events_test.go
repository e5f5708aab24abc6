package nodelifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
)

// eventLines renders the events of taint eviction actions, one line per
// action: its kind and its event's type, reason, regarded object and
// note ("-" for none).
func eventLines(acts []TaintEvictionAction) []string {
	var out []string
	for _, a := range acts {
		s := a.Kind.String() + " -"
		if e := a.Event; e != nil {
			s = a.Kind.String() + " " + e.Type + " " + e.Reason + " " + e.Source + " " +
				e.Regarding.Kind + ":" + e.Regarding.Namespace + "/" + e.Regarding.Name + " uid=" + e.Regarding.UID + ": " + e.Note
		}
		out = append(out, s)
	}
	return out
}

func TestTaintEvictionEvents(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	pod := newPod("web-1")
	pod.Spec.Tolerations = []api.Toleration{tolerate(api.TaintNodeUnreachable, ptr[int64](300))}
	tainted := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}, Spec: api.NodeSpec{Taints: []api.Taint{noExec(api.TaintNodeUnreachable)}}}
	clean := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}

	c := NewTaintEviction()
	feed(c, PodUpdated(pod), at(0))
	// Scheduling a deletion records nothing.
	if got := eventLines(feed(c, NodeUpdated(tainted), at(0))); !cmp.Equal(got, []string{"ScheduleEviction -"}) {
		t.Errorf("schedule: %v", got)
	}
	// The taint goes: the pending deletion is cancelled, with its event
	// regarding the pod by namespace and name alone.
	want := []string{"CancelEviction Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-1 uid=: Cancelling deletion of Pod ns-1/web-1"}
	if got := eventLines(feed(c, NodeUpdated(clean), at(10))); !cmp.Equal(got, want) {
		t.Errorf("cancel: %s", cmp.Diff(want, got))
	}
	// Nothing pending: removing the taint again records nothing.
	feed(c, NodeUpdated(tainted), at(20))
	feed(c, NodeUpdated(clean), at(30))
	if got := eventLines(feed(c, NodeUpdated(clean), at(31))); len(got) != 0 {
		t.Errorf("no pending deletion: %v", got)
	}
	// The deletion fires: "Marking for deletion".
	feed(c, NodeUpdated(tainted), at(40))
	want = []string{"EvictPod Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-1 uid=: Marking for deletion Pod ns-1/web-1"}
	if got := eventLines(feed(c, Tick(), at(340))); !cmp.Equal(got, want) {
		t.Errorf("fire: %s", cmp.Diff(want, got))
	}

	// An untolerated taint deletes at once: no cancel event when nothing
	// was pending (the immediate deletion never waits), a cancel event and
	// then the marking when a deletion was pending.
	other := newPod("web-2")
	other.Spec.Tolerations = pod.Spec.Tolerations
	c = NewTaintEviction()
	feed(c, PodUpdated(other), at(0))
	feed(c, NodeUpdated(tainted), at(0))
	bare := *other
	bare.Spec.Tolerations = nil
	want = []string{
		"CancelEviction Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-2 uid=: Cancelling deletion of Pod ns-1/web-2",
		"EvictPod Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-2 uid=: Marking for deletion Pod ns-1/web-2",
	}
	if got := eventLines(feed(c, PodUpdated(&bare), at(5))); !cmp.Equal(got, want) {
		t.Errorf("untolerated with a pending deletion: %s", cmp.Diff(want, got))
	}
	c = NewTaintEviction()
	feed(c, PodUpdated(&bare), at(0))
	want = []string{"EvictPod Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-2 uid=: Marking for deletion Pod ns-1/web-2"}
	if got := eventLines(feed(c, NodeUpdated(tainted), at(0))); !cmp.Equal(got, want) {
		t.Errorf("untolerated: %s", cmp.Diff(want, got))
	}

	// A deleted pod's pending deletion is cancelled with its event.
	c = NewTaintEviction()
	feed(c, PodUpdated(pod), at(0))
	feed(c, NodeUpdated(tainted), at(0))
	want = []string{"CancelEviction Normal TaintManagerEviction taint-eviction-controller Pod:ns-1/web-1 uid=: Cancelling deletion of Pod ns-1/web-1"}
	if got := eventLines(feed(c, PodDeleted("ns-1", "web-1"), at(1))); !cmp.Equal(got, want) {
		t.Errorf("pod deleted: %s", cmp.Diff(want, got))
	}

	if _, ok := TaintEvictionEvent(ScheduleEviction, "ns", "p"); ok {
		t.Error("ScheduleEviction has an event")
	}
}

func TestMonitorNodeNotReadyEvent(t *testing.T) {
	m := mustMonitor(Config{})
	n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	n.UID = "node-uid-1"
	rep, _ := m.Step(MonitorInput{Node: n}, t0)
	if rep.Events != nil {
		t.Fatalf("first look: %+v", rep.Events)
	}
	rep, _ = m.Step(MonitorInput{Node: n}, t0.Add(51*time.Second))
	want := []api.Event{{
		Type: api.EventTypeNormal, Reason: "NodeNotReady", Note: "Node node-1 status is now: NodeNotReady",
		Regarding: api.ObjectReference{Kind: "Node", APIVersion: "v1", Name: "node-1", UID: "node-uid-1"},
		Source:    "node-controller",
	}}
	if d := cmp.Diff(want, rep.Events); d != "" {
		t.Errorf("the Unknown flip (-want +got):\n%s", d)
	}
	// Recorded once: the next look finds Ready already Unknown.
	n2 := *n
	n2.Status = *rep.Status
	n2.Spec.Taints = rep.Taints
	if rep, _ = m.Step(MonitorInput{Node: &n2}, t0.Add(56*time.Second)); rep.Events != nil {
		t.Errorf("again: %+v", rep.Events)
	}
	// A kubelet posting Ready=False itself: the controller wrote nothing,
	// so it records nothing (the kubelet records its own NodeNotReady).
	m = mustMonitor(Config{})
	m.Step(MonitorInput{Node: n}, t0)
	f := nodeWith(cond(api.NodeReady, api.ConditionFalse))
	f.UID = "node-uid-1"
	f.Status.Conditions[0].LastHeartbeatTime = api.NewTime(t0.Add(time.Second))
	if rep, _ = m.Step(MonitorInput{Node: f}, t0.Add(5*time.Second)); rep.Events != nil || rep.MarkPodsNotReady {
		t.Errorf("Ready=False posted: %+v", rep.Events)
	}
}

func TestControllerNodeEvents(t *testing.T) {
	node := func(name, uid string) *api.Node {
		n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
		n.Name, n.UID = name, uid
		return n
	}
	a, b := node("node-a", "uid-a"), node("node-b", "uid-b")
	c := mustController(Config{})
	r, err := c.Step(Input{Nodes: []*api.Node{a, b}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	notes := func(evs []api.Event) []string {
		var out []string
		for _, e := range evs {
			out = append(out, e.Type+" "+e.Reason+" "+e.Regarding.Kind+"/"+e.Regarding.Name+" "+e.Regarding.UID+" "+e.Source+": "+e.Note)
		}
		return out
	}
	want := []string{
		"Normal RegisteredNode Node/node-a uid-a node-controller: Node node-a event: Registered Node node-a in Controller",
		"Normal RegisteredNode Node/node-b uid-b node-controller: Node node-b event: Registered Node node-b in Controller",
	}
	if d := cmp.Diff(want, notes(r.Events)); d != "" {
		t.Errorf("first pass (-want +got):\n%s", d)
	}
	// The next pass lists both again: nothing to record.
	if r, _ = c.Step(Input{Nodes: []*api.Node{a, b}}, t0.Add(5*time.Second)); r.Events != nil {
		t.Errorf("second pass: %v", notes(r.Events))
	}
	// node-a is deleted (the UID named is the one registered), node-c
	// appears: registrations first, then removals.
	cc := node("node-c", "uid-c")
	r, _ = c.Step(Input{Nodes: []*api.Node{b, cc}}, t0.Add(10*time.Second))
	want = []string{
		"Normal RegisteredNode Node/node-c uid-c node-controller: Node node-c event: Registered Node node-c in Controller",
		"Normal RemovingNode Node/node-a uid-a node-controller: Node node-a event: Removing Node node-a from Controller",
	}
	if d := cmp.Diff(want, notes(r.Events)); d != "" {
		t.Errorf("a node replaced (-want +got):\n%s", d)
	}
	// A tainting pass alone records nothing.
	if r, _ = c.Step(Input{Nodes: []*api.Node{b, cc}}, t0.Add(10*time.Second+100*time.Millisecond)); r.MonitorPass || r.Events != nil {
		t.Errorf("tainting pass: %+v", r)
	}
}

func TestMarkPodsNotReady(t *testing.T) {
	now := t0.Add(time.Minute)
	ready, notReady, elsewhere := newPod("a"), newPod("b"), newPod("c")
	unready(notReady)
	elsewhere.Spec.NodeName = "node-2"
	got := MarkPodsNotReady("node-1", []*api.Pod{ready, nil, notReady, elsewhere}, now)
	if len(got) != 1 || got[0].Pod != ready {
		t.Fatalf("got %+v, want only pod a", got)
	}
	want := api.Event{
		Type: api.EventTypeWarning, Reason: "NodeNotReady", Note: "Node is not ready",
		Regarding: api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "ns-1", Name: "a", UID: "uid-a", ResourceVersion: "10"},
		Source:    "node-controller",
	}
	if d := cmp.Diff(want, got[0].Event); d != "" {
		t.Errorf("event (-want +got):\n%s", d)
	}
	if d := cmp.Diff(*MarkPodNotReady(ready, now), got[0].Condition); d != "" {
		t.Errorf("condition (-want +got):\n%s", d)
	}
}
