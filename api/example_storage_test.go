package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// Decode reads the storage objects the scheduler's volume plugins consult,
// here as `kubectl get pvc,pv,storageclass -o json` prints them; the helpers
// then answer the questions VolumeBinding asks of them.
func ExampleDecode_storage() {
	doc := `{"apiVersion":"v1","kind":"List","items":[
	  {"apiVersion":"v1","kind":"PersistentVolumeClaim",
	   "metadata":{"name":"data","namespace":"shop","uid":"c-1"},
	   "spec":{"accessModes":["ReadWriteOncePod"],"resources":{"requests":{"storage":"10Gi"}},
	           "storageClassName":"local","volumeName":"pv-local-b"},
	   "status":{"phase":"Bound"}},
	  {"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-local-b"},
	   "spec":{"capacity":{"storage":"100Gi"},"accessModes":["ReadWriteOncePod"],"local":{"path":"/mnt/ssd0"},
	           "claimRef":{"kind":"PersistentVolumeClaim","namespace":"shop","name":"data","uid":"c-1"},
	           "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
	             {"key":"kubernetes.io/hostname","operator":"In","values":["node-b"]}]}]}},
	           "storageClassName":"local"},
	   "status":{"phase":"Bound"}},
	  {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"local"},
	   "provisioner":"kubernetes.io/no-provisioner","volumeBindingMode":"WaitForFirstConsumer"}]}`
	objs, err := api.Decode([]byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	claim := objs[0].(*api.PersistentVolumeClaim)
	pv := objs[1].(*api.PersistentVolume)
	class := objs[2].(*api.StorageClass)
	size := claim.Spec.Resources.Requests[api.ResourceStorage]
	fmt.Printf("claim %s/%s asks %s of class %q, ReadWriteOncePod: %v\n",
		claim.Namespace, claim.Name, size.String(), claim.ClassName(), claim.IsReadWriteOncePod())
	fmt.Printf("class %s binds %s\n", class.Name, class.BindingMode())
	fmt.Printf("volume %s bound to the claim: %v\n", pv.Name, pv.IsBoundToClaim(claim))

	// Compile the volume's node affinity once, match every node by labels.
	m, err := api.NewNodeSelectorMatcher(pv.RequiredNodeAffinity())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, node := range []string{"node-a", "node-b"} {
		fmt.Printf("%s can reach it: %v\n", node, m.Match("", map[string]string{api.LabelHostname: node}))
	}
	// Output:
	// claim shop/data asks 10Gi of class "local", ReadWriteOncePod: true
	// class local binds WaitForFirstConsumer
	// volume pv-local-b bound to the claim: true
	// node-a can reach it: false
	// node-b can reach it: true
}
