// Package proptest is for property-testing code that works with pods:
// a scheduler, a descheduler, a drain or autoscaling tool, a node agent, a
// controller. As net/http/httptest gives HTTP code a real server to be
// tested against, proptest gives such code the real Kubernetes v1.36.3
// rules to be tested against: generators that draw valid Kubernetes
// objects and whole clusters with pgregory.net/rapid, and checks of the
// guarantees Kubernetes gives, so that a property reads "for any cluster,
// whatever my controller does keeps the guarantee". The generated objects
// are the ones the API server, kube-scheduler, the kubelet and the
// disruption controller would produce, and each check applies podsem's
// own rule rather than a copy of it.
//
// It sits above every other podsem package (it uses them all and none uses
// it) and is the only one that imports rapid, so importing podsem's core
// never imports rapid; import proptest from tests and examples only.
//
// # Generators
//
// Each returns a *rapid.Generator: Draw it inside rapid.Check, or call its
// Example(seed) method for one repeatable value.
//
//   - Pod(PodOptions): pods that pass the API server's create validation —
//     init containers, sidecars, probes of every mechanism, lifecycle hooks,
//     requests and limits (extended resources and huge pages included),
//     node and pod (anti-)affinity, topology spread constraints,
//     tolerations, priority classes, owner references — as stored after a
//     create (defaulted, through the Priority and DefaultTolerationSeconds
//     admission plugins, status Pending) or, with AsWritten, as a user
//     writes them.
//   - Node(NodeOptions): nodes with a cloud node's labels (hostname, zone,
//     region, instance type, os, arch), taints of every effect (dedicated
//     pools, GPUs, spot, cordoned, NotReady and unreachable nodes),
//     capacity and allocatable, conditions and addresses.
//   - Cluster(ClusterOptions): a ClusterState — nodes, namespaces,
//     priority classes, workloads (ReplicaSets, StatefulSets, Jobs, bare
//     pods) whose pods are placed one by one by kube-scheduler's filters
//     (scheduling's cycle) and given kubelet-consistent statuses, pods left
//     Pending, and PodDisruptionBudgets with the disruption controller's
//     status. Snapshot turns it into a scheduling.Cluster, Controllers into
//     disruption.Controllers.
//
// PodOptions.Without leaves out constraints (NodeAffinity, PodAffinity,
// TopologySpread, Tolerations, HostPorts, ExtendedResources) that the code
// under test does not claim to handle. Topology sets the zones and machine
// shapes nodes and pods share.
//
// # Checks
//
// Plain functions returning an error that wraps ErrViolation (or
// api.ErrInvalidInput for unusable arguments), for rapid properties and
// ordinary tests alike. Each applies one podsem rule, never a copy of it:
//
//   - CheckPhaseSequence: a pod's phase never moves backwards
//     (lifecycle.ValidPhaseTransition).
//   - CheckEvictionsRespectBudgets: a burst of evictions never takes a
//     PodDisruptionBudget below its floor (disruption.Evaluate, then
//     disruption.Evict for each eviction).
//   - CheckPlacementFeasible: a binding is one kube-scheduler's filters
//     accept (scheduling's cycle over a snapshot).
//   - CheckGraceNeverLengthens: a deletion in progress is never undone or
//     given more time (termination.APIServerGrace).
//   - CheckBoundPodsFit: no node's pods request more than its allocatable
//     (scheduling's snapshot accounting).
//
// # A property
//
//	func TestMyScheduler(t *testing.T) {
//		clusters := proptest.Cluster(proptest.ClusterOptions{Pending: 3})
//		rapid.Check(t, func(t *rapid.T) {
//			c := clusters.Draw(t, "cluster")
//			snap, _ := c.Snapshot(scheduling.Config{})
//			for _, pod := range c.Pending() {
//				if node := mySchedule(c, pod); node != "" {
//					if err := proptest.CheckPlacementFeasible(snap, pod, node); err != nil {
//						t.Fatal(err)
//					}
//				}
//			}
//		})
//	}
//
// rapid shrinks a failing cluster to a small one before reporting it.
//
// # When a property fails
//
// rapid prints every drawn value with %#v, and the generated objects print
// readably: a ClusterState as a header line (time, counts) and one line per
// object, each its kind and its JSON as `kubectl get -o json` writes it
// (api.Pod, api.Node and the other objects implement GoString; quantities
// print as api.MustParseQuantity("100m")). Paste a line into a manifest to
// `podsem explain` it. rapid also prints the seed: rerun the one test with
// `go test -run 'TestMyScheduler$' -rapid.seed=N` to get the same cluster
// again, and `-rapid.v` to watch the draws. Shrinking stops after
// -rapid.shrinktime (rapid's default is 30 s; podsem's own packages set
// 5 s in their rapid_test.go, and a package of yours can do the same with
// flag.Set in an init, or pass -rapid.shrinktime=5s).
// Generation is pure and deterministic for a given rapid seed: no clock
// (times are relative to the options' Now), no randomness of its own. A
// 500-node, 5,000-pod cluster takes about half a second to draw.
package proptest
