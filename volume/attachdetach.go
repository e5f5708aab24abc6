package volume

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// AttachDetachName is the component the attach-detach controller records
// its events under.
const AttachDetachName = "attachdetach-controller"

// The attach-detach controller's event reasons (pkg/kubelet/events).
const (
	ReasonFailedAttachVolume     = "FailedAttachVolume"
	ReasonSuccessfulAttachVolume = "SuccessfulAttachVolume"
)

// The attach-detach controller's timing, as kube-controller-manager
// v1.36.3 hard-codes it (pkg/controller/volume/attachdetach).
const (
	// DefaultMaxWaitForUnmount is reconcilerMaxWaitForUnmountDuration: how
	// long a volume still mounted on a node that is not healthy may keep
	// it attached after no pod there needs it any more.
	DefaultMaxWaitForUnmount = 6 * time.Minute
	// DefaultReconcilerLoopPeriod is reconcilerLoopPeriod: the reconciler
	// runs every 100 ms.
	DefaultReconcilerLoopPeriod = 100 * time.Millisecond
)

// UniqueVolumeName is the attach-detach controller's name of a CSI
// PersistentVolume's volume, "kubernetes.io/csi/<driver>^<volumeHandle>",
// as the kubelet reports it in node.status.volumesInUse; "" for a volume
// without a CSI source (or a nil one).
func UniqueVolumeName(pv *api.PersistentVolume) string {
	if pv == nil || pv.Spec.CSI == nil {
		return ""
	}
	return "kubernetes.io/csi/" + pv.Spec.CSI.Driver + "^" + pv.Spec.CSI.VolumeHandle
}

// VolumeAttachmentName is the name the CSI attacher gives the
// VolumeAttachment of volume handle, driver and node: "csi-" and the hex
// SHA-256 of the three strings concatenated (csi_attacher.go
// getAttachmentName).
func VolumeAttachmentName(handle, driver, node string) string {
	return fmt.Sprintf("csi-%x", sha256.Sum256([]byte(handle+driver+node)))
}

// MultiAttachAllowed is IsMultiAttachAllowed for a PersistentVolume: a
// volume without access modes, or offering ReadWriteMany or ReadOnlyMany,
// may be attached to several nodes; a ReadWriteOnce or ReadWriteOncePod
// one to one node at a time. A nil volume is allowed (upstream lets the
// attacher decide).
func MultiAttachAllowed(pv *api.PersistentVolume) bool {
	if pv == nil || len(pv.Spec.AccessModes) == 0 {
		return true
	}
	return api.ContainsAccessMode(pv.Spec.AccessModes, api.ReadWriteMany) || api.ContainsAccessMode(pv.Spec.AccessModes, api.ReadOnlyMany)
}

// Attachable reports whether the CSI volume needs attaching: a CSI
// PersistentVolume whose driver has no CSIDriver object (the CSI plugin
// then assumes it does) or one with attachRequired unset or true. Volumes
// of other sources are not modelled as attachable.
func Attachable(pv *api.PersistentVolume, drivers []*api.CSIDriver) bool {
	if pv == nil || pv.Spec.CSI == nil {
		return false
	}
	for _, d := range drivers {
		if d != nil && d.Name == pv.Spec.CSI.Driver {
			return d.Spec.AttachRequired == nil || *d.Spec.AttachRequired
		}
	}
	return true
}

// World is what the attach-detach controller's informers hold: pods,
// nodes, claims, volumes, CSIDrivers and VolumeAttachments.
type World struct {
	Pods        []*api.Pod
	Nodes       []*api.Node
	Claims      []*api.PersistentVolumeClaim
	Volumes     []*api.PersistentVolume
	Drivers     []*api.CSIDriver
	Attachments []*api.VolumeAttachment
}

// Desired is one entry of the desired state of the world: a volume the
// pods scheduled to a node need attached there.
type Desired struct {
	// Volume is the unique volume name (UniqueVolumeName).
	Volume string
	// PV is the PersistentVolume.
	PV *api.PersistentVolume
	// Node is the node.
	Node string
	// Pods are the pods on Node that use it, by namespace/name.
	Pods []*api.Pod
}

// managedNode reports whether the node lets the controller attach and
// detach its volumes (the kubelet's controller-managed-attach-detach
// annotation "true").
func managedNode(n *api.Node) bool {
	return n != nil && n.Annotations[api.AnnControllerManagedAttachDetach] == "true"
}

// DesiredState is the attach-detach controller's desired state of the
// world (its pod add/update/delete handlers through ProcessPodVolumes):
// for each pod bound to a node in managed (see the controller's
// bookkeeping; nil means the nodes whose annotation says so), that is not
// terminated (PodTerminated), each claim volume whose claim is Bound to an
// attachable CSI PersistentVolume. Entries are sorted by volume and node;
// a claim or volume not found, or a claim not Bound, leaves the pod's
// volume out, as upstream skips it.
func DesiredState(w World, managed map[string]bool) []Desired {
	if managed == nil {
		managed = map[string]bool{}
		for _, n := range w.Nodes {
			if managedNode(n) {
				managed[n.Name] = true
			}
		}
	}
	claims := map[string]*api.PersistentVolumeClaim{}
	for _, c := range w.Claims {
		if c != nil {
			claims[c.Namespace+"/"+c.Name] = c
		}
	}
	pvs := map[string]*api.PersistentVolume{}
	for _, v := range w.Volumes {
		if v != nil {
			pvs[v.Name] = v
		}
	}
	byKey := map[string]*Desired{}
	for _, p := range w.Pods {
		if p == nil || p.Spec.NodeName == "" || !managed[p.Spec.NodeName] || PodTerminated(p) {
			continue
		}
		for i := range p.Spec.Volumes {
			name, _, ok := api.PodVolumeClaimName(p, &p.Spec.Volumes[i])
			if !ok {
				continue
			}
			c := claims[p.Namespace+"/"+name]
			if c == nil || c.Status.Phase != api.ClaimBound || c.Spec.VolumeName == "" {
				continue
			}
			pv := pvs[c.Spec.VolumeName]
			if pv == nil || !Attachable(pv, w.Drivers) {
				continue
			}
			uv := UniqueVolumeName(pv)
			key := uv + "\x00" + p.Spec.NodeName
			d := byKey[key]
			if d == nil {
				d = &Desired{Volume: uv, PV: pv, Node: p.Spec.NodeName}
				byKey[key] = d
			}
			if !slices.Contains(d.Pods, p) {
				d.Pods = append(d.Pods, p)
			}
		}
	}
	out := make([]Desired, 0, len(byKey))
	for _, d := range byKey {
		slices.SortFunc(d.Pods, func(a, b *api.Pod) int { return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name) })
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b Desired) int {
		if c := strings.Compare(a.Volume, b.Volume); c != 0 {
			return c
		}
		return strings.Compare(a.Node, b.Node)
	})
	return out
}

// MultiAttachMessage is the FailedAttachVolume message the attach-detach
// controller records on pod (scheduled to a node where volume — named by
// its PersistentVolume, pvName — is wanted) while the ReadWriteOnce
// volume is attached to another node (reconciler.go
// reportMultiAttachError): the pods that use it on those other nodes, by
// name when in pod's namespace and counted otherwise; with no such pod,
// "Volume is already exclusively attached to one node and can't be
// attached to another". A nil pod gives "".
func MultiAttachMessage(pod *api.Pod, pvName string, others []*api.Pod) string {
	if pod == nil {
		return ""
	}
	prefix := fmt.Sprintf("Multi-Attach error for volume %q ", pvName)
	if len(others) == 0 {
		return prefix + "Volume is already exclusively attached to one node and can't be attached to another"
	}
	var local []string
	elsewhere := 0
	for _, o := range others {
		if o == nil {
			continue
		}
		if o.Namespace == pod.Namespace {
			local = append(local, o.Name)
		} else {
			elsewhere++
		}
	}
	if len(local) == 0 {
		return prefix + fmt.Sprintf("Volume is already used by %d pod(s) in different namespaces", elsewhere)
	}
	msg := "Volume is already used by pod(s) " + strings.Join(local, ", ")
	if elsewhere > 0 {
		msg += fmt.Sprintf(" and %d pod(s) in different namespaces", elsewhere)
	}
	return prefix + msg
}

// AttachSucceededMessage is the SuccessfulAttachVolume message the
// attach-detach controller records on each pod scheduled with the volume
// once it is attached: `AttachVolume.Attach succeeded for volume "<pv>" `
// (with upstream's trailing space: its message has an empty suffix).
func AttachSucceededMessage(pvName string) string {
	return fmt.Sprintf("AttachVolume.Attach succeeded for volume %q ", pvName)
}

// DetachDecision is the reconciler's answer for a volume attached to a
// node that no pod there needs any more.
type DetachDecision uint8

// The detach decisions.
const (
	// DetachWait: the volume is still mounted on the node and neither the
	// unmount wait has run out on an unhealthy node nor does the node
	// carry the out-of-service taint.
	DetachWait DetachDecision = iota
	// Detach: a normal detach (the volume is not mounted).
	Detach
	// ForceDetachTimeout: maxWaitForUnmountDuration ran out on a node that
	// is not Ready: detached although mounted.
	ForceDetachTimeout
	// ForceDetachOutOfService: the node has the
	// node.kubernetes.io/out-of-service taint: detached at once, mounted
	// or not.
	ForceDetachOutOfService
)

var detachNames = [...]string{"Wait", "Detach", "ForceDetach(timeout)", "ForceDetach(out-of-service)"}

// String names the decision.
func (d DetachDecision) String() string {
	if int(d) < len(detachNames) {
		return detachNames[d]
	}
	return fmt.Sprintf("DetachDecision(%d)", uint8(d))
}

// DecideDetach is the reconciler's rule (reconciler.go reconcile) for a
// volume attached to node but no longer desired there, whose detach was
// first requested at requested: with mounted (the node reports it in
// volumesInUse) it waits, unless the node (nil: deleted) is not Ready and
// more than maxWait has passed since requested
// (ForceDetachTimeout; never when disableForceDetachOnTimeout), or the
// node has the out-of-service taint, whatever its effect
// (ForceDetachOutOfService); an
// unmounted volume is detached — "forced" (without the safety check) when
// the wait has run out or the taint is there.
func DecideDetach(node *api.Node, mounted bool, requested, now time.Time, maxWait time.Duration, disableForceDetachOnTimeout bool) DetachDecision {
	expired := now.Sub(requested) > maxWait && !disableForceDetachOnTimeout
	healthy := nodeReady(node)
	outOfService := false
	if node != nil {
		for _, t := range node.Spec.Taints {
			if t.Key == api.TaintNodeOutOfService {
				outOfService = true
			}
		}
	}
	force := !healthy && expired
	if mounted && !force && !outOfService {
		return DetachWait
	}
	switch {
	case expired:
		return ForceDetachTimeout
	case outOfService:
		return ForceDetachOutOfService
	}
	return Detach
}

// nodeReady is the controller's nodeIsHealthy: the node exists and its
// Ready condition is True.
func nodeReady(node *api.Node) bool {
	if node == nil {
		return false
	}
	c := node.FindCondition(api.NodeReady)
	return c != nil && c.Status == api.ConditionTrue
}
