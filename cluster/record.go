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
	// Count is an event's count (1: aggregation is not modelled yet).
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
	// last holds each watched object's last summary, by kind/key#uid.
	last map[string]map[string]string
}

func (r *recorder) add(now time.Time, rec Record) {
	rec.at = now
	rec.Offset = offset(now, r.start)
	rec.Time = now.UTC().Format(time.RFC3339Nano)
	r.out = append(r.out, rec)
}

// event records an api.Event a component returned.
func (r *recorder) event(now time.Time, e *api.Event) {
	if e == nil {
		return
	}
	rg := e.Regarding
	r.add(now, Record{Component: e.Source, Type: e.Type, Reason: e.Reason,
		Object: objRef(rg.Kind, rg.Namespace, rg.Name), Message: e.Note, Count: 1, Source: SourceEvent})
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
	kind, m := summarize(w.Object)
	if kind == "" {
		return
	}
	_, meta := objectMeta(w.Object)
	ref := objRef(kind, meta.Namespace, meta.Name)
	key := ref + "#" + meta.UID
	old, seen := r.last[key]
	verb := string(w.Type)
	if w.Type == watchDeleted {
		delete(r.last, key)
	} else {
		r.last[key] = m
	}
	var msg string
	switch {
	case w.Type == watchDeleted:
		msg = fmtSummary(m)
	case !seen:
		verb = string(watchAdded)
		msg = fmtSummary(m)
	default:
		msg = diffSummary(old, m)
		if msg == "" {
			return
		}
	}
	reason := kind + verb[:1] + strings.ToLower(verb[1:])
	r.add(now, Record{Component: "watch", Type: verb, Reason: reason, Object: ref, Message: msg, Source: SourceWatch})
}

func condStatus(conds []api.PodCondition, t api.PodConditionType) string {
	for _, c := range conds {
		if c.Type == t {
			return string(c.Status)
		}
	}
	return "-"
}

func podSummary(p *api.Pod) map[string]string {
	m := map[string]string{
		"node":  p.Spec.NodeName,
		"phase": string(p.Status.Phase),
		"ready": condStatus(p.Status.Conditions, api.PodReady),
	}
	if p.Status.NominatedNodeName != "" {
		m["nominated"] = p.Status.NominatedNodeName
	}
	if p.DeletionTimestamp != nil {
		g := int64(-1)
		if p.DeletionGracePeriodSeconds != nil {
			g = *p.DeletionGracePeriodSeconds
		}
		m["deleting"] = fmt.Sprintf("grace=%ds", g)
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget && c.Status == api.ConditionTrue {
			m["disruptionTarget"] = c.Reason
		}
		if c.Type == api.PodScheduled && c.Status == api.ConditionFalse {
			m["unschedulable"] = c.Reason
		}
	}
	var cs []string
	for _, c := range p.Status.ContainerStatuses {
		st := "unknown"
		switch {
		case c.State.Running != nil:
			st = "running"
		case c.State.Terminated != nil:
			st = fmt.Sprintf("terminated(%d)", c.State.Terminated.ExitCode)
		case c.State.Waiting != nil:
			st = "waiting(" + c.State.Waiting.Reason + ")"
		}
		cs = append(cs, c.Name+":"+st)
	}
	if len(cs) > 0 {
		m["containers"] = strings.Join(cs, ",")
	}
	return m
}

func nodeSummary(n *api.Node) map[string]string {
	m := map[string]string{"ready": "-"}
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			m["ready"] = string(c.Status) + "(" + c.Reason + ")"
		}
	}
	var ts []string
	for _, t := range n.Spec.Taints {
		ts = append(ts, t.Key+":"+string(t.Effect))
	}
	slices.Sort(ts)
	m["taints"] = "[" + strings.Join(ts, ",") + "]"
	if n.Spec.Unschedulable {
		m["unschedulable"] = "true"
	}
	return m
}

func replicas(p *int32) string {
	if p == nil {
		return "-1"
	}
	return strconv.Itoa(int(*p))
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// summarize is the harness's summary of a watched object: the fields whose
// changes make a watch record. Kinds it does not watch give "".
func summarize(o api.Object) (string, map[string]string) {
	switch o := o.(type) {
	case *api.Pod:
		return "Pod", podSummary(o)
	case *api.Node:
		return "Node", nodeSummary(o)
	case *api.Deployment:
		return "Deployment", map[string]string{"spec": replicas(o.Spec.Replicas),
			"replicas": itoa(o.Status.Replicas), "updated": itoa(o.Status.UpdatedReplicas),
			"ready": itoa(o.Status.ReadyReplicas), "available": itoa(o.Status.AvailableReplicas)}
	case *api.ReplicaSet:
		return "ReplicaSet", map[string]string{"spec": replicas(o.Spec.Replicas),
			"replicas": itoa(o.Status.Replicas), "ready": itoa(o.Status.ReadyReplicas),
			"available": itoa(o.Status.AvailableReplicas)}
	case *api.PersistentVolumeClaim, *api.PersistentVolume, *api.VolumeAttachment:
		return storageSummary(o)
	case *api.StatefulSet:
		return "StatefulSet", map[string]string{"spec": replicas(o.Spec.Replicas),
			"replicas": itoa(o.Status.Replicas), "ready": itoa(o.Status.ReadyReplicas),
			"available": itoa(o.Status.AvailableReplicas)}
	case *api.DaemonSet:
		return "DaemonSet", map[string]string{"desired": itoa(o.Status.DesiredNumberScheduled),
			"current": itoa(o.Status.CurrentNumberScheduled), "ready": itoa(o.Status.NumberReady)}
	case *api.PodDisruptionBudget:
		return "PodDisruptionBudget", map[string]string{
			"disruptionsAllowed": itoa(o.Status.DisruptionsAllowed),
			"currentHealthy":     itoa(o.Status.CurrentHealthy),
			"desiredHealthy":     itoa(o.Status.DesiredHealthy),
			"expectedPods":       itoa(o.Status.ExpectedPods)}
	}
	return "", nil
}

// summaryOrder is the harness's order of summary fields (its duplicate
// "unschedulable" entry, for pods and nodes, kept).
var summaryOrder = []string{"node", "phase", "ready", "containers", "deleting", "disruptionTarget", "unschedulable", "nominated",
	"taints", "unschedulable", "volume", "selectedNode", "claim", "pv", "attached",
	"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods",
	"spec", "replicas", "updated", "available", "desired", "current"}

func fmtSummary(m map[string]string) string {
	var parts []string
	seen := map[string]bool{}
	for _, k := range summaryOrder {
		if v, ok := m[k]; ok && !seen[k] {
			parts = append(parts, k+"="+v)
			seen[k] = true
		}
	}
	return strings.Join(parts, " ")
}

func diffSummary(old, cur map[string]string) string {
	var parts []string
	seen := map[string]bool{}
	for _, k := range summaryOrder {
		if seen[k] {
			continue
		}
		seen[k] = true
		o, oki := old[k]
		c, okc := cur[k]
		if oki == okc && o == c {
			continue
		}
		if !oki {
			o = "∅"
		}
		if !okc {
			c = "∅"
		}
		parts = append(parts, fmt.Sprintf("%s: %s -> %s", k, o, c))
	}
	return strings.Join(parts, "; ")
}
