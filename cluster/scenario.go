package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Scenario is what a simulation runs: the cluster's objects at t=0, the
// timed actions, when to stop and the cluster's settings. It is the
// scenario file of issue 22, which the e2e harness (../shared/e2e) also
// runs on a real control plane.
type Scenario struct {
	// Include names files of objects to add to Objects. The package reads
	// no files: the caller (cmd/podsem) resolves them; Run refuses a
	// scenario that still has some.
	Include []string
	// Objects are the cluster's objects at t=0.
	Objects []api.Object
	// Actions are applied at their offsets, in order (stable by At); the
	// actions of one offset are applied together, before the components
	// react (DoAll).
	Actions []Action
	// Until is when the run stops, after t=0.
	Until time.Duration
	// Config holds the config entries by upstream flag name, as given.
	Config map[string]string
	// LoadLocation is the time zone database Run gives the cluster
	// (Config.LoadLocation): not read from a scenario file, the caller's
	// (cmd/podsem passes time.LoadLocation). Nil knows only UTC.
	LoadLocation func(name string) (*time.Location, error) `json:"-"`
}

// ActionKind names a scenario action.
type ActionKind string

// The scenario actions.
const (
	// ActionApply creates or updates Action.Object: server-side apply as
	// field manager kubectl with conflicts forced, as the harness applies
	// (managedfields.Apply; the cluster keeps each applied object's field
	// ownership, see the package doc).
	ActionApply ActionKind = "apply"
	// ActionDelete deletes Action.Ref: with default options (background
	// propagation, the object's own grace period), as the harness does, or
	// with Action.DeleteOptions.
	ActionDelete ActionKind = "delete"
	// ActionScale sets Action.Ref's spec.replicas to Action.Replicas (the
	// scale subresource).
	ActionScale ActionKind = "scale"
	// ActionCordon and ActionUncordon set or clear the node's
	// spec.unschedulable.
	ActionCordon   ActionKind = "cordon"
	ActionUncordon ActionKind = "uncordon"
	// ActionDrain is kubectl drain of Action.Node with Action.Drain's
	// flags.
	ActionDrain ActionKind = "drain"
	// ActionLose silences Action.Node and its kubelet (no heartbeats, no
	// status); its containers keep running.
	ActionLose ActionKind = "lose"
	// ActionRestore resumes a lost node's heartbeats; the kubelet
	// reconciles.
	ActionRestore ActionKind = "restore"
	// ActionDeleteNode silences the node's kubelet and deletes the Node
	// object (a cloud provider's doing, or kubectl delete node).
	ActionDeleteNode ActionKind = "deleteNode"
	// ActionTaint adds Action.Taint to Action.Node.
	ActionTaint ActionKind = "taint"
	// ActionPressure sets the node-pressure signal Action.Signal of
	// Action.Node to Action.Value (memory.available: 50Mi, say), and, with
	// Action.Usage, what each pod on the node uses of the signal's
	// resource.
	ActionPressure ActionKind = "pressure"
	// ActionShutdown starts a graceful node shutdown of Action.Node.
	ActionShutdown ActionKind = "shutdown"
	// ActionExit makes Action.Container of Action.Pod exit with
	// Action.ExitCode.
	ActionExit ActionKind = "exit"
)

// Action is one timed action of a scenario. Only the fields of its Kind are
// set.
type Action struct {
	At   time.Duration
	Kind ActionKind
	// Node is the node acted on (cordon, uncordon, drain, lose, restore,
	// deleteNode, taint, pressure, shutdown).
	Node string
	// Object is the object applied.
	Object api.Object
	// Ref names the object deleted or scaled: Kind/namespace/name, or
	// Kind/name for a cluster-scoped one.
	Ref ObjectRef
	// DeleteOptions are a delete action's options, nil for the harness's
	// defaults: propagationPolicy (Orphan, Background or Foreground;
	// Background when not given) and gracePeriodSeconds (a pod's grace
	// period; 0 removes it at once).
	DeleteOptions *api.DeleteOptions
	// Replicas is the scale's new spec.replicas.
	Replicas int32
	// Drain holds kubectl drain's flags.
	Drain DrainOptions
	// Taint is the taint added.
	Taint api.Taint
	// Signal and Value are a pressure action's eviction signal and its
	// observed value.
	Signal, Value string
	// Usage is a pressure action's optional per-pod usage of the signal's
	// resource, pod (namespace/name) to a quantity: the memory working set
	// for the memory signals, ephemeral storage for the *fs.available
	// ones, inodes for *fs.inodesFree, processes for pid.available. With
	// it the eviction manager ranks the node's pods by usage (a pod not
	// listed uses nothing), and a listed pod that stops running gives its
	// usage back to the signal's available amount.
	Usage map[string]string
	// Pod (namespace/name), Container and ExitCode are an exit action's.
	Pod, Container string
	ExitCode       int32
}

// ObjectRef names an object as the scenario and the event log write it:
// Kind/namespace/name, or Kind/name.
type ObjectRef struct {
	Kind, Namespace, Name string
}

// String is Kind/namespace/name, or Kind/name.
func (r ObjectRef) String() string { return objRef(r.Kind, r.Namespace, r.Name) }

// key is the store's key of the object named.
func (r ObjectRef) key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// ParseObjectRef reads Kind/namespace/name or Kind/name.
func ParseObjectRef(s string) (ObjectRef, error) {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			return ObjectRef{}, fmt.Errorf("cluster: %w: object reference %q: want Kind/namespace/name or Kind/name", api.ErrInvalidInput, s)
		}
	}
	switch len(parts) {
	case 2:
		return ObjectRef{Kind: parts[0], Name: parts[1]}, nil
	case 3:
		return ObjectRef{Kind: parts[0], Namespace: parts[1], Name: parts[2]}, nil
	}
	return ObjectRef{}, fmt.Errorf("cluster: %w: object reference %q: want Kind/namespace/name or Kind/name", api.ErrInvalidInput, s)
}

// DrainOptions are kubectl drain's flags; the zero value is its defaults
// (the eviction API, no --force, --grace-period=-1, --timeout=0: wait
// forever).
type DrainOptions struct {
	IgnoreDaemonSets   bool `json:"ignoreDaemonSets"`
	DeleteEmptyDirData bool `json:"deleteEmptyDirData"`
	Force              bool `json:"force"`
	// GracePeriodSeconds is --grace-period; nil means -1 (each pod's own).
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds"`
	DisableEviction    bool   `json:"disableEviction"`
	// Timeout is --timeout; 0 waits forever.
	Timeout time.Duration `json:"-"`
}

// String is the action as the e2e harness prints it in its Action record.
func (a Action) String() string {
	switch a.Kind {
	case ActionScale:
		return fmt.Sprintf("scale %s replicas=%d", a.Ref, a.Replicas)
	case ActionApply:
		kind, m := objectMeta(a.Object)
		if m == nil {
			return "apply"
		}
		return "apply " + objRef(kind, m.Namespace, m.Name)
	case ActionDelete:
		s := "delete " + a.Ref.String()
		if o := a.DeleteOptions; o != nil && o.PropagationPolicy != nil {
			s += " propagationPolicy=" + *o.PropagationPolicy
		}
		if o := a.DeleteOptions; o != nil && o.GracePeriodSeconds != nil {
			s += fmt.Sprintf(" gracePeriodSeconds=%d", *o.GracePeriodSeconds)
		}
		return s
	case ActionTaint:
		return fmt.Sprintf("taint %s %s=%s:%s", a.Node, a.Taint.Key, a.Taint.Value, a.Taint.Effect)
	case ActionPressure:
		s := fmt.Sprintf("pressure %s %s=%s", a.Node, a.Signal, a.Value)
		if len(a.Usage) > 0 {
			keys := slices.Sorted(maps.Keys(a.Usage))
			for i, k := range keys {
				keys[i] = k + "=" + a.Usage[k]
			}
			s += " usage " + strings.Join(keys, ",")
		}
		return s
	case ActionExit:
		return fmt.Sprintf("exit %s %s %d", a.Pod, a.Container, a.ExitCode)
	case "":
		return "noop"
	}
	return string(a.Kind) + " " + a.Node
}

// ParseScenario reads a scenario from its JSON form (cmd/podsem turns a
// YAML file into JSON first; this package reads no YAML). `at` and `until`
// are Go durations ("90s", "1m30s") or numbers of seconds, as the harness
// reads them; actions are stable-sorted by `at`; a missing `until` is 10
// minutes, or 5 minutes after the last action. Each action holds exactly
// one of the action keys; objects decode as api.DecodeAll decodes them (a
// kind the cluster does not model but holds, HoldsKind, as
// *api.Unstructured; any other kind is an error naming it).
// Errors name the action's index and the field.
func ParseScenario(data []byte) (*Scenario, error) {
	var raw struct {
		Include []string          `json:"include"`
		Objects []json.RawMessage `json:"objects"`
		Actions []json.RawMessage `json:"actions"`
		Until   json.RawMessage   `json:"until"`
		Config  map[string]any    `json:"config"`
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("cluster: %w: scenario: nil", api.ErrInvalidInput)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("cluster: %w: scenario: %v", api.ErrInvalidInput, err)
	}
	sc := &Scenario{Include: raw.Include}
	for i, o := range raw.Objects {
		objs, err := decodeHeld(o)
		if err != nil {
			return nil, fmt.Errorf("cluster: %w: objects[%d]: %v", api.ErrInvalidInput, i, err)
		}
		sc.Objects = append(sc.Objects, objs...)
	}
	for i, a := range raw.Actions {
		act, err := parseAction(a)
		if err != nil {
			return nil, fmt.Errorf("cluster: %w: actions[%d]: %v", api.ErrInvalidInput, i, err)
		}
		sc.Actions = append(sc.Actions, act)
	}
	slices.SortStableFunc(sc.Actions, func(a, b Action) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	if len(raw.Until) > 0 && string(raw.Until) != "null" {
		d, err := parseDuration(raw.Until)
		if err != nil {
			return nil, fmt.Errorf("cluster: %w: until: %v", api.ErrInvalidInput, err)
		}
		sc.Until = d
	}
	if sc.Until == 0 {
		sc.Until = 10 * time.Minute
		if n := len(sc.Actions); n > 0 {
			sc.Until = sc.Actions[n-1].At + 5*time.Minute
		}
	}
	if len(raw.Config) > 0 {
		sc.Config = map[string]string{}
		for k, v := range raw.Config {
			sc.Config[k] = fmt.Sprint(v)
		}
	}
	return sc, nil
}

// parseDuration reads a JSON string holding a Go duration or a number of
// seconds, or a JSON number of seconds. A negative duration is an error.
func parseDuration(b json.RawMessage) (time.Duration, error) {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		s = string(b)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	var d time.Duration
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f > float64(1<<62)/float64(time.Second) || f < 0 {
			return 0, fmt.Errorf("%q: out of range", s)
		}
		d = time.Duration(f * float64(time.Second))
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q: not a duration", s)
		}
	}
	if d < 0 {
		return 0, fmt.Errorf("%q: negative", s)
	}
	return d, nil
}

// actionKeys are the keys an action may hold besides "at".
var actionKeys = []ActionKind{ActionApply, ActionDelete, ActionScale, ActionCordon, ActionUncordon,
	ActionDrain, ActionLose, ActionRestore, ActionDeleteNode, ActionTaint, ActionPressure, ActionShutdown, ActionExit}

func parseAction(b json.RawMessage) (Action, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return Action{}, err
	}
	var a Action
	if at, ok := m["at"]; ok {
		d, err := parseDuration(at)
		if err != nil {
			return Action{}, fmt.Errorf("at: %v", err)
		}
		a.At = d
	}
	var found []ActionKind
	for _, k := range actionKeys {
		if _, ok := m[string(k)]; ok {
			found = append(found, k)
		}
	}
	switch {
	case len(found) == 0:
		return Action{}, fmt.Errorf("no action: want one of %v", actionKeys)
	case len(found) > 1:
		return Action{}, fmt.Errorf("more than one action: %v", found)
	}
	a.Kind = found[0]
	v := m[string(a.Kind)]
	var err error
	switch a.Kind {
	case ActionCordon, ActionUncordon, ActionLose, ActionRestore, ActionDeleteNode, ActionShutdown:
		a.Node, err = nodeName(v)
	case ActionDrain:
		err = parseDrain(v, &a)
	case ActionApply:
		var objs []api.Object
		objs, err = decodeHeld(v)
		if err == nil && len(objs) != 1 {
			err = fmt.Errorf("want one object, got %d", len(objs))
		}
		if err == nil {
			if _, meta := objectMeta(objs[0]); meta == nil {
				err = fmt.Errorf("kind %T cannot be applied", objs[0])
			}
			a.Object = objs[0]
		}
	case ActionDelete:
		err = parseDelete(v, &a)
	case ActionScale:
		var s struct {
			Ref      string `json:"ref"`
			Replicas *int32 `json:"replicas"`
		}
		if err = json.Unmarshal(v, &s); err == nil {
			a.Ref, err = ParseObjectRef(s.Ref)
		}
		if err == nil && (s.Replicas == nil || *s.Replicas < 0) {
			err = fmt.Errorf("replicas: want a number ≥ 0")
		}
		if err == nil {
			a.Replicas = *s.Replicas
		}
	case ActionTaint:
		var t struct {
			Node string `json:"node"`
			api.Taint
		}
		if err = json.Unmarshal(v, &t); err == nil && (t.Node == "" || t.Key == "" || t.Effect == "") {
			err = fmt.Errorf("want node, key and effect")
		}
		a.Node, a.Taint = t.Node, t.Taint
	case ActionPressure:
		var p struct {
			Node   string         `json:"node"`
			Signal string         `json:"signal"`
			Value  any            `json:"value"`
			Usage  map[string]any `json:"usage"`
		}
		if err = json.Unmarshal(v, &p); err == nil && (p.Node == "" || p.Signal == "" || p.Value == nil) {
			err = fmt.Errorf("want node, signal and value")
		}
		a.Node, a.Signal, a.Value = p.Node, p.Signal, fmt.Sprint(p.Value)
		if err == nil && p.Usage != nil {
			a.Usage, err = parseUsage(p.Usage)
		}
	case ActionExit:
		var e struct {
			Pod       string `json:"pod"`
			Container string `json:"container"`
			Code      int32  `json:"code"`
		}
		if err = json.Unmarshal(v, &e); err == nil && (e.Pod == "" || e.Container == "") {
			err = fmt.Errorf("want pod and container")
		}
		a.Pod, a.Container, a.ExitCode = e.Pod, e.Container, e.Code
	}
	if err != nil {
		return Action{}, fmt.Errorf("%s: %v", a.Kind, err)
	}
	return a, nil
}

func nodeName(v json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil || s == "" {
		return "", fmt.Errorf("want a node name")
	}
	return s, nil
}

// parseDrain reads `drain: node-1` or `drain: {node: node-1, ...flags}`.
func parseDrain(v json.RawMessage, a *Action) error {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if s == "" {
			return fmt.Errorf("want a node name")
		}
		a.Node = s
		return nil
	}
	var d struct {
		Node string `json:"node"`
		DrainOptions
		Timeout json.RawMessage `json:"timeout"`
	}
	if err := json.Unmarshal(v, &d); err != nil {
		return err
	}
	if d.Node == "" {
		return fmt.Errorf("node: want a node name")
	}
	a.Node, a.Drain = d.Node, d.DrainOptions
	if len(d.Timeout) > 0 {
		t, err := parseDuration(d.Timeout)
		if err != nil {
			return fmt.Errorf("timeout: %v", err)
		}
		a.Drain.Timeout = t
	}
	return nil
}

// parseUsage reads a pressure action's usage map: namespace/name to a
// quantity ≥ 0 (a string, or a number).
func parseUsage(m map[string]any) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for _, key := range slices.Sorted(maps.Keys(m)) {
		ns, name, ok := strings.Cut(key, "/")
		if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return nil, fmt.Errorf("usage: pod %q: want namespace/name", key)
		}
		v := fmt.Sprint(m[key])
		if f, ok := m[key].(float64); ok {
			v = strconv.FormatFloat(f, 'f', -1, 64)
		}
		if q, err := api.ParseQuantity(v); err != nil || q.Sign() < 0 {
			return nil, fmt.Errorf("usage: %s: %q is not a quantity ≥ 0", key, v)
		}
		out[key] = v
	}
	return out, nil
}

// parseDelete reads `delete: Kind/ns/name` or `delete: {ref: Kind/ns/name,
// propagationPolicy: Foreground, gracePeriodSeconds: 0}`.
func parseDelete(v json.RawMessage, a *Action) error {
	var s string
	if json.Unmarshal(v, &s) == nil {
		var err error
		a.Ref, err = ParseObjectRef(s)
		return err
	}
	var d struct {
		Ref                string  `json:"ref"`
		PropagationPolicy  *string `json:"propagationPolicy"`
		GracePeriodSeconds *int64  `json:"gracePeriodSeconds"`
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return fmt.Errorf("want Kind/namespace/name or {ref, propagationPolicy, gracePeriodSeconds}: %v", err)
	}
	ref, err := ParseObjectRef(d.Ref)
	if err != nil {
		return err
	}
	if p := d.PropagationPolicy; p != nil {
		switch *p {
		case api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground:
		default:
			return fmt.Errorf("propagationPolicy: Unsupported value: %q: supported values: %q, %q, %q", *p,
				api.DeletePropagationBackground, api.DeletePropagationForeground, api.DeletePropagationOrphan)
		}
	}
	a.Ref = ref
	a.DeleteOptions = &api.DeleteOptions{PropagationPolicy: d.PropagationPolicy, GracePeriodSeconds: d.GracePeriodSeconds}
	return nil
}

// decodeHeld decodes objects as api.DecodeAll does, refusing an object of
// a kind the cluster neither models nor holds (HoldsKind) as api.Decode
// refuses an unknown kind.
func decodeHeld(data []byte) ([]api.Object, error) {
	objs, err := api.DecodeAll(data)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		if u, ok := o.(*api.Unstructured); ok && !HoldsKind(u.Kind) {
			return nil, fmt.Errorf("decode: %w %q (apiVersion %q): the cluster neither models nor holds it", api.ErrUnknownKind, u.Kind, u.APIVersion)
		}
	}
	return objs, nil
}
