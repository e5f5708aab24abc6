package workloads

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
)

// TestStoriesStatefulSet replays the StatefulSet controller's stories in
// testdata/statefulset (see package internal/story for the format). A
// story keeps a small API server (the set, its pods, claims and
// revisions) and performs every write the controller returns; a deleted
// pod stays Terminating until the story says it is gone. Directives:
//
//	set web replicas=3 [parallel] [ondelete] [partition=N] [minready=S]
//	    [start=N] [whenScaled=Delete] [whenDeleted=Delete]
//	                        the docs' "web" set (nginx, claim "www")
//
// Inputs, each followed by a sync (an informer event wakes the
// controller): Sync (the tick), Ready(POD) (Running and Ready from now),
// NotReady(POD), Fail(POD) (phase Failed), Delete(POD) (someone else
// deletes it: kubectl delete, the taint eviction controller; it stays
// Terminating), Gone(POD) (the object is removed: graceful deletion done,
// pod GC or a force delete),
// Scale(N), Image(TAG) (a new template), Partition(N). Each answer lists
// the writes, then one line: the status (as written, or "unchanged"),
// where the sync stopped and the machine's next deadline.
func TestStoriesStatefulSet(t *testing.T) {
	story.Run(t, "testdata/statefulset/*.txt", func() story.Adapter { return &ssStory{} })
}

type ssStory struct {
	w *ssWorld
	c *StatefulSetController
}

var ssStoryStart = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func (s *ssStory) Block(string) bool { return false }

func (s *ssStory) Directive(cmd string, args []string, _ string) error {
	if cmd != "set" {
		return fmt.Errorf("unknown directive %q", cmd)
	}
	if len(args) < 1 || args[0] != "web" {
		return fmt.Errorf("want set web OPTIONS")
	}
	set := nginxSet(3)
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "replicas":
			set.Spec.Replicas = ptr(int32(n))
		case "parallel":
			set.Spec.PodManagementPolicy = api.ParallelPodManagement
		case "ondelete":
			set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
		case "partition":
			set.Spec.UpdateStrategy.RollingUpdate.Partition = ptr(int32(n))
		case "minready":
			set.Spec.MinReadySeconds = int32(n)
		case "start":
			set.Spec.Ordinals = &api.StatefulSetOrdinals{Start: int32(n)}
		case "whenScaled":
			set.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = api.PersistentVolumeClaimRetentionPolicyType(v)
		case "whenDeleted":
			set.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = api.PersistentVolumeClaimRetentionPolicyType(v)
		default:
			return fmt.Errorf("unknown set option %q", a)
		}
	}
	s.w = newSSWorld(set)
	s.c = NewStatefulSetController(StatefulSetConfig{})
	return nil
}

func (s *ssStory) Tick() string { return "Sync" }

func (s *ssStory) Next() (time.Duration, bool) {
	if s.c == nil || s.c.NextDeadline().IsZero() {
		return 0, false
	}
	return s.c.NextDeadline().Sub(ssStoryStart), true
}

func (s *ssStory) Step(at time.Duration, input string) ([]string, error) {
	if s.w == nil {
		return nil, fmt.Errorf("no set yet")
	}
	now := ssStoryStart.Add(at)
	name, arg, _ := strings.Cut(strings.TrimSuffix(input, ")"), "(")
	set := s.w.set
	var err error
	switch name {
	case "Sync":
	case "Ready":
		err = s.w.ready(arg, now)
	case "NotReady":
		err = s.w.notReady(arg, now)
	case "Fail":
		err = s.w.fail(arg)
	case "Gone":
		err = s.w.gone(arg)
	case "Delete":
		err = s.w.setPod(arg, func(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(now) })
	case "Scale", "Partition":
		n, perr := strconv.Atoi(arg)
		if perr != nil {
			return nil, perr
		}
		if name == "Scale" {
			set.Spec.Replicas = ptr(int32(n))
		} else {
			set.Spec.UpdateStrategy.RollingUpdate.Partition = ptr(int32(n))
		}
		set.Generation++
	case "Image":
		set.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:" + arg
		set.Generation++
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	if err != nil {
		return nil, err
	}
	res, err := s.c.Step(s.w.input(), now)
	if err != nil {
		return nil, err
	}
	if err := s.w.apply(res, now); err != nil {
		return nil, err
	}
	var out []string
	for _, a := range res.RevisionActions {
		out = append(out, a.String())
	}
	for _, a := range res.Actions {
		line := a.String()
		if a.Kind == StatefulSetCreate {
			line += " at " + a.Revision
		}
		if a.Kind == StatefulSetUpdateClaim {
			var owners []string
			for _, r := range a.Claim.OwnerReferences {
				owners = append(owners, r.Kind+"/"+r.Name)
			}
			line += " owners [" + strings.Join(owners, " ") + "]"
		}
		out = append(out, line)
	}
	st := res.Status
	summary := "status unchanged"
	if res.WriteStatus {
		summary = fmt.Sprintf("status replicas=%d ready=%d available=%d current=%d updated=%d revisions %s..%s",
			st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas, st.CurrentRevision, st.UpdateRevision)
	}
	if res.Wait != nil {
		summary += " | waits for " + res.Wait.Pod + ": " + res.Wait.Reason
	}
	if res.Err != nil {
		summary += " | error: " + res.Err.Error()
	}
	if d := s.c.NextDeadline(); !d.IsZero() {
		summary += " | next " + d.Sub(ssStoryStart).String()
	}
	return append(out, summary), nil
}
