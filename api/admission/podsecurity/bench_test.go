package podsecurity_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
)

// BenchmarkEvaluate: one admission decision, for a hardened pod (allowed,
// the common case on a hardened cluster) and for a typical Deployment pod
// (refused on four checks), with one and with ten containers.
func BenchmarkEvaluate(b *testing.B) {
	typical := func(n int) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
		for i := range n {
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: fmt.Sprintf("c%d", i), Image: "nginx:1.27",
				Ports: []api.ContainerPort{{ContainerPort: 80}}})
		}
		return p
	}
	hardenedN := func(n int) *api.Pod {
		p := hardened()
		for i := 1; i < n; i++ {
			c := p.Spec.Containers[0]
			c.Name = fmt.Sprintf("c%d", i)
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
		return p
	}
	for _, bc := range []struct {
		name   string
		pod    *api.Pod
		policy podsecurity.Policy
	}{
		{"hardened/restricted/1", hardenedN(1), podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()}},
		{"hardened/restricted/10", hardenedN(10), podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()}},
		{"typical/baseline/1", typical(1), podsecurity.Policy{Level: podsecurity.LevelBaseline, Version: podsecurity.LatestVersion()}},
		{"typical/restricted/1", typical(1), podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()}},
		{"typical/restricted/10", typical(10), podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := podsecurity.Evaluate(bc.pod, bc.policy); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
