package volume

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// DefaultSyncPeriod is kube-controller-manager's
// --pvclaimbinder-sync-period: the PersistentVolume controller resyncs
// every claim and volume this often.
const DefaultSyncPeriod = 15 * time.Second

// BinderConfig is the PersistentVolume controller's flags. The zero value
// is v1.36.3's defaults.
type BinderConfig struct {
	// SyncPeriod is --pvclaimbinder-sync-period (0: DefaultSyncPeriod).
	SyncPeriod time.Duration
}

// BinderInput is one input of PersistentVolumeController.Step: the
// objects its informers hold now, and the claims (namespace/name) and
// volumes (name) whose informer events arrived since the last step. A
// step with no keys is a tick.
type BinderInput struct {
	Objects Objects
	Claims  []string
	Volumes []string
}

// BinderOutput is what a step did: one Sync per claim or volume synced
// that wrote or recorded something, volumes first, each kind in key
// order.
type BinderOutput struct {
	Syncs []Sync
}

// PersistentVolumeController is kube-controller-manager's
// PersistentVolume controller (the persistentvolume-binder,
// pkg/controller/volume/persistentvolume) as a machine: it syncs each
// volume and claim its informers report (SyncVolume, SyncClaim), the
// claims a volume sync queues, and every claim and volume each
// --pvclaimbinder-sync-period (its informers' resync, the first at the
// first step). Within a step it sees its own writes, as the controller's
// own cache does. Make it with NewPersistentVolumeController; a nil one
// returns an error from Step and the zero time from NextDeadline.
type PersistentVolumeController struct {
	cfg  BinderConfig
	next time.Time
}

// NewPersistentVolumeController returns the controller with cfg (zero
// fields: upstream's defaults).
func NewPersistentVolumeController(cfg BinderConfig) *PersistentVolumeController {
	if cfg.SyncPeriod <= 0 {
		cfg.SyncPeriod = DefaultSyncPeriod
	}
	return &PersistentVolumeController{cfg: cfg}
}

// NextDeadline is the next resync.
func (c *PersistentVolumeController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}

// Step syncs the volumes then the claims of in (all of them at a resync),
// at now.
func (c *PersistentVolumeController) Step(in BinderInput, now time.Time) (BinderOutput, error) {
	if c == nil {
		return BinderOutput{}, fmt.Errorf("volume: %w: PersistentVolumeController: nil", api.ErrInvalidInput)
	}
	view := Objects{Claims: slices.Clone(in.Objects.Claims), Volumes: slices.Clone(in.Objects.Volumes), Classes: in.Objects.Classes, Pods: in.Objects.Pods}
	claims, volumes := map[string]bool{}, map[string]bool{}
	for _, k := range in.Claims {
		claims[k] = true
	}
	for _, k := range in.Volumes {
		volumes[k] = true
	}
	if c.next.IsZero() || !now.Before(c.next) {
		for _, cl := range view.Claims {
			if cl != nil {
				claims[claimKey(cl)] = true
			}
		}
		for _, v := range view.Volumes {
			if v != nil {
				volumes[v.Name] = true
			}
		}
		c.next = now.Add(c.cfg.SyncPeriod)
	}
	var out BinderOutput
	for _, name := range slices.Sorted(maps.Keys(volumes)) {
		i := slices.IndexFunc(view.Volumes, func(v *api.PersistentVolume) bool { return v != nil && v.Name == name })
		if i < 0 {
			continue
		}
		s, err := SyncVolume(view.Volumes[i], view, now)
		if err != nil {
			return out, err
		}
		for _, k := range s.SyncClaims {
			claims[k] = true
		}
		view.apply(s)
		if len(s.Writes) > 0 || len(s.Events) > 0 {
			out.Syncs = append(out.Syncs, s)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(claims)) {
		i := slices.IndexFunc(view.Claims, func(cl *api.PersistentVolumeClaim) bool { return cl != nil && claimKey(cl) == key })
		if i < 0 {
			continue
		}
		s, err := SyncClaim(view.Claims[i], view, now)
		if err != nil {
			// Upstream logs the error and retries the key later; the
			// next resync does.
			s.Writes, s.Events = nil, nil
		}
		view.apply(s)
		if len(s.Writes) > 0 || len(s.Events) > 0 {
			out.Syncs = append(out.Syncs, s)
		}
	}
	return out, nil
}

// apply puts a sync's written objects into the view.
func (o *Objects) apply(s Sync) {
	for _, w := range s.Writes {
		if w.Claim != nil {
			for i, c := range o.Claims {
				if c != nil && claimKey(c) == claimKey(w.Claim) {
					o.Claims[i] = w.Claim
				}
			}
		}
		if w.Volume != nil {
			for i, v := range o.Volumes {
				if v != nil && v.Name == w.Volume.Name {
					o.Volumes[i] = w.Volume
				}
			}
		}
	}
}

// AttachDetachConfig is the attach-detach controller's settings. The zero
// value is v1.36.3's.
type AttachDetachConfig struct {
	// MaxWaitForUnmount is how long a mounted volume of an unhealthy node
	// waits before a forced detach (0: DefaultMaxWaitForUnmount; upstream
	// hard-codes it).
	MaxWaitForUnmount time.Duration
	// DisableForceDetachOnTimeout is --disable-force-detach-on-timeout.
	DisableForceDetachOnTimeout bool
}

// AttachDetachOutput is what one reconciliation asks for: the
// VolumeAttachments to create (attach), the names of those to delete
// (detach, with the decision), and the events.
type AttachDetachOutput struct {
	Attach []*api.VolumeAttachment
	Detach []Detachment
	Events []api.Event
	// Reported are the writes of the controller's node status updater:
	// each node whose volumes reported as attached changed at this step,
	// with its status.volumesAttached now, by node name.
	Reported []NodeVolumes
}

// NodeVolumes is a node's status.volumesAttached as the attach-detach
// controller writes it: the volumes attached to the node whose detach has
// not started, sorted by unique name (upstream lists them in map order).
type NodeVolumes struct {
	Node     string
	Attached []api.AttachedVolume
}

// Detachment is one detach: the VolumeAttachment to delete and why.
type Detachment struct {
	Name     string
	Volume   string
	Node     string
	Decision DetachDecision
}

// String renders the detachment, e.g. "Detach(pvc-1 from node-2)".
func (d Detachment) String() string {
	return d.Decision.String() + "(" + d.Volume + " from " + d.Node + ")"
}

type attachState uint8

const (
	stateAttaching attachState = iota + 1
	stateAttached
	stateDetaching
)

// attachment is one entry of the actual state of the world.
type attachment struct {
	volume    string // unique name
	pv        *api.PersistentVolume
	node      string
	name      string // the VolumeAttachment's
	state     attachState
	requested time.Time // detach requested
	pods      []*api.Pod
}

// AttachDetachController is kube-controller-manager's attach-detach
// controller (pkg/controller/volume/attachdetach) for CSI volumes, as a
// machine: its desired state of the world is recomputed from the observed
// pods (DesiredState), its actual state of the world is its memory of the
// attachments it made (and, at the first step, of the attached
// VolumeAttachments it finds), and each step runs the reconciler: detaches
// first (DecideDetach: a volume nothing needs on a node is detached,
// after maxWaitForUnmountDuration if it is still mounted on an unhealthy
// node, at once with the out-of-service taint), then attaches — a
// ReadWriteOnce volume attached (or being attached or detached) elsewhere
// is not attached, and the first time a pod's volume meets it the pods
// get the Warning FailedAttachVolume "Multi-Attach error for volume ..."
// (MultiAttachMessage). An attach creates the VolumeAttachment
// (VolumeAttachmentName) and completes when its status says attached
// (SuccessfulAttachVolume on the pods); a detach deletes it and completes
// when it is gone. Nodes count once they carry the
// controller-managed-attach-detach annotation, and stay while pods
// scheduled there still need their volumes after the Node is deleted;
// the volumes a node reports in use are those of its last observed
// status (a deleted Node's last report stands, as upstream's
// processVolumesInUse keeps it).
//
// Its node status updater writes each node's status.volumesAttached: a
// volume is reported once its attach completed, and no longer from the
// moment its detach starts (Reported).
//
// Not modelled: in-tree volume plugins and CSI migration, attach and
// detach errors with their exponential back-off, the 1-minute
// VerifyVolumesAreAttached sync. Make it with NewAttachDetachController;
// a nil one returns an error from Step and the zero time from
// NextDeadline.
type AttachDetachController struct {
	cfg      AttachDetachConfig
	started  bool
	managed  map[string]bool
	asw      map[string]*attachment // by volume + "\x00" + node
	reported map[string]bool
	inUse    map[string][]string // each node's volumesInUse, as last observed
	// attachedReport is each node's volumesAttached as last written.
	attachedReport map[string][]string
	next           time.Time
}

// NewAttachDetachController returns the controller with cfg.
func NewAttachDetachController(cfg AttachDetachConfig) *AttachDetachController {
	if cfg.MaxWaitForUnmount <= 0 {
		cfg.MaxWaitForUnmount = DefaultMaxWaitForUnmount
	}
	return &AttachDetachController{cfg: cfg, managed: map[string]bool{}, asw: map[string]*attachment{}, reported: map[string]bool{},
		inUse: map[string][]string{}, attachedReport: map[string][]string{}}
}

// NextDeadline is the earliest time a mounted volume's forced detach may
// come due (its detach request plus maxWaitForUnmountDuration plus one
// reconciler period); zero when none waits.
func (c *AttachDetachController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}

// Attached returns the nodes the controller holds volume (a unique
// volume name) attached or attaching to, sorted. A nil controller holds
// none.
func (c *AttachDetachController) Attached(volume string) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, a := range c.asw {
		if a.volume == volume && a.state != stateDetaching {
			out = append(out, a.node)
		}
	}
	slices.Sort(out)
	return out
}

func aswKey(volume, node string) string { return volume + "\x00" + node }

// Step reconciles the world w at now.
func (c *AttachDetachController) Step(w World, now time.Time) (AttachDetachOutput, error) {
	if c == nil {
		return AttachDetachOutput{}, fmt.Errorf("volume: %w: AttachDetachController: nil", api.ErrInvalidInput)
	}
	var out AttachDetachOutput
	nodes := map[string]*api.Node{}
	for _, n := range w.Nodes {
		if n != nil {
			nodes[n.Name] = n
		}
	}
	pvs := map[string]*api.PersistentVolume{}
	for _, v := range w.Volumes {
		if v != nil {
			pvs[v.Name] = v
		}
	}
	vas := map[string]*api.VolumeAttachment{}
	for _, va := range w.Attachments {
		if va != nil {
			vas[va.Name] = va
		}
	}
	// Managed nodes.
	podNodes := map[string]bool{}
	for _, p := range w.Pods {
		if p != nil {
			podNodes[p.Spec.NodeName] = true
		}
	}
	for name := range c.managed {
		if _, ok := nodes[name]; !ok && !podNodes[name] {
			delete(c.managed, name)
		}
	}
	for name, n := range nodes {
		c.inUse[name] = n.Status.VolumesInUse
		if managedNode(n) {
			c.managed[name] = true
		} else {
			delete(c.managed, name)
		}
	}
	// The actual state: adopted at start, then the operations' results.
	if !c.started {
		c.started = true
		for _, va := range w.Attachments {
			pv := pvs[va.PersistentVolumeName()]
			if va == nil || !va.Status.Attached || va.DeletionTimestamp != nil || pv == nil || UniqueVolumeName(pv) == "" {
				continue
			}
			uv := UniqueVolumeName(pv)
			c.asw[aswKey(uv, va.Spec.NodeName)] = &attachment{volume: uv, pv: pv, node: va.Spec.NodeName, name: va.Name, state: stateAttached}
		}
	}
	for _, k := range sortedAttachments(c.asw) {
		a := c.asw[k]
		va := vas[a.name]
		switch {
		case va == nil:
			delete(c.asw, k)
		case a.state == stateAttaching && va.Status.Attached:
			a.state = stateAttached
			for _, p := range a.pods {
				out.Events = append(out.Events, api.Event{Type: api.EventTypeNormal, Reason: ReasonSuccessfulAttachVolume,
					Note: AttachSucceededMessage(a.pv.Name), Regarding: api.PodReference(p), Source: AttachDetachName})
			}
		}
	}
	desired := DesiredState(w, c.managed)
	want := map[string]*Desired{}
	for i := range desired {
		want[aswKey(desired[i].Volume, desired[i].Node)] = &desired[i]
	}
	pending := func(volume, node string, multi bool) bool {
		for _, a := range c.asw {
			if a.volume == volume && (a.state == stateAttaching || a.state == stateDetaching) && (!multi || a.node == node) {
				return true
			}
		}
		return false
	}
	// Detaches first.
	c.next = time.Time{}
	for _, k := range sortedAttachments(c.asw) {
		a := c.asw[k]
		if a.state != stateAttached || want[k] != nil {
			continue
		}
		if pending(a.volume, a.node, MultiAttachAllowed(a.pv)) {
			continue
		}
		if a.requested.IsZero() {
			a.requested = now
		}
		n := nodes[a.node]
		mounted := slices.Contains(c.inUse[a.node], a.volume)
		d := DecideDetach(n, mounted, a.requested, now, c.cfg.MaxWaitForUnmount, c.cfg.DisableForceDetachOnTimeout)
		if d == DetachWait {
			// Only a node that is not healthy can time out; a change of
			// its health is an input.
			if !c.cfg.DisableForceDetachOnTimeout && !nodeReady(n) {
				c.next = api.EarliestDeadline(c.next, a.requested.Add(c.cfg.MaxWaitForUnmount+DefaultReconcilerLoopPeriod))
			}
			continue
		}
		a.state = stateDetaching
		out.Detach = append(out.Detach, Detachment{Name: a.name, Volume: a.pv.Name, Node: a.node, Decision: d})
	}
	// Then attaches.
	for _, d := range desired {
		k := aswKey(d.Volume, d.Node)
		multi := MultiAttachAllowed(d.PV)
		if pending(d.Volume, d.Node, multi) {
			continue
		}
		if a := c.asw[k]; a != nil && a.state == stateAttached {
			a.requested = time.Time{}
			continue
		}
		if !multi {
			var others []string
			for _, a := range c.asw {
				if a.volume == d.Volume && a.node != d.Node {
					others = append(others, a.node)
				}
			}
			if len(others) > 0 {
				if !c.reported[k] {
					c.reported[k] = true
					var users []*api.Pod
					for _, o := range desired {
						if o.Volume == d.Volume && slices.Contains(others, o.Node) {
							users = append(users, o.Pods...)
						}
					}
					for _, p := range d.Pods {
						out.Events = append(out.Events, api.Event{Type: api.EventTypeWarning, Reason: ReasonFailedAttachVolume,
							Note: MultiAttachMessage(p, d.PV.Name, users), Regarding: api.PodReference(p), Source: AttachDetachName})
					}
				}
				continue
			}
		}
		drv := d.PV.Spec.CSI.Driver
		name := VolumeAttachmentName(d.PV.Spec.CSI.VolumeHandle, drv, d.Node)
		pvName := d.PV.Name
		out.Attach = append(out.Attach, &api.VolumeAttachment{
			TypeMeta:   api.TypeMeta{Kind: "VolumeAttachment", APIVersion: "storage.k8s.io/v1"},
			ObjectMeta: api.ObjectMeta{Name: name},
			Spec:       api.VolumeAttachmentSpec{Attacher: drv, NodeName: d.Node, Source: api.VolumeAttachmentSource{PersistentVolumeName: &pvName}},
		})
		c.asw[k] = &attachment{volume: d.Volume, pv: d.PV, node: d.Node, name: name, state: stateAttaching, pods: d.Pods}
	}
	for k := range c.reported {
		if want[k] == nil {
			delete(c.reported, k)
		}
	}
	out.Reported = c.reportAttached()
	return out, nil
}

// reportAttached is the node status updater's pass: the nodes whose
// attached volumes (attach completed, detach not started) differ from
// their last report, with the volumes now.
func (c *AttachDetachController) reportAttached() []NodeVolumes {
	now := map[string][]string{}
	for _, a := range c.asw {
		if a.state == stateAttached {
			now[a.node] = append(now[a.node], a.volume)
		}
	}
	nodes := slices.Collect(maps.Keys(now))
	for n := range c.attachedReport {
		if _, ok := now[n]; !ok {
			nodes = append(nodes, n)
		}
	}
	slices.Sort(nodes)
	var out []NodeVolumes
	for _, n := range nodes {
		vols := now[n]
		slices.Sort(vols)
		if slices.Equal(vols, c.attachedReport[n]) {
			continue
		}
		nv := NodeVolumes{Node: n}
		for _, v := range vols {
			nv.Attached = append(nv.Attached, api.AttachedVolume{Name: v})
		}
		out = append(out, nv)
		if len(vols) == 0 {
			delete(c.attachedReport, n)
		} else {
			c.attachedReport[n] = vols
		}
	}
	return out
}

func sortedAttachments(m map[string]*attachment) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, strings.Compare)
	return out
}
