package workloads

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// refDeletionOrder is the deletion comparator written plainly, the way
// upstream's ActivePodsWithRanks reads it (pkg/controller, default gates
// PodDeletionCost and LogarithmicScaleDown): every comparison reads the
// pods again, with time.Time operations and float logarithms. It sorts
// the pods and their ranks together, as upstream does.
type refDeletionOrder struct {
	pods  []*api.Pod
	ranks []int
	now   time.Time
}

func (s refDeletionOrder) Len() int { return len(s.pods) }

func (s refDeletionOrder) Swap(i, j int) {
	s.pods[i], s.pods[j] = s.pods[j], s.pods[i]
	s.ranks[i], s.ranks[j] = s.ranks[j], s.ranks[i]
}

func refPhaseOrdinal(p api.PodPhase) int {
	return map[api.PodPhase]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}[p]
}

func refReadyTime(p *api.Pod) time.Time {
	if api.IsPodReady(p) {
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodReady && c.Status == api.ConditionTrue {
				return c.LastTransitionTime.Time
			}
		}
	}
	return time.Time{}
}

func refCost(p *api.Pod) int32 {
	v, ok := p.Annotations[AnnotationPodDeletionCost]
	if !ok {
		return 0
	}
	// Canonical 32-bit integers only: what strconv prints back unchanged.
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || strconv.FormatInt(n, 10) != v {
		return 0
	}
	return int32(n)
}

func refRestarts(p *api.Pod) (regular, sidecar int) {
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, int(c.RestartCount))
	}
	names := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == api.RestartPolicyAlways {
			names[c.Name] = true
		}
	}
	for _, c := range p.Status.InitContainerStatuses {
		if names[c.Name] {
			sidecar = max(sidecar, int(c.RestartCount))
		}
	}
	return regular, sidecar
}

func refAfterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

func refLogDiff(t1, t2, now time.Time) int64 {
	r1, r2 := int64(-1), int64(-1)
	if d := now.Sub(t1); d > 0 {
		r1 = int64(math.Log2(float64(d)))
	}
	if d := now.Sub(t2); d > 0 {
		r2 = int64(math.Log2(float64(d)))
	}
	return r1 - r2
}

func (s refDeletionOrder) newer(pi, pj *api.Pod, ti, tj time.Time) bool {
	if s.now.IsZero() || ti.IsZero() || tj.IsZero() {
		return refAfterOrZero(ti, tj)
	}
	if d := refLogDiff(ti, tj, s.now); d != 0 {
		return d < 0
	}
	return pi.UID < pj.UID
}

func (s refDeletionOrder) Less(i, j int) bool {
	pi, pj := s.pods[i], s.pods[j]
	if pi.Spec.NodeName != pj.Spec.NodeName && (pi.Spec.NodeName == "" || pj.Spec.NodeName == "") {
		return pi.Spec.NodeName == ""
	}
	if a, b := refPhaseOrdinal(pi.Status.Phase), refPhaseOrdinal(pj.Status.Phase); a != b {
		return a < b
	}
	if api.IsPodReady(pi) != api.IsPodReady(pj) {
		return !api.IsPodReady(pi)
	}
	if a, b := refCost(pi), refCost(pj); a != b {
		return a < b
	}
	if s.ranks[i] != s.ranks[j] {
		return s.ranks[i] > s.ranks[j]
	}
	if api.IsPodReady(pi) && api.IsPodReady(pj) {
		if ti, tj := refReadyTime(pi), refReadyTime(pj); !ti.Equal(tj) {
			return s.newer(pi, pj, ti, tj)
		}
	}
	ri, si := refRestarts(pi)
	rj, sj := refRestarts(pj)
	if ri != rj {
		return ri > rj
	}
	if si != sj {
		return si > sj
	}
	if ti, tj := pi.CreationTimestamp.Time, pj.CreationTimestamp.Time; !ti.Equal(tj) {
		return s.newer(pi, pj, ti, tj)
	}
	return false
}

// drawRankTime is a time near now chosen to hit the comparator's edges:
// zero, equal to another pod's, in the future, at and around powers of
// two nanoseconds before now, sometimes with a monotonic reading.
func drawRankTime(t *rapid.T, label string, now, mono time.Time) time.Time {
	switch rapid.IntRange(0, 6).Draw(t, label+" kind") {
	case 0:
		return time.Time{}
	case 6:
		// Beyond the nanoseconds since 1970 an int64 holds.
		return rapid.SampledFrom([]time.Time{time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)}).Draw(t, label+" far")
	case 1:
		return now.Add(-time.Duration(rapid.SampledFrom([]int64{0, 1, 1000, int64(time.Hour), int64(3 * time.Hour)}).Draw(t, label+" ago")))
	case 2:
		return now.Add(time.Duration(rapid.Int64Range(-3, 3).Draw(t, label+" near")))
	case 3:
		k := rapid.IntRange(0, 62).Draw(t, label+" log2")
		return now.Add(-time.Duration(1<<k + rapid.Int64Range(-2, 2).Draw(t, label+" off")))
	case 4:
		if !mono.IsZero() {
			return mono.Add(-time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, label+" mono ago")))
		}
		return now
	}
	return now.Add(-time.Duration(rapid.Int64Range(-int64(time.Hour), 1<<50).Draw(t, label+" ago ns")))
}

func drawRankPod(t *rapid.T, i int, now, mono time.Time) *api.Pod {
	name := "p" + strconv.Itoa(i)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1"}}
	p.UID = rapid.SampledFrom([]string{"", "a", "b", "a\x00", "ab", "uid-web-0000000001", "uid-web-0000000001x",
		"uid-web-0000000002", "uid-web-00000000", "\xff", "f47ac10b-58cc-4372-a567-0e02b2c3d479"}).Draw(t, name+" uid")
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2"}).Draw(t, name+" node")
	p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodUnknown, "", api.PodSucceeded}).Draw(t, name+" phase")
	for c := rapid.IntRange(0, 2).Draw(t, name+" conditions"); c > 0; c-- {
		cond := api.PodCondition{Type: api.PodReady, Status: rapid.SampledFrom([]api.ConditionStatus{api.ConditionTrue, api.ConditionFalse}).Draw(t, name+" ready")}
		if rapid.IntRange(0, 4).Draw(t, name+" other condition") == 0 {
			cond.Type = api.PodScheduled
		}
		cond.LastTransitionTime = api.NewTime(drawRankTime(t, name+" ready time", now, mono))
		p.Status.Conditions = append(p.Status.Conditions, cond)
	}
	if v := rapid.SampledFrom([]string{"-", "0", "5", "-5", "+3", "07", "x", "2147483647", "-2147483648", "2147483648"}).Draw(t, name+" cost"); v != "-" {
		p.Annotations = map[string]string{AnnotationPodDeletionCost: v}
	}
	for c := rapid.IntRange(0, 2).Draw(t, name+" containers"); c > 0; c-- {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: "app", RestartCount: int32(rapid.IntRange(0, 3).Draw(t, name+" restarts"))})
	}
	for c := rapid.IntRange(0, 2).Draw(t, name+" init containers"); c > 0; c-- {
		ic := api.Container{Name: rapid.SampledFrom([]string{"init", "side"}).Draw(t, name+" init name")}
		if rapid.Bool().Draw(t, name+" sidecar") {
			ic.RestartPolicy = ptr(api.RestartPolicyAlways)
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, ic)
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, api.ContainerStatus{Name: ic.Name, RestartCount: int32(rapid.IntRange(0, 3).Draw(t, name+" init restarts"))})
	}
	p.CreationTimestamp = api.NewTime(drawRankTime(t, name+" created", now, mono))
	return p
}

// RankPodsForDeletion puts any list of pods in exactly the order upstream's
// comparator, sorted by sort.Sort from the same order, puts them in: every
// rule, the logarithmic buckets, the uid tie-break (equal 16-byte uid
// prefixes included), zero and future times, monotonic clock readings,
// times beyond what int64 nanoseconds hold, a zero now, missing,
// mis-sized or very large ranks.
func TestRankPodsForDeletionMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var now, mono time.Time
		switch rapid.IntRange(0, 3).Draw(t, "now") {
		case 0:
			now = t0
		case 1:
			now = time.Time{}
		case 2:
			// A reading of the machine's clock: monotonic times in play.
			now = time.Now()
			mono = now
		case 3:
			now = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		n := rapid.IntRange(0, 120).Draw(t, "pods")
		pods := make([]*api.Pod, n)
		for i := range pods {
			pods[i] = drawRankPod(t, i, now, mono)
		}
		var ranks []int
		switch rapid.IntRange(0, 3).Draw(t, "ranks") {
		case 3:
			// Ranks too large for 32 bits.
			ranks = make([]int, n)
			for i := range ranks {
				ranks[i] = rapid.SampledFrom([]int{0, 1, 1 << 40, -1 << 40, 1<<40 + 1}).Draw(t, "wide rank")
			}
		case 1:
			ranks = make([]int, n)
			for i := range ranks {
				ranks[i] = rapid.IntRange(0, 3).Draw(t, "rank")
			}
		case 2:
			ranks = make([]int, n+1)
		}
		want := append([]*api.Pod(nil), pods...)
		refRanks := make([]int, n)
		if len(ranks) == n {
			copy(refRanks, ranks)
		}
		sort.Sort(refDeletionOrder{pods: want, ranks: refRanks, now: now})
		got := append([]*api.Pod(nil), pods...)
		RankPodsForDeletion(got, ranks, now)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("position %d: got %s, want %s\ngot  %v\nwant %v", i, got[i].Name, want[i].Name, podNames(got), podNames(want))
			}
		}
	})
}

// logAgeBucket is int64(math.Log2(float64(age))) for every positive age,
// the floating-point rounding near each power of two included.
func TestLogAgeBucketMatchesFloat(t *testing.T) {
	check := func(age time.Duration) {
		if age <= 0 {
			return
		}
		if got, want := int64(logAgeBucket(age)), int64(math.Log2(float64(age))); got != want {
			t.Fatalf("age %d: got %d, want %d", int64(age), got, want)
		}
	}
	for k := range 63 {
		p := int64(1) << k
		for _, base := range []int64{p, p - p>>30, p + p>>30, p - p>>40, p - p>>53} {
			for d := int64(-2048); d <= 2048; d++ {
				check(time.Duration(base + d))
			}
		}
	}
	check(math.MaxInt64)
	rapid.Check(t, func(t *rapid.T) {
		check(time.Duration(rapid.Int64Range(1, math.MaxInt64).Draw(t, "age")))
	})
}

// A scale-down sync deletes the pods a plain rendering of upstream's
// steps picks: the related pods listed per ReplicaSet of the same
// controller (each selector in its namespace, de-duplicated by uid),
// counted per node when active, those counts as the claimed replicas'
// ranks, the reference comparator sorting them from the cache's order.
func TestReplicaSetScaleDownMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := t0
		rs := webRS(int32(rapid.IntRange(0, 30).Draw(t, "replicas")))
		owned := rapid.Bool().Draw(t, "deployment")
		if owned {
			rs.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-dep", Controller: ptr(true)}}
		}
		var others []*api.ReplicaSet
		for i := range rapid.IntRange(0, 3).Draw(t, "others") {
			o := webRS(1)
			o.Name, o.UID = "web-"+strconv.Itoa(i), "uid-web-"+strconv.Itoa(i)
			o.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web", "v": strconv.Itoa(i)}}
			if rapid.Bool().Draw(t, "other in ns-2") {
				o.Namespace = "ns-2"
			}
			if rapid.IntRange(0, 3).Draw(t, "other's controller") > 0 {
				o.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-dep", Controller: ptr(true)}}
			}
			others = append(others, o)
		}
		n := rapid.IntRange(0, 60).Draw(t, "pods")
		pods := make([]*api.Pod, n)
		for i := range pods {
			p := drawRankPod(t, i, now, time.Time{})
			if p.Status.Phase == api.PodSucceeded && rapid.Bool().Draw(t, "keep finished") {
				p.Status.Phase = api.PodRunning
			}
			p.UID = "uid-web-00000000" + strconv.Itoa(i)
			if rapid.Bool().Draw(t, "short uid") {
				p.UID = strconv.Itoa(i)
			}
			p.Spec.NodeName = rapid.SampledFrom([]string{"", "node-1", "node-2", "node-3"}).Draw(t, "node")
			p.Labels = map[string]string{"app": "web"}
			switch rapid.IntRange(0, 4).Draw(t, "owner") {
			case 0, 1:
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID, Controller: ptr(true)}}
			case 2:
				// Orphans are left out: the sync would adopt them.
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Other", Name: "x", UID: "uid-x", Controller: ptr(true)}}
				if len(others) > 0 {
					o := others[rapid.IntRange(0, len(others)-1).Draw(t, "which other")]
					p.Namespace = o.Namespace
					p.Labels = o.Spec.Selector.MatchLabels
					p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: o.Name, UID: o.UID, Controller: ptr(true)}}
				}
			case 3:
				p.Namespace = "ns-2"
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Other", Name: "x", UID: "uid-x", Controller: ptr(true)}}
			case 4:
				p.Labels = map[string]string{"app": "db"}
				p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Other", Name: "x", UID: "uid-x", Controller: ptr(true)}}
			}
			if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
				p.DeletionTimestamp = api.NewTimePtr(now)
			}
			pods[i] = p
		}

		// The reference: claimed pods, related pods, ranks, sort.
		var claimed []*api.Pod
		for _, p := range pods {
			if p.Namespace == rs.Namespace && isPodActive(p) && p.Labels["app"] == "web" && p.ControllerRef() != nil && p.ControllerRef().UID == rs.UID {
				claimed = append(claimed, p)
			}
		}
		ranks := make([]int, len(claimed))
		if owned {
			related := []*api.ReplicaSet{rs}
			for _, o := range others {
				if o.ControllerRef() != nil {
					related = append(related, o)
				}
			}
			seen := map[string]bool{}
			perNode := map[string]int{}
			for _, r := range related {
				sel, err := api.LabelSelectorAsSelector(r.Spec.Selector)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pods {
					if p.Namespace != r.Namespace || !sel.Matches(api.Set(p.Labels)) || seen[p.UID] {
						continue
					}
					seen[p.UID] = true
					if isPodActive(p) {
						perNode[p.Spec.NodeName]++
					}
				}
			}
			for i, p := range claimed {
				ranks[i] = perNode[p.Spec.NodeName]
			}
		}
		diff := len(claimed) - int(*rs.Spec.Replicas)
		if diff <= 0 {
			return
		}
		want := append([]*api.Pod(nil), claimed...)
		if diff < len(claimed) {
			sort.Sort(refDeletionOrder{pods: want, ranks: ranks, now: now})
		}
		want = want[:min(diff, BurstReplicas)]

		res, err := SyncReplicaSet(ReplicaSetInput{ReplicaSet: rs, Pods: pods, OtherReplicaSets: others}, ReplicaSetExpectations{}, now)
		if err != nil {
			t.Fatal(err)
		}
		if diff == len(claimed) {
			// All go: upstream deletes them unsorted, in any order.
			if len(res.Delete) != len(want) {
				t.Fatalf("deleted %v, want all of %v", podNames(res.Delete), podNames(want))
			}
			return
		}
		if got, w := podNames(res.Delete), podNames(want); !slices.Equal(got, w) {
			t.Fatalf("deleted %v, want %v (ranks %v)", got, w, ranks)
		}
	})
}
