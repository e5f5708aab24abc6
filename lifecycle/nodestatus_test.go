package lifecycle

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// TestKubeletNodeCondition: the kubelet owns the four conditions it posts,
// and NodeConditions writes exactly those: a node's other conditions (a
// cloud provider's NetworkUnavailable, a custom one) are kept as they
// were, with no new heartbeat.
func TestKubeletNodeCondition(t *testing.T) {
	for _, c := range []struct {
		t    api.NodeConditionType
		want bool
	}{
		{api.NodeReady, true}, {api.NodeMemoryPressure, true}, {api.NodeDiskPressure, true}, {api.NodePIDPressure, true},
		{api.NodeNetworkUnavailable, false}, {"FrequentKubeletRestart", false}, {"", false},
	} {
		if got := KubeletNodeCondition(c.t); got != c.want {
			t.Errorf("KubeletNodeCondition(%q) = %v, want %v", c.t, got, c.want)
		}
	}
	then := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	old := []api.NodeCondition{{Type: api.NodeNetworkUnavailable, Status: api.ConditionFalse, LastHeartbeatTime: api.NewTime(then)}}
	conds, _ := NodeConditions(old, NodeStatusInput{Node: "node-1"}, then.Add(time.Minute))
	for _, c := range conds {
		posted := c.LastHeartbeatTime.Time.Equal(then.Add(time.Minute))
		if posted != KubeletNodeCondition(c.Type) {
			t.Errorf("condition %s: heartbeat %v, owned by the kubelet %v", c.Type, c.LastHeartbeatTime.Time, KubeletNodeCondition(c.Type))
		}
	}
	if len(conds) != 5 {
		t.Errorf("%d conditions, want the kept one and the kubelet's four: %+v", len(conds), conds)
	}
}
