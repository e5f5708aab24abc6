package workloads

import (
	"github.com/podsem/podsem/api"
)

// NewControllerRef is the owner reference a workload controller writes on
// the objects it manages (apimachinery's metav1.NewControllerRef, as
// kube-controller-manager's controllers call it): the owner's apiVersion,
// kind, name and uid, with controller and blockOwnerDeletion both true, so
// that the garbage collector deletes the object with its owner and a
// foreground deletion of the owner waits for it. apiVersion and kind are
// the owner's ("apps/v1", "ReplicaSet"); the object's TypeMeta is often
// empty in a list, so they are arguments. A nil owner gives a reference
// with only those two and the two flags set.
func NewControllerRef(owner *api.ObjectMeta, apiVersion, kind string) api.OwnerReference {
	t, b := true, true
	ref := api.OwnerReference{APIVersion: apiVersion, Kind: kind, Controller: &t, BlockOwnerDeletion: &b}
	if owner != nil {
		ref.Name, ref.UID = owner.Name, owner.UID
	}
	return ref
}

// Claim is what a controller's claim decides for one object it sees in
// its namespace (kube-controller-manager's BaseControllerRefManager
// ClaimObject, pkg/controller/controller_ref_manager.go).
type Claim uint8

// The outcomes of a claim.
const (
	// ClaimIgnored: not this controller's — controlled by another owner
	// (whatever its labels), an orphan that does not match or may not be
	// adopted (being deleted, the owner being deleted, another
	// namespace), or an owned object that no longer matches while the
	// owner is being deleted (it is neither kept nor released).
	ClaimIgnored Claim = iota
	// ClaimOwned: controlled by this owner and still matching; it stays.
	ClaimOwned
	// ClaimAdopt: an orphan (no controller reference; a non-controller
	// owner reference still makes one) that matches: the controller
	// patches its controller reference onto it and counts it at once.
	ClaimAdopt
	// ClaimRelease: controlled by this owner but no longer matching: the
	// controller patches its owner reference away and stops counting it.
	ClaimRelease
)

// String names the outcome.
func (c Claim) String() string {
	switch c {
	case ClaimIgnored:
		return "Ignored"
	case ClaimOwned:
		return "Owned"
	case ClaimAdopt:
		return "Adopt"
	case ClaimRelease:
		return "Release"
	}
	return "Claim(?)"
}

// Claimed reports whether the controller manages the object after the
// claim: owned already, or adopted now.
func (c Claim) Claimed() bool { return c == ClaimOwned || c == ClaimAdopt }

// ClaimObject decides one object's claim by the controller whose metadata
// is owner, given whether the object matches the controller (its selector
// and whatever else the controller requires: ReplicaSet and Deployment use
// the selector alone, a StatefulSet also the pod's name). The rules of
// upstream's ClaimObject, in order:
//
//   - an object whose controller reference carries another uid is
//     ignored, whatever its labels;
//   - one controlled by owner is kept while it matches; otherwise it is
//     released, unless owner is being deleted (then ignored);
//   - an orphan is adopted when it matches, neither it nor owner has a
//     deletionTimestamp, and it is in owner's namespace (an owner without
//     a namespace adopts in any).
//
// Identity is by uid only, as upstream compares it. A nil owner or object
// is ClaimIgnored.
func ClaimObject(owner, obj *api.ObjectMeta, matches bool) Claim {
	if owner == nil || obj == nil {
		return ClaimIgnored
	}
	if ref := obj.ControllerRef(); ref != nil {
		switch {
		case ref.UID != owner.UID:
			return ClaimIgnored
		case matches:
			return ClaimOwned
		case owner.DeletionTimestamp != nil:
			return ClaimIgnored
		}
		return ClaimRelease
	}
	if !matches || owner.DeletionTimestamp != nil || obj.DeletionTimestamp != nil ||
		owner.Namespace != "" && owner.Namespace != obj.Namespace {
		return ClaimIgnored
	}
	return ClaimAdopt
}

// Claims is the result of claiming a list of objects: the ones the
// controller manages after the claim (owned and adopted, in input order),
// and among all of them the ones to patch.
type Claims[T any] struct {
	// Claimed are the objects owned after the claim, adopted ones
	// included, in the order given.
	Claimed []T
	// Adopted are the orphans the controller patches its controller
	// reference onto (also in Claimed).
	Adopted []T
	// Released are the objects the controller patches its owner
	// reference away from (not in Claimed).
	Released []T
}

// ClaimPods claims pods for the controller whose metadata is owner and
// whose selector is selector (kube-controller-manager's
// PodControllerRefManager.ClaimPods): each pod's claim is ClaimObject with
// "matches" meaning the selector matches the pod's labels. The callers
// upstream filter first — the ReplicaSet controller claims only active
// pods (not Succeeded, Failed or terminating), so an owned pod that
// finished is neither counted nor released. A nil owner or selector
// claims nothing; nil pods are skipped.
func ClaimPods(owner *api.ObjectMeta, selector api.Selector, pods []*api.Pod) Claims[*api.Pod] {
	var c Claims[*api.Pod]
	if owner == nil || selector == nil {
		return c
	}
	for _, p := range pods {
		if p == nil {
			continue
		}
		c.add(p, ClaimObject(owner, &p.ObjectMeta, selector.Matches(api.Set(p.Labels))))
	}
	return c
}

// ClaimReplicaSets claims ReplicaSets for the Deployment whose metadata is
// owner and whose selector is selector (kube-controller-manager's
// ReplicaSetControllerRefManager.ClaimReplicaSets), with ClaimObject's
// rules and the selector matched against each ReplicaSet's own labels. A
// nil owner or selector claims nothing; nil sets are skipped.
func ClaimReplicaSets(owner *api.ObjectMeta, selector api.Selector, sets []*api.ReplicaSet) Claims[*api.ReplicaSet] {
	var c Claims[*api.ReplicaSet]
	if owner == nil || selector == nil {
		return c
	}
	for _, rs := range sets {
		if rs == nil {
			continue
		}
		c.add(rs, ClaimObject(owner, &rs.ObjectMeta, selector.Matches(api.Set(rs.Labels))))
	}
	return c
}

func (c *Claims[T]) add(obj T, cl Claim) {
	switch cl {
	case ClaimOwned:
		c.Claimed = append(c.Claimed, obj)
	case ClaimAdopt:
		c.Claimed = append(c.Claimed, obj)
		c.Adopted = append(c.Adopted, obj)
	case ClaimRelease:
		c.Released = append(c.Released, obj)
	}
}

// AdoptOwnerReferences returns the owner references an object has once
// the adoption patch is applied: upstream sends ref as a strategic merge
// patch keyed by uid, so an existing reference with ref's uid (say, a
// non-controller one to the same owner) is replaced by ref, and otherwise
// ref is appended. refs is not modified.
func AdoptOwnerReferences(refs []api.OwnerReference, ref api.OwnerReference) []api.OwnerReference {
	out := make([]api.OwnerReference, 0, len(refs)+1)
	replaced := false
	for _, r := range refs {
		if r.UID == ref.UID {
			if !replaced {
				out = append(out, ref)
				replaced = true
			}
			continue
		}
		out = append(out, r)
	}
	if !replaced {
		out = append(out, ref)
	}
	return out
}

// ReleaseOwnerReferences returns the owner references an object has once
// the release patch is applied: upstream deletes, by strategic merge,
// every reference whose uid is the owner's. refs is not modified; nil
// when none remain.
func ReleaseOwnerReferences(refs []api.OwnerReference, ownerUID string) []api.OwnerReference {
	var out []api.OwnerReference
	for _, r := range refs {
		if r.UID != ownerUID {
			out = append(out, r)
		}
	}
	return out
}
