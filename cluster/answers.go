package cluster

import (
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
)

// Answers are what operators ask of a run besides its event log, computed
// from the objects' changes between t=0 and until: per pod, where it ran
// and for how long it was unavailable; per PodDisruptionBudget, how long
// it held evictions up; per Service, its ready endpoints over time. Every
// time is an offset from t=0.
type Answers struct {
	// Pods has one entry per pod that existed at some point between t=0
	// and until, by namespace/name, then by creation (a StatefulSet's
	// db-1 recreated is two entries).
	Pods []PodFate
	// Budgets has one entry per PodDisruptionBudget that refused at least
	// one eviction (429), by namespace/name.
	Budgets []BudgetHold
	// Services has one entry per Service whose pods the EndpointSlice
	// controller selects (package endpointslice), by namespace/name.
	Services []ServiceEndpoints
}

// PodFate is one pod's life between t=0 and until.
type PodFate struct {
	// Pod is namespace/name; Owner the Kind/name of its controller ("" for
	// a bare pod).
	Pod   string
	Owner string
	// Node is the node it was bound to ("" if never bound).
	Node string
	// Created is when the API server created it: for a pod created after
	// t=0 the instant of its creation, for one there at t=0 its
	// creationTimestamp (whole seconds, as the API server stores it;
	// negative: before t=0). AtStart reports that it existed at t=0.
	Created time.Duration
	AtStart bool
	// Terminating is when it got its deletionTimestamp, Gone when the API
	// server removed it; each is meaningful only when its flag is set.
	Terminating   time.Duration
	IsTerminating bool
	Gone          time.Duration
	IsGone        bool
	// Ready is the time it was available (Ready condition True and not
	// terminating) within [t=0, until]; Unavailable the rest of the time
	// it existed in that window.
	Ready       time.Duration
	Unavailable time.Duration
}

// BudgetHold is how long a PodDisruptionBudget held evictions up: the
// union over the pods it refused of the time from the first refusal (429)
// of a pod's eviction until the pod started terminating, was removed, or
// the run ended.
type BudgetHold struct {
	// Budget is namespace/name.
	Budget string
	// Refusals counts the 429 answers; Pods the pods refused, sorted.
	Refusals int
	Pods     []string
	// First is the first refusal; Held the total time held up.
	First time.Duration
	Held  time.Duration
}

// ServiceEndpoints is a Service's ready endpoints over time.
type ServiceEndpoints struct {
	// Service is namespace/name.
	Service string
	// Changes lists each change of the set of ready endpoints, the first
	// at t=0.
	Changes []EndpointsAt
}

// EndpointsAt is a Service's ready endpoints from an instant on: the pods
// whose endpoint has the condition ready (endpointslice.Conditions).
type EndpointsAt struct {
	At    time.Duration
	Ready []string
}

// answers accumulates Answers from the watch events the informers
// receive.
type answers struct {
	t0    time.Time
	pods  map[string]*podTrack // by uid
	order []string             // uids, in first-seen order
	svcs  map[string]*ServiceEndpoints
}

type podTrack struct {
	fate       PodFate
	readySince time.Time // zero: not available now
}

func newAnswers(m *Machine, t0 time.Time) *answers {
	a := &answers{t0: t0, pods: map[string]*podTrack{}, svcs: map[string]*ServiceEndpoints{}}
	for _, o := range m.cache.list("Pod") {
		a.pod(o.(*api.Pod), false, t0)
	}
	for _, t := range a.pods {
		t.fate.AtStart = true
		t.fate.Created = min(t.fate.Created, 0)
	}
	for _, o := range m.cache.list("Service") {
		a.service(m, o.(*api.Service), t0)
	}
	return a
}

func available(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && api.IsPodReady(p)
}

// pod records a pod as it now is (gone: removed).
func (a *answers) pod(p *api.Pod, gone bool, now time.Time) {
	t := a.pods[string(p.UID)]
	if t == nil {
		// A pod first seen after t=0 was created at that instant (its
		// creationTimestamp is truncated to the second); those there at
		// t=0 are marked by newAnswers.
		created := now.Sub(a.t0)
		if created <= 0 {
			created = p.CreationTimestamp.Time.Sub(a.t0)
		}
		t = &podTrack{fate: PodFate{Pod: p.Namespace + "/" + p.Name, Created: created}}
		if r := p.ControllerRef(); r != nil {
			t.fate.Owner = r.Kind + "/" + r.Name
		}
		a.pods[string(p.UID)] = t
		a.order = append(a.order, string(p.UID))
	}
	f := &t.fate
	if p.Spec.NodeName != "" {
		f.Node = p.Spec.NodeName
	}
	if p.DeletionTimestamp != nil && !f.IsTerminating {
		f.IsTerminating, f.Terminating = true, now.Sub(a.t0)
	}
	if gone {
		f.IsGone, f.Gone = true, now.Sub(a.t0)
	}
	up := !gone && available(p)
	switch {
	case up && t.readySince.IsZero():
		t.readySince = now
	case !up && !t.readySince.IsZero():
		f.Ready += now.Sub(t.readySince)
		t.readySince = time.Time{}
	}
}

// service recomputes svc's ready endpoints at now.
func (a *answers) service(m *Machine, svc *api.Service, now time.Time) {
	key := svc.Namespace + "/" + svc.Name
	pods := inNamespace[*api.Pod](m.cache, "Pod", svc.Namespace)
	nodes := listed[*api.Node](m.cache, "Node")
	res, err := endpointslice.Endpoints(svc, pods, nodes)
	if err != nil || !res.Managed {
		return
	}
	var ready []string
	for _, s := range res.Slices {
		for _, e := range s.Endpoints {
			if e.Conditions.Ready != nil && *e.Conditions.Ready {
				ready = append(ready, e.TargetRef.Name)
			}
		}
	}
	slices.Sort(ready)
	ready = slices.Compact(ready)
	se := a.svcs[key]
	if se == nil {
		se = &ServiceEndpoints{Service: key}
		a.svcs[key] = se
	}
	if n := len(se.Changes); n > 0 && slices.Equal(se.Changes[n-1].Ready, ready) {
		return
	}
	se.Changes = append(se.Changes, EndpointsAt{At: now.Sub(a.t0), Ready: ready})
}

// observe is one watch event reaching the informers at now.
func (a *answers) observe(m *Machine, w watchEvent, now time.Time) {
	switch o := w.Object.(type) {
	case *api.Pod:
		a.pod(o, w.Type == watchDeleted, now)
		for _, svc := range inNamespace[*api.Service](m.cache, "Service", o.Namespace) {
			a.service(m, svc, now)
		}
	case *api.Node:
		for _, so := range m.cache.list("Service") {
			a.service(m, so.(*api.Service), now)
		}
	case *api.Service:
		if w.Type != watchDeleted {
			a.service(m, o, now)
		}
	}
}

// result closes every open interval at until and derives the budgets'
// holds from the log's EvictionRefused records.
func (a *answers) result(log []Record, until time.Time) Answers {
	var out Answers
	end := until.Sub(a.t0)
	terminating := map[string]time.Duration{} // pod key -> when it stopped being evictable
	for _, uid := range a.order {
		t := a.pods[uid]
		f := t.fate
		if !t.readySince.IsZero() {
			f.Ready += until.Sub(t.readySince)
		}
		from, to := max(f.Created, 0), end
		if f.IsGone {
			to = f.Gone
		}
		if to > from {
			f.Unavailable = max(to-from-f.Ready, 0)
		}
		if f.IsTerminating {
			if _, ok := terminating[f.Pod]; !ok {
				terminating[f.Pod] = f.Terminating
			}
		}
		out.Pods = append(out.Pods, f)
	}
	slices.SortStableFunc(out.Pods, func(x, y PodFate) int { return strings.Compare(x.Pod, y.Pod) })

	type interval struct{ from, to time.Duration }
	holds := map[string]*BudgetHold{}
	spans := map[string][]interval{}
	open := map[string]bool{} // budget|pod with an open interval
	for _, r := range log {
		if r.Reason != "EvictionRefused" || r.Source != SourcePodsem {
			continue
		}
		budget, _, ok := strings.Cut(strings.TrimPrefix(r.Message, "budget "), ":")
		if !ok {
			continue
		}
		pod := strings.TrimPrefix(r.Object, "Pod/")
		at := time.Duration(r.Offset * float64(time.Second))
		h := holds[budget]
		if h == nil {
			h = &BudgetHold{Budget: budget, First: at}
			holds[budget] = h
		}
		h.Refusals++
		if !slices.Contains(h.Pods, pod) {
			h.Pods = append(h.Pods, pod)
		}
		if open[budget+"|"+pod] {
			continue
		}
		open[budget+"|"+pod] = true
		to := end
		if t, ok := terminating[pod]; ok && t >= at {
			to = t
		}
		spans[budget] = append(spans[budget], interval{at, to})
	}
	for b, h := range holds {
		iv := spans[b]
		slices.SortFunc(iv, func(x, y interval) int { return int(x.from - y.from) })
		var cur interval
		for i, s := range iv {
			if i == 0 || s.from > cur.to {
				h.Held += cur.to - cur.from
				cur = s
			} else if s.to > cur.to {
				cur.to = s.to
			}
		}
		h.Held += cur.to - cur.from
		slices.Sort(h.Pods)
		out.Budgets = append(out.Budgets, *h)
	}
	slices.SortFunc(out.Budgets, func(x, y BudgetHold) int { return strings.Compare(x.Budget, y.Budget) })
	for _, se := range a.svcs {
		out.Services = append(out.Services, *se)
	}
	slices.SortFunc(out.Services, func(x, y ServiceEndpoints) int { return strings.Compare(x.Service, y.Service) })
	return out
}
