package scheduling

import "github.com/podsem/podsem/api"

// The read accessors below give what a pass over many of the snapshot's
// pods needs — a PostFilter plugin's dry run above all: DefaultPreemption
// ranks the pods by priority and start time, matches their labels against
// PodDisruptionBudgets once per LabelSet and reports them by name.
// Priority, StartUnixNano, HasLabels, Labels and LabelSet read the PodInfo
// alone, without touching the API object. A nil PodInfo, or one without a
// Pod, reads as a pod with nothing set.

// cacheFields records the fields the accessors read.
func (p *PodInfo) cacheFields() {
	p.prio = api.PodPriority(p.pod)
	p.labelled = len(p.pod.Labels) > 0
	p.started, p.startNanos = false, 0
	if st := p.pod.Status.StartTime; st != nil && !st.IsZero() {
		p.started, p.startNanos = true, st.UnixNano()
	}
}

// Priority returns the pod's spec.priority, 0 when unset (PodPriority) and
// for a nil PodInfo.
func (p *PodInfo) Priority() int32 {
	if p == nil {
		return 0
	}
	return p.prio
}

// StartUnixNano returns the pod's status.startTime in Unix nanoseconds
// (as time.Time.UnixNano gives it), and false when the start time is unset
// or the zero time, and for a nil PodInfo. It is there for PostFilter
// plugins that rank many pods as the scheduler's MoreImportantPod does
// (higher priority, then earlier start) without reading their API objects.
func (p *PodInfo) StartUnixNano() (nanos int64, ok bool) {
	if p == nil || !p.started {
		return 0, false
	}
	return p.startNanos, true
}

// Namespace returns the pod's metadata.namespace ("" for a nil PodInfo or
// one without a Pod).
func (p *PodInfo) Namespace() string {
	if p == nil || p.pod == nil {
		return ""
	}
	return p.pod.Namespace
}

// Name returns the pod's metadata.name ("" for a nil PodInfo or one
// without a Pod).
func (p *PodInfo) Name() string {
	if p == nil || p.pod == nil {
		return ""
	}
	return p.pod.Name
}

// Labels returns the pod's labels for selector matching; it allocates
// nothing. A pod without labels, and a nil PodInfo, give an empty set (not
// a nil Labels).
func (p *PodInfo) Labels() api.Labels {
	return (*podLabels)(p)
}

// LabelSet identifies a pod's labels within the snapshot, so that a
// caller matching many pods against the same selectors — a PostFilter
// plugin weighing PodDisruptionBudgets, say — can match each set once: pods with the same non-zero LabelSet are in the same namespace and
// carry the same labels (the snapshot shares one list among pods of a
// namespace with equal labels as it indexes them, though not always: pods
// with equal labels may have different LabelSets). A pod without labels,
// and a cycle's incoming pod, has the zero LabelSet, which identifies
// nothing.
type LabelSet struct{ first *labelPair }

// IsZero reports whether s is the zero LabelSet.
func (s LabelSet) IsZero() bool { return s.first == nil }

// LabelSet returns the pod's LabelSet (the zero one for a nil PodInfo).
func (p *PodInfo) LabelSet() LabelSet {
	if p == nil || len(p.labelPairs) == 0 {
		return LabelSet{}
	}
	return LabelSet{first: &p.labelPairs[0]}
}

// podLabels reads a PodInfo's sorted label pairs as api.Labels.
type podLabels PodInfo

// HasLabels reports whether the pod carries any label (false for a nil
// PodInfo).
func (p *PodInfo) HasLabels() bool { return p != nil && p.labelled }

func (l *podLabels) find(key string) (string, bool) {
	if l == nil || !l.labelled {
		return "", false
	}
	if l.labelPairs == nil {
		// The incoming pod of a cycle is not indexed by label.
		v, ok := l.pod.Labels[key]
		return v, ok
	}
	for _, lp := range l.labelPairs {
		if lp.key == key {
			return lp.value, true
		}
	}
	return "", false
}

func (l *podLabels) Has(key string) bool {
	_, ok := l.find(key)
	return ok
}

func (l *podLabels) Get(key string) string {
	v, _ := l.find(key)
	return v
}

// Pod returns the API object (nil for a nil PodInfo), as NodeInfo.Node
// returns its node. It must not be modified while in the snapshot.
func (p *PodInfo) Pod() *api.Pod {
	if p == nil {
		return nil
	}
	return p.pod
}
