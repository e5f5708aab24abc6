package scheduling

import "github.com/podsem/podsem/api"

// Filter runs the filter plugins for pod on every node of the snapshot, in
// index order, the way kube-scheduler's findNodesThatPassFilters does
// (without its sampling of a percentage of nodes): each node's result is
// Success or the status of the first plugin that rejected it, with
// upstream's reason text and, for NodeResourcesFit, the numbers. A
// PreFilter that rejects or fails gives every node that status. Pods
// nominated to a node with a priority at least the pod's are taken into
// account as the framework's addNominatedPods does.
//
// No node costs an allocation; the result slice is one allocation per
// call. A caller making many decisions keeps a slice and calls
// c.NewCycle(pod).FilterInto(results) instead.
func (c *Cluster) Filter(pod *api.Pod) []NodeResult {
	return c.NewCycle(pod).Filter()
}

// Filter runs the filters on every node (see Cluster.Filter).
func (cy *Cycle) Filter() []NodeResult {
	return cy.FilterInto(nil)
}

// FilterInto is Filter writing into dst's storage when it is large enough
// (dst's contents are overwritten), so that a caller scheduling pod after
// pod allocates the results once.
func (cy *Cycle) FilterInto(dst []NodeResult) []NodeResult {
	cy.runPreFilter()
	n := len(cy.c.nodes)
	if cap(dst) < n {
		dst = make([]NodeResult, n)
	}
	out := dst[:n]
	fast := cy.rejectAll == nil && cy.allQuick
	for i, ni := range cy.c.nodes {
		r := &out[i]
		r.Node, r.Index = ni.name, i
		if fast && cy.quickPass(ni) {
			r.Status = Status{}
			continue
		}
		r.Status = cy.filterNode(ni)
	}
	return out
}

// quickPass reports whether every active plugin's quick check passes on
// the node as it stands; it is only asked when every active plugin has one.
// Nodes with nominated pods take the full path.
func (cy *Cycle) quickPass(n *NodeInfo) bool {
	if len(cy.c.nominated) > 0 && len(cy.c.nominated[n.name]) > 0 {
		return false
	}
	cy.view.Info = n
	for _, q := range cy.quick {
		if !quickFits(q, &cy.view) {
			return false
		}
	}
	return true
}

// FilterNode runs the filters on one node.
func (cy *Cycle) FilterNode(n *NodeInfo) NodeResult {
	cy.runPreFilter()
	return NodeResult{Node: n.node.Name, Index: n.index, Status: cy.filterNode(n)}
}

func (cy *Cycle) filterNode(n *NodeInfo) Status {
	if cy.rejectAll != nil {
		return *cy.rejectAll
	}
	if len(cy.c.nominated) > 0 && len(cy.c.nominated[n.name]) > 0 {
		if nom := cy.nominatedFor(n); len(nom) > 0 {
			return cy.evaluate(cy.active, NodeView{Info: n}, nom)
		}
	}
	// The common case reuses one view so that no node costs an allocation,
	// and asks the plugins that can answer cheaply first.
	cy.view.Info = n
	for i, q := range cy.quick {
		if q != nil && quickFits(q, &cy.view) {
			continue
		}
		p := cy.active[i]
		if st := p.filter(&cy.view); st.Code != Success && st.Code != Skip {
			st.Plugin = p.name()
			return st
		}
	}
	return Status{}
}

// evaluate runs the filters on a node view, following the framework's
// RunFilterPluginsWithNominatedPods: when pods are nominated to the node,
// the pod must fit both with them added and without them.
func (cy *Cycle) evaluate(plugins []cyclePlugin, view NodeView, nom []*PodInfo) Status {
	if len(nom) == 0 {
		return runFilters(plugins, &view)
	}
	with := make([]cyclePlugin, len(plugins))
	for i, p := range plugins {
		with[i] = p.clone()
		for _, q := range nom {
			with[i].addPod(q, view.Info)
		}
	}
	withView := view
	withView.Added = append(append([]*PodInfo(nil), view.Added...), nom...)
	if st := runFilters(with, &withView); !st.IsSuccess() {
		return st
	}
	return runFilters(plugins, &view)
}

// runFilters runs the plugins' filters on one node view and returns the
// first rejection, or Success.
func runFilters(plugins []cyclePlugin, v *NodeView) Status {
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
	fits(v *NodeView) bool
}

// quickFits calls q.fits, naming the hot plugins so that their checks
// are called directly (and inlined) rather than through the interface.
func quickFits(q quickFilter, v *NodeView) bool {
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
	prio := cy.pod.Priority()
	for _, p := range cy.c.NominatedPods(n.node.Name) {
		if p.key == cy.pod.key || (p.Pod.UID != "" && p.Pod.UID == cy.pod.Pod.UID) {
			continue
		}
		if p.Priority() >= prio {
			out = append(out, p)
		}
	}
	return out
}

// WhatIf evaluates the incoming pod on one node with some of the node's
// pods removed (preemption victims) and other pods added, without copying
// the snapshot: the node's numbers are adjusted on the fly and the plugins'
// cycle state (counts over other pods, such as inter-pod affinity's) is
// cloned and updated, as the framework's PreFilterExtensions AddPod and
// RemovePod do. As in the framework, a plugin whose PreFilter said Skip is
// not revisited: adding a pod with required anti-affinity does not bring
// InterPodAffinity back for a pod it skipped. Build it with
// (*Cycle).WhatIf.
type WhatIf struct {
	cy      *Cycle
	view    NodeView
	plugins []cyclePlugin
}

// WhatIf starts a what-if evaluation of the cycle's pod on node n.
func (cy *Cycle) WhatIf(n *NodeInfo) *WhatIf {
	cy.runPreFilter()
	return cy.whatIf(n)
}

func (cy *Cycle) whatIf(n *NodeInfo) *WhatIf {
	w := &WhatIf{cy: cy, view: NodeView{Info: n}}
	w.plugins = make([]cyclePlugin, len(cy.active))
	for i, p := range cy.active {
		w.plugins[i] = p.clone()
	}
	return w
}

// RemovePod treats p (a pod bound to the node) as gone; removing a pod that
// AddPod added undoes the addition. nil, a pod of another node and a pod
// already removed are ignored.
func (w *WhatIf) RemovePod(p *PodInfo) {
	if p == nil {
		return
	}
	if i := indexOf(w.view.Added, p); i >= 0 {
		w.view.Added = append(w.view.Added[:i], w.view.Added[i+1:]...)
	} else if p.node != w.view.Info || indexOf(w.view.Removed, p) >= 0 {
		return
	} else {
		w.view.Removed = append(w.view.Removed, p)
	}
	for _, pl := range w.plugins {
		pl.removePod(p, w.view.Info)
	}
}

// AddPod treats p as bound to the node; adding back a pod that RemovePod
// removed undoes the removal (a reprieved victim). nil, a pod already on
// the node and a pod already added are ignored.
func (w *WhatIf) AddPod(p *PodInfo) {
	if p == nil {
		return
	}
	if i := indexOf(w.view.Removed, p); i >= 0 {
		w.view.Removed = append(w.view.Removed[:i], w.view.Removed[i+1:]...)
	} else if p.node == w.view.Info || indexOf(w.view.Added, p) >= 0 {
		return
	} else {
		w.view.Added = append(w.view.Added, p)
	}
	for _, pl := range w.plugins {
		pl.addPod(p, w.view.Info)
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
// node into account as Cycle.Filter does.
func (w *WhatIf) Filter() Status {
	if w.cy.rejectAll != nil {
		return *w.cy.rejectAll
	}
	return w.cy.evaluate(w.plugins, w.view, w.cy.nominatedFor(w.view.Info))
}

// Pod returns the snapshot's PodInfo for an API pod on the node, for use
// with RemovePod; nil when the pod is not on the node.
func (w *WhatIf) Pod(namespace, name string) *PodInfo {
	p := w.cy.c.Pod(namespace, name)
	if p == nil || p.node != w.view.Info {
		return nil
	}
	return p
}
