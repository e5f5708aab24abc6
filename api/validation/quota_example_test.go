package validation_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// The quota scopes of the Kubernetes docs: best-effort pods request no
// cpu or memory, so a BestEffort quota can count pods only. The API
// server refuses one that also caps cpu requests; scoped to
// NotBestEffort, the same limits are accepted.
func ExampleValidateResourceQuota() {
	q := &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "pods-besteffort", Namespace: "team-a"},
		Spec: api.ResourceQuotaSpec{
			Hard:   api.ResourceList{"pods": api.MustParseQuantity("10"), "requests.cpu": api.MustParseQuantity("2")},
			Scopes: []string{api.QuotaScopeBestEffort},
		},
	}
	fmt.Println(validation.InvalidObjectMessage("ResourceQuota", "", q.Name, validation.ValidateResourceQuota(q)))

	q.Spec.Scopes = []string{api.QuotaScopeNotBestEffort}
	fmt.Println(len(validation.ValidateResourceQuota(q)), "errors")
	// Output:
	// ResourceQuota "pods-besteffort" is invalid: spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource
	// 0 errors
}

// A quota's limits may be raised in place, but its scopes are fixed once
// it is created: to count other pods, create another quota.
func ExampleValidateResourceQuotaUpdate() {
	old := &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "long-running", Namespace: "team-a", ResourceVersion: "41"},
		Spec: api.ResourceQuotaSpec{
			Hard:   api.ResourceList{"pods": api.MustParseQuantity("10")},
			Scopes: []string{api.QuotaScopeNotTerminating},
		},
	}
	q := old.DeepCopy()
	q.Spec.Hard["pods"] = api.MustParseQuantity("20")
	fmt.Println(len(validation.ValidateResourceQuotaUpdate(q, old)), "errors")

	q.Spec.Scopes = []string{api.QuotaScopeTerminating}
	fmt.Println(validation.ValidateResourceQuotaUpdate(q, old))
	// Output:
	// 0 errors
	// spec.scopes: Invalid value: ["Terminating"]: field is immutable
}

// The docs' cpu-resource-constraint LimitRange with its default limit
// (700m) above its max (500m): the LimitRanger would give every container
// without a limit one that its own max refuses, so the API server refuses
// the LimitRange. API defaulting copies the default limit into the
// default request, which is above the max too.
func ExampleValidateLimitRange() {
	lr := &api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "cpu-resource-constraint", Namespace: "default"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
			Type:    api.LimitTypeContainer,
			Default: api.ResourceList{"cpu": api.MustParseQuantity("700m")},
			Max:     api.ResourceList{"cpu": api.MustParseQuantity("500m")},
			Min:     api.ResourceList{"cpu": api.MustParseQuantity("100m")},
		}}},
	}
	api.DefaultLimitRange(lr) // as the API server decodes it
	fmt.Println(validation.InvalidObjectMessage("LimitRange", "", lr.Name, validation.ValidateLimitRange(lr)))
	// Output:
	// LimitRange "cpu-resource-constraint" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: "700m": default request value 700m is greater than max value 500m, spec.limits[0].default[cpu]: Invalid value: "500m": default value 700m is greater than max value 500m]
}
