package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
)

// TestStoriesReplicaSet replays the ReplicaSet controller's stories in
// testdata/replicaset (see package internal/story for the format). A
// story keeps the namespace the controller watches — one ReplicaSet
// (namespace default, uid uid-NAME, selector and template labels
// app=NAME), its pods and strangers — and writes back what the controller
// writes: adoption and release patches at once, the status when it is
// written. Creations and deletions are in flight until "observe". Times
// are since the story's start (negative: before it). Directives:
//
//	replicaset web replicas=5 [minReadySeconds=10] [deployment]
//	scale 3                     spec.replicas (generation + 1)
//	quota 2 | quota none        pod creations the API server accepts per sync
//	pod NAME [mine|orphan|other] [node=N] [phase=P] [ready=T] [created=T]
//	         [cost=N] [restarts=N] [labels=k=v,...]
//	                            add a pod (default: mine, node-1, Running,
//	                            not ready, created at -1h)
//	ready NAME T [node=N]       the pod is Running and Ready since T
//	label NAME k=v,...          relabel a pod
//	delete NAME T               someone else deletes the pod at T: it
//	                            turns Terminating (a lost node keeps it so)
//	observe                     the creations and deletions in flight
//	                            reach the cache: created pods appear
//	                            (Pending, unscheduled, created when
//	                            asked), deleted ones turn Terminating
//	gone NAME                   a pod object disappears
//
// The only input is "sync" (a step; also the tick). Each answer reads
// what the sync did, the status (with "(written)" when written), then
// "expect +ADD -DEL | next D" — the expectations left and NextDeadline.
func TestStoriesReplicaSet(t *testing.T) {
	story.Run(t, "testdata/replicaset/*.txt", func() story.Adapter { return &rsStory{quota: -1} })
}

type rsStory struct {
	c        ReplicaSetController
	rs       *api.ReplicaSet
	pods     []*api.Pod
	quota    int
	created  int
	inFlight struct {
		create  int
		at      time.Time
		deleted []string
	}
}

func (s *rsStory) Block(string) bool { return false }
func (s *rsStory) Tick() string      { return "sync" }

func (s *rsStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(t0), true
}

func (s *rsStory) at(v string) (time.Time, error) {
	d, err := time.ParseDuration(v)
	return t0.Add(d), err
}

func (s *rsStory) find(name string) (int, error) {
	i := slices.IndexFunc(s.pods, func(p *api.Pod) bool { return p.Name == name })
	if i < 0 {
		return 0, fmt.Errorf("no pod %q", name)
	}
	return i, nil
}

// change replaces pod i by a changed copy: the controller may hold the
// old object, as an informer's consumers do.
func (s *rsStory) change(i int, f func(p *api.Pod)) {
	np := *s.pods[i]
	np.Labels = cloneLabels(np.Labels)
	np.Status.Conditions = slices.Clone(np.Status.Conditions)
	f(&np)
	s.pods[i] = &np
}

func cloneLabels(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func parseLabels(v string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(kv, "=")
		out[k] = val
	}
	return out
}

func setReady(p *api.Pod, since time.Time) {
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(since)}}
}

func (s *rsStory) Directive(cmd string, args []string, _ string) error {
	if cmd != "replicaset" && s.rs == nil {
		return fmt.Errorf("the replicaset comes first")
	}
	switch cmd {
	case "replicaset":
		if len(args) < 2 {
			return fmt.Errorf("want replicaset NAME replicas=N [minReadySeconds=S] [deployment]")
		}
		s.rs = webRS(0)
		s.rs.Name, s.rs.Namespace, s.rs.UID = args[0], "default", "uid-"+args[0]
		labels := map[string]string{"app": args[0]}
		s.rs.Spec.Selector.MatchLabels, s.rs.Spec.Template.Labels = labels, labels
		for _, a := range args[1:] {
			k, v, _ := strings.Cut(a, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "replicas":
				s.rs.Spec.Replicas = ptr(int32(n))
			case "minReadySeconds":
				s.rs.Spec.MinReadySeconds = int32(n)
			case "deployment":
				s.rs.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: args[0], UID: "uid-dep-" + args[0], Controller: ptr(true)}}
			default:
				return fmt.Errorf("replicaset option %q", a)
			}
		}
	case "scale":
		n, err := strconv.Atoi(strings.Join(args, ""))
		if err != nil {
			return err
		}
		rs := *s.rs
		rs.Spec.Replicas = ptr(int32(n))
		rs.Generation++
		s.rs = &rs
	case "quota":
		if len(args) != 1 {
			return fmt.Errorf("want quota N|none")
		}
		s.quota = -1
		if args[0] != "none" {
			n, err := strconv.Atoi(args[0])
			if err != nil {
				return err
			}
			s.quota = n
		}
	case "pod":
		return s.pod(args)
	case "ready":
		if len(args) < 2 {
			return fmt.Errorf("want ready NAME T [node=N]")
		}
		i, err := s.find(args[0])
		if err != nil {
			return err
		}
		since, err := s.at(args[1])
		if err != nil {
			return err
		}
		s.change(i, func(p *api.Pod) {
			setReady(p, since)
			if p.Spec.NodeName == "" {
				p.Spec.NodeName = "node-1"
			}
			for _, a := range args[2:] {
				if n, ok := strings.CutPrefix(a, "node="); ok {
					p.Spec.NodeName = n
				}
			}
		})
	case "delete":
		if len(args) != 2 {
			return fmt.Errorf("want delete NAME T")
		}
		i, err := s.find(args[0])
		if err != nil {
			return err
		}
		at, err := s.at(args[1])
		if err != nil {
			return err
		}
		s.change(i, func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(at) })
	case "label":
		if len(args) != 2 {
			return fmt.Errorf("want label NAME k=v,...")
		}
		i, err := s.find(args[0])
		if err != nil {
			return err
		}
		s.change(i, func(p *api.Pod) { p.Labels = parseLabels(args[1]) })
	case "observe":
		for range s.inFlight.create {
			s.created++
			name := fmt.Sprintf("%s-c%d", s.rs.Name, s.created)
			p := newPod(name, ownedBy(s.rs.UID, true))
			p.Namespace, p.Labels = "default", cloneLabels(s.rs.Spec.Template.Labels)
			p.Spec.NodeName, p.Status = "", api.PodStatus{Phase: api.PodPending}
			p.CreationTimestamp = api.NewTime(s.inFlight.at)
			s.pods = append(s.pods, p)
		}
		for _, name := range s.inFlight.deleted {
			if i, err := s.find(name); err == nil {
				s.change(i, func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(s.inFlight.at) })
			}
		}
		s.inFlight.create, s.inFlight.deleted = 0, nil
	case "gone":
		i, err := s.find(strings.Join(args, ""))
		if err != nil {
			return err
		}
		s.pods = slices.Delete(s.pods, i, i+1)
	default:
		return fmt.Errorf("unknown directive")
	}
	return nil
}

func (s *rsStory) pod(args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("want pod NAME [options]")
	}
	p := newPod(args[0], ownedBy(s.rs.UID, true))
	p.Namespace, p.UID = "default", "uid-"+args[0]
	p.Labels = cloneLabels(s.rs.Spec.Template.Labels)
	p.CreationTimestamp = api.NewTime(t0.Add(-time.Hour))
	unready(p)
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		var err error
		switch k {
		case "mine":
		case "orphan":
			p.OwnerReferences = nil
		case "other":
			p.OwnerReferences = nil
			ownedBy("uid-other", true)(p)
		case "node":
			p.Spec.NodeName = v
		case "phase":
			p.Status.Phase = api.PodPhase(v)
		case "ready":
			var since time.Time
			since, err = s.at(v)
			setReady(p, since)
		case "created":
			var at time.Time
			at, err = s.at(v)
			p.CreationTimestamp = api.NewTime(at)
		case "cost":
			p.Annotations = map[string]string{AnnotationPodDeletionCost: v}
		case "restarts":
			var n int
			n, err = strconv.Atoi(v)
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", RestartCount: int32(n)}}
		case "labels":
			p.Labels = parseLabels(v)
		default:
			return fmt.Errorf("pod option %q", a)
		}
		if err != nil {
			return fmt.Errorf("pod option %q: %v", a, err)
		}
	}
	s.pods = append(s.pods, p)
	return nil
}

func (s *rsStory) Step(d time.Duration, input string) ([]string, error) {
	if input != "sync" {
		return nil, fmt.Errorf("the only input is sync")
	}
	if s.rs == nil {
		return nil, fmt.Errorf("no replicaset")
	}
	now := t0.Add(d)
	in := ReplicaSetInput{ReplicaSet: s.rs, Pods: s.pods}
	if s.quota >= 0 {
		in.AcceptCreates = ptr(s.quota)
	}
	res, err := s.c.Step(in, now)
	if err != nil {
		return nil, err
	}
	// The patches are applied at once; the status when written.
	for _, p := range res.Adopted {
		i, _ := s.find(p.Name)
		s.change(i, func(p *api.Pod) {
			p.OwnerReferences = AdoptOwnerReferences(p.OwnerReferences, NewControllerRef(&s.rs.ObjectMeta, "apps/v1", "ReplicaSet"))
		})
	}
	for _, p := range res.Released {
		i, _ := s.find(p.Name)
		s.change(i, func(p *api.Pod) { p.OwnerReferences = ReleaseOwnerReferences(p.OwnerReferences, s.rs.UID) })
	}
	if res.StatusUpdated {
		rs := *s.rs
		rs.Status = res.Status
		s.rs = &rs
	}
	if res.Created > 0 || len(res.Delete) > 0 {
		s.inFlight.create, s.inFlight.at, s.inFlight.deleted = s.inFlight.create+res.Created, now, nil
		for _, p := range res.Delete {
			s.inFlight.deleted = append(s.inFlight.deleted, p.Name)
		}
	}

	var did []string
	if len(res.Adopted) > 0 {
		did = append(did, "adopt "+strings.Join(podNames(res.Adopted), ","))
	}
	if len(res.Released) > 0 {
		did = append(did, "release "+strings.Join(podNames(res.Released), ","))
	}
	switch {
	case !res.Managed:
		did = append(did, "status only")
	case res.Create > 0:
		did = append(did, fmt.Sprintf("create %d of %d (%d attempts)", res.Created, res.Create, res.CreateAttempts))
	case len(res.Delete) > 0:
		did = append(did, "delete "+strings.Join(podNames(res.Delete), ","))
	default:
		did = append(did, "in sync")
	}
	st := res.Status
	term := "-"
	if st.TerminatingReplicas != nil {
		term = strconv.Itoa(int(*st.TerminatingReplicas))
	}
	status := fmt.Sprintf("replicas %d labeled %d ready %d available %d terminating %s gen %d", st.Replicas, st.FullyLabeledReplicas, st.ReadyReplicas, st.AvailableReplicas, term, st.ObservedGeneration)
	if res.StatusUpdated {
		status += " (written)"
	}
	out := []string{strings.Join(did, "; "), status}
	for _, c := range st.Conditions {
		out = append(out, fmt.Sprintf("%s %s %s: %s", c.Type, c.Status, c.Reason, c.Message))
	}
	if res.Err != nil {
		out = append(out, "error: "+res.Err.Error())
	}
	next := "-"
	if at, ok := s.Next(); ok {
		next = story.Format(at)
	}
	out = append(out, fmt.Sprintf("expect +%d -%d | next %s", res.Expectations.Add, res.Expectations.Del, next))
	return out, nil
}
