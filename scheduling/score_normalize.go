package scheduling

// defaultNormalizeScore scales scores to 0..maxScore relative to the
// highest one, reversed if asked (framework helper DefaultNormalizeScore,
// integer arithmetic as upstream). When every score is 0 they stay 0, or
// all become maxScore when reversed.
func defaultNormalizeScore(maxScore int64, reverse bool, scores []int64) {
	var highest int64
	for _, s := range scores {
		if s > highest {
			highest = s
		}
	}
	if highest == 0 {
		if reverse {
			for i := range scores {
				scores[i] = maxScore
			}
		}
		return
	}
	for i, s := range scores {
		s = maxScore * s / highest
		if reverse {
			s = maxScore - s
		}
		scores[i] = s
	}
}
