package workloads

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// ssWorld is a small API server for StatefulSet tests: it holds the set
// and its pods, claims and revisions, applies the writes a sync returns
// (refusing a pod create whose name is taken, as the API server does),
// and lets the test move pods along: Running and Ready, failed, gone.
// A deleted pod stays Terminating until the test removes it.
type ssWorld struct {
	set    *api.StatefulSet
	pods   map[string]*api.Pod
	claims map[string]*api.PersistentVolumeClaim
	revs   map[string]*api.ControllerRevision
	serial int
}

func newSSWorld(set *api.StatefulSet) *ssWorld {
	return &ssWorld{set: set, pods: map[string]*api.Pod{}, claims: map[string]*api.PersistentVolumeClaim{}, revs: map[string]*api.ControllerRevision{}}
}

func (w *ssWorld) input() StatefulSetInput {
	in := StatefulSetInput{Set: w.set}
	for _, k := range slices.Sorted(maps.Keys(w.pods)) {
		in.Pods = append(in.Pods, w.pods[k])
	}
	for _, k := range slices.Sorted(maps.Keys(w.claims)) {
		in.Claims = append(in.Claims, w.claims[k])
	}
	for _, k := range slices.Sorted(maps.Keys(w.revs)) {
		in.Revisions = append(in.Revisions, w.revs[k])
	}
	return in
}

func (w *ssWorld) uid(name string) string {
	w.serial++
	return "uid-" + name + "-" + strconv.Itoa(w.serial)
}

// apply performs a sync's writes; a create of a taken name is an error
// (the invariant the tests check: it never happens).
func (w *ssWorld) apply(res StatefulSetSync, now time.Time) error {
	for _, a := range res.Actions {
		switch a.Kind {
		case StatefulSetCreate:
			if w.pods[a.Pod] != nil {
				return fmt.Errorf("create %s while the object exists", a.Pod)
			}
			p := *a.Object
			p.UID = w.uid(p.Name)
			p.CreationTimestamp = api.NewTime(now)
			p.Status = api.PodStatus{Phase: api.PodPending}
			w.pods[p.Name] = &p
		case StatefulSetDelete:
			p := w.pods[a.Pod]
			if p == nil {
				return fmt.Errorf("delete of missing %s", a.Pod)
			}
			if p.DeletionTimestamp == nil {
				q := *p
				q.DeletionTimestamp = api.NewTimePtr(now)
				w.pods[a.Pod] = &q
			}
		case StatefulSetUpdate, StatefulSetAdopt, StatefulSetRelease:
			p := w.pods[a.Pod]
			if p == nil {
				return fmt.Errorf("%s of missing %s", a.Kind, a.Pod)
			}
			q := *p
			q.Labels = maps.Clone(a.Object.Labels)
			q.OwnerReferences = slices.Clone(a.Object.OwnerReferences)
			q.Spec.Volumes = slices.Clone(a.Object.Spec.Volumes)
			w.pods[a.Pod] = &q
		case StatefulSetCreateClaim:
			if w.claims[a.Claim.Name] != nil {
				return fmt.Errorf("create of existing claim %s", a.Claim.Name)
			}
			c := *a.Claim
			c.UID = w.uid(c.Name)
			w.claims[c.Name] = &c
		case StatefulSetUpdateClaim:
			c := *w.claims[a.Claim.Name]
			c.OwnerReferences = a.Claim.OwnerReferences
			w.claims[c.Name] = &c
		}
	}
	for _, a := range res.RevisionActions {
		r := *a.Revision
		switch a.Kind {
		case RevisionCreate:
			r.CreationTimestamp = api.NewTime(now)
			w.revs[r.Name] = &r
		case RevisionUpdate, RevisionAdopt:
			w.revs[r.Name] = &r
		case RevisionDelete:
			delete(w.revs, r.Name)
		}
	}
	if res.WriteStatus {
		st := res.Status
		w.set.Status = st
	}
	return nil
}

// ready makes a pod Running and Ready since at.
func (w *ssWorld) ready(name string, at time.Time) error {
	return w.setPod(name, func(p *api.Pod) {
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(at)}}
	})
}

func (w *ssWorld) notReady(name string, at time.Time) error {
	return w.setPod(name, func(p *api.Pod) {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(at)}}
	})
}

func (w *ssWorld) fail(name string) error {
	return w.setPod(name, func(p *api.Pod) {
		p.Status.Phase = api.PodFailed
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
	})
}

// gone removes a pod object: its graceful deletion finished, the pod GC
// removed it, or it was force deleted.
func (w *ssWorld) gone(name string) error {
	if w.pods[name] == nil {
		return fmt.Errorf("no pod %s", name)
	}
	delete(w.pods, name)
	return nil
}

func (w *ssWorld) setPod(name string, f func(*api.Pod)) error {
	p := w.pods[name]
	if p == nil {
		return fmt.Errorf("no pod %s", name)
	}
	q := *p
	q.Status.Conditions = slices.Clone(p.Status.Conditions)
	f(&q)
	w.pods[name] = &q
	return nil
}

// nginxSet is the docs' StatefulSet "web": nginx behind the headless
// service "nginx", one claim template "www", as the API server stores it.
func nginxSet(replicas int32) *api.StatefulSet {
	grace := int64(10)
	partition := int32(0)
	limit := int32(10)
	mode := api.PersistentVolumeMode("Filesystem")
	return &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-set-web", Generation: 1},
		Spec: api.StatefulSetSpec{
			Replicas:            &replicas,
			Selector:            &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			ServiceName:         "nginx",
			PodManagementPolicy: api.OrderedReadyPodManagement,
			UpdateStrategy: api.StatefulSetUpdateStrategy{Type: api.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &api.RollingUpdateStatefulSetStrategy{Partition: &partition}},
			RevisionHistoryLimit: &limit,
			PersistentVolumeClaimRetentionPolicy: &api.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: api.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: api.RetainPersistentVolumeClaimRetentionPolicyType},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: api.PodSpec{
					Containers: []api.Container{{
						Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.21", ImagePullPolicy: "IfNotPresent",
						Ports:                    []api.ContainerPort{{Name: "web", ContainerPort: 80, Protocol: "TCP"}},
						VolumeMounts:             []api.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}},
						TerminationMessagePath:   "/dev/termination-log",
						TerminationMessagePolicy: "File",
					}},
					RestartPolicy:                 api.RestartPolicyAlways,
					TerminationGracePeriodSeconds: &grace,
					DNSPolicy:                     api.DNSClusterFirst,
					SecurityContext:               &api.PodSecurityContext{},
					SchedulerName:                 api.DefaultSchedulerName,
				},
			},
			VolumeClaimTemplates: []api.PersistentVolumeClaim{{
				ObjectMeta: api.ObjectMeta{Name: "www"},
				Spec: api.PersistentVolumeClaimSpec{
					AccessModes: []api.PersistentVolumeAccessMode{"ReadWriteOnce"},
					Resources:   api.VolumeResourceRequirements{Requests: api.ResourceList{"storage": api.MustParseQuantity("1Gi")}},
					VolumeMode:  &mode,
				},
			}},
		},
	}
}
