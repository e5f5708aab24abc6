package volume_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/volume"
)

// The stories of this package's two machines, in testdata/<machine>/.
// Times are elapsed from storyT0.

var storyT0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

func TestStories(t *testing.T) {
	story.Run(t, "testdata/attachdetach/*.txt", func() story.Adapter { return newAttachStory() })
	story.Run(t, "testdata/binder/*.txt", func() story.Adapter { return newBinderStory() })
}

func renderEvent(e api.Event) string {
	r := e.Regarding
	obj := r.Name
	if r.Namespace != "" {
		obj = r.Namespace + "/" + r.Name
	}
	return e.Type + " " + e.Reason + " " + obj + ": " + e.Note
}

// --- AttachDetachController ---

// attachStory drives an AttachDetachController and plays the API server
// and a CSI driver's external-attacher, which marks each new
// VolumeAttachment attached at once; after each input the controller
// runs until it asks for nothing more (each run a reconciler pass).
//
//	node NAME                           a Ready node the controller manages
//	volume PV CLAIM RWO|RWX             a bound claim of a CSI volume
//	at D Run POD NODE CLAIM             a running pod on NODE uses CLAIM
//	at D Delete POD                     the pod is being deleted, still running
//	at D Terminate POD                  the pod's containers have exited (Failed)
//	at D Gone POD                       the pod object is removed
//	at D NotReady NODE / Ready NODE     the node's Ready condition
//	at D Mount NODE PV / Unmount NODE PV  the kubelet reports the volume in use
//	at D OutOfService NODE              the out-of-service taint is added
//	at D DeleteNode NODE                the Node object is deleted
//	at D Tick                           a reconciler pass
type attachStory struct {
	c *volume.AttachDetachController
	w volume.World
}

func newAttachStory() *attachStory {
	return &attachStory{c: volume.NewAttachDetachController(volume.AttachDetachConfig{})}
}

func (s *attachStory) Block(string) bool { return false }
func (s *attachStory) Tick() string      { return "Tick" }

func (s *attachStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(storyT0), true
}

func (s *attachStory) node(name string) *api.Node {
	for _, n := range s.w.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

func (s *attachStory) pod(name string) (int, *api.Pod) {
	for i, p := range s.w.Pods {
		if p.Name == name {
			return i, p
		}
	}
	return -1, nil
}

func (s *attachStory) Directive(cmd string, args []string, _ string) error {
	switch cmd {
	case "node":
		if len(args) != 1 {
			return fmt.Errorf("want node NAME")
		}
		s.w.Nodes = append(s.w.Nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: args[0],
			Annotations: map[string]string{api.AnnControllerManagedAttachDetach: "true"}},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}})
	case "volume":
		if len(args) != 3 {
			return fmt.Errorf("want volume PV CLAIM RWO|RWX")
		}
		mode := api.ReadWriteOnce
		if args[2] == "RWX" {
			mode = api.ReadWriteMany
		}
		s.w.Volumes = append(s.w.Volumes, &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: args[0]},
			Spec: api.PersistentVolumeSpec{AccessModes: []api.PersistentVolumeAccessMode{mode},
				PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "csi.example.com", VolumeHandle: args[0]}}}})
		s.w.Claims = append(s.w.Claims, &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: args[1], Namespace: "default"},
			Spec: api.PersistentVolumeClaimSpec{VolumeName: args[0]}, Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}})
	default:
		return fmt.Errorf("unknown directive %q", cmd)
	}
	return nil
}

func (s *attachStory) setNode(name string, f func(n *api.Node)) error {
	for i, n := range s.w.Nodes {
		if n.Name == name {
			c := *n
			c.Status.Conditions = slices.Clone(n.Status.Conditions)
			c.Status.VolumesInUse = slices.Clone(n.Status.VolumesInUse)
			c.Spec.Taints = slices.Clone(n.Spec.Taints)
			f(&c)
			s.w.Nodes[i] = &c
			return nil
		}
	}
	return fmt.Errorf("no node %q", name)
}

func (s *attachStory) Step(at time.Duration, input string) ([]string, error) {
	f := strings.Fields(input)
	now := storyT0.Add(at)
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	switch f[0] {
	case "Tick":
	case "Run":
		if len(f) != 4 {
			return nil, fmt.Errorf("want Run POD NODE CLAIM")
		}
		s.w.Pods = append(s.w.Pods, &api.Pod{ObjectMeta: api.ObjectMeta{Name: f[1], Namespace: "default"},
			Spec: api.PodSpec{NodeName: f[2], Volumes: []api.Volume{{Name: "data",
				VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: f[3]}}}}},
			Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{Name: "c",
				State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}}})
	case "Delete", "Terminate", "Gone":
		i, p := s.pod(arg(1))
		if p == nil {
			return nil, fmt.Errorf("no pod %q", arg(1))
		}
		c := *p
		switch f[0] {
		case "Delete":
			c.DeletionTimestamp = api.NewTimePtr(now)
			s.w.Pods[i] = &c
		case "Terminate":
			c.Status.Phase = api.PodFailed
			c.Status.ContainerStatuses = []api.ContainerStatus{{Name: "c", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 143}}}}
			s.w.Pods[i] = &c
		default:
			s.w.Pods = slices.Delete(s.w.Pods, i, i+1)
		}
	case "NotReady", "Ready":
		status := api.ConditionTrue
		if f[0] == "NotReady" {
			status = api.ConditionUnknown
		}
		if err := s.setNode(arg(1), func(n *api.Node) { n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: status}} }); err != nil {
			return nil, err
		}
	case "Mount", "Unmount":
		uv := "kubernetes.io/csi/csi.example.com^" + arg(2)
		if err := s.setNode(arg(1), func(n *api.Node) {
			n.Status.VolumesInUse = slices.DeleteFunc(n.Status.VolumesInUse, func(v string) bool { return v == uv })
			if f[0] == "Mount" {
				n.Status.VolumesInUse = append(n.Status.VolumesInUse, uv)
			}
		}); err != nil {
			return nil, err
		}
	case "OutOfService":
		if err := s.setNode(arg(1), func(n *api.Node) {
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute})
		}); err != nil {
			return nil, err
		}
	case "DeleteNode":
		s.w.Nodes = slices.DeleteFunc(s.w.Nodes, func(n *api.Node) bool { return n.Name == arg(1) })
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	var ans []string
	for round := 0; round < 10; round++ {
		out, err := s.c.Step(s.w, now)
		if err != nil {
			return nil, err
		}
		for _, d := range out.Detach {
			ans = append(ans, d.String())
			s.w.Attachments = slices.DeleteFunc(s.w.Attachments, func(va *api.VolumeAttachment) bool { return va.Name == d.Name })
		}
		for _, va := range out.Attach {
			ans = append(ans, "Attach("+va.PersistentVolumeName()+" to "+va.Spec.NodeName+")")
			c := *va
			c.Status.Attached = true // the external-attacher
			s.w.Attachments = append(s.w.Attachments, &c)
		}
		for _, e := range out.Events {
			ans = append(ans, renderEvent(e))
		}
		for _, r := range out.Reported {
			var names []string
			for _, v := range r.Attached {
				names = append(names, strings.TrimPrefix(v.Name, "kubernetes.io/csi/csi.example.com^"))
			}
			ans = append(ans, fmt.Sprintf("VolumesAttached(%s: %s)", r.Node, strings.Join(names, ", ")))
			// (A deleted node's write finds no node: the API server refuses it.)
			_ = s.setNode(r.Node, func(n *api.Node) { n.Status.VolumesAttached = r.Attached })
		}
		if len(out.Attach) == 0 && len(out.Detach) == 0 && len(out.Events) == 0 && len(out.Reported) == 0 {
			break
		}
	}
	if d := s.c.NextDeadline(); !d.IsZero() {
		ans = append(ans, "next "+story.Format(d.Sub(storyT0)))
	}
	return ans, nil
}

// --- PersistentVolumeController ---

// binderStory drives a PersistentVolumeController and plays the API
// server (each write is stored) and an external provisioner on demand.
//
//	class NAME PROVISIONER Immediate|WaitForFirstConsumer [Delete|Retain] [default]
//	volume NAME SIZE CLASS [MODES]     a volume (MODES: RWO, RWO+RWX, ...; RWO by default)
//	claim NAME SIZE CLASS              a new claim (RWO; CLASS -: none, "": the empty one)
//	pod NAME CLAIM                     an unscheduled pod using the claim
//	at D Sync                          informer events for every object changed since the last input
//	at D Tick                          the resync
//	at D Select CLAIM NODE             kube-scheduler's selected-node annotation
//	at D Provision CLAIM               the external provisioner creates pvc-<claim>
//	at D DeleteClaim CLAIM             the claim is deleted
//
// Each input answers with the controller's writes (the claim's or
// volume's summary after it) and events.
type binderStory struct {
	c       *volume.PersistentVolumeController
	objs    volume.Objects
	claims  []string
	volumes []string
}

func newBinderStory() *binderStory {
	return &binderStory{c: volume.NewPersistentVolumeController(volume.BinderConfig{})}
}

func (s *binderStory) Block(string) bool { return false }
func (s *binderStory) Tick() string      { return "Tick" }

func (s *binderStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(storyT0), true
}

func (s *binderStory) Directive(cmd string, args []string, _ string) error {
	need := func(n int, usage string) error {
		if len(args) < n {
			return fmt.Errorf("want %s", usage)
		}
		return nil
	}
	switch cmd {
	case "class":
		if err := need(3, "class NAME PROVISIONER MODE [POLICY]"); err != nil {
			return err
		}
		mode := api.VolumeBindingMode(args[2])
		c := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: args[0]}, Provisioner: args[1], VolumeBindingMode: &mode}
		for _, a := range args[3:] {
			if a == "default" {
				c.Annotations = map[string]string{api.AnnIsDefaultStorageClass: "true"}
				continue
			}
			p := api.PersistentVolumeReclaimPolicy(a)
			c.ReclaimPolicy = &p
		}
		api.DefaultStorageClass(c)
		s.objs.Classes = append(s.objs.Classes, c)
	case "volume":
		if err := need(3, "volume NAME SIZE CLASS [RWO|RWX]"); err != nil {
			return err
		}
		modes := []api.PersistentVolumeAccessMode{api.ReadWriteOnce}
		if len(args) > 3 {
			modes = nil
			for _, m := range strings.Split(args[3], "+") {
				full, ok := map[string]api.PersistentVolumeAccessMode{"RWO": api.ReadWriteOnce, "ROX": api.ReadOnlyMany, "RWX": api.ReadWriteMany}[m]
				if !ok {
					return fmt.Errorf("unknown access mode %q", m)
				}
				modes = append(modes, full)
			}
		}
		v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: args[0], UID: "uid-" + args[0]},
			Spec: api.PersistentVolumeSpec{Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(args[1])}, StorageClassName: args[2],
				AccessModes: modes}}
		api.DefaultPersistentVolume(v)
		s.objs.Volumes = append(s.objs.Volumes, v)
		s.volumes = append(s.volumes, v.Name)
	case "claim":
		if err := need(3, "claim NAME SIZE CLASS"); err != nil {
			return err
		}
		class := args[2]
		c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: args[0], Namespace: "default", UID: "uid-" + args[0]},
			Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}, StorageClassName: &class,
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(args[1])}}}}
		switch class {
		case "-":
			c.Spec.StorageClassName = nil
		case `""`:
			*c.Spec.StorageClassName = ""
		}
		api.DefaultPersistentVolumeClaim(c)
		s.objs.Claims = append(s.objs.Claims, c)
		s.claims = append(s.claims, "default/"+c.Name)
	case "pod":
		if err := need(2, "pod NAME CLAIM"); err != nil {
			return err
		}
		s.objs.Pods = append(s.objs.Pods, &api.Pod{ObjectMeta: api.ObjectMeta{Name: args[0], Namespace: "default"},
			Spec: api.PodSpec{Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: args[1]}}}}}})
	default:
		return fmt.Errorf("unknown directive %q", cmd)
	}
	return nil
}

func (s *binderStory) claim(name string) (int, *api.PersistentVolumeClaim) {
	for i, c := range s.objs.Claims {
		if c.Name == name {
			return i, c
		}
	}
	return -1, nil
}

func claimSummary(c *api.PersistentVolumeClaim) string {
	var ann []string
	for _, k := range []string{api.AnnBindCompleted, api.AnnBoundByController, api.AnnStorageProvisioner, api.AnnSelectedNode} {
		if v, ok := c.Annotations[k]; ok {
			ann = append(ann, k[strings.LastIndex(k, "/")+1:]+"="+v)
		}
	}
	cp := c.Status.Capacity[api.ResourceStorage]
	class := "-"
	if c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	}
	return fmt.Sprintf("claim %s class=%s phase=%s volume=%s capacity=%s [%s]", c.Name, class, c.Status.Phase, c.Spec.VolumeName, cp.String(), strings.Join(ann, " "))
}

func volumeSummary(v *api.PersistentVolume) string {
	ref := ""
	if v.Spec.ClaimRef != nil {
		ref = v.Spec.ClaimRef.Namespace + "/" + v.Spec.ClaimRef.Name
	}
	_, byCtrl := v.Annotations[api.AnnBoundByController]
	return fmt.Sprintf("volume %s phase=%s claim=%s bound-by-controller=%v", v.Name, v.Status.Phase, ref, byCtrl)
}

func (s *binderStory) Step(at time.Duration, input string) ([]string, error) {
	f := strings.Fields(input)
	now := storyT0.Add(at)
	switch f[0] {
	case "Sync", "Tick":
	case "Select":
		if len(f) != 3 {
			return nil, fmt.Errorf("want Select CLAIM NODE")
		}
		i, c := s.claim(f[1])
		if c == nil {
			return nil, fmt.Errorf("no claim %q", f[1])
		}
		n := *c
		n.Annotations = map[string]string{api.AnnSelectedNode: f[2]}
		for k, v := range c.Annotations {
			n.Annotations[k] = v
		}
		n.Annotations[api.AnnSelectedNode] = f[2]
		s.objs.Claims[i] = &n
		s.claims = append(s.claims, "default/"+c.Name)
	case "Provision":
		_, c := s.claim(f[1])
		if c == nil {
			return nil, fmt.Errorf("no claim %q", f[1])
		}
		name := "pvc-" + c.Name
		v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name,
			Annotations: map[string]string{api.AnnDynamicallyProvisioned: c.Annotations[api.AnnStorageProvisioner]}},
			Spec: api.PersistentVolumeSpec{Capacity: c.Spec.Resources.Requests, StorageClassName: c.ClassName(), AccessModes: c.Spec.AccessModes,
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimDelete,
				ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: c.Namespace, Name: c.Name, UID: c.UID}}}
		api.DefaultPersistentVolume(v)
		v.Spec.PersistentVolumeReclaimPolicy = api.PersistentVolumeReclaimDelete
		s.objs.Volumes = append(s.objs.Volumes, v)
		s.volumes = append(s.volumes, v.Name)
	case "DeleteClaim":
		i, c := s.claim(f[1])
		if c == nil {
			return nil, fmt.Errorf("no claim %q", f[1])
		}
		s.objs.Claims = slices.Delete(s.objs.Claims, i, i+1)
		if c.Spec.VolumeName != "" {
			s.volumes = append(s.volumes, c.Spec.VolumeName)
		}
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	in := volume.BinderInput{Objects: s.objs, Claims: s.claims, Volumes: s.volumes}
	if f[0] == "Tick" {
		in.Claims, in.Volumes = nil, nil
	}
	s.claims, s.volumes = nil, nil
	out, err := s.c.Step(in, now)
	if err != nil {
		return nil, err
	}
	var ans []string
	for _, sync := range out.Syncs {
		for _, w := range sync.Writes {
			if w.Claim != nil {
				i, _ := s.claim(w.Claim.Name)
				s.objs.Claims[i] = w.Claim
				s.claims = append(s.claims, "default/"+w.Claim.Name)
				ans = append(ans, w.String()+": "+claimSummary(w.Claim))
			} else {
				for i, v := range s.objs.Volumes {
					if v.Name == w.Volume.Name {
						s.objs.Volumes[i] = w.Volume
					}
				}
				s.volumes = append(s.volumes, w.Volume.Name)
				ans = append(ans, w.String()+": "+volumeSummary(w.Volume))
			}
		}
		for _, e := range sync.Events {
			ans = append(ans, renderEvent(e))
		}
		for _, k := range sync.SyncClaims {
			ans = append(ans, "queue claim "+k)
		}
	}
	return ans, nil
}
