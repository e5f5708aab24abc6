package workloads_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The revision the DaemonSet controller records for a template: what
// "kubectl rollout history daemonset/fluentd-elasticsearch --revision=1"
// shows comes from this object's data.
func ExampleNewDaemonSetRevision() {
	ds := fluentd()
	rev, err := workloads.NewDaemonSetRevision(ds, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	hash, _ := workloads.DaemonSetRevisionHash(ds)
	fmt.Println("named after the hash:", rev.Name == "fluentd-elasticsearch-"+hash)
	fmt.Println("labelled with it:", rev.Labels[api.LabelControllerRevisionHash] == hash)
	fmt.Println("owner:", rev.OwnerReferences[0].Kind, rev.OwnerReferences[0].Name)
	fmt.Println("revision:", rev.Revision)
	fmt.Println(string(rev.Data)[:49])
	// Output:
	// named after the hash: true
	// labelled with it: true
	// owner: DaemonSet fluentd-elasticsearch
	// revision: 1
	// {"spec":{"template":{"$patch":"replace","metadata
}

// "kubectl rollout undo daemonset/fluentd-elasticsearch": the DaemonSet
// controller finds the earlier revision that restores the template again
// and renumbers it above the others instead of creating a new one; the
// history keeps spec.revisionHistoryLimit old revisions.
func ExampleSyncDaemonSet_rollback() {
	ds := fluentd()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var revs []*api.ControllerRevision
	sync := func(image string) {
		ds.Spec.Template.Spec.Containers[0].Image = image
		r, err := workloads.SyncDaemonSet(workloads.DaemonSetInput{DaemonSet: ds, Revisions: revs}, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, a := range r.RevisionActions {
			switch a.Kind {
			case workloads.RevisionCreate:
				revs = append(revs, a.Revision)
			case workloads.RevisionUpdate:
				for i := range revs {
					if revs[i].Name == a.Revision.Name {
						revs[i] = a.Revision
					}
				}
			}
			fmt.Printf("%s #%d\n", a.Kind, a.Revision.Revision)
		}
		tag := image[strings.LastIndex(image, ":")+1:]
		fmt.Printf("%s is revision %d\n", tag, r.CurrentRevision.Revision)
	}
	sync("quay.io/fluentd_elasticsearch/fluentd:v5.0.1")
	sync("quay.io/fluentd_elasticsearch/fluentd:v5.0.2")
	sync("quay.io/fluentd_elasticsearch/fluentd:v5.0.1") // the rollback
	// Output:
	// CreateRevision #1
	// v5.0.1 is revision 1
	// CreateRevision #2
	// v5.0.2 is revision 2
	// UpdateRevision #3
	// v5.0.1 is revision 3
}
