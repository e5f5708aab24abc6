package disruption

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// Controllers holds the workload objects the disruption controller can read
// a desired scale from when a budget is a percentage or uses maxUnavailable.
// The disruption controller consults, in this order, ReplicationControllers,
// Deployments (through the ReplicaSet a pod names), ReplicaSets not owned by
// a Deployment, StatefulSets, and finally the generic scale subresource of
// any other kind (Scales). A controller that is absent from these lists
// does not exist. The zero value holds no controllers.
type Controllers struct {
	ReplicationControllers []*api.ReplicationController
	ReplicaSets            []*api.ReplicaSet
	Deployments            []*api.Deployment
	StatefulSets           []*api.StatefulSet
	// Scales are objects of other kinds that implement the scale
	// subresource (custom resources, for example), as the disruption
	// controller's scale client would read them.
	Scales []Scale
}

// Scale is what the scale subresource reports for one object of a kind the
// disruption controller has no lister for (autoscaling/v1 Scale).
type Scale struct {
	// APIVersion and Kind identify the object's type, as an owner
	// reference names it ("example.com/v1", "Widget").
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        string
	// Replicas is the desired scale (spec.replicas of the Scale).
	Replicas int32
}

// ControllerScale is one controller the disruption controller counted
// towards expectedPods, and the scale it contributed.
type ControllerScale struct {
	Kind     string
	Name     string
	UID      string
	Replicas int32
}

// controllerIndex looks controllers up by namespace and name, built once
// per evaluation and only when a budget needs scales.
type controllerIndex struct {
	rcs    map[nsName]*api.ReplicationController
	rss    map[nsName]*api.ReplicaSet
	deps   map[nsName]*api.Deployment
	sets   map[nsName]*api.StatefulSet
	scales map[scaleKey]*Scale
	// scaleKinds are group/kind pairs known to implement the scale
	// subresource because a Scale entry of that kind exists.
	scaleKinds map[groupKind]bool
}

type nsName struct{ ns, name string }

type groupKind struct{ group, kind string }

type scaleKey struct {
	gk groupKind
	nsName
}

func newControllerIndex(c *Controllers) *controllerIndex {
	ix := &controllerIndex{
		rcs:        make(map[nsName]*api.ReplicationController, len(c.ReplicationControllers)),
		rss:        make(map[nsName]*api.ReplicaSet, len(c.ReplicaSets)),
		deps:       make(map[nsName]*api.Deployment, len(c.Deployments)),
		sets:       make(map[nsName]*api.StatefulSet, len(c.StatefulSets)),
		scales:     make(map[scaleKey]*Scale, len(c.Scales)),
		scaleKinds: map[groupKind]bool{},
	}
	for _, o := range c.ReplicationControllers {
		if o != nil {
			ix.rcs[nsName{o.Namespace, o.Name}] = o
		}
	}
	for _, o := range c.ReplicaSets {
		if o != nil {
			ix.rss[nsName{o.Namespace, o.Name}] = o
		}
	}
	for _, o := range c.Deployments {
		if o != nil {
			ix.deps[nsName{o.Namespace, o.Name}] = o
		}
	}
	for _, o := range c.StatefulSets {
		if o != nil {
			ix.sets[nsName{o.Namespace, o.Name}] = o
		}
	}
	for i := range c.Scales {
		s := &c.Scales[i]
		g, _, err := parseGroupVersion(s.APIVersion)
		if err != nil {
			continue
		}
		gk := groupKind{g, s.Kind}
		ix.scales[scaleKey{gk, nsName{s.Namespace, s.Name}}] = s
		ix.scaleKinds[gk] = true
	}
	return ix
}

// parseGroupVersion splits an apiVersion the way apimachinery's
// schema.ParseGroupVersion does: "" is the empty group version, "v1" is
// the core group, "group/version" names both, anything with more slashes
// is an error.
func parseGroupVersion(gv string) (group, version string, err error) {
	if gv == "" || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], nil
	default:
		return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
	}
}

// isKind reports whether ref names kind in one of groups; a malformed
// apiVersion is an error, as in the disruption controller's verifyGroupKind.
func isKind(ref *api.OwnerReference, kind string, groups ...string) (bool, error) {
	g, _, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, err
	}
	if ref.Kind != kind {
		return false, nil
	}
	for _, want := range groups {
		if g == want {
			return true, nil
		}
	}
	return false, nil
}

func replicas(p *int32) int32 {
	// The API server defaults spec.replicas to 1 for every workload kind.
	if p == nil {
		return 1
	}
	return *p
}

// find resolves one pod's controller reference to a controller and its
// scale, trying the finders in the disruption controller's order. A nil
// result with a nil error means no finder recognised the controller.
func (ix *controllerIndex) find(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	for _, f := range [...]func(*api.OwnerReference, string) (*ControllerScale, error){
		ix.findRC, ix.findDeployment, ix.findReplicaSet, ix.findStatefulSet, ix.findScale,
	} {
		cs, err := f(ref, ns)
		if err != nil || cs != nil {
			return cs, err
		}
	}
	return nil, nil
}

func (ix *controllerIndex) findRC(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	if ok, err := isKind(ref, "ReplicationController", ""); !ok || err != nil {
		return nil, err
	}
	rc := ix.rcs[nsName{ns, ref.Name}]
	if rc == nil || rc.UID != ref.UID {
		return nil, nil
	}
	return &ControllerScale{Kind: "ReplicationController", Name: rc.Name, UID: rc.UID, Replicas: replicas(rc.Spec.Replicas)}, nil
}

func (ix *controllerIndex) findDeployment(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	if ok, err := isKind(ref, "ReplicaSet", "apps", "extensions"); !ok || err != nil {
		return nil, err
	}
	rs := ix.rss[nsName{ns, ref.Name}]
	if rs == nil || rs.UID != ref.UID {
		return nil, nil
	}
	owner := rs.ControllerRef()
	if owner == nil {
		return nil, nil
	}
	if ok, err := isKind(owner, "Deployment", "apps", "extensions"); !ok || err != nil {
		return nil, err
	}
	d := ix.deps[nsName{rs.Namespace, owner.Name}]
	if d == nil || d.UID != owner.UID {
		return nil, nil
	}
	return &ControllerScale{Kind: "Deployment", Name: d.Name, UID: d.UID, Replicas: replicas(d.Spec.Replicas)}, nil
}

func (ix *controllerIndex) findReplicaSet(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	if ok, err := isKind(ref, "ReplicaSet", "apps", "extensions"); !ok || err != nil {
		return nil, err
	}
	rs := ix.rss[nsName{ns, ref.Name}]
	if rs == nil || rs.UID != ref.UID {
		return nil, nil
	}
	// A ReplicaSet run by a Deployment counts only through the Deployment,
	// even when that Deployment cannot be found.
	if owner := rs.ControllerRef(); owner != nil && owner.Kind == "Deployment" {
		return nil, nil
	}
	return &ControllerScale{Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Replicas: replicas(rs.Spec.Replicas)}, nil
}

func (ix *controllerIndex) findStatefulSet(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	if ok, err := isKind(ref, "StatefulSet", "apps"); !ok || err != nil {
		return nil, err
	}
	ss := ix.sets[nsName{ns, ref.Name}]
	if ss == nil || ss.UID != ref.UID {
		return nil, nil
	}
	return &ControllerScale{Kind: "StatefulSet", Name: ss.Name, UID: ss.UID, Replicas: replicas(ss.Spec.Replicas)}, nil
}

// builtinScalable are the built-in kinds that serve the scale subresource;
// builtinUnscalable are common kinds that do not, with their resource names
// for the error upstream gives.
var builtinScalable = map[groupKind]bool{
	{"", "ReplicationController"}: true,
	{"apps", "Deployment"}:        true,
	{"apps", "ReplicaSet"}:        true,
	{"apps", "StatefulSet"}:       true,
	{"extensions", "Deployment"}:  true,
	{"extensions", "ReplicaSet"}:  true,
}

var builtinUnscalable = map[groupKind]string{
	{"batch", "Job"}:            "jobs.batch",
	{"batch", "CronJob"}:        "cronjobs.batch",
	{"apps", "DaemonSet"}:       "daemonsets.apps",
	{"", "Pod"}:                 "pods",
	{"", "Node"}:                "nodes",
	{"extensions", "DaemonSet"}: "daemonsets.extensions",
}

// findScale is the last resort: the generic scale subresource. A kind that
// exists but has no scale subresource is an error (so the budget's sync
// fails); a scalable object that is missing or has another UID is not.
func (ix *controllerIndex) findScale(ref *api.OwnerReference, ns string) (*ControllerScale, error) {
	g, v, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, err
	}
	gk := groupKind{g, ref.Kind}
	if s := ix.scales[scaleKey{gk, nsName{ns, ref.Name}}]; s != nil {
		if s.UID != ref.UID {
			return nil, nil
		}
		return &ControllerScale{Kind: s.Kind, Name: s.Name, UID: s.UID, Replicas: s.Replicas}, nil
	}
	if builtinScalable[gk] || ix.scaleKinds[gk] {
		return nil, nil
	}
	if res, ok := builtinUnscalable[gk]; ok {
		return nil, fmt.Errorf("%s does not implement the scale subresource", res)
	}
	return nil, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, strings.TrimPrefix(g+"/"+v, "/"))
}
