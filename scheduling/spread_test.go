package scheduling

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// spreadRun drives the PodTopologySpread plugin alone through one cycle the
// way the framework does: PreFilter, Filter on every node, then PreScore,
// Score and NormalizeScore over the nodes that passed.
type spreadRun struct {
	preFilter Status
	filter    []Status // per node index
	preScore  Status   // Code Skip also when no node passed ("not run")
	scores    map[string]int64
}

func runSpreadPlugin(c *Cluster, pod *api.Pod) spreadRun {
	pl := newSpreadPlugin(c, newIncomingPodInfo(pod))
	var r spreadRun
	r.preFilter = pl.preFilter()
	var feasible []*NodeInfo
	for _, n := range c.nodes {
		st := Status{}
		if r.preFilter.Code == Success {
			st = pl.filter(&nodeView{info: n})
		} else if r.preFilter.Code != Skip {
			st = r.preFilter
		}
		r.filter = append(r.filter, st)
		if st.Code == Success {
			feasible = append(feasible, n)
		}
	}
	r.preScore = Status{Code: Skip}
	if len(feasible) == 0 {
		return r
	}
	r.preScore = pl.preScore(feasible)
	if r.preScore.Code != Success {
		return r
	}
	raw := make([]int64, len(feasible))
	for i, n := range feasible {
		raw[i] = pl.score(n)
	}
	pl.normalizeScore(raw)
	r.scores = map[string]int64{}
	for i, n := range feasible {
		r.scores[n.Name()] = raw[i]
	}
	return r
}

func spreadNode(name string, labels ...string) *api.Node {
	l := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		l[labels[i]] = labels[i+1]
	}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: l}}
}

func spreadPodOn(name, node string, labels ...string) *api.Pod {
	l := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		l[labels[i]] = labels[i+1]
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: l}, Spec: api.PodSpec{NodeName: node}}
}

func hardZone(maxSkew int32, sel *api.LabelSelector) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel}
}

func withKeys(c api.TopologySpreadConstraint, keys ...string) api.TopologySpreadConstraint {
	c.MatchLabelKeys = keys
	return c
}

func fooBar() *api.LabelSelector {
	return &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}
}

func codes(r spreadRun) []string {
	var out []string
	for _, st := range r.filter {
		out = append(out, st.Code.String())
	}
	return out
}

func TestSpreadFilterTable(t *testing.T) {
	zones := []*api.Node{
		spreadNode("n1", "zone", "a", "node", "n1"), spreadNode("n2", "zone", "a", "node", "n2"),
		spreadNode("n3", "zone", "b", "node", "n3"), spreadNode("n4", "zone", "b", "node", "n4"),
	}
	three := []*api.Pod{spreadPodOn("p1", "n1", "foo", "bar"), spreadPodOn("p2", "n2", "foo", "bar"), spreadPodOn("p3", "n3", "foo", "bar")}
	incoming := func(labels map[string]string, cs ...api.TopologySpreadConstraint) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "in", Namespace: "default", Labels: labels}, Spec: api.PodSpec{TopologySpreadConstraints: cs}}
	}
	foo := map[string]string{"foo": "bar"}
	minDomains := func(c api.TopologySpreadConstraint, n int32) api.TopologySpreadConstraint {
		c.MinDomains = &n
		return c
	}
	terminating := spreadPodOn("p4", "n3", "foo", "bar")
	terminating.DeletionTimestamp = &api.Time{Time: time.Unix(1, 0)}
	otherNS := spreadPodOn("p5", "n3", "foo", "bar")
	otherNS.Namespace = "other"
	tests := []struct {
		name  string
		nodes []*api.Node
		pods  []*api.Pod
		pod   *api.Pod
		want  []string
	}{
		{"zone B only", zones, three, incoming(foo, hardZone(1, fooBar())),
			[]string{"Unschedulable", "Unschedulable", "Success", "Success"}},
		{"unlabelled incoming pod may go to zone A", zones, three, incoming(nil, hardZone(1, fooBar())),
			[]string{"Success", "Success", "Success", "Success"}},
		{"minDomains 3 with 2 zones: the global minimum is 0", zones, three, incoming(foo, minDomains(hardZone(1, fooBar()), 3)),
			[]string{"Unschedulable", "Unschedulable", "Unschedulable", "Unschedulable"}},
		{"terminating and other-namespace pods do not count", zones, append(slices.Clone(three), terminating, otherNS),
			incoming(foo, hardZone(1, fooBar())), []string{"Unschedulable", "Unschedulable", "Success", "Success"}},
		{"empty selector counts no existing pod", zones, three, incoming(foo, hardZone(1, &api.LabelSelector{})),
			[]string{"Success", "Success", "Success", "Success"}},
		{"node missing the key", append(slices.Clone(zones), spreadNode("n5", "node", "n5")), three, incoming(foo, hardZone(1, fooBar())),
			[]string{"Unschedulable", "Unschedulable", "Success", "Success", "UnschedulableAndUnresolvable"}},
		// Found by differential testing against the upstream plugin: a
		// constraint without labelSelector selects nothing, and matchLabelKeys
		// does not turn it into a foo=bar selector, so zone a's two pods do
		// not count and every node passes.
		{"no labelSelector: matchLabelKeys leave it selecting nothing", zones, three, incoming(foo, withKeys(hardZone(1, nil), "foo")),
			[]string{"Success", "Success", "Success", "Success"}},
		// An empty labelSelector ({}) has a requirement list (of length 0), so
		// the keys are merged in and the constraint counts foo=bar pods.
		{"empty labelSelector: matchLabelKeys make it count", zones, three, incoming(foo, withKeys(hardZone(1, &api.LabelSelector{}), "foo")),
			[]string{"Unschedulable", "Unschedulable", "Success", "Success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCluster(tt.nodes, tt.pods, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, codes(runSpreadPlugin(c, tt.pod))); d != "" {
				t.Errorf("filter codes (-want +got):\n%s", d)
			}
		})
	}
}

func TestSpreadPreFilterSkipAndDefaults(t *testing.T) {
	nodes := []*api.Node{
		spreadNode("n1", api.LabelHostname, "n1", api.LabelTopologyZone, "a"),
		spreadNode("n2", api.LabelHostname, "n2", api.LabelTopologyZone, "a"),
		spreadNode("n3", api.LabelHostname, "n3", api.LabelTopologyZone, "b"),
	}
	pods := []*api.Pod{spreadPodOn("p1", "n1", "foo", "bar"), spreadPodOn("p2", "n1", "foo", "bar"), spreadPodOn("p3", "n2", "foo", "bar")}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "in", Namespace: "default", Labels: map[string]string{"foo": "bar"}}}
	c, err := NewCluster(nodes, pods, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// No Service selects the pod: System defaults have no selector.
	r := runSpreadPlugin(c, pod)
	if r.preFilter.Code != Skip || r.preScore.Code != Skip {
		t.Fatalf("without a service: preFilter %v preScore %v, want Skip Skip", r.preFilter, r.preScore)
	}
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": "bar"}}}
	sel := defaultSpreadSelector(pod, SpreadWorkloads{Services: []*api.Service{svc}})
	if sel.String() != "foo=bar" {
		t.Fatalf("defaultSpreadSelector = %q, want foo=bar", sel.String())
	}
	cs, err := spreadConstraintsFor(pod, SpreadArgs{}, SpreadWorkloads{Services: []*api.Service{svc}}, api.ScheduleAnyway)
	if err != nil || len(cs) != 2 || cs[0].key != api.LabelHostname || cs[0].maxSkew != 3 || cs[1].maxSkew != 5 {
		t.Fatalf("system default soft constraints = %+v, %v", cs, err)
	}
	if _, err := spreadConstraintsFor(pod, SpreadArgs{DefaultingType: "Bogus"}, SpreadWorkloads{}, api.ScheduleAnyway); err == nil {
		t.Fatal("an unknown defaulting type must be an error")
	}
}

func TestDefaultSpreadSelectorOwners(t *testing.T) {
	yes := true
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"app": "a", "rev": "1"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: &yes}}}}
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "rs", Namespace: "ns"},
		Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"rev": "1"}}}}
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "ns"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "a"}}}
	otherNS := &api.Service{ObjectMeta: api.ObjectMeta{Name: "s2", Namespace: "elsewhere"}, Spec: api.ServiceSpec{Selector: map[string]string{"x": "y"}}}
	got := defaultSpreadSelector(pod, SpreadWorkloads{Services: []*api.Service{svc, otherNS}, ReplicaSets: []*api.ReplicaSet{rs}}).String()
	if got != "app=a,rev=1" {
		t.Errorf("selector %q, want app=a,rev=1", got)
	}
	pod.OwnerReferences[0].APIVersion = "extensions/v1beta1"
	if got := defaultSpreadSelector(pod, SpreadWorkloads{ReplicaSets: []*api.ReplicaSet{rs}}); !got.Empty() {
		t.Errorf("an old-API ReplicaSet owner must be ignored, got %q", got.String())
	}
}

// spreadOracle decides the filter for one node from scratch, by the rule
// as the documentation states it, scanning every pod.
type spreadOracle struct {
	c    *Cluster
	pod  *api.Pod
	hard []spreadConstraint
}

func (o *spreadOracle) eligible(ci int, n *NodeInfo) bool {
	for _, h := range o.hard {
		if _, ok := n.node.Labels[h.key]; !ok {
			return false
		}
	}
	c := o.hard[ci]
	if c.honorAffinity {
		if ra, _ := newRequiredNodeAffinity(o.pod); !ra.match(n.node) {
			return false
		}
	}
	if c.honorTaints {
		if _, bad := findUntoleratedTaint(n.node.Spec.Taints, o.pod.Spec.Tolerations); bad {
			return false
		}
	}
	return true
}

// counts returns the matching pods per eligible domain of constraint ci.
func (o *spreadOracle) counts(ci int) map[string]int {
	c := o.hard[ci]
	out := map[string]int{}
	for _, n := range o.c.nodes {
		if !o.eligible(ci, n) {
			continue
		}
		d := n.node.Labels[c.key]
		out[d] += 0
		if c.selector.Empty() {
			continue
		}
		for _, p := range n.Pods() {
			if p.pod.Namespace == o.pod.Namespace && p.pod.DeletionTimestamp == nil && c.selector.Matches(api.Set(p.pod.Labels)) {
				out[d]++
			}
		}
	}
	return out
}

func globalMin(counts map[string]int, minDomains int32) int {
	if len(counts) < int(minDomains) {
		return 0
	}
	m := -1
	for _, v := range counts {
		if m < 0 || v < m {
			m = v
		}
	}
	return m
}

func genSpreadCluster(t *rapid.T) ([]*api.Node, []*api.Pod, *api.Pod) {
	nNodes := rapid.IntRange(1, 7).Draw(t, "nodes")
	var nodes []*api.Node
	for i := 0; i < nNodes; i++ {
		name := fmt.Sprintf("n%d", i)
		n := spreadNode(name)
		if rapid.IntRange(0, 9).Draw(t, name+"-hasZone") > 0 {
			n.Labels["zone"] = rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, name+"-zone")
		}
		if rapid.IntRange(0, 9).Draw(t, name+"-hasHost") > 0 {
			n.Labels["host"] = name
		}
		if rapid.IntRange(0, 4).Draw(t, name+"-tainted") == 0 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		}
		nodes = append(nodes, n)
	}
	nPods := rapid.IntRange(0, 20).Draw(t, "pods")
	var pods []*api.Pod
	for i := 0; i < nPods; i++ {
		p := spreadPodOn(fmt.Sprintf("p%d", i), nodes[rapid.IntRange(0, nNodes-1).Draw(t, "on")].Name)
		if app := rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, "app"); app != "" {
			p.Labels["app"] = app
		}
		if rapid.IntRange(0, 5).Draw(t, "otherNS") == 0 {
			p.Namespace = "other"
		}
		if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
			p.DeletionTimestamp = &api.Time{Time: time.Unix(100, 0)}
		}
		pods = append(pods, p)
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "incoming", Namespace: "default", Labels: map[string]string{}}}
	if app := rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, "in-app"); app != "" {
		pod.Labels["app"] = app
	}
	if rapid.Bool().Draw(t, "affinity") {
		pod.Spec.NodeSelector = map[string]string{"zone": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "in-zone")}
	}
	if rapid.Bool().Draw(t, "tolerates") {
		pod.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	}
	selectors := []*api.LabelSelector{
		{MatchLabels: map[string]string{"app": "a"}},
		{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}}},
		{},
		nil,
	}
	policies := []*api.NodeInclusionPolicy{nil, ptrTo(api.NodeInclusionPolicyHonor), ptrTo(api.NodeInclusionPolicyIgnore)}
	nc := rapid.IntRange(1, 2).Draw(t, "constraints")
	for i := 0; i < nc; i++ {
		c := api.TopologySpreadConstraint{
			MaxSkew:            int32(rapid.IntRange(1, 3).Draw(t, "maxSkew")),
			TopologyKey:        rapid.SampledFrom([]string{"zone", "host"}).Draw(t, "key"),
			WhenUnsatisfiable:  api.DoNotSchedule,
			LabelSelector:      selectors[rapid.IntRange(0, len(selectors)-1).Draw(t, "selector")],
			NodeAffinityPolicy: policies[rapid.IntRange(0, 2).Draw(t, "affinityPolicy")],
			NodeTaintsPolicy:   policies[rapid.IntRange(0, 2).Draw(t, "taintsPolicy")],
		}
		if rapid.Bool().Draw(t, "hasMinDomains") {
			c.MinDomains = ptrTo(int32(rapid.IntRange(1, 4).Draw(t, "minDomains")))
		}
		pod.Spec.TopologySpreadConstraints = append(pod.Spec.TopologySpreadConstraints, c)
	}
	return nodes, pods, pod
}

func ptrTo[T any](v T) *T { return &v }

// A node the filter accepts keeps every DoNotSchedule constraint's skew
// within maxSkew once the pod is placed there: the pod's domain, counted
// with the pod when it matches its own selector and the node is an
// eligible domain member, exceeds the global minimum (0 while fewer than
// minDomains domains are eligible) by at most maxSkew. And the filter
// agrees with a from-scratch evaluation of the rule on every node.
func TestSpreadFilterKeepsSkewProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		hard, err := spreadConstraintsFor(pod, SpreadArgs{}, SpreadWorkloads{}, api.DoNotSchedule)
		if err != nil {
			t.Fatal(err)
		}
		o := &spreadOracle{c: c, pod: pod, hard: hard}
		r := runSpreadPlugin(c, pod)
		for ni, n := range c.nodes {
			st := r.filter[ni]
			// The oracle's own verdict.
			want := Success
			for ci, h := range hard {
				d, ok := n.node.Labels[h.key]
				if !ok {
					want = UnschedulableAndUnresolvable
					break
				}
				counts := o.counts(ci)
				self := 0
				if h.selector.Matches(api.Set(pod.Labels)) {
					self = 1
				}
				if counts[d]+self-globalMin(counts, h.minDomains) > int(h.maxSkew) {
					want = Unschedulable
					break
				}
			}
			if st.Code != want {
				t.Fatalf("node %s: filter %v, oracle %v", n.Name(), st, want)
			}
			if st.Code != Success {
				continue
			}
			// Place the pod and check the skew.
			for ci, h := range hard {
				counts := o.counts(ci)
				before := globalMin(counts, h.minDomains)
				d := n.node.Labels[h.key]
				if o.eligible(ci, n) && h.selector.Matches(api.Set(pod.Labels)) {
					counts[d]++
				}
				after := globalMin(counts, h.minDomains)
				if after < before {
					t.Fatalf("global minimum went down placing a pod")
				}
				if counts[d]-after > int(h.maxSkew) {
					t.Fatalf("node %s accepted but constraint %d (%s) ends with skew %d > maxSkew %d (counts %v)",
						n.Name(), ci, h.key, counts[d]-after, h.maxSkew, counts)
				}
			}
		}
	})
}

// The snapshot's spread cache, kept current pod by pod and node by node,
// always equals one built from scratch.
func TestSpreadCacheIncremental(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, _ := genSpreadCluster(t)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		sels := []api.Selector{api.SelectorFromSet(api.Set{"app": "a"}), api.SelectorFromSet(api.Set{"app": "b"})}
		// Selectors the cache files under a multi-value guard, and ones it
		// cannot guard (every pod update must visit them).
		for _, req := range []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"b", "a"}},
			{Key: "app", Operator: api.LabelSelectorOpExists},
			{Key: "app", Operator: api.LabelSelectorOpNotIn, Values: []string{"a"}},
		} {
			sel, err := api.LabelSelectorAsSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{req}})
			if err != nil {
				t.Fatal(err)
			}
			sels = append(sels, sel)
		}
		sc := c.spread
		zone := sc.keyIndex(c, "zone")
		for _, s := range sels {
			sc.selectorCounts(c, "default", s)
			if rapid.Bool().Draw(t, "domainCounts") {
				sc.hardDomainCounts(c, "default", s, zone)
			}
		}
		// checkPaths compares the critical paths kept by the cache with
		// those taken afresh over every domain holding a node.
		checkPaths := func(when string) {
			for _, s := range sels {
				per, _ := newSpreadCache().selectorCounts(c, "default", s)
				wantPaths := newCriticalPaths()
				counts := make([]int, zone.numDomains())
				for n, d := range zone.ids {
					if d >= 0 {
						counts[d] += int(per[n])
					}
				}
				for d, n := range zone.nodesIn {
					if n > 0 {
						wantPaths.insert(int32(d), counts[d])
					}
				}
				if _, got := sc.hardDomainCounts(c, "default", s, zone); got != wantPaths {
					t.Fatalf("%s: critical paths for %s: %v, want %v", when, s, got, wantPaths)
				}
			}
		}
		next := 0
		steps := rapid.IntRange(1, 15).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			if rapid.Bool().Draw(t, "checkPaths") {
				checkPaths(fmt.Sprintf("before step %d", i))
			}
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0: // add a pod
				if c.NumNodes() == 0 {
					continue
				}
				p := spreadPodOn(fmt.Sprintf("new%d", next), c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "node")).Name(),
					"app", rapid.SampledFrom([]string{"a", "b"}).Draw(t, "newApp"))
				next++
				if err := c.AddPod(p); err != nil {
					t.Fatal(err)
				}
			case 1: // remove a pod
				ps := c.byNamespace["default"]
				if len(ps) == 0 {
					continue
				}
				p := ps[rapid.IntRange(0, len(ps)-1).Draw(t, "victim")]
				if err := c.RemovePod(p.pod.Namespace, p.pod.Name); err != nil {
					t.Fatal(err)
				}
			case 2: // add a node
				n := spreadNode(fmt.Sprintf("m%d", next), "zone", rapid.SampledFrom([]string{"a", "d"}).Draw(t, "newZone"))
				next++
				if err := c.AddNode(n); err != nil {
					t.Fatal(err)
				}
			case 3: // relabel a node
				if c.NumNodes() == 0 {
					continue
				}
				old := c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "relabel")).Node()
				n := spreadNode(old.Name, "zone", rapid.SampledFrom([]string{"a", "e"}).Draw(t, "relabelZone"))
				if err := c.UpdateNode(n); err != nil {
					t.Fatal(err)
				}
			case 4: // remove a node
				if c.NumNodes() == 0 {
					continue
				}
				ni := c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "drop"))
				if err := c.RemoveNode(ni.Name()); err != nil {
					t.Fatal(err)
				}
			case 5: // relabel a pod, or mark it terminating
				ps := c.byNamespace["default"]
				if len(ps) == 0 {
					continue
				}
				p := *ps[rapid.IntRange(0, len(ps)-1).Draw(t, "updated")].pod
				p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "updatedApp")}
				if rapid.Bool().Draw(t, "updatedTerminating") {
					p.DeletionTimestamp = &api.Time{Time: time.Unix(100, 0)}
				}
				if err := c.UpdatePod(&p); err != nil {
					t.Fatal(err)
				}
			}
		}
		fresh := newSpreadCache()
		for _, s := range sels {
			got, cold := sc.selectorCounts(c, "default", s)
			if cold {
				t.Fatalf("selector %s dropped from the cache", s)
			}
			want, _ := fresh.selectorCounts(c, "default", s)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("counts for %s (-fresh +incremental):\n%s", s, d)
			}
		}
		// Selectors first counted now use the posting lists kept current
		// through the same updates.
		inAB, err := api.LabelSelectorAsSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []api.Selector{inAB, api.SelectorFromSet(api.Set{"app": "a", "zone": "none"})} {
			got, _ := sc.selectorCounts(c, "default", s)
			want, _ := fresh.selectorCounts(c, "default", s)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("new selector %s (-fresh +incremental):\n%s", s, d)
			}
		}
		gotIdx, wantIdx := sc.keyIndex(c, "zone"), fresh.keyIndex(c, "zone")
		for i := range c.nodes {
			g, w := gotIdx.ids[i], wantIdx.ids[i]
			if (g < 0) != (w < 0) || (g >= 0 && gotIdx.value(g) != wantIdx.value(w)) {
				t.Fatalf("node %d: incremental domain %d, fresh %d", i, g, w)
			}
		}
		// The counts per zone and their critical paths equal those taken
		// node by node over the same domain ids.
		missing := 0
		for _, d := range gotIdx.ids {
			if d < 0 {
				missing++
			}
		}
		if missing != gotIdx.missing {
			t.Fatalf("%d nodes lack the key, the index says %d", missing, gotIdx.missing)
		}
		for _, s := range sels {
			per, _ := fresh.selectorCounts(c, "default", s)
			want := make([]int32, gotIdx.numDomains())
			present := make([]bool, gotIdx.numDomains())
			live := 0
			for n, d := range gotIdx.ids {
				if d >= 0 {
					want[d] += per[n]
					if !present[d] {
						present[d] = true
						live++
					}
				}
			}
			wantPaths := newCriticalPaths()
			for d, ok := range present {
				if ok {
					wantPaths.insert(int32(d), int(want[d]))
				}
			}
			got, gotPaths := sc.hardDomainCounts(c, "default", s, gotIdx)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("zone counts for %s (-node by node +incremental):\n%s", s, d)
			}
			if gotPaths != wantPaths || live != gotIdx.live {
				t.Fatalf("critical paths for %s: %v over %d domains, want %v over %d", s, gotPaths, gotIdx.live, wantPaths, live)
			}
		}
	})
}

// Cycles may run concurrently on one snapshot while they warm its spread
// cache.
func TestSpreadConcurrentCycles(t *testing.T) {
	nodes, pods := spreadBenchCluster(60, 5)
	c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
	if err != nil {
		t.Fatal(err)
	}
	want := spreadDecision(c, spreadBenchPod("app-1"), nil)
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func(g int) {
			n := 0
			for i := 0; i < 10; i++ {
				n = spreadDecision(c, spreadBenchPod(fmt.Sprintf("app-%d", (g+i)%3)), nil)
			}
			done <- n
		}(g)
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	if got := spreadDecision(c, spreadBenchPod("app-1"), nil); got != want {
		t.Fatalf("feasible nodes %d after concurrent cycles, want %d", got, want)
	}
}

// Removing a pod in a what-if (as preemption does) gives the same filter
// verdict on its node as a snapshot built without that pod. Terminating
// victims are left out: like upstream's RemovePod, the what-if subtracts
// them although PreFilter never counted them.
func TestSpreadWhatIfRemoveProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		if len(pods) == 0 {
			return
		}
		cfg := Config{Plugins: []string{PluginPodTopologySpread}}
		c, err := NewCluster(nodes, pods, cfg)
		if err != nil {
			t.Fatal(err)
		}
		victim := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "victim")]
		vi := c.pods[victim.Namespace+"/"+victim.Name]
		if vi == nil || vi.node == nil || victim.DeletionTimestamp != nil {
			return
		}
		cy := c.NewCycle(pod)
		w := cy.WhatIf(vi.node)
		w.RemovePod(vi)
		got := w.Filter()

		rest := make([]*api.Pod, 0, len(pods)-1)
		for _, p := range pods {
			if p != victim {
				rest = append(rest, p)
			}
		}
		c2, err := NewCluster(nodes, rest, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := c2.NewCycle(pod).WhatIf(c2.NodeByName(vi.node.Name())).Filter()
		if got.Code != want.Code {
			t.Fatalf("what-if without %s on %s: %v, rebuilt snapshot: %v", victim.Name, vi.node.Name(), got, want)
		}
	})
}

// The per-node counts of a selector computed from the posting lists equal
// a brute-force count (every countable pod of the namespace, matched label
// by label), whatever mix of operators the selector has (requirements on
// keys no pod carries included), on the snapshot's own index after a
// random sequence of pod and node updates, and on an index built afresh;
// the posting lists' bitsets follow the same updates.
func TestSpreadSelectorCountsBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { selectorCountsBruteForce(t, 15) })
}

// selectorCountsBruteForce is TestSpreadSelectorCountsBruteForce's check on
// one cluster of up to maxPods pods.
func selectorCountsBruteForce(t *rapid.T, maxPods int) {
	values := []string{"", "a", "b", "1", "7", "03"}
	genPod := func(t *rapid.T, name string, nodes []string) *api.Pod {
		p := spreadPodOn(name, rapid.SampledFrom(nodes).Draw(t, "node"))
		for _, k := range []string{"app", "tier", "rank"} {
			if v := rapid.SampledFrom(values).Draw(t, k); v != "" {
				p.Labels[k] = v
			}
		}
		if rapid.IntRange(0, 4).Draw(t, "otherNS") == 0 {
			p.Namespace = "other"
		}
		if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
			p.DeletionTimestamp = &api.Time{Time: time.Unix(100, 0)}
		}
		return p
	}
	{
		names := []string{"n0", "n1", "n2", "n3"}
		nodes := []*api.Node{spreadNode("n0"), spreadNode("n1"), spreadNode("n2")}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, maxPods).Draw(t, "pods") {
			pods = append(pods, genPod(t, fmt.Sprintf("p%d", i), names))
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		// Posting lists keep bitsets from any length here, so that these
		// small clusters have them.
		c.spread.pods.bitmapMin = rapid.SampledFrom([]int{0, 1, 4, bitmapMinIDs}).Draw(t, "bitmapMin")
		c.spread.pods.rebits()
		next := 0
		newNode := func(name string) *api.Node {
			if c.NodeByName("n3") == nil {
				return spreadNode("n3") // pods bound to it wait for it
			}
			return spreadNode(name)
		}
		for range rapid.IntRange(0, 12).Draw(t, "updates") {
			snapshotUpdate(t, c, func(name string) *api.Pod { return genPod(t, name, names) }, newNode, &next)
		}
		ops := []api.SelectionOperator{api.SelectionIn, api.SelectionNotIn, api.SelectionEquals, api.SelectionNotEquals,
			api.SelectionExists, api.SelectionDoesNotExist, api.SelectionGreaterThan, api.SelectionLessThan}
		var reqs []api.Requirement
		for range rapid.IntRange(0, 4).Draw(t, "requirements") {
			key := rapid.SampledFrom([]string{"app", "tier", "rank", "absent"}).Draw(t, "key")
			op := rapid.SampledFrom(ops).Draw(t, "op")
			var vals []string
			switch op {
			case api.SelectionIn, api.SelectionNotIn:
				vals = rapid.SliceOfNDistinct(rapid.SampledFrom(values[1:]), 1, 3, rapid.ID[string]).Draw(t, "values")
			case api.SelectionEquals, api.SelectionNotEquals:
				vals = []string{rapid.SampledFrom(values[1:]).Draw(t, "value")}
			case api.SelectionGreaterThan, api.SelectionLessThan:
				vals = []string{rapid.SampledFrom([]string{"0", "1", "5"}).Draw(t, "number")}
			}
			r, err := api.NewRequirement(key, op, vals)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		sel := api.Everything().Add(reqs...)
		ns := rapid.SampledFrom([]string{"default", "other", "none"}).Draw(t, "namespace")
		want := make([]int32, c.NumNodes())
		for _, p := range c.byNamespace[ns] {
			if countable(p) && sel.Matches(api.Set(p.pod.Labels)) {
				want[p.node.index]++
			}
		}
		checkPostingBits(t, c.spread.pods)
		// Requirements are marked in the bitset or checked pod by pod, or
		// intersected as the lists' bitsets.
		c.spread.pods.directRatio = rapid.SampledFrom([]int{0, 1, directCheckRatio, 1 << 20}).Draw(t, "directRatio")
		c.spread.pods.bitmapMode = rapid.SampledFrom([]int{0, 1, 2}).Draw(t, "bitmapMode")
		got, _ := c.spread.selectorCounts(c, ns, sel)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("counts for %q in %s (-brute force +snapshot index):\n%s", sel, ns, d)
		}
		got, _ = newSpreadCache().selectorCounts(c, ns, sel)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("counts for %q in %s (-brute force +fresh index):\n%s", sel, ns, d)
		}
	}
}

// A snapshot whose spread cache was warmed (selector counts, counts per
// domain and critical paths) and then kept current through pod and node
// updates gives the same filter verdicts and scores, for hard and soft
// constraints, as a snapshot built afresh from the same objects.
func TestSpreadWarmCacheAfterUpdatesEqualsFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		soft := *pod
		soft.Spec.TopologySpreadConstraints = slices.Clone(pod.Spec.TopologySpreadConstraints)
		for i := range soft.Spec.TopologySpreadConstraints {
			if rapid.Bool().Draw(t, "soft") {
				soft.Spec.TopologySpreadConstraints[i].WhenUnsatisfiable = api.ScheduleAnyway
			}
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		runSpreadPlugin(c, pod)
		runSpreadPlugin(c, &soft)
		next := 0
		newPod := func(name string) *api.Pod {
			p := spreadPodOn(name, c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "on")).Name(),
				"app", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "newApp"))
			if rapid.IntRange(0, 4).Draw(t, "newOtherNS") == 0 {
				p.Namespace = "other"
			}
			if rapid.IntRange(0, 4).Draw(t, "newTerminating") == 0 {
				p.DeletionTimestamp = &api.Time{Time: time.Unix(100, 0)}
			}
			return p
		}
		newNode := func(name string) *api.Node {
			n := spreadNode(name, "host", name)
			if rapid.IntRange(0, 4).Draw(t, "newHasZone") > 0 {
				n.Labels["zone"] = rapid.SampledFrom([]string{"a", "b", "d"}).Draw(t, "newZone")
			}
			return n
		}
		for range rapid.IntRange(1, 10).Draw(t, "updates") {
			snapshotUpdate(t, c, newPod, newNode, &next)
		}
		var nowNodes []*api.Node
		for i := range c.NumNodes() {
			nowNodes = append(nowNodes, c.NodeAt(i).Node())
		}
		var nowPods []*api.Pod
		for _, k := range slices.Sorted(maps.Keys(c.pods)) {
			nowPods = append(nowPods, c.pods[k].pod)
		}
		fresh, err := NewCluster(nowNodes, nowPods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*api.Pod{pod, &soft} {
			got, want := runSpreadPlugin(c, p), runSpreadPlugin(fresh, p)
			if d := cmp.Diff(want, got, cmp.AllowUnexported(spreadRun{}, Status{})); d != "" {
				t.Fatalf("warm snapshot after updates (-fresh +warm):\n%s", d)
			}
		}
	})
}

// snapshotUpdate applies one random update to c: a pod added (newPod),
// removed, replaced by newPod under the same name and namespace, or
// written with its spec and labels kept (a status, a deletion); a node
// added (newNode), relabeled (its zone set, changed or dropped) or
// removed. next numbers the new objects' names.
func snapshotUpdate(t *rapid.T, c *Cluster, newPod func(name string) *api.Pod, newNode func(name string) *api.Node, next *int) {
	var all []*PodInfo
	for _, k := range slices.Sorted(maps.Keys(c.pods)) {
		all = append(all, c.pods[k])
	}
	name := fmt.Sprintf("new%d", *next)
	*next++
	var err error
	switch op := rapid.IntRange(0, 6).Draw(t, "update"); {
	case c.NumNodes() == 0 || op == 3:
		err = c.AddNode(newNode(name))
	case op == 0 || len(all) == 0:
		err = c.AddPod(newPod(name))
	case op == 1:
		p := rapid.SampledFrom(all).Draw(t, "removed").pod
		err = c.RemovePod(p.Namespace, p.Name)
	case op == 2:
		old := rapid.SampledFrom(all).Draw(t, "updated").pod
		p := newPod(old.Name)
		p.Namespace = old.Namespace
		err = c.UpdatePod(p)
	case op == 6:
		// A status or deletion write: the same spec and labels, so the
		// snapshot keeps the PodInfo; the pod may turn terminating or
		// terminal.
		p := *rapid.SampledFrom(all).Draw(t, "written").pod
		p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodRunning, api.PodSucceeded}).Draw(t, "writtenPhase")
		if rapid.IntRange(0, 2).Draw(t, "writtenDeleting") == 0 {
			p.DeletionTimestamp = &api.Time{Time: time.Unix(200, 0)}
		}
		err = c.UpdatePod(&p)
	case op == 4:
		n := *c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "relabeled")).Node()
		n.Labels = maps.Clone(n.Labels)
		if z := rapid.SampledFrom([]string{"", "a", "e"}).Draw(t, "relabelZone"); z != "" {
			n.Labels["zone"] = z
		} else {
			delete(n.Labels, "zone")
		}
		err = c.UpdateNode(&n)
	default:
		err = c.RemoveNode(c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, "removedNode")).Name())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// A what-if shares the cycle's spread counts and keeps its own change
// beside them; a clone of that what-if (the framework's filter with
// nominated pods clones it) sees the same counts, and neither's later
// change shows in the other, nor in the cycle.
func TestSpreadWhatIfCloneProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		if len(pods) < 2 {
			return
		}
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
		if err != nil {
			t.Fatal(err)
		}
		victim := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "victim")]
		vi := c.pods[victim.Namespace+"/"+victim.Name]
		if vi == nil || vi.node == nil {
			return
		}
		cy := c.NewCycle(pod)
		w := cy.WhatIf(vi.node)
		if len(w.plugins) == 0 {
			return
		}
		spreadOf := func(p cyclePlugin) *spreadPlugin { return p.(*spreadPlugin) }
		counts := func(pl *spreadPlugin) [][]int32 {
			out := make([][]int32, len(pl.hs))
			for i := range pl.hs {
				h := &pl.hs[i]
				for d := range h.counts {
					out[i] = append(out[i], h.count(int32(d)))
				}
			}
			return out
		}
		before := counts(spreadOf(cy.active[0]))
		w.RemovePod(vi)
		mid := counts(spreadOf(w.plugins[0]))
		cl := spreadOf(w.plugins[0].clone())
		if got := counts(cl); !cmp.Equal(got, mid) {
			t.Fatalf("clone sees %v, the what-if %v", got, mid)
		}
		// Later changes stay apart: the clone gets the victim back, the
		// what-if loses another pod of the node.
		cl.addPod(vi, vi.node)
		if got := counts(spreadOf(w.plugins[0])); !cmp.Equal(got, mid) {
			t.Fatalf("the clone's change reached the what-if: %v, was %v", got, mid)
		}
		if got := counts(cl); !cmp.Equal(got, before) {
			t.Fatalf("clone with the victim back: %v, want the cycle's %v", got, before)
		}
		for _, other := range vi.node.pods {
			if other != vi {
				w.RemovePod(other)
				break
			}
		}
		if got := counts(cl); !cmp.Equal(got, before) {
			t.Fatalf("the what-if's change reached the clone: %v, want %v", got, before)
		}
		if got := counts(spreadOf(cy.active[0])); !cmp.Equal(got, before) {
			t.Fatalf("the cycle's counts changed: %v, were %v", got, before)
		}
	})
}

// A what-if reset to another node answers as a fresh what-if on that
// node, however it was used before: each step removes or adds back a pod
// of the node, and both report the same Filter verdict.
func TestWhatIfResetEqualsFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		cy := c.NewCycle(pod)
		var reused *WhatIf
		for round := range rapid.IntRange(1, 4).Draw(t, "rounds") {
			n := c.NodeAt(rapid.IntRange(0, c.NumNodes()-1).Draw(t, fmt.Sprintf("node-%d", round)))
			if reused == nil {
				reused = cy.WhatIf(n)
			} else if err := reused.Reset(n); err != nil {
				t.Fatal(err)
			}
			fresh := cy.WhatIf(n)
			on := n.Pods()
			for step := range rapid.IntRange(0, 2*len(on)).Draw(t, fmt.Sprintf("steps-%d", round)) {
				if len(on) == 0 {
					break
				}
				p := on[rapid.IntRange(0, len(on)-1).Draw(t, fmt.Sprintf("pod-%d-%d", round, step))]
				if rapid.Bool().Draw(t, fmt.Sprintf("remove-%d-%d", round, step)) {
					reused.RemovePod(p)
					fresh.RemovePod(p)
				} else {
					reused.AddPod(p)
					fresh.AddPod(p)
				}
				if got, want := reused.Filter(), fresh.Filter(); !cmp.Equal(got.Code, want.Code) || !cmp.Equal(got.Reasons, want.Reasons) {
					t.Fatalf("round %d step %d on %s: reset what-if %v, fresh %v", round, step, n.Name(), got, want)
				}
				for k, pl := range reused.plugins {
					got, ok := pl.(*spreadPlugin)
					if !ok {
						continue
					}
					want := fresh.plugins[k].(*spreadPlugin)
					for i := range want.hs {
						g, w := &got.hs[i], &want.hs[i]
						for d := range w.counts {
							if g.count(int32(d)) != w.count(int32(d)) {
								t.Fatalf("round %d step %d: constraint %d domain %d: reset what-if counts %d, fresh %d", round, step, i, d, g.count(int32(d)), w.count(int32(d)))
							}
						}
						if g.paths != w.paths || g.limit != w.limit {
							t.Fatalf("round %d step %d: constraint %d: reset what-if paths %v limit %d, fresh %v %d", round, step, i, g.paths, g.limit, w.paths, w.limit)
						}
					}
				}
			}
		}
	})
}
