package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/record"
)

// Record is one line of the event log, in the JSON form the e2e harness
// records a real control plane's run in (../shared/e2e, recorder.go), so
// the two logs compare line by line: an Event a component recorded
// (Source "event"), a watched object's summary changing (Source "watch"),
// a kubectl drain line (Source "kubectl") or a scenario marker (Source
// "scenario").
type Record struct {
	// Offset is the time since t=0 in seconds, millisecond precision.
	Offset float64 `json:"offset"`
	// Time is the record's time, RFC 3339.
	Time string `json:"time"`
	// Component is the recording component (default-scheduler, kubelet,
	// replicaset-controller, ...), "watch" for a watch record, "scenario"
	// for a scenario marker.
	Component string `json:"component"`
	// Type is Normal or Warning for an event; ADDED, MODIFIED or DELETED
	// for a watch record.
	Type string `json:"type"`
	// Reason is the event's reason (Scheduled, SuccessfulCreate,
	// Killing, ...), or Kind+Added/Modified/Deleted for a watch record.
	Reason string `json:"reason"`
	// Object is Kind/namespace/name, or Kind/name for a cluster-scoped
	// object.
	Object string `json:"object"`
	// Message is the event's message, or a watch record's summary (the
	// object's summary fields, or "field: old -> new" for a change).
	Message string `json:"message"`
	// Count is an event's count: 1 for a new Event, more for a repeat
	// (core/v1 recorders' count, package record's Correlator) or a
	// series (events.k8s.io recorders' series count, record.Series).
	Count int32 `json:"count,omitempty"`
	// Source says what the record comes from: event, watch, kubectl,
	// scenario.
	Source string `json:"source"`

	at time.Time // the record's time, for offsets from a t=0 fixed later
}

// The record sources.
const (
	SourceEvent    = "event"
	SourceWatch    = "watch"
	SourceKubectl  = "kubectl"
	SourceScenario = "scenario"
)

// WriteJSON writes records as JSON lines, one object per line, in order.
func WriteJSON(w io.Writer, records []Record) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range records {
		if err := enc.Encode(&records[i]); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// offset is now - t0 in seconds, millisecond precision.
func offset(now, t0 time.Time) float64 {
	return float64(now.Sub(t0).Milliseconds()) / 1000
}

// String is the record as one readable timeline line.
func (r Record) String() string {
	return fmt.Sprintf("%8.3fs %-22s %-8s %-18s %s %s", r.Offset, r.Component, r.Type, r.Reason, r.Object, r.Message)
}

// objRef is the record's object: Kind/namespace/name or Kind/name.
func objRef(kind, namespace, name string) string {
	if namespace == "" {
		return kind + "/" + name
	}
	return kind + "/" + namespace + "/" + name
}

// recorder turns what happened into records, stamped with the time.
type recorder struct {
	start time.Time
	out   []Record
	// last holds each watched object's last summary, by uid (the store
	// gives every object its own), or for an object without one by
	// "\x00Kind/namespace/name".
	last map[string]*watched
	// reasons are the watch records' reasons by kind (watchReason).
	reasons map[string]*[3]string
	// strs interns the summaries' built texts.
	strs interner
	// stamped is the instant whose offset and text stamp and text hold
	// (the records of a step share theirs).
	stamped time.Time
	stamp   string
	off     float64
	// correlators are the core/v1 event recorders' correlators, by
	// component and host; host names an event's source host (the node of
	// a kubelet's event).
	correlators map[string]*record.Correlator
	host        func(e *api.Event) string
	// refused reports whether the API server refuses to create an Event
	// in a namespace (NamespaceLifecycle: it is being deleted).
	refused    func(namespace string) bool
	refusedIDs map[refusedKey]bool
	// correlate steps a correlator (the Machine's stepMachine, so that
	// the shadow check twins it).
	correlate func(key string, c *record.Correlator, in record.Input, now time.Time) (record.Output, error)
	// series are the events.k8s.io recorders (kube-scheduler's), by
	// component, started at seriesStart (the cluster's start); seriesStep
	// steps one (through stepMachine).
	series      map[string]*record.Series
	seriesStart time.Time
	seriesStep  func(component string, s *record.Series, in record.SeriesInput, now time.Time) (record.SeriesOutput, error)
}

func (r *recorder) add(now time.Time, rec Record) {
	if !now.Equal(r.stamped) || r.stamp == "" {
		r.stamped, r.stamp, r.off = now, now.UTC().Format(time.RFC3339Nano), offset(now, r.start)
	}
	rec.at = now
	rec.Offset = r.off
	rec.Time = r.stamp
	r.out = append(r.out, rec)
}

// take returns the records made since the last take, in a slice of
// their own (nil when none), and keeps the buffer for the next step's
// records, so that a step's records are copied once instead of the
// buffer growing from empty at every step.
func (r *recorder) take() []Record {
	if len(r.out) == 0 {
		return nil
	}
	out := slices.Clone(r.out)
	if cap(r.out) > maxKeptRecords {
		r.out = nil // a burst's buffer (a large setup) is not kept
	} else {
		clear(r.out)
		r.out = r.out[:0]
	}
	return out
}

// maxKeptRecords bounds the record buffer take keeps (2.5 MB).
const maxKeptRecords = 1 << 14

// event records an api.Event a component returned. An Event of a
// component that records through client-go's core/v1 recorder (every one
// but kube-scheduler) first goes through its recorder's correlator
// (record.Correlator: one per component and host): it may be dropped by
// the spam filter, come with a count above 1, or be combined with similar
// ones. kube-scheduler's Events (events.k8s.io: they set an action) go
// through its recorder's series (record.Series), which writes a repeat
// once with count 2 and later counts only at its periodic passes
// (tickSeries).
func (r *recorder) event(now time.Time, e *api.Event) {
	if e == nil {
		return
	}
	if e.Action != "" {
		r.stepSeries(e.Source, record.SeriesInput{Event: e}, now)
		return
	}
	rg := e.Regarding
	msg, count := e.Note, int32(1)
	host := ""
	if r.host != nil {
		host = r.host(e)
	}
	key := e.Source + "\x00" + host
	c := r.correlators[key]
	if c == nil {
		if r.correlators == nil {
			r.correlators = map[string]*record.Correlator{}
		}
		c = record.NewCorrelator()
		r.correlators[key] = c
	}
	in := record.Input{Event: *e, Host: host}
	var out record.Output
	var err error
	if r.correlate != nil {
		out, err = r.correlate(key, c, in, now)
	} else {
		out, err = c.Step(in, now)
	}
	if err == nil {
		if out.Skip {
			return
		}
		msg, count = out.Event.Note, out.Count
	}
	if r.refusedEvent(key, e, count) {
		return
	}
	r.add(now, Record{Component: e.Source, Type: e.Type, Reason: e.Reason,
		Object: objRef(rg.Kind, rg.Namespace, rg.Name), Message: msg, Count: count, Source: SourceEvent})
}

// stepSeries steps component's events.k8s.io recorder and records its
// writes that raise an Event's count, as the harness prints them (a
// periodic pass's write of an unchanged count is not a new line).
// refusedEvent reports whether the API server refuses the write of e
// (the count'th of its kind from the recorder key): a new Event in a
// namespace being deleted is refused (NamespaceLifecycle), and so is each
// later count of one whose create was refused (the patch finds no Event,
// the create that follows is refused again). A count of an Event created
// before goes through.
func (r *recorder) refusedEvent(key string, e *api.Event, count int32) bool {
	if r.refused == nil || !r.refused(eventNamespace(e.Regarding)) {
		return false
	}
	id := refusedKey{key, e.Regarding, e.Reason}
	if count > 1 && !r.refusedIDs[id] {
		return false
	}
	if r.refusedIDs == nil {
		r.refusedIDs = map[refusedKey]bool{}
	}
	r.refusedIDs[id] = true
	return true
}

// refusedKey names an Event whose create the API server refused: the
// recorder, the object and the reason.
type refusedKey struct {
	recorder string
	object   api.ObjectReference
	reason   string
}

// eventNamespace is the namespace an Event about rg is created in: the
// object's own, "default" for a cluster-scoped object.
func eventNamespace(rg api.ObjectReference) string {
	if rg.Namespace == "" {
		return "default"
	}
	return rg.Namespace
}

func (r *recorder) stepSeries(component string, in record.SeriesInput, now time.Time) {
	s := r.series[component]
	if s == nil {
		if in.Event == nil {
			return
		}
		if r.series == nil {
			r.series = map[string]*record.Series{}
		}
		s = record.NewSeries(r.seriesStart)
		r.series[component] = s
	}
	var out record.SeriesOutput
	var err error
	if r.seriesStep != nil {
		out, err = r.seriesStep(component, s, in, now)
	} else {
		out, err = s.Step(in, now)
	}
	if err != nil {
		return // (a step back in time: not the cluster's)
	}
	for _, w := range out.Writes {
		if w.Count <= w.Previous {
			continue
		}
		rg := w.Event.Regarding
		if w.Previous == 0 && r.refused != nil && r.refused(eventNamespace(rg)) {
			continue // created in a namespace being deleted: refused
		}
		r.add(w.Time, Record{Component: component, Type: w.Event.Type, Reason: w.Event.Reason,
			Object: objRef(rg.Kind, rg.Namespace, rg.Name), Message: w.Event.Note, Count: w.Count, Source: SourceEvent})
	}
}

// seriesDeadline is the earliest periodic pass of the events.k8s.io
// recorders that writes something, zero when none does.
func (r *recorder) seriesDeadline() time.Time {
	var d time.Time
	for _, s := range r.series {
		d = api.EarliestDeadline(d, s.NextDeadline())
	}
	return d
}

// tickSeries runs the events.k8s.io recorders' passes due at now, in
// component order.
func (r *recorder) tickSeries(now time.Time) {
	var due []string
	for c, s := range r.series {
		if d := s.NextDeadline(); !d.IsZero() && !d.After(now) {
			due = append(due, c)
		}
	}
	slices.Sort(due)
	for _, c := range due {
		r.stepSeries(c, record.SeriesInput{}, now)
	}
}

// scenario records a scenario marker.
func (r *recorder) scenario(now time.Time, typ, reason, object, message string) {
	r.add(now, Record{Component: SourceScenario, Type: typ, Reason: reason, Object: object, Message: message, Source: SourceScenario})
}

// note records a line the e2e harness writes itself (its note: the
// source is the component), such as kubectl drain's Cordoned, Evicted,
// Drained and DrainFailed.
func (r *recorder) note(now time.Time, component, typ, reason, object, message string) {
	r.add(now, Record{Component: component, Type: typ, Reason: reason, Object: object, Message: message, Source: component})
}

// line records a line kubectl drain prints (source kubectl): Evicting,
// EvictionRetry.
func (r *recorder) line(now time.Time, typ, reason, object, message string) {
	r.add(now, Record{Component: componentDrain, Type: typ, Reason: reason, Object: object, Message: message, Source: SourceKubectl})
}

// watch records a watch event whose summary changed, as the harness's
// recorder does.
func (r *recorder) watch(now time.Time, w watchEvent) {
	kind, m := summarize(w.Object, &r.strs)
	if kind == "" {
		return
	}
	_, meta := objectMeta(w.Object)
	key := meta.UID
	if key == "" {
		key = "\x00" + objRef(kind, meta.Namespace, meta.Name)
	}
	e := r.last[key]
	verb := w.Type
	var msg, ref string
	switch {
	case w.Type == watchDeleted:
		if e != nil {
			delete(r.last, key)
			ref = e.ref
		}
		msg = m.String()
	case e == nil:
		verb = watchAdded
		msg = m.String()
		e = &watched{sum: m, ref: objRef(kind, meta.Namespace, meta.Name)}
		r.last[key] = e
		ref = e.ref
	default:
		if e.sum == m {
			return
		}
		msg = e.sum.diff(&m)
		e.sum = m
		ref = e.ref
	}
	if ref == "" {
		ref = objRef(kind, meta.Namespace, meta.Name)
	}
	r.add(now, Record{Component: "watch", Type: string(verb), Reason: r.watchReason(kind, verb), Object: ref, Message: msg, Source: SourceWatch})
}

// watched is a watched object's last summary, and its record's object.
type watched struct {
	sum summary
	ref string
}

// watchReason is a watch record's reason: the kind and the verb
// capitalised (PodAdded, NodeModified, ...), built once per kind.
func (r *recorder) watchReason(kind string, verb watchType) string {
	i := 0
	switch verb {
	case watchModified:
		i = 1
	case watchDeleted:
		i = 2
	}
	rs := r.reasons[kind]
	if rs == nil {
		rs = new([3]string)
		for j, v := range [3]string{string(watchAdded), string(watchModified), string(watchDeleted)} {
			rs[j] = kind + v[:1] + strings.ToLower(v[1:])
		}
		if r.reasons == nil {
			r.reasons = map[string]*[3]string{}
		}
		r.reasons[kind] = rs
	}
	return rs[i]
}

func condStatus(conds []api.PodCondition, t api.PodConditionType) string {
	for _, c := range conds {
		if c.Type == t {
			return string(c.Status)
		}
	}
	return "-"
}

// interner hands out one string per text built in its buffer: the
// summaries' texts (a pod's containers, a node's taints) recur across
// objects and events.
type interner struct {
	m   map[string]string
	buf []byte
}

// text returns the buffer's text, interned, and empties the buffer.
func (in *interner) text() string {
	s, ok := in.m[string(in.buf)]
	if !ok {
		if in.m == nil {
			in.m = map[string]string{}
		}
		s = string(in.buf)
		in.m[s] = s
	}
	in.buf = in.buf[:0]
	return s
}

func podSummary(p *api.Pod, in *interner) summary {
	var m summary
	m.set(fieldNode, p.Spec.NodeName)
	m.set(fieldPhase, string(p.Status.Phase))
	m.set(fieldReady, condStatus(p.Status.Conditions, api.PodReady))
	if p.Status.NominatedNodeName != "" {
		m.set(fieldNominated, p.Status.NominatedNodeName)
	}
	if p.DeletionTimestamp != nil {
		g := int64(-1)
		if p.DeletionGracePeriodSeconds != nil {
			g = *p.DeletionGracePeriodSeconds
		}
		in.buf = append(strconv.AppendInt(append(in.buf, "grace="...), g, 10), 's')
		m.set(fieldDeleting, in.text())
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget && c.Status == api.ConditionTrue {
			m.set(fieldDisruptionTarget, c.Reason)
		}
		if c.Type == api.PodScheduled && c.Status == api.ConditionFalse {
			m.set(fieldUnschedulable, c.Reason)
		}
	}
	if len(p.Status.ContainerStatuses) > 0 {
		b := in.buf
		for i, c := range p.Status.ContainerStatuses {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(b, c.Name...), ':')
			switch {
			case c.State.Running != nil:
				b = append(b, "running"...)
			case c.State.Terminated != nil:
				b = append(strconv.AppendInt(append(b, "terminated("...), int64(c.State.Terminated.ExitCode), 10), ')')
			case c.State.Waiting != nil:
				b = append(append(append(b, "waiting("...), c.State.Waiting.Reason...), ')')
			default:
				b = append(b, "unknown"...)
			}
		}
		in.buf = b
		m.set(fieldContainers, in.text())
	}
	return m
}

func nodeSummary(n *api.Node, in *interner) summary {
	var m summary
	m.set(fieldReady, "-")
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			in.buf = append(append(append(append(in.buf, c.Status...), '('), c.Reason...), ')')
			m.set(fieldReady, in.text())
		}
	}
	ts := make([]string, 0, len(n.Spec.Taints))
	for _, t := range n.Spec.Taints {
		ts = append(ts, t.Key+":"+string(t.Effect))
	}
	slices.Sort(ts)
	in.buf = append(in.buf, '[')
	for i, t := range ts {
		if i > 0 {
			in.buf = append(in.buf, ',')
		}
		in.buf = append(in.buf, t...)
	}
	in.buf = append(in.buf, ']')
	m.set(fieldTaints, in.text())
	if n.Spec.Unschedulable {
		m.set(fieldUnschedulable, "true")
	}
	return m
}

func replicasText(p *int32) string {
	if p == nil {
		return "-1"
	}
	return strconv.Itoa(int(*p))
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// summarize is the harness's summary of a watched object: the fields whose
// changes make a watch record. Kinds it does not watch give "".
func summarize(o api.Object, in *interner) (string, summary) {
	var m summary
	switch o := o.(type) {
	case *api.Pod:
		return "Pod", podSummary(o, in)
	case *api.Node:
		return "Node", nodeSummary(o, in)
	case *api.Deployment:
		m.replicated(o.Spec.Replicas, o.Status.Replicas, o.Status.ReadyReplicas, o.Status.AvailableReplicas)
		m.set(fieldUpdated, itoa(o.Status.UpdatedReplicas))
		return "Deployment", m
	case *api.ReplicaSet:
		m.replicated(o.Spec.Replicas, o.Status.Replicas, o.Status.ReadyReplicas, o.Status.AvailableReplicas)
		return "ReplicaSet", m
	case *api.PersistentVolumeClaim, *api.PersistentVolume, *api.VolumeAttachment:
		return storageSummary(o)
	case *api.StatefulSet:
		m.replicated(o.Spec.Replicas, o.Status.Replicas, o.Status.ReadyReplicas, o.Status.AvailableReplicas)
		return "StatefulSet", m
	case *api.DaemonSet:
		m.set(fieldDesired, itoa(o.Status.DesiredNumberScheduled))
		m.set(fieldCurrent, itoa(o.Status.CurrentNumberScheduled))
		m.set(fieldReady, itoa(o.Status.NumberReady))
		return "DaemonSet", m
	case *api.PodDisruptionBudget:
		m.set(fieldDisruptionsAllowed, itoa(o.Status.DisruptionsAllowed))
		m.set(fieldCurrentHealthy, itoa(o.Status.CurrentHealthy))
		m.set(fieldDesiredHealthy, itoa(o.Status.DesiredHealthy))
		m.set(fieldExpectedPods, itoa(o.Status.ExpectedPods))
		return "PodDisruptionBudget", m
	}
	return "", m
}

// The summary fields, in the harness's order (its duplicate
// "unschedulable" entry, for pods and nodes, counts once, at its first
// place).
const (
	fieldNode = iota
	fieldPhase
	fieldReady
	fieldContainers
	fieldDeleting
	fieldDisruptionTarget
	fieldUnschedulable
	fieldNominated
	fieldTaints
	fieldVolume
	fieldSelectedNode
	fieldClaim
	fieldPV
	fieldAttached
	fieldDisruptionsAllowed
	fieldCurrentHealthy
	fieldDesiredHealthy
	fieldExpectedPods
	fieldSpec
	fieldReplicas
	fieldUpdated
	fieldAvailable
	fieldDesired
	fieldCurrent
	summaryFields
)

// summaryName names each summary field.
var summaryName = [summaryFields]string{"node", "phase", "ready", "containers", "deleting", "disruptionTarget", "unschedulable",
	"nominated", "taints", "volume", "selectedNode", "claim", "pv", "attached",
	"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods",
	"spec", "replicas", "updated", "available", "desired", "current"}

// summary is a watched object's summary: the value of each field it has.
type summary struct {
	v   [summaryFields]string
	has uint32
}

func (s *summary) set(f int, v string) { s.v[f], s.has = v, s.has|1<<f }

// replicated sets the fields a workload of replicas shares: spec,
// replicas, ready, available.
func (s *summary) replicated(spec *int32, replicas, ready, available int32) {
	s.set(fieldSpec, replicasText(spec))
	s.set(fieldReplicas, itoa(replicas))
	s.set(fieldReady, itoa(ready))
	s.set(fieldAvailable, itoa(available))
}

func (s *summary) get(f int) (string, bool) { return s.v[f], s.has&(1<<f) != 0 }

// String is the summary as "k=v k=v ...", fields in order.
func (s summary) String() string {
	var buf [256]byte
	b := buf[:0]
	for f := range summaryFields {
		if v, ok := s.get(f); ok {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = append(append(append(b, summaryName[f]...), '='), v...)
		}
	}
	return string(b)
}

// diff is the change from s to cur as "k: old -> new; ...", fields in
// order, a missing value written ∅.
func (s *summary) diff(cur *summary) string {
	var buf [256]byte
	b := buf[:0]
	for f := range summaryFields {
		o, oki := s.get(f)
		c, okc := cur.get(f)
		if oki == okc && o == c {
			continue
		}
		if !oki {
			o = "∅"
		}
		if !okc {
			c = "∅"
		}
		if len(b) > 0 {
			b = append(b, "; "...)
		}
		b = append(append(append(append(append(b, summaryName[f]...), ": "...), o...), " -> "...), c...)
	}
	return string(b)
}

// eventHost is the source host of an Event: the node of a kubelet's
// Event (the Node it is about, or the node of the pod it is about), ""
// for a controller's.
func (m *Machine) eventHost(e *api.Event) string {
	if e.Source != api.EventSourceKubelet {
		return ""
	}
	switch e.Regarding.Kind {
	case "Node":
		return e.Regarding.Name
	case "Pod":
		if p, _ := m.store.get("Pod", e.Regarding.Namespace+"/"+e.Regarding.Name).(*api.Pod); p != nil {
			return p.Spec.NodeName
		}
	}
	return ""
}
