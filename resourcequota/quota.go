// Package resourcequota is Kubernetes' resource quota: what an object
// costs a ResourceQuota (pkg/quota/v1 and its evaluators), the
// ResourceQuota admission plugin's check of a create against the
// namespace's quotas (plugin/pkg/admission/resourcequota), and the
// resourcequota controller's tally of a quota's status
// (pkg/controller/resourcequota), as kube-apiserver and
// kube-controller-manager v1.36.3 compute them.
//
// A pod costs its count (count/pods, always), and while it is counted —
// not terminal, and not past its deletion grace period — pods 1 and its
// effective requests and limits (requests.cpu and cpu, limits.cpu,
// memory, ephemeral-storage, hugepages, extended resources as
// requests.<name>). Another object costs count/<resource>[.<group>], and
// for the kinds with legacy names its count under them (services,
// persistentvolumeclaims, configmaps, secrets, replicationcontrollers,
// resourcequotas), a Service its load balancers and node ports, a claim
// its storage request (also per storage class). A quota counts an object
// when it tracks one of the object's resource names in status.hard and
// every scope it names matches (scopes select pods only).
//
// Nothing here reads a clock or a store: the caller passes the time and
// the objects.
package resourcequota

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// The resource names a pod costs (core/v1 ResourceName constants).
const (
	ResourceRequestsCPU              api.ResourceName = "requests.cpu"
	ResourceRequestsMemory           api.ResourceName = "requests.memory"
	ResourceRequestsEphemeralStorage api.ResourceName = "requests.ephemeral-storage"
	ResourceLimitsCPU                api.ResourceName = "limits.cpu"
	ResourceLimitsMemory             api.ResourceName = "limits.memory"
	ResourceLimitsEphemeralStorage   api.ResourceName = "limits.ephemeral-storage"
	ResourceRequestsStorage          api.ResourceName = "requests.storage"
	ResourceServicesLoadBalancers    api.ResourceName = "services.loadbalancers"
	ResourceServicesNodePorts        api.ResourceName = "services.nodeports"
	requestsPrefix                                    = "requests."
	podCount                         api.ResourceName = "count/pods"
)

// podResources are the names the pod evaluator tracks besides huge pages
// and extended resources.
var podResources = []api.ResourceName{podCount, api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage,
	ResourceRequestsCPU, ResourceRequestsMemory, ResourceRequestsEphemeralStorage,
	ResourceLimitsCPU, ResourceLimitsMemory, ResourceLimitsEphemeralStorage, api.ResourcePods}

// constrained are the names that, tracked by a quota, every container of
// a pod must declare (the backward-compatibility rule of the pod
// evaluator's Constraints).
var constrained = []api.ResourceName{api.ResourceCPU, api.ResourceMemory, ResourceRequestsCPU, ResourceRequestsMemory, ResourceLimitsCPU, ResourceLimitsMemory}

// legacyCount are the kinds whose object count a quota can also name
// without "count/".
var legacyCount = map[string]api.ResourceName{"Service": "services", "PersistentVolumeClaim": "persistentvolumeclaims",
	"ConfigMap": "configmaps", "Secret": "secrets", "ReplicationController": "replicationcontrollers", "ResourceQuota": "resourcequotas"}

// Object is one object as quota sees it: its kind, its API resource
// ("pods", "deployments.apps": count/<resource>) and the object (a
// *api.Pod, *api.Service or *api.PersistentVolumeClaim are costed beyond
// their count; any other is counted only).
type Object struct {
	Kind     string
	Resource string
	Object   api.Object
}

// PodObject is pod as quota sees it: kind Pod, resource "pods". A nil
// pod gives an Object without one (it costs nothing).
func PodObject(pod *api.Pod) Object {
	o := Object{Kind: "Pod", Resource: "pods"}
	if pod != nil {
		o.Object = pod
	}
	return o
}

// PodCounted reports whether a pod is charged for its compute resources
// and pods at now (QuotaV1Pod): not Succeeded or Failed, and not past the
// grace period of its deletion (a pod stuck terminating on a lost node
// stops counting then).
func PodCounted(pod *api.Pod, now time.Time) bool {
	if pod == nil || pod.Status.Phase == api.PodFailed || pod.Status.Phase == api.PodSucceeded {
		return false
	}
	if pod.DeletionTimestamp != nil && pod.DeletionGracePeriodSeconds != nil {
		if now.After(pod.DeletionTimestamp.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second)) {
			return false
		}
	}
	return true
}

// Usage is what o costs at now (the evaluators' Usage). A nil object
// costs nothing.
func Usage(o Object, now time.Time) api.ResourceList {
	out := api.ResourceList{}
	if o.Object == nil {
		return out
	}
	one := api.NewQuantity(1, api.DecimalSI)
	out["count/"+api.ResourceName(o.Resource)] = one
	if n, ok := legacyCount[o.Kind]; ok {
		out[n] = one
	}
	switch x := o.Object.(type) {
	case *api.Pod:
		if !PodCounted(x, now) {
			return out
		}
		opts := api.PodResourcesOptions{UseStatusResources: true}
		add(out, computeUsage(api.PodRequests(x, opts), api.PodLimits(x, opts)))
	case *api.Service:
		if x.Spec.Type == "LoadBalancer" {
			out[ResourceServicesLoadBalancers] = one
		}
		if x.Spec.Type == "LoadBalancer" || x.Spec.Type == "NodePort" {
			ports := int64(0)
			for _, p := range x.Spec.Ports {
				if p.NodePort != 0 || x.Spec.Type == "NodePort" || x.Spec.Type == "LoadBalancer" {
					ports++
				}
			}
			out[ResourceServicesNodePorts] = api.NewQuantity(ports, api.DecimalSI)
		}
	case *api.PersistentVolumeClaim:
		if q, ok := x.Spec.Resources.Requests[api.ResourceStorage]; ok {
			out[ResourceRequestsStorage] = q
			if c := claimClass(x); c != "" {
				out[api.ResourceName(c+".storageclass.storage.k8s.io/requests.storage")] = q
			}
		}
		if c := claimClass(x); c != "" {
			out[api.ResourceName(c+".storageclass.storage.k8s.io/persistentvolumeclaims")] = one
		}
	}
	return out
}

func claimClass(c *api.PersistentVolumeClaim) string {
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// computeUsage is what a pod's (or one container's) requests and limits
// cost (podComputeUsageHelper): pods 1, cpu and requests.cpu from the cpu
// request, limits.cpu from its limit, the same for memory and
// ephemeral-storage, huge pages as themselves and requests.<name>, an
// extended resource as requests.<name>.
func computeUsage(requests, limits api.ResourceList) api.ResourceList {
	out := api.ResourceList{api.ResourcePods: api.NewQuantity(1, api.DecimalSI)}
	for _, r := range [][3]api.ResourceName{
		{api.ResourceCPU, ResourceRequestsCPU, ResourceLimitsCPU},
		{api.ResourceMemory, ResourceRequestsMemory, ResourceLimitsMemory},
		{api.ResourceEphemeralStorage, ResourceRequestsEphemeralStorage, ResourceLimitsEphemeralStorage},
	} {
		if q, ok := requests[r[0]]; ok {
			out[r[0]], out[r[1]] = q, q
		}
		if q, ok := limits[r[0]]; ok {
			out[r[2]] = q
		}
	}
	for name, q := range requests {
		if name.IsHugePages() {
			out[name] = q
			out[requestsPrefix+name] = q
		}
		if name.IsExtended() {
			out[requestsPrefix+name] = q
		}
	}
	return out
}

// tracks reports whether the evaluator of o tracks name (the
// evaluators' MatchingResources).
func tracks(o Object, name api.ResourceName) bool {
	if o.Kind != "Pod" {
		if name == "count/"+api.ResourceName(o.Resource) || legacyCount[o.Kind] == name {
			return true
		}
		switch o.Kind {
		case "Service":
			return name == ResourceServicesLoadBalancers || name == ResourceServicesNodePorts
		case "PersistentVolumeClaim":
			return name == ResourceRequestsStorage || strings.HasSuffix(string(name), ".storageclass.storage.k8s.io/requests.storage") ||
				strings.HasSuffix(string(name), ".storageclass.storage.k8s.io/persistentvolumeclaims")
		}
		return false
	}
	if slices.Contains(podResources, name) {
		return true
	}
	s := string(name)
	if strings.HasPrefix(s, api.ResourceHugePagesPrefix) || strings.HasPrefix(s, requestsPrefix+api.ResourceHugePagesPrefix) {
		return true
	}
	return !name.IsNative() && strings.HasPrefix(s, requestsPrefix)
}

// tracked is the names of hard that o's evaluator tracks, sorted.
func tracked(o Object, hard api.ResourceList) []api.ResourceName {
	var out []api.ResourceName
	for _, n := range hard.Names() {
		if tracks(o, n) {
			out = append(out, n)
		}
	}
	return out
}

// scopeSelectors are a quota's scopes and scope selector expressions, as
// one list (each scope an Exists).
func scopeSelectors(q *api.ResourceQuota) []api.ScopedResourceSelectorRequirement {
	var out []api.ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		out = append(out, api.ScopedResourceSelectorRequirement{ScopeName: s, Operator: api.ScopeSelectorOpExists})
	}
	if q.Spec.ScopeSelector != nil {
		out = append(out, q.Spec.ScopeSelector.MatchExpressions...)
	}
	return out
}

// Matches reports whether quota q counts o (the evaluators' Matches): q
// tracks one of o's resource names in status.hard, and every scope of q
// matches o (a scope matches pods only).
func Matches(q *api.ResourceQuota, o Object) (bool, error) {
	if q == nil {
		return false, fmt.Errorf("resourcequota: %w: quota: nil", api.ErrInvalidInput)
	}
	if len(tracked(o, q.Status.Hard)) == 0 {
		return false, nil
	}
	pod, _ := o.Object.(*api.Pod)
	for _, s := range scopeSelectors(q) {
		if pod == nil || o.Kind != "Pod" {
			return false, nil
		}
		ok, err := podMatchesScope(s, pod)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// podMatchesScope is podMatchesScopeFunc.
func podMatchesScope(s api.ScopedResourceSelectorRequirement, pod *api.Pod) (bool, error) {
	switch s.ScopeName {
	case api.QuotaScopeTerminating:
		return terminating(pod), nil
	case api.QuotaScopeNotTerminating:
		return !terminating(pod), nil
	case api.QuotaScopeBestEffort:
		return api.ComputePodQOS(pod) == api.PodQOSBestEffort, nil
	case api.QuotaScopeNotBestEffort:
		return api.ComputePodQOS(pod) != api.PodQOSBestEffort, nil
	case api.QuotaScopePriorityClass:
		class := pod.Spec.PriorityClassName
		switch s.Operator {
		case api.ScopeSelectorOpExists:
			return class != "", nil
		case api.ScopeSelectorOpDoesNotExist:
			return class == "", nil
		case api.ScopeSelectorOpIn, api.ScopeSelectorOpNotIn:
			if len(s.Values) == 0 {
				return false, fmt.Errorf("failed to parse and convert selector: for 'in', 'notin' operators, values set can't be empty")
			}
			in := class != "" && slices.Contains(s.Values, class)
			if s.Operator == api.ScopeSelectorOpIn {
				return in, nil
			}
			return !in, nil
		}
		return false, fmt.Errorf("failed to parse and convert selector: %q is not a valid scope selector operator", s.Operator)
	case api.QuotaScopeCrossNamespacePodAffinity:
		return crossNamespaceAffinity(pod), nil
	}
	return false, nil
}

func terminating(pod *api.Pod) bool {
	return pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
}

// crossNamespaceAffinity reports a pod (anti-)affinity term naming
// namespaces or a namespace selector.
func crossNamespaceAffinity(pod *api.Pod) bool {
	a := pod.Spec.Affinity
	if a == nil {
		return false
	}
	cross := func(t *api.PodAffinityTerm) bool { return len(t.Namespaces) > 0 || t.NamespaceSelector != nil }
	for _, pa := range []*api.PodAffinity{a.PodAffinity, (*api.PodAffinity)(a.PodAntiAffinity)} {
		if pa == nil {
			continue
		}
		for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
			if cross(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i]) {
				return true
			}
		}
		for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			if cross(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm) {
				return true
			}
		}
	}
	return false
}

// constraints is the pod evaluator's Constraints: when a quota tracks
// cpu or memory requests or limits, every container and init container
// must declare them (unless the pod sets pod-level resources):
// "must specify limits.cpu for: c1,c2; requests.memory for: c2".
func constraints(required []api.ResourceName, pod *api.Pod) error {
	if api.IsPodLevelResourcesSet(pod) {
		return nil
	}
	var need []api.ResourceName
	for _, r := range required {
		if slices.Contains(constrained, r) {
			need = append(need, r)
		}
	}
	if len(need) == 0 {
		return nil
	}
	missing := map[api.ResourceName][]string{}
	check := func(c *api.Container) {
		have := computeUsage(c.Resources.Requests, c.Resources.Limits)
		for _, r := range need {
			if _, ok := have[r]; !ok && !slices.Contains(missing[r], c.Name) {
				missing[r] = append(missing[r], c.Name)
			}
		}
	}
	for i := range pod.Spec.Containers {
		check(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.InitContainers {
		check(&pod.Spec.InitContainers[i])
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for r := range missing {
		names = append(names, string(r))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, r := range names {
		cs := missing[api.ResourceName(r)]
		sort.Strings(cs)
		parts[i] = r + " for: " + strings.Join(cs, ",")
	}
	return errors.New("must specify " + strings.Join(parts, "; "))
}

// Admit is the ResourceQuota admission plugin's check of a create of o
// named name in a namespace whose quotas are quotas, at now
// (CheckRequest): each quota that counts o (Matches) must see every
// constrained resource declared ("failed quota: <q>: must specify ..."),
// must have a used value for each resource it tracks of o ("status
// unknown for quota: <q>, resources: ..."), and must have room for what o
// costs ("exceeded quota: <q>, requested: ..., used: ..., limited: ...").
// A refusal is a Forbidden *admission.Error naming the object. Admitted,
// the quotas whose status.used the plugin writes are returned, copied
// with the new usage; quotas is not modified. A quota with no status.hard
// yet counts nothing: the resourcequota controller has not synced it.
func Admit(quotas []*api.ResourceQuota, o Object, name string, now time.Time) ([]*api.ResourceQuota, error) {
	forbidden := func(err error) error {
		return &admission.Error{Reason: "Forbidden", Resource: o.Resource, Name: name, Detail: err.Error()}
	}
	quotas = slices.Clone(quotas)
	slices.SortFunc(quotas, func(a, b *api.ResourceQuota) int { return strings.Compare(a.Name, b.Name) })
	var interesting []*api.ResourceQuota
	for _, q := range quotas {
		if q == nil {
			continue
		}
		ok, err := Matches(q, o)
		if err != nil {
			return nil, forbidden(fmt.Errorf("error on matching scope: %v", err))
		}
		if !ok {
			continue
		}
		names := tracked(o, q.Status.Hard)
		if pod, isPod := o.Object.(*api.Pod); isPod {
			if err := constraints(names, pod); err != nil {
				return nil, forbidden(fmt.Errorf("failed quota: %s: %v", q.Name, err))
			}
		}
		var unknown []string
		for _, n := range names {
			if _, ok := q.Status.Used[n]; !ok {
				unknown = append(unknown, string(n))
			}
		}
		if len(unknown) > 0 {
			all := make([]string, len(names))
			for i, n := range names {
				all[i] = string(n)
			}
			return nil, forbidden(fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, strings.Join(all, ",")))
		}
		interesting = append(interesting, q)
	}
	if len(interesting) == 0 {
		return nil, nil
	}
	delta := Usage(o, now)
	for n, q := range delta {
		if q.IsZero() {
			delete(delta, n)
		}
	}
	if len(delta) == 0 {
		return nil, nil
	}
	var out []*api.ResourceQuota
	for _, q := range interesting {
		requested := mask(delta, q.Status.Hard)
		used := add(q.Status.Used.Clone(), requested)
		var exceeded []api.ResourceName
		for _, n := range requested.Names() {
			if used[n].Cmp(q.Status.Hard[n]) > 0 {
				exceeded = append(exceeded, n)
			}
		}
		if len(exceeded) > 0 {
			return nil, forbidden(fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
				pretty(requested, exceeded), pretty(q.Status.Used, exceeded), pretty(q.Status.Hard, exceeded)))
		}
		if len(requested) == 0 {
			continue
		}
		n := *q
		n.Status.Used = used
		out = append(out, &n)
	}
	return out, nil
}

// Status is the resourcequota controller's sync of quota q over the
// objects of its namespace at now (syncResourceQuota): status.hard is
// spec.hard, and status.used holds, for each resource it tracks, the sum
// of what the objects it counts cost (zero when none). changed reports
// whether that differs from q's status (the controller then writes it).
func Status(q *api.ResourceQuota, objects []Object, now time.Time) (st api.ResourceQuotaStatus, changed bool, err error) {
	if q == nil {
		return st, false, fmt.Errorf("resourcequota: %w: quota: nil", api.ErrInvalidInput)
	}
	st.Hard = q.Spec.Hard.Clone()
	st.Used = api.ResourceList{}
	for n := range st.Hard {
		st.Used[n] = api.NewQuantity(0, api.DecimalSI)
	}
	probe := *q
	probe.Status.Hard = st.Hard
	for _, o := range objects {
		ok, err := Matches(&probe, o)
		if err != nil {
			return st, false, err
		}
		if ok {
			add(st.Used, mask(Usage(o, now), st.Hard))
		}
	}
	return st, !st.Hard.Equal(q.Status.Hard) || !st.Used.Equal(q.Status.Used), nil
}

// Tracks reports whether quota q, as synced, tracks a resource that o
// costs: a change of such an object is what the controller's
// replenishment looks for.
func Tracks(q *api.ResourceQuota, o Object) bool {
	return q != nil && len(tracked(o, q.Status.Hard)) > 0
}

// add adds b into a (quota.Add) and returns a.
func add(a, b api.ResourceList) api.ResourceList {
	for n, q := range b {
		if cur, ok := a[n]; ok {
			a[n] = cur.Add(q)
		} else {
			a[n] = q
		}
	}
	return a
}

// mask keeps the entries of l whose names keep has (quota.Mask).
func mask(l, keep api.ResourceList) api.ResourceList {
	out := api.ResourceList{}
	for n, q := range l {
		if _, ok := keep[n]; ok {
			out[n] = q
		}
	}
	return out
}

// pretty is prettyPrint over the names: "name=quantity" sorted, joined by
// commas.
func pretty(l api.ResourceList, names []api.ResourceName) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		q := l[n]
		parts = append(parts, string(n)+"="+q.String())
	}
	return strings.Join(parts, ",")
}
