package workloads_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/story"
	"github.com/podsem/podsem/workloads"
)

// The DaemonSet controller's stories, in testdata/daemonset/. The adapter
// keeps the cluster the controller watches — the DaemonSet, the nodes,
// the pods — and plays the API server, the scheduler and the kubelets
// only when a story says so:
//
//	daemonset ... end            the DaemonSet (JSON), before the first input
//	node NAME [k=v] [taint=key[=value]:Effect] [unschedulable]
//	                             a node (directive or input: added or replaced)
//	remove-node NAME             the node is deleted (input)
//	sync                         the controller syncs (also the tick of "run")
//	apply                        the API server carries out the creates and
//	                             deletes sent so far (the scheduler binds each
//	                             new pod to its node, Pending; a deleted pod is
//	                             gone at once); then the controller syncs
//	ready POD...|all             the kubelet reports the pods Running and Ready
//	fail POD...                  the kubelet reports the pods Failed
//	update-template image=IMAGE  the template changes (generation and the
//	                             template-generation annotation go up)
//	orphan-revision NAME N       an orphan ControllerRevision NAME numbered
//	                             N appears, restoring the current template,
//	                             with the template's labels and no hash
//	                             label (left by a DaemonSet deleted with
//	                             orphan propagation); no sync
//	squat-revision               a ControllerRevision of someone else
//	                             (no owner, other labels and data) takes
//	                             the name the current template's revision
//	                             would get; no sync
//
// The API server carries out ControllerRevision writes and pod relabels at
// once, as upstream's sync waits for each. Each answer lists the revision
// writes ("revision KIND NAME #NUMBER", the hash in a name shown as {h1},
// {h2}... in order of appearance), relabels, the creates (by node), the
// deletes (pod and reason), adoptions and releases, events, and the status
// with whether it was written.

var dsStoryT0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func TestStoriesDaemonSet(t *testing.T) {
	story.Run(t, "testdata/daemonset/*.txt", func() story.Adapter { return &dsStory{} })
}

type dsStory struct {
	c     workloads.DaemonSetController
	ds    *api.DaemonSet
	nodes []*api.Node
	pods  []*api.Pod
	revs  []*api.ControllerRevision
	// hashes are the revision hashes seen, in order: rendered {h1}, {h2}...
	hashes []string
	// pending are the creates and deletes sent but not yet carried out.
	pending workloads.DaemonSetSync
	made    int
}

func (s *dsStory) Block(cmd string) bool { return cmd == "daemonset" }

func (s *dsStory) Directive(cmd string, args []string, body string) error {
	switch cmd {
	case "daemonset":
		s.ds = &api.DaemonSet{}
		return json.Unmarshal([]byte(body), s.ds)
	case "node":
		return s.setNode(args)
	}
	return fmt.Errorf("unknown directive %q", cmd)
}

func (s *dsStory) Tick() string { return "sync" }

func (s *dsStory) Next() (time.Duration, bool) {
	d := s.c.NextDeadline()
	if d.IsZero() {
		return 0, false
	}
	return d.Sub(dsStoryT0), true
}

func (s *dsStory) Step(at time.Duration, input string) ([]string, error) {
	now := dsStoryT0.Add(at)
	f := strings.Fields(input)
	switch f[0] {
	case "sync":
	case "node":
		if err := s.setNode(f[1:]); err != nil {
			return nil, err
		}
	case "remove-node":
		s.nodes = dsFilter(s.nodes, func(n *api.Node) bool { return n.Name != f[1] })
	case "apply":
		s.apply(now)
	case "ready", "fail":
		for _, p := range s.pods {
			if f[1] != "all" && !slices.Contains(f[1:], p.Name) {
				continue
			}
			if f[0] == "ready" {
				p.Status.Phase = api.PodRunning
				p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)}}
			} else {
				p.Status.Phase = api.PodFailed
				p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(now)}}
			}
		}
	case "update-template":
		img, ok := strings.CutPrefix(f[1], "image=")
		if !ok {
			return nil, fmt.Errorf("want image=IMAGE, got %q", f[1])
		}
		s.ds.Spec.Template.Spec.Containers[0].Image = img
		s.ds.Generation++
		s.ds.Annotations[workloads.AnnotationDaemonSetTemplateGeneration] = strconv.FormatInt(s.ds.Generation, 10)
	case "orphan-revision":
		if len(f) != 3 {
			return nil, fmt.Errorf("want orphan-revision NAME N, got %q", input)
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, err
		}
		data, err := workloads.DaemonSetRevisionData(s.ds)
		if err != nil {
			return nil, err
		}
		s.revs = append(s.revs, &api.ControllerRevision{
			ObjectMeta: api.ObjectMeta{Name: f[1], Namespace: s.ds.Namespace, UID: "uid-" + f[1],
				Labels: maps.Clone(s.ds.Spec.Template.Labels), CreationTimestamp: api.NewTime(now)},
			Data: data, Revision: n})
		return nil, nil
	case "squat-revision":
		h, err := workloads.DaemonSetRevisionHash(s.ds)
		if err != nil {
			return nil, err
		}
		s.hashOf(h)
		s.revs = append(s.revs, &api.ControllerRevision{
			ObjectMeta: api.ObjectMeta{Name: s.ds.Name + "-" + h, Namespace: s.ds.Namespace, UID: "uid-squatter",
				Labels: map[string]string{"app": "someone-else"}, CreationTimestamp: api.NewTime(now)},
			Data: []byte(`{"other":true}`), Revision: 1})
		return nil, nil
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	r, err := s.c.Step(workloads.DaemonSetInput{DaemonSet: s.ds, Nodes: s.nodes, Pods: s.pods, Revisions: s.revs}, now)
	if err != nil {
		return nil, err
	}
	s.applyRevisions(r, now)
	s.pending.Create = append(s.pending.Create, r.Create...)
	s.pending.Delete = append(s.pending.Delete, r.Delete...)
	if r.StatusUpdated {
		s.ds.Status = r.Status
	}
	return s.render(r), nil
}

// apply carries out the last sync's creates and deletes.
func (s *dsStory) apply(now time.Time) {
	for _, d := range s.pending.Delete {
		s.pods = dsFilter(s.pods, func(p *api.Pod) bool { return p.Name != d.Pod.Name })
	}
	for _, c := range s.pending.Create {
		p := c.Pod
		s.made++
		p.Name = p.GenerateName + strconv.Itoa(s.made)
		p.Namespace = s.ds.Namespace
		p.UID = "uid-" + p.Name
		p.CreationTimestamp = api.NewTime(now)
		p.Spec.NodeName = c.Node
		p.Status.Phase = api.PodPending
		s.pods = append(s.pods, p)
	}
	s.pending = workloads.DaemonSetSync{}
}

// applyRevisions carries out a sync's revision writes and pod relabels.
func (s *dsStory) applyRevisions(r workloads.DaemonSetSync, now time.Time) {
	for _, a := range r.RevisionActions {
		switch a.Kind {
		case workloads.RevisionCreate:
			c := *a.Revision
			c.UID, c.CreationTimestamp = "uid-"+c.Name, api.NewTime(now)
			s.revs = append(s.revs, &c)
		case workloads.RevisionDelete:
			s.revs = dsFilter(s.revs, func(x *api.ControllerRevision) bool { return x.Name != a.Revision.Name })
		default: // adopt, release, update: the object as sent
			for i, x := range s.revs {
				if x.Name == a.Revision.Name {
					s.revs[i] = a.Revision
				}
			}
		}
	}
	for _, q := range r.Relabel {
		for i, p := range s.pods {
			if p.Name == q.Name {
				s.pods[i] = q
			}
		}
	}
}

// hashOf is the alias of a revision hash: {h1} for the first seen...
func (s *dsStory) hashOf(h string) string {
	i := slices.Index(s.hashes, h)
	if i < 0 {
		s.hashes = append(s.hashes, h)
		i = len(s.hashes) - 1
	}
	return "{h" + strconv.Itoa(i+1) + "}"
}

// aliased replaces every revision hash seen in str by its alias.
func (s *dsStory) aliased(str string) string {
	for _, h := range s.hashes {
		str = strings.ReplaceAll(str, h, s.hashOf(h))
	}
	return str
}

func (s *dsStory) render(r workloads.DaemonSetSync) []string {
	var out []string
	for _, a := range r.RevisionActions {
		if h := a.Revision.Labels[api.LabelControllerRevisionHash]; h != "" && h != a.Revision.Name {
			s.hashOf(h)
		}
		kind := strings.ToLower(strings.TrimSuffix(a.Kind.String(), "Revision"))
		out = append(out, fmt.Sprintf("revision %s %s #%d", kind, s.aliased(a.Revision.Name), a.Revision.Revision))
	}
	for _, p := range r.Relabel {
		out = append(out, fmt.Sprintf("relabel %s controller-revision-hash=%s", p.Name, s.aliased(p.Labels[api.LabelControllerRevisionHash])))
	}
	if len(r.Create) > 0 {
		var nodes []string
		for _, c := range r.Create {
			nodes = append(nodes, c.Node)
		}
		out = append(out, "create on "+strings.Join(nodes, ", "))
	}
	if len(r.Delete) > 0 {
		var ds []string
		for _, d := range r.Delete {
			ds = append(ds, fmt.Sprintf("%s on %s (%s)", d.Pod.Name, d.Node, d.Reason))
		}
		out = append(out, "delete "+strings.Join(ds, ", "))
	}
	for _, p := range r.Adopt {
		out = append(out, "adopt "+p.Name)
	}
	for _, p := range r.Release {
		out = append(out, "release "+p.Name)
	}
	for _, e := range r.Events {
		out = append(out, fmt.Sprintf("event %s %s", e.Type, e.Reason))
	}
	st := r.Status
	w := "unchanged"
	if r.StatusUpdated {
		w = "written"
	}
	out = append(out, fmt.Sprintf("status desired=%d current=%d misscheduled=%d ready=%d available=%d updated=%d unavailable=%d observedGeneration=%d (%s)",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberMisscheduled, st.NumberReady, st.NumberAvailable,
		st.UpdatedNumberScheduled, st.NumberUnavailable, st.ObservedGeneration, w))
	if r.RequeueAfter > 0 {
		out = append(out, "requeue after "+r.RequeueAfter.String())
	}
	if st.CollisionCount != nil {
		out = append(out, fmt.Sprintf("collisionCount=%d", *st.CollisionCount))
	}
	if r.Err != nil {
		out = append(out, "error "+s.aliased(r.Err.Error()))
	}
	return out
}

// setNode parses "NAME [k=v]... [taint=key[=value]:Effect]... [unschedulable]"
// and adds or replaces that node.
func (s *dsStory) setNode(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("node: want a name")
	}
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: args[0], Labels: map[string]string{api.LabelHostname: args[0]}}}
	for _, a := range args[1:] {
		switch {
		case a == "unschedulable":
			n.Spec.Unschedulable = true
		case strings.HasPrefix(a, "taint="):
			spec := strings.TrimPrefix(a, "taint=")
			kv, eff, ok := strings.Cut(spec, ":")
			if !ok {
				return fmt.Errorf("taint %q: want key[=value]:Effect", spec)
			}
			k, v, _ := strings.Cut(kv, "=")
			if !strings.Contains(k, "/") {
				k = "node.kubernetes.io/" + k
			}
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: k, Value: v, Effect: api.TaintEffect(eff)})
		default:
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return fmt.Errorf("node %s: want k=v, taint=... or unschedulable, got %q", args[0], a)
			}
			n.Labels[k] = v
		}
	}
	for i, old := range s.nodes {
		if old.Name == n.Name {
			s.nodes[i] = n
			return nil
		}
	}
	s.nodes = append(s.nodes, n)
	return nil
}

func dsFilter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
