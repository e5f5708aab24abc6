package nodelifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
)

// TestNoScheduleTaintPassNewNode: the TaintNodesByCondition admission
// plugin puts node.kubernetes.io/not-ready:NoSchedule (no value, no
// timeAdded) on every new Node; the node add handler's NoSchedule pass
// (doNoScheduleTaintingPass) takes it off unless the node's Ready
// condition is False: with no condition posted yet the pass wants no
// condition taint at all, with Ready=True neither.
func TestNoScheduleTaintPassNewNode(t *testing.T) {
	admitted := []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}, {Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}}
	tests := []struct {
		name    string
		node    *api.Node
		removed bool
		want    []string
	}{
		{"no condition yet: removed", nodeWith(), true, []string{"dedicated:NoSchedule"}},
		{"Ready=True: removed", nodeWith(cond(api.NodeReady, api.ConditionTrue)), true, []string{"dedicated:NoSchedule"}},
		{"Ready=False: kept, not rewritten", nodeWith(cond(api.NodeReady, api.ConditionFalse)), false,
			[]string{"dedicated:NoSchedule", api.TaintNodeNotReady + ":NoSchedule"}},
		{"Ready=Unknown: swapped for unreachable", nodeWith(cond(api.NodeReady, api.ConditionUnknown)), true,
			[]string{"dedicated:NoSchedule", api.TaintNodeUnreachable + ":NoSchedule"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.node.Spec.Taints = admitted
			u := NoScheduleTaintPass(tt.node, t0)
			if d := cmp.Diff(tt.want, keysOf(u.Taints), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("taints -want +got:\n%s", d)
			}
			if got := len(u.Removed) == 1 && u.Removed[0] == admitted[1]; got != tt.removed {
				t.Errorf("removed %v, want the admission taint removed: %v", u.Removed, tt.removed)
			}
			if !tt.removed && u.Changed() {
				t.Errorf("wrote %+v, want no write", u)
			}
		})
	}
}
