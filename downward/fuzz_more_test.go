package downward_test

import (
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/downward"
)

// FuzzResourceFieldRef resolves resourceFieldRefs with arbitrary resource
// names, divisors and container resources, checking the kubelet's rules
// (pkg/api/v1/resource ExtractContainerResourceValue) as properties:
//   - the answer is a base-10 integer, or an error wrapping
//     ErrUnsupportedResource exactly when the resource is none of
//     limits/requests of cpu, memory, ephemeral-storage or huge pages;
//   - every resource and divisor API validation accepts resolves;
//   - the container named by ref.containerName and the container whose
//     environment is built give the same answer for the same container,
//     ContainerResource gives it too when no node allocatable is merged,
//     and a set limit wins over the node's allocatable;
//   - non-negative quantities give a non-negative answer, and for values and
//     divisors below 2^26 (where float64 division is exact enough) the
//     answer is the exact ceiling of value / divisor.
func FuzzResourceFieldRef(f *testing.F) {
	for _, s := range [][7]string{
		{"limits.cpu", "", "500m", "", "250m", "", "4"},
		{"requests.cpu", "1m", "", "", "250m", "", "4"},
		{"limits.memory", "1Mi", "", "1Gi", "", "512Mi", "8Gi"},
		{"requests.memory", "1Ki", "", "", "", "129", ""},
		{"limits.ephemeral-storage", "1G", "", "", "", "", "100G"},
		{"limits.hugepages-2Mi", "1Mi", "", "", "", "", ""},
		{"requests.hugepages-1Gi", "", "", "", "", "", ""},
		{"limits.cpu", "1", "1500m", "", "", "", ""},
		{"limits.cpu", "3", "7", "", "", "", ""},
		{"limits.gpu", "", "", "", "", "", ""},
		{"requests.memory", "-1", "", "", "", "1Gi", ""},
		{"", "", "", "", "", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
	}
	f.Fuzz(func(t *testing.T, resource, divisor, cpuLimit, memLimit, cpuRequest, memRequest, allocatable string) {
		limits, requests := api.ResourceList{}, api.ResourceList{}
		set := func(l api.ResourceList, name api.ResourceName, s string) {
			if q, err := api.ParseQuantity(s); err == nil {
				l[name] = q
			}
		}
		set(limits, api.ResourceCPU, cpuLimit)
		set(limits, api.ResourceMemory, memLimit)
		set(requests, api.ResourceCPU, cpuRequest)
		set(requests, api.ResourceMemory, memRequest)
		set(limits, "hugepages-2Mi", memLimit)
		set(requests, "hugepages-2Mi", memRequest)
		alloc := api.ResourceList{}
		set(alloc, api.ResourceCPU, allocatable)
		set(alloc, api.ResourceMemory, allocatable)
		set(alloc, api.ResourceEphemeralStorage, allocatable)

		c := api.Container{Name: "app", Resources: api.ResourceRequirements{Limits: limits, Requests: requests}}
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: api.PodSpec{Containers: []api.Container{c}}}
		ref := api.ResourceFieldSelector{Resource: resource}
		if d, err := api.ParseQuantity(divisor); err == nil {
			ref.Divisor = &d
		}

		known := slices.Contains([]string{downward.LimitsCPU, downward.LimitsMemory, downward.LimitsEphemeralStorage,
			downward.RequestsCPU, downward.RequestsMemory, downward.RequestsEphemeralStorage}, resource) ||
			isHugePages(resource, "limits.") || isHugePages(resource, "requests.")

		var div api.Quantity
		if ref.Divisor != nil {
			div = *ref.Divisor
		}
		plain, err := downward.ContainerResource(&c, resource, div)
		if !known {
			if !errors.Is(err, downward.ErrUnsupportedResource) {
				t.Fatalf("ContainerResource(%q) = %q, %v; want ErrUnsupportedResource", resource, plain, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("ContainerResource(%q, divisor %q) failed: %v", resource, divisor, err)
		}
		if _, err := strconv.ParseInt(plain, 10, 64); err != nil {
			t.Fatalf("ContainerResource(%q) = %q, not an integer", resource, plain)
		}

		for _, a := range []api.ResourceList{nil, alloc} {
			own, err := downward.ResourceFieldRef(pod, "app", ref, a)
			named := ref
			named.ContainerName = "app"
			byName, err2 := downward.ResourceFieldRef(pod, "other", named, a)
			if err != nil || err2 != nil || own != byName {
				t.Fatalf("%q: own container %q, %v; named %q, %v", resource, own, err, byName, err2)
			}
			if a == nil && own != plain {
				t.Fatalf("%q: ResourceFieldRef %q, ContainerResource %q", resource, own, plain)
			}
			if len(validation.ValidateResourceFieldSelector(named, downward.Volume, api.NewPath("resourceFieldRef"))) == 0 {
				if _, err := downward.ResourceFieldRef(pod, "", named, a); err != nil {
					t.Fatalf("valid ref %+v does not resolve: %v", named, err)
				}
			}
		}

		// A limit that is set and non-zero is never replaced by allocatable.
		if strings.HasPrefix(resource, "limits.") && resource != downward.LimitsEphemeralStorage {
			withAlloc, _ := downward.ResourceFieldRef(pod, "app", ref, alloc)
			name := api.ResourceName(strings.TrimPrefix(resource, "limits."))
			if q, ok := limits[name]; ok && !q.IsZero() && withAlloc != plain {
				t.Fatalf("%q: set limit %v gave %q, replaced by allocatable: %q", resource, q.String(), plain, withAlloc)
			}
		}

		// The value itself.
		source := requests
		if strings.HasPrefix(resource, "limits.") {
			source = limits
		}
		q := source[api.ResourceName(resource[strings.Index(resource, ".")+1:])]
		if div.IsZero() {
			div = api.NewQuantity(1, api.DecimalSI)
		}
		var a, b int64
		if strings.HasSuffix(resource, ".cpu") {
			a, b = q.MilliValue(), div.MilliValue()
		} else {
			a, b = q.Value(), div.Value()
		}
		got, _ := strconv.ParseInt(plain, 10, 64)
		if q.Sign() >= 0 && div.Sign() > 0 && got < 0 {
			t.Fatalf("%q of %s / %s = %d: a non-negative quantity gave a negative answer", resource, q.String(), div.String(), got)
		}
		const exact = 1 << 26
		if a >= 0 && a < exact && b > 0 && b < exact {
			want := new(big.Int).Add(big.NewInt(a), big.NewInt(b-1))
			want.Quo(want, big.NewInt(b))
			if got != want.Int64() {
				t.Fatalf("%q of %s / %s = %d, want ceil(%d/%d) = %v", resource, q.String(), div.String(), got, a, b, want)
			}
		}
	})
}

func isHugePages(resource, prefix string) bool {
	name, ok := strings.CutPrefix(resource, prefix)
	return ok && api.ResourceName(name).IsHugePages()
}
