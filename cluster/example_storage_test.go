package cluster_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/cluster"
)

// A claim of a WaitForFirstConsumer StorageClass and a pod that uses it,
// with the provisioner model taking 5 s (config provision-delay; the e2e
// harness's model takes none). kube-scheduler picks node-1 and waits in
// VolumeBinding's PreBind; the PersistentVolume controller hands the
// claim to the external provisioner (ExternalProvisioning, recorded again
// when its own annotation write comes back through the informer); 5 s
// later the volume exists and is bound, and PreBind's next poll (each
// second from its start) finds it: the pod is bound and its volume
// attached; t=0 is when the pod has started.
func ExampleStorageConfig() {
	scenario := `{
	  "objects": [
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1", "labels": {"topology.kubernetes.io/zone": "eu-1a"}},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1", "metadata": {"name": "fast"},
	     "provisioner": "ebs.csi.aws.com", "volumeBindingMode": "WaitForFirstConsumer"},
	    {"kind": "PersistentVolumeClaim", "apiVersion": "v1", "metadata": {"name": "data", "namespace": "shop"},
	     "spec": {"storageClassName": "fast", "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}},
	    {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "db", "namespace": "shop"},
	     "spec": {"containers": [{"name": "postgres", "image": "postgres:17"}],
	       "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]}}
	  ],
	  "until": "10s",
	  "config": {"provision-delay": "5s"}
	}`
	sc, err := cluster.ParseScenario([]byte(scenario))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := cluster.Run(sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range append(res.Setup, res.Records...) {
		switch r.Reason {
		case "ExternalProvisioning", "ProvisioningSucceeded", "Scheduled", "SuccessfulAttachVolume", "Started":
			fmt.Printf("t=%.0fs %-22s %s\n", r.Offset, r.Reason, r.Object)
		}
	}
	// Output:
	// t=-7s ExternalProvisioning   PersistentVolumeClaim/shop/data
	// t=-7s ExternalProvisioning   PersistentVolumeClaim/shop/data
	// t=-2s ProvisioningSucceeded  PersistentVolumeClaim/shop/data
	// t=-1s Scheduled              Pod/shop/db
	// t=-1s SuccessfulAttachVolume Pod/shop/db
	// t=0s Started                Pod/shop/db
}
