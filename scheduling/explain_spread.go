package scheduling

// SpreadSkew is what one DoNotSchedule topology spread constraint of the
// pod sees on one node, as PodTopologySpread's Filter computes it
// (pkg/scheduler/framework/plugins/podtopologyspread): the node's domain,
// the pods matching the constraint's selector there, the global minimum
// over the eligible domains, and the skew the domain would have with the
// pod placed on the node. The node passes the constraint when Skew ≤
// MaxSkew; a node without the topology key never does.
type SpreadSkew struct {
	// TopologyKey is the constraint's topologyKey; Domain is the node's
	// value for it, "" when the node lacks the key (Missing).
	TopologyKey string
	Domain      string
	Missing     bool
	// Matching counts the pods the selector matches in Domain, on the
	// nodes the constraint's inclusion policies keep.
	Matching int
	// Min is the smallest matching count over the eligible domains, or 0
	// while fewer than minDomains domains are eligible.
	Min int
	// Skew is Matching - Min, plus one when the pod matches its own
	// selector: the domain's skew once the pod is placed.
	Skew int
	// MaxSkew is the constraint's maxSkew.
	MaxSkew int32
}

// spreadSkews returns, for node index n, one SpreadSkew per DoNotSchedule
// constraint of the cycle's pod, or nil when the pod has none or the
// plugin's PreFilter did not succeed.
func (cy *Cycle) spreadSkews(n int) []SpreadSkew {
	for _, p := range cy.active {
		pl, ok := p.(*spreadPlugin)
		if !ok || !pl.hardOK {
			continue
		}
		out := make([]SpreadSkew, len(pl.hs))
		labels := cy.c.nodes[n].Node().Labels
		for i := range pl.hs {
			h, c := &pl.hs[i], &pl.hard[i]
			s := SpreadSkew{TopologyKey: c.key, MaxSkew: c.maxSkew}
			// The limit is maxSkew + min - self (see setLimit).
			self := 0
			if c.selfMatch {
				self = 1
			}
			s.Min = h.limit - int(c.maxSkew) + self
			if d := h.ids[n]; d < 0 {
				s.Missing = true
			} else {
				s.Domain = labels[c.key]
				s.Matching = int(h.count(d))
				s.Skew = s.Matching + self - s.Min
			}
			out[i] = s
		}
		return out
	}
	return nil
}
