package workloads

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/podsem/podsem/api"
)

// Keys the DaemonSet controller reads and writes (k8s.io/api/apps/v1 and
// extensions/v1beta1).
const (
	// AnnotationDaemonSetTemplateGeneration is the deprecated annotation
	// the API server keeps equal to a DaemonSet's template generation
	// (deprecated.daemonset.template.generation); the controller copies it
	// into each new pod's LabelPodTemplateGeneration.
	AnnotationDaemonSetTemplateGeneration = "deprecated.daemonset.template.generation"
	// LabelPodTemplateGeneration is the label holding the template
	// generation a daemon pod was created from (pod-template-generation).
	LabelPodTemplateGeneration = "pod-template-generation"
)

// DaemonSetBurstReplicas is the most pods one DaemonSet sync creates, and
// the most it deletes (pkg/controller/daemon BurstReplicas); the rest wait
// for a later sync.
const DaemonSetBurstReplicas = 250

// DaemonPlacementReason says why a DaemonSet's pod should not run, or not
// keep running, on a node.
type DaemonPlacementReason string

// The reasons NodeShouldRunDaemonPod gives.
const (
	// DaemonPlacementFits: the node should run the daemon pod.
	DaemonPlacementFits DaemonPlacementReason = ""
	// DaemonPlacementNodeName: the template's spec.nodeName names another
	// node.
	DaemonPlacementNodeName DaemonPlacementReason = "NodeName"
	// DaemonPlacementNodeAffinity: the node's labels do not satisfy the
	// template's nodeSelector or required node affinity.
	DaemonPlacementNodeAffinity DaemonPlacementReason = "NodeAffinity"
	// DaemonPlacementTaint: the node has a NoSchedule or NoExecute taint
	// the daemon pod does not tolerate (Taint names the first).
	DaemonPlacementTaint DaemonPlacementReason = "Taint"
)

// DaemonPlacement is the DaemonSet controller's verdict for one node
// (pkg/controller/daemon NodeShouldRunDaemonPod).
type DaemonPlacement struct {
	// ShouldRun: a daemon pod should be created here if there is none.
	ShouldRun bool
	// ShouldContinueRunning: a daemon pod already here may stay. True
	// whenever ShouldRun is; also when only NoSchedule taints are
	// untolerated.
	ShouldContinueRunning bool
	// Reason is why ShouldRun is false (DaemonPlacementFits when true).
	Reason DaemonPlacementReason
	// Taint is the first untolerated taint when Reason is
	// DaemonPlacementTaint: a NoExecute one if any, which is also why the
	// pod may not continue running.
	Taint *api.Taint
}

// NodeShouldRunDaemonPod answers, as kube-controller-manager's DaemonSet
// controller does (pkg/controller/daemon NodeShouldRunDaemonPod), whether
// node should run ds's pod and whether a daemon pod already there should
// keep running. The pod considered is the template with the tolerations
// the controller adds to every daemon pod (not-ready and unreachable
// NoExecute, disk-, memory- and pid-pressure and unschedulable NoSchedule,
// network-unavailable NoSchedule for hostNetwork pods):
//
//   - a template spec.nodeName naming another node, or a node whose labels
//     fail the template's nodeSelector or required node affinity, gives
//     neither (invalid affinity terms simply match nothing, as upstream
//     ignores their parse errors);
//   - an untolerated NoSchedule or NoExecute taint denies ShouldRun; the
//     pod may continue running unless one of them is NoExecute.
//
// PreferNoSchedule taints, spec.unschedulable and node conditions are not
// looked at: the automatic tolerations cover the taints the node
// lifecycle controller derives from them, except a not-ready or
// unreachable taint with effect NoSchedule. A nil node or DaemonSet is an
// error wrapping api.ErrInvalidInput.
func NodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (DaemonPlacement, error) {
	if ds == nil {
		return DaemonPlacement{}, fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	if node == nil {
		return DaemonPlacement{}, fmt.Errorf("%w: daemonset %s/%s: node: nil", errInvalidInput, ds.Namespace, ds.Name)
	}
	return newDaemonPlacer(ds).place(node), nil
}

// DaemonSetIgnoresNodeUpdate reports whether kube-controller-manager's
// DaemonSet controller ignores an update of a Node from old to cur
// (pkg/controller/daemon shouldIgnoreNodeUpdate): the labels and the
// taints are semantically unchanged, nil and empty alike. Nothing else of
// a node enters a daemon pod's placement, so a status update (a heartbeat,
// a condition) enqueues no DaemonSet. A nil node is an error wrapping
// api.ErrInvalidInput.
func DaemonSetIgnoresNodeUpdate(old, cur *api.Node) (bool, error) {
	if old == nil || cur == nil {
		return false, fmt.Errorf("%w: node update: node: nil", errInvalidInput)
	}
	return maps.Equal(old.Labels, cur.Labels) && api.TaintsEqual(old.Spec.Taints, cur.Spec.Taints), nil
}

// DaemonSetSyncsForNode reports whether the DaemonSet controller's
// node-update worker (pkg/controller/daemon syncNodeUpdate), run for node
// after the node was added or its labels or taints changed (see
// DaemonSetIgnoresNodeUpdate; a deleted node enqueues nothing), enqueues
// ds:
//
//   - ds should run a pod on the node and has none there;
//   - ds has a pod there that may not continue running (an untolerated
//     NoExecute taint, a label change its node affinity no longer
//     matches);
//   - ds has a pod there and its status counts misscheduled pods, so that
//     the count is recomputed.
//
// Otherwise, for example when only an untolerated NoSchedule taint was
// added under a running daemon pod, ds is not synced and its status keeps
// the node as desired until something else syncs it. podsOnNode are the
// pods bound to the node, terminating ones included; a pod is ds's when
// its controller reference is a DaemonSet of ds's name in ds's namespace
// (upstream groups them by that name, not by uid). A nil node or
// DaemonSet is an error wrapping api.ErrInvalidInput.
func DaemonSetSyncsForNode(node *api.Node, ds *api.DaemonSet, podsOnNode []*api.Pod) (bool, error) {
	pl, err := NodeShouldRunDaemonPod(node, ds)
	if err != nil {
		return false, err
	}
	scheduled := false
	for _, p := range podsOnNode {
		if p == nil || p.Namespace != ds.Namespace {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" && ref.Name == ds.Name {
			scheduled = true
			break
		}
	}
	return pl.ShouldRun && !scheduled || !pl.ShouldContinueRunning && scheduled || scheduled && ds.Status.NumberMisscheduled > 0, nil
}

// daemonPlacer is a DaemonSet's template compiled once for deciding many
// nodes: the tolerations of its pods, its nodeSelector and required node
// affinity.
type daemonPlacer struct {
	nodeName    string
	tolerations []api.Toleration
	// selector is the nodeSelector as pairs a node's labels must all
	// carry (empty without one); affinity the required node affinity,
	// nil without one.
	selector labelPairs
	affinity *api.NodeSelectorMatcher
}

func newDaemonPlacer(ds *api.DaemonSet) *daemonPlacer {
	spec := &ds.Spec.Template.Spec
	p := &daemonPlacer{
		nodeName:    spec.NodeName,
		tolerations: daemonPodTolerations(spec.Tolerations, spec.HostNetwork),
	}
	p.selector = newLabelPairs(spec.NodeSelector)
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		// Upstream ignores the parse errors: an invalid term never matches.
		p.affinity, _ = api.NewNodeSelectorMatcher(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return p
}

func (p *daemonPlacer) place(node *api.Node) DaemonPlacement {
	if p.nodeName != "" && p.nodeName != node.Name {
		return DaemonPlacement{Reason: DaemonPlacementNodeName}
	}
	if !p.selector.allIn(node.Labels) ||
		p.affinity != nil && !p.affinity.Match(node.Name, node.Labels) {
		return DaemonPlacement{Reason: DaemonPlacementNodeAffinity}
	}
	// The taint found is copied out only when there is one: taking the
	// address of the call's result itself would move it to the heap on
	// every node.
	if t, ok := api.FindUntoleratedTaint(node.Spec.Taints, p.tolerations, api.TaintEffectNoExecute); ok {
		return DaemonPlacement{Reason: DaemonPlacementTaint, Taint: taintPtr(t)}
	}
	if t, ok := api.FindUntoleratedTaint(node.Spec.Taints, p.tolerations, api.TaintEffectNoSchedule); ok {
		return DaemonPlacement{ShouldContinueRunning: true, Reason: DaemonPlacementTaint, Taint: taintPtr(t)}
	}
	return DaemonPlacement{ShouldRun: true, ShouldContinueRunning: true}
}

func taintPtr(t api.Taint) *api.Taint { return &t }

// daemonPodTolerations returns tols with the tolerations the DaemonSet
// controller gives every daemon pod (daemon/util
// AddOrUpdateDaemonPodTolerations), in upstream's order. Each is added as
// core/v1 helper AddOrUpdateTolerationInPodSpec adds it: an entry equal in
// key, operator, value and effect is replaced in place (losing its
// tolerationSeconds), otherwise the toleration is appended. An empty
// operator is not Exists, so such an entry stays beside the added one. tols
// is not modified.
func daemonPodTolerations(tols []api.Toleration, hostNetwork bool) []api.Toleration {
	out := make([]api.Toleration, len(tols), len(tols)+7)
	copy(out, tols)
	for _, k := range daemonTolerations {
		if k.key == api.TaintNodeNetworkUnavailable && !hostNetwork {
			continue
		}
		add := api.Toleration{Key: k.key, Operator: api.TolerationOpExists, Effect: k.effect}
		replaced := false
		for i := range out {
			t := &out[i]
			if t.Key == add.Key && t.Operator == add.Operator && t.Value == add.Value && t.Effect == add.Effect {
				*t = add
				replaced = true
			}
		}
		if !replaced {
			out = append(out, add)
		}
	}
	return out
}

// daemonTolerations are the automatic daemon pod tolerations in the order
// upstream adds them; network-unavailable only for hostNetwork pods.
var daemonTolerations = [...]struct {
	key    string
	effect api.TaintEffect
}{
	{api.TaintNodeNotReady, api.TaintEffectNoExecute},
	{api.TaintNodeUnreachable, api.TaintEffectNoExecute},
	{api.TaintNodeDiskPressure, api.TaintEffectNoSchedule},
	{api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule},
	{api.TaintNodePIDPressure, api.TaintEffectNoSchedule},
	{api.TaintNodeUnschedulable, api.TaintEffectNoSchedule},
	{api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule},
}

// daemonNodeAffinity returns affinity with its required node affinity
// replaced by the single term the DaemonSet controller pins a pod to its
// node with (daemon/util ReplaceDaemonSetPodNodeNameNodeAffinity):
// matchFields metadata.name In [nodeName]. Every other required term is
// dropped; preferred terms and pod (anti-)affinity are kept. affinity is
// not modified: the parts on the way down are copied.
func daemonNodeAffinity(affinity *api.Affinity, nodeName string) *api.Affinity {
	required := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchFields: []api.NodeSelectorRequirement{{Key: api.NodeFieldName, Operator: api.NodeSelectorOpIn, Values: []string{nodeName}}},
	}}}
	out := &api.Affinity{}
	if affinity != nil {
		*out = *affinity
	}
	na := &api.NodeAffinity{}
	if out.NodeAffinity != nil {
		*na = *out.NodeAffinity
	}
	na.RequiredDuringSchedulingIgnoredDuringExecution = required
	out.NodeAffinity = na
	return out
}

// daemonPodTargetNode is the node a daemon pod belongs to (daemon/util
// GetTargetNodeName): its spec.nodeName once bound, else the value of the
// first matchFields metadata.name In requirement of its required node
// affinity, which must have exactly one value. ok is false when neither
// names a node; the controller then ignores the pod.
func daemonPodTargetNode(pod *api.Pod) (string, bool) {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName, true
	}
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return "", false
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, r := range term.MatchFields {
			if r.Key == api.NodeFieldName && r.Operator == api.NodeSelectorOpIn {
				if len(r.Values) != 1 {
					return "", false
				}
				return r.Values[0], true
			}
		}
	}
	return "", false
}

// daemonSetTemplateGeneration is daemon/util GetTemplateGeneration: the
// deprecated generation annotation as an integer; ok is false when it is
// absent or does not parse (the controller then writes no
// pod-template-generation label and counts no pod updated by it).
func daemonSetTemplateGeneration(ds *api.DaemonSet) (gen int64, ok bool) {
	v, found := ds.Annotations[AnnotationDaemonSetTemplateGeneration]
	if !found {
		return 0, false
	}
	g, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	return g, true
}

// DaemonSetRevisionHash is the hash the DaemonSet controller gives a new
// ControllerRevision of ds's current template (pkg/controller/daemon
// snapshot: controller.ComputeHash of spec.template and
// status.collisionCount): the suffix of its name and its
// controller-revision-hash label, which the pods made from it carry. It
// is DefaultPodTemplateHash, upstream's hash, so the value a real cluster
// computes for the defaulted DaemonSet, and changes exactly when the
// template or the collision count does. A nil DaemonSet is an error
// wrapping api.ErrInvalidInput.
func DaemonSetRevisionHash(ds *api.DaemonSet) (string, error) {
	if ds == nil {
		return "", fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	return DefaultPodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount), nil
}

// NewDaemonPod is the pod kube-controller-manager's DaemonSet controller
// sends to the API server's create for ds's daemon pod on node nodeName
// (pkg/controller/daemon syncNodes: daemon/util CreatePodTemplate,
// ReplaceDaemonSetPodNodeNameNodeAffinity, then RealPodControl.CreatePods):
//
//   - generateName "<ds>-", no name and no namespace (the namespace is the
//     request's), and ds's controller reference (apps/v1 DaemonSet,
//     controller and blockOwnerDeletion true);
//   - the template's labels plus pod-template-generation (the
//     deprecated.daemonset.template.generation annotation, when it parses
//     as an integer) and controller-revision-hash = revisionHash (when
//     not empty); its annotations and finalizers;
//   - the template's spec with the automatic daemon tolerations added
//     (see NodeShouldRunDaemonPod) and its required node affinity
//     replaced by the one term matchFields metadata.name In [nodeName].
//     The pod is not bound: spec.nodeName stays as the template has it,
//     and the scheduler places the pod by that term.
//
// Nothing of the pod aliases ds. A nil DaemonSet is an error wrapping
// api.ErrInvalidInput; so is a template that would give the pod no labels
// at all ("unable to create pods, no labels"), as upstream refuses it.
func NewDaemonPod(ds *api.DaemonSet, nodeName, revisionHash string) (*api.Pod, error) {
	if ds == nil {
		return nil, fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	tmpl := daemonPodTemplate(ds, revisionHash)
	return newDaemonPodFrom(ds, &tmpl, nodeName)
}

// daemonPodTemplate is daemon/util CreatePodTemplate: ds's template with
// the daemon tolerations and the generation and revision labels. Only the
// labels and tolerations are new; the rest is shared with ds until
// newDaemonPodFrom copies it.
func daemonPodTemplate(ds *api.DaemonSet, revisionHash string) api.PodTemplateSpec {
	tmpl := ds.Spec.Template
	tmpl.Spec.Tolerations = daemonPodTolerations(tmpl.Spec.Tolerations, tmpl.Spec.HostNetwork)
	labels := make(map[string]string, len(tmpl.Labels)+2)
	for k, v := range tmpl.Labels {
		labels[k] = v
	}
	if gen, ok := daemonSetTemplateGeneration(ds); ok {
		labels[LabelPodTemplateGeneration] = strconv.FormatInt(gen, 10)
	}
	if revisionHash != "" {
		labels[api.LabelControllerRevisionHash] = revisionHash
	}
	tmpl.Labels = labels
	return tmpl
}

// newDaemonPodFrom pins tmpl (a daemonPodTemplate) to nodeName and builds
// the pod RealPodControl.CreatePods sends.
func newDaemonPodFrom(ds *api.DaemonSet, tmpl *api.PodTemplateSpec, nodeName string) (*api.Pod, error) {
	t := *tmpl
	t.Spec.Affinity = daemonNodeAffinity(tmpl.Spec.Affinity, nodeName)
	ref := NewControllerRef(&ds.ObjectMeta, "apps/v1", "DaemonSet")
	return CreatePodFromTemplate(&t, ds.Name, "", &ref)
}
