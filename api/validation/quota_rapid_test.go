package validation_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// Pools the quota and limit range generators draw from: valid names and
// amounts with a few of each kind that upstream refuses.
var (
	genQuotaNames = []string{"pods", "services", "configmaps", "secrets", "cpu", "requests.cpu", "limits.memory",
		"requests.storage", "persistentvolumeclaims", "count/pods", "count/deployments.apps", "requests.nvidia.com/gpu",
		"nvidia.com/gpu", "hugepages-2Mi", "requests.hugepages-1Gi", "storage", "foo", "a b", "limits.hugepages-2Mi"}
	genAmounts      = []string{"0", "1", "10", "1500m", "-1", "2Gi", "0.5", "100k"}
	genScopes       = []string{"Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass", "Expensive"}
	genOperators    = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", ""}
	genLimitNames   = []string{"cpu", "memory", "ephemeral-storage", "storage", "hugepages-2Mi", "example.com/gpu", "pods", "foo"}
	genLimitTypes   = []api.LimitType{api.LimitTypeContainer, api.LimitTypePod, api.LimitTypePersistentVolumeClaim, "Node", "example.com/Thing"}
	quotaErrorRoots = []string{"spec.", "status."}
)

func genResourceList(t *rapid.T, names []string, label string) api.ResourceList {
	l := api.ResourceList{}
	for _, n := range rapid.SliceOfNDistinct(rapid.SampledFrom(names), 0, 4, rapid.ID[string]).Draw(t, label) {
		l[api.ResourceName(n)] = api.MustParseQuantity(rapid.SampledFrom(genAmounts).Draw(t, label+"-"+n))
	}
	return l
}

// genQuota draws a quota with valid metadata and any mix of hard names,
// amounts, scopes and scope selector expressions, valid or not.
func genQuota(t *rapid.T) *api.ResourceQuota {
	q := &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "ns", ResourceVersion: "1"},
		Spec: api.ResourceQuotaSpec{
			Hard:   genResourceList(t, genQuotaNames, "hard"),
			Scopes: rapid.SliceOfN(rapid.SampledFrom(genScopes), 0, 3).Draw(t, "scopes"),
		},
	}
	if rapid.Bool().Draw(t, "selector") {
		q.Spec.ScopeSelector = &api.ScopeSelector{MatchExpressions: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) api.ScopedResourceSelectorRequirement {
			return api.ScopedResourceSelectorRequirement{
				ScopeName: rapid.SampledFrom(genScopes).Draw(t, "scope"),
				Operator:  rapid.SampledFrom(genOperators).Draw(t, "op"),
				Values:    rapid.SliceOfN(rapid.SampledFrom([]string{"high", "gold"}), 0, 2).Draw(t, "values"),
			}
		}), 0, 3).Draw(t, "expressions")}
	}
	if rapid.Bool().Draw(t, "status") {
		q.Status = api.ResourceQuotaStatus{Hard: q.Spec.Hard, Used: genResourceList(t, genQuotaNames, "used")}
	}
	return q
}

// fieldsAndDetails are the errors without their values, sorted: what a
// reordering of a list the values render must keep.
func fieldsAndDetails(errs api.FieldErrors) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Field+" "+string(e.Type)+" "+e.Detail)
	}
	slices.Sort(out)
	return out
}

// TestPropertyResourceQuotaValidation: for any quota, validation does not
// panic or modify it, names fields under spec or status only (its
// metadata is valid), and answers a deep copy alike; a valid quota stays
// valid when copied, updates onto itself and takes its own status; the
// order of spec.scopes changes no rule and is no change on an update.
func TestPropertyResourceQuotaValidation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := genQuota(t)
		before, _ := json.Marshal(q)
		errs := validation.ValidateResourceQuota(q)
		if after, _ := json.Marshal(q); string(after) != string(before) {
			t.Fatalf("validation modified the quota")
		}
		for _, e := range errs {
			if !slices.ContainsFunc(quotaErrorRoots, func(r string) bool { return strings.HasPrefix(e.Field, r) }) {
				t.Fatalf("error outside spec and status: %v", e)
			}
		}
		cp := q.DeepCopy()
		if got, want := validation.ValidateResourceQuota(cp).Error(), errs.Error(); got != want {
			t.Fatalf("deep copy answered %q, the quota %q", got, want)
		}
		if len(errs) == 0 {
			if e := validation.ValidateResourceQuotaUpdate(cp, q); len(e) > 0 {
				t.Fatalf("valid quota does not update onto itself: %v", e)
			}
			if e := validation.ValidateResourceQuotaStatusUpdate(cp, q); len(e) > 0 {
				t.Fatalf("valid quota does not take its own status: %v", e)
			}
		}
		rev := q.DeepCopy()
		slices.Reverse(rev.Spec.Scopes)
		if got, want := fieldsAndDetails(validation.ValidateResourceQuota(rev)), fieldsAndDetails(errs); !slices.Equal(got, want) {
			t.Fatalf("reversed scopes answered %v, want %v", got, want)
		}
		for _, e := range validation.ValidateResourceQuotaUpdate(rev, q) {
			if e.Detail == "field is immutable" {
				t.Fatalf("reordering the scopes counted as a change: %v", e)
			}
		}
	})
}

// genLimitRange draws a LimitRange with valid metadata and items of any
// type, names and amounts, valid or not.
func genLimitRange(t *rapid.T) *api.LimitRange {
	lr := &api.LimitRange{ObjectMeta: api.ObjectMeta{Name: "l", Namespace: "ns", ResourceVersion: "1"}}
	n := rapid.IntRange(0, 3).Draw(t, "items")
	for i := range n {
		l := fmt.Sprint("item", i)
		lr.Spec.Limits = append(lr.Spec.Limits, api.LimitRangeItem{
			Type:                 rapid.SampledFrom(genLimitTypes).Draw(t, l+"-type"),
			Max:                  genResourceList(t, genLimitNames, l+"-max"),
			Min:                  genResourceList(t, genLimitNames, l+"-min"),
			Default:              genResourceList(t, genLimitNames, l+"-default"),
			DefaultRequest:       genResourceList(t, genLimitNames, l+"-defaultRequest"),
			MaxLimitRequestRatio: genResourceList(t, genLimitNames, l+"-ratio"),
		})
	}
	if rapid.Bool().Draw(t, "defaulted") {
		api.DefaultLimitRange(lr)
	}
	return lr
}

// TestPropertyLimitRangeValidation: for any LimitRange, validation does
// not panic or modify it, names fields under spec.limits only, and
// answers a deep copy alike; a valid one updates onto itself.
func TestPropertyLimitRangeValidation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lr := genLimitRange(t)
		before, _ := json.Marshal(lr)
		errs := validation.ValidateLimitRange(lr)
		if after, _ := json.Marshal(lr); string(after) != string(before) {
			t.Fatalf("validation modified the LimitRange")
		}
		for _, e := range errs {
			if !strings.HasPrefix(e.Field, "spec.limits[") {
				t.Fatalf("error outside spec.limits: %v", e)
			}
		}
		if got, want := validation.ValidateLimitRange(lr.DeepCopy()).Error(), errs.Error(); got != want {
			t.Fatalf("deep copy answered %q, the LimitRange %q", got, want)
		}
		if len(errs) == 0 {
			if e := validation.ValidateLimitRangeUpdate(lr.DeepCopy(), lr); len(e) > 0 {
				t.Fatalf("valid LimitRange does not update onto itself: %v", e)
			}
		}
	})
}

// TestPropertyOrderedLimitRangeValid: a Container item whose amounts keep
// min <= defaultRequest <= default <= max for each resource, with a
// maxLimitRequestRatio from 1 to max/min, beside a Pod item with a max and
// a claim item with storage bounds, is always accepted.
func TestPropertyOrderedLimitRangeValid(t *testing.T) {
	milli := func(v int) api.Quantity { return api.MustParseQuantity(fmt.Sprintf("%dm", v)) }
	rapid.Check(t, func(t *rapid.T) {
		c := api.LimitRangeItem{Type: api.LimitTypeContainer, Max: api.ResourceList{}, Min: api.ResourceList{},
			Default: api.ResourceList{}, DefaultRequest: api.ResourceList{}, MaxLimitRequestRatio: api.ResourceList{}}
		for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]api.ResourceName{"cpu", "memory", "ephemeral-storage"}), 1, 3, rapid.ID[api.ResourceName]).Draw(t, "names") {
			v := rapid.SliceOfN(rapid.IntRange(1, 1_000_000), 4, 4).Draw(t, string(name))
			slices.Sort(v)
			c.Min[name], c.DefaultRequest[name], c.Default[name], c.Max[name] = milli(v[0]), milli(v[1]), milli(v[2]), milli(v[3])
			c.MaxLimitRequestRatio[name] = milli(rapid.IntRange(1000, 1000*v[3]/v[0]).Draw(t, string(name)+"-ratio"))
		}
		lr := &api.LimitRange{ObjectMeta: api.ObjectMeta{Name: "l", Namespace: "ns"}, Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{
			c,
			{Type: api.LimitTypePod, Max: api.ResourceList{"cpu": milli(rapid.IntRange(0, 1_000_000).Draw(t, "pod-max"))}},
			{Type: api.LimitTypePersistentVolumeClaim, Max: api.ResourceList{"storage": api.MustParseQuantity("10Gi")}},
		}}}
		if errs := validation.ValidateLimitRange(lr); len(errs) > 0 {
			t.Fatalf("ordered LimitRange refused: %v", errs)
		}
	})
}

// FuzzValidateQuotaAndLimitRange decodes arbitrary JSON as a ResourceQuota
// and as a LimitRange and runs every validator on them: none may panic,
// and a valid object must update onto itself.
func FuzzValidateQuotaAndLimitRange(f *testing.F) {
	for _, seed := range []string{
		`{"metadata":{"name":"q","namespace":"ns","resourceVersion":"1"},"spec":{"hard":{"pods":"10","requests.cpu":"4"},"scopes":["NotTerminating"]}}`,
		`{"metadata":{"name":"q"},"spec":{"hard":{"a b":"-1.5"},"scopes":["BestEffort","NotBestEffort"],"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In"},{"scopeName":"X","operator":"Gt","values":["a"]}]}},"status":{"used":{"pods":"0.5"}}}`,
		`{"metadata":{"name":"l","namespace":"ns","resourceVersion":"1"},"spec":{"limits":[{"type":"Container","max":{"cpu":"2"},"min":{"cpu":"0"},"maxLimitRequestRatio":{"cpu":"4"}},{"type":"Pod","default":{"memory":"1Gi"}},{"type":"PersistentVolumeClaim"}]}}`,
		`{}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var q api.ResourceQuota
		if json.Unmarshal(data, &q) == nil {
			errs := validation.ValidateResourceQuota(&q)
			validation.ValidateResourceQuotaStatusUpdate(&q, &q)
			if e := validation.ValidateResourceQuotaUpdate(&q, &q); len(errs) == 0 && q.ResourceVersion != "" && len(e) > 0 {
				t.Fatalf("valid quota does not update onto itself: %v", e)
			}
		}
		var lr api.LimitRange
		if json.Unmarshal(data, &lr) == nil {
			errs := validation.ValidateLimitRange(&lr)
			if e := validation.ValidateLimitRangeUpdate(&lr, &lr); len(errs) == 0 && lr.ResourceVersion != "" && len(e) > 0 {
				t.Fatalf("valid LimitRange does not update onto itself: %v", e)
			}
		}
	})
}
