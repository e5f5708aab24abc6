package validation_test

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// ql builds a resource list from name, amount pairs.
func ql(pairs ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i+1 < len(pairs); i += 2 {
		l[api.ResourceName(pairs[i])] = api.MustParseQuantity(pairs[i+1])
	}
	return l
}

// validQuota is a quota kube-apiserver accepts: pod count, compute,
// an object count and an extended resource.
func validQuota() *api.ResourceQuota {
	return &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "compute", Namespace: "team-a"},
		Spec: api.ResourceQuotaSpec{Hard: ql("pods", "10", "requests.cpu", "4", "limits.memory", "8Gi",
			"count/deployments.apps", "5", "requests.nvidia.com/gpu", "2")},
	}
}

// TestValidateResourceQuota: core validation's ResourceQuota rules, each
// refusal with upstream's paths, values and wording, in upstream's order.
func TestValidateResourceQuota(t *testing.T) {
	selector := func(reqs ...api.ScopedResourceSelectorRequirement) *api.ScopeSelector {
		return &api.ScopeSelector{MatchExpressions: reqs}
	}
	req := func(scope, op string, values ...string) api.ScopedResourceSelectorRequirement {
		return api.ScopedResourceSelectorRequirement{ScopeName: scope, Operator: op, Values: values}
	}
	const (
		mustExists = "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"
		qualified  = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	)
	for _, tc := range []struct {
		name   string
		change func(*api.ResourceQuota)
		want   []string // nil for valid
	}{
		{"valid", func(*api.ResourceQuota) {}, nil},
		{"huge pages", func(q *api.ResourceQuota) { q.Spec.Hard = ql("hugepages-2Mi", "1Gi", "requests.hugepages-1Gi", "2Gi") }, nil},
		{"all object counts", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("services", "1", "services.loadbalancers", "0", "services.nodeports", "2", "secrets", "3",
				"configmaps", "4", "persistentvolumeclaims", "5", "replicationcontrollers", "6", "resourcequotas", "1",
				"requests.storage", "10Gi", "ephemeral-storage", "1Gi", "limits.ephemeral-storage", "2Gi")
		}, nil},
		{"no namespace", func(q *api.ResourceQuota) { q.Namespace = "" }, []string{"metadata.namespace: Required value"}},
		{"unknown name", func(q *api.ResourceQuota) { q.Spec.Hard = ql("foo", "1") }, []string{
			`spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified`,
			`spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota`}},
		{"storage is no quota name", func(q *api.ResourceQuota) { q.Spec.Hard = ql("storage", "1Gi") }, []string{
			`spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota`}},
		{"limits.hugepages", func(q *api.ResourceQuota) { q.Spec.Hard = ql("limits.hugepages-2Mi", "1Gi") }, []string{
			`spec.hard[limits.hugepages-2Mi]: Invalid value: "limits.hugepages-2Mi": must be a standard resource type or fully qualified`,
			`spec.hard[limits.hugepages-2Mi]: Invalid value: "limits.hugepages-2Mi": must be a standard resource for quota`}},
		{"not a qualified name", func(q *api.ResourceQuota) { q.Spec.Hard = ql("a b", "1") }, []string{
			`spec.hard[a b]: Invalid value: "a b": ` + qualified,
			`spec.hard[a b]: Invalid value: "a b": must be a standard resource for quota`}},
		{"json rendering of a name", func(q *api.ResourceQuota) { q.Spec.Hard = ql("x.io/a<b", "1") }, []string{
			`spec.hard[x.io/a<b]: Invalid value: "x.io/a\u003cb": ` + qualified}},
		{"fractional pods", func(q *api.ResourceQuota) { q.Spec.Hard = ql("pods", "1500m") }, []string{
			`spec.hard[pods]: Invalid value: "1500m": must be an integer`}},
		{"fractional config maps", func(q *api.ResourceQuota) { q.Spec.Hard = ql("configmaps", "0.5") }, []string{
			`spec.hard[configmaps]: Invalid value: "500m": must be an integer`}},
		{"fractional count", func(q *api.ResourceQuota) { q.Spec.Hard = ql("count/jobs.batch", "2.5") }, []string{
			`spec.hard[count/jobs.batch]: Invalid value: "2500m": must be an integer`}},
		{"fractional extended resource", func(q *api.ResourceQuota) { q.Spec.Hard = ql("nvidia.com/gpu", "1.5") }, []string{
			`spec.hard[nvidia.com/gpu]: Invalid value: "1500m": must be an integer`}},
		// Upstream's integer rule does not see through the requests. prefix.
		{"fractional requests.<extended>", func(q *api.ResourceQuota) { q.Spec.Hard = ql("requests.nvidia.com/gpu", "1.5") }, nil},
		{"negative", func(q *api.ResourceQuota) { q.Spec.Hard = ql("requests.cpu", "-1") }, []string{
			`spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0`}},
		{"negative and fractional", func(q *api.ResourceQuota) { q.Spec.Hard = ql("secrets", "-1.5") }, []string{
			`spec.hard[secrets]: Invalid value: "-1500m": must be greater than or equal to 0`,
			`spec.hard[secrets]: Invalid value: "-1500m": must be an integer`}},
		{"names sorted", func(q *api.ResourceQuota) { q.Spec.Hard = ql("services", "-1", "pods", "-1") }, []string{
			`spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.hard[services]: Invalid value: "-1": must be greater than or equal to 0`}},
		{"scope for pods", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "10", "requests.cpu", "1", "count/pods", "3", "example.com/foo", "1")
			q.Spec.Scopes = []string{"NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity"}
		}, nil},
		{"unknown scope", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"Expensive"} }, []string{
			`spec.scopes: Invalid value: ["Expensive"]: unsupported scope`}},
		{"scope misapplied", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1", "services", "1")
			q.Spec.Scopes = []string{"Terminating"}
		}, []string{`spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource`}},
		{"BestEffort counts pods only", func(q *api.ResourceQuota) { q.Spec.Scopes = []string{"BestEffort"} }, []string{
			`spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`,
			`spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`}},
		{"conflicting scopes", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.Scopes = []string{"NotBestEffort", "Terminating", "BestEffort", "NotTerminating"}
		}, []string{
			`spec.scopes: Invalid value: ["NotBestEffort","Terminating","BestEffort","NotTerminating"]: conflicting scopes`,
			`spec.scopes: Invalid value: ["NotBestEffort","Terminating","BestEffort","NotTerminating"]: conflicting scopes`}},
		{"volume attributes class", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("persistentvolumeclaims", "10", "requests.storage", "10Gi")
			q.Spec.ScopeSelector = selector(req("VolumeAttributesClass", "In", "gold"))
		}, nil},
		{"volume attributes class on pods", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.Scopes = []string{"VolumeAttributesClass"}
		}, []string{`spec.scopes: Invalid value: ["VolumeAttributesClass"]: unsupported scope applied to resource`}},
		{"priority class selector", func(q *api.ResourceQuota) {
			q.Spec.ScopeSelector = selector(req("PriorityClass", "In", "high"), req("PriorityClass", "NotIn", "low"),
				req("PriorityClass", "DoesNotExist"), req("Terminating", "Exists"))
			q.Spec.Hard = ql("pods", "1", "requests.cpu", "1")
		}, nil},
		{"In without values", func(q *api.ResourceQuota) { q.Spec.ScopeSelector = selector(req("PriorityClass", "In")) }, []string{
			"spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"}},
		{"Exists with values", func(q *api.ResourceQuota) { q.Spec.ScopeSelector = selector(req("PriorityClass", "Exists", "a", "b")) }, []string{
			`spec.scopeSelector.matchExpressions.values: Invalid value: ["a","b"]: must be no value when ` + "`operator` is 'Exist' or 'DoesNotExist' for scope selector"}},
		{"In on Terminating", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.ScopeSelector = selector(req("Terminating", "In", "x"))
		}, []string{`spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ` + mustExists}},
		{"unknown operator", func(q *api.ResourceQuota) { q.Spec.ScopeSelector = selector(req("PriorityClass", "Gt", "1")) }, []string{
			`spec.scopeSelector.matchExpressions.operator: Invalid value: "Gt": not a valid selector operator`}},
		{"unknown operator on BestEffort", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.ScopeSelector = selector(req("BestEffort", ""))
		}, []string{
			`spec.scopeSelector.matchExpressions.operator: Invalid value: "": ` + mustExists,
			`spec.scopeSelector.matchExpressions.operator: Invalid value: "": not a valid selector operator`}},
		{"unknown selector scope", func(q *api.ResourceQuota) { q.Spec.ScopeSelector = selector(req("Expensive", "Exists")) }, []string{
			`spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Expensive": unsupported scope`}},
		{"selector scope misapplied", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1", "limits.cpu", "1")
			q.Spec.ScopeSelector = selector(req("BestEffort", "Exists"))
		}, []string{
			`spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}: unsupported scope applied to resource`}},
		{"conflicting selector", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.ScopeSelector = selector(req("BestEffort", "Exists"), req("NotBestEffort", "Exists"))
		}, []string{`spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes`}},
		{"conflicting selector shows the scopes", func(q *api.ResourceQuota) {
			q.Spec.Hard = ql("pods", "1")
			q.Spec.Scopes = []string{"Terminating"}
			q.Spec.ScopeSelector = selector(req("Terminating", "Exists"), req("NotTerminating", "Exists"))
		}, []string{`spec.scopeSelector.matchExpressions: Invalid value: ["Terminating"]: conflicting scopes`}},
		{"status names and amounts", func(q *api.ResourceQuota) {
			q.Status = api.ResourceQuotaStatus{Hard: ql("pods", "10", "foo", "1"), Used: ql("pods", "-1")}
		}, []string{
			`status.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified`,
			`status.hard[foo]: Invalid value: "foo": must be a standard resource for quota`,
			`status.used[pods]: Invalid value: "-1": must be greater than or equal to 0`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := validQuota()
			tc.change(q)
			checkMessages(t, validation.ValidateResourceQuota(q), tc.want)
		})
	}
}

// checkMessages compares the messages of errs, in order, with want.
func checkMessages(t *testing.T, errs api.FieldErrors, want []string) {
	t.Helper()
	got := make([]string, 0, len(errs))
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestResourceQuotaInvalidMessage: the whole 422 text, duplicates listed
// once as the API server's aggregate does.
func TestResourceQuotaInvalidMessage(t *testing.T) {
	q := validQuota()
	q.Spec.Scopes = []string{"BestEffort"}
	got := validation.InvalidObjectMessage("ResourceQuota", "", q.Name, validation.ValidateResourceQuota(q))
	if want := `ResourceQuota "compute" is invalid: spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestValidateResourceQuotaUpdate(t *testing.T) {
	old := validQuota()
	old.ResourceVersion, old.UID = "7", "uid-1"
	old.Spec.Hard = ql("pods", "10", "requests.cpu", "4")
	old.Spec.Scopes = []string{"NotTerminating", "NotBestEffort"}
	old.Status = api.ResourceQuotaStatus{Hard: old.Spec.Hard, Used: ql("pods", "1", "requests.cpu", "500m")}
	for _, tc := range []struct {
		name   string
		change func(*api.ResourceQuota)
		want   []string
	}{
		{"unchanged", func(*api.ResourceQuota) {}, nil},
		{"hard may change", func(q *api.ResourceQuota) { q.Spec.Hard = ql("pods", "20") }, nil},
		{"scopes reordered and repeated", func(q *api.ResourceQuota) {
			q.Spec.Scopes = []string{"NotBestEffort", "NotTerminating", "NotBestEffort"}
		}, nil},
		{"status not looked at", func(q *api.ResourceQuota) { q.Status.Used = ql("pods", "-1") }, nil},
		{"scope added", func(q *api.ResourceQuota) { q.Spec.Scopes = append(q.Spec.Scopes, "PriorityClass") }, []string{
			`spec.scopes: Invalid value: ["NotTerminating","NotBestEffort","PriorityClass"]: field is immutable`}},
		{"scopes dropped", func(q *api.ResourceQuota) { q.Spec.Scopes = nil }, []string{
			`spec.scopes: Invalid value: null: field is immutable`}},
		{"spec rules", func(q *api.ResourceQuota) { q.Spec.Hard = ql("services", "1") }, []string{
			`spec.scopes: Invalid value: ["NotTerminating","NotBestEffort"]: unsupported scope applied to resource`,
			`spec.scopes: Invalid value: ["NotTerminating","NotBestEffort"]: unsupported scope applied to resource`}},
		{"no resourceVersion", func(q *api.ResourceQuota) { q.ResourceVersion = "" }, []string{
			`metadata.resourceVersion: Invalid value: "": must be specified for an update`}},
		{"renamed", func(q *api.ResourceQuota) { q.Name = "other" }, []string{
			`metadata.name: Invalid value: "other": field is immutable`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := old.DeepCopy()
			tc.change(q)
			checkMessages(t, validation.ValidateResourceQuotaUpdate(q, old), tc.want)
		})
	}
}

func TestValidateResourceQuotaStatusUpdate(t *testing.T) {
	old := validQuota()
	old.ResourceVersion = "7"
	old.Spec.Scopes = []string{"BestEffort"} // an invalid spec is not looked at
	for _, tc := range []struct {
		name   string
		change func(*api.ResourceQuota)
		want   []string
	}{
		{"recount", func(q *api.ResourceQuota) {
			q.Status = api.ResourceQuotaStatus{Hard: q.Spec.Hard, Used: ql("pods", "3", "requests.cpu", "1500m")}
		}, nil},
		{"negative use", func(q *api.ResourceQuota) { q.Status.Used = ql("pods", "-1", "count/pods", "0.5") }, []string{
			`status.used[count/pods]: Invalid value: "500m": must be an integer`,
			`status.used[pods]: Invalid value: "-1": must be greater than or equal to 0`}},
		{"bad hard name", func(q *api.ResourceQuota) { q.Status.Hard = ql("cpus", "1") }, []string{
			`status.hard[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified`,
			`status.hard[cpus]: Invalid value: "cpus": must be a standard resource for quota`}},
		{"no resourceVersion", func(q *api.ResourceQuota) { q.ResourceVersion = "" }, []string{
			`metadata.resourceVersion: Invalid value: "": must be specified for an update`,
			"resourceVersion: Required value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := old.DeepCopy()
			tc.change(q)
			checkMessages(t, validation.ValidateResourceQuotaStatusUpdate(q, old), tc.want)
		})
	}
}

// validLimitRange is the LimitRange of the docs' "cpu-resource-constraint"
// example with a ratio, a Pod item and a claim item, defaulted.
func validLimitRange() *api.LimitRange {
	lr := &api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "cpu-resource-constraint", Namespace: "team-a"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{
			{Type: api.LimitTypeContainer, Max: ql("cpu", "2"), Min: ql("cpu", "100m"), Default: ql("cpu", "1"),
				DefaultRequest: ql("cpu", "500m"), MaxLimitRequestRatio: ql("cpu", "4")},
			{Type: api.LimitTypePod, Max: ql("memory", "4Gi")},
			{Type: api.LimitTypePersistentVolumeClaim, Min: ql("storage", "1Gi"), Max: ql("storage", "10Gi")},
		}},
	}
	api.DefaultLimitRange(lr)
	return lr
}

// TestValidateLimitRange: core validation's LimitRange rules with
// upstream's paths, values (quirks included) and wording.
func TestValidateLimitRange(t *testing.T) {
	container := func(lr *api.LimitRange) *api.LimitRangeItem { return &lr.Spec.Limits[0] }
	for _, tc := range []struct {
		name   string
		change func(*api.LimitRange)
		want   []string
	}{
		{"valid", func(*api.LimitRange) {}, nil},
		{"qualified type", func(lr *api.LimitRange) {
			lr.Spec.Limits = append(lr.Spec.Limits, api.LimitRangeItem{Type: "example.com/Thing", Max: ql("example.com/widgets", "3", "storage", "1")})
		}, nil},
		{"extended and huge pages", func(lr *api.LimitRange) {
			c := container(lr)
			c.Max = ql("cpu", "2", "hugepages-2Mi", "8Mi", "example.com/gpu", "2")
			c.Default = ql("cpu", "1", "hugepages-2Mi", "4Mi", "example.com/gpu", "1")
			c.DefaultRequest = ql("cpu", "500m", "hugepages-2Mi", "4Mi", "example.com/gpu", "1")
		}, nil},
		{"no min: no ratio bound", func(lr *api.LimitRange) { container(lr).Min = ql("cpu", "0") }, nil},
		{"negative amounts unchecked", func(lr *api.LimitRange) { lr.Spec.Limits[1].Max = ql("memory", "-1") }, nil},
		{"no name", func(lr *api.LimitRange) { lr.Name = "" }, []string{"metadata.name: Required value: name or generateName is required"}},
		{"duplicate type", func(lr *api.LimitRange) { lr.Spec.Limits[1].Type = api.LimitTypeContainer }, []string{
			`spec.limits[1].type: Duplicate value: "Container"`}},
		{"unknown type", func(lr *api.LimitRange) { lr.Spec.Limits[1].Type = "Node" }, []string{
			`spec.limits[1].type: Invalid value: "Node": must be a standard limit type or fully qualified`}},
		{"empty type", func(lr *api.LimitRange) { lr.Spec.Limits[1].Type = "" }, []string{
			`spec.limits[1].type: Invalid value: "": name part must be non-empty`,
			`spec.limits[1].type: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`}},
		{"defaults on a Pod item", func(lr *api.LimitRange) {
			lr.Spec.Limits[1].Default = ql("memory", "1Gi")
			lr.Spec.Limits[1].DefaultRequest = ql("memory", "8Gi") // not compared with max
		}, []string{
			"spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'",
			"spec.limits[1].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'"}},
		{"claim without storage bounds", func(lr *api.LimitRange) { lr.Spec.Limits[2].Min, lr.Spec.Limits[2].Max = nil, nil }, []string{
			"spec.limits[2].limits: Required value: either minimum or maximum storage value is required, but neither was provided"}},
		{"storage on a container", func(lr *api.LimitRange) { container(lr).Max["storage"] = api.MustParseQuantity("1Gi") }, []string{
			`spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers`}},
		{"unknown name on a Pod item", func(lr *api.LimitRange) { lr.Spec.Limits[1].Max = ql("foo", "1") }, []string{
			`spec.limits[1].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified`,
			`spec.limits[1].max[foo]: Invalid value: "foo": must be a standard resource for containers`}},
		{"unknown name on a claim item", func(lr *api.LimitRange) { lr.Spec.Limits[2].Max["foo"] = api.MustParseQuantity("1") }, []string{
			`spec.limits[2].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified`}},
		{"min above everything", func(lr *api.LimitRange) { container(lr).Min = ql("cpu", "3") }, []string{
			`spec.limits[0].min[cpu]: Invalid value: "3": min value 3 is greater than max value 2`,
			`spec.limits[0].defaultRequest[cpu]: Invalid value: "500m": min value 3 is greater than default request value 500m`,
			`spec.limits[0].default[cpu]: Invalid value: "3": min value 3 is greater than default value 1`,
			`spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "4": ratio 4 is greater than max/min = 0.666667`}},
		{"default above max", func(lr *api.LimitRange) { container(lr).Default = ql("cpu", "3") }, []string{
			`spec.limits[0].default[cpu]: Invalid value: "2": default value 3 is greater than max value 2`}},
		{"default request above max and default", func(lr *api.LimitRange) { container(lr).DefaultRequest = ql("cpu", "2500m") }, []string{
			`spec.limits[0].defaultRequest[cpu]: Invalid value: "2500m": default request value 2500m is greater than max value 2`,
			`spec.limits[0].defaultRequest[cpu]: Invalid value: "2500m": default request value 2500m is greater than default limit value 1`}},
		{"ratio below 1", func(lr *api.LimitRange) { container(lr).MaxLimitRequestRatio = ql("cpu", "500m") }, []string{
			`spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1`}},
		{"ratio above max/min", func(lr *api.LimitRange) { container(lr).MaxLimitRequestRatio = ql("cpu", "30") }, []string{
			`spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "30": ratio 30 is greater than max/min = 20.000000`}},
		{"huge pages not overcommitted", func(lr *api.LimitRange) {
			c := container(lr)
			c.Default["hugepages-2Mi"] = api.MustParseQuantity("4Mi")
			c.DefaultRequest["hugepages-2Mi"] = api.MustParseQuantity("2Mi")
		}, []string{`spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi`}},
		{"resources sorted", func(lr *api.LimitRange) {
			c := container(lr)
			c.Min = ql("cpu", "3", "memory", "2Gi")
			c.Max = ql("cpu", "2", "memory", "1Gi")
			c.Default, c.DefaultRequest, c.MaxLimitRequestRatio = nil, nil, nil
		}, []string{
			`spec.limits[0].min[cpu]: Invalid value: "3": min value 3 is greater than max value 2`,
			`spec.limits[0].min[memory]: Invalid value: "2Gi": min value 2Gi is greater than max value 1Gi`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := validLimitRange()
			tc.change(lr)
			checkMessages(t, validation.ValidateLimitRange(lr), tc.want)
		})
	}
}

func TestValidateLimitRangeUpdate(t *testing.T) {
	old := validLimitRange()
	old.ResourceVersion, old.UID = "3", "uid-lr"
	lr := old.DeepCopy()
	lr.Spec.Limits = lr.Spec.Limits[:1] // every field may change
	checkMessages(t, validation.ValidateLimitRangeUpdate(lr, old), nil)
	lr.Name = "renamed"
	lr.Spec.Limits[0].Min = ql("cpu", "3")
	lr.Spec.Limits[0].Max = ql("cpu", "2")
	lr.Spec.Limits[0].Default, lr.Spec.Limits[0].DefaultRequest, lr.Spec.Limits[0].MaxLimitRequestRatio = nil, nil, nil
	checkMessages(t, validation.ValidateLimitRangeUpdate(lr, old), []string{
		`metadata.name: Invalid value: "renamed": field is immutable`,
		`spec.limits[0].min[cpu]: Invalid value: "3": min value 3 is greater than max value 2`})
}
