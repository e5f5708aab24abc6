package preemption

import "math"

// priorityShift is added to every victim's priority before summing, as
// pickOneNodeForPreemption does (MaxInt32+1), so that more victims never
// make a smaller sum, negative priorities included.
const priorityShift = int64(math.MaxInt32) + 1

// ranking is what the node choice compares of one candidate, computed
// from its victims once, when the dry run finds it; every field is
// oriented so that larger is better.
type ranking [5]int64

// rankCandidate computes the ranking of a candidate with the given
// victims (most important first, as the dry run's keys, whose start times
// are startNanos's) and budget violations.
func rankCandidate(victims []importance, violations int) ranking {
	var sum int64
	for _, v := range victims {
		sum += int64(v.prio) + priorityShift
	}
	top := int64(math.MinInt64)
	if len(victims) > 0 {
		top = -int64(victims[0].prio)
	}
	return ranking{-int64(violations), top, -sum, -int64(len(victims)), earliestTopStart(victims)}
}

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
// ranks holds each candidate's ranking (rankCandidate). It returns the
// index of the first best candidate in candidate order and the names of
// all best candidates (upstream picks among them by map iteration order,
// so any of them is upstream's answer).
func pickOneNode(candidates []Candidate, ranks []ranking) (int, []string) {
	alive := make([]int, len(candidates))
	for i := range alive {
		alive[i] = i
	}
	for rule := range len(ranking{}) {
		if len(alive) == 1 {
			break
		}
		best := int64(math.MinInt64)
		kept := 0
		for _, i := range alive {
			s := ranks[i][rule]
			if s > best {
				best = s
				kept = 0
			}
			if s == best {
				alive[kept] = i
				kept++
			}
		}
		alive = alive[:kept]
	}
	names := make([]string, len(alive))
	for k, i := range alive {
		names[k] = candidates[i].Node
	}
	return alive[0], names
}

// earliestTopStart is the earliest start time (Unix nanoseconds) among the
// victims of the highest priority (the scheduler's
// GetEarliestPodStartTime).
func earliestTopStart(victims []importance) int64 {
	if len(victims) == 0 {
		return math.MinInt64
	}
	top, earliest := victims[0].prio, victims[0].start
	for _, v := range victims[1:] {
		switch {
		case v.prio == top:
			earliest = min(earliest, v.start)
		case v.prio > top:
			top, earliest = v.prio, v.start
		}
	}
	return earliest
}
