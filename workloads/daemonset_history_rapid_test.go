package workloads_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

// TestRapidDaemonSetHistory drives an OnDelete DaemonSet through template
// changes (to images it may have had before: rollbacks), history limits,
// pods replaced one at a time and syncs, carrying out every write, and
// checks after each sync that
//
//   - exactly one stored revision restores the template, and it is the
//     sync's current revision, whose hash new pods carry;
//   - the old revisions number at most revisionHistoryLimit plus those a
//     pod the sync saw still runs;
//   - revision numbers are distinct, the current one is the highest, and
//     it never goes down; a template that becomes current (new or rolled
//     back to) gets a number above every earlier one.
func TestRapidDaemonSetHistory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ds := fluentd()
		nodes := dsNodes("n1", "n2", "n3")
		var revs []*api.ControllerRevision
		var pods []*api.Pod
		made := 0
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		var lastCur *api.ControllerRevision
		var top int64
		steps := rapid.IntRange(1, 30).Draw(t, "steps")
		for range steps {
			now = now.Add(time.Second)
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				ds.Spec.Template.Spec.Containers[0].Image = rapid.SampledFrom([]string{"v1", "v2", "v3", "v4", "v5"}).Draw(t, "image")
			case 1:
				if rapid.Bool().Draw(t, "unset") {
					ds.Spec.RevisionHistoryLimit = nil
				} else {
					l := int32(rapid.IntRange(0, 3).Draw(t, "limit"))
					ds.Spec.RevisionHistoryLimit = &l
				}
			case 2:
				if len(pods) > 0 {
					i := rapid.IntRange(0, len(pods)-1).Draw(t, "replace")
					pods = append(pods[:i:i], pods[i+1:]...)
				}
			}
			seen := pods
			r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{DaemonSet: ds, Nodes: nodes, Pods: pods, Revisions: revs}, now)
			if err != nil || r.Err != nil {
				t.Fatalf("sync: %v %v", err, r.Err)
			}
			for _, a := range r.RevisionActions {
				switch a.Kind {
				case workloads.RevisionCreate:
					revs = append(revs, a.Revision)
				case workloads.RevisionDelete:
					revs = dsFilter(revs, func(x *api.ControllerRevision) bool { return x.Name != a.Revision.Name })
				default:
					for i, x := range revs {
						if x.Name == a.Revision.Name {
							revs[i] = a.Revision
						}
					}
				}
			}
			for _, c := range r.Create {
				made++
				c.Pod.Name, c.Pod.Namespace, c.Pod.UID = fmt.Sprint("p", made), ds.Namespace, fmt.Sprint("uid-", made)
				c.Pod.Spec.NodeName = c.Node
				pods = append(pods, c.Pod)
			}
			if r.StatusUpdated {
				ds.Status = r.Status
			}

			data, _ := workloads.DaemonSetRevisionData(ds)
			cur := r.CurrentRevision
			if cur == nil || !bytes.Equal(cur.Data, data) {
				t.Fatalf("current revision %v does not restore the template", cur)
			}
			hash := cur.Labels[api.LabelControllerRevisionHash]
			for _, c := range r.Create {
				if c.Pod.Labels[api.LabelControllerRevisionHash] != hash {
					t.Fatalf("new pod with hash %q, current %q", c.Pod.Labels[api.LabelControllerRevisionHash], hash)
				}
			}
			restoring, live, old := 0, map[string]bool{}, 0
			for _, p := range seen {
				live[p.Labels[api.LabelControllerRevisionHash]] = true
			}
			liveOld := 0
			numbers := map[int64]bool{}
			for _, x := range revs {
				if numbers[x.Revision] {
					t.Fatalf("revision number %d twice", x.Revision)
				}
				numbers[x.Revision] = true
				if bytes.Equal(x.Data, data) {
					restoring++
					if x.Name != cur.Name || x.Revision != cur.Revision {
						t.Fatalf("stored %s #%d restores the template, current is %s #%d", x.Name, x.Revision, cur.Name, cur.Revision)
					}
					continue
				}
				old++
				if live[x.Labels[api.LabelControllerRevisionHash]] {
					liveOld++
				}
				if x.Revision >= cur.Revision {
					t.Fatalf("old %s #%d not below current #%d", x.Name, x.Revision, cur.Revision)
				}
			}
			if restoring != 1 {
				t.Fatalf("%d stored revisions restore the template", restoring)
			}
			limit := 10
			if l := ds.Spec.RevisionHistoryLimit; l != nil {
				limit = int(*l)
			}
			if old > limit+liveOld {
				t.Fatalf("%d old revisions, limit %d, %d live", old, limit, liveOld)
			}
			if lastCur != nil && cur.Revision < lastCur.Revision {
				t.Fatalf("current went from #%d to #%d", lastCur.Revision, cur.Revision)
			}
			if lastCur != nil && cur.Name != lastCur.Name && cur.Revision <= top {
				t.Fatalf("newly current %s #%d not above #%d", cur.Name, cur.Revision, top)
			}
			lastCur = cur
			top = max(top, cur.Revision)
		}
	})
}
