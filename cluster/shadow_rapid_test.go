package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// genShadowCluster draws a cluster with something for every component:
// 2–4 nodes in one or two zones, the ReadWriteOnce claims and their
// Deployments of genStorageCluster, a web Deployment with a readiness
// probe guarded by a PodDisruptionBudget, a StatefulSet with a volume
// claim template, a DaemonSet and (sometimes) a Job.
func genShadowCluster(t *rapid.T) []api.Object {
	objs := genStorageCluster(t)
	label := func(app string) (*api.LabelSelector, map[string]string) {
		return &api.LabelSelector{MatchLabels: map[string]string{"app": app}}, map[string]string{"app": app}
	}
	small := api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m"), "memory": api.MustParseQuantity("64Mi")}}

	web := int32(rapid.IntRange(0, 4).Draw(t, "web replicas"))
	sel, labels := label("web")
	objs = append(objs, &api.Deployment{
		TypeMeta:   api.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: &web, Selector: sel,
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1", Resources: small,
					ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}},
						PeriodSeconds: int32(rapid.SampledFrom([]int{5, 10}).Draw(t, "probe period"))}}}}}},
	})
	min := api.FromInt32(int32(rapid.IntRange(0, int(web)).Draw(t, "minAvailable")))
	objs = append(objs, &api.PodDisruptionBudget{
		TypeMeta:   api.TypeMeta{Kind: "PodDisruptionBudget", APIVersion: "policy/v1"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:       api.PodDisruptionBudgetSpec{MinAvailable: &min, Selector: sel},
	})

	db := int32(rapid.IntRange(0, 3).Draw(t, "db replicas"))
	class := "fast"
	sel, labels = label("db")
	objs = append(objs, &api.StatefulSet{
		TypeMeta:   api.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec: api.StatefulSetSpec{Replicas: &db, ServiceName: "db", Selector: sel,
			PodManagementPolicy: rapid.SampledFrom([]api.PodManagementPolicyType{api.OrderedReadyPodManagement, api.ParallelPodManagement}).Draw(t, "policy"),
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "db", Image: "db:1", Resources: small,
					VolumeMounts: []api.VolumeMount{{Name: "data", MountPath: "/data"}}}}}},
			VolumeClaimTemplates: []api.PersistentVolumeClaim{{ObjectMeta: api.ObjectMeta{Name: "data"},
				Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}, StorageClassName: &class,
					Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}}}}},
	})

	sel, labels = label("agent")
	objs = append(objs, &api.DaemonSet{
		TypeMeta:   api.TypeMeta{Kind: "DaemonSet", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"},
		Spec: api.DaemonSetSpec{Selector: sel, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "agent", Image: "agent:1", Resources: small}}}}},
	})

	if rapid.Bool().Draw(t, "job") {
		completions := int32(rapid.IntRange(1, 3).Draw(t, "completions"))
		objs = append(objs, &api.Job{
			TypeMeta:   api.TypeMeta{Kind: "Job", APIVersion: "batch/v1"},
			ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default"},
			Spec: api.JobSpec{Completions: &completions, Template: api.PodTemplateSpec{
				Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "work", Image: "work:1", Resources: small}}}}},
		})
	}
	return objs
}

// TestPropertyShadow: over random clusters (genShadowCluster) and random
// sequences of scale, pod deletion, drain, cordon and uncordon, lose and
// restore, the out-of-service taint, node pressure and container exits,
// every step of every machine the cluster composes is what its twin
// answers when stepped alone with the same input at the same instant,
// every pure call answers the same when called again, and no machine
// or pure function changes its input (shadow_test.go): the composition
// adds no rule of its own.
func TestPropertyShadow(t *testing.T) {
	total := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genShadowCluster(t)
		nodes := 0
		for _, o := range objs {
			if _, ok := o.(*api.Node); ok {
				nodes++
			}
		}
		cfg := Config{}
		if rapid.Bool().Draw(t, "graceful shutdown") {
			var err error
			if cfg, _, err = ConfigFromFlags(map[string]string{"shutdown-grace-period": "30s", "shutdown-grace-period-critical-pods": "10s"}); err != nil {
				t.Fatal(err)
			}
		}
		m, _, err := newMachine(start, cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := installShadow(m, t.Fatalf)
		defer func() {
			for k, n := range s.steps {
				total[k] += n
			}
			for k, n := range s.calls {
				total[k] += n
			}
		}()
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		now := start
		deployments := []string{"web", "app0"}
		for i, n := 0, rapid.IntRange(1, 8).Draw(t, "actions"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			a := Action{Node: node}
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				a = Action{Kind: ActionScale, Replicas: int32(rapid.IntRange(0, 5).Draw(t, "replicas")),
					Ref: ObjectRef{Kind: "Deployment", Namespace: "default", Name: rapid.SampledFrom(deployments).Draw(t, "deployment")}}
			case 1:
				a = Action{Kind: ActionScale, Replicas: int32(rapid.IntRange(0, 4).Draw(t, "replicas")),
					Ref: ObjectRef{Kind: "StatefulSet", Namespace: "default", Name: "db"}}
			case 2:
				pods := m.store.pods()
				if len(pods) == 0 {
					continue
				}
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				a = Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}}
			case 3:
				a.Kind = ActionDrain
				a.Drain.IgnoreDaemonSets = rapid.Bool().Draw(t, "ignore daemonsets")
			case 4:
				a.Kind = rapid.SampledFrom([]ActionKind{ActionCordon, ActionUncordon}).Draw(t, "cordon")
			case 5:
				a.Kind = rapid.SampledFrom([]ActionKind{ActionLose, ActionRestore}).Draw(t, "lose")
			case 6:
				a.Kind = ActionTaint
				a.Taint = api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute}
			case 7:
				a.Kind, a.Signal = ActionPressure, "memory.available"
				a.Value = rapid.SampledFrom([]string{"10Mi", "50Mi", "99Mi", "500Mi", "2%", "50%"}).Draw(t, "value")
			case 8:
				a.Kind = ActionShutdown
			case 9:
				pods := m.store.pods()
				if len(pods) == 0 {
					continue
				}
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				if len(p.Spec.Containers) == 0 {
					continue
				}
				a = Action{Kind: ActionExit, Pod: p.Key(), Container: p.Spec.Containers[0].Name,
					ExitCode: int32(rapid.SampledFrom([]int{0, 1, 137}).Draw(t, "exit code"))}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(5*time.Minute))
	})
	t.Logf("checked: %v", total)
}
