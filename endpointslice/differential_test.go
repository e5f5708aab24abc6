package endpointslice_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
)

// diffVector is one case of testdata/differential.json: a Service, the
// pods and nodes the controller knows, and what k8s.io/endpointslice
// v0.36.3's Reconciler created for them (see testdata/README.md).
type diffVector struct {
	Name    string       `json:"name"`
	Service *api.Service `json:"service"`
	Pods    []*api.Pod   `json:"pods"`
	Nodes   []*api.Node  `json:"nodes"`
	Want    diffWant     `json:"want"`
}

type diffWant struct {
	Managed bool        `json:"managed"`
	Groups  []diffGroup `json:"groups"`
	Err     string      `json:"err"`
}

// diffGroup is every slice of one address type and port set: upstream
// spreads a group's endpoints over its slices in map order and orders
// ports by a hash, so a group is compared as its sorted ports, the sizes
// of its slices (largest first) and its endpoints sorted by pod.
type diffGroup struct {
	AddressType  endpointslice.AddressType `json:"addressType"`
	Ports        []endpointslice.Port      `json:"ports"`
	Labels       map[string]string         `json:"labels"`
	GenerateName string                    `json:"generateName"`
	Sizes        []int                     `json:"sizes"`
	Endpoints    []endpointslice.Endpoint  `json:"endpoints"`
}

func loadDifferential(t testing.TB) []diffVector {
	t.Helper()
	b, err := os.ReadFile("testdata/differential.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []diffVector `json:"cases"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases in testdata/differential.json")
	}
	return file.Cases
}

// groupsOf puts podsem's slices in the vectors' canonical form.
func groupsOf(ss []endpointslice.Slice) []diffGroup {
	key := func(at endpointslice.AddressType, ports []endpointslice.Port) string {
		b, _ := json.Marshal(ports)
		return string(at) + string(b)
	}
	byKey := map[string]*diffGroup{}
	var keys []string
	for _, s := range ss {
		ports := slices.Clone(s.Ports)
		slices.SortFunc(ports, func(a, b endpointslice.Port) int {
			x, _ := json.Marshal(a)
			y, _ := json.Marshal(b)
			return strings.Compare(string(x), string(y))
		})
		k := key(s.AddressType, ports)
		g := byKey[k]
		if g == nil {
			g = &diffGroup{AddressType: s.AddressType, Ports: ports, Labels: s.Labels, GenerateName: s.GenerateName, Endpoints: []endpointslice.Endpoint{}}
			byKey[k] = g
			keys = append(keys, k)
		}
		g.Sizes = append(g.Sizes, len(s.Endpoints))
		g.Endpoints = append(g.Endpoints, s.Endpoints...)
	}
	slices.Sort(keys)
	out := []diffGroup{}
	for _, k := range keys {
		g := byKey[k]
		slices.SortFunc(g.Sizes, func(a, b int) int { return b - a })
		slices.SortFunc(g.Endpoints, func(a, b endpointslice.Endpoint) int {
			return strings.Compare(endpointKey(a), endpointKey(b))
		})
		out = append(out, *g)
	}
	return out
}

func endpointKey(e endpointslice.Endpoint) string {
	return e.TargetRef.Namespace + "/" + e.TargetRef.Name + "|" + strings.Join(e.Addresses, ",")
}

// TestDifferential runs every vector recorded from upstream's reconciler
// through Endpoints and fails on any difference.
func TestDifferential(t *testing.T) {
	for _, v := range loadDifferential(t) {
		t.Run(v.Name, func(t *testing.T) {
			res, err := endpointslice.Endpoints(v.Service, v.Pods, v.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			if res.Managed != v.Want.Managed {
				t.Errorf("Managed = %v, upstream %v", res.Managed, v.Want.Managed)
			}
			if diff := cmp.Diff(v.Want.Groups, groupsOf(res.Slices)); diff != "" {
				t.Errorf("slices differ from upstream (-upstream +podsem):\n%s", diff)
			}
			if res.Requeue != (v.Want.Err != "") {
				t.Errorf("Requeue = %v, upstream's error %q", res.Requeue, v.Want.Err)
			}
			for _, p := range res.Pods {
				skipped := strings.Contains(v.Want.Err, fmt.Sprintf("skipping Pod %s for Service", p.Name))
				if skipped != (p.Reason == endpointslice.ReasonNodeNotFound) {
					t.Errorf("pod %s: reason %s, upstream's error %q", p.Name, p.Reason, v.Want.Err)
				}
			}
		})
	}
}
