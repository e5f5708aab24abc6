// Package endpointslice answers "does this pod get traffic?": the
// EndpointSlices kube-controller-manager's EndpointSlice controller
// (pkg/controller/endpointslice, driving the reconciler of the
// k8s.io/endpointslice staging module) writes for a Service, exactly as
// Kubernetes v1.36.3 computes them.
//
// # Which pods are endpoints
//
// The controller manages the slices of every Service that has a selector
// and is not of type ExternalName. Its endpoints are the pods of the
// Service's namespace the selector matches that have not finished
// (phase Succeeded or Failed) and have an IP — terminating pods included,
// so that proxies can drain them gracefully. A pod whose node the
// controller does not know is left out (and the sync retried), unless the
// Service publishes not-ready addresses.
//
// Each endpoint carries three conditions:
//
//   - serving: the pod passes readiness (its Ready condition is True);
//   - terminating: the pod is being deleted;
//   - ready: serving and not terminating — or always, when the Service
//     sets publishNotReadyAddresses.
//
// A terminating pod that still passes readiness is thus serving but not
// ready: proxies send it new connections only while the Service has no
// ready endpoint at all.
//
// # Slices
//
// A Service gets slices per IP family (its spec.ipFamilies; without them,
// its cluster IP's family, or both for a headless Service), holding each
// pod's addresses of that family. Its ports are resolved per pod
// (FindPort): a numeric targetPort is used as written, a named one is
// looked up among the pod's container and sidecar ports with the same
// protocol, and a port that does not resolve is left out — so pods that
// resolve different port sets land in different slices. A slice holds at
// most MaxEndpointsPerSlice endpoints; an address type without any gets
// one empty placeholder slice. Slices are named "<service>-" plus a
// generated suffix and labelled kubernetes.io/service-name,
// endpointslice.kubernetes.io/managed-by (and service.kubernetes.io/headless
// for a Service without a cluster IP), besides the Service's own labels.
// Endpoints publish the pod's hostname when its spec.subdomain names the
// Service, and its node's name and zone.
//
// Endpoints computes one sync for a Service without slices yet (what a
// new Service gets, and what any sync converges to up to how endpoints are
// spread over slices); ReceivesTraffic is the one-line answer for one
// pod. Topology hints (the topology-mode annotation and
// trafficDistribution) are not modelled.
//
// See https://kubernetes.io/docs/concepts/services-networking/endpoint-slices/.
package endpointslice
