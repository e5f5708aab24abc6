package api

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The workload defaults as kube-apiserver v1.36.3 stores an object
// created with none of the defaulted fields set (compare
// `kubectl create -f` then `kubectl get -o yaml`).
func TestDefaultWorkloads(t *testing.T) {
	tmpl := PodTemplateSpec{Spec: PodSpec{HostNetwork: true, Containers: []Container{{
		Name: "app", Image: "nginx", Ports: []ContainerPort{{ContainerPort: 80}},
		Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: MustParseQuantity("1")}},
	}}}}
	checkTemplate := func(t *testing.T, got PodTemplateSpec) {
		t.Helper()
		s := got.Spec
		if s.RestartPolicy != RestartPolicyAlways || s.DNSPolicy != DNSClusterFirst || s.SchedulerName != DefaultSchedulerName ||
			s.TerminationGracePeriodSeconds == nil || *s.TerminationGracePeriodSeconds != 30 || s.SecurityContext == nil {
			t.Errorf("template pod spec defaults missing: %+v", s)
		}
		c := s.Containers[0]
		if c.ImagePullPolicy != PullAlways || c.Ports[0].Protocol != ProtocolTCP || c.TerminationMessagePath != DefaultTerminationMessagePath {
			t.Errorf("container defaults missing: %+v", c)
		}
		// Pod-only defaults stay off the template (SetDefaults_Pod).
		if s.EnableServiceLinks != nil || c.Ports[0].HostPort != 0 || c.Resources.Requests != nil {
			t.Errorf("pod-only defaults on a template: enableServiceLinks %v hostPort %d requests %v",
				s.EnableServiceLinks, c.Ports[0].HostPort, c.Resources.Requests)
		}
	}

	t.Run("Deployment", func(t *testing.T) {
		d := &Deployment{Spec: DeploymentSpec{Template: tmpl}}
		DefaultDeployment(d)
		ru := d.Spec.Strategy.RollingUpdate
		if *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != RollingUpdateDeploymentStrategyType || ru == nil ||
			ru.MaxSurge.String() != "25%" || ru.MaxUnavailable.String() != "25%" ||
			*d.Spec.RevisionHistoryLimit != 10 || *d.Spec.ProgressDeadlineSeconds != 600 {
			t.Errorf("got %+v", d.Spec)
		}
		checkTemplate(t, d.Spec.Template)
		r := &Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}}}
		DefaultDeployment(r)
		if r.Spec.Strategy.RollingUpdate != nil {
			t.Errorf("Recreate got rollingUpdate %+v", r.Spec.Strategy.RollingUpdate)
		}
	})
	t.Run("ReplicaSet", func(t *testing.T) {
		rs := &ReplicaSet{Spec: ReplicaSetSpec{Template: tmpl}}
		DefaultReplicaSet(rs)
		if *rs.Spec.Replicas != 1 {
			t.Errorf("replicas %d", *rs.Spec.Replicas)
		}
		checkTemplate(t, rs.Spec.Template)
	})
	t.Run("StatefulSet", func(t *testing.T) {
		set := &StatefulSet{Spec: StatefulSetSpec{Template: tmpl, VolumeClaimTemplates: []PersistentVolumeClaim{{ObjectMeta: ObjectMeta{Name: "data"}}}}}
		DefaultStatefulSet(set)
		s := set.Spec
		want := &StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: RetainPersistentVolumeClaimRetentionPolicyType}
		if s.PodManagementPolicy != OrderedReadyPodManagement || s.UpdateStrategy.Type != RollingUpdateStatefulSetStrategyType ||
			s.UpdateStrategy.RollingUpdate == nil || *s.UpdateStrategy.RollingUpdate.Partition != 0 ||
			s.UpdateStrategy.RollingUpdate.MaxUnavailable != nil || *s.Replicas != 1 || *s.RevisionHistoryLimit != 10 {
			t.Errorf("got %+v", s)
		}
		if diff := cmp.Diff(want, s.PersistentVolumeClaimRetentionPolicy); diff != "" {
			t.Errorf("retention (-want +got):\n%s", diff)
		}
		if c := s.VolumeClaimTemplates[0]; c.Status.Phase != ClaimPending || c.Spec.VolumeMode == nil {
			t.Errorf("claim template not defaulted: %+v", c)
		}
		checkTemplate(t, s.Template)
		// RollingUpdate given without rollingUpdate: none is added.
		bare := &StatefulSet{Spec: StatefulSetSpec{UpdateStrategy: StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType}}}
		DefaultStatefulSet(bare)
		if bare.Spec.UpdateStrategy.RollingUpdate != nil {
			t.Errorf("rollingUpdate added: %+v", bare.Spec.UpdateStrategy.RollingUpdate)
		}
	})
	t.Run("DaemonSet", func(t *testing.T) {
		ds := &DaemonSet{Spec: DaemonSetSpec{Template: tmpl}}
		DefaultDaemonSet(ds)
		ru := ds.Spec.UpdateStrategy.RollingUpdate
		if ds.Spec.UpdateStrategy.Type != RollingUpdateDaemonSetStrategyType || ru == nil ||
			ru.MaxUnavailable.String() != "1" || ru.MaxSurge.String() != "0" || *ds.Spec.RevisionHistoryLimit != 10 {
			t.Errorf("got %+v", ds.Spec)
		}
		checkTemplate(t, ds.Spec.Template)
	})
	t.Run("Job", func(t *testing.T) {
		job := &Job{Spec: JobSpec{Template: PodTemplateSpec{ObjectMeta: ObjectMeta{Labels: map[string]string{"app": "pi"}}, Spec: tmpl.Spec}}}
		DefaultJob(job)
		s := job.Spec
		if *s.Completions != 1 || *s.Parallelism != 1 || *s.BackoffLimit != 6 || *s.CompletionMode != NonIndexedCompletion ||
			*s.Suspend || *s.PodReplacementPolicy != TerminatingOrFailed || *s.ManualSelector || job.Labels["app"] != "pi" {
			t.Errorf("got %+v labels %v", s, job.Labels)
		}
		checkTemplate(t, s.Template)
		par := int32(3)
		perIndex := int32(1)
		j2 := &Job{Spec: JobSpec{Parallelism: &par, BackoffLimitPerIndex: &perIndex,
			PodFailurePolicy: &PodFailurePolicy{Rules: []PodFailurePolicyRule{{Action: "Ignore", OnPodConditions: []PodFailurePolicyOnPodConditionsPattern{{Type: DisruptionTarget}}}}}}}
		DefaultJob(j2)
		if j2.Spec.Completions != nil || *j2.Spec.BackoffLimit != math.MaxInt32 || *j2.Spec.PodReplacementPolicy != FailedPodReplacement ||
			j2.Spec.PodFailurePolicy.Rules[0].OnPodConditions[0].Status != ConditionTrue {
			t.Errorf("got %+v", j2.Spec)
		}
	})
}

// TestDefaultService checks SetDefaults_Service's rules: session affinity,
// type, port protocol and target port, the traffic policies by type, the
// load balancer's node ports; values already set are kept.
func TestDefaultService(t *testing.T) {
	show := func(s *Service) string {
		sp := s.Spec
		out := fmt.Sprintf("%s %s", sp.Type, sp.SessionAffinity)
		if c := sp.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
			out += fmt.Sprintf("(%d)", *c.ClientIP.TimeoutSeconds)
		}
		for _, p := range sp.Ports {
			out += fmt.Sprintf(" %s/%d->%s", p.Protocol, p.Port, p.TargetPort.String())
		}
		out += " etp=" + sp.ExternalTrafficPolicy
		if sp.InternalTrafficPolicy != nil {
			out += " itp=" + *sp.InternalTrafficPolicy
		}
		if sp.AllocateLoadBalancerNodePorts != nil {
			out += fmt.Sprintf(" lbNodePorts=%v", *sp.AllocateLoadBalancerNodePorts)
		}
		return out
	}
	udp := Protocol("UDP")
	local := "Local"
	for _, tc := range []struct {
		spec ServiceSpec
		want string
	}{
		{ServiceSpec{Ports: []ServicePort{{Port: 80}, {Port: 53, Protocol: udp, TargetPort: FromString("dns")}}},
			"ClusterIP None TCP/80->80 UDP/53->dns etp= itp=Cluster"},
		{ServiceSpec{Type: ServiceTypeNodePort, SessionAffinity: ServiceAffinityClientIP, Ports: []ServicePort{{Port: 80, TargetPort: FromInt32(8080)}}},
			"NodePort ClientIP(10800) TCP/80->8080 etp=Cluster itp=Cluster"},
		{ServiceSpec{Type: ServiceTypeLoadBalancer, ExternalTrafficPolicy: "Local", InternalTrafficPolicy: &local},
			"LoadBalancer None etp=Local itp=Local lbNodePorts=true"},
		{ServiceSpec{ExternalIPs: []string{"192.0.2.7"}}, "ClusterIP None etp=Cluster itp=Cluster"},
		{ServiceSpec{Type: ServiceTypeExternalName, ExternalName: "db.example.com"}, "ExternalName None etp="},
	} {
		s := &Service{Spec: tc.spec}
		DefaultService(s)
		if got := show(s); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
