package scheduling

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// dynamicResourcesPlugin is DynamicResources (DRA), which v1.36.3's default
// profile runs as a filter and scorer (weight 2). The snapshot models no
// DRA objects (ResourceClaims, DeviceClasses, ResourceSlices), so only a
// pod without spec.resourceClaims is decided as upstream decides it: its
// PreFilter says Skip, and it scores every node 0. A pod that references
// claims is rejected on every node, its first claim being unknown here
// (UnschedulableAndUnresolvable, with the claim lister's NotFound text for
// the claim's name, or the pod claim's name for a template).
type dynamicResourcesPlugin struct {
	basePlugin
	pod *api.Pod
}

func newDynamicResourcesPlugin(p *PodInfo) dynamicResourcesPlugin {
	return dynamicResourcesPlugin{pod: p.pod}
}

func (pl *dynamicResourcesPlugin) name() string            { return PluginDynamicResources }
func (pl *dynamicResourcesPlugin) clone() cyclePlugin      { return pl }
func (pl *dynamicResourcesPlugin) filter(*nodeView) Status { return Status{} }

func (pl *dynamicResourcesPlugin) preFilter() Status {
	claims := pl.pod.Spec.ResourceClaims
	if len(claims) == 0 {
		return Status{Code: Skip}
	}
	name := claims[0].Name
	if claims[0].ResourceClaimName != nil {
		name = *claims[0].ResourceClaimName
	}
	return Status{Code: UnschedulableAndUnresolvable,
		Reasons: []string{fmt.Sprintf("resourceclaim.resource.k8s.io %q not found", name)}}
}

// preScore succeeds: a pod without claims is scored 0 everywhere, as
// upstream lists it.
func (pl *dynamicResourcesPlugin) preScore([]*NodeInfo) Status { return Status{} }

// nodeDeclaredFeaturesPlugin is NodeDeclaredFeatures (KEP-5328), which
// v1.36.3's default profile runs as a filter: a pod that needs node
// features newer than some nodes declare in status.declaredFeatures may
// only go to nodes declaring them. Its PreFilter infers the pod's needs
// from the features registered in component-helpers; the features of that
// registry concern updates of running pods (in-place resize) rather than
// the placement of new ones, so for a new pod the inference is empty and
// the PreFilter says Skip, as upstream's does for such pods.
type nodeDeclaredFeaturesPlugin struct{ basePlugin }

func (pl *nodeDeclaredFeaturesPlugin) name() string            { return PluginNodeDeclaredFeatures }
func (pl *nodeDeclaredFeaturesPlugin) clone() cyclePlugin      { return pl }
func (pl *nodeDeclaredFeaturesPlugin) filter(*nodeView) Status { return Status{} }
func (pl *nodeDeclaredFeaturesPlugin) preFilter() Status       { return Status{Code: Skip} }

// draNoClaims is DynamicResources' PostFilter answer for a pod without
// resource claims: Unschedulable, nothing to deallocate.
const draNoClaims = "no new claims to deallocate"

// draStateNotFound is DynamicResources' PostFilter answer when its
// PreFilter never ran in the cycle: the cycle state has no entry under the
// plugin's key, and reading it fails with the framework's ErrNotFound text.
const draStateNotFound = "not found"

// draStateMissing reports whether DynamicResources is in the cycle's
// profile but its PreFilter did not run: an earlier plugin's PreFilter
// rejected the pod as UnschedulableAndUnresolvable (or left no candidate
// node), which ends RunPreFilterPlugins before it. Its PostFilter then
// fails (draStateNotFound, an Error status), and RunPostFilterPlugins
// stops at that error: DefaultPreemption, which comes after it, does not
// run, and the scheduling cycle ends without nominating information, so
// the pod's nominatedNodeName is left as it is (schedulingCycle,
// handleSchedulingFailure's AddNominatedPod with ModeNoop).
func (cy *Cycle) draStateMissing() bool {
	if cy.rejectAll == nil {
		return false
	}
	for j, p := range cy.plugins {
		if p.name() == PluginDynamicResources {
			return j >= cy.preFilterN
		}
	}
	return false
}

// postFilterMessage is the message kube-scheduler appends to a pod's
// FitError from its PostFilter plugins (RunPostFilterPlugins): the
// default profile runs DynamicResources' PostFilter first, which for a pod
// without claims answers Unschedulable "no new claims to deallocate", and
// then the configured plugin r (nil: none). The first plugin that
// succeeds or fails for good decides alone; rejections join their reasons
// with ", ". So the FailedScheduling message reads "... no new claims to
// deallocate, preemption: 0/3 nodes are available: ..." when preemption
// finds no room, and ends at the FitError when it nominates a node. A pod
// with claims is rejected at DynamicResources' PreFilter (the snapshot
// models no claims), and only r's message is given.
func postFilterMessage(pod *api.Pod, r *PostFilterResult) string {
	if r != nil && r.Code != Unschedulable {
		return r.Message // success, UnschedulableAndUnresolvable or error: that plugin's status alone
	}
	var reasons []string
	if len(pod.Spec.ResourceClaims) == 0 {
		reasons = append(reasons, draNoClaims)
	}
	if r != nil && r.Message != "" {
		reasons = append(reasons, r.Message)
	}
	return strings.Join(reasons, ", ")
}
