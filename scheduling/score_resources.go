package scheduling

import (
	"math"
	"math/bits"

	"github.com/podsem/podsem/api"
)

// PluginNodeResourcesBalancedAllocation is the score-only plugin that
// favours nodes whose cpu and memory would be used in equal proportion.
const PluginNodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"

// scoringRequests is the incoming pod's cpu (milli) and memory (bytes) as
// NodeResourcesFit's score computes them (resourceAllocationScorer.
// calculatePodResourceRequest with non-zero requests): 100m / 200Mi for
// containers that request none. NodeResourcesBalancedAllocation counts
// the requests as they are, which are incomingPodRequests'.
func scoringRequests(pod *api.Pod) (cpu, mem int64) {
	opts := api.PodResourcesOptions{NonMissingContainerRequests: api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(DefaultMilliCPURequest, api.DecimalSI),
		api.ResourceMemory: api.NewQuantity(DefaultMemoryRequest, api.DecimalSI),
	}}
	reqs := api.PodRequests(pod, opts)
	return reqs.Cpu().MilliValue(), reqs.Memory().Value()
}

// leastRequestedScore is the share of capacity left free, 0..100
// (noderesources leastRequestedScore).
func leastRequestedScore(requested, capacity int64) int64 {
	if s, ok := leastRequestedFast(requested, capacity); ok {
		return s
	}
	return leastRequestedScoreWide(requested, capacity)
}

// leastRequestedFast is leastRequestedScore's common case, 1 <= capacity
// <= MaxInt64/100 and 0 <= requested <= capacity, where int64 arithmetic
// is exact; ok is false elsewhere. It inlines, so that the hot scoring
// loops call leastRequestedScoreWide only for the rare cases.
func leastRequestedFast(requested, capacity int64) (int64, bool) {
	if uint64(capacity-1) < math.MaxInt64/MaxNodeScore && uint64(requested) <= uint64(capacity) {
		return (capacity - requested) * MaxNodeScore / capacity, true
	}
	return 0, false
}

// leastRequestedScoreWide is leastRequestedScore where the product may not
// fit an int64: kube-scheduler's product overflows for a capacity beyond
// about 9.2e16 (or a negative request); podsem computes the share exactly
// in 128 bits, truncated toward zero, saturating beyond int64. It is kept
// apart so that the common case inlines.
func leastRequestedScoreWide(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	free := uint64(capacity) - uint64(requested) // exact: 0 <= free < 2^64
	c := uint64(capacity)
	if capacity < 0 {
		c = -c
	}
	hi, lo := bits.Mul64(free, MaxNodeScore)
	if hi >= c {
		return saturated(capacity < 0)
	}
	q, _ := bits.Div64(hi, lo, c)
	switch {
	case capacity > 0 && q > math.MaxInt64:
		return math.MaxInt64
	case capacity > 0:
		return int64(q)
	case q > 1<<63:
		return math.MinInt64
	}
	return -int64(q)
}

// preScore computes the pod's non-zero cpu and memory for
// NodeResourcesFit's LeastAllocated score (the default strategy, cpu and
// memory weighted 1 each).
func (pl *fitPlugin) preScore(feasible []*NodeInfo) Status {
	pl.scoreCPU, pl.scoreMem = scoringRequests(pl.pod)
	return Status{}
}

// score averages the free share of cpu and memory after placing the pod,
// counting the node's pods by their non-zero requests; resources the node
// has none of are left out.
func (pl *fitPlugin) score(n *NodeInfo) int64 {
	var total, weights int64
	if a := n.allocatable.MilliCPU; a != 0 {
		total = satAdd(total, leastRequestedScore(satAdd(n.non0CPU, pl.scoreCPU), a))
		weights++
	}
	if a := n.allocatable.Memory; a != 0 {
		total = satAdd(total, leastRequestedScore(satAdd(n.non0Mem, pl.scoreMem), a))
		weights++
	}
	if weights == 0 {
		return 0
	}
	return total / weights
}

// balancedPlugin is NodeResourcesBalancedAllocation as v1.36.3 scores it:
// the change in the node's balance that placing the pod causes. The
// balance of a node is int64(100×(1−σ)), σ the standard deviation of its
// cpu and memory requested fractions (each capped at 1; a resource the node
// has none of is left out, and with fewer than two fractions σ is 0),
// counting requests as they are (not the non-zero defaults). The score is
// 50 + (50 + balance with the pod − balance without it) / 2 in integer
// arithmetic: 75 when the pod leaves the balance as it was, more when it
// improves it. Best-effort pods are not scored (PreScore Skip).
type balancedPlugin struct {
	basePlugin
	pod *api.Pod
	// requests are the incoming pod's (incomingPodRequests).
	requests *Resource
	cpu, mem int64
}

func newBalancedPlugin(p *PodInfo) balancedPlugin {
	return balancedPlugin{pod: p.pod, requests: &p.requests}
}

func (pl *balancedPlugin) name() string            { return PluginNodeResourcesBalancedAllocation }
func (pl *balancedPlugin) clone() cyclePlugin      { return pl }
func (pl *balancedPlugin) filter(*nodeView) Status { return Status{} }

// preFilter is Skip: the plugin only scores.
func (pl *balancedPlugin) preFilter() Status { return Status{Code: Skip} }

func (pl *balancedPlugin) preScore(feasible []*NodeInfo) Status {
	// The requests as they are: NodeResourcesFit's PreFilter computed them.
	pl.cpu, pl.mem = pl.requests.MilliCPU, pl.requests.Memory
	if pl.cpu == 0 && pl.mem == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

func (pl *balancedPlugin) score(n *NodeInfo) int64 {
	cpu, mem := n.requested.MilliCPU, n.requested.Memory
	with := balanceScore(satAdd(cpu, pl.cpu), n.allocatable.MilliCPU, satAdd(mem, pl.mem), n.allocatable.Memory)
	without := balanceScore(cpu, n.allocatable.MilliCPU, mem, n.allocatable.Memory)
	return balancedScore(with, without)
}

// balancedScore is 50 + (50 + with − without) / 2; balanceScore keeps
// both balances within [minBalance, 100], so this cannot overflow.
func balancedScore(with, without int64) int64 {
	return MaxNodeScore/2 + (MaxNodeScore/2+with-without)/2
}

// minBalance is the lowest balance balanceScore reports. A balance is at
// most 100 and goes below 0 only for negative requests (invalid objects);
// the floor keeps balancedScore's arithmetic within int64.
const minBalance = -(1 << 61)

// balanceScore is int64(100×(1−σ)) over the cpu and memory requested
// fractions (balancedResourceScore).
func balanceScore(cpu, cpuAlloc, mem, memAlloc int64) int64 {
	var fractions [2]float64
	k := 0
	add := func(req, alloc int64) {
		if alloc == 0 {
			return
		}
		f := float64(req) / float64(alloc)
		fractions[k] = min(f, 1)
		k++
	}
	add(cpu, cpuAlloc)
	add(mem, memAlloc)
	std := 0.0
	if k == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return max(api.SaturatingInt64((1-std)*float64(MaxNodeScore)), minBalance)
}
