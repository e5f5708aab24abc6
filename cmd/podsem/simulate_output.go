package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// render writes one scenario's output in a format: what `podsem simulate
// SCENARIO` prints on standard output. A run that failed (runErr) prints
// the records it produced and no final objects.
func render(w io.Writer, format, name string, sc *cluster.Scenario, res cluster.Result, setup bool, runErr error) error {
	records := res.Records
	if setup {
		records = append(append([]cluster.Record(nil), res.Setup...), res.Records...)
	}
	switch format {
	case "json":
		if err := cluster.WriteJSON(w, records); err != nil {
			return err
		}
		if runErr != nil {
			return nil
		}
		return writeFinal(w, res.Objects)
	case "mermaid":
		writeGantt(w, name, sc, res, runErr)
		return nil
	}
	writeTimeline(w, name, sc, res, records, runErr)
	return nil
}

// header says when t=0 was and how long the run lasts.
func header(name string, sc *cluster.Scenario, res cluster.Result, start time.Time) string {
	if res.T0.IsZero() {
		return fmt.Sprintf("simulate %s: the objects never settled", name)
	}
	return fmt.Sprintf("simulate %s: t=0 at %s (the objects settled %s after their creation), until %s",
		name, res.T0.UTC().Format(time.RFC3339Nano), res.T0.Sub(start), sc.Until)
}

// runStart is when the objects were created: t=0 minus the setup.
func runStart(res cluster.Result) time.Time {
	if len(res.Setup) == 0 {
		return res.T0
	}
	return res.T0.Add(offsetDuration(res.Setup[0].Offset))
}

// offsetDuration is a record's offset (seconds, millisecond precision) as
// a duration.
func offsetDuration(s float64) time.Duration {
	return time.Duration(math.Round(s*1000)) * time.Millisecond
}

// writeTimeline writes the readable timeline: a header, one aligned line
// per record (offset, component, reason, object, message), then the pods
// and the count of objects at until.
func writeTimeline(w io.Writer, name string, sc *cluster.Scenario, res cluster.Result, records []cluster.Record, runErr error) {
	var b bytes.Buffer
	b.WriteString(header(name, sc, res, runStart(res)) + "\n\n")
	offsets := make([]string, len(records))
	width := len("OFFSET")
	for i, r := range records {
		offsets[i] = offsetDuration(r.Offset).String()
		width = max(width, len(offsets[i]))
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%*s\tCOMPONENT\tREASON\tOBJECT\tMESSAGE\n", width, "OFFSET")
	oneLine := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for i, r := range records {
		fmt.Fprintf(tw, "%*s\t%s\t%s\t%s\t%s\n", width, offsets[i], oneLine.Replace(r.Component),
			oneLine.Replace(r.Reason), oneLine.Replace(r.Object), oneLine.Replace(r.Message))
	}
	tw.Flush()
	if runErr == nil {
		writePodsAtUntil(&b, sc, res.Objects)
		writeAnswers(&b, res.Answers)
	}
	w.Write(trimLineEnds(b.Bytes()))
}

// trimLineEnds drops the blanks tabwriter leaves at the end of a line
// whose last cells are empty.
func trimLineEnds(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out bytes.Buffer
	for _, l := range lines {
		nl := bytes.HasSuffix(l, []byte("\n"))
		out.Write(bytes.TrimRight(l, " \n"))
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// writePodsAtUntil lists the pods at until as `kubectl get pods -o wide`
// would show them (namespace/name, node, status, ready), then counts the
// objects by kind.
func writePodsAtUntil(b *bytes.Buffer, sc *cluster.Scenario, objs []api.Object) {
	fmt.Fprintf(b, "\nat until (%s):\n", sc.Until)
	var counts []string
	n := map[string]int{}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	pods := 0
	for _, o := range objs {
		k := kindOf(o)
		if n[k] == 0 {
			counts = append(counts, k)
		}
		n[k]++
		p, ok := o.(*api.Pod)
		if !ok || p == nil {
			continue
		}
		if pods == 0 {
			fmt.Fprintln(tw, "POD\tNODE\tSTATUS\tREADY")
		}
		pods++
		node := p.Spec.NodeName
		if node == "" {
			node = "<none>"
		}
		status := string(p.Status.Phase)
		if p.DeletionTimestamp != nil {
			status = "Terminating"
		}
		if status == "" {
			status = "Pending"
		}
		fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%v\n", p.Namespace, p.Name, node, status, api.IsPodReady(p))
	}
	tw.Flush()
	parts := make([]string, len(counts))
	for i, k := range counts {
		parts[i] = fmt.Sprintf("%d %s", n[k], k)
	}
	if len(parts) == 0 {
		parts = []string{"no object"}
	}
	fmt.Fprintf(b, "objects: %s\n", strings.Join(parts, ", "))
}

// writeAnswers writes what operators ask of the run (cluster.Answers):
// each pod's node and how long it was unavailable between t=0 and until
// (pods that were available throughout are left out), each budget that
// held evictions up and for how long, each Service's ready endpoints over
// time.
func writeAnswers(b *bytes.Buffer, a cluster.Answers) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	n := 0
	for _, p := range a.Pods {
		if p.Unavailable == 0 {
			continue
		}
		if n == 0 {
			fmt.Fprintln(b, "\npods unavailable between t=0 and until:")
			fmt.Fprintln(tw, "POD\tNODE\tUNAVAILABLE\tFATE")
		}
		n++
		node := p.Node
		if node == "" {
			node = "<none>"
		}
		fate := "created " + offsetDuration(p.Created.Seconds()).String()
		if p.AtStart {
			fate = "there at t=0"
		}
		if p.IsTerminating {
			fate += ", terminating " + p.Terminating.String()
		}
		if p.IsGone {
			fate += ", gone " + p.Gone.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Pod, node, p.Unavailable, fate)
	}
	tw.Flush()
	for i, h := range a.Budgets {
		if i == 0 {
			fmt.Fprintln(b, "\nbudgets that held evictions up:")
		}
		fmt.Fprintf(b, "%s: held %s from t=%s, %d evictions refused (429) for %s\n", h.Budget, h.Held, h.First, h.Refusals, strings.Join(h.Pods, ", "))
	}
	for i, s := range a.Services {
		if i == 0 {
			fmt.Fprintln(b, "\nready endpoints of each Service:")
		}
		fmt.Fprintf(b, "%s:\n", s.Service)
		for _, c := range s.Changes {
			fmt.Fprintf(b, "  %8s  %d ready  %s\n", c.At, len(c.Ready), strings.Join(c.Ready, " "))
		}
	}
}

// apiVersions is the group/version `kubectl get -o json` prints for each
// kind the cluster holds (the versions a v1.36.3 API server serves them
// in by default).
var apiVersions = map[string]string{
	"Pod": "v1", "Node": "v1", "Namespace": "v1", "Service": "v1", "PersistentVolumeClaim": "v1",
	"PersistentVolume": "v1", "ReplicationController": "v1", "ConfigMap": "v1", "Secret": "v1", "Event": "v1",
	"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "DaemonSet": "apps/v1",
	"ControllerRevision": "apps/v1", "Job": "batch/v1", "CronJob": "batch/v1",
	"PodDisruptionBudget": "policy/v1", "Eviction": "policy/v1", "PriorityClass": "scheduling.k8s.io/v1",
	"StorageClass": "storage.k8s.io/v1", "CSINode": "storage.k8s.io/v1", "CSIDriver": "storage.k8s.io/v1",
	"VolumeAttachment": "storage.k8s.io/v1", "Lease": "coordination.k8s.io/v1",
	"EndpointSlice": "discovery.k8s.io/v1", "ServiceAccount": "v1", "Endpoints": "v1", "PodTemplate": "v1", "LimitRange": "v1",
	"Role": "rbac.authorization.k8s.io/v1", "RoleBinding": "rbac.authorization.k8s.io/v1",
	"ClusterRole": "rbac.authorization.k8s.io/v1", "ClusterRoleBinding": "rbac.authorization.k8s.io/v1",
	"Ingress": "networking.k8s.io/v1", "IngressClass": "networking.k8s.io/v1", "NetworkPolicy": "networking.k8s.io/v1",
}

// writeFinal writes the line {"final": List}: the objects at until as
// `kubectl get -o json` prints a List, every item with its apiVersion and
// kind (the objects a controller created carry none in the store).
func writeFinal(w io.Writer, objs []api.Object) error {
	items := make([]json.RawMessage, 0, len(objs))
	for _, o := range objs {
		raw, err := marshalPlain(o)
		if err != nil {
			return err
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		kind := kindOf(o)
		if s := jsonStringField(m["kind"]); s != "" {
			kind = s
		}
		m["kind"] = json.RawMessage(jsonString(kind))
		if jsonStringField(m["apiVersion"]) == "" {
			v, ok := apiVersions[kind]
			if !ok {
				return fmt.Errorf("final objects: kind %s: no apiVersion known for it", kind)
			}
			m["apiVersion"] = json.RawMessage(jsonString(v))
		}
		item, err := marshalPlain(m)
		if err != nil {
			return err
		}
		items = append(items, item)
	}
	line, err := marshalPlain(map[string]any{"final": map[string]any{"apiVersion": "v1", "kind": "List", "items": items}})
	if err != nil {
		return err
	}
	_, err = w.Write(line)
	return err
}

// marshalPlain is json.Marshal without HTML escaping and with a trailing
// newline, as cluster.WriteJSON writes.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// jsonStringField is a raw JSON string's value, "" when it is none.
func jsonStringField(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
