package endpointslice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/podsem/podsem/api"
)

// The labels the EndpointSlice controller puts on every slice it writes
// (discovery/v1 and core/v1 well-known labels). A Service's own labels are
// copied to its slices, except these three, which the controller owns.
const (
	// LabelServiceName names the Service the slice belongs to.
	LabelServiceName = "kubernetes.io/service-name"
	// LabelManagedBy names the controller managing the slice.
	LabelManagedBy = "endpointslice.kubernetes.io/managed-by"
	// LabelHeadless marks the slices of a Service without a cluster IP
	// (clusterIP "None" or not set), with the empty value.
	LabelHeadless = "service.kubernetes.io/headless"
)

// ControllerName is the value of LabelManagedBy on the slices
// kube-controller-manager's EndpointSlice controller manages.
const ControllerName = "endpointslice-controller.k8s.io"

// MaxEndpointsPerSlice is how many endpoints the controller puts in one
// slice: kube-controller-manager's --max-endpoints-per-slice default.
const MaxEndpointsPerSlice = 100

// Slice is one EndpointSlice (discovery/v1) the controller writes for a
// Service: endpoints of one address type sharing one set of ports.
type Slice struct {
	// GenerateName is the name prefix: "<service>-", or the Service's name
	// alone when the dash would make it an invalid name. The API server
	// appends five random characters.
	GenerateName string            `json:"generateName"`
	AddressType  AddressType       `json:"addressType"`
	Ports        []Port            `json:"ports"`
	Endpoints    []Endpoint        `json:"endpoints"`
	Labels       map[string]string `json:"labels"`
}

// Port is one port of a slice (discovery/v1 EndpointPort): a Service port
// resolved on the slice's pods. Name, Protocol and AppProtocol are the
// Service port's; Port is the number the pods listen on.
type Port struct {
	Name        string       `json:"name"`
	Port        int32        `json:"port"`
	Protocol    api.Protocol `json:"protocol"`
	AppProtocol *string      `json:"appProtocol,omitempty"`
}

// Endpoint is one pod in a slice (discovery/v1 Endpoint).
type Endpoint struct {
	// Addresses are the pod's IPs of the slice's address type, sorted.
	Addresses  []string   `json:"addresses"`
	Conditions Conditions `json:"conditions"`
	// Hostname is the pod's spec.hostname when its spec.subdomain names
	// the Service (same namespace): the name DNS publishes for it.
	Hostname string `json:"hostname,omitempty"`
	NodeName string `json:"nodeName,omitempty"`
	// Zone is the topology.kubernetes.io/zone label of the pod's node.
	Zone string `json:"zone,omitempty"`
	// TargetRef is the pod the endpoint stands for: kind Pod, its
	// namespace, name and uid.
	TargetRef api.ObjectReference `json:"targetRef"`
}

// Conditions are an endpoint's conditions (discovery/v1
// EndpointConditions). The controller always sets all three.
type Conditions struct {
	// Ready: the endpoint should get new traffic. True when the pod is
	// ready and not terminating, or always with publishNotReadyAddresses.
	Ready *bool `json:"ready"`
	// Serving: the pod passes readiness (its Ready condition is True),
	// terminating or not.
	Serving *bool `json:"serving"`
	// Terminating: the pod is being deleted (deletionTimestamp set).
	Terminating *bool `json:"terminating"`
}

// Reason says why a pod is, or is not, an endpoint receiving traffic.
type Reason string

// The reasons, from the Service down to the pod.
const (
	// ReasonExternalName: an ExternalName Service gets no endpoints.
	ReasonExternalName Reason = "ExternalName"
	// ReasonNoSelector: a Service without a selector gets no slices from
	// the controller; its endpoints are written by someone else.
	ReasonNoSelector Reason = "NoSelector"
	// ReasonServiceDeleting: the Service is being deleted; the controller
	// creates no slices for it.
	ReasonServiceDeleting Reason = "ServiceDeleting"
	// ReasonOtherNamespace: the pod is not in the Service's namespace.
	ReasonOtherNamespace Reason = "OtherNamespace"
	// ReasonNotSelected: the pod's labels do not match the selector.
	ReasonNotSelected Reason = "NotSelected"
	// ReasonTerminal: the pod has succeeded or failed.
	ReasonTerminal Reason = "Terminal"
	// ReasonNoPodIP: the pod has no IP yet.
	ReasonNoPodIP Reason = "NoPodIP"
	// ReasonNoAddressOfFamily: none of the pod's IPs (status.podIPs) is of
	// an IP family the Service serves.
	ReasonNoAddressOfFamily Reason = "NoAddressOfFamily"
	// ReasonNodeNotFound: the pod's node is not known; the controller
	// leaves the pod out and retries the sync (unless the Service
	// publishes not-ready addresses, which keeps the pod, without zone).
	ReasonNodeNotFound Reason = "NodeNotFound"
	// ReasonNoPort: the Service declares ports and none of them resolves
	// on the pod; it is an endpoint without ports, which no proxy uses.
	ReasonNoPort Reason = "NoPort"
	// ReasonNotReady: an endpoint whose pod does not pass readiness.
	ReasonNotReady Reason = "NotReady"
	// ReasonTerminatingServing: a terminating pod still passing
	// readiness: serving, not ready; proxies use it only while the Service
	// has no ready endpoint.
	ReasonTerminatingServing Reason = "TerminatingServing"
	// ReasonTerminating: a terminating pod that no longer passes
	// readiness.
	ReasonTerminating Reason = "Terminating"
	// ReasonReady: a ready endpoint.
	ReasonReady Reason = "Ready"
	// ReasonPublishNotReady: an endpoint published as ready by the
	// Service's publishNotReadyAddresses, whatever its readiness.
	ReasonPublishNotReady Reason = "PublishNotReadyAddresses"
)

// Verdict is what the controller made of one pod handed to Endpoints.
type Verdict struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Endpoint reports whether the pod is an endpoint in some slice.
	Endpoint bool `json:"endpoint"`
	// Ready is its endpoint's ready condition: true for a ready endpoint
	// in some slice.
	Ready  bool   `json:"ready"`
	Reason Reason `json:"reason"`
	// Message says the same for a reader, with the pod's addresses and
	// ports, the selector or the node it concerns.
	Message string `json:"message"`
}

// ReceivesTraffic reports whether Service proxies (kube-proxy and its
// kin, which route to ready endpoints) send svc's traffic to pod, with the
// reason in one sentence. It is Endpoints' verdict on the pod, assuming
// its node is known: true for a ready endpoint with at least one port
// (or any endpoint of a Service without ports). A terminating pod that
// still passes readiness is serving but not ready: false, though proxies
// fall back to such endpoints while the Service has no ready one. A nil
// Service or pod is an error's answer: false, with the error's text.
func ReceivesTraffic(svc *api.Service, pod *api.Pod) (bool, string) {
	if pod == nil {
		return false, fmt.Errorf("%w: pod: nil", errInvalidInput).Error()
	}
	var nodes []*api.Node
	if pod.Spec.NodeName != "" {
		nodes = []*api.Node{{ObjectMeta: api.ObjectMeta{Name: pod.Spec.NodeName}}}
	}
	res, err := Endpoints(svc, []*api.Pod{pod}, nodes)
	if err != nil {
		return false, err.Error()
	}
	v := res.Pods[0]
	return v.Ready && (v.Reason == ReasonReady || v.Reason == ReasonPublishNotReady), v.Message
}

// Result is one sync of a Service by the EndpointSlice controller.
type Result struct {
	// Managed is false when the controller leaves the Service alone: an
	// ExternalName Service, or one without a selector.
	Managed bool `json:"managed"`
	// Slices are the slices the controller writes for the Service when it
	// has none yet, by address type (the Service's ipFamilies order), then
	// by port set in the order their first pod was given. Endpoints keep
	// the order of the pods. An address type without endpoints gets one
	// placeholder slice with no ports and no endpoints.
	Slices []Slice `json:"slices"`
	// Pods has one Verdict per non-nil pod given, in order.
	Pods []Verdict `json:"pods"`
	// Requeue reports that the sync failed for pods whose node is not
	// known (ReasonNodeNotFound): the slices are written without them and
	// the Service is synced again.
	Requeue bool `json:"requeue"`
}

// Endpoints computes the EndpointSlices kube-controller-manager's
// EndpointSlice controller (pkg/controller/endpointslice, with the
// reconciler of k8s.io/endpointslice) writes for svc, given every pod and
// node it knows: the pods of the Service's namespace its selector matches
// that are not terminal and have an IP, terminating ones included, each
// with its addresses of each of the Service's IP families, its conditions,
// hostname, node and zone, grouped by the ports that resolve on it (see
// FindPort) into slices of at most MaxEndpointsPerSlice. Topology hints and
// trafficDistribution are not modelled.
//
// A nil svc is an error wrapping api.ErrInvalidInput; nil pods and nodes
// are skipped.
func Endpoints(svc *api.Service, pods []*api.Pod, nodes []*api.Node) (Result, error) {
	if svc == nil {
		return Result{}, fmt.Errorf("%w: service: nil", errInvalidInput)
	}
	nodeByName := make(map[string]*api.Node, len(nodes))
	for _, n := range nodes {
		if n != nil {
			nodeByName[n.Name] = n
		}
	}
	res := Result{Managed: managedReason(svc) == ""}
	types := addressTypes(svc)
	labels := sliceLabels(svc)
	type group struct {
		ports     []Port
		endpoints []Endpoint
		index     map[string]int
	}
	groups := make([][]*group, len(types))
	selector := api.SelectorFromSet(svc.Spec.Selector)
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		v := Verdict{Namespace: pod.Namespace, Name: pod.Name}
		v.Reason = selectReason(svc, selector, pod)
		var addrs []string
		var ports []Port
		if v.Reason == "" {
			node, known := nodeByName[pod.Spec.NodeName]
			if !known && !svc.Spec.PublishNotReadyAddresses {
				v.Reason = ReasonNodeNotFound
				res.Requeue = true
			} else {
				ports = resolvePorts(svc, pod)
				for ti, t := range types {
					ep := podToEndpoint(svc, pod, node, t)
					if len(ep.Addresses) == 0 {
						continue
					}
					v.Endpoint = true
					addrs = append(addrs, ep.Addresses...)
					var g *group
					for _, cand := range groups[ti] {
						if slices.EqualFunc(cand.ports, ports, samePort) {
							g = cand
							break
						}
					}
					if g == nil {
						g = &group{ports: ports, index: map[string]int{}}
						groups[ti] = append(groups[ti], g)
					}
					// One endpoint per (addresses, hostname, pod): the
					// controller's endpoint set keeps the last one given.
					key := strings.Join(ep.Addresses, ",") + "|" + ep.Hostname + "|" + pod.Namespace + "/" + pod.Name
					if i, ok := g.index[key]; ok {
						g.endpoints[i] = ep
					} else {
						g.index[key] = len(g.endpoints)
						g.endpoints = append(g.endpoints, ep)
					}
				}
				v.Reason, v.Ready = endpointReason(svc, pod)
				if !v.Endpoint {
					v.Reason, v.Ready = ReasonNoAddressOfFamily, false
				} else if len(svc.Spec.Ports) > 0 && len(ports) == 0 {
					v.Reason = ReasonNoPort
				}
				if svc.DeletionTimestamp != nil {
					v.Reason, v.Endpoint, v.Ready = ReasonServiceDeleting, false, false
				}
			}
		}
		v.Message = message(svc, pod, types, v, addrs, ports)
		res.Pods = append(res.Pods, v)
	}
	if !res.Managed || svc.DeletionTimestamp != nil {
		return res, nil
	}
	prefix := GenerateName(svc.Name)
	for ti, t := range types {
		n := 0
		for _, g := range groups[ti] {
			for start := 0; start < len(g.endpoints); start += MaxEndpointsPerSlice {
				end := min(start+MaxEndpointsPerSlice, len(g.endpoints))
				res.Slices = append(res.Slices, Slice{GenerateName: prefix, AddressType: t, Ports: g.ports,
					Endpoints: g.endpoints[start:end:end], Labels: copyLabels(labels)})
				n++
			}
		}
		if n == 0 {
			res.Slices = append(res.Slices, Slice{GenerateName: prefix, AddressType: t, Ports: []Port{},
				Endpoints: []Endpoint{}, Labels: copyLabels(labels)})
		}
	}
	return res, nil
}

func samePort(a, b Port) bool {
	return a.Name == b.Name && a.Port == b.Port && a.Protocol == b.Protocol &&
		(a.AppProtocol == nil) == (b.AppProtocol == nil) && (a.AppProtocol == nil || *a.AppProtocol == *b.AppProtocol)
}

func copyLabels(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// managedReason says why the controller leaves svc alone, or "".
func managedReason(svc *api.Service) Reason {
	switch {
	case svc.Spec.Type == api.ServiceTypeExternalName:
		return ReasonExternalName
	case svc.Spec.Selector == nil:
		return ReasonNoSelector
	}
	return ""
}

// selectReason says why pod is not even considered for svc's endpoints
// (the Service is not managed, the pod is not selected, terminal or
// without an IP), or "" when it is.
func selectReason(svc *api.Service, selector api.Selector, pod *api.Pod) Reason {
	if r := managedReason(svc); r != "" {
		return r
	}
	if pod.Namespace != svc.Namespace {
		return ReasonOtherNamespace
	}
	if !selector.Matches(api.Set(pod.Labels)) {
		return ReasonNotSelected
	}
	if pod.Status.Phase.IsTerminal() {
		return ReasonTerminal
	}
	if pod.Status.PodIP == "" && len(pod.Status.PodIPs) == 0 {
		return ReasonNoPodIP
	}
	return ""
}

// endpointReason classifies an endpoint of pod by its conditions, and
// reports whether it is ready.
func endpointReason(svc *api.Service, pod *api.Pod) (Reason, bool) {
	serving, terminating := api.IsPodReady(pod), pod.DeletionTimestamp != nil
	switch {
	case svc.Spec.PublishNotReadyAddresses && !(serving && !terminating):
		return ReasonPublishNotReady, true
	case serving && !terminating:
		return ReasonReady, true
	case serving:
		return ReasonTerminatingServing, false
	case terminating:
		return ReasonTerminating, false
	}
	return ReasonNotReady, false
}

// podToEndpoint is the endpoint of pod in a slice of address type t
// (k8s.io/endpointslice podToEndpoint). node may be nil.
func podToEndpoint(svc *api.Service, pod *api.Pod, node *api.Node, t AddressType) Endpoint {
	serving, terminating := api.IsPodReady(pod), pod.DeletionTimestamp != nil
	// A terminating pod is never ready, unless the Service publishes
	// not-ready addresses.
	ready := svc.Spec.PublishNotReadyAddresses || (serving && !terminating)
	ep := Endpoint{
		Addresses:  []string{},
		Conditions: Conditions{Ready: &ready, Serving: &serving, Terminating: &terminating},
		NodeName:   pod.Spec.NodeName,
		TargetRef:  api.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
	}
	for _, ip := range pod.Status.PodIPs {
		a := parsePodIP(ip.IP)
		if a.v6 == (t == AddressTypeIPv6) {
			ep.Addresses = append(ep.Addresses, a.text)
		}
	}
	slices.Sort(ep.Addresses)
	if node != nil {
		ep.Zone = node.Labels[api.LabelTopologyZone]
	}
	if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && pod.Namespace == svc.Namespace {
		ep.Hostname = pod.Spec.Hostname
	}
	return ep
}

// addressTypes are the address types of svc's slices: one per IP family
// it lists; without ipFamilies (a Service from an API server that predates
// them), its cluster IP's family, and both for a headless Service or one
// without a cluster IP.
func addressTypes(svc *api.Service) []AddressType {
	var out []AddressType
	for _, f := range svc.Spec.IPFamilies {
		var t AddressType
		switch f {
		case api.IPv4Protocol:
			t = AddressTypeIPv4
		case api.IPv6Protocol:
			t = AddressTypeIPv6
		default:
			continue
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return out
	}
	if ip := svc.Spec.ClusterIP; ip != "" && ip != api.ClusterIPNone {
		if parsePodIP(ip).v6 {
			return []AddressType{AddressTypeIPv6}
		}
		return []AddressType{AddressTypeIPv4}
	}
	return []AddressType{AddressTypeIPv4, AddressTypeIPv6}
}

// sliceLabels are the labels of every slice of svc: the Service's own
// labels without the three the controller owns, then those three.
func sliceLabels(svc *api.Service) map[string]string {
	out := map[string]string{}
	for k, v := range svc.Labels {
		if k != LabelServiceName && k != LabelManagedBy && k != LabelHeadless {
			out[k] = v
		}
	}
	if svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == api.ClusterIPNone {
		out[LabelHeadless] = ""
	}
	out[LabelServiceName] = svc.Name
	out[LabelManagedBy] = ControllerName
	return out
}

// GenerateName is the name prefix of a Service's EndpointSlices: the
// Service's name and a dash, or the name alone when the dash would not
// leave a valid object name prefix (k8s.io/endpointslice
// getEndpointSlicePrefix).
func GenerateName(service string) string {
	prefix := service + "-"
	if len(api.NameIsDNSSubdomain(prefix, true)) != 0 {
		return service
	}
	return prefix
}
