package api

// FindUntoleratedTaint returns the first of taints, in order, that none of
// tols tolerates (Toleration.ToleratesTaint), looking only at taints with
// one of the given effects (every taint when none is given) — the rule of
// core/v1 helper FindMatchingUntoleratedTaint with an effect filter, as
// the scheduler's TaintToleration filter, the kubelet's admission and the
// DaemonSet controller apply it. ok is false when every such taint is
// tolerated.
func FindUntoleratedTaint(taints []Taint, tols []Toleration, effects ...TaintEffect) (taint Taint, ok bool) {
	for i := range taints {
		t := &taints[i]
		if len(effects) > 0 && !hasEffect(effects, t.Effect) {
			continue
		}
		if !TolerationsTolerateTaint(tols, t) {
			return *t, true
		}
	}
	return Taint{}, false
}

// TolerationsTolerateTaint reports whether any of tols tolerates taint
// (core/v1 helper TolerationsTolerateTaint); a nil taint is tolerated by
// none.
func TolerationsTolerateTaint(tols []Toleration, taint *Taint) bool {
	if taint == nil {
		return false
	}
	for i := range tols {
		if tols[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

func hasEffect(effects []TaintEffect, e TaintEffect) bool {
	for _, x := range effects {
		if x == e {
			return true
		}
	}
	return false
}
