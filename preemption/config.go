package preemption

import "time"

// Config tunes kube-scheduler's DefaultPreemption plugin. The zero value is
// Kubernetes v1.36.3's default: DefaultPreemptionArgs with
// minCandidateNodesPercentage 10 and minCandidateNodesAbsolute 100, a dry
// run that starts at the first potential node, and pods without a
// status.startTime treated as started after every pod that has one.
type Config struct {
	// MinCandidateNodesPercentage is DefaultPreemptionArgs'
	// minCandidateNodesPercentage: the share (0-100) of the potential
	// nodes the dry run must find candidates on before it stops early.
	// 0 means the default, 10.
	MinCandidateNodesPercentage int32
	// MinCandidateNodesAbsolute is DefaultPreemptionArgs'
	// minCandidateNodesAbsolute: the least number of candidates the dry
	// run looks for (never more than there are potential nodes). 0 means
	// the default, 100.
	MinCandidateNodesAbsolute int32
	// Offset is the index among the potential nodes (taken modulo their
	// number) at which the dry run starts. Upstream draws it at random for
	// every attempt (rand.Int31n), which only matters when the dry run
	// stops early, that is with more potential nodes than the number of
	// candidates it looks for; callers wanting upstream's spread pass
	// their own random number.
	Offset int
	// Now is the time a pod without status.startTime is taken to have
	// started (upstream reads the clock at each comparison). The zero value
	// treats such a pod as started after every pod that has a start time.
	Now time.Time
}

// The defaults of DefaultPreemptionArgs in kube-scheduler v1.36.3.
const (
	DefaultMinCandidateNodesPercentage int32 = 10
	DefaultMinCandidateNodesAbsolute   int32 = 100
)

// NumCandidates is how many candidate nodes the dry run looks for among
// numNodes potential nodes, as DefaultPreemption's calculateNumCandidates
// computes it: the configured percentage of numNodes (rounded down), at
// least the configured absolute number, at most numNodes.
func (cfg Config) NumCandidates(numNodes int) int {
	pct := cfg.MinCandidateNodesPercentage
	if pct <= 0 {
		pct = DefaultMinCandidateNodesPercentage
	}
	abs := cfg.MinCandidateNodesAbsolute
	if abs <= 0 {
		abs = DefaultMinCandidateNodesAbsolute
	}
	n := int64(numNodes) * int64(pct) / 100
	if n < int64(abs) {
		n = int64(abs)
	}
	if n > int64(numNodes) {
		n = int64(numNodes)
	}
	return int(n)
}
