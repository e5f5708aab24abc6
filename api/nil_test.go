package api_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
)

// nilCases calls each exported function and method of api that can be
// handed nil with nil arguments (a nil receiver too, for pointer, map and
// slice receivers) and checks the documented answer: the zero value, the
// documented default, or an error wrapping api.ErrInvalidInput. Keyed by
// the names niltest.Nilable lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*VolumeAttachment).PersistentVolumeName": func(t *testing.T) {
		if got := (*api.VolumeAttachment)(nil).PersistentVolumeName(); got != "" {
			t.Errorf("got %q, want \"\"", got)
		}
	},
	"(*CSINode).Driver": func(t *testing.T) {
		if got := (*api.CSINode)(nil).Driver("x"); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*Container).IsSidecar": func(t *testing.T) {
		if (*api.Container)(nil).IsSidecar() {
			t.Error("a nil container is a sidecar")
		}
	},
	"ProbeKind.Of": func(t *testing.T) {
		if got := api.ProbeLiveness.Of(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*CronScheduleError).Error": func(t *testing.T) {
		var e *api.CronScheduleError
		niltest.Zero(t, e.Error())
	},
	"(*CronScheduleError).Unwrap": func(t *testing.T) {
		var e *api.CronScheduleError
		niltest.Zero(t, len(e.Unwrap()))
	},
	"(*CronSchedule).TimeZone": func(t *testing.T) {
		var s *api.CronSchedule
		niltest.Zero(t, s.TimeZone())
	},
	"(*CronSchedule).Next": func(t *testing.T) {
		var s *api.CronSchedule
		niltest.Zero(t, s.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), nil))
		niltest.Zero(t, s.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.UTC))
	},
	"CronLocationError": func(t *testing.T) {
		err := api.CronLocationError("Mars/Olympus", nil)
		if !errors.Is(err, api.ErrInvalidCronSchedule) || err.Error() != "provided bad location Mars/Olympus: <nil>" {
			t.Errorf("got %v", err)
		}
	},
	"(*FieldError).Error": func(t *testing.T) {
		if got := (*api.FieldError)(nil).Error(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"(*IntOrString).UnmarshalJSON": func(t *testing.T) {
		wantInvalid(t, (*api.IntOrString)(nil).UnmarshalJSON([]byte(`1`)), "IntOrString")
		var v api.IntOrString
		if err := v.UnmarshalJSON(nil); err == nil {
			t.Error("empty input decoded without an error")
		}
	},
	"(*Node).FindCondition": func(t *testing.T) {
		if got := (*api.Node)(nil).FindCondition(api.NodeReady); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*NodeSelectorMatcher).Match": func(t *testing.T) {
		if (*api.NodeSelectorMatcher)(nil).Match("n", nil) {
			t.Error("a nil matcher matched")
		}
		m, err := api.NewNodeSelectorMatcher(nil)
		if err != nil || !m.Match("n", nil) {
			t.Errorf("a nil selector's matcher: match %v, err %v; want true, nil", m.Match("n", nil), err)
		}
	},
	"(*NodeSelectorMatcher).MatchWithError": func(t *testing.T) {
		if ok, err := (*api.NodeSelectorMatcher)(nil).MatchWithError("n", nil); ok || err != nil {
			t.Errorf("got %v, %v; want false, nil", ok, err)
		}
	},
	"(*NodeSelectorTermMatcher).Err": func(t *testing.T) {
		if err := (*api.NodeSelectorTermMatcher)(nil).Err(); err != nil {
			t.Errorf("got %v, want nil", err)
		}
	},
	"(*NodeSelectorTermMatcher).Match": func(t *testing.T) {
		if (*api.NodeSelectorTermMatcher)(nil).Match("n", nil) {
			t.Error("a nil term matcher matched")
		}
	},
	"(*ObjectMeta).ControllerRef": func(t *testing.T) {
		if got := (*api.ObjectMeta)(nil).ControllerRef(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*PersistentVolume).ClassName": func(t *testing.T) {
		if got := (*api.PersistentVolume)(nil).ClassName(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"(*PersistentVolume).HasAccessModes": func(t *testing.T) {
		if (*api.PersistentVolume)(nil).HasAccessModes([]api.PersistentVolumeAccessMode{api.ReadWriteOnce}) {
			t.Error("a nil volume offers access modes")
		}
		if !(&api.PersistentVolume{}).HasAccessModes(nil) {
			t.Error("a volume lacks the empty set of access modes")
		}
	},
	"(*PersistentVolume).IsBoundToClaim": func(t *testing.T) {
		if (*api.PersistentVolume)(nil).IsBoundToClaim(&api.PersistentVolumeClaim{}) {
			t.Error("a nil volume is bound")
		}
		if (&api.PersistentVolume{}).IsBoundToClaim(nil) {
			t.Error("a volume is bound to a nil claim")
		}
	},
	"(*PersistentVolume).NodeAffinityMatches": func(t *testing.T) {
		if (*api.PersistentVolume)(nil).NodeAffinityMatches(map[string]string{"a": "b"}) {
			t.Error("a nil volume matches a node")
		}
		if !(&api.PersistentVolume{}).NodeAffinityMatches(nil) {
			t.Error("a volume without node affinity does not match a node without labels")
		}
	},
	"(*PersistentVolume).RequiredNodeAffinity": func(t *testing.T) {
		if got := (*api.PersistentVolume)(nil).RequiredNodeAffinity(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*PersistentVolumeClaim).ClassName": func(t *testing.T) {
		if got := (*api.PersistentVolumeClaim)(nil).ClassName(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"(*PersistentVolumeClaim).HasClass": func(t *testing.T) {
		if (*api.PersistentVolumeClaim)(nil).HasClass() {
			t.Error("a nil claim asks for a class")
		}
	},
	"(*StorageClass).IsDefault": func(t *testing.T) {
		if (*api.StorageClass)(nil).IsDefault() {
			t.Error("a nil class is a default class")
		}
	},
	"DefaultStorageClassOf": func(t *testing.T) {
		if got := api.DefaultStorageClassOf([]*api.StorageClass{nil}); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*PersistentVolumeClaim).IsReadWriteOncePod": func(t *testing.T) {
		if (*api.PersistentVolumeClaim)(nil).IsReadWriteOncePod() {
			t.Error("a nil claim is ReadWriteOncePod")
		}
	},
	"(*Pod).IsTerminating": func(t *testing.T) {
		if (*api.Pod)(nil).IsTerminating() {
			t.Error("a nil pod is terminating")
		}
	},
	"(*Pod).Key": func(t *testing.T) {
		if got := (*api.Pod)(nil).Key(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"(*PodSpec).FindContainer": func(t *testing.T) {
		if ref, ok := (*api.PodSpec)(nil).FindContainer("app"); ok || ref != (api.ContainerRef{}) {
			t.Errorf("got %v, %v; want the zero ref, false", ref, ok)
		}
	},
	"(*PodStatus).FindContainerStatus": func(t *testing.T) {
		if got := (*api.PodStatus)(nil).FindContainerStatus("app"); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*Quantity).UnmarshalJSON": func(t *testing.T) {
		wantInvalid(t, (*api.Quantity)(nil).UnmarshalJSON([]byte(`"1"`)), "Quantity")
		var q api.Quantity
		if err := q.UnmarshalJSON(nil); err == nil {
			t.Error("empty input decoded without an error")
		}
	},
	"(*StorageClass).BindingMode": func(t *testing.T) {
		if got := (*api.StorageClass)(nil).BindingMode(); got != api.VolumeBindingImmediate {
			t.Errorf("got %q, want %q", got, api.VolumeBindingImmediate)
		}
	},
	"(*Time).IsZero": func(t *testing.T) {
		if !(*api.Time)(nil).IsZero() {
			t.Error("a nil time is not zero")
		}
	},
	"(*Time).UnmarshalJSON": func(t *testing.T) {
		wantInvalid(t, (*api.Time)(nil).UnmarshalJSON([]byte(`"2024-01-01T00:00:00Z"`)), "Time")
		var v api.Time
		if err := v.UnmarshalJSON(nil); err == nil {
			t.Error("empty input decoded without an error")
		}
	},
	"(*Toleration).ToleratesTaint": func(t *testing.T) {
		if (*api.Toleration)(nil).ToleratesTaint(&api.Taint{Key: "k", Effect: api.TaintEffectNoSchedule}) {
			t.Error("a nil toleration tolerates a taint")
		}
		if (&api.Toleration{Operator: api.TolerationOpExists}).ToleratesTaint(nil) {
			t.Error("a toleration tolerates a nil taint")
		}
	},
	"AggregateContainerLimits": func(t *testing.T) {
		if got := api.AggregateContainerLimits(nil, api.PodResourcesOptions{}); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
	},
	"AggregateContainerRequests": func(t *testing.T) {
		if got := api.AggregateContainerRequests(nil, api.PodResourcesOptions{}); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
	},
	"ContainerStatusByName": func(t *testing.T) {
		if got := api.ContainerStatusByName(nil, "app"); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"ContainsAccessMode": func(t *testing.T) {
		if api.ContainsAccessMode(nil, api.ReadWriteOnce) {
			t.Error("an empty list contains a mode")
		}
	},
	"(*Unstructured).UnmarshalJSON": func(t *testing.T) {
		wantInvalid(t, (*api.Unstructured)(nil).UnmarshalJSON([]byte(`{}`)), "Unstructured")
		var v api.Unstructured
		if err := v.UnmarshalJSON(nil); err == nil {
			t.Error("empty input decoded without an error")
		}
	},
	"(*Unstructured).DeepCopy": func(t *testing.T) {
		if (*api.Unstructured)(nil).DeepCopy() != nil {
			t.Error("the copy of nil is not nil")
		}
	},
	"(*Unstructured).MarshalJSON": func(t *testing.T) {
		if b, err := (*api.Unstructured)(nil).MarshalJSON(); err != nil || string(b) != "null" {
			t.Errorf("got %s, %v; want null", b, err)
		}
	},
	"DecodeAll": func(t *testing.T) {
		if objs, err := api.DecodeAll(nil); err == nil || objs != nil {
			t.Errorf("got %v, %v; want nil and an error", objs, err)
		}
	},
	"Decode": func(t *testing.T) {
		if objs, err := api.Decode(nil); err == nil || objs != nil {
			t.Errorf("got %v, %v; want nil and an error", objs, err)
		}
	},
	"DefaultCSIDriver":             func(t *testing.T) { api.DefaultCSIDriver(nil) },
	"DefaultLimitRange":            func(t *testing.T) { api.DefaultLimitRange(nil) },
	"DefaultDaemonSet":             func(t *testing.T) { api.DefaultDaemonSet(nil) },
	"DefaultDeployment":            func(t *testing.T) { api.DefaultDeployment(nil) },
	"DefaultJob":                   func(t *testing.T) { api.DefaultJob(nil) },
	"DefaultCronJob":               func(t *testing.T) { api.DefaultCronJob(nil) },
	"DefaultService":               func(t *testing.T) { api.DefaultService(nil) },
	"DefaultReplicaSet":            func(t *testing.T) { api.DefaultReplicaSet(nil) },
	"DefaultStatefulSet":           func(t *testing.T) { api.DefaultStatefulSet(nil) },
	"DefaultPersistentVolume":      func(t *testing.T) { api.DefaultPersistentVolume(nil) },
	"DefaultPersistentVolumeClaim": func(t *testing.T) { api.DefaultPersistentVolumeClaim(nil) },
	"DefaultPod":                   func(t *testing.T) { api.DefaultPod(nil) },
	"DefaultPriorityClass":         func(t *testing.T) { api.DefaultPriorityClass(nil) },
	"DefaultStorageClass":          func(t *testing.T) { api.DefaultStorageClass(nil) },
	"Duplicate": func(t *testing.T) {
		if got := api.Duplicate(api.NewPath("f"), nil); got == nil || got.Type != api.ErrorTypeDuplicate {
			t.Errorf("got %v", got)
		}
	},
	"EffectiveVolumeMode": func(t *testing.T) {
		if got := api.EffectiveVolumeMode(nil); got != api.PersistentVolumeFilesystem {
			t.Errorf("got %q, want %q", got, api.PersistentVolumeFilesystem)
		}
	},
	"EphemeralVolumeClaimName": func(t *testing.T) {
		if got := api.EphemeralVolumeClaimName(nil, &api.Volume{Name: "v"}); got != "" {
			t.Errorf("nil pod: got %q, want empty", got)
		}
		if got := api.EphemeralVolumeClaimName(&api.Pod{}, nil); got != "" {
			t.Errorf("nil volume: got %q, want empty", got)
		}
	},
	"FindCondition": func(t *testing.T) {
		if got := api.FindCondition(nil, api.PodReady); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"FindStatusCondition": func(t *testing.T) {
		if got := api.FindStatusCondition(nil, "Ready"); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"TaintsEqual": func(t *testing.T) {
		if !api.TaintsEqual(nil, nil) || !api.TaintsEqual(nil, []api.Taint{}) || api.TaintsEqual(nil, []api.Taint{{Key: "k"}}) {
			t.Error("nil taint lists: want equal to each other and to an empty list only")
		}
	},
	"FindUntoleratedTaint": func(t *testing.T) {
		if taint, ok := api.FindUntoleratedTaint(nil, nil); ok || taint.Key != "" {
			t.Errorf("no taints: got %+v, %v; want none", taint, ok)
		}
		taint, ok := api.FindUntoleratedTaint([]api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}, nil)
		if !ok || taint.Key != "k" {
			t.Errorf("no tolerations: got %+v, %v; want the taint", taint, ok)
		}
	},
	"FormatLabels": func(t *testing.T) {
		if got := api.FormatLabels(nil); got != "<none>" {
			t.Errorf("got %q, want <none>", got)
		}
	},
	"InitContainerKind": func(t *testing.T) {
		if got := api.InitContainerKind(nil); got != api.ContainerKindInit {
			t.Errorf("got %v, want %v", got, api.ContainerKindInit)
		}
	},
	"InitialPodStatus": func(t *testing.T) {
		niltest.Zero(t, api.InitialPodStatus(nil))
	},
	"InternalError": func(t *testing.T) {
		got := api.InternalError(api.NewPath("f"), nil)
		if got == nil || got.Type != api.ErrorTypeInternal || got.Detail != "" {
			t.Errorf("got %#v, want an internal error with no detail", got)
		}
	},
	"Invalid": func(t *testing.T) {
		if got := api.Invalid(api.NewPath("f"), nil, "d"); got == nil || got.Error() != "f: Invalid value: d" {
			t.Errorf("got %v", got)
		}
	},
	"PodVolumeClaimName": func(t *testing.T) {
		name, ephemeral, ok := api.PodVolumeClaimName(nil, &api.Volume{})
		niltest.Zero(t, name, ephemeral, ok)
		name, ephemeral, ok = api.PodVolumeClaimName(&api.Pod{}, nil)
		niltest.Zero(t, name, ephemeral, ok)
	},
	"ZoneKey": func(t *testing.T) {
		niltest.Zero(t, api.ZoneKey(nil))
	},
	"NodeZone": func(t *testing.T) {
		region, zone := api.NodeZone(nil)
		niltest.Zero(t, region, zone)
	},
	"IsStaticPod":   func(t *testing.T) { niltest.Zero(t, api.IsStaticPod(nil)) },
	"IsCriticalPod": func(t *testing.T) { niltest.Zero(t, api.IsCriticalPod(nil)) },
	"IsPodReady":    func(t *testing.T) { niltest.Zero(t, api.IsPodReady(nil)) },
	"UpdatePodCondition": func(t *testing.T) {
		niltest.Zero(t, api.UpdatePodCondition(nil, api.PodCondition{Type: api.PodReady}, time.Time{}))
	},
	"(*Namespace).GoString": func(t *testing.T) {
		if got, want := (*api.Namespace)(nil).GoString(), "(*api.Namespace)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"(*Namespace).Terminating": func(t *testing.T) {
		if (*api.Namespace)(nil).Terminating() {
			t.Error("a nil namespace is terminating")
		}
	},
	"(*Node).GoString": func(t *testing.T) {
		if got, want := (*api.Node)(nil).GoString(), "(*api.Node)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"(*Pod).GoString": func(t *testing.T) {
		if got, want := (*api.Pod)(nil).GoString(), "(*api.Pod)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"(*PodDisruptionBudget).GoString": func(t *testing.T) {
		if got, want := (*api.PodDisruptionBudget)(nil).GoString(), "(*api.PodDisruptionBudget)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"(*ReplicaSet).GoString": func(t *testing.T) {
		if got, want := (*api.ReplicaSet)(nil).GoString(), "(*api.ReplicaSet)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"(*StatefulSet).GoString": func(t *testing.T) {
		if got, want := (*api.StatefulSet)(nil).GoString(), "(*api.StatefulSet)(nil)"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"TolerationsTolerateTaint": func(t *testing.T) {
		niltest.Zero(t, api.TolerationsTolerateTaint([]api.Toleration{{Operator: api.TolerationOpExists}}, nil))
	},
	"PodReadiness": func(t *testing.T) {
		r, a := api.PodReadiness(nil, 0, time.Time{})
		niltest.Zero(t, r, a)
	},
	"IsPodAvailable": func(t *testing.T) {
		niltest.Zero(t, api.IsPodAvailable(nil, 0, time.Time{}))
	},
	"PodReference": func(t *testing.T) {
		niltest.Zero(t, api.PodReference(nil))
	},
	"ContainerReference": func(t *testing.T) {
		niltest.Zero(t, api.ContainerReference(nil, "app"))
	},
	"IsMirrorPod": func(t *testing.T) {
		if api.IsMirrorPod(nil) {
			t.Error("a nil pod is a mirror pod")
		}
	},
	"IsPodLevelLimitsSet": func(t *testing.T) {
		if api.IsPodLevelLimitsSet(nil) {
			t.Error("a nil pod sets pod-level limits")
		}
	},
	"IsPodLevelRequestsSet": func(t *testing.T) {
		if api.IsPodLevelRequestsSet(nil) {
			t.Error("a nil pod sets pod-level requests")
		}
	},
	"IsPodLevelResourcesSet": func(t *testing.T) {
		if api.IsPodLevelResourcesSet(nil) {
			t.Error("a nil pod sets pod-level resources")
		}
	},
	"IsPodResizeInfeasible": func(t *testing.T) {
		if api.IsPodResizeInfeasible(nil) {
			t.Error("a nil pod's resize is infeasible")
		}
	},
	"LabelSelectorAsSelector": func(t *testing.T) {
		sel, err := api.LabelSelectorAsSelector(nil)
		if err != nil || !api.SelectsNothing(sel) {
			t.Errorf("got %v, %v; want Nothing(), nil", sel, err)
		}
	},
	"NewNodeSelectorMatcher": func(t *testing.T) {
		m, err := api.NewNodeSelectorMatcher(nil)
		if err != nil || m == nil || !m.Match("", nil) {
			t.Errorf("got %v, %v; want a matcher of every node", m, err)
		}
	},
	"NewPath": func(t *testing.T) {
		if got := api.NewPath("spec").String(); got != "spec" {
			t.Errorf("got %q, want spec", got)
		}
	},
	"NewRequirement": func(t *testing.T) {
		if _, err := api.NewRequirement("k", api.SelectionIn, nil); err == nil {
			t.Error("in with no values: no error")
		}
		if r, err := api.NewRequirement("k", api.SelectionExists, nil); err != nil || r.Key() != "k" {
			t.Errorf("exists with no values: got %v, %v", r, err)
		}
	},
	"NodeSelectorRequirementsAsSelector": func(t *testing.T) {
		sel, err := api.NodeSelectorRequirementsAsSelector(nil)
		if err != nil || !api.SelectsNothing(sel) {
			t.Errorf("got %v, %v; want Nothing(), nil", sel, err)
		}
	},
	"NotFound": func(t *testing.T) {
		if got := api.NotFound(api.NewPath("f"), nil); got == nil || got.Type != api.ErrorTypeNotFound {
			t.Errorf("got %v", got)
		}
	},
	"NotSupported": func(t *testing.T) {
		if got := api.NotSupported(api.NewPath("f"), nil, nil); got == nil || got.Type != api.ErrorTypeNotSupported {
			t.Errorf("got %v", got)
		}
	},
	"Path.Child": func(t *testing.T) {
		if got := api.NewPath("spec").Child("containers").String(); got != "spec.containers" {
			t.Errorf("got %q", got)
		}
	},
	"PodLimits": func(t *testing.T) {
		if got := api.PodLimits(nil, api.PodResourcesOptions{}); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
	},
	"ComputePodQOS": func(t *testing.T) {
		niltest.Zero(t, api.ComputePodQOS(nil))
	},
	"PodPriority": func(t *testing.T) {
		niltest.Zero(t, api.PodPriority(nil))
	},
	"PodQOS": func(t *testing.T) {
		niltest.Zero(t, api.PodQOS(nil))
	},
	"PodRequests": func(t *testing.T) {
		if got := api.PodRequests(nil, api.PodResourcesOptions{}); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
		// The scheduler's non-missing requests are for containers; a nil pod
		// has none.
		opts := api.PodResourcesOptions{NonMissingContainerRequests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("100m")}}
		if got := api.PodRequests(nil, opts); len(got) != 0 {
			t.Errorf("with non-missing requests: got %v, want empty", got)
		}
	},
	"ResourceList.Clone": func(t *testing.T) {
		if got := api.ResourceList(nil).Clone(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"ResourceList.Cpu": func(t *testing.T) {
		if got := api.ResourceList(nil).Cpu(); !got.IsZero() {
			t.Errorf("got %v, want zero", got)
		}
	},
	"ResourceList.Equal": func(t *testing.T) {
		if !api.ResourceList(nil).Equal(nil) || !api.ResourceList(nil).Equal(api.ResourceList{}) {
			t.Error("nil and empty lists differ")
		}
	},
	"ResourceList.Get": func(t *testing.T) {
		if _, ok := api.ResourceList(nil).Get(api.ResourceCPU); ok {
			t.Error("a nil list has cpu")
		}
	},
	"ResourceList.Memory": func(t *testing.T) {
		if got := api.ResourceList(nil).Memory(); !got.IsZero() {
			t.Errorf("got %v, want zero", got)
		}
	},
	"ResourceList.Names": func(t *testing.T) {
		if got := api.ResourceList(nil).Names(); len(got) != 0 {
			t.Errorf("got %v, want none", got)
		}
	},
	"FieldErrors.Error": func(t *testing.T) {
		if got := api.FieldErrors(nil).Error(); got != "[]" {
			t.Errorf("nil list: got %q, want []", got)
		}
		list := api.FieldErrors{nil, api.Required(api.NewPath("f"), "")}
		if got := list.Error(); got != "f: Required value" {
			t.Errorf("list with a nil element: got %q, want the other element's message", got)
		}
	},
	"FieldErrors.Err": func(t *testing.T) {
		if err := api.FieldErrors(nil).Err(); err != nil {
			t.Errorf("got %v, want nil", err)
		}
	},
	"Requirement.Matches": func(t *testing.T) {
		r, err := api.NewRequirement("k", api.SelectionDoesNotExist, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Matches(nil) {
			t.Error("nil labels have key k")
		}
	},
	"ScaledValueFromIntOrPercent": func(t *testing.T) {
		n, err := api.ScaledValueFromIntOrPercent(nil, 10, true)
		if n != 0 {
			t.Errorf("got %d, want 0", n)
		}
		wantInvalid(t, err, "IntOrString")
	},
	"SelectorFromSet": func(t *testing.T) {
		if sel := api.SelectorFromSet(nil); !sel.Empty() {
			t.Errorf("got %v, want Everything()", sel)
		}
	},
	"SelectorFromValidatedSet": func(t *testing.T) {
		if sel := api.SelectorFromValidatedSet(nil); !sel.Empty() {
			t.Errorf("got %v, want Everything()", sel)
		}
	},
	"SelectsNothing": func(t *testing.T) {
		if api.SelectsNothing(nil) {
			t.Error("a nil selector is Nothing()")
		}
	},
	"Set.AsSelector": func(t *testing.T) {
		if sel := api.Set(nil).AsSelector(); !sel.Empty() {
			t.Errorf("got %v, want Everything()", sel)
		}
	},
	"Set.Get": func(t *testing.T) {
		if got := api.Set(nil).Get("k"); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"Set.Has": func(t *testing.T) {
		if api.Set(nil).Has("k") {
			t.Error("a nil set has a key")
		}
	},
	"Set.String": func(t *testing.T) {
		if got := api.Set(nil).String(); got != "" {
			t.Errorf("got %q, want empty", got)
		}
	},
	"TooLong": func(t *testing.T) {
		if got := api.TooLong(api.NewPath("f"), nil, 3); got == nil || got.Type != api.ErrorTypeTooLong {
			t.Errorf("got %v", got)
		}
	},
	"ValidatedSelectorFromSet": func(t *testing.T) {
		sel, err := api.ValidatedSelectorFromSet(nil)
		if err != nil || !sel.Empty() {
			t.Errorf("got %v, %v; want Everything(), nil", sel, err)
		}
	},
	"VolumeClaimIsForPod": func(t *testing.T) {
		err := api.VolumeClaimIsForPod(nil, &api.PersistentVolumeClaim{})
		wantInvalid(t, err, "pod")
		err = api.VolumeClaimIsForPod(&api.Pod{}, nil)
		wantInvalid(t, err, "claim")
		if !errors.Is(err, api.ErrClaimNotForPod) {
			t.Errorf("%v does not wrap ErrClaimNotForPod", err)
		}
	},
}

// nilExcluded names what niltest lists but cannot be handed nil, and why.
var nilExcluded = map[string]string{}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of api
// that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nilExcluded) }

func wantInvalid(t *testing.T, err error, arg string) {
	t.Helper()
	niltest.Invalid(t, err, api.ErrInvalidInput, arg)
}
