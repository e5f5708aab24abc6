package nodepressure_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/termination"
)

func gi(n uint64) uint64 { return n << 30 }

func i64(v int64) *int64 { return &v }

// nodeSummary is a node's Summary at at: memory and the node filesystem as
// given, an image filesystem with half its space free, plenty of inodes
// and process IDs.
func nodeSummary(at time.Time, memAvail, memWS, fsAvail, fsCap uint64) nodepressure.Summary {
	tm := api.NewTime(at)
	return nodepressure.Summary{Node: nodepressure.NodeStats{
		NodeName: "node-1",
		Memory:   &nodepressure.MemoryStats{Time: tm, AvailableBytes: u(memAvail), WorkingSetBytes: u(memWS)},
		Fs:       &nodepressure.FsStats{Time: tm, AvailableBytes: u(fsAvail), CapacityBytes: u(fsCap), InodesFree: u(900000), Inodes: u(1000000)},
		Runtime: &nodepressure.RuntimeStats{ImageFs: &nodepressure.FsStats{Time: tm, AvailableBytes: u(gi(50)), CapacityBytes: u(gi(100)),
			InodesFree: u(900000), Inodes: u(1000000)}},
		Rlimit: &nodepressure.RlimitStats{Time: tm, MaxPID: i64(4194304), NumOfRunningProcesses: i64(500)},
	}}
}

// setSummaryTime moves every reading of s to at.
func setSummaryTime(s *nodepressure.Summary, at time.Time) {
	tm := api.NewTime(at)
	n := &s.Node
	for _, fs := range []*nodepressure.FsStats{n.Fs, n.Runtime.ImageFs} {
		if fs != nil {
			fs.Time = tm
		}
	}
	if n.Memory != nil {
		n.Memory.Time = tm
	}
	if n.Rlimit != nil {
		n.Rlimit.Time = tm
	}
	for i := range s.Pods {
		if s.Pods[i].Memory != nil {
			s.Pods[i].Memory.Time = tm
		}
	}
}

func critical(p *api.Pod) *api.Pod {
	prio := int32(2000001000)
	p.Spec.Priority = &prio
	return p
}

func TestManagerHardMemory(t *testing.T) {
	crit := epod("critical", 0, "", "") // a static pod: critical, yet ranked first
	crit.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
	burst := epod("burstable", 0, "100Mi", "")
	best := epod("besteffort", 0, "", "")
	best.Generation = 3
	sum := nodeSummary(t0, 80*mi, 4096*mi, gi(50), gi(100))
	sum.Pods = []nodepressure.PodStats{memStats("besteffort", 500*mi), memStats("burstable", 300*mi), memStats("critical", 900*mi)}
	sum.Pods[0].Containers = []nodepressure.ContainerStats{{Name: "app", Memory: &nodepressure.MemoryStats{WorkingSetBytes: u(500 * mi)}}}

	var m nodepressure.Manager // the kubelet's defaults
	st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{crit, burst, best}}, t0)

	if diff := cmp.Diff([]api.NodeConditionType{api.NodeMemoryPressure}, st.Conditions); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	var met []nodepressure.Signal
	for _, th := range st.ThresholdsMet {
		met = append(met, th.Signal)
	}
	if want := []nodepressure.Signal{nodepressure.SignalMemoryAvailable}; !slices.Equal(met, want) {
		t.Errorf("thresholds met = %v, want %v", met, want)
	}
	if st.Reclaim == nil || st.Reclaim.Resource != api.ResourceMemory || len(st.Reclaim.NodeGC) != 0 {
		t.Fatalf("reclaim = %+v, want memory without node GC", st.Reclaim)
	}
	if got := st.Reclaim.SkippedCritical; len(got) != 1 || got[0] != crit {
		t.Errorf("skipped = %v, want the critical pod", got)
	}
	e := st.Eviction
	if e == nil || e.Pod != best {
		t.Fatalf("evicted %+v, want besteffort", e)
	}
	const msg = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. " +
		"Container app was using 500Mi, request is 0, has larger consumption of memory. "
	if e.Message != msg {
		t.Errorf("message\n got %q\nwant %q", e.Message, msg)
	}
	if e.Grace.GracePeriodSeconds != termination.HardEvictionGracePeriodSeconds {
		t.Errorf("grace = %d, want the hard eviction's 1 s", e.Grace.GracePeriodSeconds)
	}
	want := api.PodStatus{Phase: api.PodFailed, Reason: "Evicted", Message: msg, Conditions: []api.PodCondition{{
		Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonTerminationByKubelet,
		Message: msg, ObservedGeneration: 3, LastTransitionTime: api.NewTime(t0),
	}}}
	if diff := cmp.Diff(want, e.Status); diff != "" {
		t.Errorf("final status (-want +got):\n%s", diff)
	}
	if a := m.Admit(epod("new", 0, "", "")); a.Admit || a.Reason != "Evicted" || a.Message != "The node had condition: [MemoryPressure]. " {
		t.Errorf("BestEffort admission = %+v", a)
	}
}

func TestManagerSoftGracePeriod(t *testing.T) {
	m, err := nodepressure.NewManager(nodepressure.Settings{
		Hard:                     map[string]string{},
		Soft:                     map[string]string{"memory.available": "1.5Gi"},
		SoftGracePeriod:          map[string]string{"memory.available": "1m30s"},
		MaxPodGracePeriodSeconds: 60,
	}, nodepressure.LayoutShared)
	if err != nil {
		t.Fatal(err)
	}
	p := epod("app", 0, "", "")
	p.Spec.TerminationGracePeriodSeconds = ptrTo(int64(20))
	for _, tc := range []struct {
		at      time.Duration
		evicted bool
	}{{0, false}, {30 * time.Second, false}, {60 * time.Second, false}, {90 * time.Second, true}} {
		now := t0.Add(tc.at)
		sum := nodeSummary(now, gi(1), gi(4), gi(50), gi(100))
		sum.Pods = []nodepressure.PodStats{memStats("app", 500*mi)}
		st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{p}}, now)
		if !slices.Equal(st.Conditions, []api.NodeConditionType{api.NodeMemoryPressure}) {
			t.Errorf("at %v: conditions %v, want MemoryPressure at once (grace periods do not delay it)", tc.at, st.Conditions)
		}
		if (st.Eviction != nil) != tc.evicted {
			t.Fatalf("at %v: evicted = %v, want %v", tc.at, st.Eviction != nil, tc.evicted)
		}
		if st.Eviction != nil && st.Eviction.Grace.GracePeriodSeconds != 20 {
			t.Errorf("grace = %d, want the pod's own 20 s (below evictionMaxPodGracePeriod 60)", st.Eviction.Grace.GracePeriodSeconds)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestManagerTransitionPeriod(t *testing.T) {
	for _, tc := range []struct {
		period string
		want   []bool // condition reported at 0s, 10s (recovered), 4m59s, 5m
	}{
		{"", []bool{true, true, true, false}},
		{"0s", []bool{false, false, false, false}},
	} {
		m, err := nodepressure.NewManager(nodepressure.Settings{PressureTransitionPeriod: tc.period}, nodepressure.LayoutShared)
		if err != nil {
			t.Fatal(err)
		}
		for i, at := range []time.Duration{0, 10 * time.Second, 4*time.Minute + 59*time.Second, 5 * time.Minute} {
			avail := uint64(gi(4))
			if at == 0 {
				avail = 50 * mi
			}
			now := t0.Add(at)
			st := m.Step(nodepressure.Observation{Summary: nodeSummary(now, avail, gi(4), gi(50), gi(100))}, now)
			if got := slices.Contains(st.Conditions, api.NodeMemoryPressure); got != tc.want[i] {
				t.Errorf("period %q at %v: MemoryPressure %v, want %v", tc.period, at, got, tc.want[i])
			}
		}
	}
}

// A threshold is acted on only when its statistics moved since the
// previous pass.
func TestManagerStaleStatistics(t *testing.T) {
	var m nodepressure.Manager
	sum := nodeSummary(t0, 50*mi, gi(4), gi(50), gi(100))
	a, b := epod("a", 0, "", ""), epod("b", 0, "", "")
	sum.Pods = []nodepressure.PodStats{memStats("a", 100*mi), memStats("b", 200*mi)}
	st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{a, b}}, t0)
	if st.Eviction == nil || st.Eviction.Pod != b {
		t.Fatalf("first pass evicted %+v, want b", st.Eviction)
	}
	st = m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{a}}, t0.Add(10*time.Second))
	if st.Reclaim != nil || st.Eviction != nil {
		t.Errorf("same statistics: reclaim %+v eviction %+v, want nothing", st.Reclaim, st.Eviction)
	}
	if len(st.ThresholdsMet) != 1 {
		t.Errorf("thresholds met %v, want memory.available still met", st.ThresholdsMet)
	}
}

func TestManagerOnlyCriticalPods(t *testing.T) {
	static := epod("static", 0, "", "")
	static.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
	mirror := epod("mirror", 0, "", "")
	mirror.Annotations = map[string]string{api.ConfigMirrorAnnotationKey: "abc"}
	var m nodepressure.Manager
	sum := nodeSummary(t0, 50*mi, gi(4), gi(50), gi(100))
	st := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{static, mirror, critical(epod("c", 0, "", ""))}}, t0)
	if st.Reclaim == nil || st.Eviction != nil || len(st.Reclaim.SkippedCritical) != 3 {
		t.Errorf("reclaim %+v eviction %+v, want every pod skipped and none evicted", st.Reclaim, st.Eviction)
	}
}

func TestManagerDiskGarbageCollection(t *testing.T) {
	pods := []*api.Pod{epod("a", 0, "", "")}
	low := nodeSummary(t0, gi(4), gi(4), gi(5), gi(100)) // nodefs below 10%
	low.Pods = []nodepressure.PodStats{diskStats("a", 100*mi, mi, nil)}
	freed := nodeSummary(t0, gi(4), gi(4), gi(20), gi(100))

	for _, tc := range []struct {
		name     string
		layout   nodepressure.FilesystemLayout
		after    *nodepressure.Summary
		gc       []nodepressure.NodeGC
		relieved bool
	}{
		{"shared, GC frees nothing", nodepressure.LayoutShared, nil, []nodepressure.NodeGC{nodepressure.GCUnusedContainers, nodepressure.GCUnusedImages}, false},
		{"shared, GC frees enough", nodepressure.LayoutShared, &freed, []nodepressure.NodeGC{nodepressure.GCUnusedContainers, nodepressure.GCUnusedImages}, true},
		{"dedicated imagefs: nodefs has no GC", nodepressure.LayoutDedicatedImageFs, &freed, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := nodepressure.NewManager(nodepressure.Settings{}, tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			st := m.Step(nodepressure.Observation{Summary: low, Pods: pods, AfterNodeGC: tc.after}, t0)
			if st.Reclaim == nil || st.Reclaim.Resource != api.ResourceEphemeralStorage {
				t.Fatalf("reclaim %+v, want ephemeral-storage", st.Reclaim)
			}
			if diff := cmp.Diff(tc.gc, st.Reclaim.NodeGC); diff != "" {
				t.Errorf("node GC (-want +got):\n%s", diff)
			}
			if st.Reclaim.RelievedByGC != tc.relieved || (st.Eviction == nil) != tc.relieved {
				t.Errorf("relieved %v evicted %v, want relieved %v", st.Reclaim.RelievedByGC, st.Eviction != nil, tc.relieved)
			}
		})
	}
}

// A threshold stays in force until the signal recovers past threshold +
// minimum reclaim.
func TestManagerMinimumReclaim(t *testing.T) {
	m, err := nodepressure.NewManager(nodepressure.Settings{
		Hard:           map[string]string{"memory.available": "100Mi"},
		MinimumReclaim: map[string]string{"memory.available": "500Mi"},
	}, nodepressure.LayoutShared)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		avail uint64
		met   bool
	}{{50 * mi, true}, {400 * mi, true}, {599 * mi, true}, {601 * mi, false}, {400 * mi, false}} {
		now := t0.Add(time.Duration(i) * 10 * time.Second)
		st := m.Step(nodepressure.Observation{Summary: nodeSummary(now, tc.avail, gi(4), gi(50), gi(100))}, now)
		if got := len(st.ThresholdsMet) > 0; got != tc.met {
			t.Errorf("pass %d (%dMi available): met %v, want %v", i, tc.avail/mi, got, tc.met)
		}
	}
}

func TestManagerNil(t *testing.T) {
	var m *nodepressure.Manager
	if st := m.Step(nodepressure.Observation{}, t0); st.Reclaim != nil || st.Eviction != nil || !st.At.Equal(t0) {
		t.Errorf("nil manager step = %+v", st)
	}
	if a := m.Admit(epod("x", 0, "", "")); !a.Admit {
		t.Errorf("nil manager refuses %+v", a)
	}
	if _, err := nodepressure.NewManager(nodepressure.Settings{}, "raid"); !errors.Is(err, nodepressure.ErrUnknownLayout) {
		t.Errorf("unknown layout: %v", err)
	}
}

func TestAdmit(t *testing.T) {
	mem := []api.NodeConditionType{api.NodeMemoryPressure}
	disk := []api.NodeConditionType{api.NodeDiskPressure}
	both := []api.NodeConditionType{api.NodeMemoryPressure, api.NodeDiskPressure}
	tolerating := epod("tolerating", 0, "", "")
	tolerating.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	for _, tc := range []struct {
		name    string
		pod     *api.Pod
		conds   []api.NodeConditionType
		admit   bool
		message string
	}{
		{"no pressure", epod("a", 0, "", ""), nil, true, ""},
		{"burstable under memory pressure", epod("a", 0, "100Mi", ""), mem, true, ""},
		{"besteffort under memory pressure", epod("a", 0, "", ""), mem, false, "The node had condition: [MemoryPressure]. "},
		{"besteffort tolerating the taint", tolerating, mem, true, ""},
		{"tolerating pod under two conditions", tolerating, both, false, "The node had condition: [MemoryPressure DiskPressure]. "},
		{"burstable under disk pressure", epod("a", 0, "100Mi", ""), disk, false, "The node had condition: [DiskPressure]. "},
		{"critical under disk pressure", critical(epod("a", 0, "", "")), disk, true, ""},
		{"PID pressure refuses all", epod("a", 0, "100Mi", ""), []api.NodeConditionType{api.NodePIDPressure}, false, "The node had condition: [PIDPressure]. "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := nodepressure.Admit(tc.pod, tc.conds)
			want := nodepressure.Admission{Admit: tc.admit}
			if !tc.admit {
				want.Reason, want.Message = "Evicted", tc.message
			}
			if diff := cmp.Diff(want, a); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if a := nodepressure.Admit(nil, nil); a.Admit {
		t.Errorf("nil pod admitted")
	}
}

// A pass allocates the same whatever the number of pods, once the pods'
// requests are cached: nothing per pod, for memory and for disk signals.
func TestManagerStepAllocationsIndependentOfPods(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	allocs := func(n int, disk bool) float64 {
		var pods []*api.Pod
		var stats []nodepressure.PodStats
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("p%03d", i)
			pods = append(pods, epod(name, int32(i%3), fmt.Sprintf("%dMi", 64+i%5*32), "1Gi",
				api.Volume{Name: "v", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}}))
			s := diskStats(name, uint64(i%9)*256*mi, mi, map[string]uint64{"v": uint64(i%4) * 512 * mi})
			s.Memory = &nodepressure.MemoryStats{WorkingSetBytes: u(uint64(i*37%500) * mi)}
			stats = append(stats, s)
		}
		var m nodepressure.Manager
		sum := nodeSummary(t0, 80*mi, gi(60), gi(50), gi(100))
		if disk {
			sum = nodeSummary(t0, gi(4), gi(4), gi(5), gi(100))
		}
		sum.Pods = stats
		obs := nodepressure.Observation{Summary: sum, Pods: pods}
		now := t0
		step := func() {
			now = now.Add(10 * time.Second)
			setSummaryTime(&obs.Summary, now)
			if m.Step(obs, now).Eviction == nil {
				t.Fatal("no eviction")
			}
		}
		step()
		return testing.AllocsPerRun(20, step)
	}
	for _, disk := range []bool{false, true} {
		if few, many := allocs(10, disk), allocs(110, disk); many != few {
			t.Errorf("disk %v: %v allocations per pass with 10 pods, %v with 110", disk, few, many)
		}
	}
}

// Before its first Observation a manager has nothing to pass on: a tick
// does nothing and there is no deadline. After a pass that leaves nothing
// to wait for, the deadline is the zero time, not now.
func TestManagerTickBeforeObservation(t *testing.T) {
	var m nodepressure.Manager
	if st := m.Step(nodepressure.Tick(), t0); st.Observations != nil || st.Conditions != nil || st.Reclaim != nil {
		t.Errorf("tick before any observation: %+v, want nothing", st)
	}
	if d := m.NextDeadline(); !d.IsZero() {
		t.Errorf("deadline before any observation: %v, want none", d)
	}
	m.Step(nodepressure.Observation{Summary: nodeSummary(t0, gi(3), gi(1), gi(50), gi(100))}, t0)
	if d := m.NextDeadline(); !d.IsZero() {
		t.Errorf("deadline after a quiet pass: %v, want none", d)
	}
	if st := m.Step(nodepressure.Tick(), t0.Add(time.Hour)); len(st.Observations) == 0 || st.Conditions != nil {
		t.Errorf("tick after a quiet pass: %+v, want the same readings and no condition", st)
	}
}
