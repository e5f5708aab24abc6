package downward

import (
	"testing"

	"github.com/podsem/podsem/api"
)

func BenchmarkFieldRefLabel(b *testing.B) {
	pod, ctx := testPod(), testContext()
	ref := api.ObjectFieldSelector{FieldPath: "metadata.labels['app.kubernetes.io/name']"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FieldRef(pod, ref, Env, ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFieldRefPodIPs(b *testing.B) {
	pod, ctx := testPod(), testContext()
	ref := api.ObjectFieldSelector{FieldPath: "status.podIPs"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FieldRef(pod, ref, Env, ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResourceFieldRefDefaulted(b *testing.B) {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}}}
	alloc := rl("cpu", "4", "memory", "8Gi", "ephemeral-storage", "100Gi")
	ref := api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Mi")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ResourceFieldRef(pod, "app", ref, alloc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpand(b *testing.B) {
	vars := map[string]string{"HOST": "db.example.com", "PORT": "5432", "USER": "app"}
	s := "postgres://$(USER)@$(HOST):$(PORT)/db?sslmode=$(SSL)&x=$$(HOST)"
	b.ReportAllocs()
	for b.Loop() {
		_ = ExpandVars(s, vars)
	}
}

func BenchmarkEnvironment(b *testing.B) {
	c := api.Container{Name: "app", Env: []api.EnvVar{
		{Name: "POD_NAME", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "POD_IP", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "status.podIP"}}},
		{Name: "MEM", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.memory", Divisor: qp("1Mi")}}},
		{Name: "URL", Value: "http://$(POD_IP):8080/$(POD_NAME)"},
	}}
	pod, ctx := envPod(c), envCtx()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Environment(pod, "app", ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
