package lifecycle_test

import (
	"encoding/json"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// FuzzValidate decodes arbitrary JSON as an old and a new pod and runs
// every validator on them: none may panic, and an identical valid pod
// must stay valid through an update onto itself.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"metadata":{"name":"web","namespace":"default"},"spec":{"containers":[{"name":"app","image":"nginx","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}`,
		`{"metadata":{"name":"x"},"spec":{"initContainers":[{"name":"i","restartPolicy":"Always","livenessProbe":{"exec":{}}}],"ephemeralContainers":[{"name":"i","ports":[{"containerPort":1}]}],"topologySpreadConstraints":[{"matchLabelKeys":["a"],"labelSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}}]}}`,
		`{"spec":{"os":{"name":"windows"},"hostUsers":false,"hostPID":true,"securityContext":{"windowsOptions":{"runAsUserName":"a\\b\\c"}},"tolerations":[{"operator":"Lt","tolerationSeconds":1}],"volumes":[{"name":"v","hostPath":{"path":"/.."},"emptyDir":{}}]}}`,
		`{}`,
	} {
		f.Add([]byte(seed), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, oldJSON, newJSON []byte) {
		var oldPod, newPod api.Pod
		if json.Unmarshal(oldJSON, &oldPod) != nil || json.Unmarshal(newJSON, &newPod) != nil {
			return
		}
		lifecycle.ValidateCreate(&newPod)
		lifecycle.ValidateUpdate(&newPod, &oldPod)
		lifecycle.ValidateEphemeralContainersUpdate(&newPod, &oldPod)
		if len(lifecycle.ValidateCreate(&oldPod)) == 0 {
			oldPod.ResourceVersion = "1"
			if errs := lifecycle.ValidateUpdate(&oldPod, &oldPod); len(errs) != 0 {
				t.Fatalf("valid pod does not update onto itself: %v", errs)
			}
		}
	})
}
