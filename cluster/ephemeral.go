package cluster

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The ephemeral volume controller of kube-controller-manager
// (pkg/controller/volume/ephemeral): for each generic ephemeral volume of
// a pod that is not being deleted, it creates the PersistentVolumeClaim
// "<pod>-<volume>" (api.EphemeralVolumeClaimName) from the volume's claim
// template — its labels, annotations and spec — owned by the pod (a
// controller reference that blocks the pod's deletion), through the API
// server's admission as any create. kube-scheduler waits for that claim;
// the garbage collector deletes it with its pod. A claim of that name
// that already exists is left alone (the scheduler refuses the pod when
// the pod does not own it). A refused create is retried at the pod's next
// event, where upstream's workqueue retries it with back-off.

// ephemeralDeliver marks the pods the controller syncs: one added or
// changed that has a generic ephemeral volume.
func (m *Machine) ephemeralDeliver(w watchEvent) {
	p, ok := w.Object.(*api.Pod)
	if !ok || w.Type == watchDeleted || p.DeletionTimestamp != nil || !hasEphemeralVolume(p) {
		return
	}
	if m.ephemeralDirty == nil {
		m.ephemeralDirty = map[string]bool{}
	}
	m.ephemeralDirty[w.Key] = true
}

func hasEphemeralVolume(p *api.Pod) bool {
	for i := range p.Spec.Volumes {
		if v := p.Spec.Volumes[i].Ephemeral; v != nil && v.VolumeClaimTemplate != nil {
			return true
		}
	}
	return false
}

// runEphemeral creates the missing claims of the marked pods.
func (m *Machine) runEphemeral(now time.Time) error {
	if len(m.ephemeralDirty) == 0 {
		return nil
	}
	for _, key := range takeMarked(m.ephemeralDirty) {
		p, _ := m.cache.get("Pod", key).(*api.Pod)
		if p == nil || p.DeletionTimestamp != nil {
			continue
		}
		for i := range p.Spec.Volumes {
			v := &p.Spec.Volumes[i]
			if v.Ephemeral == nil || v.Ephemeral.VolumeClaimTemplate == nil {
				continue
			}
			name := api.EphemeralVolumeClaimName(p, v)
			if m.store.get("PersistentVolumeClaim", p.Namespace+"/"+name) != nil {
				continue
			}
			claim, err := ephemeralClaim(p, name, v.Ephemeral.VolumeClaimTemplate)
			if err != nil {
				m.rec.scenario(now, "Warning", "SyncFailed", objRef("Pod", p.Namespace, p.Name), err.Error())
				continue
			}
			if _, err := m.store.create(claim, now); err != nil {
				m.rec.scenario(now, "Warning", "FailedCreate", objRef("Pod", p.Namespace, p.Name), fmt.Sprintf("create PVC %s: %v", name, err))
			}
		}
	}
	return nil
}

// ephemeralClaim is the claim the controller creates for pod's volume
// from template t.
func ephemeralClaim(pod *api.Pod, name string, t *api.PersistentVolumeClaimTemplate) (*api.PersistentVolumeClaim, error) {
	var spec api.PersistentVolumeClaimSpec
	if len(t.Spec) > 0 {
		raw, err := json.Marshal(t.Spec)
		if err == nil {
			err = json.Unmarshal(raw, &spec)
		}
		if err != nil {
			return nil, fmt.Errorf("ephemeral volume claim template of pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
	}
	owner := workloads.NewControllerRef(&pod.ObjectMeta, "v1", "Pod")
	return &api.PersistentVolumeClaim{
		TypeMeta: api.TypeMeta{Kind: "PersistentVolumeClaim", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: pod.Namespace, Labels: t.Labels, Annotations: t.Annotations,
			OwnerReferences: []api.OwnerReference{owner}},
		Spec: spec,
	}, nil
}
