package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// VolumeRestrictions' reasons (pkg/scheduler/framework/plugins/
// volumerestrictions).
const (
	// ReasonDiskConflict: another pod on the node mounts the same GCE PD,
	// EBS volume, RBD image or iSCSI disk in a conflicting way.
	ReasonDiskConflict = "node(s) had no available disk"
	// ReasonReadWriteOncePodConflict: a ReadWriteOncePod claim of the pod
	// is already used by a pod on some node (any node: the claim admits
	// one pod in the whole cluster).
	ReasonReadWriteOncePodConflict = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
)

var (
	reasonsDiskConflict = []string{ReasonDiskConflict}
	reasonsRWOPConflict = []string{ReasonReadWriteOncePodConflict}
)

// claimNotFound is the PersistentVolumeClaim lister's NotFound error text,
// which the volume plugins report as their reason.
func claimNotFound(name string) string {
	return fmt.Sprintf("persistentvolumeclaim %q not found", name)
}

// volumeRestrictionsPlugin is VolumeRestrictions:
//
//   - disk conflicts: a GCE persistent disk may be shared by pods on a node
//     only when every mount is read-only; an EBS volume never; an RBD image
//     (same pool and image, a monitor in common) and an iSCSI disk (same
//     IQN) only when every mount is read-only. A conflict with a pod on
//     the node is Unschedulable "node(s) had no available disk".
//   - ReadWriteOncePod, the modern form of "a ReadWriteOnce volume on at
//     most one node": PreFilter looks up every claim the pod's volumes
//     name (a missing one rejects the pod everywhere,
//     UnschedulableAndUnresolvable `persistentvolumeclaim "x" not found`)
//     and counts the pod's ReadWriteOncePod claims some pod on a node
//     already uses; while that count is above 0 every node is
//     Unschedulable with ReasonReadWriteOncePodConflict. Removing the
//     holder (preemption's what-if, RemovePod) lowers the count, so a
//     lower-priority holder is a preemption victim; adding a pod that uses
//     a claim of the same name raises it, as upstream's AddPod does (by
//     claim name, whatever the namespace).
//
// A pod with neither disk volumes nor a claim in use is skipped at
// PreFilter.
type volumeRestrictionsPlugin struct {
	basePlugin
	c   *Cluster
	pod *api.Pod
	// disks are the pod's volumes the disk-conflict check concerns.
	disks []*api.Volume
	// rwop names the pod's ReadWriteOncePod claims; conflicts counts the
	// references to them by pods on nodes.
	rwop      map[string]bool
	conflicts int
}

func newVolumeRestrictionsPlugin(c *Cluster, p *PodInfo) volumeRestrictionsPlugin {
	return volumeRestrictionsPlugin{c: c, pod: p.pod}
}

func (pl *volumeRestrictionsPlugin) name() string { return PluginVolumeRestrictions }

func (pl *volumeRestrictionsPlugin) clone() cyclePlugin {
	cp := *pl
	return &cp
}

// needsRestrictionsCheck reports whether a volume takes part in the disk
// conflict check.
func needsRestrictionsCheck(v *api.Volume) bool {
	return v.GCEPersistentDisk != nil || v.AWSElasticBlockStore != nil || v.RBD != nil || v.ISCSI != nil
}

func (pl *volumeRestrictionsPlugin) preFilter() Status {
	vols := pl.pod.Spec.Volumes
	for i := range vols {
		if needsRestrictionsCheck(&vols[i]) {
			pl.disks = append(pl.disks, &vols[i])
		}
	}
	for i := range vols {
		src := vols[i].PersistentVolumeClaim
		if src == nil {
			continue
		}
		claim := pl.c.storage.claim(pl.pod.Namespace, src.ClaimName)
		if claim == nil {
			return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{claimNotFound(src.ClaimName)}}
		}
		if claim.IsReadWriteOncePod() {
			if pl.rwop == nil {
				pl.rwop = map[string]bool{}
			}
			pl.rwop[claim.Name] = true
		}
	}
	for name := range pl.rwop {
		if pl.c.storage.usedClaims[claimKey(pl.pod.Namespace, name)] > 0 {
			pl.conflicts++
		}
	}
	if len(pl.disks) == 0 && pl.conflicts == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

func (pl *volumeRestrictionsPlugin) fits(v *nodeView) bool {
	return pl.conflicts <= 0 && len(pl.disks) == 0
}

func (pl *volumeRestrictionsPlugin) filter(v *nodeView) Status {
	if len(pl.disks) > 0 {
		conflict := false
		v.eachPod(func(p *PodInfo) bool {
			for _, d := range pl.disks {
				if volumeConflict(d, p.pod) {
					conflict = true
					return false
				}
			}
			return true
		})
		if conflict {
			return Status{Code: Unschedulable, Reasons: reasonsDiskConflict}
		}
	}
	if pl.conflicts > 0 {
		return Status{Code: Unschedulable, Reasons: reasonsRWOPConflict}
	}
	return Status{}
}

func (pl *volumeRestrictionsPlugin) addPod(p *PodInfo, _ *NodeInfo) {
	pl.conflicts += pl.claimRefs(p)
}

func (pl *volumeRestrictionsPlugin) removePod(p *PodInfo, _ *NodeInfo) {
	pl.conflicts -= pl.claimRefs(p)
}

// claimRefs counts p's claim volumes naming one of the pod's
// ReadWriteOncePod claims.
func (pl *volumeRestrictionsPlugin) claimRefs(p *PodInfo) int {
	n := 0
	for i := range p.pod.Spec.Volumes {
		if src := p.pod.Spec.Volumes[i].PersistentVolumeClaim; src != nil && pl.rwop[src.ClaimName] {
			n++
		}
	}
	return n
}

// volumeConflict reports whether v conflicts with one of pod's volumes
// (isVolumeConflict).
func volumeConflict(v *api.Volume, pod *api.Pod) bool {
	for i := range pod.Spec.Volumes {
		e := &pod.Spec.Volumes[i]
		if d, o := v.GCEPersistentDisk, e.GCEPersistentDisk; d != nil && o != nil {
			if d.PDName == o.PDName && !(d.ReadOnly && o.ReadOnly) {
				return true
			}
		}
		if d, o := v.AWSElasticBlockStore, e.AWSElasticBlockStore; d != nil && o != nil {
			if d.VolumeID == o.VolumeID {
				return true
			}
		}
		if d, o := v.ISCSI, e.ISCSI; d != nil && o != nil {
			if d.IQN == o.IQN && !(d.ReadOnly && o.ReadOnly) {
				return true
			}
		}
		if d, o := v.RBD, e.RBD; d != nil && o != nil {
			if haveOverlap(d.Monitors, o.Monitors) && d.Pool == o.Pool && d.Image == o.Image && !(d.ReadOnly && o.ReadOnly) {
				return true
			}
		}
	}
	return false
}

// haveOverlap reports whether two lists share an element.
func haveOverlap(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// eachPod calls f for every pod on the node under the what-if (the node's
// pods less those removed, then those added) until f returns false.
func (v *nodeView) eachPod(f func(p *PodInfo) bool) {
	for _, p := range v.info.pods {
		if len(v.removed) > 0 && indexOf(v.removed, p) >= 0 {
			continue
		}
		if !f(p) {
			return
		}
	}
	for _, p := range v.added {
		if !f(p) {
			return
		}
	}
}
