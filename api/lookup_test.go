package api

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindContainer(t *testing.T) {
	always := RestartPolicyAlways
	spec := &PodSpec{
		InitContainers:      []Container{{Name: "init"}, {Name: "side", RestartPolicy: &always}},
		Containers:          []Container{{Name: "app"}, {Name: "web"}},
		EphemeralContainers: []EphemeralContainer{{Container: Container{Name: "debug"}}},
	}
	tests := []struct {
		name string
		kind ContainerKind
		idx  int
		path string
	}{
		{"init", ContainerKindInit, 0, "spec.initContainers[0]"},
		{"side", ContainerKindSidecar, 1, "spec.initContainers[1]"},
		{"app", ContainerKindRegular, 0, "spec.containers[0]"},
		{"web", ContainerKindRegular, 1, "spec.containers[1]"},
		{"debug", ContainerKindEphemeral, 0, "spec.ephemeralContainers[0]"},
	}
	for _, tc := range tests {
		ref, ok := spec.FindContainer(tc.name)
		if !ok || ref.Container == nil || ref.Container.Name != tc.name {
			t.Fatalf("FindContainer(%q) = %+v, %v", tc.name, ref, ok)
		}
		got := struct {
			Kind ContainerKind
			Idx  int
			Path string
		}{ref.Kind, ref.Index, ref.Path().String()}
		want := struct {
			Kind ContainerKind
			Idx  int
			Path string
		}{tc.kind, tc.idx, tc.path}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("FindContainer(%q) (-want +got):\n%s", tc.name, d)
		}
	}
	if ref, ok := spec.FindContainer("nope"); ok || ref.Container != nil {
		t.Errorf("FindContainer(nope) = %+v, %v; want nothing", ref, ok)
	}
	if ref, ok := (*PodSpec)(nil).FindContainer("app"); ok || ref.Container != nil {
		t.Errorf("nil spec: %+v, %v", ref, ok)
	}
	// The pointer is into the spec, not a copy.
	if ref, _ := spec.FindContainer("debug"); ref.Container != &spec.EphemeralContainers[0].Container {
		t.Error("FindContainer returned a copy")
	}
}

func TestFindContainerKubeletOrder(t *testing.T) {
	// A name repeated across lists (validation rejects it) resolves as the
	// kubelet's GetContainerSpec resolves it: init, then app, then
	// ephemeral.
	spec := &PodSpec{
		InitContainers:      []Container{{Name: "x", Image: "init"}},
		Containers:          []Container{{Name: "x", Image: "app"}, {Name: "y", Image: "app"}},
		EphemeralContainers: []EphemeralContainer{{Container: Container{Name: "y", Image: "debug"}}},
	}
	if ref, _ := spec.FindContainer("x"); ref.Container.Image != "init" || ref.Kind != ContainerKindInit {
		t.Errorf("FindContainer(x) = %+v, want the init container", ref)
	}
	if ref, _ := spec.FindContainer("y"); ref.Container.Image != "app" || ref.Kind != ContainerKindRegular {
		t.Errorf("FindContainer(y) = %+v, want the app container", ref)
	}
}

func TestContainerKindString(t *testing.T) {
	for k, want := range map[ContainerKind]string{
		ContainerKindRegular:   "container",
		ContainerKindInit:      "init container",
		ContainerKindSidecar:   "sidecar container",
		ContainerKindEphemeral: "ephemeral container",
		9:                      "ContainerKind(9)",
	} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
	if InitContainerKind(nil) != ContainerKindInit {
		t.Error("InitContainerKind(nil)")
	}
}

func TestStatusLookups(t *testing.T) {
	st := &PodStatus{
		ContainerStatuses:          []ContainerStatus{{Name: "app", RestartCount: 1}},
		InitContainerStatuses:      []ContainerStatus{{Name: "init"}, {Name: "app", RestartCount: 2}},
		EphemeralContainerStatuses: []ContainerStatus{{Name: "debug"}},
	}
	if cs := st.FindContainerStatus("app"); cs == nil || cs.RestartCount != 1 {
		t.Errorf("app containers are searched first: %v", cs)
	}
	if st.FindContainerStatus("debug") == nil || st.FindContainerStatus("x") != nil || (*PodStatus)(nil).FindContainerStatus("app") != nil {
		t.Errorf("status lookups")
	}
}

func TestFindConditions(t *testing.T) {
	conds := []PodCondition{{Type: PodReady, Status: ConditionFalse}, {Type: PodReady, Status: ConditionTrue}}
	if c := FindCondition(conds, PodReady); c != &conds[0] {
		t.Errorf("FindCondition = %+v, want the first Ready entry", c)
	}
	if FindCondition(nil, PodReady) != nil || FindCondition(conds, DisruptionTarget) != nil {
		t.Error("FindCondition found a missing condition")
	}
	meta := []Condition{{Type: "DisruptionAllowed"}}
	if FindStatusCondition(meta, "DisruptionAllowed") != &meta[0] || FindStatusCondition(meta, "x") != nil {
		t.Error("FindStatusCondition")
	}
	n := &Node{Status: NodeStatus{Conditions: []NodeCondition{{Type: NodeReady}}}}
	if n.FindCondition(NodeReady) != &n.Status.Conditions[0] || (*Node)(nil).FindCondition(NodeReady) != nil {
		t.Error("Node.FindCondition")
	}
}
