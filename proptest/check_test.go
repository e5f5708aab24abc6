package proptest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/termination"
	"pgregory.net/rapid"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func phases(ps ...api.PodPhase) []api.PodStatus {
	out := make([]api.PodStatus, len(ps))
	for i, p := range ps {
		out[i].Phase = p
	}
	return out
}

func TestCheckPhaseSequence(t *testing.T) {
	tests := []struct {
		name  string
		in    []api.PodStatus
		want  error // nil, or the lifecycle error wrapped beside ErrViolation
		index string
	}{
		{name: "no statuses"},
		{name: "one status", in: phases(api.PodRunning)},
		{name: "a whole life", in: phases("", api.PodPending, api.PodPending, api.PodRunning, api.PodSucceeded, api.PodSucceeded)},
		{name: "through Unknown", in: phases(api.PodPending, api.PodRunning, api.PodUnknown, api.PodRunning, api.PodFailed)},
		{name: "skipping Running", in: phases(api.PodPending, api.PodFailed)},
		{name: "back to Pending", in: phases(api.PodPending, api.PodRunning, api.PodPending), want: lifecycle.ErrPhaseRegression, index: "status 1 to 2"},
		{name: "Unknown to Pending", in: phases(api.PodRunning, api.PodUnknown, api.PodPending), want: lifecycle.ErrPhaseRegression, index: "status 1 to 2"},
		{name: "out of Succeeded", in: phases(api.PodSucceeded, api.PodRunning), want: lifecycle.ErrTerminalPhase, index: "status 0 to 1"},
		{name: "Failed to Succeeded", in: phases(api.PodFailed, api.PodSucceeded), want: lifecycle.ErrTerminalPhase, index: "status 0 to 1"},
		{name: "a phase Kubernetes does not have", in: phases(api.PodRunning, "Crashed"), want: lifecycle.ErrInvalidPhase, index: "status 0 to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := proptest.CheckPhaseSequence(tt.in)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v", err)
				}
				return
			}
			if !errors.Is(err, proptest.ErrViolation) || !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.index) {
				t.Fatalf("got %v, want %v at %s", err, tt.want, tt.index)
			}
		})
	}
}

// The kubelet's pod state machine, driven by any sequence of events on a
// generated pod, never moves the phase backwards.
func TestPropertyMachineKeepsPhaseOrder(t *testing.T) {
	pods := proptest.Pod(proptest.PodOptions{MaxContainers: 2, MaxInitContainers: 2})
	rapid.Check(t, func(t *rapid.T) {
		pod := pods.Draw(t, "pod")
		var names []string
		for _, c := range append(append([]api.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...) {
			names = append(names, c.Name)
		}
		m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{})
		now := t0
		statuses := []api.PodStatus{pod.Status}
		events := []lifecycle.Event{lifecycle.Scheduled("node-1"), lifecycle.SandboxReady("10.0.0.9")}
		for range rapid.IntRange(0, 30).Draw(t, "events") {
			c := rapid.SampledFrom(names).Draw(t, "container")
			events = append(events, rapid.SampledFrom([]lifecycle.Event{
				lifecycle.ImagePulled(c), lifecycle.ContainerStarted(c), lifecycle.ContainerExited(c, 0, ""),
				lifecycle.ContainerExited(c, 1, ""), lifecycle.ProbeResult(c, api.ProbeReadiness, true),
				lifecycle.ProbeResult(c, api.ProbeLiveness, false), lifecycle.Tick(), lifecycle.SandboxDied(),
				lifecycle.DeletionRequested(5), lifecycle.NodeUnreachable(),
			}).Draw(t, "event"))
		}
		for _, ev := range events {
			now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "seconds")) * time.Second)
			st, _ := m.Step(ev, now)
			statuses = append(statuses, st)
		}
		if err := proptest.CheckPhaseSequence(statuses); err != nil {
			t.Fatal(err)
		}
	})
}

// webPods are n ready, running pods of app web in ns-1, owned by nothing.
func webPods(n int) []*api.Pod {
	var out []*api.Pod
	for i := range n {
		name := "web-" + string(rune('a'+i))
		out = append(out, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1", UID: "uid-" + name, ResourceVersion: "7", Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{NodeName: "node-1"},
			Status:     api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
		})
	}
	return out
}

func TestCheckEvictionsRespectBudgets(t *testing.T) {
	two := api.FromInt32(2)
	pdb := &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns-1", Generation: 1},
		Spec:       api.PodDisruptionBudgetSpec{MinAvailable: &two, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
	}
	pods := webPods(3)
	unready := *pods[2]
	unready.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
	withUnready := []*api.Pod{pods[0], pods[1], &unready}
	tests := []struct {
		name    string
		pdbs    []*api.PodDisruptionBudget
		pods    []*api.Pod
		evicted []string
		want    error
	}{
		{name: "nothing evicted", pdbs: []*api.PodDisruptionBudget{pdb}, pods: pods},
		{name: "one of three above a floor of two", pdbs: []*api.PodDisruptionBudget{pdb}, pods: pods, evicted: []string{"ns-1/web-a"}},
		{name: "two of three", pdbs: []*api.PodDisruptionBudget{pdb}, pods: pods, evicted: []string{"ns-1/web-a", "ns-1/web-b"}, want: proptest.ErrViolation},
		{name: "the same pod twice", pdbs: []*api.PodDisruptionBudget{pdb}, pods: pods, evicted: []string{"ns-1/web-a", "ns-1/web-a"}},
		{name: "no budget", pods: pods, evicted: []string{"ns-1/web-a", "ns-1/web-b", "ns-1/web-c"}},
		{name: "a healthy pod of a budget already at its floor", pdbs: []*api.PodDisruptionBudget{pdb}, pods: withUnready, evicted: []string{"ns-1/web-a"}, want: proptest.ErrViolation},
		{name: "an unready pod of a budget at its floor", pdbs: []*api.PodDisruptionBudget{pdb}, pods: withUnready, evicted: []string{"ns-1/web-c"}},
		{name: "a pod that is not there", pdbs: []*api.PodDisruptionBudget{pdb}, pods: pods, evicted: []string{"ns-1/db"}, want: api.ErrInvalidInput},
		{name: "a nil budget", pdbs: []*api.PodDisruptionBudget{nil}, pods: pods, want: api.ErrInvalidInput},
		{name: "a nil pod", pods: []*api.Pod{nil}, want: api.ErrInvalidInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := proptest.CheckEvictionsRespectBudgets(tt.pdbs, tt.pods, tt.evicted, disruption.Controllers{}, t0)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	if pods[0].DeletionTimestamp != nil || pdb.Status.DisruptionsAllowed != 0 {
		t.Error("the check modified its inputs")
	}
}

func healthy(p *api.Pod) bool {
	c := api.FindCondition(p.Status.Conditions, api.PodReady)
	return p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil && c != nil && c.Status == api.ConditionTrue
}

// In generated clusters, a drain that takes from each budget exactly the
// disruptions its status allows passes; taking one more healthy pod from
// a budget does not.
func TestPropertyBudgetsInGeneratedClusters(t *testing.T) {
	clusters := proptest.Cluster(proptest.ClusterOptions{})
	rapid.Check(t, func(t *rapid.T) {
		c := clusters.Draw(t, "cluster")
		var within []string
		var over []string
		for _, b := range c.PDBs {
			sel, err := api.LabelSelectorAsSelector(b.Spec.Selector)
			if err != nil {
				t.Fatal(err)
			}
			var covered []string
			for _, p := range c.Pods {
				if p.Namespace == b.Namespace && sel.Matches(api.Set(p.Labels)) && healthy(p) {
					covered = append(covered, p.Key())
				}
			}
			k := min(int(b.Status.DisruptionsAllowed), len(covered))
			within = append(within, covered[:k]...)
			if over == nil && k < len(covered) {
				over = append(append([]string(nil), covered[:k]...), covered[k])
			}
		}
		if err := proptest.CheckEvictionsRespectBudgets(c.PDBs, c.Pods, within, c.Controllers(), c.Now); err != nil {
			t.Fatalf("evicting what the budgets allow: %v", err)
		}
		if over != nil {
			if err := proptest.CheckEvictionsRespectBudgets(c.PDBs, c.Pods, over, c.Controllers(), c.Now); !errors.Is(err, proptest.ErrViolation) {
				t.Fatalf("evicting one more than a budget allows (%v): %v", over, err)
			}
		}
	})
}

// For the pending pods of generated clusters, the node the scheduler
// would pick passes CheckPlacementFeasible and a node it rejects does not.
func TestPropertyPlacementFeasible(t *testing.T) {
	clusters := proptest.Cluster(proptest.ClusterOptions{Pending: 3})
	rapid.Check(t, func(t *rapid.T) {
		c := clusters.Draw(t, "cluster")
		snap, err := c.Snapshot(scheduling.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Pending() {
			var d scheduling.Decision
			snap.NewCycle(p).Decide(&d)
			if i, _, ok := d.BestIndex(); ok {
				if err := proptest.CheckPlacementFeasible(snap, p, snap.NodeAt(i).Name()); err != nil {
					t.Fatalf("the scheduler's own choice: %v", err)
				}
			}
			for i := range snap.NumNodes() {
				if d.Fits(i) {
					continue
				}
				err := proptest.CheckPlacementFeasible(snap, p, snap.NodeAt(i).Name())
				if !errors.Is(err, proptest.ErrViolation) || !strings.Contains(err.Error(), d.Status(i).Plugin) {
					t.Fatalf("a rejected node (%s): %v", d.Status(i), err)
				}
				break
			}
		}
	})
}

func TestCheckPlacementFeasibleInputs(t *testing.T) {
	c := proptest.Cluster(proptest.ClusterOptions{Nodes: 2, Pods: 3, Pending: 1}).Example(3)
	snap, err := c.Snapshot(scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Pending()[0]
	if err := proptest.CheckPlacementFeasible(snap, p, "no-such-node"); !errors.Is(err, proptest.ErrViolation) {
		t.Errorf("unknown node: %v", err)
	}
	if err := proptest.CheckPlacementFeasible(nil, p, c.Nodes[0].Name); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil snapshot: %v", err)
	}
	if err := proptest.CheckPlacementFeasible(snap, nil, c.Nodes[0].Name); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v", err)
	}
}

func deleting(p *api.Pod, at time.Time, grace int64) *api.Pod {
	q := *p
	q.DeletionTimestamp, q.DeletionGracePeriodSeconds = api.NewTimePtr(at), &grace
	return &q
}

func TestCheckGraceNeverLengthens(t *testing.T) {
	pod := webPods(1)[0]
	running := pod
	first := deleting(pod, t0.Add(30*time.Second), 30)
	tests := []struct {
		name    string
		history []*api.Pod
		want    error
	}{
		{name: "no deletion", history: []*api.Pod{running, running}},
		{name: "deleted, then shortened", history: []*api.Pod{running, first, deleting(pod, t0.Add(10*time.Second), 10), deleting(pod, t0.Add(10*time.Second), 0)}},
		{name: "a longer grace on the first delete is fine", history: []*api.Pod{running, deleting(pod, t0.Add(time.Hour), 3600)}},
		{name: "a negative stored grace reads as 1", history: []*api.Pod{deleting(pod, t0, -5), deleting(pod, t0, 1)}},
		{name: "grace lengthened", history: []*api.Pod{first, deleting(pod, t0.Add(30*time.Second), 60)}, want: proptest.ErrViolation},
		{name: "deadline moved later", history: []*api.Pod{first, deleting(pod, t0.Add(40*time.Second), 30)}, want: proptest.ErrViolation},
		{name: "re-stamped by a shorter grace after the deadline passed", history: []*api.Pod{first, deleting(pod, t0.Add(45*time.Second), 1)}},
		{name: "re-stamped with more than a second", history: []*api.Pod{first, deleting(pod, t0.Add(45*time.Second), 5)}, want: proptest.ErrViolation},
		{name: "force-deleted after the deadline passed", history: []*api.Pod{first, deleting(pod, t0.Add(45*time.Second), 0)}},
		{name: "deletion undone", history: []*api.Pod{first, running}, want: proptest.ErrViolation},
		{name: "another pod", history: []*api.Pod{running, webPods(2)[1]}, want: api.ErrInvalidInput},
		{name: "a nil version", history: []*api.Pod{running, nil}, want: api.ErrInvalidInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := proptest.CheckGraceNeverLengthens(tt.history)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

// Whatever DELETEs arrive for a generated pod, the versions the API server
// stores (termination.APIServerGrace) keep the guarantee.
func TestPropertyAPIServerDeletesKeepGrace(t *testing.T) {
	clusters := proptest.Cluster(proptest.ClusterOptions{Nodes: 2, Pods: 4})
	rapid.Check(t, func(t *rapid.T) {
		c := clusters.Draw(t, "cluster")
		p := rapid.SampledFrom(c.Pods).Draw(t, "pod")
		history := []*api.Pod{p}
		now := c.Now
		for range rapid.IntRange(1, 6).Draw(t, "deletes") {
			now = now.Add(time.Duration(rapid.IntRange(0, 40).Draw(t, "seconds")) * time.Second)
			var opts api.DeleteOptions
			if rapid.Bool().Draw(t, "grace-given") {
				opts.GracePeriodSeconds = ptr(int64(rapid.IntRange(-2, 120).Draw(t, "grace")))
			}
			d, err := termination.APIServerGrace(p, &opts, now)
			if err != nil {
				t.Fatal(err)
			}
			if d.Immediate {
				break
			}
			next := *p
			next.DeletionTimestamp = api.NewTimePtr(*d.DeletionTimestamp)
			next.DeletionGracePeriodSeconds = d.DeletionGracePeriodSeconds
			p = &next
			history = append(history, p)
		}
		if err := proptest.CheckGraceNeverLengthens(history); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCheckBoundPodsFit(t *testing.T) {
	c := proptest.Cluster(proptest.ClusterOptions{Nodes: 2, Pods: 6}).Example(5)
	if err := proptest.CheckBoundPodsFit(c.Nodes, c.Pods); err != nil {
		t.Fatal(err)
	}
	node := c.Nodes[0]
	alloc := node.Status.Allocatable[api.ResourceCPU]
	hog := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "hog", Namespace: "default"},
		Spec: api.PodSpec{NodeName: node.Name, Containers: []api.Container{{Name: "hog", Image: "busybox",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: alloc}}}}},
	}
	err := proptest.CheckBoundPodsFit(c.Nodes, append(append([]*api.Pod(nil), c.Pods...), hog, hog2(hog)))
	if !errors.Is(err, proptest.ErrViolation) || !strings.Contains(err.Error(), "millicpu") {
		t.Errorf("two pods each asking for the whole cpu: %v", err)
	}
	lost := *hog
	lost.Spec.NodeName = "gone"
	if err := proptest.CheckBoundPodsFit(c.Nodes, []*api.Pod{&lost}); !errors.Is(err, proptest.ErrViolation) {
		t.Errorf("a pod bound to a missing node: %v", err)
	}
	if err := proptest.CheckBoundPodsFit([]*api.Node{nil}, nil); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("a nil node: %v", err)
	}
}

func hog2(p *api.Pod) *api.Pod {
	q := *p
	q.Name = "hog-2"
	return &q
}
