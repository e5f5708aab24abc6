package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
	"github.com/podsem/podsem/volume"
)

// StorageConfig is the storage side of the cluster: the
// PersistentVolume and attach-detach controllers' settings and the
// documented model of a CSI driver's external-provisioner and
// external-attacher (the e2e harness's volume model, for the provisioner
// outside kubernetes.io/ of every StorageClass the cluster starts with: a
// class applied later with another provisioner names a driver that is not
// installed, whose claims are never provisioned). The zero value is
// v1.36.3's controllers with the harness's model. As in the harness, the
// kubelets neither wait for a volume's attachment before starting a pod's
// containers nor report volumes in use (node.status.volumesInUse), so a
// pod runs despite a Multi-Attach error, and a volume no pod needs is
// detached at once (maxWaitForUnmountDuration only holds mounted
// volumes). The StorageObjectInUseProtection and DefaultStorageClass
// admission plugins and the pvc-protection and pv-protection controllers
// run as upstream's (protection.go).
type StorageConfig struct {
	// ProvisionDelay is how long the provisioner model takes to create
	// the PersistentVolume of a claim handed to it (the harness's model:
	// at once). Flag: provision-delay.
	ProvisionDelay time.Duration
	// AttachDelay is how long the attacher model takes to mark a
	// VolumeAttachment attached (the harness's model: at once). Flag:
	// attach-delay.
	AttachDelay time.Duration
	// Binder is the PersistentVolume controller's
	// (--pvclaimbinder-sync-period).
	Binder volume.BinderConfig
	// AttachDetach is the attach-detach controller's
	// (--disable-force-detach-on-timeout).
	AttachDetach volume.AttachDetachConfig
	// ReportVolumesInUse makes each kubelet report in
	// node.status.volumesInUse the attachable volumes of the pods bound
	// to its node that have not terminated, as a real kubelet's volume
	// manager does (the harness's kubelet reports none: off by default).
	// A silent (lost) kubelet's last report stands, so the attach-detach
	// controller waits maxWaitForUnmountDuration before it forces a
	// detach from a lost node. Flag: report-volumes-in-use.
	ReportVolumesInUse bool
}

// setFlag reads one config entry by upstream flag name (or one of the
// model's knobs); ok is false for a key it does not take.
func (c *StorageConfig) setFlag(k, v string) (ok bool, err error) {
	switch k {
	case "pvclaimbinder-sync-period", "provision-delay", "attach-delay":
		d, err := parseDuration([]byte(strconv.Quote(v)))
		if err != nil {
			return true, fmt.Errorf("cluster: %w: config %s: %v", api.ErrInvalidInput, k, err)
		}
		switch k {
		case "pvclaimbinder-sync-period":
			c.Binder.SyncPeriod = d
		case "provision-delay":
			c.ProvisionDelay = d
		default:
			c.AttachDelay = d
		}
	case "disable-force-detach-on-timeout", "report-volumes-in-use":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return true, fmt.Errorf("cluster: %w: config %s: %q", api.ErrInvalidInput, k, v)
		}
		if k == "report-volumes-in-use" {
			c.ReportVolumesInUse = b
		} else {
			c.AttachDetach.DisableForceDetachOnTimeout = b
		}
	default:
		return false, nil
	}
	return true, nil
}

// bindTimeout is kube-scheduler's bindTimeoutSeconds default: how long
// VolumeBinding's PreBind waits for the pod's claims to be bound.
const bindTimeout = 600 * time.Second

// componentProvisionerModel is the harness's note source for a
// PersistentVolume its provisioner model created.
const componentProvisionerModel = "csi-provisioner-model"

// storageState is the storage side's state in the Machine: the two
// controllers (made once the cluster holds a storage object), their dirty
// keys, the provisioner and attacher models' timers, the bindings
// kube-scheduler holds while VolumeBinding's PreBind waits, and the nodes
// whose kubelets did their volume registration.
type storageState struct {
	active     bool
	pvc        *volume.PersistentVolumeController
	adc        *volume.AttachDetachController
	claims     map[string]bool
	volumes    map[string]bool
	adcDirty   bool
	modelDirty bool
	provisions map[string]time.Time // claim key → the provisioner model's time
	attaches   map[string]time.Time // VolumeAttachment → the attacher model's time
	bindings   []*pendingBinding
	registered map[string]bool
}

// pendingBinding is a pod kube-scheduler bound in its cache whose binding
// waits in PreBind for its claims.
type pendingBinding struct {
	action   scheduling.Action
	claims   []string
	deadline time.Time
	// nextPoll is PreBind's next look at the claims: VolumeBinding's
	// BindPodVolumes polls checkBindings every bindPollInterval from the
	// PreBind's start, the first one an interval after it
	// (wait.PollUntilContextTimeout, not immediate), so a binding goes
	// out at the first poll that finds its claims bound.
	nextPoll time.Time
}

// bindPollInterval is the period of VolumeBinding's PreBind poll.
const bindPollInterval = time.Second

// storageDeliver marks what a watch event concerns on the storage side.
func (m *Machine) storageDeliver(w watchEvent) {
	s := &m.storage
	switch o := w.Object.(type) {
	case *api.PersistentVolumeClaim:
		s.activate()
		s.claims[w.Key] = true
		if w.Type == watchDeleted && o.Spec.VolumeName != "" {
			s.volumes[o.Spec.VolumeName] = true // deleteClaim syncs its volume
		}
	case *api.PersistentVolume:
		s.activate()
		s.volumes[w.Key] = true
		if o.Spec.ClaimRef != nil {
			s.claims[o.Spec.ClaimRef.Namespace+"/"+o.Spec.ClaimRef.Name] = true
		}
	case *api.StorageClass, *api.CSIDriver, *api.VolumeAttachment:
		s.activate()
	case *api.Pod:
		if !s.active || (len(o.Spec.Volumes) == 0 && len(s.bindings) == 0) {
			return
		}
	case *api.Node:
		if !s.active {
			return
		}
	default:
		return
	}
	s.adcDirty, s.modelDirty = true, true
}

func (s *storageState) activate() {
	if s.active {
		return
	}
	s.active = true
	s.claims, s.volumes = map[string]bool{}, map[string]bool{}
	s.provisions, s.attaches = map[string]time.Time{}, map[string]time.Time{}
	s.registered = map[string]bool{}
}

// storageDue reports whether a storage component has work at now.
func (m *Machine) storageDue(now time.Time) bool {
	s := &m.storage
	if !s.active {
		return false
	}
	if s.pvc == nil || len(s.claims) > 0 || len(s.volumes) > 0 || s.adcDirty || s.modelDirty {
		return true
	}
	d := m.storageDeadline()
	return !d.IsZero() && !d.After(now)
}

// storageDeadline is the earliest storage timer: a resync, a forced
// detach, a model's delay, a PreBind timeout.
func (m *Machine) storageDeadline() time.Time {
	s := &m.storage
	if !s.active {
		return time.Time{}
	}
	var d time.Time
	d = api.EarliestDeadline(d, s.pvc.NextDeadline())
	d = api.EarliestDeadline(d, s.adc.NextDeadline())
	for _, t := range s.provisions {
		d = api.EarliestDeadline(d, t)
	}
	for _, t := range s.attaches {
		d = api.EarliestDeadline(d, t)
	}
	for _, b := range s.bindings {
		d = api.EarliestDeadline(d, b.deadline)
		if m.claimsBound(b) {
			d = api.EarliestDeadline(d, b.nextPoll)
		}
	}
	return d
}

// runStorage runs, in order: the kubelets' volume registration of new
// nodes, the provisioner and attacher models, the PersistentVolume
// controller, the attach-detach controller, and the bindings waiting in
// PreBind.
func (m *Machine) runStorage(now time.Time) error {
	s := &m.storage
	if !s.active {
		return nil
	}
	if s.pvc == nil {
		s.pvc = volume.NewPersistentVolumeController(m.cfg.Storage.Binder)
		s.adc = volume.NewAttachDetachController(m.cfg.Storage.AttachDetach)
	}
	if s.modelDirty || s.modelDue(now) {
		s.modelDirty = false
		if err := m.registerNodeVolumes(); err != nil {
			return err
		}
		if err := m.runVolumeModel(now); err != nil {
			return err
		}
		if err := m.reportVolumesInUse(); err != nil {
			return err
		}
	}
	if err := m.runBinder(now); err != nil {
		return err
	}
	if err := m.runAttachDetach(now); err != nil {
		return err
	}
	return m.runPendingBindings(now)
}

func (s *storageState) modelDue(now time.Time) bool {
	for _, t := range s.provisions {
		if !t.After(now) {
			return true
		}
	}
	for _, t := range s.attaches {
		if !t.After(now) {
			return true
		}
	}
	return false
}

// registerNodeVolumes is the volume part of each kubelet's registration,
// as the harness's kubelet does it: the controller-managed-attach-detach
// annotation on the Node (the default enableControllerAttachDetach) and
// a CSINode listing the modelled CSI drivers (topology key
// topology.kubernetes.io/zone when the node has that label). It runs
// once the cluster holds a storage object (before, nothing reads them).
func (m *Machine) registerNodeVolumes() error {
	s := &m.storage
	drivers := m.csiDrivers()
	for _, o := range m.store.list("Node") {
		n := o.(*api.Node)
		if s.registered[n.Name] || m.kubelets[n.Name] == nil || m.kubelets[n.Name].silent {
			continue
		}
		s.registered[n.Name] = true
		if n.Annotations[api.AnnControllerManagedAttachDetach] != "true" {
			c, err := clone(n)
			if err != nil {
				return err
			}
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations[api.AnnControllerManagedAttachDetach] = "true"
			if _, err := m.store.update(c); err != nil {
				return err
			}
		}
		if m.store.get("CSINode", n.Name) != nil {
			continue
		}
		cn := &api.CSINode{TypeMeta: api.TypeMeta{Kind: "CSINode", APIVersion: "storage.k8s.io/v1"}, ObjectMeta: api.ObjectMeta{Name: n.Name,
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: n.Name, UID: n.UID}}}}
		cn.Spec.Drivers = []api.CSINodeDriver{}
		for _, d := range drivers {
			dr := api.CSINodeDriver{Name: d, NodeID: n.Name}
			if _, ok := n.Labels[api.LabelTopologyZone]; ok {
				dr.TopologyKeys = []string{api.LabelTopologyZone}
			}
			cn.Spec.Drivers = append(cn.Spec.Drivers, dr)
		}
		if _, err := m.store.create(cn, m.now); err != nil && !errors.Is(err, errAlreadyExists) {
			return err
		}
	}
	return nil
}

// csiDrivers are the drivers the volume model stands in for: the
// provisioners outside kubernetes.io/ of the StorageClasses among the
// objects the cluster started with, sorted — as the harness's model
// takes them from the scenario's objects. A StorageClass applied later
// whose provisioner is none of them names a driver that is not
// installed: its claims are never provisioned (a PreBind waiting for
// them times out).
func (m *Machine) csiDrivers() []string { return m.drivers }

// modelDrivers returns the csiDrivers of objects.
func modelDrivers(objects []api.Object) []string {
	var out []string
	for _, o := range objects {
		sc, ok := o.(*api.StorageClass)
		if !ok {
			continue
		}
		if p := sc.Provisioner; p != "" && !strings.HasPrefix(p, "kubernetes.io/") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
