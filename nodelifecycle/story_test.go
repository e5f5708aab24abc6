package nodelifecycle_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/nodelifecycle"
)

// The stories of this package's three machines, in testdata/<machine>/.
// Times are elapsed from storyT0; taint keys are written without the
// node.kubernetes.io/ prefix.

var storyT0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func TestStories(t *testing.T) {
	story.Run(t, "testdata/monitor/*.txt", func() story.Adapter { return &monitorStory{} })
	story.Run(t, "testdata/controller/*.txt", func() story.Adapter { return newControllerStory() })
	story.Run(t, "testdata/tainteviction/*.txt", func() story.Adapter { return &evictionStory{} })
}

// shortKey drops the well-known prefix of a taint key; longKey restores it.
func shortKey(key string) string { return strings.TrimPrefix(key, "node.kubernetes.io/") }

func longKey(key string) string {
	if strings.Contains(key, "/") || key == "*" {
		return key
	}
	return "node.kubernetes.io/" + key
}

func at(d time.Duration) string { return story.Format(d) }

// taintChanges renders what a taint update added and removed:
// "+unreachable:NoSchedule", "-not-ready:NoExecute".
func taintChanges(u nodelifecycle.TaintUpdate) []string {
	var out []string
	for _, t := range u.Added {
		out = append(out, "+"+shortKey(t.Key)+":"+string(t.Effect))
	}
	for _, t := range u.Removed {
		out = append(out, "-"+shortKey(t.Key)+":"+string(t.Effect))
	}
	return out
}

// parseConfig reads key=value settings into a Config.
func parseConfig(args []string) (nodelifecycle.Config, error) {
	var cfg nodelifecycle.Config
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return cfg, fmt.Errorf("want key=value, got %q", a)
		}
		var err error
		rate := func() float32 {
			f, e := strconv.ParseFloat(v, 32)
			err = e
			return float32(f)
		}
		dur := func() time.Duration {
			d, e := time.ParseDuration(v)
			err = e
			return d
		}
		switch k {
		case "monitor-period":
			cfg.MonitorPeriod = dur()
		case "monitor-grace":
			cfg.MonitorGracePeriod = dur()
		case "startup-grace":
			cfg.StartupGracePeriod = dur()
		case "eviction-rate":
			cfg.EvictionRate = rate()
		case "secondary-rate":
			cfg.SecondaryEvictionRate = rate()
		case "unhealthy-threshold":
			cfg.UnhealthyZoneThreshold = rate()
		case "large-cluster":
			n, e := strconv.Atoi(v)
			cfg.LargeClusterSizeThreshold, err = int32(n), e
		default:
			return cfg, fmt.Errorf("unknown setting %q", k)
		}
		if err != nil {
			return cfg, fmt.Errorf("%s: %v", k, err)
		}
	}
	return cfg, nil
}

// readyNode is a registered node whose kubelet posted Ready=status with
// heartbeat (and transition) at hb.
func readyNode(name string, status api.ConditionStatus, hb time.Time, labels map[string]string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels, CreationTimestamp: api.NewTime(storyT0.Add(-24 * time.Hour))}}
	if status != "" {
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: status, Reason: "KubeletReady",
			LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(hb)}}
	}
	return n
}

// post is the node after its kubelet posted Ready=status at now: the
// heartbeat moves, the transition time only when the status changes.
func post(n *api.Node, status api.ConditionStatus, now time.Time) *api.Node {
	m := *n
	c := api.NodeCondition{Type: api.NodeReady, Status: status, Reason: "KubeletReady",
		LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}
	if status != api.ConditionTrue {
		c.Reason = "KubeletNotReady"
	}
	if old := n.FindCondition(api.NodeReady); old != nil && old.Status == status {
		c.LastTransitionTime = old.LastTransitionTime
	}
	m.Status.Conditions = []api.NodeCondition{c}
	return &m
}

// --- Monitor ---

// monitorStory drives a Monitor looking at one node, and plays the API
// server: it writes back what each look writes.
//
//	config monitor-grace=40s ...     (before the first input)
//	node NAME Ready=True|False|Unknown|none [heartbeat=D] [created=D]
//	at D Look                        the controller looks (the tick)
//	at D Lease                       the kubelet renews the node's Lease, then a look
//	at D Post Ready=True|False       the kubelet posts status (and renews the Lease), then a look
//	at D Delete                      the node is deleted
//
// Each look answers with what the controller wrote (status, taints, pods
// marked not ready) and the monitor's next deadline.
type monitorStory struct {
	m     *nodelifecycle.Monitor
	cfg   nodelifecycle.Config
	node  *api.Node
	lease time.Time
}

func (s *monitorStory) Block(string) bool { return false }
func (s *monitorStory) Tick() string      { return "Look" }

func (s *monitorStory) Directive(cmd string, args []string, _ string) error {
	switch cmd {
	case "config":
		cfg, err := parseConfig(args)
		s.cfg = cfg
		return err
	case "node":
		if len(args) < 2 {
			return fmt.Errorf("want node NAME Ready=STATUS [heartbeat=D] [created=D]")
		}
		status := strings.TrimPrefix(args[1], "Ready=")
		if status == "none" {
			status = ""
		}
		hb, created := time.Duration(0), -24*time.Hour
		for _, a := range args[2:] {
			k, v, _ := strings.Cut(a, "=")
			d, err := time.ParseDuration(v)
			if err != nil {
				return err
			}
			switch k {
			case "heartbeat":
				hb = d
			case "created":
				created = d
			default:
				return fmt.Errorf("unknown field %q", k)
			}
		}
		s.node = readyNode(args[0], api.ConditionStatus(status), storyT0.Add(hb), nil)
		s.node.CreationTimestamp = api.NewTime(storyT0.Add(created))
		return nil
	}
	return fmt.Errorf("unknown directive")
}

func (s *monitorStory) Next() (time.Duration, bool) {
	next := s.m.NextDeadline()
	return next.Sub(storyT0), !next.IsZero()
}

func (s *monitorStory) Step(d time.Duration, input string) ([]string, error) {
	if s.node == nil {
		return nil, fmt.Errorf("no node yet")
	}
	if s.m == nil {
		m, err := nodelifecycle.NewMonitor(s.cfg)
		if err != nil {
			return nil, err
		}
		s.m = m
	}
	now := storyT0.Add(d)
	fields := strings.Fields(input)
	in := nodelifecycle.MonitorInput{Node: s.node}
	switch fields[0] {
	case "Look":
	case "Lease":
		s.lease = now
	case "Post":
		if len(fields) != 2 || !strings.HasPrefix(fields[1], "Ready=") {
			return nil, fmt.Errorf("want Post Ready=STATUS")
		}
		s.node = post(s.node, api.ConditionStatus(strings.TrimPrefix(fields[1], "Ready=")), now)
		s.lease = now
		in.Node = s.node
	case "Delete":
		in.Deleted = true
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	in.LeaseRenew = s.lease
	rep, err := s.m.Step(in, now)
	if err != nil {
		return nil, err
	}
	var out []string
	if rep.Status != nil {
		var conds []string
		for _, c := range rep.Status.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s", c.Type, c.Status))
		}
		out = append(out, fmt.Sprintf("status %s (%s; probe time %s, grace %s)",
			strings.Join(conds, " "), rep.CurrentReady.Reason, at(rep.ProbeTime.Sub(storyT0)), rep.GracePeriod))
	}
	if rep.MarkPodsNotReady {
		out = append(out, "mark the node's pods Ready=False")
	}
	for _, e := range rep.Events {
		out = append(out, storyEvent(e))
	}
	if ch := slices.Concat(taintChanges(rep.NoSchedule), taintChanges(rep.NoExecute)); len(ch) > 0 {
		out = append(out, "taints "+strings.Join(ch, " "))
	}
	if !in.Deleted {
		n := *s.node
		if rep.Status != nil {
			n.Status = *rep.Status
		}
		n.Spec.Taints = rep.Taints
		s.node = &n
	}
	next := "next look: none until an input"
	if t := s.m.NextDeadline(); !t.IsZero() {
		next = "next look: " + at(t.Sub(storyT0))
	}
	return append(out, next), nil
}

// --- Controller ---

// controllerStory drives a Controller over a cluster it builds, and plays
// the API server and the kubelets: healthy kubelets renew their Leases at
// every step, lost ones stopped when they were lost.
//
//	config eviction-rate=0.1 secondary-rate=0.01 unhealthy-threshold=0.55 large-cluster=50 ...
//	zone Z N        N healthy nodes Z-00, Z-01, ... in zone Z (region r)
//	lose X ...      the kubelets of nodes X (or of every node of zone X) stop, now
//	back X ...      they post Ready=True and renew their Leases again from the next step
//	at D Tick       the controller's step (the tick; run feeds it at its deadlines)
//
// A step answers with what its monitor pass wrote, nodes with the same
// changes grouped (a-00..a-03 for a run of names), the nodes it queued for
// tainting, the zones whose state or rate changed and the full-disruption
// mode; then what its tainting pass wrote.
type controllerStory struct {
	c      *nodelifecycle.Controller
	cfg    nodelifecycle.Config
	nodes  []*api.Node
	lost   map[string]time.Time // node -> its last lease renewal
	back   map[string]bool
	leases map[string]time.Time
	zones  map[string]nodelifecycle.ZoneReport
	last   time.Duration
}

func newControllerStory() *controllerStory {
	return &controllerStory{lost: map[string]time.Time{}, back: map[string]bool{}, leases: map[string]time.Time{},
		zones: map[string]nodelifecycle.ZoneReport{}}
}

func (s *controllerStory) Block(string) bool { return false }
func (s *controllerStory) Tick() string      { return "Tick" }

// names resolves node names and zones to node names.
func (s *controllerStory) names(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		found := false
		for _, n := range s.nodes {
			if n.Name == a || n.Labels[api.LabelTopologyZone] == a {
				out, found = append(out, n.Name), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no node or zone %q", a)
		}
	}
	return out, nil
}

func (s *controllerStory) Directive(cmd string, args []string, _ string) error {
	switch cmd {
	case "config":
		cfg, err := parseConfig(args)
		s.cfg = cfg
		return err
	case "zone":
		if len(args) != 2 {
			return fmt.Errorf("want zone NAME COUNT")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		for i := range n {
			s.nodes = append(s.nodes, readyNode(fmt.Sprintf("%s-%02d", args[0], i), api.ConditionTrue, storyT0.Add(-time.Minute),
				map[string]string{api.LabelTopologyRegion: "r", api.LabelTopologyZone: args[0]}))
		}
		return nil
	case "lose":
		names, err := s.names(args)
		for _, n := range names {
			s.lost[n] = storyT0.Add(s.last)
			delete(s.back, n)
		}
		return err
	case "back":
		names, err := s.names(args)
		for _, n := range names {
			delete(s.lost, n)
			s.back[n] = true
		}
		return err
	}
	return fmt.Errorf("unknown directive")
}

func (s *controllerStory) Next() (time.Duration, bool) {
	next := s.c.NextDeadline()
	return next.Sub(storyT0), !next.IsZero()
}

func (s *controllerStory) Step(d time.Duration, input string) ([]string, error) {
	if input != "Tick" {
		return nil, fmt.Errorf("unknown input %q", input)
	}
	if s.c == nil {
		c, err := nodelifecycle.NewController(s.cfg)
		if err != nil {
			return nil, err
		}
		s.c = c
	}
	s.last = d
	now := storyT0.Add(d)
	for i, n := range s.nodes {
		if at, ok := s.lost[n.Name]; ok {
			s.leases[n.Name] = at
			continue
		}
		s.leases[n.Name] = now
		if s.back[n.Name] {
			s.nodes[i] = post(n, api.ConditionTrue, now)
			delete(s.back, n.Name)
		}
	}
	r, err := s.c.Step(nodelifecycle.Input{Nodes: s.nodes, Leases: s.leases}, now)
	if err != nil {
		return nil, err
	}
	var monitor, tainting, events grouped
	for _, e := range r.Events {
		events.add("event "+e.Type+" "+e.Reason, e.Regarding.Name)
	}
	if r.MonitorPass {
		for _, rep := range r.Nodes {
			var parts []string
			if rep.Status != nil {
				parts = append(parts, "Ready="+string(rep.CurrentReady.Status))
			}
			if rep.MarkPodsNotReady {
				parts = append(parts, "pods not ready")
			}
			parts = append(parts, slices.Concat(taintChanges(rep.NoSchedule), taintChanges(rep.NoExecute))...)
			monitor.add(strings.Join(parts, " "), rep.Node)
			for _, e := range rep.Events {
				events.add("event "+e.Type+" "+e.Reason, e.Regarding.Name)
			}
			s.write(slices.IndexFunc(s.nodes, func(n *api.Node) bool { return n.Name == rep.Node }), rep.Status, rep.Taints)
		}
	}
	out := append(events.lines(), monitor.lines()...)
	if len(r.Queued) > 0 {
		out = append(out, "queued for tainting: "+compress(r.Queued))
	}
	for _, z := range r.Zones {
		if last, ok := s.zones[z.Key]; !ok || last.State != z.State || last.Rate != z.Rate {
			out = append(out, fmt.Sprintf("zone %s: %s, %d of %d not Ready, %g taints/s", z.Zone, z.State, z.NotReady, z.Nodes, z.Rate))
		}
		s.zones[z.Key] = z
	}
	if r.EnteredFullDisruption {
		out = append(out, "every zone fully disrupted: NoExecute taints off, tainting stops")
	}
	if r.ExitedFullDisruption {
		out = append(out, "a zone is not fully disrupted any more: every node's grace period restarts")
	}
	for _, w := range r.Tainted {
		tainting.add(strings.Join(taintChanges(w.Update), " "), w.Node)
		s.write(slices.IndexFunc(s.nodes, func(n *api.Node) bool { return n.Name == w.Node }), nil, w.Update.Taints)
	}
	for _, l := range tainting.lines() {
		out = append(out, "tainting pass: "+l)
	}
	return out, nil
}

func (s *controllerStory) write(i int, st *api.NodeStatus, taints []api.Taint) {
	n := *s.nodes[i]
	if st != nil {
		n.Status = *st
	}
	n.Spec.Taints = taints
	s.nodes[i] = &n
}

// grouped collects node names by what happened to them, in first-seen
// order.
type grouped struct {
	keys  []string
	names map[string][]string
}

func (g *grouped) add(what, node string) {
	if what == "" {
		return
	}
	if g.names == nil {
		g.names = map[string][]string{}
	}
	if _, ok := g.names[what]; !ok {
		g.keys = append(g.keys, what)
	}
	g.names[what] = append(g.names[what], node)
}

func (g *grouped) lines() []string {
	var out []string
	for _, k := range g.keys {
		out = append(out, compress(g.names[k])+": "+k)
	}
	return out
}

// compress writes runs of consecutive node names as a range: a-00..a-03.
func compress(names []string) string {
	split := func(n string) (string, int, bool) {
		i := strings.LastIndex(n, "-")
		v, err := strconv.Atoi(n[i+1:])
		return n[:i+1], v, i >= 0 && err == nil
	}
	var out []string
	for i := 0; i < len(names); {
		j := i
		p, v, ok := split(names[i])
		for ok && j+1 < len(names) {
			q, w, ok2 := split(names[j+1])
			if !ok2 || q != p || w != v+(j+1-i) {
				break
			}
			j++
		}
		if j > i+1 {
			out = append(out, names[i]+".."+names[j])
		} else {
			out = append(out, names[i:j+1]...)
		}
		i = j + 1
	}
	return strings.Join(out, " ")
}

// --- TaintEviction ---

// evictionStory drives a TaintEviction with the events its informers
// would see, in namespace default:
//
//	at D PodUpdated POD NODE [KEY=SECONDS|KEY=forever ...]   a pod bound to NODE with NoExecute
//	                                                         tolerations (KEY * tolerates every taint)
//	at D NodeUpdated NODE [KEY[:EFFECT] ...]                 the node's taints (NoExecute unless given);
//	                                                         a taint kept from the last update keeps its timeAdded
//	at D PodDeleted POD
//	at D NodeDeleted NODE
//	at D Tick                                                time passes (run feeds it at each deadline)
//
// Each step answers with the controller's actions, one a line.
type evictionStory struct {
	c     *nodelifecycle.TaintEviction
	nodes map[string]*api.Node
}

func (s *evictionStory) Block(string) bool { return false }
func (s *evictionStory) Tick() string      { return "Tick" }
func (s *evictionStory) Directive(string, []string, string) error {
	return fmt.Errorf("unknown directive")
}

func (s *evictionStory) Next() (time.Duration, bool) {
	next := s.c.NextDeadline()
	return next.Sub(storyT0), !next.IsZero()
}

func (s *evictionStory) Step(d time.Duration, input string) ([]string, error) {
	if s.c == nil {
		s.c, s.nodes = nodelifecycle.NewTaintEviction(), map[string]*api.Node{}
	}
	now := storyT0.Add(d)
	f := strings.Fields(input)
	var ev nodelifecycle.Event
	switch {
	case f[0] == "Tick" && len(f) == 1:
		ev = nodelifecycle.Tick()
	case f[0] == "PodUpdated" && len(f) >= 3:
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: f[1], Namespace: "default", Generation: 1}, Spec: api.PodSpec{NodeName: f[2]}}
		for _, t := range f[3:] {
			key, secs, ok := strings.Cut(t, "=")
			if !ok {
				return nil, fmt.Errorf("want KEY=SECONDS or KEY=forever, got %q", t)
			}
			tol := api.Toleration{Operator: api.TolerationOpExists}
			if key != "*" {
				tol.Key, tol.Effect = longKey(key), api.TaintEffectNoExecute
			}
			if secs != "forever" {
				n, err := strconv.ParseInt(strings.TrimSuffix(secs, "s"), 10, 64)
				if err != nil {
					return nil, err
				}
				tol.TolerationSeconds = &n
			}
			p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
		}
		ev = nodelifecycle.PodUpdated(p)
	case f[0] == "NodeUpdated" && len(f) >= 2:
		old := s.nodes[f[1]]
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: f[1]}}
		for _, t := range f[2:] {
			key, effect, ok := strings.Cut(t, ":")
			if !ok {
				effect = string(api.TaintEffectNoExecute)
			}
			taint := api.Taint{Key: longKey(key), Effect: api.TaintEffect(effect), TimeAdded: api.NewTimePtr(now)}
			if old != nil {
				if i := slices.IndexFunc(old.Spec.Taints, func(o api.Taint) bool { return o.Key == taint.Key && o.Effect == taint.Effect }); i >= 0 {
					taint.TimeAdded = old.Spec.Taints[i].TimeAdded
				}
			}
			n.Spec.Taints = append(n.Spec.Taints, taint)
		}
		s.nodes[f[1]] = n
		ev = nodelifecycle.NodeUpdated(n)
	case f[0] == "PodDeleted" && len(f) == 2:
		ev = nodelifecycle.PodDeleted("default", f[1])
	case f[0] == "NodeDeleted" && len(f) == 2:
		delete(s.nodes, f[1])
		ev = nodelifecycle.NodeDeleted(f[1])
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	acts, err := s.c.Step(ev, now)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range acts {
		pod := strings.TrimPrefix(a.Pod, "default/")
		switch a.Kind {
		case nodelifecycle.ScheduleEviction:
			out = append(out, fmt.Sprintf("ScheduleEviction %s on %s at %s", pod, a.Node, at(a.At.Sub(storyT0))))
		case nodelifecycle.CancelEviction:
			out = append(out, fmt.Sprintf("CancelEviction %s", pod))
		case nodelifecycle.EvictPod:
			patch := "no status patch: an equal condition is there"
			if a.DisruptionTarget != nil {
				patch = "DisruptionTarget=True (" + a.DisruptionTarget.Reason + ")"
			}
			out = append(out, fmt.Sprintf("EvictPod %s on %s due %s: %s, then DELETE", pod, a.Node, at(a.At.Sub(storyT0)), patch))
		}
		if a.Event != nil {
			out = append(out, storyEvent(*a.Event))
		}
	}
	return out, nil
}

// storyEvent renders an Event as `kubectl events` lists it: type, reason,
// the object, the note.
func storyEvent(e api.Event) string {
	return fmt.Sprintf("event %s %s %s/%s: %s", e.Type, e.Reason, strings.ToLower(e.Regarding.Kind), e.Regarding.Name, e.Note)
}
