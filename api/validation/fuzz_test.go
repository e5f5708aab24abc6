package validation_test

import (
	"encoding/json"
	"net/netip"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
	"github.com/podsem/podsem/downward"
)

// FuzzValidate decodes arbitrary JSON as an old and a new pod and runs
// every validator on them: none may panic, and an identical valid pod
// must stay valid through an update onto itself.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"metadata":{"name":"web","namespace":"default"},"spec":{"containers":[{"name":"app","image":"nginx","imagePullPolicy":"Always","terminationMessagePolicy":"File"}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}`,
		`{"metadata":{"name":"x"},"spec":{"initContainers":[{"name":"i","restartPolicy":"Always","livenessProbe":{"exec":{}}}],"ephemeralContainers":[{"name":"i","ports":[{"containerPort":1}]}],"topologySpreadConstraints":[{"matchLabelKeys":["a"],"labelSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}}]}}`,
		`{"spec":{"os":{"name":"windows"},"hostUsers":false,"hostPID":true,"securityContext":{"windowsOptions":{"runAsUserName":"a\\b\\c"}},"tolerations":[{"operator":"Lt","tolerationSeconds":1}],"volumes":[{"name":"v","hostPath":{"path":"/.."},"emptyDir":{}}]}}`,
		`{"metadata":{"name":"n"},"spec":{"dnsPolicy":"None","dnsConfig":{"nameservers":["::ffff:1.2.3.4","010.0.0.1"],"searches":[".","_a.b."],"options":[{}]},"hostAliases":[{"ip":"fe80::1%eth0","hostnames":["A"]}],"hostnameOverride":"","resourceClaims":[{"name":"c","resourceClaimName":"x","resourceClaimTemplateName":"y"}],"containers":[{"name":"c","resources":{"claims":[{"name":"c","request":"r"},{"name":"c"}]},"volumeDevices":[{"name":"v","devicePath":"/d"}],"volumeMounts":[{"name":"v","mountPath":"/d","recursiveReadOnly":"Enabled","mountPropagation":"Bidirectional"}]}],"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"name":"x"},"spec":{"accessModes":["ReadWriteOncePod","ReadWriteOnce"],"dataSourceRef":{"namespace":"Bad"}}}}}],"securityContext":{"supplementalGroupsPolicy":"x","seLinuxChangePolicy":"MountOption"}}}`,
		`{}`,
	} {
		f.Add([]byte(seed), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, oldJSON, newJSON []byte) {
		var oldPod, newPod api.Pod
		if json.Unmarshal(oldJSON, &oldPod) != nil || json.Unmarshal(newJSON, &newPod) != nil {
			return
		}
		validation.ValidatePodCreate(&newPod)
		validation.ValidatePodUpdate(&newPod, &oldPod)
		validation.ValidatePodEphemeralContainersUpdate(&newPod, &oldPod)
		if len(validation.ValidatePodCreate(&oldPod)) == 0 {
			oldPod.ResourceVersion = "1"
			if errs := validation.ValidatePodUpdate(&oldPod, &oldPod); len(errs) != 0 {
				t.Fatalf("valid pod does not update onto itself: %v", errs)
			}
		}
	})
}

// FuzzNameserverIP runs arbitrary strings through the IP rule of
// dnsConfig nameservers and hostAliases: it must not panic, must report
// at most one error per address, and must accept every address that Go's
// strict parser reads as a plain, zone-less IPv4 or non-mapped IPv6
// address.
func FuzzNameserverIP(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "010.0.0.1", "::ffff:1.2.3.4", "fe80::1%eth0", "00001::1", "1:2:3:4:5:6:7::", "::1.2.3.4", "", "1.2.3", "FE80::ABC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := &api.Pod{Spec: api.PodSpec{DNSConfig: &api.PodDNSConfig{Nameservers: []string{s}}, HostAliases: []api.HostAlias{{IP: s}}}}
		var nsErrs, haErrs int
		for _, e := range validation.ValidatePodCreate(p) {
			switch e.Field {
			case "spec.dnsConfig.nameservers[0]":
				nsErrs++
			case "spec.hostAliases[0].ip":
				haErrs++
			}
		}
		if nsErrs > 1 || nsErrs != haErrs {
			t.Fatalf("%q: %d nameserver errors, %d host alias errors", s, nsErrs, haErrs)
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" && !a.Is4In6() && nsErrs != 0 {
			t.Fatalf("%q is a plain address but was refused", s)
		}
	})
}

// FuzzObjectFieldSelectorResolves checks the API server's field-path
// validation against the kubelet's resolution: every path validation
// accepts for a mode, downward.FieldRef resolves in that mode.
func FuzzObjectFieldSelectorResolves(f *testing.F) {
	for _, s := range []string{
		"metadata.name", "metadata.labels['app']", "metadata.annotations['A/b']", "metadata.labels",
		"spec.host", "status.hostIPs", "status.phase", "['x']", "metadata.labels['a']']", "metadata.labels[''",
		"metadata.annotations['a[b]c']", "", "']", "['']",
	} {
		f.Add(s)
	}
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "shop", UID: "uid-1",
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"Build": "two"}},
		Spec: api.PodSpec{NodeName: "node-1", ServiceAccountName: "builder"},
	}
	ctx := &downward.Context{
		Node:  &api.Node{Status: api.NodeStatus{Addresses: []api.NodeAddress{{Type: api.NodeInternalIP, Address: "192.168.0.7"}}}},
		PodIP: "10.244.0.7", PodIPs: []string{"10.244.0.7"},
	}
	f.Fuzz(func(t *testing.T, path string) {
		ref := api.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}
		for _, mode := range []downward.Mode{downward.Env, downward.Volume} {
			if len(validation.ValidateObjectFieldSelector(ref, mode, api.NewPath("fieldRef"))) != 0 {
				continue
			}
			if _, err := downward.FieldRef(pod, ref, mode, ctx); err != nil {
				t.Fatalf("%q passes %v validation but FieldRef fails: %v", path, mode, err)
			}
		}
	})
}
