package preemption

import (
	"fmt"
	"strings"
)

// Config tunes kube-scheduler's DefaultPreemption plugin. The zero value is
// Kubernetes v1.36.3's default: DefaultPreemptionArgs with
// minCandidateNodesPercentage 10 and minCandidateNodesAbsolute 100, and a
// dry run that starts at the first potential node.
//
// The exhaustive mode, for a caller who wants the best preemption rather
// than the best among a sample, is upstream's own setting
// minCandidateNodesPercentage 100:
//
//	preemption.Config{MinCandidateNodesPercentage: 100}
//
// The dry run then evaluates every potential node and keeps every
// candidate, so the result is the node choice over all of them; the
// offset no longer matters except for the order of Candidates (and so
// which of several tied nodes is reported first).
type Config struct {
	// MinCandidateNodesPercentage is DefaultPreemptionArgs'
	// minCandidateNodesPercentage: the share (0-100) of the potential
	// nodes the dry run must find candidates on before it stops early.
	// 0 means the default, 10; 100 dry-runs every potential node (the
	// exhaustive mode, see Config); outside [0, 100] is refused (see
	// Validate).
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

// Validate checks cfg as kube-scheduler's configuration validation checks
// DefaultPreemptionArgs (pkg/scheduler/apis/config/validation
// ValidateDefaultPreemptionArgs), with its field names and wording:
// minCandidateNodesPercentage must lie in [0, 100] and
// minCandidateNodesAbsolute must not be negative. Upstream also refuses
// both being zero; here a zero field means its default, so the zero Config
// is valid (it is v1.36.3's default arguments). Offset is not an upstream
// argument and any value is taken modulo the number of potential nodes.
// The error wraps api.ErrInvalidInput.
func (cfg Config) Validate() error {
	var errs []string
	if p := cfg.MinCandidateNodesPercentage; p < 0 || p > 100 {
		errs = append(errs, fmt.Sprintf("minCandidateNodesPercentage: Invalid value: %d: not in valid range [0, 100]", p))
	}
	if a := cfg.MinCandidateNodesAbsolute; a < 0 {
		errs = append(errs, fmt.Sprintf("minCandidateNodesAbsolute: Invalid value: %d: not in valid range [0, inf)", a))
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: config: %s", errInvalidInput, errs[0])
	}
	return fmt.Errorf("%w: config: [%s]", errInvalidInput, strings.Join(errs, ", "))
}
