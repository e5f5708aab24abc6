package scheduling

import (
	"errors"
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// ReasonMaxVolumeCountExceeded is NodeVolumeLimits' reason: the pod's new
// volumes would take a CSI driver past the node's attach limit.
const ReasonMaxVolumeCountExceeded = "node(s) exceed max volume count"

var reasonsMaxVolumeCount = []string{ReasonMaxVolumeCountExceeded}

// The in-tree volume plugins whose volumes the scheduler counts as their
// CSI drivers' (csi-translation-lib), with the driver each migrates to.
const (
	inTreeGCEPD     = "kubernetes.io/gce-pd"
	inTreeAWSEBS    = "kubernetes.io/aws-ebs"
	inTreeAzureDisk = "kubernetes.io/azure-disk"
	inTreeAzureFile = "kubernetes.io/azure-file"
	inTreeCinder    = "kubernetes.io/cinder"
	inTreeVSphere   = "kubernetes.io/vsphere-volume"
	inTreePortworx  = "kubernetes.io/portworx-volume"
)

var inTreeDrivers = map[string]string{
	inTreeGCEPD:     "pd.csi.storage.gke.io",
	inTreeAWSEBS:    "ebs.csi.aws.com",
	inTreeAzureDisk: "disk.csi.azure.com",
	inTreeAzureFile: "file.csi.azure.com",
	inTreeCinder:    "cinder.csi.openstack.org",
	inTreeVSphere:   "csi.vsphere.vmware.com",
	inTreePortworx:  "pxd.portworx.com",
}

// inTreeVolume returns the in-tree plugin of a pod's inline volume source
// the scheduler can translate to CSI (IsInlineMigratable), and the volume
// handle the translation gives it ("" when the plugin's volumes are not
// counted).
func inTreeVolume(v *api.VolumeSource) (plugin, handle string) {
	switch {
	case v.GCEPersistentDisk != nil:
		return inTreeGCEPD, gcePDHandle(v.GCEPersistentDisk.PDName, "")
	case v.AWSElasticBlockStore != nil:
		return inTreeAWSEBS, ebsHandle(v.AWSElasticBlockStore.VolumeID)
	case v.AzureDisk != nil:
		return inTreeAzureDisk, v.AzureDisk.DiskURI
	case v.AzureFile != nil:
		return inTreeAzureFile, ""
	case v.Cinder != nil:
		return inTreeCinder, v.Cinder.VolumeID
	case v.VsphereVolume != nil:
		return inTreeVSphere, ""
	case v.PortworxVolume != nil:
		return inTreePortworx, v.PortworxVolume.VolumeID
	}
	return "", ""
}

// inTreePV is inTreeVolume for a PersistentVolume's source (IsPVMigratable
// and TranslateInTreePVToCSI).
func inTreePV(pv *api.PersistentVolume) (plugin, handle string) {
	s := &pv.Spec.PersistentVolumeSource
	switch {
	case s.GCEPersistentDisk != nil:
		zone := pv.Labels[api.LabelTopologyZone]
		if zone == "" {
			zone = pv.Labels[api.LabelFailureDomainBetaZone]
		}
		return inTreeGCEPD, gcePDHandle(s.GCEPersistentDisk.PDName, zone)
	case s.AWSElasticBlockStore != nil:
		return inTreeAWSEBS, ebsHandle(s.AWSElasticBlockStore.VolumeID)
	case s.AzureDisk != nil:
		return inTreeAzureDisk, s.AzureDisk.DiskURI
	case s.AzureFile != nil:
		return inTreeAzureFile, ""
	case s.Cinder != nil:
		return inTreeCinder, s.Cinder.VolumeID
	case s.VsphereVolume != nil:
		return inTreeVSphere, ""
	case s.PortworxVolume != nil:
		return inTreePortworx, s.PortworxVolume.VolumeID
	}
	return "", ""
}

// gcePDHandle is the CSI volume handle the GCE PD translation gives a disk:
// projects/UNSPECIFIED/zones/<zone>/disks/<name>, regions/<region> for a
// disk labelled with several zones.
func gcePDHandle(pd, zone string) string {
	if zone == "" {
		zone = "UNSPECIFIED"
	}
	if z, _, multi := strings.Cut(zone, "__"); multi {
		region := z
		if i := strings.LastIndexByte(z, '-'); i > 0 {
			region = z[:i]
		}
		return "projects/UNSPECIFIED/regions/" + region + "/disks/" + pd
	}
	return "projects/UNSPECIFIED/zones/" + zone + "/disks/" + pd
}

// ebsHandle is the EBS volume ID of an in-tree volume ID, which may be
// written aws://<zone>/<id>.
func ebsHandle(id string) string {
	if rest, ok := strings.CutPrefix(id, "aws://"); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return strings.Trim(rest[i:], "/")
		}
		return ""
	}
	return id
}

// csiMigrationOn reports whether the node handles the in-tree plugin's
// volumes through its CSI driver (isCSIMigrationOn): only with a CSINode,
// always for GCE PD, AWS EBS, Azure Disk and Cinder (migration is GA),
// for Portworx when the CSINode's migrated-plugins annotation lists it,
// never for the others.
func csiMigrationOn(n *api.CSINode, plugin string) bool {
	if n == nil || plugin == "" {
		return false
	}
	switch plugin {
	case inTreeAWSEBS, inTreeGCEPD, inTreeAzureDisk, inTreeCinder:
		return true
	case inTreePortworx:
		for _, p := range strings.Split(n.Annotations[api.AnnMigratedPlugins], ",") {
			if p == plugin {
				return true
			}
		}
	}
	return false
}

// errVolumeNotFound marks the NotFound errors NodeVolumeLimits reports as
// UnschedulableAndUnresolvable.
var errVolumeNotFound = errors.New("not found")

// notFoundError carries upstream's message while matching
// errVolumeNotFound.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string        { return e.msg }
func (e *notFoundError) Is(target error) bool { return target == errVolumeNotFound }

// nodeVolumeLimitsPlugin is NodeVolumeLimits (CSILimits): the pod's new
// attachable volumes (claims bound to CSI volumes or to in-tree volumes
// migrated to CSI, unbound claims counted as their StorageClass
// provisioner's, and migrated inline volumes), together with the distinct
// ones the node's pods already use, may not exceed a driver's attach
// limit on the node: the CSINode's allocatable count for the driver, or the
// node's attachable-volumes-csi-<driver> allocatable. A node without a
// limit for the driver takes any number. Exceeding it is Unschedulable
// "node(s) exceed max volume count". A pod without claim or migratable
// volumes is skipped at PreFilter.
type nodeVolumeLimitsPlugin struct {
	basePlugin
	c   *Cluster
	pod *api.Pod
	// scratch maps reused from node to node.
	newVols, attached map[string]string
	counts, need      map[string]int
}

func newNodeVolumeLimitsPlugin(c *Cluster, p *PodInfo) nodeVolumeLimitsPlugin {
	return nodeVolumeLimitsPlugin{c: c, pod: p.pod}
}

func (pl *nodeVolumeLimitsPlugin) name() string       { return PluginNodeVolumeLimits }
func (pl *nodeVolumeLimitsPlugin) clone() cyclePlugin { return pl }

func (pl *nodeVolumeLimitsPlugin) preFilter() Status {
	for i := range pl.pod.Spec.Volumes {
		v := &pl.pod.Spec.Volumes[i]
		if v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			return Status{}
		}
		if p, _ := inTreeVolume(&v.VolumeSource); p != "" {
			return Status{}
		}
	}
	return Status{Code: Skip}
}

func (pl *nodeVolumeLimitsPlugin) filter(v *nodeView) Status {
	if len(pl.pod.Spec.Volumes) == 0 {
		return Status{}
	}
	node := v.info
	csiNode := pl.c.storage.csiNodes[node.name]
	if pl.newVols == nil {
		pl.newVols, pl.attached, pl.counts = map[string]string{}, map[string]string{}, map[string]int{}
	}
	clear(pl.newVols)
	if err := pl.attachable(pl.pod, csiNode, true, pl.newVols); err != nil {
		if errors.Is(err, errVolumeNotFound) {
			return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{err.Error()}}
		}
		return Status{Code: Error, Err: err}
	}
	if len(pl.newVols) == 0 {
		return Status{}
	}
	limit := func(key string) (int64, bool) {
		var l int64
		found := false
		if q, ok := node.node.Status.Allocatable[api.ResourceName(key)]; ok {
			l, found = q.Value(), true
		}
		if csiNode != nil {
			for i := range csiNode.Spec.Drivers {
				d := &csiNode.Spec.Drivers[i]
				if d.Allocatable != nil && d.Allocatable.Count != nil && string(api.CSIAttachLimitKey(d.Name)) == key {
					l, found = int64(*d.Allocatable.Count), true
				}
			}
		}
		return l, found
	}
	if !pl.anyLimit(node, csiNode) {
		return Status{}
	}
	clear(pl.attached)
	var err error
	v.eachPod(func(p *PodInfo) bool {
		err = pl.attachable(p.pod, csiNode, false, pl.attached)
		return err == nil
	})
	if err != nil {
		return Status{Code: Error, Err: err}
	}
	clear(pl.counts)
	for unique, key := range pl.attached {
		delete(pl.newVols, unique) // a volume shared with a pod on the node counts once
		pl.counts[key]++
	}
	if pl.need == nil {
		pl.need = map[string]int{}
	}
	need := pl.need
	clear(need)
	for _, key := range pl.newVols {
		need[key]++
	}
	for key, n := range need {
		if l, ok := limit(key); ok && int64(pl.counts[key]+n) > l {
			return Status{Code: Unschedulable, Reasons: reasonsMaxVolumeCount}
		}
	}
	return Status{}
}

// anyLimit reports whether the node has any attach limit (getVolumeLimits
// is not empty).
func (pl *nodeVolumeLimitsPlugin) anyLimit(node *NodeInfo, csiNode *api.CSINode) bool {
	for name := range node.node.Status.Allocatable {
		if strings.HasPrefix(string(name), api.ResourceAttachableVolumesPrefix) {
			return true
		}
	}
	if csiNode != nil {
		for i := range csiNode.Spec.Drivers {
			if a := csiNode.Spec.Drivers[i].Allocatable; a != nil && a.Count != nil {
				return true
			}
		}
	}
	return false
}

// attachable adds the pod's attachable volumes to result, unique name
// (driver/handle) to limit key (filterAttachableVolumes). For the incoming
// pod a missing claim is an error; an existing pod's is skipped.
func (pl *nodeVolumeLimitsPlugin) attachable(pod *api.Pod, csiNode *api.CSINode, newPod bool, result map[string]string) error {
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		claimName, ephemeral, ok := api.PodVolumeClaimName(pod, vol)
		if !ok {
			plugin, handle := inTreeVolume(&vol.VolumeSource)
			if plugin == "" || !csiMigrationOn(csiNode, plugin) || handle == "" {
				continue
			}
			driver := inTreeDrivers[plugin]
			result[driver+"/"+handle] = string(api.CSIAttachLimitKey(driver))
			continue
		}
		if claimName == "" {
			return errors.New("PersistentVolumeClaim had no name")
		}
		claim := pl.c.storage.claim(pod.Namespace, claimName)
		if claim == nil {
			if newPod {
				return &notFoundError{fmt.Sprintf("looking up PVC %s/%s: %s", pod.Namespace, claimName, claimNotFound(claimName))}
			}
			continue
		}
		if ephemeral {
			if err := api.VolumeClaimIsForPod(pod, claim); err != nil {
				return err
			}
		}
		driver, handle := pl.csiDriverInfo(csiNode, claim)
		if driver == "" || handle == "" {
			continue
		}
		result[driver+"/"+handle] = string(api.CSIAttachLimitKey(driver))
	}
	return nil
}

// csiDriverInfo is the CSI driver and volume handle of a claim's volume
// (getCSIDriverInfo): its bound CSI volume's, its in-tree volume's
// translation when the node migrated that plugin, or for an unbound claim
// (or one whose volume is missing) its StorageClass provisioner's with a
// handle unique to the claim.
func (pl *nodeVolumeLimitsPlugin) csiDriverInfo(csiNode *api.CSINode, claim *api.PersistentVolumeClaim) (string, string) {
	if name := claim.Spec.VolumeName; name != "" {
		if pv := pl.c.storage.volumes[name]; pv != nil {
			if src := pv.Spec.CSI; src != nil {
				return src.Driver, src.VolumeHandle
			}
			plugin, handle := inTreePV(pv)
			if plugin == "" || !csiMigrationOn(csiNode, plugin) {
				return "", ""
			}
			return inTreeDrivers[plugin], handle
		}
	}
	className := claim.ClassName()
	if className == "" {
		return "", ""
	}
	class := pl.c.storage.classes[className]
	if class == nil {
		return "", ""
	}
	// Upstream's handle carries a random prefix so that it never equals a
	// real one; the NUL byte does the same here.
	handle := "\x00" + claim.Namespace + "/" + claim.Name
	if driver, inTree := inTreeDrivers[class.Provisioner]; inTree {
		if !csiMigrationOn(csiNode, class.Provisioner) {
			return "", ""
		}
		return driver, handle
	}
	return class.Provisioner, handle
}
