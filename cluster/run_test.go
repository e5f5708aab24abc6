package cluster_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/cluster"
)

var update = flag.Bool("update", false, "rewrite the golden event logs in testdata/")

var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// runFile runs testdata/<name>.json and returns its event log as JSON
// lines: the setup's records (negative offsets), then the run's.
func runFile(t *testing.T, name string) []byte {
	t.Helper()
	_, res := runScenario(t, filepath.Join("testdata", name+".json"))
	var buf bytes.Buffer
	if err := cluster.WriteJSON(&buf, append(res.Setup, res.Records...)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// runScenario runs the scenario file at path from t0 and returns the file
// and the result.
func runScenario(t *testing.T, path string) ([]byte, cluster.Result) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := cluster.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.LoadLocation = time.LoadLocation // as podsem simulate gives it
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	return data, res
}

// TestGolden replays each scenario of testdata/ and compares its event log
// (setup records, negative offsets, then the run's) with
// testdata/<name>.golden.jsonl (rewritten with -update; read the diff
// before committing it).
//
// deployment-replace: a Deployment of 3 replicas on 2 nodes. During setup
// the Deployment controller creates its ReplicaSet (ScalingReplicaSet),
// the ReplicaSet controller 3 pods (SuccessfulCreate), kube-scheduler binds
// them (node-1, node-2, node-1: NodeResourcesFit's LeastAllocated spreads
// them); each kubelet reports ContainerCreating, and a second later the
// runtime model starts the containers (Pulled, Created, Started), ready at
// once (no readiness probe): Running, 3/3 available, settled: t=0. At 30 s
// `delete` of one pod: the API server marks it (grace 30 s), the
// ReplicaSet controller sees it terminating and creates a replacement at
// once, the kubelet kills the container (Killing), which exits 143: the pod
// is Failed and the kubelet deletes it with grace 0. The replacement runs
// at 31 s.
//
// deployment-scale: scaled to 5 at 10 s (two pods more), then to 2 at 40 s
// (the ReplicaSet controller's ranking deletes three pods of the more
// crowded node first).
//
// deployment-rollout: a new image with a readiness probe (initialDelay 5 s,
// period 10 s) applied at 10 s: maxSurge 1, maxUnavailable 0 (25 % of 3),
// so one new pod at a time, each ready 10 s after it starts before an old
// one goes.
//
// deployment-refused-update: 3 replicas running, then at 10 s an `apply`
// of the same Deployment whose template asks for a privileged container:
// the API server's apps validation refuses it (--allow-privileged is off;
// 422 "Deployment.apps \"web\" is invalid: ...privileged: Forbidden:
// disallowed by cluster policy"), so the action is an ActionFailed record
// and the old pods run on untouched. (The same Deployment as a scenario
// object is refused at creation and the run fails, as the e2e harness's
// does: TestWorkloadTemplateRefused.)
//
// node-lost: node-2's kubelet goes silent at 10 s (lose). Its Lease was
// last renewed 1 s before; the node lifecycle controller notices the
// renewal at its next monitor pass (every 5 s, sliding: each pass starts
// 5 s after the previous one ended, 1 ms later in the simulation) and,
// at the pass 50 s (and 10 ms of drift) later, strictly after the 50-s
// grace period, marks the node Unknown at 59.012 s (NodeNotReady; the real
// control plane: 58.2 s), its pod not ready, and taints it unreachable
// NoSchedule, then NoExecute at once (the tainting pass reads the condition the look
// has just written). The pod tolerates unreachable for 300 s
// (DefaultTolerationSeconds): the taint eviction controller deletes it
// then (TaintManagerEviction); the ReplicaSet replaces it on node-1; the
// old pod stays Terminating, since no kubelet confirms the kill and pod GC
// leaves a pod of an existing node alone.
//
// node-out-of-service: node-2 lost at 10 s, then tainted
// node.kubernetes.io/out-of-service:NoExecute at 2 m (an operator who knows
// it is down): the pod does not tolerate it, taint eviction deletes it at
// once (cancelling the 300-s one), the ReplicaSet replaces it, and the next
// pod GC pass (every 20 s) force-deletes the old pod: terminating on a
// not-Ready node with the out-of-service taint.
//
// node-deleted: node-2's Node object deleted at 10 s (its kubelet silent):
// the next monitor pass records RemovingNode; pod GC's pass at 19 s
// quarantines the missing node name for 40 s; the pass at 59 s checks the
// quarantine a moment before it ends (as on the real control plane, where
// the queue entry is added during a pass), so the pass at 79 s finds the
// node gone and force-deletes its pod (DisruptionTarget DeletionByPodGC),
// which the ReplicaSet replaces.
//
// node-restored: node-2 lost at 10 s, restored at 2 m, before its pod's
// 300-s toleration ran out: the kubelet posts Ready and its pod's status
// again at once; the node update handler's NoSchedule pass removes
// unreachable:NoSchedule at once, the next monitor pass the NoExecute
// taint, and taint eviction cancels the pending deletion. (podsem's
// TaintAdded records each taint the node lifecycle controller adds;
// EvictionRefused, in the drain goldens, each 429 with its budget.)
//
// existing-objects: a cluster dump as `kubectl get -o json` prints it
// (uids, ownerReferences, statuses, pods bound to nodes, the dependents
// listed first): created as the harness creates it — kinds in order,
// owners first, ownerReferences re-pointed at the new uids, statuses
// dropped — the Deployment keeps its ReplicaSet and the ReplicaSet its
// pods (nothing new is created); the kubelets start them. Scaled to 1 at
// 10 s: the pod on node-2 goes.
//
// deployment-deleted: `delete Deployment/default/web` at 10 s (background
// propagation): the garbage collector deletes its ReplicaSet, then the
// ReplicaSet's pods, which the kubelets stop.
//
// container-crash: a container exits 1 at 10 s: the kubelet restarts it at
// once; it exits 1 again at 12 s: BackOff, CrashLoopBackOff from the next
// sync, restarted after the 10-s back-off (lifecycle.Machine's rules).
//
// drain-pdb: a budget of minAvailable 2 over the 3 pods; node-1 (2 pods)
// drained at 30 s: the first eviction is granted, the second refused with
// 429 and retried every 5 s until the replacement is Ready (10 s after its
// start), then granted; Drained once both are gone (1 s polls).
//
// drain-timeout: minAvailable 3: every eviction refused; --timeout 12s
// ends the drain at the first retry after the deadline (kubectl sleeps out
// its 5 s), DrainFailed with both pods' errors.
//
// drain-unmanaged: a bare pod refuses the drain (no controller); after an
// uncordon, drain --force evicts it with a warning.
//
// volume-provisioned: a WaitForFirstConsumer claim of a CSI class
// (WaitForFirstConsumer event at setup); a Deployment applied at 10 s:
// kube-scheduler picks node-1 and its VolumeBinding PreBind annotates the
// claim (selectedNode), the PersistentVolume controller hands it to the
// provisioner (ExternalProvisioning, twice: once per claim update), the
// provisioner model creates pvc-<uid> in node-1's zone, the controller
// binds both, and only then is the pod bound (Scheduled); the
// attach-detach controller creates the VolumeAttachment, the attacher
// model marks it attached (SuccessfulAttachVolume). The Deployment deleted
// at 30 s: the pod stops, the volume is detached at once (the harness's
// kubelet reports no volume in use); the claim deleted at 40 s: the volume
// is Released and the provisioner model deletes it (policy Delete).
//
// volume-node-lost: the same Deployment of 1 replica, node-1 lost at
// 10 s: taint eviction deletes the pod at 6m9s, but its containers never
// report stopping (the kubelet is gone), so it still uses the volume; its
// replacement on node-2 gets Multi-Attach (FailedAttachVolume, once) and —
// the harness's kubelet not waiting for attachment — runs anyway. node-1
// is deleted at 7 m; pod GC force-deletes the old pod at 7m59s (its 40-s
// quarantine, counted from the pass that found the node gone), the volume
// is detached from node-1 and attached to node-2 in the same instant.
//
// volume-unmount-timeout: volume-node-lost with the kubelets reporting
// volumesInUse (config report-volumes-in-use, off in the harness's model):
// node-1's last report, from before it was lost, says the volume is
// mounted there, so when the old pod is gone at 7m59s the attach-detach
// controller waits maxWaitForUnmountDuration (6 min, node-1 not healthy:
// deleted) and force-detaches at its first pass after it, 13m59.1s; the
// replacement's volume is attached to node-2 at once.
//
// volume-out-of-service: the same, with node-1 tainted out-of-service at
// 8 m instead: pod GC force-deletes the terminating pod at its next pass,
// the volume moves to node-2.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			got := runFile(t, name)
			golden := filepath.Join("testdata", name+".golden.jsonl")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("line %d:\n got  %s\n want %s\n(go test -run TestGolden -update rewrites it)", i+1, g, w)
					}
				}
			}
		})
	}
}

// TestDeterministic runs each scenario several times: the same input gives
// a byte-identical event log (Go's map order changes from run to run, so a
// map walked in its own order would show here).
func TestDeterministic(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		first := runFile(t, name)
		for i := 0; i < 5; i++ {
			if got := runFile(t, name); !bytes.Equal(got, first) {
				t.Fatalf("%s: run %d differs from the first", name, i+2)
			}
		}
	}
}
