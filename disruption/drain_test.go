package disruption

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func emptyDir(p *api.Pod) {
	p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}})
}

func mirror(p *api.Pod) { p.Annotations = map[string]string{api.ConfigMirrorAnnotationKey: "x"} }

func daemonSet(ns, name string) *api.DaemonSet {
	return &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}}
}

func TestPlanDrainFilters(t *testing.T) {
	rs := ownedBy("ReplicaSet", "apps/v1", "rs", "uid-rs")
	ds := ownedBy("DaemonSet", "apps/v1", "agent", "uid-agent")
	dsOld := ownedBy("DaemonSet", "extensions/v1beta1", "agent", "uid-agent")
	dsGone := ownedBy("DaemonSet", "apps/v1", "gone", "uid-gone")
	sets := []*api.DaemonSet{daemonSet("ns-1", "agent")}
	deletedLongAgo := func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(t0.Add(-61 * time.Second)) }
	deletedJustNow := func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(t0.Add(-60*time.Second - 900*time.Millisecond)) }

	tests := []struct {
		name   string
		pod    *api.Pod
		flags  DrainFlags
		del    bool
		reason PodDeleteReason
		msg    string
		filter string
	}{
		{"replicated pod", newPod("a", rs), DrainFlags{}, true, DrainOkay, "", ""},
		{"bare pod", newPod("a"), DrainFlags{}, false, DrainError, MsgUnmanagedFatal, "unreplicated"},
		{"bare pod, force", newPod("a"), DrainFlags{Force: true}, true, DrainWarning, MsgUnmanagedWarning, "unreplicated"},
		{"finished bare pod", newPod("a", phase(api.PodSucceeded)), DrainFlags{}, true, DrainOkay, "", ""},
		{"DaemonSet pod", newPod("a", ds), DrainFlags{}, false, DrainError, MsgDaemonSetFatal, "daemonSet"},
		{"DaemonSet pod, ignored", newPod("a", ds), DrainFlags{IgnoreAllDaemonSets: true}, false, DrainWarning, MsgDaemonSetWarning, "daemonSet"},
		{"finished DaemonSet pod", newPod("a", ds, phase(api.PodFailed)), DrainFlags{}, true, DrainOkay, "", ""},
		{"old DaemonSet apiVersion is just a controller", newPod("a", dsOld), DrainFlags{}, true, DrainOkay, "", ""},
		{"vanished DaemonSet", newPod("a", dsGone), DrainFlags{IgnoreAllDaemonSets: true}, false, DrainError, `daemonsets.apps "gone" not found`, "daemonSet"},
		{"vanished DaemonSet, force", newPod("a", dsGone), DrainFlags{Force: true}, true, DrainOkay, "", ""},
		{"mirror pod", newPod("a", mirror), DrainFlags{}, false, DrainSkip, "", "mirrorPod"},
		{"emptyDir", newPod("a", rs, emptyDir), DrainFlags{}, false, DrainError, MsgLocalStorageFatal, "localStorage"},
		{"emptyDir allowed: the warning is lost", newPod("a", rs, emptyDir), DrainFlags{DeleteEmptyDirData: true}, true, DrainOkay, "", ""},
		{"emptyDir on a bare pod, forced", newPod("a", emptyDir), DrainFlags{DeleteEmptyDirData: true, Force: true}, true, DrainWarning, MsgUnmanagedWarning, "unreplicated"},
		{"deleted long ago", newPod("a", deletedLongAgo), DrainFlags{SkipWaitForDeleteTimeoutSeconds: 60}, false, DrainSkip, "", "skipDeleted"},
		{"age truncates to whole seconds", newPod("a", rs, deletedJustNow), DrainFlags{SkipWaitForDeleteTimeoutSeconds: 60}, true, DrainOkay, "", ""},
		{"skip off", newPod("a", rs, deletedLongAgo), DrainFlags{}, true, DrainOkay, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := PlanDrain("node-1", []*api.Pod{tc.pod}, sets, tc.flags, t0)
			if len(plan.Pods) != 1 {
				t.Fatalf("%d verdicts", len(plan.Pods))
			}
			d := plan.Pods[0]
			if d.Delete != tc.del || d.Reason != tc.reason || d.Message != tc.msg || d.Filter != tc.filter {
				t.Errorf("got %v %s %q (%s), want %v %s %q (%s)", d.Delete, d.Reason, d.Message, d.Filter, tc.del, tc.reason, tc.msg, tc.filter)
			}
			if (tc.reason == DrainError) != plan.Blocked() {
				t.Errorf("blocked = %v with errors %v", plan.Blocked(), plan.Errors)
			}
		})
	}
}

func TestPlanDrainGroupsAndOrder(t *testing.T) {
	pods := []*api.Pod{
		newPod("z-bare"),
		newPod("a-bare", namespace("ns-0")),
		newPod("agent-1", ownedBy("DaemonSet", "apps/v1", "agent", "u")),
		newPod("elsewhere", func(p *api.Pod) { p.Spec.NodeName = "node-2" }),
		newPod("web", ownedBy("ReplicaSet", "apps/v1", "rs", "u"), labels("app", "web", "tier", "fe")),
	}
	plan := PlanDrain("node-1", pods, []*api.DaemonSet{daemonSet("ns-1", "agent")}, DrainFlags{Force: true, IgnoreAllDaemonSets: true, EvictionGroupVersion: "policy/v1"}, t0)
	var order []string
	for _, d := range plan.Pods {
		order = append(order, d.Pod.Key())
	}
	if want := []string{"ns-0/a-bare", "ns-1/agent-1", "ns-1/web", "ns-1/z-bare"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	wantWarn := []string{
		"deleting Pods that declare no controller: ns-0/a-bare, ns-1/z-bare",
		"ignoring DaemonSet-managed Pods: ns-1/agent-1",
	}
	if !slices.Equal(plan.Warnings, wantWarn) {
		t.Errorf("warnings %q", plan.Warnings)
	}
	if len(plan.Errors) != 0 || plan.Method() != "evict policy/v1" {
		t.Errorf("errors %v method %s", plan.Errors, plan.Method())
	}
	if got := len(plan.ToDelete()); got != 3 {
		t.Errorf("%d pods to delete", got)
	}

	plan = PlanDrain("node-1", pods, nil, DrainFlags{PodSelector: "tier=fe", EvictionGroupVersion: "policy/v1", DisableEviction: true}, t0)
	if len(plan.Pods) != 1 || plan.Pods[0].Pod.Name != "web" || plan.Method() != "delete" {
		t.Errorf("selector/disable-eviction: %+v %s", plan.Pods, plan.Method())
	}
	plan = PlanDrain("node-1", pods, nil, DrainFlags{}, t0)
	want := []string{
		"cannot delete Pods that declare no controller (use --force to override): ns-0/a-bare, ns-1/z-bare",
		`cannot delete daemonsets.apps "agent" not found: ns-1/agent-1`,
	}
	if !slices.Equal(plan.Errors, want) || plan.Method() != "evict policy/v1" {
		t.Errorf("errors %q method %s", plan.Errors, plan.Method())
	}
}

func TestPlanDrainSelectorErrors(t *testing.T) {
	for sel, want := range map[string]string{
		"app in (":    "unable to parse requirement: found '', expected: ',', ')' or identifier",
		"app in x":    "unable to parse requirement: found 'x' expected: '('",
		"a b":         "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
		"a=b c":       "found 'c', expected: ',' or 'end of string'",
		"a=b,":        "found '', expected: identifier after ','",
		"=":           "found '=', expected: !, identifier, or 'end of string'",
		"bad key!!=x": "",
		// An invalid key is a field error without a field path.
		"-a=b": `unable to parse requirement: <nil>: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		"/a=b": `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`,
		// One invalid value reads as itself, several as a bracketed list.
		"app=web-": `unable to parse requirement: values[0][app]: Invalid value: "web-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
		"app>x-":   `unable to parse requirement: [values[0]: Invalid value: "x-": for 'Gt', 'Lt' operators, the value must be an integer, values[0][app]: Invalid value: "x-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`,
	} {
		plan := PlanDrain("node-1", []*api.Pod{newPod("a")}, nil, DrainFlags{PodSelector: sel}, t0)
		if plan.ListError == nil || !errors.Is(plan.ListError, ErrPodSelector) || len(plan.Errors) != 1 || plan.Pods != nil {
			t.Errorf("%q: want a list error, got %+v", sel, plan)
			continue
		}
		if want != "" && plan.Errors[0] != want {
			t.Errorf("%q: error %q, want %q", sel, plan.Errors[0], want)
		}
		if want == "" && !strings.HasPrefix(plan.Errors[0], "unable to parse requirement: ") {
			t.Errorf("%q: error %q", sel, plan.Errors[0])
		}
	}
}

// The zero DrainFlags are kubectl drain's defaults: evict through
// policy/v1, as a v1.36.3 API server advertises it.
func TestPlanDrainZeroFlagsEvict(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "web-1", OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", Controller: ptr(true)}}}, Spec: api.PodSpec{NodeName: "node-1"}}
	plan := PlanDrain("node-1", []*api.Pod{pod}, nil, DrainFlags{}, t0)
	if got := plan.Method(); got != "evict policy/v1" {
		t.Errorf("zero flags: method %q, want evict policy/v1", got)
	}
	plan = PlanDrain("node-1", []*api.Pod{pod}, nil, DrainFlags{EvictionUnsupported: true}, t0)
	if got := plan.Method(); got != "delete" {
		t.Errorf("eviction unsupported: method %q, want delete", got)
	}
}
