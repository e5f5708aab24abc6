package workloads

import (
	"testing"
)

// BenchmarkDefaultPodTemplateHash is the hash the Deployment controller
// computes at every sync, for a one-container template with resources and
// a readiness probe (deployment-rollout's) and for a large template (init
// and sidecar containers, affinity, volumes, security contexts).
func BenchmarkDefaultPodTemplateHash(b *testing.B) {
	byName := map[string]templateHashVector{}
	for _, v := range readTemplateHashVectors(b, "testdata/templatehash/vectors.json") {
		byName[v.Name] = v
	}
	for _, name := range []string{"scenario deployment-rollout Deployment/web", "volumes", "affinity", "init-containers"} {
		v, ok := byName[name]
		if !ok {
			b.Fatalf("no vector %q", name)
		}
		tmpl := defaultedTemplate(b, v.Template)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if DefaultPodTemplateHash(tmpl, nil) != v.Hash {
					b.Fatal("hash differs from upstream's")
				}
			}
		})
	}
}
