package validation_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// A Deployment whose rolling update may neither add a pod nor take one
// away could never roll out: the API server refuses it, as
// `kubectl apply` shows.
func ExampleValidateDeployment() {
	zero := api.FromInt32(0)
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			Strategy: api.DeploymentStrategy{
				Type:          api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: &zero, MaxSurge: &zero},
			},
		},
	}
	api.DefaultDeployment(d) // as the API server holds it
	errs := validation.ValidateDeployment(d)
	fmt.Println(validation.InvalidObjectMessage("Deployment", "apps", d.Name, errs))

	// Allowing one extra pod during the rollout makes it valid.
	one := api.FromInt32(1)
	d.Spec.Strategy.RollingUpdate.MaxSurge = &one
	fmt.Println(len(validation.ValidateDeployment(d)), "errors")
	// Output:
	// Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0
	// 0 errors
}

// The selector of a ReplicaSet is immutable in apps/v1: an update that
// changes it is refused.
func ExampleValidateReplicaSetUpdate() {
	old := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web-5d4f8", Namespace: "default", ResourceVersion: "12"},
		Spec: api.ReplicaSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "frontend"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	}
	api.DefaultReplicaSet(old)
	rs := old.DeepCopy()
	rs.Spec.Selector.MatchLabels["tier"] = "frontend"
	errs := validation.ValidateReplicaSetUpdate(rs, old)
	fmt.Println(validation.InvalidObjectMessage("ReplicaSet", "apps", rs.Name, errs))
	// Output:
	// ReplicaSet.apps "web-5d4f8" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"frontend"}}: field is immutable
}

// A DaemonSet's rolling update either surges a new pod onto a node
// before the old one goes (maxSurge) or takes the old one away first
// (maxUnavailable), never both.
func ExampleValidateDaemonSet() {
	one := api.FromInt32(1)
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "fluentd", Namespace: "kube-system"},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"name": "fluentd"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"name": "fluentd"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v1.16"}}},
			},
			UpdateStrategy: api.DaemonSetUpdateStrategy{
				Type:          api.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &one, MaxSurge: &one},
			},
		},
	}
	api.DefaultDaemonSet(ds)
	fmt.Println(validation.InvalidObjectMessage("DaemonSet", "apps", ds.Name, validation.ValidateDaemonSet(ds)))
	// Output:
	// DaemonSet.apps "fluentd" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero
}

// A StatefulSet's pods are named after it and get DNS names under its
// headless Service, so its name must be a DNS label; and once created,
// only replicas, ordinals, template, updateStrategy,
// revisionHistoryLimit, the PVC retention policy and minReadySeconds may
// change.
func ExampleValidateStatefulSet() {
	set := &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: "web.v2", Namespace: "default"},
		Spec: api.StatefulSetSpec{
			ServiceName: "nginx",
			Selector:    &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.24"}}},
			},
		},
	}
	api.DefaultStatefulSet(set)
	fmt.Println(validation.InvalidObjectMessage("StatefulSet", "apps", set.Name, validation.ValidateStatefulSet(set)))

	set.Name, set.ResourceVersion = "web", "7"
	renamed := set.DeepCopy()
	renamed.Spec.ServiceName = "nginx-headless"
	fmt.Println(validation.InvalidObjectMessage("StatefulSet", "apps", set.Name, validation.ValidateStatefulSetUpdate(renamed, set)))
	// Output:
	// StatefulSet.apps "web.v2" is invalid: metadata.name: Invalid value: "web.v2": must not contain dots
	// StatefulSet.apps "web" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden
}
