package workloads

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// StatefulSetPod is the pod the StatefulSet controller sends to the API
// server for ordinal, from set's template as it stands (upstream's
// newStatefulSetPod, pkg/controller/statefulset/stateful_set_utils.go),
// stamped with revision as its controller-revision-hash label (empty:
// no label):
//
//   - GetPodFromTemplate's copy of the template: labels, annotations,
//     finalizers, spec; generateName "<set>-"; set's controller
//     reference (apps/v1 StatefulSet, controller, blockOwnerDeletion);
//   - the identity: name "<set>-<ordinal>", the set's namespace, the
//     labels statefulset.kubernetes.io/pod-name (the name) and
//     apps.kubernetes.io/pod-index (the ordinal), hostname = the name and
//     subdomain = spec.serviceName;
//   - the storage: one volume per volumeClaimTemplate, named as the
//     template, backed by the claim "<template>-<set>-<ordinal>",
//     replacing a template volume of the same name (upstream lists them
//     in map order; here in template order).
//
// A nil set is an error wrapping api.ErrInvalidInput.
func StatefulSetPod(set *api.StatefulSet, ordinal int, revision string) (*api.Pod, error) {
	if set == nil {
		return nil, fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	return newStatefulSetPod(set, ordinal, revision), nil
}

// StatefulSetClaims are the PersistentVolumeClaims the StatefulSet
// controller creates for the pod of ordinal, one per volumeClaimTemplate
// in template order (getPersistentVolumeClaims): the template, named
// "<template>-<set>-<ordinal>", in the set's namespace, its labels the
// template's plus the set's selector matchLabels (which win), no owner
// references (the retention policy adds them once the claim is seen). A
// nil set is an error wrapping api.ErrInvalidInput.
func StatefulSetClaims(set *api.StatefulSet, ordinal int) ([]*api.PersistentVolumeClaim, error) {
	if set == nil {
		return nil, fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	return claimsFor(set, ordinal), nil
}

func statefulSetRef(set *api.StatefulSet) api.OwnerReference {
	return NewControllerRef(&set.ObjectMeta, "apps/v1", "StatefulSet")
}

func podRef(p *api.Pod) api.OwnerReference {
	return NewControllerRef(&p.ObjectMeta, "v1", "Pod")
}

func podName(set *api.StatefulSet, ordinal int) string { return set.Name + "-" + strconv.Itoa(ordinal) }

func claimName(set *api.StatefulSet, template string, ordinal int) string {
	return template + "-" + set.Name + "-" + strconv.Itoa(ordinal)
}

func newStatefulSetPod(set *api.StatefulSet, ordinal int, revision string) *api.Pod {
	ref := statefulSetRef(set)
	pod, err := PodFromTemplate(&set.Spec.Template, set.Name, &ref)
	if err != nil {
		pod = &api.Pod{ObjectMeta: api.ObjectMeta{OwnerReferences: []api.OwnerReference{ref}}}
	}
	pod.Name = podName(set, ordinal)
	updateIdentity(set, pod)
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	updateStorage(set, pod)
	if revision != "" {
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels[api.LabelControllerRevisionHash] = revision
	}
	return pod
}

// identityMatches reports whether pod carries the identity of a member of
// set: its name, namespace and pod-name label.
func identityMatches(set *api.StatefulSet, pod *api.Pod) bool {
	parent, ord := statefulParentAndOrdinal(pod.Name)
	return ord >= 0 && parent == set.Name && pod.Name == podName(set, ord) &&
		pod.Namespace == set.Namespace && pod.Labels[api.LabelStatefulSetPodName] == pod.Name
}

// updateIdentity is upstream's updateIdentity: name, namespace and the
// pod-name and pod-index labels (hostname and subdomain are set only at
// creation: they are immutable).
func updateIdentity(set *api.StatefulSet, pod *api.Pod) {
	_, ord := statefulParentAndOrdinal(pod.Name)
	pod.Name = podName(set, ord)
	pod.Namespace = set.Namespace
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[api.LabelStatefulSetPodName] = pod.Name
	pod.Labels[api.LabelPodIndex] = strconv.Itoa(ord)
}

// storageMatches reports whether pod has, for every volumeClaimTemplate, a
// volume of that name backed by its own claim.
func storageMatches(set *api.StatefulSet, pod *api.Pod) bool {
	_, ord := statefulParentAndOrdinal(pod.Name)
	if ord < 0 {
		return false
	}
	for _, t := range set.Spec.VolumeClaimTemplates {
		i := slices.IndexFunc(pod.Spec.Volumes, func(v api.Volume) bool { return v.Name == t.Name })
		if i < 0 {
			return false
		}
		pvc := pod.Spec.Volumes[i].PersistentVolumeClaim
		if pvc == nil || pvc.ClaimName != claimName(set, t.Name, ord) {
			return false
		}
	}
	return true
}

// updateStorage is upstream's updateStorage: the claim volumes first, then
// the pod's other volumes; a volume named as a template is replaced.
func updateStorage(set *api.StatefulSet, pod *api.Pod) {
	_, ord := statefulParentAndOrdinal(pod.Name)
	templates := set.Spec.VolumeClaimTemplates
	if len(templates) == 0 {
		return
	}
	vols := make([]api.Volume, 0, len(templates)+len(pod.Spec.Volumes))
	isTemplate := map[string]bool{}
	for _, t := range templates {
		if isTemplate[t.Name] {
			continue
		}
		isTemplate[t.Name] = true
		v := api.Volume{Name: t.Name}
		v.PersistentVolumeClaim = &api.PersistentVolumeClaimVolumeSource{ClaimName: claimName(set, t.Name, ord)}
		vols = append(vols, v)
	}
	for _, v := range pod.Spec.Volumes {
		if !isTemplate[v.Name] {
			vols = append(vols, v)
		}
	}
	pod.Spec.Volumes = vols
}

func claimsFor(set *api.StatefulSet, ordinal int) []*api.PersistentVolumeClaim {
	var out []*api.PersistentVolumeClaim
	for i := range set.Spec.VolumeClaimTemplates {
		t := set.Spec.VolumeClaimTemplates[i]
		c := t
		c.Name = claimName(set, t.Name, ordinal)
		c.Namespace = set.Namespace
		c.Labels = maps.Clone(t.Labels)
		if set.Spec.Selector != nil && len(set.Spec.Selector.MatchLabels) > 0 {
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			maps.Copy(c.Labels, set.Spec.Selector.MatchLabels)
		}
		c.Annotations = maps.Clone(t.Annotations)
		c.OwnerReferences = slices.Clone(t.OwnerReferences)
		c.Finalizers = slices.Clone(t.Finalizers)
		out = append(out, &c)
	}
	return out
}

func copyPodForUpdate(p *api.Pod) *api.Pod {
	q := *p
	q.Labels = maps.Clone(p.Labels)
	q.Spec.Volumes = slices.Clone(p.Spec.Volumes)
	return &q
}

// createClaims is createPersistentVolumeClaims: every missing claim of the
// pod is created (in name order; upstream walks a map); a claim being
// deleted is an error, as is a second create of one this sync created.
func (s *ssSync) createClaims(p *api.Pod) error {
	_, ord := statefulParentAndOrdinal(p.Name)
	claims := claimsFor(s.set, ord)
	slices.SortFunc(claims, func(a, b *api.PersistentVolumeClaim) int { return strings.Compare(a.Name, b.Name) })
	var errs []error
	for _, c := range claims {
		if have := s.claims[c.Name]; have != nil {
			if have.DeletionTimestamp != nil {
				errs = append(errs, fmt.Errorf("pvc %s is being deleted", c.Name))
			}
			continue
		}
		if s.createdClaims[c.Name] {
			errs = append(errs, fmt.Errorf("failed to create PVC %s: persistentvolumeclaims %q already exists", c.Name, c.Name))
			continue
		}
		if err := s.claimErrs[c.Name]; err != nil {
			s.failed = append(s.failed, StatefulSetClaimEvent(s.set, "create", c.Name, p.Name, err))
			errs = append(errs, fmt.Errorf("failed to create PVC %s: %s", c.Name, err))
			continue
		}
		s.createdClaims[c.Name] = true
		s.act(StatefulSetAction{Kind: StatefulSetCreateClaim, Ordinal: ord, Pod: p.Name, Why: "missing", Claim: c})
	}
	return aggregate(errs)
}

// aggregate is apimachinery's NewAggregate as an error's text reads: nil
// for none, the one error's text for one, "[a, b]" for several.
func aggregate(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}

// retentionPolicy is getPersistentVolumeClaimRetentionPolicy: Retain for
// both when the set has none.
func retentionPolicy(set *api.StatefulSet) api.StatefulSetPersistentVolumeClaimRetentionPolicy {
	if p := set.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		return *p
	}
	return api.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: api.RetainPersistentVolumeClaimRetentionPolicyType,
		WhenScaled:  api.RetainPersistentVolumeClaimRetentionPolicyType,
	}
}

const (
	retain = api.RetainPersistentVolumeClaimRetentionPolicyType
	del    = api.DeletePersistentVolumeClaimRetentionPolicyType
)

// podClaimIsStale is PodClaimIsStale: with whenScaled=Delete, a claim of
// the pod whose Pod owner reference names another uid (a predecessor's,
// or any when the pod is not created yet) blocks the pod's creation
// until the garbage collector has removed it.
func (s *ssSync) podClaimIsStale(p *api.Pod) bool {
	if retentionPolicy(s.set).WhenScaled == retain {
		return false
	}
	_, ord := statefulParentAndOrdinal(p.Name)
	for _, c := range claimsFor(s.set, ord) {
		if have := s.claims[c.Name]; have != nil && hasStaleRef(have, p.Name, p.UID, "v1", "Pod") {
			return true
		}
	}
	return false
}

// claimsMatchRetention is ClaimsMatchRetentionPolicy: every existing
// claim of the pod has the owner references the policy asks for.
func (s *ssSync) claimsMatchRetention(p *api.Pod) bool {
	_, ord := statefulParentAndOrdinal(p.Name)
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		if c := s.claims[claimName(s.set, t.Name, ord)]; c != nil && !s.claimOwnerUpToDate(c, p) {
			return false
		}
	}
	return true
}

// updateClaimsForRetention is UpdatePodClaimForRetentionPolicy: every
// existing claim of the pod (as cached: this sync's own updates are not
// seen) whose owner references are off is rewritten.
func (s *ssSync) updateClaimsForRetention(p *api.Pod) {
	_, ord := statefulParentAndOrdinal(p.Name)
	for _, t := range s.set.Spec.VolumeClaimTemplates {
		c := s.claims[claimName(s.set, t.Name, ord)]
		if c == nil || s.claimOwnerUpToDate(c, p) {
			continue
		}
		nc := *c
		nc.OwnerReferences = s.claimOwnerRefs(c, p)
		s.act(StatefulSetAction{Kind: StatefulSetUpdateClaim, Ordinal: ord, Pod: p.Name, Why: "retention", Claim: &nc})
	}
}

func (s *ssSync) podInOrdinalRange(p *api.Pod) bool {
	_, ord := statefulParentAndOrdinal(p.Name)
	start := s.startOrdinal()
	return ord >= start && ord < start+int(*s.set.Spec.Replicas)
}

// matchesRef: the reference names the object by apiVersion, kind and name
// (whatever its uid).
func matchesRef(r api.OwnerReference, name, apiVersion, kind string) bool {
	return r.APIVersion == apiVersion && r.Kind == kind && r.Name == name
}

func hasRefUID(c *api.PersistentVolumeClaim, uid string) bool {
	return slices.ContainsFunc(c.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == uid })
}

// hasStaleRef: the first reference naming the object carries another uid.
func hasStaleRef(c *api.PersistentVolumeClaim, name, uid, apiVersion, kind string) bool {
	for _, r := range c.OwnerReferences {
		if matchesRef(r, name, apiVersion, kind) {
			return r.UID != uid
		}
	}
	return false
}

// hasUnexpectedController: with a policy other than Retain/Retain, the
// claim is controlled by something other than the set and the pod, or
// refers to them with stale uids.
func (s *ssSync) hasUnexpectedController(c *api.PersistentVolumeClaim, p *api.Pod) bool {
	pol := retentionPolicy(s.set)
	if pol.WhenScaled == retain && pol.WhenDeleted == retain {
		return false
	}
	for _, r := range c.OwnerReferences {
		switch {
		case matchesRef(r, s.set.Name, "apps/v1", "StatefulSet"):
			if r.UID != s.set.UID {
				return true
			}
		case matchesRef(r, p.Name, "v1", "Pod"):
			if r.UID != p.UID {
				return true
			}
		case r.Controller != nil && *r.Controller:
			return true
		}
	}
	return false
}

// claimOwnerUpToDate is isClaimOwnerUpToDate: whether the claim's owner
// references are as the retention policy asks — Retain/Retain: neither the
// set nor the pod; whenDeleted=Delete: the set; whenScaled=Delete: the pod
// once it is scaled away (and then, with Delete/Delete, not the set). A
// claim with stale references or another controller is left alone.
func (s *ssSync) claimOwnerUpToDate(c *api.PersistentVolumeClaim, p *api.Pod) bool {
	set := s.set
	if hasStaleRef(c, set.Name, set.UID, "apps/v1", "StatefulSet") || hasStaleRef(c, p.Name, p.UID, "v1", "Pod") {
		return true
	}
	hasSet, hasPod := hasRefUID(c, set.UID), hasRefUID(c, p.UID)
	if s.hasUnexpectedController(c, p) {
		return !hasSet && !hasPod
	}
	for _, r := range c.OwnerReferences {
		if (r.UID == set.UID || r.UID == p.UID) && (r.Controller == nil || !*r.Controller) {
			return false
		}
	}
	pol := retentionPolicy(set)
	scaledDown := !s.podInOrdinalRange(p)
	switch {
	case pol.WhenScaled == retain && pol.WhenDeleted == del:
		return hasSet && !hasPod
	case pol.WhenScaled == del && pol.WhenDeleted == retain:
		return !hasSet && scaledDown == hasPod
	case pol.WhenScaled == del && pol.WhenDeleted == del:
		return scaledDown != hasSet && scaledDown == hasPod
	}
	// Retain/Retain, and an unknown policy, treated as Retain.
	return !hasSet && !hasPod
}

// claimOwnerRefs is updateClaimOwnerRefForSetAndPod: the claim's owner
// references with those naming the set or the pod scrubbed and the ones
// the policy asks for added as controller references (none when another
// controller manages the claim).
func (s *ssSync) claimOwnerRefs(c *api.PersistentVolumeClaim, p *api.Pod) []api.OwnerReference {
	set := s.set
	unexpected := s.hasUnexpectedController(c, p)
	var refs []api.OwnerReference
	for _, r := range c.OwnerReferences {
		if !matchesRef(r, set.Name, "apps/v1", "StatefulSet") && !matchesRef(r, p.Name, "v1", "Pod") {
			refs = append(refs, r)
		}
	}
	if unexpected {
		return refs
	}
	add := func(ref api.OwnerReference) {
		if !slices.ContainsFunc(refs, func(r api.OwnerReference) bool { return r.UID == ref.UID }) {
			refs = append(refs, ref)
		}
	}
	pol := retentionPolicy(set)
	scaledDown := !s.podInOrdinalRange(p)
	switch {
	case pol.WhenScaled == retain && pol.WhenDeleted == del:
		add(statefulSetRef(set))
	case pol.WhenScaled == del && pol.WhenDeleted == retain:
		if scaledDown {
			add(podRef(p))
		}
	case pol.WhenScaled == del && pol.WhenDeleted == del:
		if scaledDown {
			add(podRef(p))
		} else {
			add(statefulSetRef(set))
		}
	}
	return refs
}
