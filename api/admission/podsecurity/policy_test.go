package podsecurity_test

import (
	"testing"

	"github.com/podsem/podsem/api/admission/podsecurity"
)

func TestNamespacePolicy(t *testing.T) {
	for _, tc := range []struct {
		labels map[string]string
		want   string
	}{
		{nil, "privileged:latest"},
		{map[string]string{podsecurity.LabelEnforce: "baseline"}, "baseline:latest"},
		{map[string]string{podsecurity.LabelEnforce: "restricted", podsecurity.LabelEnforceVersion: "v1.30"}, "restricted:v1.30"},
		{map[string]string{podsecurity.LabelEnforce: "Baseline"}, "restricted:latest"},
		{map[string]string{podsecurity.LabelEnforceVersion: "1.30"}, "privileged:latest"},
		{map[string]string{podsecurity.LabelEnforce: "baseline", podsecurity.LabelEnforceVersion: "v1.x"}, "baseline:latest"},
	} {
		if got := podsecurity.NamespacePolicy(tc.labels).String(); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.labels, got, tc.want)
		}
	}
}
