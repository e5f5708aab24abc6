package scheduling

import (
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
)

// storageIndex holds the storage objects the volume plugins read
// (VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone), as the
// scheduler's informers and its volume binder's caches hold them, and what
// the snapshot derives from the pods: which claims the pods on nodes use.
type storageIndex struct {
	claims  map[string]*api.PersistentVolumeClaim // by namespace/name
	volumes map[string]*api.PersistentVolume
	// byClass lists the volumes of each StorageClass name (the binder's
	// PV cache ListPVs), sorted by name.
	byClass    map[string][]*api.PersistentVolume
	classes    map[string]*api.StorageClass
	csiNodes   map[string]*api.CSINode
	csiDrivers map[string]*api.CSIDriver
	// usedClaims counts, per namespace/claim name, the volumes of pods on
	// snapshot nodes that reference the claim (a persistentVolumeClaim
	// volume or a generic ephemeral volume's claim): the snapshot's
	// StorageInfos().IsPVCUsedByPods.
	usedClaims map[string]int
}

func claimKey(namespace, name string) string { return namespace + "/" + name }

func (s *storageIndex) claim(namespace, name string) *api.PersistentVolumeClaim {
	return s.claims[claimKey(namespace, name)]
}

// podClaimNames lists the claims a pod's volumes reference: the claim of
// every persistentVolumeClaim volume and of every generic ephemeral volume
// (named pod-volume), in volume order (NodeInfo.updatePVCRefCounts).
func podClaimNames(pod *api.Pod) []string {
	var out []string
	for i := range pod.Spec.Volumes {
		if name, _, ok := api.PodVolumeClaimName(pod, &pod.Spec.Volumes[i]); ok {
			out = append(out, name)
		}
	}
	return out
}

// claimsUsed adds (sign +1) or removes (-1) a pod's claim references.
func (s *storageIndex) claimsUsed(p *PodInfo, sign int) {
	if len(p.claimNames) == 0 {
		return
	}
	if s.usedClaims == nil {
		s.usedClaims = map[string]int{}
	}
	for _, name := range p.claimNames {
		key := claimKey(p.pod.Namespace, name)
		if n := s.usedClaims[key] + sign; n <= 0 {
			delete(s.usedClaims, key)
		} else {
			s.usedClaims[key] = n
		}
	}
}

// SetPersistentVolumeClaim records a PersistentVolumeClaim (added or
// replaced, by namespace and name), which the volume plugins look up by the
// names in pods' volumes. The snapshot keeps the object: do not modify it
// afterwards, replace it. It fails on a nil claim or one without a name.
func (c *Cluster) SetPersistentVolumeClaim(claim *api.PersistentVolumeClaim) error {
	if c == nil {
		return errNilCluster
	}
	if claim == nil {
		return fmt.Errorf("%w: persistentVolumeClaim: nil", errInvalidInput)
	}
	if claim.Name == "" {
		return fmt.Errorf("%w: persistentVolumeClaim without metadata.name", errInvalidInput)
	}
	if c.storage.claims == nil {
		c.storage.claims = map[string]*api.PersistentVolumeClaim{}
	}
	c.storage.claims[claimKey(claim.Namespace, claim.Name)] = claim
	return nil
}

// RemovePersistentVolumeClaim forgets the claim with that namespace and
// name; it fails when there is none, and on a nil Cluster (errors wrapping
// api.ErrInvalidInput).
func (c *Cluster) RemovePersistentVolumeClaim(namespace, name string) error {
	if c == nil {
		return errNilCluster
	}
	key := claimKey(namespace, name)
	if c.storage.claims[key] == nil {
		return fmt.Errorf("%w: no persistentVolumeClaim %q", errInvalidInput, key)
	}
	delete(c.storage.claims, key)
	return nil
}

// SetPersistentVolume records a PersistentVolume (added or replaced, by
// name), indexed by its StorageClass for the volume binder's matching. The
// snapshot keeps the object: do not modify it afterwards, replace it. It
// fails on a nil volume or one without a name.
func (c *Cluster) SetPersistentVolume(pv *api.PersistentVolume) error {
	if c == nil {
		return errNilCluster
	}
	if pv == nil {
		return fmt.Errorf("%w: persistentVolume: nil", errInvalidInput)
	}
	if pv.Name == "" {
		return fmt.Errorf("%w: persistentVolume without metadata.name", errInvalidInput)
	}
	s := &c.storage
	if old := s.volumes[pv.Name]; old != nil {
		s.unclass(old)
	}
	if s.volumes == nil {
		s.volumes = map[string]*api.PersistentVolume{}
		s.byClass = map[string][]*api.PersistentVolume{}
	}
	s.volumes[pv.Name] = pv
	class := pv.ClassName()
	list := s.byClass[class]
	i := sort.Search(len(list), func(i int) bool { return list[i].Name >= pv.Name })
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = pv
	s.byClass[class] = list
	return nil
}

// unclass removes a volume from its class list.
func (s *storageIndex) unclass(pv *api.PersistentVolume) {
	class := pv.ClassName()
	list := s.byClass[class]
	for i, v := range list {
		if v == pv {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(s.byClass, class)
	} else {
		s.byClass[class] = list
	}
}

// RemovePersistentVolume forgets the volume with that name; it fails when
// there is none, and on a nil Cluster (errors wrapping api.ErrInvalidInput).
func (c *Cluster) RemovePersistentVolume(name string) error {
	if c == nil {
		return errNilCluster
	}
	pv := c.storage.volumes[name]
	if pv == nil {
		return fmt.Errorf("%w: no persistentVolume %q", errInvalidInput, name)
	}
	c.storage.unclass(pv)
	delete(c.storage.volumes, name)
	return nil
}

// SetStorageClass records a StorageClass (added or replaced, by name). The
// snapshot keeps the object. It fails on a nil class or one without a name.
func (c *Cluster) SetStorageClass(class *api.StorageClass) error {
	if c == nil {
		return errNilCluster
	}
	if class == nil {
		return fmt.Errorf("%w: storageClass: nil", errInvalidInput)
	}
	if class.Name == "" {
		return fmt.Errorf("%w: storageClass without metadata.name", errInvalidInput)
	}
	if c.storage.classes == nil {
		c.storage.classes = map[string]*api.StorageClass{}
	}
	c.storage.classes[class.Name] = class
	return nil
}

// RemoveStorageClass forgets the class with that name; it fails when there
// is none, and on a nil Cluster (errors wrapping api.ErrInvalidInput).
func (c *Cluster) RemoveStorageClass(name string) error {
	if c == nil {
		return errNilCluster
	}
	if c.storage.classes[name] == nil {
		return fmt.Errorf("%w: no storageClass %q", errInvalidInput, name)
	}
	delete(c.storage.classes, name)
	return nil
}

// SetCSINode records a CSINode (added or replaced, by name: the name of the
// node it describes), whose drivers' allocatable counts are the node's
// attach limits for NodeVolumeLimits. The snapshot keeps the object. It
// fails on a nil object or one without a name.
func (c *Cluster) SetCSINode(n *api.CSINode) error {
	if c == nil {
		return errNilCluster
	}
	if n == nil {
		return fmt.Errorf("%w: csiNode: nil", errInvalidInput)
	}
	if n.Name == "" {
		return fmt.Errorf("%w: csiNode without metadata.name", errInvalidInput)
	}
	if c.storage.csiNodes == nil {
		c.storage.csiNodes = map[string]*api.CSINode{}
	}
	c.storage.csiNodes[n.Name] = n
	return nil
}

// RemoveCSINode forgets the CSINode with that name; it fails when there is
// none, and on a nil Cluster (errors wrapping api.ErrInvalidInput).
func (c *Cluster) RemoveCSINode(name string) error {
	if c == nil {
		return errNilCluster
	}
	if c.storage.csiNodes[name] == nil {
		return fmt.Errorf("%w: no csiNode %q", errInvalidInput, name)
	}
	delete(c.storage.csiNodes, name)
	return nil
}

// SetCSIDriver records a CSIDriver (added or replaced, by name: the
// driver's), whose storageCapacity field VolumeBinding reads before
// provisioning. The snapshot keeps the object. It fails on a nil object or
// one without a name.
func (c *Cluster) SetCSIDriver(d *api.CSIDriver) error {
	if c == nil {
		return errNilCluster
	}
	if d == nil {
		return fmt.Errorf("%w: csiDriver: nil", errInvalidInput)
	}
	if d.Name == "" {
		return fmt.Errorf("%w: csiDriver without metadata.name", errInvalidInput)
	}
	if c.storage.csiDrivers == nil {
		c.storage.csiDrivers = map[string]*api.CSIDriver{}
	}
	c.storage.csiDrivers[d.Name] = d
	return nil
}

// RemoveCSIDriver forgets the CSIDriver with that name; it fails when there
// is none, and on a nil Cluster (errors wrapping api.ErrInvalidInput).
func (c *Cluster) RemoveCSIDriver(name string) error {
	if c == nil {
		return errNilCluster
	}
	if c.storage.csiDrivers[name] == nil {
		return fmt.Errorf("%w: no csiDriver %q", errInvalidInput, name)
	}
	delete(c.storage.csiDrivers, name)
	return nil
}

// AddObjects adds decoded objects (api.Decode's output, as `kubectl get
// nodes,pods,pvc,pv,storageclasses,csinodes,csidrivers,namespaces,services,
// replicasets,statefulsets,replicationcontrollers -o json` prints them) to
// the snapshot: nodes with AddNode, pods with AddPod, namespaces and
// storage objects and PodDisruptionBudgets with their Set method, and Services, ReplicaSets,
// StatefulSets and ReplicationControllers as the workloads
// PodTopologySpread's default constraints select by: when objs holds any,
// SetSpreadWorkloads gets every workload AddObjects has been given so far
// (replacing what an earlier SetSpreadWorkloads call recorded).
// Nodes are added before pods whatever the order given. Other kinds
// (priority classes, ...) are ignored. It stops at the first
// object it cannot add, naming its position. A nil object (or a nil
// pointer of a kind it adds) is an error wrapping api.ErrInvalidInput, and
// then nothing is added.
func (c *Cluster) AddObjects(objs ...api.Object) error {
	if c == nil {
		return errNilCluster
	}
	for i, o := range objs {
		if isNilObject(o) {
			return fmt.Errorf("%w: objects[%d]: nil", errInvalidInput, i)
		}
	}
	workloads := false
	for _, o := range objs {
		switch o := o.(type) {
		case *api.Service:
			c.workloads.Services = append(c.workloads.Services, o)
		case *api.ReplicaSet:
			c.workloads.ReplicaSets = append(c.workloads.ReplicaSets, o)
		case *api.StatefulSet:
			c.workloads.StatefulSets = append(c.workloads.StatefulSets, o)
		case *api.ReplicationController:
			c.workloads.ReplicationControllers = append(c.workloads.ReplicationControllers, o)
		default:
			continue
		}
		workloads = true
	}
	if workloads {
		c.SetSpreadWorkloads(c.workloads)
	}
	for pass := 0; pass < 2; pass++ {
		for i, o := range objs {
			var err error
			switch o := o.(type) {
			case *api.Node:
				if pass == 0 {
					err = c.AddNode(o)
				}
			case *api.Pod:
				if pass == 1 {
					err = c.AddPod(o)
				}
			case *api.Namespace:
				if pass == 0 {
					err = c.SetNamespace(o)
				}
			case *api.PersistentVolumeClaim:
				if pass == 0 {
					err = c.SetPersistentVolumeClaim(o)
				}
			case *api.PersistentVolume:
				if pass == 0 {
					err = c.SetPersistentVolume(o)
				}
			case *api.StorageClass:
				if pass == 0 {
					err = c.SetStorageClass(o)
				}
			case *api.CSINode:
				if pass == 0 {
					err = c.SetCSINode(o)
				}
			case *api.CSIDriver:
				if pass == 0 {
					err = c.SetCSIDriver(o)
				}
			case *api.PodDisruptionBudget:
				if pass == 0 {
					err = c.SetPodDisruptionBudget(o)
				}
			}
			if err != nil {
				return fmt.Errorf("objects[%d]: %w", i, err)
			}
		}
	}
	return nil
}

// isNilObject reports whether o is nil or a nil pointer of a kind
// AddObjects adds.
func isNilObject(o api.Object) bool {
	switch o := o.(type) {
	case nil:
		return true
	case *api.Node:
		return o == nil
	case *api.Pod:
		return o == nil
	case *api.Namespace:
		return o == nil
	case *api.PersistentVolumeClaim:
		return o == nil
	case *api.PersistentVolume:
		return o == nil
	case *api.StorageClass:
		return o == nil
	case *api.CSINode:
		return o == nil
	case *api.CSIDriver:
		return o == nil
	case *api.PodDisruptionBudget:
		return o == nil
	case *api.Service:
		return o == nil
	case *api.ReplicaSet:
		return o == nil
	case *api.StatefulSet:
		return o == nil
	case *api.ReplicationController:
		return o == nil
	}
	return false
}
