package nodepressure_test

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/nodepressure"
)

// TestStories replays testdata/manager/*.txt through the eviction
// manager. A story reads
//
//	eviction-hard memory.available<500Mi   (the kubelet's flags, as ParseFlag
//	eviction-soft-grace-period ...          reads them; also
//	eviction-max-pod-grace-period 60        eviction-soft, eviction-minimum-reclaim,
//	eviction-pressure-transition-period 1m  and layout dedicated-imagefs)
//	node memory.available=3Gi/4Gi          (what the node reads: available/capacity)
//	pod web priority=0 memory=256Mi grace=30 [static] [pending] [tolerates=memory-pressure]
//	usage web memory=300Mi rootfs=1Gi logs=10Mi processes=12
//	at 10s Observe(memory.available=80Mi/4Gi)
//	at 10s Observe(nodefs.available=5Gi/100Gi gc:nodefs.available=20Gi/100Gi)
//	at 10s Observe(stale)                  (readings timestamped as at the last Observe)
//	at 20s Tick
//	at 20s Admit(new)                      (the admission check; does not step)
//
// Pods are the node's active pods in the order given, except those marked
// pending (pods asking to be admitted); a pod evicted leaves the active
// pods and the Summary, as the kubelet's GetActivePods leaves it out. An
// Observe updates the node's readings with those it names and feeds a
// Summary timestamped at that time; "gc:" readings are what the node reads
// after the garbage collection the pass asks for (and reads from then on).
// A pass's answer is a line with the conditions and the thresholds in
// force and met, the reclaim, the critical pods skipped, the eviction, and
// the manager's next deadline.
func TestStories(t *testing.T) {
	story.Run(t, "testdata/manager/*.txt", func() story.Adapter { return &managerStory{} })
}

var storyStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

type managerStory struct {
	settings nodepressure.Settings
	layout   nodepressure.FilesystemLayout
	m        *nodepressure.Manager

	pods     []*api.Pod
	pending  map[string]*api.Pod
	usage    map[string]nodepressure.PodStats
	readings map[nodepressure.Signal][2]uint64 // available, capacity
	statsAt  time.Time
}

func (s *managerStory) Block(string) bool { return false }

func (s *managerStory) Directive(cmd string, args []string, _ string) error {
	if s.m != nil && cmd != "usage" && cmd != "node" {
		return fmt.Errorf("%s after the first input", cmd)
	}
	arg := strings.Join(args, " ")
	switch cmd {
	case "eviction-hard", "eviction-soft", "eviction-soft-grace-period", "eviction-minimum-reclaim":
		v, err := nodepressure.ParseFlag(cmd, arg)
		if err != nil {
			return err
		}
		switch cmd {
		case "eviction-hard":
			s.settings.Hard = v
		case "eviction-soft":
			s.settings.Soft = v
		case "eviction-soft-grace-period":
			s.settings.SoftGracePeriod = v
		default:
			s.settings.MinimumReclaim = v
		}
	case "eviction-max-pod-grace-period":
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return err
		}
		s.settings.MaxPodGracePeriodSeconds = n
	case "eviction-pressure-transition-period":
		s.settings.PressureTransitionPeriod = arg
	case "layout":
		s.layout = nodepressure.FilesystemLayout(arg)
	case "node":
		return s.read(args, nil)
	case "pod":
		return s.pod(args)
	case "usage":
		return s.setUsage(args)
	default:
		return fmt.Errorf("unknown directive")
	}
	return nil
}

func (s *managerStory) pod(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("want pod NAME [key=value...]")
	}
	name := args[0]
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: 1}}
	p.Spec.NodeName = "node-1"
	c := api.Container{Name: "app", Image: "registry.example/" + name}
	isPending := false
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "priority":
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return err
			}
			prio := int32(n)
			p.Spec.Priority = &prio
		case "memory", "ephemeral-storage":
			q, err := api.ParseQuantity(v)
			if err != nil {
				return err
			}
			if c.Resources.Requests == nil {
				c.Resources.Requests = api.ResourceList{}
			}
			c.Resources.Requests[api.ResourceName(k)] = q
		case "grace":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return err
			}
			p.Spec.TerminationGracePeriodSeconds = &n
		case "static":
			p.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
		case "pending":
			isPending = true
		case "tolerates":
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{
				Key: "node.kubernetes.io/" + v, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
		default:
			return fmt.Errorf("unknown pod field %q", k)
		}
	}
	p.Spec.Containers = []api.Container{c}
	if isPending {
		if s.pending == nil {
			s.pending = map[string]*api.Pod{}
		}
		s.pending[name] = p
		return nil
	}
	s.pods = append(s.pods, p)
	return nil
}

func (s *managerStory) setUsage(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("want usage POD [key=value...]")
	}
	name := args[0]
	st := nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: name, Namespace: "default", UID: "uid-" + name}}
	c := nodepressure.ContainerStats{Name: "app"}
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		q, err := api.ParseQuantity(v)
		if err != nil {
			return err
		}
		n := uint64(q.Value())
		switch k {
		case "memory":
			st.Memory = &nodepressure.MemoryStats{WorkingSetBytes: &n}
			c.Memory = st.Memory
		case "rootfs":
			c.Rootfs = &nodepressure.FsStats{UsedBytes: &n}
		case "logs":
			c.Logs = &nodepressure.FsStats{UsedBytes: &n}
		case "processes":
			st.ProcessStats = &nodepressure.ProcessStats{ProcessCount: &n}
		default:
			return fmt.Errorf("unknown usage %q", k)
		}
	}
	st.Containers = []nodepressure.ContainerStats{c}
	if s.usage == nil {
		s.usage = map[string]nodepressure.PodStats{}
	}
	s.usage[name] = st
	return nil
}

// read sets readings from "signal=available/capacity" arguments; those
// prefixed "gc:" go to after instead, when it is not nil.
func (s *managerStory) read(args []string, after map[nodepressure.Signal][2]uint64) error {
	if s.readings == nil {
		s.readings = map[nodepressure.Signal][2]uint64{}
	}
	for _, a := range args {
		into := s.readings
		if rest, ok := strings.CutPrefix(a, "gc:"); ok && after != nil {
			a, into = rest, after
		}
		k, v, ok := strings.Cut(a, "=")
		avail, capacity, ok2 := strings.Cut(v, "/")
		if !ok || !ok2 || !nodepressure.Signal(k).Valid() {
			return fmt.Errorf("want signal=available/capacity, got %q", a)
		}
		qa, err := api.ParseQuantity(avail)
		if err != nil {
			return err
		}
		qc, err := api.ParseQuantity(capacity)
		if err != nil {
			return err
		}
		into[nodepressure.Signal(k)] = [2]uint64{uint64(qa.Value()), uint64(qc.Value())}
	}
	return nil
}

// summary is the Summary of readings at at, with the active pods' usage.
func (s *managerStory) summary(readings map[nodepressure.Signal][2]uint64, at time.Time) nodepressure.Summary {
	tm := api.NewTime(at)
	var sum nodepressure.Summary
	n := &sum.Node
	n.NodeName = "node-1"
	fs := func(dst **nodepressure.FsStats, bytes, inodes nodepressure.Signal) {
		b, okB := readings[bytes]
		i, okI := readings[inodes]
		if !okB && !okI {
			return
		}
		f := &nodepressure.FsStats{Time: tm}
		if okB {
			f.AvailableBytes, f.CapacityBytes = &b[0], &b[1]
		}
		if okI {
			f.InodesFree, f.Inodes = &i[0], &i[1]
		}
		*dst = f
	}
	if r, ok := readings[nodepressure.SignalMemoryAvailable]; ok {
		ws := r[1] - r[0]
		n.Memory = &nodepressure.MemoryStats{Time: tm, AvailableBytes: &r[0], WorkingSetBytes: &ws}
	}
	if r, ok := readings[nodepressure.SignalAllocatableMemoryAvailable]; ok {
		ws := r[1] - r[0]
		n.SystemContainers = []nodepressure.ContainerStats{{Name: nodepressure.SystemContainerPods,
			Memory: &nodepressure.MemoryStats{Time: tm, AvailableBytes: &r[0], WorkingSetBytes: &ws}}}
	}
	fs(&n.Fs, nodepressure.SignalNodeFsAvailable, nodepressure.SignalNodeFsInodesFree)
	var rt nodepressure.RuntimeStats
	fs(&rt.ImageFs, nodepressure.SignalImageFsAvailable, nodepressure.SignalImageFsInodesFree)
	fs(&rt.ContainerFs, nodepressure.SignalContainerFsAvailable, nodepressure.SignalContainerFsInodesFree)
	if rt.ImageFs != nil || rt.ContainerFs != nil {
		n.Runtime = &rt
	}
	if r, ok := readings[nodepressure.SignalPIDAvailable]; ok {
		maxPID, cur := int64(r[1]), int64(r[1]-r[0])
		n.Rlimit = &nodepressure.RlimitStats{Time: tm, MaxPID: &maxPID, NumOfRunningProcesses: &cur}
	}
	for _, p := range s.pods {
		if st, ok := s.usage[p.Name]; ok {
			sum.Pods = append(sum.Pods, st)
		}
	}
	return sum
}

func (s *managerStory) Step(at time.Duration, input string) ([]string, error) {
	if s.m == nil {
		m, err := nodepressure.NewManager(s.settings, s.layout)
		if err != nil {
			return nil, err
		}
		s.m = m
	}
	now := storyStart.Add(at)
	name, args, _ := strings.Cut(input, "(")
	args = strings.TrimSuffix(args, ")")
	var in nodepressure.Observation
	switch strings.TrimSpace(name) {
	case "Tick":
		in = nodepressure.Tick()
	case "Observe":
		var fields []string
		stale := false
		for _, f := range strings.Fields(args) {
			if f == "stale" {
				stale = true
				continue
			}
			fields = append(fields, f)
		}
		after := map[nodepressure.Signal][2]uint64{}
		if err := s.read(fields, after); err != nil {
			return nil, err
		}
		if !stale || s.statsAt.IsZero() {
			s.statsAt = now
		}
		in = nodepressure.Observation{Summary: s.summary(s.readings, s.statsAt), Pods: s.pods}
		if len(after) > 0 {
			for k, v := range after {
				s.readings[k] = v
			}
			gc := s.summary(s.readings, s.statsAt)
			in.AfterNodeGC = &gc
		}
	case "Admit":
		p := s.pending[strings.TrimSpace(args)]
		if p == nil {
			return nil, fmt.Errorf("no pending pod %q", args)
		}
		a := s.m.Admit(p)
		if a.Admit {
			return []string{"admit " + p.Name}, nil
		}
		return []string{fmt.Sprintf("refuse %s: %s: %q", p.Name, a.Reason, a.Message)}, nil
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	pass := s.m.Step(in, now)
	out := []string{fmt.Sprintf("conditions %s | in force %s | met %s",
		list(pass.Conditions), thresholds(pass.InForce), thresholds(pass.ThresholdsMet))}
	if rc := pass.Reclaim; rc != nil {
		l := fmt.Sprintf("reclaim %s (%s)", rc.Resource, rc.Threshold)
		if len(rc.NodeGC) > 0 {
			l += fmt.Sprintf(": gc %s", list(rc.NodeGC))
			if rc.RelievedByGC {
				l += ", relieved"
			} else {
				l += ", not enough"
			}
		}
		out = append(out, l)
		if len(rc.SkippedCritical) > 0 {
			out = append(out, "skip critical "+strings.Join(names(rc.SkippedCritical), " "))
		}
	}
	if e := pass.Eviction; e != nil {
		out = append(out, fmt.Sprintf("evict %s (grace %ds): %q", e.Pod.Name, e.Grace.GracePeriodSeconds, e.Message))
		for i, p := range s.pods {
			if p == e.Pod {
				s.pods = append(s.pods[:i:i], s.pods[i+1:]...)
				break
			}
		}
	}
	for _, e := range pass.Events {
		l := fmt.Sprintf("event %s %s %s/%s: ", e.Type, e.Reason, strings.ToLower(e.Regarding.Kind), e.Regarding.Name)
		if pass.Eviction != nil && e.Note == pass.Eviction.Message {
			l += "the eviction message"
		} else {
			l += e.Note
		}
		keys := make([]string, 0, len(e.Annotations))
		for k := range e.Annotations {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			l += fmt.Sprintf(" %s=%q", k, e.Annotations[k])
		}
		out = append(out, l)
	}
	next := "next none"
	if d := s.m.NextDeadline(); !d.IsZero() {
		next = "next " + story.Format(d.Sub(storyStart))
	}
	return append(out, next), nil
}

func (s *managerStory) Next() (time.Duration, bool) {
	if s.m == nil {
		return 0, false
	}
	d := s.m.NextDeadline()
	return d.Sub(storyStart), !d.IsZero()
}

func (s *managerStory) Tick() string { return "Tick" }

func list[T ~string](xs []T) string {
	if len(xs) == 0 {
		return "-"
	}
	ss := make([]string, len(xs))
	for i, x := range xs {
		ss[i] = string(x)
	}
	return strings.Join(ss, ", ")
}

func thresholds(ts []nodepressure.Threshold) string {
	if len(ts) == 0 {
		return "-"
	}
	ss := make([]string, len(ts))
	for i, t := range ts {
		ss[i] = t.String()
	}
	return strings.Join(ss, ", ")
}
