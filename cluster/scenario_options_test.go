package cluster_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// The goldens of this file's part (testdata/<name>.json, run by TestGolden):
//
// memory-pressure-usage: examples/memory-pressure's scenario. node-1 reads
// memory.available 990Mi at 4m50s (below the soft 1Gi: MemoryPressure at
// the next pass), 690Mi at 5m50s: the soft threshold has held for its
// minute at 5m59s and the cache (no request, 2424Mi) is evicted, not
// coredns or kube-proxy (critical); its memory comes back. At 7m batch
// loads 4900Mi of its 2Gi request and 192Mi is left: evicted at once (hard
// threshold). The condition clears at the status update 5 minutes after
// the last pass that met a threshold.
//
// delete-options: a bare pod deleted with gracePeriodSeconds 0 goes at
// once (no graceful phase); the Deployment deleted with propagationPolicy
// Foreground stays (foregroundDeletion) until the garbage collector has
// deleted its ReplicaSet, which goes after its pods.

func TestParseScenarioOptions(t *testing.T) {
	doc := `{"actions": [
	  {"at": "1m", "delete": {"ref": "Deployment/default/web", "propagationPolicy": "Foreground", "gracePeriodSeconds": 0}},
	  {"at": "2m", "delete": {"ref": "Pod/default/web-1", "gracePeriodSeconds": 5}},
	  {"at": "3m", "pressure": {"node": "node-1", "signal": "memory.available", "value": "50Mi",
	    "usage": {"default/batch-1": "4900Mi", "kube-system/coredns": 73400320}}}
	]}`
	sc, err := cluster.ParseScenario([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range sc.Actions {
		got = append(got, a.String())
	}
	want := []string{
		"delete Deployment/default/web propagationPolicy=Foreground gracePeriodSeconds=0",
		"delete Pod/default/web-1 gracePeriodSeconds=5",
		"pressure node-1 memory.available=50Mi usage default/batch-1=4900Mi,kube-system/coredns=73400320",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if o := sc.Actions[1].DeleteOptions; o == nil || o.PropagationPolicy != nil {
		t.Errorf("pod delete options: %+v", o)
	}
}

func TestParseScenarioOptionErrors(t *testing.T) {
	for _, tc := range []struct{ action, want string }{
		{`{"delete": {"ref": "Deployment/default/web", "propagationPolicy": "Cascade"}}`, `propagationPolicy: Unsupported value: "Cascade"`},
		{`{"delete": {"ref": "Deployment/default/web", "grace": 0}}`, `unknown field "grace"`},
		{`{"delete": {"propagationPolicy": "Orphan"}}`, `object reference ""`},
		{`{"delete": 3}`, "want Kind/namespace/name"},
		{`{"pressure": {"node": "n", "signal": "memory.available", "value": "1Gi", "usage": {"batch": "1Gi"}}}`, `pod "batch": want namespace/name`},
		{`{"pressure": {"node": "n", "signal": "memory.available", "value": "1Gi", "usage": {"a/b": "lots"}}}`, `a/b: "lots" is not a quantity`},
		{`{"pressure": {"node": "n", "signal": "memory.available", "value": "1Gi", "usage": {"a/b": "-1Mi"}}}`, `a/b: "-1Mi" is not a quantity ≥ 0`},
	} {
		_, err := cluster.ParseScenario([]byte(`{"actions": [` + tc.action + `]}`))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.action, err, tc.want)
		}
	}
}

// FuzzParseScenarioOptions checks the delete options and pressure usage
// forms: any input parses or fails with ErrInvalidInput, a parsed usage
// is namespace/name to a quantity ≥ 0, and a parsed propagation policy is
// one of the three.
func FuzzParseScenarioOptions(f *testing.F) {
	f.Add([]byte(`{"actions": [{"delete": {"ref": "Deployment/default/web", "propagationPolicy": "Foreground", "gracePeriodSeconds": 0}}]}`))
	f.Add([]byte(`{"actions": [{"delete": {"ref": "Pod/a/b", "gracePeriodSeconds": -1}}]}`))
	f.Add([]byte(`{"actions": [{"pressure": {"node": "n", "signal": "pid.available", "value": 10, "usage": {"a/b": 3, "c/d": "1e3"}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := cluster.ParseScenario(data)
		if err != nil {
			if !errors.Is(err, api.ErrInvalidInput) {
				t.Fatalf("error not wrapping ErrInvalidInput: %v", err)
			}
			return
		}
		for _, a := range sc.Actions {
			_ = a.String()
			for key, v := range a.Usage {
				ns, name, ok := strings.Cut(key, "/")
				if !ok || ns == "" || name == "" {
					t.Fatalf("usage key %q", key)
				}
				if q, err := api.ParseQuantity(v); err != nil || q.Sign() < 0 {
					t.Fatalf("usage %s=%q", key, v)
				}
			}
			if o := a.DeleteOptions; o != nil && o.PropagationPolicy != nil {
				switch *o.PropagationPolicy {
				case api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground:
				default:
					t.Fatalf("policy %q", *o.PropagationPolicy)
				}
			}
		}
	})
}
