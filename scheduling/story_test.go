package scheduling_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
)

// TestStories replays the scheduling loop's stories in testdata/loop. A
// story defines objects, builds the loop, and feeds it inputs:
//
//	postfilter none                       (no PostFilter; default: DefaultPreemption)
//	node node-a cpu=4 zone=zone-a         (a node: cpu, memory, pods, zone, label=k=v,
//	                                       taint=k=v:Effect, unschedulable)
//	pod web-1 cpu=1 label=app=web         (a pod in namespace default, API-defaulted grace
//	                                       30 s: cpu, memory, prio, on=NODE, nominated=NODE,
//	                                       gate=NAME, never, grace=SECONDS, spread=KEY,
//	                                       ns=NS, label=k=v)
//	json NAME                             (any object as JSON, up to "end")
//	cluster node-a web-1                  (the snapshot the loop starts with)
//	at 1s PodAdded(web-2)                 (inputs name the objects defined;
//	at 2s PodUpdated(default/lo terminating)  the loop's own pod, deleted as preempted;
//	at 2s PodUpdated(default/g ungated)       the loop's own pod without its gates;
//	at 3s Tick                            NodeUpdated, PodDeleted(ns/name), NodeDeleted,
//	                                      ObjectSet and ObjectDeleted too)
//
// Each answer lists the attempt a Tick ran, the actions one per line, and
// the queue after the step with the loop's next deadline.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/loop/*.txt", func() story.Adapter { return newLoopAdapter() })
}

// storyStart is when every story's clock starts.
var storyStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type loopAdapter struct {
	post    scheduling.PostFilter
	defined map[string]api.Object
	loop    *scheduling.Loop
	// pods are the latest objects of the pods the story fed or the loop
	// bound, by key; preempted the DisruptionTarget conditions the loop
	// asked for.
	pods      map[string]*api.Pod
	preempted map[string]*api.PodCondition
}

func newLoopAdapter() *loopAdapter {
	return &loopAdapter{post: mustPostFilter(), defined: map[string]api.Object{},
		pods: map[string]*api.Pod{}, preempted: map[string]*api.PodCondition{}}
}

func (a *loopAdapter) Block(cmd string) bool { return cmd == "json" }
func (a *loopAdapter) Tick() string          { return "Tick" }

func (a *loopAdapter) Next() (time.Duration, bool) {
	if a.loop == nil {
		return 0, false
	}
	d := a.loop.NextDeadline()
	return d.Sub(storyStart), !d.IsZero()
}

func (a *loopAdapter) Directive(cmd string, args []string, body string) error {
	switch cmd {
	case "postfilter":
		if len(args) != 1 {
			return fmt.Errorf("want postfilter none|default-preemption")
		}
		switch args[0] {
		case "none":
			a.post = nil
		case "default-preemption":
			a.post = mustPostFilter()
		default:
			return fmt.Errorf("unknown postfilter %q", args[0])
		}
		return nil
	case "node":
		n, err := storyNode(args)
		if err != nil {
			return err
		}
		a.defined[n.Name] = n
		return nil
	case "pod":
		p, err := storyPod(args)
		if err != nil {
			return err
		}
		a.defined[p.Name] = p
		return nil
	case "json":
		if len(args) != 1 {
			return fmt.Errorf("want json NAME")
		}
		objs, err := api.Decode([]byte(body))
		if err != nil || len(objs) != 1 {
			return fmt.Errorf("json %s: %d objects, %v", args[0], len(objs), err)
		}
		a.defined[args[0]] = objs[0]
		return nil
	case "cluster":
		if a.loop != nil {
			return fmt.Errorf("the loop is running already")
		}
		var objs []api.Object
		for _, name := range args {
			o, ok := a.defined[name]
			if !ok {
				return fmt.Errorf("no object %q defined", name)
			}
			if p, ok := o.(*api.Pod); ok {
				a.pods[p.Key()] = p
			}
			objs = append(objs, o)
		}
		return a.start(objs)
	}
	return fmt.Errorf("unknown directive %q", cmd)
}

func (a *loopAdapter) start(objs []api.Object) error {
	c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		return err
	}
	if err := c.AddObjects(objs...); err != nil {
		return err
	}
	a.loop, err = scheduling.NewLoop(c, scheduling.LoopConfig{PostFilter: a.post}, storyStart)
	return err
}

func (a *loopAdapter) Step(at time.Duration, input string) ([]string, error) {
	if a.loop == nil {
		if err := a.start(nil); err != nil {
			return nil, err
		}
	}
	now := storyStart.Add(at)
	in, err := a.input(input, now)
	if err != nil {
		return nil, err
	}
	res, err := a.loop.Step(in, now)
	if err != nil {
		return nil, err
	}
	var out []string
	if res.Pod != nil {
		out = append(out, fmt.Sprintf("attempt %d of %s", res.Attempts, res.Pod.Key()))
	}
	if res.Bound != nil {
		a.pods[res.Bound.Key()] = res.Bound
	}
	for _, act := range res.Actions {
		out = append(out, a.render(act, now))
	}
	return append(out, a.queueLine()), nil
}

// input parses one input line into the loop's Input.
func (a *loopAdapter) input(text string, now time.Time) (scheduling.Input, error) {
	if text == "Tick" {
		return scheduling.Tick(), nil
	}
	open, end := strings.IndexByte(text, '('), strings.LastIndexByte(text, ')')
	if open < 0 || end != len(text)-1 {
		return scheduling.Input{}, fmt.Errorf("want KIND(ARGS), got %q", text)
	}
	kind, args := text[:open], strings.Fields(text[open+1:end])
	if len(args) == 0 {
		return scheduling.Input{}, fmt.Errorf("%s: no argument", kind)
	}
	switch kind {
	case "PodDeleted":
		ns, name, _ := strings.Cut(args[0], "/")
		delete(a.pods, args[0])
		return scheduling.PodDeleted(ns, name), nil
	case "NodeDeleted":
		return scheduling.NodeDeleted(args[0]), nil
	case "PodUpdated":
		if len(args) == 2 {
			p, err := a.derived(args[0], args[1], now)
			return scheduling.PodUpdated(p), err
		}
	}
	o, ok := a.defined[args[0]]
	if !ok {
		return scheduling.Input{}, fmt.Errorf("no object %q defined", args[0])
	}
	switch kind {
	case "PodAdded", "PodUpdated":
		p, ok := o.(*api.Pod)
		if !ok {
			return scheduling.Input{}, fmt.Errorf("%s is not a pod", args[0])
		}
		a.pods[p.Key()] = p
		if kind == "PodAdded" {
			return scheduling.PodAdded(p), nil
		}
		return scheduling.PodUpdated(p), nil
	case "NodeAdded", "NodeUpdated":
		n, ok := o.(*api.Node)
		if !ok {
			return scheduling.Input{}, fmt.Errorf("%s is not a node", args[0])
		}
		if kind == "NodeAdded" {
			return scheduling.NodeAdded(n), nil
		}
		return scheduling.NodeUpdated(n), nil
	case "ObjectSet":
		return scheduling.ObjectSet(o), nil
	case "ObjectDeleted":
		return scheduling.ObjectDeleted(o), nil
	}
	return scheduling.Input{}, fmt.Errorf("unknown input %q", text)
}

// derived is the latest object of the pod key changed as change says:
// "terminating" (deleted as the loop asked when it preempted it: its
// DisruptionTarget condition, and the deletionTimestamp the API server
// sets for a DELETE without options) or "ungated" (its scheduling gates
// removed).
func (a *loopAdapter) derived(key, change string, now time.Time) (*api.Pod, error) {
	cur, ok := a.pods[key]
	if !ok {
		return nil, fmt.Errorf("no pod %q", key)
	}
	p := *cur
	switch change {
	case "terminating":
		if cond := a.preempted[key]; cond != nil {
			p.Status.Conditions = append(append([]api.PodCondition(nil), p.Status.Conditions...), *cond)
		}
		d, err := termination.APIServerGrace(&p, &api.DeleteOptions{}, now)
		if err != nil {
			return nil, err
		}
		if d.DeletionTimestamp != nil {
			ts := api.NewTime(*d.DeletionTimestamp)
			p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &ts, d.DeletionGracePeriodSeconds
		}
	case "ungated":
		p.Spec.SchedulingGates = nil
	default:
		return nil, fmt.Errorf("unknown change %q", change)
	}
	a.pods[key] = &p
	return &p, nil
}

// render writes one action on one line.
func (a *loopAdapter) render(act scheduling.Action, now time.Time) string {
	key := act.Pod.Key()
	switch act.Kind {
	case scheduling.ActionBind:
		return "Bind " + key + " to " + act.Node
	case scheduling.ActionNominate:
		if p := a.pods[key]; p != nil {
			cp := *p
			cp.Status.NominatedNodeName = act.Node
			a.pods[key] = &cp
		}
		return "Nominate " + key + " on " + act.Node
	case scheduling.ActionClearNomination:
		if p := a.pods[key]; p != nil {
			cp := *p
			cp.Status.NominatedNodeName = ""
			a.pods[key] = &cp
		}
		return "ClearNomination " + key
	case scheduling.ActionPreempt:
		a.preempted[key] = act.Condition
		grace := "?"
		if d, err := termination.APIServerGrace(act.Pod, act.DeleteOptions, now); err == nil && d.DeletionGracePeriodSeconds != nil {
			grace = strconv.FormatInt(*d.DeletionGracePeriodSeconds, 10) + "s"
		}
		c := act.Condition
		return fmt.Sprintf("Preempt %s on %s for %s: %s=%s %s %q, DELETE (grace %s), event %s %q",
			key, act.Node, act.Preemptor.Key(), c.Type, c.Status, c.Reason, c.Message, grace,
			act.Event.Reason, act.Event.Note)
	case scheduling.ActionFailedScheduling:
		if act.Condition == nil {
			return fmt.Sprintf("FailedScheduling %s: event only %q", key, act.Event.Note)
		}
		c := act.Condition
		return fmt.Sprintf("FailedScheduling %s: %s=%s %s %q", key, c.Type, c.Status, c.Reason, c.Message)
	}
	return act.String()
}

// queueLine summarises the queue and the loop's next deadline.
func (a *loopAdapter) queueLine() string {
	st := a.loop.Queue().State()
	var parts []string
	list := func(name string, keys []string) {
		if len(keys) > 0 {
			parts = append(parts, name+" ["+strings.Join(keys, " ")+"]")
		}
	}
	list("active", st.Active)
	var backoff []string
	for _, b := range st.Backoff {
		backoff = append(backoff, b.Key+" until "+story.Format(b.Until.Sub(storyStart)))
	}
	list("backoff", backoff)
	list("unschedulable", st.Unschedulable)
	list("gated", st.Gated)
	line := "queue: empty"
	if len(parts) > 0 {
		line = "queue: " + strings.Join(parts, ", ")
	}
	if next := a.loop.NextDeadline(); !next.IsZero() {
		line += "; next " + story.Format(next.Sub(storyStart))
	}
	return line
}

// storyNode builds a node from "NAME key=value ...".
func storyNode(args []string) (*api.Node, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("want node NAME [key=value ...]")
	}
	name := args[0]
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
	alloc := map[string]string{"cpu": "4", "memory": "8Gi", "pods": "110"}
	for _, kv := range args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "cpu", "memory", "pods":
			alloc[k] = v
		case "zone":
			n.Labels["topology.kubernetes.io/zone"] = v
		case "label":
			lk, lv, _ := strings.Cut(v, "=")
			n.Labels[lk] = lv
		case "taint":
			kvPart, effect, _ := strings.Cut(v, ":")
			tk, tv, _ := strings.Cut(kvPart, "=")
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: tk, Value: tv, Effect: api.TaintEffect(effect)})
		case "unschedulable":
			n.Spec.Unschedulable = true
		default:
			return nil, fmt.Errorf("node %s: unknown %q", name, kv)
		}
	}
	return n, storyJSON(map[string]any{"allocatable": alloc}, &n.Status)
}

// storyPod builds a pod from "NAME key=value ...".
func storyPod(args []string) (*api.Pod, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("want pod NAME [key=value ...]")
	}
	name := args[0]
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name}}
	p.Spec.SchedulerName = api.DefaultSchedulerName
	grace := api.DefaultTerminationGracePeriodSeconds
	p.Spec.TerminationGracePeriodSeconds = &grace
	requests := map[string]string{}
	for _, kv := range args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "ns":
			p.Namespace = v
		case "cpu", "memory":
			requests[k] = v
		case "prio":
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return nil, err
			}
			prio := int32(n)
			p.Spec.Priority = &prio
		case "on":
			p.Spec.NodeName = v
			p.Status.Phase = api.PodRunning
			start := api.NewTime(storyStart)
			p.Status.StartTime = &start
		case "nominated":
			p.Status.NominatedNodeName = v
		case "gate":
			p.Spec.SchedulingGates = append(p.Spec.SchedulingGates, api.PodSchedulingGate{Name: v})
		case "never":
			never := api.PreemptNever
			p.Spec.PreemptionPolicy = &never
		case "grace":
			g, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, err
			}
			p.Spec.TerminationGracePeriodSeconds = &g
		case "label":
			lk, lv, _ := strings.Cut(v, "=")
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			p.Labels[lk] = lv
		case "spread":
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: v, WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: p.Labels}})
		default:
			return nil, fmt.Errorf("pod %s: unknown %q", name, kv)
		}
	}
	p.Spec.Containers = []api.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}
	if len(requests) > 0 {
		if err := storyJSON(map[string]any{"requests": requests}, &p.Spec.Containers[0].Resources); err != nil {
			return nil, err
		}
	}
	if p.Spec.NodeName == "" {
		p.Status.Phase = api.PodPending
	}
	return p, nil
}

// storyJSON fills out from v through JSON (quantities parse there).
func storyJSON(v any, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// mustPostFilter is DefaultPreemption with its default arguments.
func mustPostFilter() scheduling.PostFilter {
	post, err := preemption.New(preemption.Config{})
	if err != nil {
		panic(err)
	}
	return post
}
