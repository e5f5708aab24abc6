package workloads

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzDefaultPodTemplateHash feeds arbitrary bytes as a pod template's
// JSON: whatever decodes is defaulted as the API server does and hashed,
// with and without a collision count, without panicking; the hash is a
// SafeEncodeString word and the dump the one of a v1.PodTemplateSpec.
func FuzzDefaultPodTemplateHash(f *testing.F) {
	f.Add([]byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}`), int32(0))
	f.Add([]byte(`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1.5","memory":"123456789Mi"},"limits":{"cpu":"12345678901234567890123456789e-3"}}}]}}`), int32(-1))
	f.Add([]byte(`{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":"12345678901234567890e2147483647"}}}]}}`), int32(7))
	f.Add([]byte(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"spec":{"resources":{"requests":{"storage":"1Gi"}}}}}}],"serviceAccount":"legacy"}}`), int32(2147483647))
	f.Add([]byte(`{"metadata":{"creationTimestamp":"2025-01-01T00:00:00Z"},"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":"http"}},"env":[{"valueFrom":{"resourceFieldRef":{"divisor":"1m"}}}]}]}}`), int32(3))
	f.Add([]byte(`null`), int32(0))
	f.Fuzz(func(t *testing.T, data []byte, collisionCount int32) {
		d := &api.Deployment{}
		if json.Unmarshal(data, &d.Spec.Template) != nil {
			return
		}
		api.DefaultDeployment(d)
		for _, cc := range []*int32{nil, &collisionCount} {
			h := DefaultPodTemplateHash(&d.Spec.Template, cc)
			if h == "" || strings.Trim(h, "bcdfghjklmnpqrstvwxz2456789") != "" {
				t.Fatalf("hash %q is not a SafeEncodeString word", h)
			}
		}
		dump := string(appendPodTemplateDump(nil, &d.Spec.Template))
		if !strings.HasPrefix(dump, "(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string)") || !strings.HasSuffix(dump, "}}") {
			t.Fatalf("dump is not a PodTemplateSpec's: %.200s", dump)
		}
	})
}
