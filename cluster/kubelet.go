package cluster

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/probe"
)

// RuntimeModel is what the container runtime does when a kubelet asks it
// to start or stop a pod: the e2e harness's fake kubelet
// (../shared/e2e/README.md), so a scenario runs the same here and on a
// real control plane. The zero value is that model:
//
//   - the sandbox is ready and every container starts PodStartLatency
//     (1 s) after the kubelet first sees the pod bound to its node, with
//     the Pulled, Created and Started events the kubelet's runtime manager
//     records, and podIP 10.244.<node index>.<n> (n from 10, counting
//     every pod the kubelet starts, from 10 again after 255; a node index
//     past 255, where the harness's address would not parse, gets
//     100.<64 + index/256>.<index%256>.<n>; a hostNetwork pod's sandbox
//     has no IP of its own, and the kubelet gives it the node's, as
//     upstream's generateAPIPodStatus does);
//   - at registration the kubelet's first status post fills in what a
//     kubelet reports of its host: the addresses InternalIP
//     10.0.0.<node index + 1> (10.0.<n/256>.<n%256> past 255) and
//     Hostname <node name> when the Node has
//     none, nodeInfo's kubeletVersion v1.36.3, operatingSystem linux,
//     architecture amd64 and containerRuntimeVersion fake://1.0, the
//     kubelet's daemon endpoint port 10250, and allocatable as capacity
//     when the Node has none (the node index counts Nodes in the order
//     they were created, from 0); every pod status the kubelet writes
//     carries hostIP and hostIPs from the Node's addresses
//     (downward.HostIPs), except the status of a pod rejected at
//     admission;
//   - every probe passes: a container without a readinessProbe is ready
//     at once; one with a probe is ready at its first probe, at start +
//     ceil(initialDelaySeconds / periodSeconds) × periodSeconds
//     (periodSeconds 10 by default); startup and liveness probes pass
//     too. The kubelet's probe workers (probe.Worker, one per probe)
//     run them, ticking every periodSeconds from the container's first
//     start (upstream's tick from the pod's admission, up to a period
//     apart, would move the harness's timing);
//   - a regular init container exits 0 (Completed) as soon as it has
//     started, so a pod's init containers are done, its sidecars
//     running and its containers started at the same instant, as the
//     harness's status shows them;
//   - hooks return at once (the harness runs none);
//   - a killed container exits at once with SigtermExitCode (143);
//     otherwise containers never exit (until a scenario's exit action).
type RuntimeModel struct {
	// PodStartLatency is the sandbox and container start time; 0 means
	// 1 s (the harness's pod-start-latency).
	PodStartLatency time.Duration
	// SigtermExitCode is the exit code of a container killed with
	// SIGTERM; nil means 143 (the harness's sigterm-exit-code).
	SigtermExitCode *int32
	// BindInterval, when positive, is how far apart kube-scheduler's
	// bindings are written: the scheduler decides a burst of pods at
	// once (each assumed in its cache), and their binding writes go out
	// one interval apart, the first at once; the pods then start and
	// turn ready that far apart, and the controllers watching them see
	// them one by one, as on a real control plane, where the bindings of
	// a burst come a median 21 ms apart (the harness's runs). 0 (the
	// default) writes a burst's bindings at one instant. Flag:
	// bind-interval.
	BindInterval time.Duration
}

func (r RuntimeModel) bindInterval() time.Duration {
	return max(r.BindInterval, 0)
}

func (r RuntimeModel) startLatency() time.Duration {
	if r.PodStartLatency <= 0 {
		return time.Second
	}
	return r.PodStartLatency
}

func (r RuntimeModel) sigtermExit() int32 {
	if r.SigtermExitCode == nil {
		return 143
	}
	return *r.SigtermExitCode
}

// runtimeEvent is an answer of the runtime model due at a time.
type runtimeEvent struct {
	at time.Time
	ev lifecycle.Event
}

// podRun is one pod on a kubelet: its lifecycle.Machine and the runtime
// model's pending answers.
type podRun struct {
	key, uid     string
	m            *lifecycle.Machine
	pending      []runtimeEvent
	deleting     bool
	removeAsked  bool
	lastReported *api.PodStatus
	// synced is the pod as the store held it after the last status write
	// of lastReported (or the check that found nothing to write): while
	// the store still holds that object, merging lastReported into it
	// gives its own status, so the reconciliation has nothing to write.
	synced *api.Pod
	// probes are the kubelet's probe workers of the pod's containers,
	// each made at its container's first start; probeless is set for a
	// pod whose spec has no probe at all (probes are immutable): it never
	// gets a worker.
	probes    []*probeRun
	probeless bool
	// rejected: the kubelet refused the pod at admission; its status
	// (rejectPod's) carries no host IPs.
	rejected bool
}

// probeRun is one probe worker: the probe of kind on container.
type probeRun struct {
	container string
	kind      api.ProbeKind
	w         *probe.Worker
}

// kubelet is one node's kubelet: node-level admission (lifecycle.Admit)
// of each pod newly bound to the node, a lifecycle.Machine per admitted
// pod answered by the runtime model, its eviction manager
// (nodepressure.Manager, once a pressure action gave it readings), its
// node shutdown manager, its node status and Lease.
type kubelet struct {
	node   string
	index  int
	nextIP int
	pods   map[string]*podRun
	dirty  map[string]bool
	// spare and keys are run's buffers, kept between runs: the emptied
	// dirty set it swaps with dirty, the pod keys it sorts.
	spare map[string]bool
	keys  []string
	// silent is set for a lost node: nothing of the kubelet reaches the
	// API server, and it sees nothing, until it is restored.
	silent bool
	// The Lease is renewed every NodeLeaseRenewInterval from leaseAnchor,
	// the registration (or restore) that renewed it first; the renewals
	// are not run one by one but computed when read (leaseAt). nextLease is
	// the first tick of that cadence whose node status check
	// (nodeStatusUpdateFrequency, on the same cadence) has not run, and
	// nextStatus the next periodic status post. silencedLease is the
	// renewTime left when the kubelet went silent.
	leaseAnchor, nextLease, nextStatus time.Time
	silencedLease                      time.Time
	// The node status, unchanged, is posted every
	// NodeStatusReportFrequency from statusAnchor, the kubelet's last
	// written post (its registration, or a post of changed conditions);
	// those periodic posts change only the conditions' heartbeat times,
	// which no component but the node lifecycle controller reads, so they
	// are not written but computed when read (statusAt), as the Lease is.
	// silencedStatus is the last post when the kubelet went silent.
	// eagerStatus writes them instead (the tests' reference).
	statusAnchor, silencedStatus time.Time
	eagerStatus                  bool
	// pressure is the eviction manager and the node's observed signals,
	// nil until a pressure action; shutdown is the graceful node shutdown
	// under way, nil when none is.
	pressure *pressureState
	shutdown *shutdownState
	// poweredOff: the node shut down (the shutdown action); booting: it
	// was restored since, and its pods' next sync is the first after the
	// boot.
	poweredOff, booting bool
	// deadline caches podsDeadline while deadlineKnown: every method that
	// changes the pods or their pending answers (run, step) clears
	// deadlineKnown.
	deadline      time.Time
	deadlineKnown bool
	// postedNode is the Node object the kubelet's last status post
	// stored, postedState what its conditions were computed from: while
	// both hold, the 10-s status update has nothing to compare.
	postedNode  *api.Node
	postedState nodeState
	// storedNode is the Node object the API server now holds (nil: none),
	// checkedNode the one the last status check found nothing to post
	// for: a status check at a tick can only post when the stored node is
	// neither, or when pressure or a shutdown is under way (ticking).
	storedNode, checkedNode *api.Node
	// registered is set once the kubelet's first status post (its
	// registration) filled in the host's addresses and node info.
	registered bool
	// ipsNode is the Node object hostIPs and hostIPList were read from.
	ipsNode    *api.Node
	hostIPs    []string
	hostIPList []api.HostIP
	// queued is the kubelet's place in the machine's kubeletQueue.
	queued
}

func newKubelet(node string, index int) *kubelet {
	return &kubelet{node: node, index: index, nextIP: 10, pods: map[string]*podRun{}, dirty: map[string]bool{}}
}

// nextDeadline is the earliest heartbeat, eviction or shutdown step, pod
// machine deadline or runtime answer.
func (k *kubelet) nextDeadline() time.Time {
	if k.silent {
		return time.Time{}
	}
	var d time.Time
	if k.eagerStatus {
		d = k.nextStatus
	}
	if k.ticking() {
		d = api.EarliestDeadline(d, k.nextLease)
	}
	d = api.EarliestDeadline(d, k.pressure.nextDeadline())
	d = api.EarliestDeadline(d, k.shutdown.nextDeadline())
	return api.EarliestDeadline(d, k.podsDue())
}

// podsDue is the earliest pod machine deadline or runtime answer
// (cached).
func (k *kubelet) podsDue() time.Time {
	if !k.deadlineKnown {
		k.deadline, k.deadlineKnown = k.podsDeadline(), true
	}
	return k.deadline
}

// podsDeadline is the earliest pod machine deadline or runtime answer.
func (k *kubelet) podsDeadline() time.Time {
	var d time.Time
	for _, r := range k.pods {
		d = api.EarliestDeadline(d, r.m.NextDeadline())
		for _, p := range r.pending {
			d = api.EarliestDeadline(d, p.at)
		}
		for _, p := range r.probes {
			d = api.EarliestDeadline(d, p.w.NextDeadline())
		}
	}
	return d
}

func (k *kubelet) due(now time.Time) bool {
	if k.silent {
		return false
	}
	if len(k.dirty) > 0 {
		return true
	}
	d := k.nextDeadline()
	return !d.IsZero() && !d.After(now)
}

// run syncs the kubelet's dirty pods against the informer cache and steps
// every pod whose machine or runtime answer is due, in pod key order.
func (k *kubelet) run(c *Machine, now time.Time) error {
	if k.silent {
		return nil
	}
	statusTick := k.tick(now) // nodeStatusUpdateFrequency, on the Lease's cadence
	if err := c.heartbeat(k, now); err != nil {
		return err
	}
	if err := c.evictionPass(k, now); err != nil {
		return err
	}
	if statusTick {
		if err := c.updateNodeStatus(k, now); err != nil {
			return err
		}
	}
	if d := k.podsDue(); len(k.dirty) == 0 && k.shutdown == nil && !k.booting && (d.IsZero() || d.After(now)) {
		return nil // a heartbeat alone: no pod to observe or drive
	}
	defer k.forgetDeadline()
	// The dirty pods and those with something due; a pod with nothing
	// due would be driven to no effect (drive, runProbes: every step
	// already made its new probe workers).
	keys := k.keys[:0]
	for key := range k.dirty {
		keys = append(keys, key)
	}
	for key, r := range k.pods {
		if (k.booting || r.dueBy(now)) && (len(k.dirty) == 0 || !k.dirty[key]) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	k.keys = nil // a sync inside the loop (none today) gets its own
	dirty := k.dirty
	k.dirty, k.spare = k.spare, nil
	if k.dirty == nil {
		k.dirty = map[string]bool{}
	}
	for _, key := range keys {
		if r := k.pods[key]; r != nil && k.booting && !r.m.Terminal() {
			// The first sync after the node booted: the pod's sandbox
			// died with the node.
			if err := k.step(c, r, lifecycle.SandboxDied(), now); err != nil {
				return err
			}
		}
		if dirty[key] {
			if err := k.observe(c, key, now); err != nil {
				return err
			}
		}
		if r := k.pods[key]; r != nil {
			if err := k.drive(c, r, now); err != nil {
				return err
			}
		}
	}
	k.booting = false
	clear(dirty)
	clear(keys)
	k.spare, k.keys = dirty, keys[:0]
	return c.advanceShutdown(k, now)
}

// observe hands the pod's informer state to its machine: a new pod bound
// here is scheduled on it, a deletion is requested, a pod gone is
// forgotten.
func (k *kubelet) observe(c *Machine, key string, now time.Time) error {
	pod, _ := c.cache.get("Pod", key).(*api.Pod)
	r := k.pods[key]
	if pod == nil || pod.Spec.NodeName != k.node || (r != nil && r.uid != pod.UID) {
		delete(k.pods, key)
		if pod == nil || pod.Spec.NodeName != k.node {
			return nil
		}
		r = nil
	}
	if r == nil {
		if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
			return nil
		}
		verdict, victims, err := k.admit(c, pod, now)
		if err != nil {
			return err
		}
		if err := k.preempt(c, victims, now); err != nil {
			return err
		}
		r = &podRun{key: key, uid: pod.UID, m: lifecycle.NewMachine(pod, lifecycle.MachineConfig{}), probeless: !hasProbes(pod),
			rejected: verdict.Kind == lifecycle.EventRejected}
		k.pods[key] = r
		if err := k.step(c, r, verdict, now); err != nil {
			return err
		}
	}
	// The status manager's reconciliation: a status in the API server
	// that differs from the kubelet's last report (the node lifecycle
	// controller marked the pod not ready while the node was silent, say)
	// is written again. (Upstream reconciles in its 10-s sync batch; here
	// at once.)
	if r.lastReported != nil && !r.deleting && c.store.get("Pod", key) != r.synced {
		r.synced = c.writePodStatus(key, r.uid, k.withHostIPs(r, *r.lastReported), now)
	}
	if pod.DeletionTimestamp != nil && !r.deleting {
		r.deleting = true
		grace := int64(0)
		if pod.DeletionGracePeriodSeconds != nil {
			grace = *pod.DeletionGracePeriodSeconds
		}
		return k.step(c, r, lifecycle.DeletionRequested(grace), now)
	}
	return nil
}

// drive feeds the pod's due runtime answers, then ticks its machine when
// its deadline has come.
func (k *kubelet) drive(c *Machine, r *podRun, now time.Time) error {
	for len(r.pending) > 0 && !r.pending[0].at.After(now) {
		ev := r.pending[0].ev
		r.pending = r.pending[1:]
		if err := k.step(c, r, ev, now); err != nil {
			return err
		}
		if k.pods[r.key] != r {
			return nil
		}
	}
	if d := r.m.NextDeadline(); !d.IsZero() && !d.After(now) {
		return k.step(c, r, lifecycle.Tick(), now)
	}
	return k.runProbes(c, r, now)
}

// dueBy reports whether driving the pod at now would step it: a runtime
// answer or the machine's deadline is due, or a probe worker's tick
// (runProbes ticks a worker without a deadline at once).
func (r *podRun) dueBy(now time.Time) bool {
	if len(r.pending) > 0 && !r.pending[0].at.After(now) {
		return true
	}
	if d := r.m.NextDeadline(); !d.IsZero() && !d.After(now) {
		return true
	}
	if !r.probeless {
		for _, p := range r.probes {
			if d := p.w.NextDeadline(); d.IsZero() || !d.After(now) {
				return true
			}
		}
	}
	return false
}

// answer queues the runtime model's answer ev at at, after the answers
// already due by then (stable by time).
func (r *podRun) answer(at time.Time, ev lifecycle.Event) {
	i := len(r.pending)
	for i > 0 && r.pending[i-1].at.After(at) {
		i--
	}
	r.pending = slices.Insert(r.pending, i, runtimeEvent{at: at, ev: ev})
}

// step steps the pod's machine with ev and carries out its actions (feed),
// then runs the probe workers that are due or new.
func (k *kubelet) step(c *Machine, r *podRun, ev lifecycle.Event, now time.Time) error {
	if err := k.feed(c, r, ev, now); err != nil {
		return err
	}
	return k.runProbes(c, r, now)
}

// runProbes is the kubelet's prober manager for the pod: a worker is made
// for each probe of a container the first time the container runs, and
// ticked at once; a worker whose tick is due is ticked, reading the pod's
// status as the machine reports it and the runtime model's outcome (every
// probe passes). A settled result (probe.Report.MachineEvent) is fed to
// the machine, and the workers are looked at again with the status it
// reports (a startup probe's success lets the readiness probe run in the
// same instant). A worker that exits (the pod is terminal) is dropped.
func (k *kubelet) runProbes(c *Machine, r *podRun, now time.Time) error {
	if r.probeless {
		return nil
	}
	for round := 0; round < 64; round++ {
		if k.pods[r.key] != r || r.m.Removed() {
			return nil
		}
		pod := r.m.Pod()
		r.addProbes(pod)
		fed := false
		kept := r.probes[:0]
		for _, p := range r.probes {
			if d := p.w.NextDeadline(); fed || (!d.IsZero() && d.After(now)) {
				kept = append(kept, p)
				continue
			}
			rep := stepMachine1(c, "prober", r.key, p.w, probe.Input{Status: &pod.Status, Outcome: probe.OutcomeSuccess}, now)
			if rep.KeepGoing {
				kept = append(kept, p)
			}
			if ev, ok := rep.MachineEvent(p.kind, p.container); ok {
				if err := k.feed(c, r, ev, now); err != nil {
					return err
				}
				fed = true
			}
		}
		r.probes = kept
		if !fed {
			return nil
		}
	}
	return fmt.Errorf("pod %s: the probe workers did not settle", r.key)
}

// addProbes makes the workers of the containers that run for the first
// time: one per probe, startup first, then readiness and liveness.
func (r *podRun) addProbes(pod *api.Pod) {
	for _, list := range [][]api.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for _, cs := range list {
			if cs.State.Running == nil || r.hasProbes(cs.Name) {
				continue
			}
			ref, ok := pod.Spec.FindContainer(cs.Name)
			if !ok {
				continue
			}
			for _, kind := range []api.ProbeKind{api.ProbeStartup, api.ProbeReadiness, api.ProbeLiveness} {
				if kind.Of(ref.Container) == nil {
					continue
				}
				w, err := probe.NewWorker(kind, pod, cs.Name, probe.WorkerConfig{})
				if err != nil {
					// A plain init container's probe, or timing fields the
					// API server's defaulting left out of range (it
					// defaults every pod it stores): no worker.
					continue
				}
				r.probes = append(r.probes, &probeRun{container: cs.Name, kind: kind, w: w})
			}
		}
	}
}

// hasProbes reports whether a container or init container of pod has a
// startup, readiness or liveness probe.
func hasProbes(pod *api.Pod) bool {
	for _, list := range [2][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			c := &list[i]
			if c.StartupProbe != nil || c.ReadinessProbe != nil || c.LivenessProbe != nil {
				return true
			}
		}
	}
	return false
}

func (r *podRun) hasProbes(container string) bool {
	for _, p := range r.probes {
		if p.container == container {
			return true
		}
	}
	return false
}

// feed steps the pod's machine with ev and carries out its actions: the
// runtime model answers, status writes and the pod's removal go to the
// API server, events to the log. Answers due now are fed at once.
func (k *kubelet) feed(c *Machine, r *podRun, ev lifecycle.Event, now time.Time) error {
	defer k.forgetDeadline()
	queue := []lifecycle.Event{ev}
	for len(queue) > 0 {
		ev := queue[0]
		queue = queue[1:]
		status, actions := stepMachine(c, "kubelet", r.key, r.m, ev, now)
		for _, a := range actions {
			switch a.Kind {
			case lifecycle.ActionCreateSandbox:
				ip := podIP(k.index, k.nextIP)
				k.nextIP++
				if r.m.Pod().Spec.HostNetwork {
					ip = "" // the kubelet gives it the node's IPs (withHostIPs)
				}
				r.answer(now.Add(c.cfg.Runtime.startLatency()), lifecycle.SandboxReady(ip))
			case lifecycle.ActionPullImage:
				queue = append(queue, lifecycle.ImagePulled(a.Container))
			case lifecycle.ActionStartContainer:
				k.started(c, r, r.m.Pod(), a.Container, now)
				queue = append(queue, lifecycle.ContainerStarted(a.Container))
				if ref, ok := r.m.Pod().Spec.FindContainer(a.Container); ok && ref.Kind == api.ContainerKindInit {
					// A regular init container runs to completion at once.
					queue = append(queue, lifecycle.ContainerExited(a.Container, 0, ""))
				}
			case lifecycle.ActionRunPostStart:
				queue = append(queue, lifecycle.PostStartFinished(a.Container))
			case lifecycle.ActionRunPreStop:
				queue = append(queue, lifecycle.PreStopFinished(a.Container))
			case lifecycle.ActionKillContainer:
				queue = append(queue, lifecycle.ContainerExited(a.Container, c.cfg.Runtime.sigtermExit(), ""))
			case lifecycle.ActionRecordEvent:
				c.rec.event(now, a.Event)
			case lifecycle.ActionReportStatus:
				st := status
				r.lastReported = &st
				r.synced = c.writePodStatus(r.key, r.uid, k.withHostIPs(r, status), now)
			case lifecycle.ActionRemovePod:
				if !r.removeAsked {
					r.removeAsked = true
					if err := c.removePod(r.key, r.uid, now); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// started records the runtime's Pulled, Created and Started events for a
// container the kubelet started (kuberuntime's startContainer records
// them; the harness records the same).
func (k *kubelet) started(c *Machine, r *podRun, pod *api.Pod, container string, now time.Time) {
	ref, ok := pod.Spec.FindContainer(container)
	if !ok {
		return
	}
	ctr := ref.Container
	cref := api.ContainerReference(pod, container)
	for _, e := range []api.Event{
		{Type: api.EventTypeNormal, Reason: "Pulled", Note: fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", ctr.Image)},
		{Type: api.EventTypeNormal, Reason: "Created", Note: "Container created"},
		{Type: api.EventTypeNormal, Reason: "Started", Note: "Container started"},
	} {
		e.Regarding, e.Source = cref, "kubelet"
		c.rec.event(now, &e)
	}
}

// forgetDeadline drops the cached deadline after a change, and has the
// machine's kubeletQueue file the kubelet again.
func (k *kubelet) forgetDeadline() {
	k.deadlineKnown = false
	if k.q != nil {
		k.q.mark(k)
	}
}

// exit makes a running container of the pod exit with code, as the
// runtime would report it (a scenario's exit action): the pod's machine
// decides the rest (restart, back-off, phase) as the kubelet does.
func (m *Machine) exit(podKey, container string, code int32, now time.Time) error {
	pod, _ := m.store.get("Pod", podKey).(*api.Pod)
	if pod == nil {
		return fmt.Errorf("Pod/%s: %w", podKey, errNotFound)
	}
	k := m.kubelets[pod.Spec.NodeName]
	if k == nil {
		return fmt.Errorf("pod %s is not running on a node", podKey)
	}
	r := k.pods[podKey]
	if r == nil || r.uid != pod.UID {
		return fmt.Errorf("pod %s is not running on node %s", podKey, k.node)
	}
	if _, ok := pod.Spec.FindContainer(container); !ok {
		return fmt.Errorf("pod %s has no container %q", podKey, container)
	}
	// A lost node's containers still run and exit; what the kubelet then
	// does reaches the API server only when it is restored.
	return k.step(m, r, lifecycle.ContainerExited(container, code, ""), now)
}

// ticking reports whether the kubelet's next cadence tick can do
// something beyond renewing the Lease (which is computed when read): its
// eviction manager or a shutdown runs on it, or the status check would
// find a Node it neither posted nor checked.
func (k *kubelet) ticking() bool {
	return k.pressure != nil || k.shutdown != nil || (k.storedNode != k.postedNode && k.storedNode != k.checkedNode)
}

// cadence places now on the kubelet's Lease cadence (a tick every
// NodeLeaseRenewInterval from leaseAnchor, now at or after it): the last
// tick at or before now, and whether now is that tick.
func (k *kubelet) cadence(now time.Time) (last time.Time, onTick bool) {
	return cadenceFrom(k.leaseAnchor, now)
}

// cadenceFrom is the cadence of a Lease renewed every
// NodeLeaseRenewInterval from anchor (kubelet.cadence).
func cadenceFrom(anchor, now time.Time) (last time.Time, onTick bool) {
	l, onTick := lastTick(0, now.Sub(anchor), NodeLeaseRenewInterval)
	return anchor.Add(l), onTick
}

// lastTick is the last tick at or before now of a cadence of period from
// anchor (offsets from one instant, now at or after anchor), and whether
// now is one.
func lastTick(anchor, now, period time.Duration) (last time.Duration, onTick bool) {
	since := now - anchor
	return anchor + since/period*period, since%period == 0
}

// tick reports whether now is a tick of the kubelet's Lease cadence whose
// status check has not run, and moves nextLease to the first tick after
// now. Ticks skipped since (the kubelet was not due at them) had nothing
// to check.
func (k *kubelet) tick(now time.Time) bool {
	if k.nextLease.After(now) {
		return false
	}
	last, onTick := k.cadence(now)
	k.nextLease = last.Add(NodeLeaseRenewInterval)
	return onTick
}

// pendingTick is the first tick of the kubelet's cadence at or after now
// whose status check has not run: now itself is one unless the kubelets
// already ran at now (phase, the instant they last ran).
func (k *kubelet) pendingTick(now, phase time.Time) time.Time {
	if k.nextLease.After(now) {
		return k.nextLease
	}
	if last, onTick := k.cadence(now); !onTick || !phase.Before(now) {
		return last.Add(NodeLeaseRenewInterval)
	}
	return now
}

// leaseAt is the renewTime of the kubelet's Lease read at now: the last
// tick of its cadence before now, or at now when the kubelets already ran
// at now (phase, the instant they last ran) — a node lifecycle pass at a
// tick runs before the kubelets renew. The anchor's renewal, made at the
// registration itself, counts at once; a silent kubelet's Lease stays
// where it was.
func (k *kubelet) leaseAt(now, phase time.Time) time.Time {
	c := k.clock(now)
	return atOffset(now, c.lease(0, phase.Before(now)))
}

// leaseClock is what a kubelet's Lease and status post reads depend on
// (kubelet.leaseAt, kubelet.statusAt), copied out of the kubelet so that a
// monitor pass reads them for every node from one compact column
// (Machine.leaseOf): instants as offsets from a base instant, so that a
// read is integer arithmetic (noTime: none).
type leaseClock struct {
	anchor, silenced time.Duration
	silent           bool
	// statusAnchor and silencedStatus are the kubelet's (statusAt).
	statusAnchor, silencedStatus time.Duration
	// read is the last sign Machine.leaseOf read, readAt its instant
	// (noTime and the zero time before the first).
	read   time.Duration
	readAt time.Time
}

// noTime is a leaseClock offset for the zero time.
const noTime = time.Duration(math.MinInt64)

// sinceBase is t as an offset from base (noTime for the zero time).
func sinceBase(base, t time.Time) time.Duration {
	if t.IsZero() {
		return noTime
	}
	return t.Sub(base)
}

// atOffset is the instant of offset d from base (the zero time for noTime).
func atOffset(base time.Time, d time.Duration) time.Time {
	if d == noTime {
		return time.Time{}
	}
	return base.Add(d)
}

// clock is the kubelet's leaseClock as it stands, its offsets from base.
func (k *kubelet) clock(base time.Time) leaseClock {
	return leaseClock{anchor: sinceBase(base, k.leaseAnchor), silenced: sinceBase(base, k.silencedLease), silent: k.silent,
		statusAnchor: sinceBase(base, k.statusAnchor), silencedStatus: sinceBase(base, k.silencedStatus), read: noTime}
}

// statusAt is the time of the kubelet's last node status post at now,
// written or periodic (every NodeStatusReportFrequency from its last
// written one), as a kubelet posting at every period would have made it:
// a post due at now is not made yet when the kubelets have not run at now
// (phase, the instant they last ran); a silent kubelet's is its last
// before it went silent. Zero before the first post.
func (k *kubelet) statusAt(now, phase time.Time) time.Time {
	c := k.clock(now)
	return atOffset(now, c.status(0, phase.Before(now)))
}

// status is kubelet.statusAt for the clock at offset now; early says the
// kubelets have not run at now.
func (c *leaseClock) status(now time.Duration, early bool) time.Duration {
	if c.silent {
		return c.silencedStatus
	}
	if c.statusAnchor == noTime || now <= c.statusAnchor {
		return c.statusAnchor
	}
	last, onTick := lastTick(c.statusAnchor, now, NodeStatusReportFrequency)
	if onTick && early {
		return last - NodeStatusReportFrequency // now's post is not made yet
	}
	return last
}

// sign is the kubelet's last sign of life the node lifecycle controller
// can see at offset now: the later of its Lease's renewTime and its last
// node status post. The controller moves its probe time when either
// moves, so giving it their maximum as the Lease moves it exactly when
// they would (both only move forward, and a pass sees each at the pass
// after it).
func (c *leaseClock) sign(now time.Duration, early bool) time.Duration {
	return max(c.lease(now, early), c.status(now, early)) // noTime is the least
}

// lease is kubelet.leaseAt for the clock at offset now; early says the
// kubelets have not run at now.
func (c *leaseClock) lease(now time.Duration, early bool) time.Duration {
	if c.silent {
		return c.silenced
	}
	if now <= c.anchor {
		return c.anchor
	}
	last, onTick := lastTick(c.anchor, now, NodeLeaseRenewInterval)
	if onTick && early {
		return last - NodeLeaseRenewInterval // now's renewal is not made yet
	}
	return last
}

// withHostIPs is st as the kubelet's generateAPIPodStatus completes it:
// hostIP and hostIPs from the Node's addresses (downward.HostIPs; none
// when the Node has no usable address), and, for a hostNetwork pod, the
// node's IPs as its pod IPs, the primary one when none is set, the second
// family's when only one is. A pod rejected at admission keeps
// rejectPod's status, which has none.
func (k *kubelet) withHostIPs(r *podRun, st api.PodStatus) api.PodStatus {
	if r.rejected {
		return st
	}
	if k.storedNode != k.ipsNode {
		k.ipsNode, k.hostIPs, k.hostIPList = k.storedNode, nil, nil
		if k.storedNode != nil {
			if ips, err := downward.HostIPs(k.storedNode); err == nil {
				k.hostIPs = ips
				for _, ip := range ips {
					k.hostIPList = append(k.hostIPList, api.HostIP{IP: ip})
				}
			}
		}
	}
	ips := k.hostIPs
	if len(ips) == 0 {
		return st
	}
	st.HostIP, st.HostIPs = ips[0], k.hostIPList
	if r.m.Pod().Spec.HostNetwork {
		if st.PodIP == "" {
			st.PodIP, st.PodIPs = ips[0], []api.PodIP{{IP: ips[0]}}
		}
		// (Addresses as net.IP prints them: an IPv6 one has a colon.)
		if len(ips) == 2 && len(st.PodIPs) == 1 && strings.Contains(st.PodIPs[0].IP, ":") != strings.Contains(ips[1], ":") {
			st.PodIPs = append(slices.Clip(st.PodIPs), api.PodIP{IP: ips[1]})
		}
	}
	return st
}

// podIP is the runtime model's IP of the n-th pod sandbox (from 10) of the
// kubelet of node index: 10.244.<index>.<n>, as the harness's kubelet
// numbers them, kept a valid IPv4 address for any index and n (see
// RuntimeModel).
func podIP(index, n int) string {
	n = 10 + (n-10)%246
	if index < 256 {
		return fmt.Sprintf("10.244.%d.%d", index, n)
	}
	return fmt.Sprintf("100.%d.%d.%d", 64+(index>>8)%64, index&255, n)
}

// nodeIP is the runtime model's InternalIP of node index:
// 10.0.0.<index + 1> as the harness's kubelet gives it, kept a valid IPv4
// address past 255 nodes.
func nodeIP(index int) string {
	n := index + 1
	return fmt.Sprintf("10.%d.%d.%d", (n>>16)&255, (n>>8)&255, n&255)
}
