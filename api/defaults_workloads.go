package api

import "math"

// API server defaulting of the workload objects (pkg/apis/apps/v1 and
// pkg/apis/batch/v1 SetDefaults_* with their generated per-field defaults,
// Kubernetes v1.36.3, default feature gates). A workload's pod template
// gets the defaults of a pod spec wherever one appears in the API
// (SetDefaults_PodSpec, containers, probes, volumes, ports, quantities),
// not the pod-only ones of DefaultPod (requests copied from limits,
// pod-level resources, enableServiceLinks, hostNetwork host ports): those
// materialise only on the pods the controllers create. As with DefaultPod,
// nothing in podsem applies these implicitly; the cluster package's API
// server and the CLI call them on create and update.

// Values of a Job's spec.completionMode and spec.podReplacementPolicy
// (k8s.io/api batch/v1 CompletionMode, PodReplacementPolicy).
const (
	NonIndexedCompletion = "NonIndexed"
	IndexedCompletion    = "Indexed"
	TerminatingOrFailed  = "TerminatingOrFailed"
	FailedPodReplacement = "Failed"
)

// defaultTemplate defaults a workload's pod template (the generated
// defaulters of every apps/v1 and batch/v1 kind holding one).
func defaultTemplate(t *PodTemplateSpec) { defaultPodSpec(&t.Spec, false) }

// DefaultDeployment applies the API server's apps/v1 defaulting to d in
// place (SetDefaults_Deployment): spec.replicas 1, strategy RollingUpdate
// with maxUnavailable and maxSurge 25% (when the strategy is
// RollingUpdate), revisionHistoryLimit 10, progressDeadlineSeconds 600,
// and the template's pod spec defaults. A nil Deployment is left alone.
func DefaultDeployment(d *Deployment) {
	if d == nil {
		return
	}
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = ptrInt32(1)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = RollingUpdateDeploymentStrategyType
	}
	if s.Strategy.Type == RollingUpdateDeploymentStrategyType {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &RollingUpdateDeployment{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := FromString("25%")
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := FromString("25%")
			ru.MaxSurge = &v
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptrInt32(10)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = ptrInt32(600)
	}
	defaultTemplate(&s.Template)
}

// DefaultReplicaSet applies the apps/v1 defaulting to rs in place
// (SetDefaults_ReplicaSet): spec.replicas 1 and the template's pod spec
// defaults. A nil ReplicaSet is left alone.
func DefaultReplicaSet(rs *ReplicaSet) {
	if rs == nil {
		return
	}
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptrInt32(1)
	}
	defaultTemplate(&rs.Spec.Template)
}

// DefaultStatefulSet applies the apps/v1 defaulting to set in place
// (SetDefaults_StatefulSet, MaxUnavailableStatefulSet off as v1.36.3
// ships it): podManagementPolicy OrderedReady; an empty updateStrategy
// becomes RollingUpdate with partition 0 (a RollingUpdate strategy given
// with rollingUpdate gets partition 0 when unset; one given without
// rollingUpdate keeps none); persistentVolumeClaimRetentionPolicy Retain
// for whenDeleted and whenScaled; replicas 1; revisionHistoryLimit 10; the
// template's pod spec defaults and each volumeClaimTemplate's claim
// defaults (DefaultPersistentVolumeClaim). A nil set is left alone.
func DefaultStatefulSet(set *StatefulSet) {
	if set == nil {
		return
	}
	s := &set.Spec
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = OrderedReadyPodManagement
	}
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = RollingUpdateStatefulSetStrategyType
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := s.UpdateStrategy.RollingUpdate; s.UpdateStrategy.Type == RollingUpdateStatefulSetStrategyType && ru != nil && ru.Partition == nil {
		ru.Partition = ptrInt32(0)
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.Replicas == nil {
		s.Replicas = ptrInt32(1)
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptrInt32(10)
	}
	defaultTemplate(&s.Template)
	for i := range s.VolumeClaimTemplates {
		DefaultPersistentVolumeClaim(&s.VolumeClaimTemplates[i])
	}
}

// DefaultDaemonSet applies the apps/v1 defaulting to ds in place
// (SetDefaults_DaemonSet): updateStrategy RollingUpdate with
// maxUnavailable 1 and maxSurge 0 (when the strategy is RollingUpdate),
// revisionHistoryLimit 10, and the template's pod spec defaults. A nil
// DaemonSet is left alone.
func DefaultDaemonSet(ds *DaemonSet) {
	if ds == nil {
		return
	}
	s := &ds.Spec
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = RollingUpdateDaemonSetStrategyType
	}
	if s.UpdateStrategy.Type == RollingUpdateDaemonSetStrategyType {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &RollingUpdateDaemonSet{}
		}
		ru := s.UpdateStrategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := FromInt32(1)
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := FromInt32(0)
			ru.MaxSurge = &v
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = ptrInt32(10)
	}
	defaultTemplate(&s.Template)
}

// DefaultJob applies the batch/v1 defaulting to job in place
// (SetDefaults_Job, JobPodReplacementPolicy GA): completions and
// parallelism 1 when both are unset, else parallelism 1 when unset;
// backoffLimit 6 (MaxInt32 with backoffLimitPerIndex); the Job's labels
// from the template's when it has none; completionMode NonIndexed; suspend
// false; podReplacementPolicy Failed with a pod failure policy, else
// TerminatingOrFailed; manualSelector false; status True on each
// onPodConditions pattern of the pod failure policy; and the template's
// pod spec defaults. The selector and the template's job labels are the
// Job strategy's on create, not defaulting. A nil Job is left alone.
func DefaultJob(job *Job) {
	if job == nil {
		return
	}
	s := &job.Spec
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = ptrInt32(1)
	}
	if s.Parallelism == nil {
		s.Parallelism = ptrInt32(1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = ptrInt32(math.MaxInt32)
		} else {
			s.BackoffLimit = ptrInt32(6)
		}
	}
	if s.Template.Labels != nil && len(job.Labels) == 0 {
		job.Labels = make(map[string]string, len(s.Template.Labels))
		for k, v := range s.Template.Labels {
			job.Labels[k] = v
		}
	}
	if s.CompletionMode == nil {
		m := NonIndexedCompletion
		s.CompletionMode = &m
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.PodReplacementPolicy == nil {
		p := TerminatingOrFailed
		if s.PodFailurePolicy != nil {
			p = FailedPodReplacement
		}
		s.PodReplacementPolicy = &p
	}
	if s.ManualSelector == nil {
		f := false
		s.ManualSelector = &f
	}
	if s.PodFailurePolicy != nil {
		for i := range s.PodFailurePolicy.Rules {
			for j := range s.PodFailurePolicy.Rules[i].OnPodConditions {
				if c := &s.PodFailurePolicy.Rules[i].OnPodConditions[j]; c.Status == "" {
					c.Status = ConditionTrue
				}
			}
		}
	}
	defaultTemplate(&s.Template)
}

func ptrInt32(v int32) *int32 { return &v }

// DefaultService applies the core/v1 Service defaulting to svc in place
// (SetDefaults_Service, kube-apiserver v1.36.3): sessionAffinity None
// (ClientIP gets a 10800-s timeout unless one is set; None drops the
// config), type ClusterIP, each port's protocol TCP and targetPort its
// port when unset, externalTrafficPolicy Cluster for a Service reachable
// from outside (NodePort, LoadBalancer, or one with external IPs),
// internalTrafficPolicy Cluster for ClusterIP, NodePort and LoadBalancer
// Services, allocateLoadBalancerNodePorts true for a LoadBalancer. What
// the API server's registry adds on create (the IP family fields, the
// cluster IP and node ports it allocates) is not defaulting. A nil
// Service is left alone.
func DefaultService(svc *Service) {
	if svc == nil {
		return
	}
	s := &svc.Spec
	if s.SessionAffinity == "" {
		s.SessionAffinity = ServiceAffinityNone
	}
	switch s.SessionAffinity {
	case ServiceAffinityNone:
		s.SessionAffinityConfig = nil
	case ServiceAffinityClientIP:
		if c := s.SessionAffinityConfig; c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			secs := DefaultClientIPServiceAffinitySecs
			s.SessionAffinityConfig = &SessionAffinityConfig{ClientIP: &ClientIPConfig{TimeoutSeconds: &secs}}
		}
	}
	if s.Type == "" {
		s.Type = ServiceTypeClusterIP
	}
	for i := range s.Ports {
		p := &s.Ports[i]
		if p.Protocol == "" {
			p.Protocol = ProtocolTCP
		}
		if t := p.TargetPort; t.IsString && t.StrVal == "" || !t.IsString && t.IntVal == 0 {
			p.TargetPort = FromInt32(p.Port)
		}
	}
	external := s.Type == ServiceTypeNodePort || s.Type == ServiceTypeLoadBalancer ||
		(s.Type == ServiceTypeClusterIP && len(s.ExternalIPs) > 0)
	if external && s.ExternalTrafficPolicy == "" {
		s.ExternalTrafficPolicy = ServiceTrafficPolicyCluster
	}
	if s.InternalTrafficPolicy == nil {
		switch s.Type {
		case ServiceTypeNodePort, ServiceTypeLoadBalancer, ServiceTypeClusterIP:
			p := ServiceTrafficPolicyCluster
			s.InternalTrafficPolicy = &p
		}
	}
	if s.Type == ServiceTypeLoadBalancer && s.AllocateLoadBalancerNodePorts == nil {
		t := true
		s.AllocateLoadBalancerNodePorts = &t
	}
}
