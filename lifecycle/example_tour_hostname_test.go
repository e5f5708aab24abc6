package lifecycle_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// The pod of the Kubernetes docs' "DNS for Services and Pods" page: with a
// hostname and a subdomain it has a fully qualified name in the cluster's
// domain, and the kubelet writes it in the pod's /etc/hosts.
func ExampleHostname_subdomain() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "busybox1", Namespace: "my-namespace"},
		Spec:       api.PodSpec{Hostname: "busybox-1", Subdomain: "busybox-subdomain"},
	}
	h, err := lifecycle.Hostname(pod, "cluster.local")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hostname:", h.Hostname)
	fmt.Println("FQDN:", h.FQDN())
	hosts, _ := lifecycle.EtcHosts(pod, h, []string{"10.244.1.7"}, "")
	fmt.Print(hosts)
	// Output:
	// hostname: busybox-1
	// FQDN: busybox-1.busybox-subdomain.my-namespace.svc.cluster.local
	// # Kubernetes-managed hosts file.
	// 127.0.0.1	localhost
	// ::1	localhost ip6-localhost ip6-loopback
	// fe00::0	ip6-localnet
	// fe00::0	ip6-mcastprefix
	// fe00::1	ip6-allnodes
	// fe00::2	ip6-allrouters
	// 10.244.1.7	busybox-1.busybox-subdomain.my-namespace.svc.cluster.local	busybox-1
}
