package preemption

import (
	"math"
	"time"

	"github.com/podsem/podsem/scheduling"
)

// priorityShift is added to every victim's priority before summing, as
// pickOneNodeForPreemption does (MaxInt32+1), so that more victims never
// make a smaller sum, negative priorities included.
const priorityShift = int64(math.MaxInt32) + 1

// pickOneNode chooses among candidates as the preemption Evaluator's
// pickOneNodeForPreemption does, applying each rule only to the nodes
// still tied after the previous ones:
//
//  1. fewest PodDisruptionBudget violations;
//  2. lowest priority of the most important victim;
//  3. smallest sum of victim priorities, each shifted by 2^31;
//  4. fewest victims;
//  5. latest earliest start time among the highest-priority victims.
//
// It returns the index of the first best candidate in candidate order and
// the names of all best candidates (upstream picks among them by map
// iteration order, so any of them is upstream's answer).
func pickOneNode(candidates []Candidate, now time.Time) (int, []string) {
	rules := []func(c *Candidate) int64{
		func(c *Candidate) int64 { return -int64(c.PDBViolations) },
		func(c *Candidate) int64 { return -int64(scheduling.PodPriority(c.Victims[0])) },
		func(c *Candidate) int64 {
			var sum int64
			for _, v := range c.Victims {
				sum += int64(scheduling.PodPriority(v)) + priorityShift
			}
			return -sum
		},
		func(c *Candidate) int64 { return -int64(len(c.Victims)) },
		func(c *Candidate) int64 { return earliestTopStart(c, now) },
	}
	alive := make([]int, len(candidates))
	for i := range alive {
		alive[i] = i
	}
	for _, rule := range rules {
		if len(alive) == 1 {
			break
		}
		best := int64(math.MinInt64)
		kept := alive[:0:0]
		for _, i := range alive {
			s := rule(&candidates[i])
			if s > best {
				best = s
				kept = kept[:0]
			}
			if s == best {
				kept = append(kept, i)
			}
		}
		alive = kept
	}
	names := make([]string, len(alive))
	for k, i := range alive {
		names[k] = candidates[i].Node
	}
	return alive[0], names
}

// earliestTopStart is the earliest start time (Unix nanoseconds) among the
// candidate's victims of the highest priority (the scheduler's
// GetEarliestPodStartTime).
func earliestTopStart(c *Candidate, now time.Time) int64 {
	if len(c.Victims) == 0 {
		return math.MinInt64
	}
	top := scheduling.PodPriority(c.Victims[0])
	earliest := startNanos(c.Victims[0], now)
	for _, v := range c.Victims[1:] {
		p := scheduling.PodPriority(v)
		switch {
		case p == top:
			if s := startNanos(v, now); s < earliest {
				earliest = s
			}
		case p > top:
			top, earliest = p, startNanos(v, now)
		}
	}
	return earliest
}
