package lifecycle_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// The Kubernetes docs' example of a pod with a hostname and a subdomain
// (concepts/services-networking/dns-pod-service): its FQDN is
// busybox-1.busybox-subdomain.my-namespace.svc.cluster-domain.example, and
// /etc/hosts maps its IP to both names.
func ExampleHostname() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "busybox1", Namespace: "my-namespace"},
		Spec:       api.PodSpec{Hostname: "busybox-1", Subdomain: "busybox-subdomain"},
	}
	h, err := lifecycle.Hostname(pod, "cluster-domain.example")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hostname:", h.Hostname)
	fmt.Println("FQDN:", h.FQDN())
	fmt.Println("hostname in the container:", h.Sandbox)
	hosts, _ := lifecycle.EtcHosts(pod, h, []string{"10.244.1.7"}, "")
	fmt.Print(hosts[strings.LastIndex(hosts, "10.244"):])

	// With setHostnameAsFQDN the container's hostname is the FQDN, which
	// must fit in 64 characters: this one has 67.
	fqdn := true
	pod.Spec.SetHostnameAsFQDN = &fqdn
	_, err = lifecycle.Hostname(pod, "cluster-domain.example")
	fmt.Println(err)
	// Output:
	// hostname: busybox-1
	// FQDN: busybox-1.busybox-subdomain.my-namespace.svc.cluster-domain.example
	// hostname in the container: busybox-1
	// 10.244.1.7	busybox-1.busybox-subdomain.my-namespace.svc.cluster-domain.example	busybox-1
	// failed to construct FQDN from pod hostname and cluster domain, FQDN busybox-1.busybox-subdomain.my-namespace.svc.cluster-domain.example is too long (64 characters is the max, 67 characters requested)
}

func TestHostnameTruncation(t *testing.T) {
	// 70 characters whose 63rd and 62nd are '-' and '.': all trailing
	// ones go, leaving 61.
	name := strings.Repeat("a", 61) + ".-" + "bbbbbbb"
	h, err := lifecycle.Hostname(&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns"}}, "cluster.local")
	if err != nil || h.Hostname != strings.Repeat("a", 61) {
		t.Errorf("got %q, %v", h.Hostname, err)
	}
	// hostnameOverride wins over hostname and subdomain: no domain.
	o := "db.example"
	h, err = lifecycle.Hostname(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "ns"}, Spec: api.PodSpec{Hostname: "x", Subdomain: "db", HostnameOverride: &o}}, "cluster.local")
	if err != nil || h.Hostname != "db.example" || h.Domain != "" {
		t.Errorf("override: %+v, %v", h, err)
	}
	// The kubelet checks names itself: an invalid subdomain stops it.
	_, err = lifecycle.Hostname(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "ns"}, Spec: api.PodSpec{Subdomain: "Db"}}, "cluster.local")
	var he *lifecycle.HostnameError
	if !errors.As(err, &he) || he.Stage != lifecycle.HostnameStageHostname {
		t.Errorf("invalid subdomain: %v", err)
	}
}

func TestEtcHostsHostNetworkAndAliases(t *testing.T) {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "kube-system"},
		Spec:       api.PodSpec{HostNetwork: true, HostAliases: []api.HostAlias{{IP: "10.1.2.3", Hostnames: []string{"foo.local", "bar.local"}}}},
	}
	h, err := lifecycle.Hostname(pod, "cluster.local")
	if err != nil || h.Sandbox != "" {
		t.Fatalf("%+v, %v", h, err)
	}
	got, mounted := lifecycle.EtcHosts(pod, h, nil, "127.0.0.1\tlocalhost\n")
	want := "# Kubernetes-managed hosts file (host network).\n127.0.0.1\tlocalhost\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n"
	if !mounted || got != want {
		t.Errorf("got %q (mounted %v), want %q", got, mounted, want)
	}
	c := &api.Container{Name: "c", VolumeMounts: []api.VolumeMount{{Name: "hosts", MountPath: "/etc/hosts"}}}
	if lifecycle.EtcHostsMountedIn(c, mounted) {
		t.Error("a container mounting its own /etc/hosts gets the kubelet's")
	}
	// A pod network pod without an IP yet gets no file.
	pod.Spec.HostNetwork = false
	if _, mounted := lifecycle.EtcHosts(pod, h, nil, ""); mounted {
		t.Error("mounted before the sandbox has an IP")
	}
}

// Whatever the pod's names, an accepted hostname is at most 63 characters,
// one the kubelet had to cut never ends in '-' or '.', and a sandbox
// hostname is at most 64.
func TestHostnameRapid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		label := rapid.StringMatching(`[a-z0-9.-]{0,80}`)
		pod := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: rapid.StringMatching(`[a-z0-9][a-z0-9.-]{0,90}`).Draw(t, "name"), Namespace: "ns"},
			Spec:       api.PodSpec{Hostname: label.Draw(t, "hostname"), Subdomain: label.Draw(t, "subdomain")},
		}
		if rapid.Bool().Draw(t, "fqdn") {
			v := true
			pod.Spec.SetHostnameAsFQDN = &v
		}
		h, err := lifecycle.Hostname(pod, rapid.SampledFrom([]string{"", "cluster.local", "corp.internal.example.org"}).Draw(t, "domain"))
		if err != nil {
			var he *lifecycle.HostnameError
			if !errors.As(err, &he) {
				t.Fatalf("error of another kind: %v", err)
			}
			return
		}
		if len(h.Hostname) > lifecycle.HostnameMaxLength || h.Hostname == "" {
			t.Fatalf("hostname %q", h.Hostname)
		}
		src := pod.Name
		if pod.Spec.Hostname != "" {
			src = pod.Spec.Hostname
		}
		if len(src) > lifecycle.HostnameMaxLength && (strings.HasSuffix(h.Hostname, "-") || strings.HasSuffix(h.Hostname, ".")) {
			t.Fatalf("cut hostname %q ends in '-' or '.'", h.Hostname)
		}
		if len(h.Sandbox) > lifecycle.FQDNMaxLength {
			t.Fatalf("sandbox hostname %q", h.Sandbox)
		}
	})
}
