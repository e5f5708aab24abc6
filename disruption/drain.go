package disruption

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// DrainFlags are the options of `kubectl drain` that decide which pods go
// (k8s.io/kubectl/pkg/drain Helper), plus what the cluster advertises.
type DrainFlags struct {
	// Force deletes pods that declare no controller, and pods whose
	// DaemonSet no longer exists, with a warning (--force).
	Force bool
	// IgnoreAllDaemonSets leaves DaemonSet pods in place with a warning
	// instead of refusing the drain (--ignore-daemonsets).
	IgnoreAllDaemonSets bool
	// DeleteEmptyDirData lets pods with emptyDir volumes go, their data
	// with them (--delete-emptydir-data).
	DeleteEmptyDirData bool
	// PodSelector limits the drain to pods matching this label selector
	// string; "" selects all (--pod-selector).
	PodSelector string
	// SkipWaitForDeleteTimeoutSeconds skips pods whose deletionTimestamp
	// is more than this many whole seconds old; 0 turns it off
	// (--skip-wait-for-delete-timeout).
	SkipWaitForDeleteTimeoutSeconds int
	// DisableEviction deletes pods instead of evicting them, bypassing
	// PodDisruptionBudgets (--disable-eviction).
	DisableEviction bool
	// EvictionGroupVersion is the group/version of the pods/eviction
	// subresource the API server advertises in discovery ("policy/v1",
	// "policy/v1beta1"); "" means "policy/v1", what a v1.36.3 API server
	// advertises, so the zero DrainFlags evict as kubectl drain does by
	// default.
	EvictionGroupVersion string
	// EvictionUnsupported says the API server advertises no pods/eviction
	// subresource at all (kubectl's CheckEvictionSupport finds none): pods
	// are then deleted, as with DisableEviction.
	EvictionUnsupported bool
}

// DefaultEvictionGroupVersion is the group/version of the pods/eviction
// subresource a v1.36.3 API server advertises, which kubectl drain uses
// when discovery offers it.
const DefaultEvictionGroupVersion = "policy/v1"

// PodDeleteReason is the outcome kubectl drain's filters give a pod.
type PodDeleteReason string

// The outcomes (k8s.io/kubectl/pkg/drain PodDeleteStatusType*).
const (
	DrainOkay    PodDeleteReason = "Okay"
	DrainSkip    PodDeleteReason = "Skip"
	DrainWarning PodDeleteReason = "Warning"
	DrainError   PodDeleteReason = "Error"
)

// The messages kubectl drain's filters give, as upstream words them.
const (
	MsgDaemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	MsgDaemonSetWarning    = "ignoring DaemonSet-managed Pods"
	MsgLocalStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	MsgLocalStorageWarning = "deleting Pods with local storage"
	MsgUnmanagedFatal      = "Pods that declare no controller (use --force to override)"
	MsgUnmanagedWarning    = "deleting Pods that declare no controller"
)

// PodDrain is drain's verdict on one pod.
type PodDrain struct {
	Pod *api.Pod
	// Delete is set when the pod is to be evicted or deleted.
	Delete bool
	// Reason and Message are the status of the last filter that ran
	// (filters stop at the first that does not delete the pod, so an
	// earlier warning is lost when a later filter passes).
	Reason  PodDeleteReason
	Message string
	// Filter names that filter — skipDeleted, daemonSet, mirrorPod,
	// localStorage or unreplicated — when it decided something: it kept
	// the pod, or passed it with a warning. It is empty for a pod every
	// filter passed without a word.
	Filter string
}

// DrainPlan is what `kubectl drain <node>` would do, before it evicts
// anything (Helper.GetPodsForDeletion and CheckEvictionSupport).
type DrainPlan struct {
	// Node is the node drained.
	Node string
	// ListError is set when the pods could not be listed (an unparsable
	// PodSelector); nothing else is then filled in but Errors.
	ListError error
	// Pods has one entry per pod on the node matching the selector, in
	// the API's list order (namespace, then name).
	Pods []PodDrain
	// Warnings are drain's warning groups, "<message>: ns/a, ns/b",
	// sorted (upstream prints them in map order).
	Warnings []string
	// Errors are the reasons the drain cannot proceed, one group per
	// message, "cannot delete <message>: ns/a, ns/b", sorted.
	Errors []string
	// Evict is set when pods would go through the Eviction API at
	// GroupVersion; otherwise they are deleted directly.
	Evict        bool
	GroupVersion string
}

// Method renders how pods would be removed: "evict <group/version>" or
// "delete".
func (p DrainPlan) Method() string {
	if p.Evict {
		return "evict " + p.GroupVersion
	}
	return "delete"
}

// ToDelete returns the pods to be evicted or deleted, in list order.
func (p DrainPlan) ToDelete() []*api.Pod {
	var out []*api.Pod
	for _, d := range p.Pods {
		if d.Delete {
			out = append(out, d.Pod)
		}
	}
	return out
}

// Blocked reports whether drain would stop without removing anything
// because some pod cannot be deleted.
func (p DrainPlan) Blocked() bool { return p.ListError != nil || len(p.Errors) > 0 }

// ErrPodSelector is wrapped by DrainPlan.ListError for a bad PodSelector.
var ErrPodSelector = errors.New("drain: invalid pod selector")

// PlanDrain decides what `kubectl drain node` does with the pods on that
// node (k8s.io/kubectl/pkg/drain GetPodsForDeletion): pods are listed in
// namespace/name order, restricted to flags.PodSelector, and run through
// the filters in order — skip pods deleted long ago, DaemonSet pods, mirror
// pods, pods with emptyDir volumes, pods without a controller — each pod
// keeping the status of the first filter that does not let it go (or of
// the last one). Finished pods (Succeeded/Failed) pass the DaemonSet, local
// storage and controller filters. A pod's controller is a DaemonSet only
// when its owner reference says kind DaemonSet and apiVersion apps/v1; a
// DaemonSet not in daemonSets does not exist, which is an error unless
// Force, then a warning. now ages deletionTimestamps in whole seconds,
// truncated. Pods whose spec.nodeName is another node are ignored, and so
// are nil pods and DaemonSets.
func PlanDrain(node string, pods []*api.Pod, daemonSets []*api.DaemonSet, flags DrainFlags, now time.Time) DrainPlan {
	plan := DrainPlan{Node: node}
	sel, err := api.ParseSelector(flags.PodSelector)
	if err != nil {
		plan.ListError = fmt.Errorf("%w: %s", ErrPodSelector, upstreamSelectorError(err))
		plan.Errors = []string{upstreamSelectorError(err)}
		return plan
	}
	if !flags.DisableEviction && !flags.EvictionUnsupported {
		plan.Evict, plan.GroupVersion = true, flags.EvictionGroupVersion
		if plan.GroupVersion == "" {
			plan.GroupVersion = DefaultEvictionGroupVersion
		}
	}
	ds := make(map[nsName]bool, len(daemonSets))
	for _, d := range daemonSets {
		if d != nil {
			ds[nsName{d.Namespace, d.Name}] = true
		}
	}
	listed := make([]*api.Pod, 0, len(pods))
	for _, p := range pods {
		if p != nil && p.Spec.NodeName == node && sel.Matches(api.Set(p.Labels)) {
			listed = append(listed, p)
		}
	}
	slices.SortStableFunc(listed, func(a, b *api.Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	f := drainFilters{flags: &flags, daemonSets: ds, now: now}
	plan.Pods = make([]PodDrain, 0, len(listed))
	for _, p := range listed {
		plan.Pods = append(plan.Pods, f.run(p))
	}
	plan.Warnings = groupMessages(plan.Pods, DrainWarning, func(msg string) string { return msg })
	plan.Errors = groupMessages(plan.Pods, DrainError, func(msg string) string {
		if msg == "" {
			msg = "unexpected error"
		}
		if strings.HasPrefix(strings.ToLower(msg), "cannot delete") {
			return msg
		}
		return "cannot delete " + msg
	})
	return plan
}

// groupMessages joins the pods of each message as drain's Warnings() and
// errors() do, one "<message>: ns/a, ns/b" entry per message, sorted.
func groupMessages(pods []PodDrain, reason PodDeleteReason, label func(string) string) []string {
	var order []string
	groups := map[string][]string{}
	for _, d := range pods {
		if d.Reason != reason {
			continue
		}
		k := label(d.Message)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], d.Pod.Namespace+"/"+d.Pod.Name)
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+": "+strings.Join(groups[k], ", "))
	}
	slices.Sort(out)
	return out
}

type drainFilters struct {
	flags      *DrainFlags
	daemonSets map[nsName]bool
	now        time.Time
}

// drainFilterNames are kubectl drain's filters, in the order it runs them.
var drainFilterNames = [...]string{"skipDeleted", "daemonSet", "mirrorPod", "localStorage", "unreplicated"}

func (f *drainFilters) run(p *api.Pod) PodDrain {
	var d PodDrain
	for i, name := range drainFilterNames {
		var del bool
		var reason PodDeleteReason
		var msg string
		switch i {
		case 0:
			del, reason, msg = f.skipDeleted(p)
		case 1:
			del, reason, msg = f.daemonSet(p)
		case 2:
			del, reason, msg = f.mirrorPod(p)
		case 3:
			del, reason, msg = f.localStorage(p)
		default:
			del, reason, msg = f.unreplicated(p)
		}
		d = PodDrain{Pod: p, Delete: del, Reason: reason, Message: msg, Filter: name}
		if !del {
			break
		}
	}
	if d.Delete && d.Reason == DrainOkay {
		d.Filter = ""
	}
	return d
}

func okay() (bool, PodDeleteReason, string) { return true, DrainOkay, "" }

func finished(p *api.Pod) bool { return p.Status.Phase.IsTerminal() }

func (f *drainFilters) skipDeleted(p *api.Pod) (bool, PodDeleteReason, string) {
	t := f.flags.SkipWaitForDeleteTimeoutSeconds
	if t > 0 && p.DeletionTimestamp != nil && !p.DeletionTimestamp.IsZero() &&
		int(f.now.Sub(p.DeletionTimestamp.Time).Seconds()) > t {
		return false, DrainSkip, ""
	}
	return okay()
}

func (f *drainFilters) daemonSet(p *api.Pod) (bool, PodDeleteReason, string) {
	ref := p.ControllerRef()
	if ref == nil || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" {
		return okay()
	}
	if finished(p) {
		return okay()
	}
	if !f.daemonSets[nsName{p.Namespace, ref.Name}] {
		msg := fmt.Sprintf("daemonsets.apps %q not found", ref.Name)
		if f.flags.Force {
			return true, DrainWarning, msg
		}
		return false, DrainError, msg
	}
	if !f.flags.IgnoreAllDaemonSets {
		return false, DrainError, MsgDaemonSetFatal
	}
	return false, DrainWarning, MsgDaemonSetWarning
}

func (f *drainFilters) mirrorPod(p *api.Pod) (bool, PodDeleteReason, string) {
	if api.IsMirrorPod(p) {
		return false, DrainSkip, ""
	}
	return okay()
}

func (f *drainFilters) localStorage(p *api.Pod) (bool, PodDeleteReason, string) {
	if !hasEmptyDir(p) || finished(p) {
		return okay()
	}
	if !f.flags.DeleteEmptyDirData {
		return false, DrainError, MsgLocalStorageFatal
	}
	return true, DrainWarning, MsgLocalStorageWarning
}

func (f *drainFilters) unreplicated(p *api.Pod) (bool, PodDeleteReason, string) {
	if finished(p) || p.ControllerRef() != nil {
		return okay()
	}
	if f.flags.Force {
		return true, DrainWarning, MsgUnmanagedWarning
	}
	return false, DrainError, MsgUnmanagedFatal
}

func hasEmptyDir(p *api.Pod) bool {
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].EmptyDir != nil {
			return true
		}
	}
	return false
}

var selectorFound = regexp.MustCompile(`^found (end of string|'.*'), expected: (.*)$`)

// upstreamSelectorError words a selector parse error as apimachinery's
// labels.Parse does, which kubectl drain reports verbatim: tokens are
// quoted (” at the end of the input), errors inside one requirement are
// prefixed "unable to parse requirement: ", and no position is given.
func upstreamSelectorError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": position "); i >= 0 {
		if j := strings.Index(msg[i+len(": position "):], ": "); j >= 0 {
			msg = msg[i+len(": position ")+j+2:]
		}
	}
	m := selectorFound.FindStringSubmatch(msg)
	if m == nil {
		return "unable to parse requirement: " + fieldErrorText(msg)
	}
	tok, want := m[1], m[2]
	if tok == "end of string" {
		tok = "''"
	}
	switch want {
	case "',' or 'end of string'", "identifier after ','", "!, identifier, or 'end of string'":
		return "found " + tok + ", expected: " + want
	case "'('":
		return "unable to parse requirement: found " + tok + " expected: '('"
	}
	return "unable to parse requirement: found " + tok + ", expected: " + want
}

var (
	badKeyPrefix      = regexp.MustCompile(`^invalid label key ("(?:[^"\\]|\\.)*"): `)
	requirementPrefix = regexp.MustCompile(`^requirement on "(?:[^"\\]|\\.)*": `)
)

// fieldErrorText words a requirement's validation problems as labels.Parse
// does. An invalid key is reported on its own, as a field error with no
// field path ("<nil>: Invalid value: ..."); the problems found while
// building the requirement (operator arity, non-integer gt/lt operands,
// invalid values) are an aggregate: one problem reads as itself, several
// as "[a, b]".
func fieldErrorText(msg string) string {
	if m := badKeyPrefix.FindStringSubmatch(msg); m != nil {
		return "<nil>: Invalid value: " + m[1] + ": " + msg[len(m[0]):]
	}
	loc := requirementPrefix.FindStringIndex(msg)
	if loc == nil {
		return msg
	}
	msg = msg[loc[1]:]
	// Each problem starts with its field path, "values..." or "operator";
	// the details themselves may contain "; ".
	var parts []string
	for rest := msg; ; {
		i := nextProblem(rest)
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:i])
		rest = rest[i+2:]
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// nextProblem finds the "; " that separates two joined field errors.
func nextProblem(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], "; ")
		if i < 0 {
			return -1
		}
		i += off
		if rest := s[i+2:]; strings.HasPrefix(rest, "values") || strings.HasPrefix(rest, "operator: ") {
			return i
		}
		off = i + 2
	}
}
