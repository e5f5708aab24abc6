package cluster

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/volume"
)

// defaultStorage is the API server's defaulting of the storage kinds on
// create (claims and volumes Pending, a class's reclaim policy and binding
// mode, a CSIDriver's fields).
func defaultStorage(o api.Object) {
	switch x := o.(type) {
	case *api.PersistentVolumeClaim:
		api.DefaultPersistentVolumeClaim(x)
	case *api.PersistentVolume:
		api.DefaultPersistentVolume(x)
	case *api.StorageClass:
		api.DefaultStorageClass(x)
	case *api.CSIDriver:
		api.DefaultCSIDriver(x)
	}
}

// storageSummary is the harness's watch summary of a claim (phase,
// volume, selectedNode, deleting), a volume (phase, claim) and a
// VolumeAttachment (node, pv, attached, deleting).
func storageSummary(o api.Object) (string, summary) {
	var m summary
	switch o := o.(type) {
	case *api.PersistentVolumeClaim:
		m.set(fieldPhase, string(o.Status.Phase))
		m.set(fieldVolume, o.Spec.VolumeName)
		if s := o.Annotations[api.AnnSelectedNode]; s != "" {
			m.set(fieldSelectedNode, s)
		}
		if o.DeletionTimestamp != nil {
			m.set(fieldDeleting, "true")
		}
		return "PersistentVolumeClaim", m
	case *api.PersistentVolume:
		m.set(fieldPhase, string(o.Status.Phase))
		if o.Spec.ClaimRef != nil {
			m.set(fieldClaim, o.Spec.ClaimRef.Namespace+"/"+o.Spec.ClaimRef.Name)
		}
		return "PersistentVolume", m
	case *api.VolumeAttachment:
		m.set(fieldNode, o.Spec.NodeName)
		m.set(fieldPV, o.PersistentVolumeName())
		m.set(fieldAttached, strconv.FormatBool(o.Status.Attached))
		if o.DeletionTimestamp != nil {
			m.set(fieldDeleting, "true")
		}
		return "VolumeAttachment", m
	}
	return "", m
}

// runVolumeModel is the e2e harness's stand-in for a CSI driver's
// external-provisioner and external-attacher (its volumes.go), for the
// drivers csiDrivers names:
//
//   - provision: a Pending claim without a volume, handed to the driver
//     (the storage-provisioner annotation) and, for a WaitForFirstConsumer
//     class, carrying the scheduler's selected-node annotation, gets after
//     ProvisionDelay the PersistentVolume pvc-<claim uid>: a CSI source
//     (the driver, volumeHandle its name, fsType ext4), the claim's
//     request as capacity, its access modes and volume mode, the class's
//     reclaim policy (Delete by default), claimRef to the claim, the
//     provisioned-by annotation, and the required node affinity
//     topology.kubernetes.io/zone In [the selected node's zone] (its
//     hostname label when it has no zone); a csi-provisioner-model
//     ProvisioningSucceeded note records it;
//   - reclaim: a Released volume it provisioned with policy Delete is
//     deleted;
//   - attach: a VolumeAttachment of the driver gets status.attached true
//     after AttachDelay.
func (m *Machine) runVolumeModel(now time.Time) error {
	s := &m.storage
	drivers := m.csiDrivers()
	cfg := m.cfg.Storage
	seen := map[string]bool{}
	for _, o := range m.cache.list("PersistentVolumeClaim") {
		c := o.(*api.PersistentVolumeClaim)
		key := c.Namespace + "/" + c.Name
		class, node, ok := m.toProvision(c, drivers)
		if !ok {
			continue
		}
		seen[key] = true
		at, timed := s.provisions[key]
		if !timed {
			at = now.Add(cfg.ProvisionDelay)
			s.provisions[key] = at
		}
		if at.After(now) {
			continue
		}
		delete(s.provisions, key)
		if err := m.provisionVolume(c, class, node, now); err != nil {
			return err
		}
	}
	for k := range s.provisions {
		if !seen[k] {
			delete(s.provisions, k)
		}
	}
	for _, o := range m.cache.list("PersistentVolume") {
		pv := o.(*api.PersistentVolume)
		if pv.Status.Phase != api.VolumeReleased || pv.Spec.PersistentVolumeReclaimPolicy != api.PersistentVolumeReclaimDelete ||
			!slices.Contains(drivers, pv.Annotations[api.AnnDynamicallyProvisioned]) || pv.DeletionTimestamp != nil {
			continue
		}
		if err := m.deleteObject(ObjectRef{Kind: "PersistentVolume", Name: pv.Name}, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	seen = map[string]bool{}
	for _, o := range m.cache.list("VolumeAttachment") {
		va := o.(*api.VolumeAttachment)
		if !slices.Contains(drivers, va.Spec.Attacher) || va.Status.Attached || va.DeletionTimestamp != nil {
			continue
		}
		seen[va.Name] = true
		at, timed := s.attaches[va.Name]
		if !timed {
			at = now.Add(cfg.AttachDelay)
			s.attaches[va.Name] = at
		}
		if at.After(now) {
			continue
		}
		delete(s.attaches, va.Name)
		cur, _ := m.store.get("VolumeAttachment", va.Name).(*api.VolumeAttachment)
		if cur == nil || cur.Status.Attached {
			continue
		}
		n, err := clone(cur)
		if err != nil {
			return err
		}
		n.Status.Attached = true
		if _, err := m.store.update(n); err != nil {
			return err
		}
	}
	for k := range s.attaches {
		if !seen[k] {
			delete(s.attaches, k)
		}
	}
	return nil
}

// toProvision says whether the provisioner model provisions claim c, with
// its class and selected node.
func (m *Machine) toProvision(c *api.PersistentVolumeClaim, drivers []string) (*api.StorageClass, string, bool) {
	if c.Spec.VolumeName != "" || c.DeletionTimestamp != nil || c.Status.Phase != api.ClaimPending {
		return nil, "", false
	}
	prov := c.Annotations[api.AnnStorageProvisioner]
	if prov == "" {
		prov = c.Annotations[api.AnnBetaStorageProvisioner]
	}
	if !slices.Contains(drivers, prov) {
		return nil, "", false
	}
	name := ""
	if c.Spec.StorageClassName != nil {
		name = *c.Spec.StorageClassName
	}
	class, _ := m.cache.get("StorageClass", name).(*api.StorageClass)
	if class == nil {
		return nil, "", false
	}
	node := c.Annotations[api.AnnSelectedNode]
	if class.BindingMode() == api.VolumeBindingWaitForFirstConsumer && node == "" {
		return nil, "", false
	}
	return class, node, true
}

// provisionVolume creates the claim's PersistentVolume as the harness's
// provisioner model does.
func (m *Machine) provisionVolume(c *api.PersistentVolumeClaim, class *api.StorageClass, node string, now time.Time) error {
	name := "pvc-" + c.UID
	prov := c.Annotations[api.AnnStorageProvisioner]
	if prov == "" {
		prov = c.Annotations[api.AnnBetaStorageProvisioner]
	}
	reclaim := api.PersistentVolumeReclaimDelete
	if class.ReclaimPolicy != nil {
		reclaim = *class.ReclaimPolicy
	}
	pv := &api.PersistentVolume{
		TypeMeta:   api.TypeMeta{Kind: "PersistentVolume", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: name, Annotations: map[string]string{api.AnnDynamicallyProvisioned: prov}},
		Spec: api.PersistentVolumeSpec{
			Capacity:                      api.ResourceList{api.ResourceStorage: c.Spec.Resources.Requests[api.ResourceStorage]},
			AccessModes:                   slices.Clone(c.Spec.AccessModes),
			PersistentVolumeReclaimPolicy: reclaim,
			StorageClassName:              class.Name,
			VolumeMode:                    c.Spec.VolumeMode,
			ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID},
			PersistentVolumeSource:        api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: prov, VolumeHandle: name, FSType: "ext4"}},
		},
	}
	if n, _ := m.cache.get("Node", node).(*api.Node); n != nil {
		key, val := api.LabelTopologyZone, n.Labels[api.LabelTopologyZone]
		if val == "" {
			key, val = api.LabelHostname, n.Labels[api.LabelHostname]
		}
		if val != "" {
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: api.NodeSelectorOpIn, Values: []string{val}}}}}}}
		}
	}
	if _, err := m.store.create(pv, now); err != nil {
		if errors.Is(err, errAlreadyExists) {
			return nil
		}
		return err
	}
	m.rec.note(now, componentProvisionerModel, api.EventTypeNormal, "ProvisioningSucceeded", objRef("PersistentVolumeClaim", c.Namespace, c.Name),
		"model provisioner created "+name+" on node "+node)
	return nil
}

// runBinder runs the PersistentVolume controller on its dirty keys (or
// its resync) and carries out its writes; a write whose object changed
// in the meantime is a conflict: skipped, the key synced again.
func (m *Machine) runBinder(now time.Time) error {
	s := &m.storage
	due := !s.pvc.NextDeadline().After(now) || s.pvc.NextDeadline().IsZero()
	if len(s.claims) == 0 && len(s.volumes) == 0 && !due {
		return nil
	}
	in := volume.BinderInput{Objects: m.storageObjects(), Claims: slices.Sorted(maps.Keys(s.claims)), Volumes: slices.Sorted(maps.Keys(s.volumes))}
	clear(s.claims)
	clear(s.volumes)
	out, err := stepMachine(m, "persistentvolume-controller", "", s.pvc, in, now)
	if err != nil {
		return fmt.Errorf("cluster: persistentvolume-controller: %w", err)
	}
	for _, sync := range out.Syncs {
		for _, w := range sync.Writes {
			var o api.Object = w.Volume
			kind := "PersistentVolume"
			if w.Claim != nil {
				o, kind = w.Claim, "PersistentVolumeClaim"
			}
			_, meta := objectMeta(o)
			cur := m.store.get(kind, objectKey(meta))
			if cur == nil {
				break
			}
			if _, cm := objectMeta(cur); cm.ResourceVersion != meta.ResourceVersion && meta.ResourceVersion != "" {
				// A conflict: the next sync sees the stored object.
				if w.Claim != nil {
					s.claims[objectKey(meta)] = true
				} else {
					s.volumes[meta.Name] = true
				}
				break
			}
			n, err := clone(o)
			if err != nil {
				return err
			}
			if _, err := m.store.update(n); err != nil {
				return err
			}
		}
		for i := range sync.Events {
			m.rec.event(now, &sync.Events[i])
		}
	}
	return nil
}

// storageObjects are the PersistentVolume controller's informers'
// objects: the cache's claims, volumes, classes and pods.
func (m *Machine) storageObjects() volume.Objects {
	var objs volume.Objects
	for _, o := range m.cache.list("PersistentVolumeClaim") {
		objs.Claims = append(objs.Claims, o.(*api.PersistentVolumeClaim))
	}
	for _, o := range m.cache.list("PersistentVolume") {
		objs.Volumes = append(objs.Volumes, o.(*api.PersistentVolume))
	}
	for _, o := range m.cache.list("StorageClass") {
		objs.Classes = append(objs.Classes, o.(*api.StorageClass))
	}
	objs.Pods = m.cache.pods()
	return objs
}

// runAttachDetach runs the attach-detach controller's reconciler when
// something it watches changed or a forced detach may be due, creating
// and deleting the VolumeAttachments it asks for.
func (m *Machine) runAttachDetach(now time.Time) error {
	s := &m.storage
	d := s.adc.NextDeadline()
	if !s.adcDirty && (d.IsZero() || d.After(now)) {
		return nil
	}
	s.adcDirty = false
	w := volume.World{Pods: m.cache.pods()}
	for _, o := range m.cache.list("Node") {
		w.Nodes = append(w.Nodes, o.(*api.Node))
	}
	objs := m.storageObjects()
	w.Claims, w.Volumes = objs.Claims, objs.Volumes
	for _, o := range m.cache.list("CSIDriver") {
		w.Drivers = append(w.Drivers, o.(*api.CSIDriver))
	}
	for _, o := range m.cache.list("VolumeAttachment") {
		w.Attachments = append(w.Attachments, o.(*api.VolumeAttachment))
	}
	out, err := stepMachine(m, "attachdetach-controller", "", s.adc, w, now)
	if err != nil {
		return fmt.Errorf("cluster: attachdetach-controller: %w", err)
	}
	for _, det := range out.Detach {
		if err := m.store.remove("VolumeAttachment", det.Name); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	for _, va := range out.Attach {
		if _, err := m.store.create(va, now); err != nil && !errors.Is(err, errAlreadyExists) {
			return err
		}
	}
	for i := range out.Events {
		m.rec.event(now, &out.Events[i])
	}
	for _, r := range out.Reported {
		n, _ := m.store.get("Node", r.Node).(*api.Node)
		if n == nil {
			continue // a deleted node: the patch finds nothing
		}
		attached := r.Attached
		if err := m.writeStatus("Node", r.Node, n.UID, func(o api.Object) { o.(*api.Node).Status.VolumesAttached = attached }); err != nil {
			return err
		}
	}
	return nil
}

// preBind is VolumeBinding's PreBind for a's pod (bindAPIUpdate): each
// static binding's volume gets its claimRef and the bound-by-controller
// annotation, each claim to provision the selected-node annotation; the
// binding then waits (runPendingBindings). It reports whether the
// binding waits (false: nothing to wait for, bind now).
func (m *Machine) preBind(a scheduling.Action, now time.Time) bool {
	v := a.Volumes
	if len(v.Claims) > 0 {
		// NominatedNodeNameForExpectation (on by default since v1.35):
		// VolumeBinding's PreBindPreFlight says PreBind has work, so the
		// binding cycle first nominates the pod to its node.
		// (A failed write, as upstream's, does not stop the binding.)
		_ = m.patchPodStatus(a.Pod.Key(), a.Pod.UID, now, func(s *api.PodStatus) { s.NominatedNodeName = a.Node })
	}
	for _, b := range v.Bind {
		cur, _ := m.store.get("PersistentVolume", b.Volume.Name).(*api.PersistentVolume)
		if cur == nil || cur.IsBoundToClaim(b.Claim) {
			continue
		}
		n, err := clone(cur)
		if err != nil {
			continue
		}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		n.Annotations[api.AnnBoundByController] = "yes"
		n.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: b.Claim.Namespace, Name: b.Claim.Name,
			UID: b.Claim.UID, ResourceVersion: b.Claim.ResourceVersion}
		_, _ = m.store.update(n)
	}
	for _, c := range v.Provision {
		cur, _ := m.store.get("PersistentVolumeClaim", c.Namespace+"/"+c.Name).(*api.PersistentVolumeClaim)
		if cur == nil || cur.Annotations[api.AnnSelectedNode] == a.Node {
			continue
		}
		n, err := clone(cur)
		if err != nil {
			continue
		}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		n.Annotations[api.AnnSelectedNode] = a.Node
		_, _ = m.store.update(n)
	}
	if len(v.Claims) == 0 {
		return false
	}
	pb := &pendingBinding{action: a, deadline: now.Add(bindTimeout), nextPoll: now.Add(bindPollInterval)}
	for _, c := range v.Claims {
		pb.claims = append(pb.claims, c.Namespace+"/"+c.Name)
	}
	m.storage.activate()
	m.storage.bindings = append(m.storage.bindings, pb)
	return true
}

// preBindTimeoutMessage is the error VolumeBinding's PreBind gives up with
// after bindTimeout, as the binding cycle reports it.
const preBindTimeoutMessage = `running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded`

// claimsBound reports whether every claim b waits for is bound as
// kube-scheduler's informers see it (checkBindings: bind-completed and a
// volume name).
func (m *Machine) claimsBound(b *pendingBinding) bool {
	for _, k := range b.claims {
		c, _ := m.cache.get("PersistentVolumeClaim", k).(*api.PersistentVolumeClaim)
		if c == nil || c.Spec.VolumeName == "" || c.Annotations[api.AnnBindCompleted] == "" {
			return false
		}
	}
	return true
}

// runPendingBindings completes each binding whose claims a PreBind poll
// (pendingBinding.nextPoll) finds all bound (claimsBound): the
// pods/binding call and the Scheduled event. One that waited bindTimeout
// fails: kube-scheduler's binding cycle fails (scheduling.BindFailed),
// which forgets the assumed pod, records FailedScheduling with the
// PreBind error and backs the pod off to be tried again.
func (m *Machine) runPendingBindings(now time.Time) error {
	s := &m.storage
	kept := s.bindings[:0]
	for _, b := range s.bindings {
		polled := !b.nextPoll.After(now)
		if polled {
			// The polls fall on a grid from the PreBind's start; the
			// next one is the first grid instant after now.
			for !b.nextPoll.After(now) {
				b.nextPoll = b.nextPoll.Add(bindPollInterval)
			}
		}
		bound := polled && m.claimsBound(b)
		a := b.action
		switch {
		case bound:
			if err := m.bind(a.Pod.Key(), a.Pod.UID, a.Node, now); err != nil {
				m.rec.scenario(now, "Warning", "BindFailed", objRef("Pod", a.Pod.Namespace, a.Pod.Name), err.Error())
				continue
			}
			m.rec.event(now, a.Event)
		case !b.deadline.After(now):
			cur, _ := m.cache.get("Pod", a.Pod.Key()).(*api.Pod)
			if cur == nil || cur.UID != a.Pod.UID {
				continue // gone: the scheduler's informer no longer holds it
			}
			in := scheduling.BindFailed(cur, preBindTimeoutMessage)
			res, err := stepMachine(m, "kube-scheduler", "", m.sched, in, now)
			if err != nil {
				return fmt.Errorf("cluster: kube-scheduler: %s: %w", in, err)
			}
			if err := m.schedulerActions(res.Actions, now); err != nil {
				return err
			}
		default:
			kept = append(kept, b)
		}
	}
	s.bindings = kept
	return nil
}

// reportVolumesInUse is the kubelets' volumesInUse report when
// StorageConfig.ReportVolumesInUse is on: each kubelet that is not
// silent writes, in its node's status, the unique names of the
// attachable volumes its pods that have not terminated use, sorted, when
// they change.
func (m *Machine) reportVolumesInUse() error {
	if !m.cfg.Storage.ReportVolumesInUse {
		return nil
	}
	w := volume.World{Pods: m.cache.pods()}
	objs := m.storageObjects()
	w.Claims, w.Volumes = objs.Claims, objs.Volumes
	for _, o := range m.cache.list("CSIDriver") {
		w.Drivers = append(w.Drivers, o.(*api.CSIDriver))
	}
	all := map[string]bool{}
	for n := range m.kubelets {
		all[n] = true
	}
	inUse := map[string][]string{}
	for _, d := range volume.DesiredState(w, all) {
		inUse[d.Node] = append(inUse[d.Node], d.Volume)
	}
	for _, name := range slices.Sorted(maps.Keys(m.kubelets)) {
		if m.kubelets[name].silent {
			continue
		}
		old, _ := m.store.get("Node", name).(*api.Node)
		if old == nil || slices.Equal(old.Status.VolumesInUse, inUse[name]) {
			continue
		}
		n, err := clone(old)
		if err != nil {
			return err
		}
		n.Status.VolumesInUse = inUse[name]
		if _, err := m.store.update(n); err != nil {
			return err
		}
	}
	return nil
}
