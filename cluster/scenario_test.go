package cluster_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

func TestParseScenarioActions(t *testing.T) {
	doc := `{
	  "actions": [
	    {"at": "30s", "lose": "node-3"},
	    {"at": 0, "drain": "node-2"},
	    {"at": "20m", "restore": "node-3"},
	    {"at": "10m", "deleteNode": "node-3"},
	    {"at": "11m", "taint": {"node": "node-3", "key": "node.kubernetes.io/out-of-service", "effect": "NoExecute"}},
	    {"at": "1m", "apply": {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "default"}}},
	    {"at": "2m", "delete": "Pod/default/web-1"},
	    {"at": "2m", "scale": {"ref": "Deployment/default/web", "replicas": 10}},
	    {"at": "3m", "cordon": "node-1"},
	    {"at": "3m", "uncordon": "node-1"},
	    {"at": "3m", "pressure": {"node": "node-1", "signal": "memory.available", "value": "50Mi"}},
	    {"at": "4m", "shutdown": "node-1"},
	    {"at": "5m", "exit": {"pod": "default/db-0", "container": "db", "code": 1}},
	    {"at": 1.5, "drain": {"node": "node-4", "ignoreDaemonSets": true, "timeout": "2m"}}
	  ],
	  "config": {"node-monitor-grace-period": "40s", "default-unreachable-toleration-seconds": 120}
	}`
	sc, err := cluster.ParseScenario([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range sc.Actions {
		got = append(got, a.At.String()+" "+a.String())
	}
	want := []string{
		"0s drain node-2",
		"1.5s drain node-4",
		"30s lose node-3",
		"1m0s apply Deployment/default/web",
		"2m0s delete Pod/default/web-1",
		"2m0s scale Deployment/default/web replicas=10",
		"3m0s cordon node-1",
		"3m0s uncordon node-1",
		"3m0s pressure node-1 memory.available=50Mi",
		"4m0s shutdown node-1",
		"5m0s exit default/db-0 db 1",
		"10m0s deleteNode node-3",
		"11m0s taint node-3 node.kubernetes.io/out-of-service=:NoExecute",
		"20m0s restore node-3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("actions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := sc.Actions[1].Drain; !d.IgnoreDaemonSets || d.Timeout != 2*time.Minute {
		t.Errorf("drain flags: %+v", d)
	}
	if sc.Until != 25*time.Minute {
		t.Errorf("until: got %s, want 25m (5 m after the last action)", sc.Until)
	}
	cfg, unused, err := cluster.ConfigFromFlags(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TolerationSeconds.Unreachable == nil || *cfg.TolerationSeconds.Unreachable != 120 {
		t.Errorf("unreachable toleration: %v", cfg.TolerationSeconds.Unreachable)
	}
	if len(unused) != 0 { // node-monitor-grace-period is the node lifecycle controller's
		t.Errorf("unused: %v", unused)
	}
}

func TestParseScenarioErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"actions": [{"at": "1s"}]}`, "actions[0]: no action"},
		{`{"actions": [{"at": "1s", "cordon": "a", "lose": "b"}]}`, "actions[0]: more than one action"},
		{`{"actions": [{"at": "-1s", "cordon": "a"}]}`, "actions[0]: at:"},
		{`{"actions": [{"cordon": ""}]}`, "actions[0]: cordon: want a node name"},
		{`{"actions": [{"delete": "Pod//x"}]}`, "actions[0]: delete:"},
		{`{"actions": [{"scale": {"ref": "Deployment/default/web", "replicas": -1}}]}`, "replicas"},
		{`{"actions": [{"taint": {"node": "n"}}]}`, "want node, key and effect"},
		{`{"until": "soon"}`, "until:"},
		{`{"objects": [{"metadata": {"name": "x"}}]}`, "objects[0]"},
		{`[`, "scenario"},
	} {
		_, err := cluster.ParseScenario([]byte(tc.doc))
		if err == nil || !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an invalid-input error containing %q", tc.doc, err, tc.want)
		}
	}
}

// TestRunUnsupported: an action this version does not simulate yet stops
// the run with an error wrapping errors.ErrUnsupported, never silently.
func TestRunUnsupported(t *testing.T) {
	sc, err := cluster.ParseScenario([]byte(`{"objects": [{"kind": "Node", "metadata": {"name": "node-1"}}], "actions": [{"at": "1s", "drain": {"node": "node-1", "disableEviction": true}}], "until": "10s"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.Run(sc, t0); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("got %v, want errors.ErrUnsupported", err)
	}
}

// TestUnmodelledKinds: an object of a kind the cluster does not model is
// held when nothing a pod lives through depends on it (a ConfigMap, a
// ServiceAccount: listed in the final objects, deleted with their
// namespace) and refused, naming it, when a controller of its kind would
// change the run: a HorizontalPodAutoscaler in a scenario file
// is a parse error, and one handed to Run or applied through the API is
// refused with errors.ErrUnsupported.
func TestUnmodelledKinds(t *testing.T) {
	_, err := cluster.ParseScenario([]byte(`{"actions": [{"at": "2s", "apply": {"kind": "HorizontalPodAutoscaler", "apiVersion": "autoscaling/v2", "metadata": {"name": "h", "namespace": "default"}}}]}`))
	if !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), `actions[0]: apply: decode: unknown kind "HorizontalPodAutoscaler"`) {
		t.Errorf("got %v, want the apply refused naming the kind", err)
	}
	sc, err := cluster.ParseScenario([]byte(`{"objects": [
	  {"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "team"}},
	  {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "cfg", "namespace": "team"}, "data": {"a": "b"}},
	  {"kind": "ServiceAccount", "apiVersion": "v1", "metadata": {"name": "sa", "namespace": "default"}}],
	 "actions": [{"at": "1s", "delete": "Namespace/team"}],
	 "until": "20s"}`))
	if err != nil {
		t.Fatal(err)
	}
	hpa := &api.Unstructured{TypeMeta: api.TypeMeta{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2"},
		ObjectMeta: api.ObjectMeta{Name: "h", Namespace: "default"}}
	sc.Actions = append(sc.Actions, cluster.Action{At: 2 * time.Second, Kind: cluster.ActionApply, Object: hpa})
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, o := range res.Objects {
		if u, ok := o.(*api.Unstructured); ok {
			kinds = append(kinds, u.Kind+"/"+u.Namespace+"/"+u.Name)
		}
	}
	if !slices.Equal(kinds, []string{"ServiceAccount/default/sa"}) {
		t.Errorf("final unmodelled objects %v, want the ServiceAccount only (the ConfigMap went with its namespace)", kinds)
	}
	refused := false
	for _, r := range res.Records {
		refused = refused || r.Reason == "ActionFailed" && strings.Contains(r.Message, "HorizontalPodAutoscaler default/h") && strings.Contains(r.Message, "unsupported")
	}
	if !refused {
		t.Errorf("the HorizontalPodAutoscaler's apply was not refused: %v", res.Records)
	}

	sc = &cluster.Scenario{Objects: []api.Object{&api.Unstructured{TypeMeta: api.TypeMeta{Kind: "HorizontalPodAutoscaler", APIVersion: "autoscaling/v2"},
		ObjectMeta: api.ObjectMeta{Name: "h", Namespace: "default"}}}, Until: 10 * time.Second}
	if _, err := cluster.Run(sc, t0); !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), "HorizontalPodAutoscaler default/h") {
		t.Errorf("got %v, want errors.ErrUnsupported naming the HorizontalPodAutoscaler", err)
	}
}

// TestActionFailed: an action the API server refuses is a record, and the
// run goes on.
func TestActionFailed(t *testing.T) {
	sc, err := cluster.ParseScenario([]byte(`{"actions": [{"at": "1s", "delete": "Pod/default/nothing"}], "until": "10s"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range res.Records {
		if r.Reason == "ActionFailed" && strings.Contains(r.Message, "not found") {
			found = true
		}
	}
	if !found {
		t.Errorf("no ActionFailed record in %v", res.Records)
	}
}

func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(`{"actions": [{"at": "1s", "drain": {"node": "n", "timeout": 5}}], "until": 60}`))
	f.Add([]byte(`{"objects": [{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"}}], "actions": [{"apply": {"kind": "Node", "metadata": {"name": "n"}}}]}`))
	f.Add([]byte(`{"actions": [{"scale": {"ref": "Deployment/a/b", "replicas": 1}}, {"exit": {"pod": "a/b", "container": "c", "code": 1}}]}`))
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
			if a.At < 0 {
				t.Fatalf("negative at: %v", a.At)
			}
		}
	})
}
