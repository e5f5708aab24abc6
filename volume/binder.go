package volume

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// BinderName is the component the PersistentVolume controller records its
// events under (kube-controller-manager's persistentvolume-binder
// controller).
const BinderName = "persistentvolume-controller"

// The PersistentVolume controller's event reasons
// (pkg/controller/volume/events).
const (
	ReasonWaitForFirstConsumer = "WaitForFirstConsumer"
	ReasonWaitForPodScheduled  = "WaitForPodScheduled"
	ReasonExternalProvisioning = "ExternalProvisioning"
	ReasonProvisioningFailed   = "ProvisioningFailed"
	ReasonFailedBinding        = "FailedBinding"
	ReasonVolumeMismatch       = "VolumeMismatch"
	ReasonClaimLost            = "ClaimLost"
	ReasonClaimMisbound        = "ClaimMisbound"
	ReasonVolumeFailedRecycle  = "VolumeFailedRecycle"
	ReasonVolumeUnknownReclaim = "VolumeUnknownReclaimPolicy"
)

// Objects are the objects the PersistentVolume controller's informers
// hold: claims, volumes, StorageClasses, and the pods (which it reads to
// name the pods a WaitForFirstConsumer claim waits for).
type Objects struct {
	Claims  []*api.PersistentVolumeClaim
	Volumes []*api.PersistentVolume
	Classes []*api.StorageClass
	Pods    []*api.Pod
}

// Write is one API write of the controller: a claim or a volume as it is
// to be stored, through the status subresource when Status is set.
type Write struct {
	Claim  *api.PersistentVolumeClaim
	Volume *api.PersistentVolume
	Status bool
}

// String renders the write, e.g. "UpdateStatus(PersistentVolume/pvc-1)".
func (w Write) String() string {
	verb := "Update"
	if w.Status {
		verb = "UpdateStatus"
	}
	if w.Claim != nil {
		return verb + "(PersistentVolumeClaim/" + w.Claim.Namespace + "/" + w.Claim.Name + ")"
	}
	if w.Volume != nil {
		return verb + "(PersistentVolume/" + w.Volume.Name + ")"
	}
	return verb + "()"
}

// Sync is what one sync of a claim or a volume decided: the writes in
// order (each builds on the previous one's result), the events, and the
// claims a volume sync hands to the claim worker (namespace/name).
type Sync struct {
	Writes     []Write
	Events     []api.Event
	SyncClaims []string
}

// binder is one sync's working state: the objects, indexed, and what it
// has written so far.
type binder struct {
	objs Objects
	now  time.Time
	out  Sync
}

func claimKey(c *api.PersistentVolumeClaim) string { return c.Namespace + "/" + c.Name }

// SyncClaim is the PersistentVolume controller's syncClaim
// (pkg/controller/volume/persistentvolume/pv_controller.go) for claim
// against objs at now.
//
// A claim without the bind-completed annotation is unbound. Without a
// volumeName, the controller looks for the best volume (the volume
// pre-bound to the claim, else — unless the class binds
// WaitForFirstConsumer — the smallest Available, unclaimed volume of the
// claim's class, volume mode and access modes that the claim's selector
// selects and that is big enough) and binds it: the volume's claimRef and
// bound-by-controller annotation, its phase Bound, the claim's volumeName,
// bound-by-controller and bind-completed annotations, its phase Bound with
// the volume's access modes and capacity — four writes. Without a volume,
// a WaitForFirstConsumer claim that the scheduler has not given a
// selected-node annotation waits (Normal WaitForFirstConsumer "waiting
// for first consumer to be created before binding", or
// WaitForPodScheduled naming the unscheduled pods that use it); a claim
// of a class is handed to the class's external provisioner (the
// storage-provisioner annotations, Normal ExternalProvisioning "Waiting
// for a volume to be created either by the external provisioner '...' or
// manually by the system administrator. ..."); a claim without a class
// gets FailedBinding. A claim naming its volume is bound to it when the
// volume is free or already points at it. A bound claim whose volume is
// gone or bound elsewhere is Lost (ClaimLost, ClaimMisbound).
//
// A claim that asks for no class at all (api.PersistentVolumeClaim.HasClass
// false) and finds no volume is first given the default StorageClass
// (api.DefaultStorageClassOf), one update and nothing else: the
// retroactive assignment for claims created before a default class
// existed; the next sync provisions it.
//
// Not modelled: in-tree
// provisioners (a kubernetes.io/ provisioner fails with
// ProvisioningFailed), CSI migration, volume expansion fields. A nil claim
// is bad input.
func SyncClaim(claim *api.PersistentVolumeClaim, objs Objects, now time.Time) (Sync, error) {
	if claim == nil {
		return Sync{}, fmt.Errorf("volume: %w: claim: nil", api.ErrInvalidInput)
	}
	b := &binder{objs: objs, now: now}
	var err error
	if _, done := claim.Annotations[api.AnnBindCompleted]; done {
		err = b.syncBoundClaim(claim)
	} else {
		err = b.syncUnboundClaim(claim)
	}
	return b.out, err
}

func (b *binder) class(name string) *api.StorageClass {
	for _, c := range b.objs.Classes {
		if c != nil && c.Name == name {
			return c
		}
	}
	return nil
}

func (b *binder) volume(name string) *api.PersistentVolume {
	for _, v := range b.objs.Volumes {
		if v != nil && v.Name == name {
			return v
		}
	}
	return nil
}

// delayBinding is IsDelayBindingMode: the claim's class exists and binds
// WaitForFirstConsumer (a class without volumeBindingMode is an error).
func (b *binder) delayBinding(claim *api.PersistentVolumeClaim) (bool, error) {
	name := claim.ClassName()
	if name == "" {
		return false, nil
	}
	c := b.class(name)
	if c == nil {
		return false, nil
	}
	if c.VolumeBindingMode == nil {
		return false, fmt.Errorf("VolumeBindingMode not set for StorageClass %q", name)
	}
	return *c.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer, nil
}

func (b *binder) syncUnboundClaim(claim *api.PersistentVolumeClaim) error {
	if claim.Spec.VolumeName == "" {
		delay, err := b.delayBinding(claim)
		if err != nil {
			return err
		}
		vol, err := b.findBestMatch(claim, delay)
		if err != nil {
			return fmt.Errorf("error finding PV for claim %q: %w", claimKey(claim), err)
		}
		if vol != nil {
			return b.bind(vol, claim)
		}
		if b.assignDefaultClass(claim) {
			return nil // the update's informer event syncs the claim again
		}
		_, selected := claim.Annotations[api.AnnSelectedNode]
		switch {
		case delay && !selected:
			b.waitingEvent(claim)
		case claim.ClassName() != "":
			b.provision(claim)
			return nil
		default:
			b.event(claimRef(claim), api.EventTypeNormal, ReasonFailedBinding, "no persistent volumes available for this claim and no storage class is set")
		}
		b.updateClaimStatus(claim, api.ClaimPending, nil)
		return nil
	}
	vol := b.volume(claim.Spec.VolumeName)
	switch {
	case vol == nil:
		b.updateClaimStatus(claim, api.ClaimPending, nil)
	case vol.Spec.ClaimRef == nil:
		if msg := volumeSatisfiesClaim(vol, claim); msg != "" {
			b.event(claimRef(claim), api.EventTypeWarning, ReasonVolumeMismatch, fmt.Sprintf("Cannot bind to requested volume %q: %s", vol.Name, msg))
			b.updateClaimStatus(claim, api.ClaimPending, nil)
			return nil
		}
		return b.bind(vol, claim)
	case vol.IsBoundToClaim(claim):
		return b.bind(vol, claim)
	default:
		b.event(claimRef(claim), api.EventTypeWarning, ReasonFailedBinding, fmt.Sprintf("volume %q already bound to a different claim.", vol.Name))
		if _, ok := claim.Annotations[api.AnnBoundByController]; ok {
			return fmt.Errorf("invalid binding of claim %q to volume %q: volume already claimed by %q", claimKey(claim), claim.Spec.VolumeName, vol.Spec.ClaimRef.Namespace+"/"+vol.Spec.ClaimRef.Name)
		}
		b.updateClaimStatus(claim, api.ClaimPending, nil)
	}
	return nil
}

func (b *binder) syncBoundClaim(claim *api.PersistentVolumeClaim) error {
	if claim.Spec.VolumeName == "" {
		b.claimPhaseWithEvent(claim, api.ClaimLost, ReasonClaimLost, "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!")
		return nil
	}
	vol := b.volume(claim.Spec.VolumeName)
	switch {
	case vol == nil:
		b.claimPhaseWithEvent(claim, api.ClaimLost, ReasonClaimLost, "Bound claim has lost its PersistentVolume. Data on the volume is lost!")
	case vol.Spec.ClaimRef == nil || vol.Spec.ClaimRef.UID == claim.UID:
		return b.bind(vol, claim)
	default:
		b.claimPhaseWithEvent(claim, api.ClaimLost, ReasonClaimMisbound, "Two claims are bound to the same volume, this one is bound incorrectly")
	}
	return nil
}

// assignDefaultClass is the controller's retroactive default class
// assignment (assignDefaultStorageClass, always on in v1.36.3: the
// RetroactiveDefaultStorageClass feature gate graduated and is gone):
// an unbound claim that asks for no class at all and found no volume gets
// the default StorageClass in spec.storageClassName, in one update and
// without an event. It reports whether it wrote.
func (b *binder) assignDefaultClass(claim *api.PersistentVolumeClaim) bool {
	if claim.HasClass() {
		return false
	}
	def := api.DefaultStorageClassOf(b.objs.Classes)
	if def == nil {
		return false
	}
	n := copyClaim(claim)
	name := def.Name
	n.Spec.StorageClassName = &name
	b.out.Writes = append(b.out.Writes, Write{Claim: n})
	return true
}

// waitingEvent is emitEventForUnboundDelayBindingClaim.
func (b *binder) waitingEvent(claim *api.PersistentVolumeClaim) {
	var names []string
	for _, p := range b.objs.Pods {
		if p == nil || p.Namespace != claim.Namespace || p.Spec.NodeName != "" || PodTerminated(p) || !usesClaim(p, claim.Name) {
			continue
		}
		names = append(names, p.Name)
	}
	slices.Sort(names)
	reason, msg := ReasonWaitForFirstConsumer, "waiting for first consumer to be created before binding"
	switch len(names) {
	case 0:
	case 1:
		reason, msg = ReasonWaitForPodScheduled, "waiting for pod "+names[0]+" to be scheduled"
	default:
		reason, msg = ReasonWaitForPodScheduled, "waiting for pods "+strings.Join(names, ",")+" to be scheduled"
	}
	b.event(claimRef(claim), api.EventTypeNormal, reason, msg)
}

// usesClaim reports whether pod has a volume of the claim named name.
func usesClaim(pod *api.Pod, name string) bool {
	for i := range pod.Spec.Volumes {
		if n, _, ok := api.PodVolumeClaimName(pod, &pod.Spec.Volumes[i]); ok && n == name {
			return true
		}
	}
	return false
}

// provision is provisionClaim for an external provisioner
// (provisionClaimOperationExternal): the storage-provisioner annotations
// and the ExternalProvisioning event; an in-tree (kubernetes.io/)
// provisioner or a missing class is a ProvisioningFailed event.
func (b *binder) provision(claim *api.PersistentVolumeClaim) {
	name := claim.ClassName()
	c := b.class(name)
	if c == nil {
		b.event(claimRef(claim), api.EventTypeWarning, ReasonProvisioningFailed, fmt.Sprintf("storageclass.storage.k8s.io %q not found", name))
		return
	}
	if strings.HasPrefix(c.Provisioner, "kubernetes.io/") {
		b.event(claimRef(claim), api.EventTypeWarning, ReasonProvisioningFailed, "no volume plugin matched name: "+c.Provisioner)
		return
	}
	if claim.Annotations[api.AnnStorageProvisioner] != c.Provisioner || claim.Annotations[api.AnnBetaStorageProvisioner] != c.Provisioner {
		n := copyClaim(claim)
		n.Annotations[api.AnnStorageProvisioner] = c.Provisioner
		n.Annotations[api.AnnBetaStorageProvisioner] = c.Provisioner
		b.out.Writes = append(b.out.Writes, Write{Claim: n})
		claim = n
	}
	b.event(claimRef(claim), api.EventTypeNormal, ReasonExternalProvisioning, "Waiting for a volume to be created either by the external provisioner '"+c.Provisioner+
		"' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.")
}

// findBestMatch is the controller's findBestMatchForClaim: its volume
// index groups the volumes by their set of access modes, and the sets
// that hold every mode the claim asks for are searched fewest modes first
// (equal sizes in the canonical order RWO, ROX, RWX, RWOP: upstream leaves
// that tie to its index), each with component-helpers'
// FindMatchingVolume without a node: the volume pre-bound to the claim
// wins; with delayed binding nothing else does; otherwise the smallest
// Available volume of the claim's class its selector selects.
func (b *binder) findBestMatch(claim *api.PersistentVolumeClaim, delay bool) (*api.PersistentVolume, error) {
	var selector api.Selector
	if claim.Spec.Selector != nil {
		s, err := api.LabelSelectorAsSelector(claim.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("error creating internal label selector for claim: %s: %w", claimKey(claim), err)
		}
		selector = s
	}
	bySet := map[string][]*api.PersistentVolume{}
	var sets []string
	for _, v := range b.objs.Volumes {
		if v == nil {
			continue
		}
		k := accessModesKey(v.Spec.AccessModes)
		if _, ok := bySet[k]; !ok {
			sets = append(sets, k)
		}
		bySet[k] = append(bySet[k], v)
	}
	var candidates []string
	for _, k := range sets {
		if bySet[k][0].HasAccessModes(claim.Spec.AccessModes) {
			candidates = append(candidates, k)
		}
	}
	slices.SortFunc(candidates, func(x, y string) int {
		if nx, ny := len(bySet[x][0].Spec.AccessModes), len(bySet[y][0].Spec.AccessModes); nx != ny {
			return nx - ny
		}
		return strings.Compare(x, y)
	})
	for _, k := range candidates {
		if v := findMatchingVolume(claim, bySet[k], selector, delay); v != nil {
			return v, nil
		}
	}
	return nil, nil
}

// accessModesKey is the index key of a set of access modes: the modes it
// holds in the order ReadWriteOnce, ReadOnlyMany, ReadWriteMany,
// ReadWriteOncePod (v1helper.GetAccessModesAsString's order), each once.
func accessModesKey(modes []api.PersistentVolumeAccessMode) string {
	var parts []string
	for i, m := range []api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOncePod} {
		if api.ContainsAccessMode(modes, m) {
			parts = append(parts, string(rune('0'+i)))
		}
	}
	return strings.Join(parts, ",")
}

// findMatchingVolume is component-helpers' FindMatchingVolume on the
// controller's path (no node), over one access-mode set of the index.
func findMatchingVolume(claim *api.PersistentVolumeClaim, volumes []*api.PersistentVolume, selector api.Selector, delay bool) *api.PersistentVolume {
	requested := claim.Spec.Resources.Requests[api.ResourceStorage]
	class := claim.ClassName()
	var best *api.PersistentVolume
	var bestQty api.Quantity
	for _, v := range volumes {
		if v.Spec.ClaimRef != nil && !v.IsBoundToClaim(claim) {
			continue
		}
		qty := v.Spec.Capacity[api.ResourceStorage]
		if qty.Cmp(requested) < 0 {
			continue
		}
		if api.EffectiveVolumeMode(claim.Spec.VolumeMode) != api.EffectiveVolumeMode(v.Spec.VolumeMode) {
			continue
		}
		if deref(claim.Spec.VolumeAttributesClassName) != deref(v.Spec.VolumeAttributesClassName) || v.DeletionTimestamp != nil {
			continue
		}
		if v.IsBoundToClaim(claim) {
			return v
		}
		if delay || v.Status.Phase != api.VolumeAvailable {
			continue
		}
		if selector != nil && !selector.Matches(api.Set(v.Labels)) {
			continue
		}
		if v.ClassName() != class {
			continue
		}
		if best == nil || bestQty.Cmp(qty) > 0 {
			best, bestQty = v, qty
		}
	}
	return best
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// volumeSatisfiesClaim is checkVolumeSatisfyClaim: "" when the volume can
// serve the claim, else the reason.
func volumeSatisfiesClaim(v *api.PersistentVolume, claim *api.PersistentVolumeClaim) string {
	requested := claim.Spec.Resources.Requests[api.ResourceStorage]
	qty := v.Spec.Capacity[api.ResourceStorage]
	switch {
	case qty.Cmp(requested) < 0:
		return "requested PV is too small"
	case v.ClassName() != claim.ClassName():
		return "storageClassName does not match"
	case api.EffectiveVolumeMode(claim.Spec.VolumeMode) != api.EffectiveVolumeMode(v.Spec.VolumeMode):
		return "incompatible volumeMode"
	case !v.HasAccessModes(claim.Spec.AccessModes):
		return "incompatible accessMode"
	}
	return ""
}

// bind is the controller's bind: volume to claim, volume phase, claim to
// volume, claim phase, each written only when it changes.
func (b *binder) bind(vol *api.PersistentVolume, claim *api.PersistentVolumeClaim) error {
	if _, ok := vol.Spec.Capacity[api.ResourceStorage]; !ok {
		return fmt.Errorf("PersistentVolume %q is without a storage capacity", vol.Name)
	}
	ref := vol.Spec.ClaimRef
	if ref == nil || ref.Name != claim.Name || ref.Namespace != claim.Namespace || ref.UID != claim.UID {
		n := copyVolume(vol)
		if !vol.IsBoundToClaim(claim) {
			if _, ok := n.Annotations[api.AnnBoundByController]; !ok {
				n.Annotations[api.AnnBoundByController] = "yes"
			}
		}
		n.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace, Name: claim.Name,
			UID: claim.UID, ResourceVersion: claim.ResourceVersion}
		b.out.Writes = append(b.out.Writes, Write{Volume: n})
		vol = n
	}
	vol = b.updateVolumePhase(vol, api.VolumeBound, "")
	_, completed := claim.Annotations[api.AnnBindCompleted]
	if claim.Spec.VolumeName != vol.Name || !completed {
		n := copyClaim(claim)
		if claim.Spec.VolumeName != vol.Name {
			n.Spec.VolumeName = vol.Name
			if _, ok := n.Annotations[api.AnnBoundByController]; !ok {
				n.Annotations[api.AnnBoundByController] = "yes"
			}
		}
		if !completed {
			n.Annotations[api.AnnBindCompleted] = "yes"
		}
		b.out.Writes = append(b.out.Writes, Write{Claim: n})
		claim = n
	}
	b.updateClaimStatus(claim, api.ClaimBound, vol)
	return nil
}

// updateClaimStatus writes the claim's phase, with the bound volume's
// access modes and (when the claim becomes bound) capacity, or none of
// them without a volume; nothing when nothing changes.
func (b *binder) updateClaimStatus(claim *api.PersistentVolumeClaim, phase api.PersistentVolumeClaimPhase, vol *api.PersistentVolume) *api.PersistentVolumeClaim {
	n := copyClaim(claim)
	dirty := false
	if claim.Status.Phase != phase {
		n.Status.Phase, dirty = phase, true
	}
	if vol == nil {
		if claim.Status.AccessModes != nil || claim.Status.Capacity != nil || claim.Status.CurrentVolumeAttributesClassName != nil {
			n.Status.AccessModes, n.Status.Capacity, n.Status.CurrentVolumeAttributesClassName, dirty = nil, nil, nil, true
		}
	} else {
		if !slices.Equal(claim.Status.AccessModes, vol.Spec.AccessModes) {
			n.Status.AccessModes, dirty = slices.Clone(vol.Spec.AccessModes), true
		}
		if claim.Status.Phase != phase {
			volCap := vol.Spec.Capacity[api.ResourceStorage]
			claimCap, ok := claim.Status.Capacity[api.ResourceStorage]
			if !ok || volCap.Cmp(claimCap) != 0 {
				n.Status.Capacity, dirty = api.ResourceList{}, true
				for k, q := range vol.Spec.Capacity {
					n.Status.Capacity[k] = q
				}
			}
		}
		// The VolumeAttributesClass (GA) the claim gets when it becomes
		// bound.
		if claim.Status.Phase == api.ClaimPending && phase == api.ClaimBound &&
			deref(claim.Status.CurrentVolumeAttributesClassName) != deref(vol.Spec.VolumeAttributesClassName) {
			n.Status.CurrentVolumeAttributesClassName, dirty = vol.Spec.VolumeAttributesClassName, true
		}
	}
	if !dirty {
		return claim
	}
	b.out.Writes = append(b.out.Writes, Write{Claim: n, Status: true})
	return n
}

// claimPhaseWithEvent is updateClaimStatusWithEvent: nothing (and no
// event) when the claim is already in phase.
func (b *binder) claimPhaseWithEvent(claim *api.PersistentVolumeClaim, phase api.PersistentVolumeClaimPhase, reason, msg string) {
	if claim.Status.Phase == phase {
		return
	}
	n := b.updateClaimStatus(claim, phase, nil)
	b.event(claimRef(n), api.EventTypeWarning, reason, msg)
}

// updateVolumePhase writes the volume's phase (with its message) when it
// changes; lastPhaseTransitionTime is the API server's to set.
func (b *binder) updateVolumePhase(vol *api.PersistentVolume, phase api.PersistentVolumePhase, msg string) *api.PersistentVolume {
	if vol.Status.Phase == phase {
		return vol
	}
	n := copyVolume(vol)
	n.Status.Phase, n.Status.Message = phase, msg
	b.out.Writes = append(b.out.Writes, Write{Volume: n, Status: true})
	return n
}

func (b *binder) event(ref api.ObjectReference, typ, reason, msg string) {
	b.out.Events = append(b.out.Events, api.Event{Type: typ, Reason: reason, Note: msg, Regarding: ref, Source: BinderName})
}

func claimRef(c *api.PersistentVolumeClaim) api.ObjectReference {
	return api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: c.Namespace, Name: c.Name, UID: c.UID, ResourceVersion: c.ResourceVersion}
}

func volumeRef(v *api.PersistentVolume) api.ObjectReference {
	return api.ObjectReference{Kind: "PersistentVolume", APIVersion: "v1", Name: v.Name, UID: v.UID, ResourceVersion: v.ResourceVersion}
}

// SyncVolume is the PersistentVolume controller's syncVolume for vol
// against objs at now: a volume without claimRef (or pre-bound by name
// only) is Available; one whose claim is gone (or replaced: another UID)
// is Released and reclaimed by its policy — Retain keeps it, Delete is
// left to the external provisioner that created it (a volume that none
// created becomes Failed, as no in-tree deleter is modelled), Recycle
// fails ("No recycler plugin found for the volume!"); one whose claim
// points back at it is Bound; one whose claim is still unbound queues
// that claim for a sync; one whose claim is bound elsewhere is released
// (dynamically provisioned with policy Delete) or unbound. A nil volume
// is bad input.
func SyncVolume(vol *api.PersistentVolume, objs Objects, now time.Time) (Sync, error) {
	if vol == nil {
		return Sync{}, fmt.Errorf("volume: %w: volume: nil", api.ErrInvalidInput)
	}
	b := &binder{objs: objs, now: now}
	ref := vol.Spec.ClaimRef
	if ref == nil || ref.UID == "" {
		b.updateVolumePhase(vol, api.VolumeAvailable, "")
		return b.out, nil
	}
	var claim *api.PersistentVolumeClaim
	for _, c := range objs.Claims {
		if c != nil && c.Namespace == ref.Namespace && c.Name == ref.Name && c.UID == ref.UID {
			claim = c
		}
	}
	switch {
	case claim == nil:
		b.release(vol)
	case claim.Spec.VolumeName == "":
		if api.EffectiveVolumeMode(claim.Spec.VolumeMode) != api.EffectiveVolumeMode(vol.Spec.VolumeMode) {
			b.event(volumeRef(vol), api.EventTypeWarning, ReasonVolumeMismatch, fmt.Sprintf("Cannot bind PersistentVolume to requested PersistentVolumeClaim %q due to incompatible volumeMode.", claim.Name))
			b.event(claimRef(claim), api.EventTypeWarning, ReasonVolumeMismatch, fmt.Sprintf("Cannot bind PersistentVolume %q to requested PersistentVolumeClaim due to incompatible volumeMode.", vol.Name))
			return b.out, nil
		}
		b.out.SyncClaims = append(b.out.SyncClaims, claimKey(claim))
	case claim.Spec.VolumeName == vol.Name:
		b.updateVolumePhase(vol, api.VolumeBound, "")
	default:
		if _, dyn := vol.Annotations[api.AnnDynamicallyProvisioned]; dyn && vol.Spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimDelete {
			b.release(vol)
			break
		}
		b.unbind(vol)
	}
	return b.out, nil
}

// release marks the volume Released and reclaims it.
func (b *binder) release(vol *api.PersistentVolume) {
	if vol.Status.Phase != api.VolumeReleased && vol.Status.Phase != api.VolumeFailed {
		vol = b.updateVolumePhase(vol, api.VolumeReleased, "")
	}
	switch vol.Spec.PersistentVolumeReclaimPolicy {
	case api.PersistentVolumeReclaimRetain:
	case api.PersistentVolumeReclaimRecycle:
		b.volumePhaseWithEvent(vol, api.VolumeFailed, ReasonVolumeFailedRecycle, "No recycler plugin found for the volume!")
	case api.PersistentVolumeReclaimDelete:
		if p := vol.Annotations[api.AnnDynamicallyProvisioned]; p != "" && !strings.HasPrefix(p, "kubernetes.io/") {
			return // the external provisioner deletes it
		}
		b.volumePhaseWithEvent(vol, api.VolumeFailed, "VolumeFailedDelete", "error getting deleter volume plugin for volume \""+vol.Name+"\": no deletable volume plugin matched")
	default:
		b.volumePhaseWithEvent(vol, api.VolumeFailed, ReasonVolumeUnknownReclaim, "Volume has unrecognized PersistentVolumeReclaimPolicy")
	}
}

func (b *binder) volumePhaseWithEvent(vol *api.PersistentVolume, phase api.PersistentVolumePhase, reason, msg string) {
	if vol.Status.Phase == phase {
		return
	}
	n := b.updateVolumePhase(vol, phase, msg)
	b.event(volumeRef(n), api.EventTypeWarning, reason, msg)
}

// unbind is unbindVolume: a controller-made binding loses its claimRef
// and annotation, a user's pre-binding only the claim's UID; the volume
// becomes Available.
func (b *binder) unbind(vol *api.PersistentVolume) {
	n := copyVolume(vol)
	if _, ok := vol.Annotations[api.AnnBoundByController]; ok {
		n.Spec.ClaimRef = nil
		delete(n.Annotations, api.AnnBoundByController)
	} else {
		r := *n.Spec.ClaimRef
		r.UID = ""
		n.Spec.ClaimRef = &r
	}
	if len(n.Annotations) == 0 {
		n.Annotations = nil
	}
	b.out.Writes = append(b.out.Writes, Write{Volume: n})
	b.updateVolumePhase(n, api.VolumeAvailable, "")
}

// copyClaim returns a copy of c whose annotations, status access modes
// and capacity may be changed without touching c (non-nil annotations).
func copyClaim(c *api.PersistentVolumeClaim) *api.PersistentVolumeClaim {
	n := *c
	n.Annotations = make(map[string]string, len(c.Annotations)+2)
	for k, v := range c.Annotations {
		n.Annotations[k] = v
	}
	n.Status.AccessModes = slices.Clone(c.Status.AccessModes)
	if c.Status.Capacity != nil {
		n.Status.Capacity = api.ResourceList{}
		for k, v := range c.Status.Capacity {
			n.Status.Capacity[k] = v
		}
	}
	return &n
}

// copyVolume returns a copy of v whose annotations, claimRef and status
// may be changed without touching v (non-nil annotations).
func copyVolume(v *api.PersistentVolume) *api.PersistentVolume {
	n := *v
	n.Annotations = make(map[string]string, len(v.Annotations)+1)
	for k, val := range v.Annotations {
		n.Annotations[k] = val
	}
	if v.Spec.ClaimRef != nil {
		r := *v.Spec.ClaimRef
		n.Spec.ClaimRef = &r
	}
	return &n
}

// PodTerminated is the volume controllers' IsPodTerminated
// (pkg/volume/util): the pod is Failed or Succeeded, or it is being
// deleted and none of its containers is running (each terminated or
// waiting, or none reported). A nil pod is not terminated.
func PodTerminated(pod *api.Pod) bool {
	if pod == nil {
		return false
	}
	if pod.Status.Phase == api.PodFailed || pod.Status.Phase == api.PodSucceeded {
		return true
	}
	if pod.DeletionTimestamp == nil {
		return false
	}
	for _, list := range [][]api.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, s := range list {
			if s.State.Terminated == nil && s.State.Waiting == nil {
				return false
			}
		}
	}
	return true
}
