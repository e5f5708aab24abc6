package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// webStatefulSet is the StatefulSet "web" of the Kubernetes docs' basic
// StatefulSet tutorial, as the API server stores it (defaults applied):
// three nginx replicas behind the headless Service "nginx", each with a
// 1Gi claim "www".
const webStatefulSet = `{
  "apiVersion": "apps/v1", "kind": "StatefulSet",
  "metadata": {"name": "web", "namespace": "default", "uid": "uid-set-web", "generation": 1},
  "spec": {
    "replicas": 3, "serviceName": "nginx", "podManagementPolicy": "OrderedReady",
    "selector": {"matchLabels": {"app": "nginx"}},
    "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
    "revisionHistoryLimit": 10,
    "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
    "template": {
      "metadata": {"labels": {"app": "nginx"}},
      "spec": {
        "containers": [{
          "name": "nginx", "image": "registry.k8s.io/nginx-slim:0.21", "imagePullPolicy": "IfNotPresent",
          "ports": [{"containerPort": 80, "name": "web", "protocol": "TCP"}],
          "volumeMounts": [{"name": "www", "mountPath": "/usr/share/nginx/html"}],
          "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"
        }],
        "restartPolicy": "Always", "terminationGracePeriodSeconds": 10, "dnsPolicy": "ClusterFirst",
        "securityContext": {}, "schedulerName": "default-scheduler"
      }
    },
    "volumeClaimTemplates": [{
      "metadata": {"name": "www"},
      "spec": {"accessModes": ["ReadWriteOnce"], "volumeMode": "Filesystem", "resources": {"requests": {"storage": "1Gi"}}}
    }]
  }
}`

// The docs' walkthrough of ordered pod creation: "kubectl apply -f
// web.yaml", then watch the pods. The controller records the template as
// ControllerRevision web-6949bfdf68, creates claim www-web-0 and pod
// web-0, and waits: web-1 is created only once web-0 is Running and
// Ready, web-2 only once web-1 is.
func ExampleStatefulSetController() {
	objs, err := api.Decode([]byte(webStatefulSet))
	if err != nil {
		fmt.Println(err)
		return
	}
	set := objs[0].(*api.StatefulSet)
	in := workloads.StatefulSetInput{Set: set}
	c := workloads.NewStatefulSetController(workloads.StatefulSetConfig{})
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

	// sync runs the controller and performs its writes the way the API
	// server would.
	sync := func() {
		res, err := c.Step(in, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, a := range res.RevisionActions {
			in.Revisions = append(in.Revisions, a.Revision)
			fmt.Println(" ", a)
		}
		for _, a := range res.Actions {
			fmt.Println(" ", a)
			switch a.Kind {
			case workloads.StatefulSetCreateClaim:
				in.Claims = append(in.Claims, a.Claim)
			case workloads.StatefulSetCreate:
				pod := *a.Object
				pod.UID = "uid-" + pod.Name
				pod.Status.Phase = api.PodPending
				in.Pods = append(in.Pods, &pod)
			}
		}
		if res.WriteStatus {
			set.Status = res.Status
		}
		if res.Wait != nil {
			fmt.Printf("  waits for %s: %s\n", res.Wait.Pod, res.Wait.Reason)
		}
	}
	runningAndReady := func(name string) {
		for _, p := range in.Pods {
			if p.Name == name {
				p.Status.Phase = api.PodRunning
				p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(now)}}
			}
		}
	}

	fmt.Println("kubectl apply -f web.yaml:")
	sync()
	fmt.Println("web-0 is Pending:")
	now = now.Add(5 * time.Second)
	sync()
	fmt.Println("web-0 is Running and Ready:")
	now = now.Add(5 * time.Second)
	runningAndReady("web-0")
	sync()
	fmt.Println("web-1 is Running and Ready:")
	now = now.Add(5 * time.Second)
	runningAndReady("web-1")
	sync()
	fmt.Println("web-2 is Running and Ready:")
	now = now.Add(5 * time.Second)
	runningAndReady("web-2")
	sync()
	fmt.Printf("status: %d replicas, %d ready, revision %s\n", set.Status.Replicas, set.Status.ReadyReplicas, set.Status.CurrentRevision)
	for _, p := range in.Pods {
		fmt.Printf("%s: hostname %s.%s, claim %s, labels pod-name=%s pod-index=%s\n", p.Name, p.Spec.Hostname, p.Spec.Subdomain,
			p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName, p.Labels[api.LabelStatefulSetPodName], p.Labels[api.LabelPodIndex])
	}
	// Output:
	// kubectl apply -f web.yaml:
	//   CreateRevision web-6949bfdf68 1
	//   CreateClaim www-web-0 (missing)
	//   Create web-0 (missing)
	//   waits for web-0: created
	// web-0 is Pending:
	//   waits for web-0: not running and ready
	// web-0 is Running and Ready:
	//   CreateClaim www-web-1 (missing)
	//   Create web-1 (missing)
	//   waits for web-1: created
	// web-1 is Running and Ready:
	//   CreateClaim www-web-2 (missing)
	//   Create web-2 (missing)
	//   waits for web-2: created
	// web-2 is Running and Ready:
	// status: 3 replicas, 3 ready, revision web-6949bfdf68
	// web-0: hostname web-0.nginx, claim www-web-0, labels pod-name=web-0 pod-index=0
	// web-1: hostname web-1.nginx, claim www-web-1, labels pod-name=web-1 pod-index=1
	// web-2: hostname web-2.nginx, claim www-web-2, labels pod-name=web-2 pod-index=2
}

// The ControllerRevision kube-controller-manager records for the docs'
// "web" set, and the one a template change makes: the name is the set's
// name and a hash of the revision's data (FNV-1 with the collision count,
// made safe for names), the same as on a real cluster.
func ExampleNewStatefulSetRevision() {
	objs, _ := api.Decode([]byte(webStatefulSet))
	set := objs[0].(*api.StatefulSet)
	rev, _ := workloads.NewStatefulSetRevision(set, 1, 0)
	fmt.Println(rev.Name, rev.Revision, rev.Labels[api.LabelControllerRevisionHashKey])

	// kubectl set image statefulset/web nginx=registry.k8s.io/nginx-slim:0.24
	set.Spec.Template.Spec.Containers[0].Image = "registry.k8s.io/nginx-slim:0.24"
	next, _ := workloads.NewStatefulSetRevision(set, 2, 0)
	fmt.Println(next.Name, next.Revision)

	// The same template again after a name collision (collisionCount 1).
	again, _ := workloads.NewStatefulSetRevision(set, 2, 1)
	fmt.Println(again.Name != next.Name)
	// Output:
	// web-6949bfdf68 1 6949bfdf68
	// web-6cdc958bf 2
	// true
}
