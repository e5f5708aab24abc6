package scheduling

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
)

// VolumeBinding's reasons (pkg/scheduler/framework/plugins/volumebinding),
// in the order a rejection lists them.
const (
	// ReasonVolumeNodeConflict: a bound claim's PersistentVolume's node
	// affinity excludes the node.
	ReasonVolumeNodeConflict = "node(s) didn't match PersistentVolume's node affinity"
	// ReasonVolumeBindConflict: an unbound WaitForFirstConsumer claim
	// finds no available volume for the node and cannot be provisioned
	// there.
	ReasonVolumeBindConflict = "node(s) didn't find available persistent volumes to bind"
	// ReasonVolumeNotEnoughSpace: the provisioner reports too little
	// storage capacity for the node.
	ReasonVolumeNotEnoughSpace = "node(s) did not have enough free storage"
	// ReasonVolumePVNotExist: a bound claim's volume does not exist.
	ReasonVolumePVNotExist = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
	// ReasonUnboundImmediateClaims is VolumeBinding's PreFilter rejection:
	// a claim of an Immediate StorageClass (or without a class) is not
	// bound yet.
	ReasonUnboundImmediateClaims = "pod has unbound immediate PersistentVolumeClaims"
)

// pvAffinity is a PersistentVolume's required node affinity compiled
// against the snapshot's label columns, matched as CheckNodeAffinity
// matches it: against the node's labels only (matchFields never
// restrict), an invalid or empty term never matching; nil matches every
// node.
type pvAffinity struct {
	terms []colTerm
}

func (c *Cluster) compilePVAffinity(pv *api.PersistentVolume) *pvAffinity {
	req := pv.RequiredNodeAffinity()
	if req == nil {
		return nil
	}
	a := &pvAffinity{}
	for i := range req.NodeSelectorTerms {
		t, _ := c.compileTerm(&req.NodeSelectorTerms[i])
		t.fields = nil
		a.terms = append(a.terms, t)
	}
	return a
}

func (a *pvAffinity) match(n *NodeInfo) bool {
	if a == nil {
		return true
	}
	for i := range a.terms {
		if a.terms[i].match(n) {
			return true
		}
	}
	return false
}

// boundClaim is a bound claim of the pod with its volume (nil when the
// volume does not exist).
type boundClaim struct {
	claim *api.PersistentVolumeClaim
	pv    *api.PersistentVolume
	aff   *pvAffinity
}

// candidatePV is a volume of a class an unbound claim may bind to.
type candidatePV struct {
	pv  *api.PersistentVolume
	aff *pvAffinity
}

// volumeBindingPlugin is VolumeBinding (with its volume binder):
//
// PreFilter: a pod without claim volumes (persistentVolumeClaim or generic
// ephemeral) is skipped. A claim that does not exist, is Lost or is being
// deleted, or an ephemeral volume's claim not owned by the pod, rejects the
// pod everywhere (UnschedulableAndUnresolvable with upstream's text); so
// does an unbound claim whose StorageClass binds Immediately (or that has
// no class): "pod has unbound immediate PersistentVolumeClaims". A claim is
// bound when it names its volume and carries the bind-completed
// annotation; an unbound claim of a WaitForFirstConsumer class waits for
// the scheduler.
//
// Filter, per node (FindPodVolumes): every bound claim's volume must exist
// and its node affinity admit the node's labels; every waiting claim
// either has a selected-node annotation naming this node, or finds an
// available volume of its class here (the smallest that fits its request,
// access modes, volume mode, selector and node affinity; one pre-bound to
// the claim wins), or else can be provisioned here: its class has a
// provisioner other than kubernetes.io/no-provisioner, allowedTopologies
// admit the node's labels, and, for a CSI driver that asks for capacity
// tracking, capacity is known (the snapshot holds no CSIStorageCapacity, so
// such a driver never has room). Failures are UnschedulableAndUnresolvable
// with the reasons in upstream's order: ReasonVolumeNodeConflict,
// ReasonVolumeBindConflict, ReasonVolumeNotEnoughSpace,
// ReasonVolumePVNotExist.
//
// Score: weight 1 in the default profile, but v1.36.3 builds no scorer
// without the StorageCapacityScoring feature gate, so PreScore says Skip.
type volumeBindingPlugin struct {
	basePlugin
	c   *Cluster
	pod *api.Pod

	bound []boundClaim
	// delayed are the unbound WaitForFirstConsumer claims: those with a
	// selected-node annotation (provisioning under way) first, then the
	// others by increasing storage request.
	delayed  []*api.PersistentVolumeClaim
	selected int // how many of delayed carry the annotation
	// pvs lists, per class of a delayed claim, its volumes.
	pvs map[string][]candidatePV
	// chosen is scratch for findMatchingVolumes.
	chosen map[string]bool
}

func newVolumeBindingPlugin(c *Cluster, p *PodInfo) volumeBindingPlugin {
	return volumeBindingPlugin{c: c, pod: p.pod}
}

func (pl *volumeBindingPlugin) name() string       { return PluginVolumeBinding }
func (pl *volumeBindingPlugin) clone() cyclePlugin { return pl }

// claimFullyBound reports whether a claim is bound as the binder sees it:
// a volume name and the bind-completed annotation.
func claimFullyBound(c *api.PersistentVolumeClaim) bool {
	_, done := c.Annotations[api.AnnBindCompleted]
	return c.Spec.VolumeName != "" && done
}

func (pl *volumeBindingPlugin) preFilter() Status {
	pod := pl.pod
	type podClaim struct {
		claim     *api.PersistentVolumeClaim
		ephemeral bool
	}
	var claims []podClaim
	for i := range pod.Spec.Volumes {
		name, ephemeral, ok := api.PodVolumeClaimName(pod, &pod.Spec.Volumes[i])
		if !ok {
			continue
		}
		reject := func(msg string) Status {
			return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{msg}}
		}
		claim := pl.c.storage.claim(pod.Namespace, name)
		switch {
		case claim == nil && ephemeral:
			return reject(fmt.Sprintf("waiting for ephemeral volume controller to create the persistentvolumeclaim %q", name))
		case claim == nil:
			return reject(claimNotFound(name))
		case claim.Status.Phase == api.ClaimLost:
			return reject(fmt.Sprintf("persistentvolumeclaim %q bound to non-existent persistentvolume %q", claim.Name, claim.Spec.VolumeName))
		case claim.DeletionTimestamp != nil:
			return reject(fmt.Sprintf("persistentvolumeclaim %q is being deleted", claim.Name))
		}
		if ephemeral {
			if err := api.VolumeClaimIsForPod(pod, claim); err != nil {
				return reject(err.Error())
			}
		}
		claims = append(claims, podClaim{claim, ephemeral})
	}
	if len(claims) == 0 {
		return Status{Code: Skip}
	}
	immediate := false
	var provisioning, matching []*api.PersistentVolumeClaim
	for _, pc := range claims {
		claim := pc.claim
		if claimFullyBound(claim) {
			b := boundClaim{claim: claim, pv: pl.c.storage.volumes[claim.Spec.VolumeName]}
			if b.pv != nil {
				b.aff = pl.c.compilePVAffinity(b.pv)
			}
			pl.bound = append(pl.bound, b)
			continue
		}
		delay, err := pl.delayBinding(claim)
		if err != nil {
			return Status{Code: Error, Err: err}
		}
		if !delay || claim.Spec.VolumeName != "" {
			immediate = true
			continue
		}
		if _, ok := claim.Annotations[api.AnnSelectedNode]; ok {
			provisioning = append(provisioning, claim)
		} else {
			matching = append(matching, claim)
		}
	}
	if immediate {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{ReasonUnboundImmediateClaims}}
	}
	// Smallest requests first, so that each claim gets the smallest volume
	// that fits (findMatchingVolumes).
	sort.SliceStable(matching, func(i, j int) bool {
		a, b := matching[i].Spec.Resources.Requests[api.ResourceStorage], matching[j].Spec.Resources.Requests[api.ResourceStorage]
		return a.Cmp(b) < 0
	})
	pl.delayed = append(provisioning, matching...)
	pl.selected = len(provisioning)
	for _, claim := range pl.delayed {
		class := claim.ClassName()
		if _, done := pl.pvs[class]; done {
			continue
		}
		if pl.pvs == nil {
			pl.pvs = map[string][]candidatePV{}
		}
		list := pl.c.storage.byClass[class]
		cands := make([]candidatePV, len(list))
		for i, pv := range list {
			cands[i] = candidatePV{pv: pv, aff: pl.c.compilePVAffinity(pv)}
		}
		pl.pvs[class] = cands
	}
	return Status{}
}

// delayBinding reports whether the claim's class binds WaitForFirstConsumer
// (IsDelayBindingMode): no class or an unknown one binds immediately; a
// class without volumeBindingMode is an error.
func (pl *volumeBindingPlugin) delayBinding(claim *api.PersistentVolumeClaim) (bool, error) {
	name := claim.ClassName()
	if name == "" {
		return false, nil
	}
	class := pl.c.storage.classes[name]
	if class == nil {
		return false, nil
	}
	if class.VolumeBindingMode == nil {
		return false, fmt.Errorf("VolumeBindingMode not set for StorageClass %q", name)
	}
	return *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer, nil
}

func (pl *volumeBindingPlugin) filter(v *nodeView) Status {
	node := v.info
	boundOK, pvsFound := true, true
	for _, b := range pl.bound {
		if b.pv == nil {
			pvsFound = false
			break
		}
		if !b.aff.match(node) {
			boundOK = false
			break
		}
	}
	unboundOK, enoughSpace := true, true
	if len(pl.delayed) > 0 {
		var err error
		unboundOK, enoughSpace, err = pl.findUnbound(node)
		if err != nil {
			return Status{Code: Error, Err: err}
		}
	}
	if boundOK && unboundOK && enoughSpace && pvsFound {
		return Status{}
	}
	var reasons []string
	if !boundOK {
		reasons = append(reasons, ReasonVolumeNodeConflict)
	}
	if !unboundOK {
		reasons = append(reasons, ReasonVolumeBindConflict)
	}
	if !enoughSpace {
		reasons = append(reasons, ReasonVolumeNotEnoughSpace)
	}
	if !pvsFound {
		reasons = append(reasons, ReasonVolumePVNotExist)
	}
	return Status{Code: UnschedulableAndUnresolvable, Reasons: reasons}
}

// findUnbound decides the waiting claims on one node: static binding to an
// available volume, else dynamic provisioning.
func (pl *volumeBindingPlugin) findUnbound(node *NodeInfo) (satisfied, enoughSpace bool, err error) {
	for _, claim := range pl.delayed[:pl.selected] {
		if claim.Annotations[api.AnnSelectedNode] != node.name {
			return false, true, nil
		}
	}
	satisfied = true
	var unmatched []*api.PersistentVolumeClaim
	if rest := pl.delayed[pl.selected:]; len(rest) > 0 {
		if pl.chosen == nil {
			pl.chosen = map[string]bool{}
		}
		clear(pl.chosen)
		for _, claim := range rest {
			pv, err := pl.matchVolume(claim, node)
			if err != nil {
				return false, false, err
			}
			if pv == nil {
				unmatched = append(unmatched, claim)
				satisfied = false
				continue
			}
			pl.chosen[pv.Name] = true
		}
	}
	provision := append(pl.delayed[:pl.selected:pl.selected], unmatched...)
	if len(provision) == 0 {
		return satisfied, true, nil
	}
	return pl.checkProvisions(provision, node)
}

// matchVolume is component-helpers' FindMatchingVolume on the scheduler
// path: the volume pre-bound to the claim if its node affinity admits the
// node (none otherwise), else the smallest Available volume of the claim's
// class that is big enough, unclaimed, of the claim's volume mode, access
// modes and VolumeAttributesClass, selected by the claim's selector and
// admitting the node, and not chosen for another claim of the pod.
func (pl *volumeBindingPlugin) matchVolume(claim *api.PersistentVolumeClaim, node *NodeInfo) (*api.PersistentVolume, error) {
	requested := claim.Spec.Resources.Requests[api.ResourceStorage]
	class := claim.ClassName()
	var selector api.Selector
	if claim.Spec.Selector != nil {
		s, err := api.LabelSelectorAsSelector(claim.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("error creating internal label selector for claim: %s/%s: %w", claim.Namespace, claim.Name, err)
		}
		selector = s
	}
	var smallest *api.PersistentVolume
	var smallestQty api.Quantity
	for _, cand := range pl.pvs[class] {
		pv := cand.pv
		if pl.chosen[pv.Name] {
			continue
		}
		if pv.Spec.ClaimRef != nil && !pv.IsBoundToClaim(claim) {
			continue
		}
		qty := pv.Spec.Capacity[api.ResourceStorage]
		if qty.Cmp(requested) < 0 {
			continue
		}
		if api.EffectiveVolumeMode(claim.Spec.VolumeMode) != api.EffectiveVolumeMode(pv.Spec.VolumeMode) {
			continue
		}
		if pv.DeletionTimestamp != nil {
			continue
		}
		affinityOK := cand.aff.match(node)
		if pv.IsBoundToClaim(claim) {
			if !affinityOK {
				return nil, nil
			}
			return pv, nil
		}
		if pv.Status.Phase != api.VolumeAvailable {
			continue
		}
		if selector != nil && !selector.Matches(api.Set(pv.Labels)) {
			continue
		}
		if pv.ClassName() != class || !affinityOK || !pv.HasAccessModes(claim.Spec.AccessModes) {
			continue
		}
		if !sameAttributesClass(claim.Spec.VolumeAttributesClassName, pv.Spec.VolumeAttributesClassName) {
			continue
		}
		if smallest == nil || smallestQty.Cmp(qty) > 0 {
			smallest, smallestQty = pv, qty
		}
	}
	return smallest, nil
}

// sameAttributesClass compares a claim's and a volume's
// volumeAttributesClassName, unset equal to "".
func sameAttributesClass(a, b *string) bool {
	var x, y string
	if a != nil {
		x = *a
	}
	if b != nil {
		y = *b
	}
	return x == y
}

// checkProvisions decides whether the claims can be provisioned for the
// node (checkVolumeProvisions): the first that cannot decides.
func (pl *volumeBindingPlugin) checkProvisions(claims []*api.PersistentVolumeClaim, node *NodeInfo) (satisfied, enoughSpace bool, err error) {
	for _, claim := range claims {
		name := claim.ClassName()
		if name == "" {
			return false, false, fmt.Errorf("no class for claim %q", claim.Namespace+"/"+claim.Name)
		}
		class := pl.c.storage.classes[name]
		if class == nil {
			return false, false, fmt.Errorf("failed to find storage class %q", name)
		}
		if class.Provisioner == "" || class.Provisioner == api.NotSupportedProvisioner {
			return false, true, nil
		}
		if !matchTopologyTerms(class.AllowedTopologies, node.node.Labels) {
			return false, true, nil
		}
		if !pl.enoughCapacity(class, claim) {
			return true, false, nil
		}
	}
	return true, true, nil
}

// enoughCapacity is hasEnoughCapacity without CSIStorageCapacity objects:
// a claim without a storage request, or a provisioner that is not a
// CSIDriver asking for storage capacity tracking, always has room; one
// that asks finds none.
func (pl *volumeBindingPlugin) enoughCapacity(class *api.StorageClass, claim *api.PersistentVolumeClaim) bool {
	if _, ok := claim.Spec.Resources.Requests[api.ResourceStorage]; !ok {
		return true
	}
	d := pl.c.storage.csiDrivers[class.Provisioner]
	return d == nil || d.Spec.StorageCapacity == nil || !*d.Spec.StorageCapacity
}

// matchTopologyTerms is v1helper.MatchTopologySelectorTerms: no terms admit
// every node; otherwise some non-empty term must have every key's node
// label among its (non-empty) values.
func matchTopologyTerms(terms []api.TopologySelectorTerm, labels map[string]string) bool {
	if len(terms) == 0 {
		return true
	}
next:
	for _, t := range terms {
		if len(t.MatchLabelExpressions) == 0 {
			continue
		}
		for _, r := range t.MatchLabelExpressions {
			v, ok := labels[r.Key]
			if !ok || len(r.Values) == 0 {
				continue next
			}
			found := false
			for _, want := range r.Values {
				found = found || want == v
			}
			if !found {
				continue next
			}
		}
		return true
	}
	return false
}

// VolumeZone's reason: a bound volume's zone or region labels exclude the
// node.
const ReasonVolumeZoneConflict = "node(s) had no available volume zone"

var reasonsVolumeZone = []string{ReasonVolumeZoneConflict}

// volumeTopology is one zone or region label of a bound volume.
type volumeTopology struct {
	key    string
	values map[string]bool
}

// The volume labels VolumeZone reads, in its order.
var volumeTopologyLabels = [...]string{
	api.LabelFailureDomainBetaZone,
	api.LabelFailureDomainBetaRegion,
	api.LabelTopologyZone,
	api.LabelTopologyRegion,
}

// volumeZonePlugin is VolumeZone: the zone and region labels of the
// PersistentVolumes bound to the pod's claims (several zones written
// "a__b") must admit the node's labels of the same key (a beta volume
// label also matches the node's GA label); a node with no zone or region
// label at all is fine. A mismatch is UnschedulableAndUnresolvable "node(s)
// had no available volume zone". PreFilter looks the claims and volumes up
// (unbound WaitForFirstConsumer claims are skipped; a missing claim,
// class or volume, or an unbound claim of another class, rejects the pod
// everywhere) and says Skip when no volume carries such labels.
type volumeZonePlugin struct {
	basePlugin
	c    *Cluster
	pod  *api.Pod
	topo []volumeTopology
}

func newVolumeZonePlugin(c *Cluster, p *PodInfo) volumeZonePlugin {
	return volumeZonePlugin{c: c, pod: p.pod}
}

func (pl *volumeZonePlugin) name() string       { return PluginVolumeZone }
func (pl *volumeZonePlugin) clone() cyclePlugin { return pl }

func (pl *volumeZonePlugin) preFilter() Status {
	reject := func(msg string) Status {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{msg}}
	}
	for i := range pl.pod.Spec.Volumes {
		src := pl.pod.Spec.Volumes[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		if src.ClaimName == "" {
			return reject("PersistentVolumeClaim had no name")
		}
		claim := pl.c.storage.claim(pl.pod.Namespace, src.ClaimName)
		if claim == nil {
			return reject(claimNotFound(src.ClaimName))
		}
		pvName := claim.Spec.VolumeName
		if pvName == "" {
			className := claim.ClassName()
			if className == "" {
				return reject("PersistentVolumeClaim had no pv name and storageClass name")
			}
			class := pl.c.storage.classes[className]
			if class == nil {
				return reject(fmt.Sprintf("storageclass.storage.k8s.io %q not found", className))
			}
			if class.VolumeBindingMode == nil {
				return reject(fmt.Sprintf("VolumeBindingMode not set for StorageClass %q", className))
			}
			if *class.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer {
				continue
			}
			return reject("PersistentVolume had no name")
		}
		pv := pl.c.storage.volumes[pvName]
		if pv == nil {
			return reject(fmt.Sprintf("persistentvolume %q not found", pvName))
		}
		for _, key := range volumeTopologyLabels {
			value, ok := pv.Labels[key]
			if !ok {
				continue
			}
			values, ok := labelZonesToSet(value)
			if !ok {
				continue // upstream ignores a label it cannot parse
			}
			pl.topo = append(pl.topo, volumeTopology{key: key, values: values})
		}
	}
	if len(pl.topo) == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

// labelZonesToSet splits a zone label value on "__" (cloud-provider
// volume helpers LabelZonesToSet); an empty entry makes it invalid.
func labelZonesToSet(value string) (map[string]bool, bool) {
	set := map[string]bool{}
	for _, z := range strings.Split(value, "__") {
		z = strings.TrimSpace(z)
		if z == "" {
			return nil, false
		}
		set[z] = true
	}
	return set, true
}

// gaTopologyLabel maps a beta zone or region label to its GA name.
func gaTopologyLabel(key string) string {
	switch key {
	case api.LabelFailureDomainBetaRegion:
		return api.LabelTopologyRegion
	case api.LabelFailureDomainBetaZone:
		return api.LabelTopologyZone
	}
	return key
}

func (pl *volumeZonePlugin) filter(v *nodeView) Status {
	if len(pl.pod.Spec.Volumes) == 0 {
		return Status{}
	}
	labels := v.info.node.Labels
	constrained := false
	for _, key := range volumeTopologyLabels {
		if _, ok := labels[key]; ok {
			constrained = true
			break
		}
	}
	if !constrained {
		return Status{}
	}
	for _, t := range pl.topo {
		value, ok := labels[t.key]
		if !ok {
			value, ok = labels[gaTopologyLabel(t.key)]
		}
		if !ok || !t.values[value] {
			return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsVolumeZone}
		}
	}
	return Status{}
}

// PreBindVolumes is what VolumeBinding's PreBind (the volume binder's
// BindPodVolumes, after AssumePodVolumes at Reserve) writes before the
// pod is bound, for the pod's unbound WaitForFirstConsumer claims on the
// chosen node, and what the binding then waits for.
type PreBindVolumes struct {
	// Provision are the claims to provision: each is updated with the
	// annotation volume.kubernetes.io/selected-node naming the node (a
	// no-op for a claim that already names it), which tells the
	// PersistentVolume controller and the external provisioner to create
	// a volume reachable from there.
	Provision []*api.PersistentVolumeClaim
	// Bind are the static bindings: each Volume is updated with its
	// claimRef pointing at Claim and the bound-by-controller annotation;
	// the PersistentVolume controller completes the binding.
	Bind []StaticBinding
	// Claims are the pod's claims that are not bound yet (those of
	// Provision and Bind): the binding waits until each carries the
	// bind-completed annotation and a volumeName (checkBindings), for at
	// most kube-scheduler's bindTimeoutSeconds (600 s), after which the
	// binding fails and the pod is retried.
	Claims []*api.PersistentVolumeClaim
}

// StaticBinding is a claim matched to an existing PersistentVolume.
type StaticBinding struct {
	Volume *api.PersistentVolume
	Claim  *api.PersistentVolumeClaim
}

// preBind decides the pod's waiting claims on the chosen node as Reserve
// assumed them: the claims with a selected-node annotation and those no
// available volume matches are provisioned, the others bound to their
// match. Nil when the pod has no waiting claim.
func (pl *volumeBindingPlugin) preBind(node *NodeInfo) *PreBindVolumes {
	if len(pl.delayed) == 0 || node == nil {
		return nil
	}
	out := &PreBindVolumes{Provision: slices.Clone(pl.delayed[:pl.selected])}
	if pl.chosen == nil {
		pl.chosen = map[string]bool{}
	}
	clear(pl.chosen)
	for _, claim := range pl.delayed[pl.selected:] {
		pv, err := pl.matchVolume(claim, node)
		if err != nil || pv == nil {
			out.Provision = append(out.Provision, claim)
			continue
		}
		pl.chosen[pv.Name] = true
		out.Bind = append(out.Bind, StaticBinding{Volume: pv, Claim: claim})
	}
	out.Claims = slices.Clone(pl.delayed)
	return out
}
