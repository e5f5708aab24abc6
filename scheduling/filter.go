package scheduling

import "fmt"

// evaluate runs the filters on a node view, following the framework's
// RunFilterPluginsWithNominatedPods: when pods are nominated to the node,
// the pod must fit both with them added and without them.
//
// view is read, never kept or changed; taking it by pointer keeps a
// what-if's repeated filter runs (preemption's reprieves) from copying it
// to the heap on every call.
func (cy *Cycle) evaluate(plugins []cyclePlugin, view *nodeView, nom []*PodInfo) Status {
	if len(nom) == 0 {
		return runFilters(plugins, view)
	}
	with := make([]cyclePlugin, len(plugins))
	for i, p := range plugins {
		with[i] = p.clone()
		for _, q := range nom {
			with[i].addPod(q, view.info)
		}
	}
	withView := *view
	withView.added = append(append([]*PodInfo(nil), view.added...), nom...)
	if st := runFilters(with, &withView); !st.IsSuccess() {
		return st
	}
	return runFilters(plugins, view)
}

// runFilters runs the plugins' filters on one node view and returns the
// first rejection, or Success.
func runFilters(plugins []cyclePlugin, v *nodeView) Status {
	for _, p := range plugins {
		if q, ok := p.(quickFilter); ok && q.fits(v) {
			continue
		}
		st := p.filter(v)
		if st.Code != Success && st.Code != Skip {
			st.Plugin = p.name()
			return st
		}
	}
	return Status{}
}

// quickFilter is implemented by plugins that can say cheaply that a node
// passes; filter (with its reasons) then only runs for the others.
type quickFilter interface {
	fits(v *nodeView) bool
}

// quickFits calls q.fits, naming the hot plugins so that their checks
// are called directly (and inlined) rather than through the interface.
func quickFits(q quickFilter, v *nodeView) bool {
	switch p := q.(type) {
	case *fitPlugin:
		return p.fits(v)
	case *nodeAffinityPlugin:
		return p.fits(v)
	case *taintPlugin:
		return p.fits(v)
	case *nodeUnschedulablePlugin:
		return p.fits(v)
	case *nodeNamePlugin:
		return p.fits(v)
	case *spreadPlugin:
		return p.fits(v)
	}
	return q.fits(v)
}

// nominatedFor returns the pods nominated to n that the framework adds when
// evaluating the incoming pod there: those of priority at least the pod's,
// other than the pod itself.
func (cy *Cycle) nominatedFor(n *NodeInfo) []*PodInfo {
	if len(cy.c.nominated[n.node.Name]) == 0 {
		return nil // the common case: nothing to sort or copy
	}
	var out []*PodInfo
	for _, p := range cy.c.NominatedPods(n.node.Name) {
		if cy.seesNominated(p) {
			out = append(out, p)
		}
	}
	return out
}

// seesNominated reports whether the framework adds p, a pod nominated to
// a node, when evaluating the incoming pod there: p is not the pod itself
// (by key or UID) and its priority is at least the pod's.
func (cy *Cycle) seesNominated(p *PodInfo) bool {
	if p.key == cy.pod.key || (p.pod.UID != "" && p.pod.UID == cy.pod.pod.UID) {
		return false
	}
	return p.priority() >= cy.pod.priority()
}

// WhatIf evaluates the incoming pod on one node with some of the node's
// pods removed (preemption victims) and other pods added, without copying
// the snapshot: the node's numbers are adjusted on the fly and the plugins'
// cycle state (counts over other pods, such as inter-pod affinity's) is
// cloned and updated, as the framework's PreFilterExtensions AddPod and
// RemovePod do; this is the dry run of kube-scheduler's preemption
// (SelectVictimsOnNode). As in the framework, a plugin whose PreFilter
// said Skip is not revisited: adding a pod with required anti-affinity
// does not bring InterPodAffinity back for a pod it skipped. Build it with
// (*Cycle).WhatIf; with nothing removed or added, Filter is the node's
// verdict as it stands.
type WhatIf struct {
	cy      *Cycle
	view    nodeView
	plugins []cyclePlugin
}

// WhatIf starts a what-if evaluation of the cycle's pod on node n, a node
// of the cycle's snapshot. A nil Cycle or node gives a nil WhatIf, whose
// Filter reports an Error status.
func (cy *Cycle) WhatIf(n *NodeInfo) *WhatIf {
	if cy == nil || n == nil {
		return nil
	}
	cy.runPreFilter()
	w := &WhatIf{cy: cy, view: nodeView{info: n}}
	w.plugins = make([]cyclePlugin, len(cy.active))
	for i, p := range cy.active {
		w.plugins[i] = p.clone()
	}
	return w
}

// Reset makes w a fresh what-if on node n of the same cycle, nothing
// removed or added, as w's cycle's WhatIf(n) would return, but in w's own
// storage: a caller that tries node after node (preemption's dry runs)
// allocates nothing per node. A nil WhatIf or node is an error wrapping
// api.ErrInvalidInput, and w is left as it was.
func (w *WhatIf) Reset(n *NodeInfo) error {
	if w == nil {
		return fmt.Errorf("%w: what-if: nil (no cycle or node)", errInvalidInput)
	}
	if n == nil {
		return fmt.Errorf("%w: what-if: reset to node: nil", errInvalidInput)
	}
	w.view = nodeView{info: n, removed: w.view.removed[:0], added: w.view.added[:0]}
	if cap(w.plugins) < len(w.cy.active) {
		w.plugins = make([]cyclePlugin, len(w.cy.active))
	}
	w.plugins = w.plugins[:len(w.cy.active)]
	for i, p := range w.cy.active {
		if r, ok := p.(recloner); ok {
			w.plugins[i] = r.reclone(w.plugins[i])
		} else {
			w.plugins[i] = p.clone()
		}
	}
	return nil
}

// recloner is implemented by the plugins whose clone allocates: reclone
// returns a clone of the plugin, built in prev when prev is an earlier
// clone of it (else afresh).
type recloner interface {
	reclone(prev cyclePlugin) cyclePlugin
}

// RemovePod treats p (a pod bound to the node) as gone; removing a pod that
// AddPod added undoes the addition. nil, a pod of another node and a pod
// already removed are ignored, as is any pod on a nil WhatIf.
func (w *WhatIf) RemovePod(p *PodInfo) {
	if w == nil || p == nil {
		return
	}
	if i := indexOf(w.view.added, p); i >= 0 {
		w.view.added = append(w.view.added[:i], w.view.added[i+1:]...)
	} else if p.node != w.view.info || indexOf(w.view.removed, p) >= 0 {
		return
	} else {
		w.view.removed = append(w.view.removed, p)
	}
	for _, pl := range w.plugins {
		pl.removePod(p, w.view.info)
	}
}

// AddPod treats p as bound to the node; adding back a pod that RemovePod
// removed undoes the removal (a reprieved victim). nil, a pod already on
// the node and a pod already added are ignored, as is any pod on a nil
// WhatIf.
func (w *WhatIf) AddPod(p *PodInfo) {
	if w == nil || p == nil {
		return
	}
	if i := indexOf(w.view.removed, p); i >= 0 {
		w.view.removed = append(w.view.removed[:i], w.view.removed[i+1:]...)
	} else if p.node == w.view.info || indexOf(w.view.added, p) >= 0 {
		return
	} else {
		w.view.added = append(w.view.added, p)
	}
	for _, pl := range w.plugins {
		pl.addPod(p, w.view.info)
	}
}

func indexOf(list []*PodInfo, p *PodInfo) int {
	for i, q := range list {
		if q == p {
			return i
		}
	}
	return -1
}

// Filter runs the filters under the what-if, taking pods nominated to the
// node into account as Decide does: Success, or the status of the first
// plugin that rejects the pod there. A nil WhatIf gives an Error status
// whose Err wraps api.ErrInvalidInput.
func (w *WhatIf) Filter() Status {
	if w == nil {
		err := fmt.Errorf("%w: what-if: nil (no cycle or node)", errInvalidInput)
		return Status{Code: Error, Err: err}
	}
	if w.cy.rejectAll != nil {
		return *w.cy.rejectAll
	}
	return w.cy.evaluate(w.plugins, &w.view, w.cy.nominatedFor(w.view.info))
}

// Pod returns the snapshot's PodInfo for an API pod on the node, for use
// with RemovePod; nil when the pod is not on the node, and on a nil
// WhatIf.
func (w *WhatIf) Pod(namespace, name string) *PodInfo {
	if w == nil {
		return nil
	}
	p := w.cy.c.pods[namespace+"/"+name]
	if p == nil || p.node != w.view.info {
		return nil
	}
	return p
}
