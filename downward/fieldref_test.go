package downward

import (
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
)

func testPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name:      "web-0",
			Namespace: "shop",
			UID:       "6f1c3f4e-0000-4000-8000-000000000001",
			Labels:    map[string]string{"app": "web", "app.kubernetes.io/name": "web", "tier": ""},
			Annotations: map[string]string{
				"Build":             "two",
				"example.com/owner": "line1\nline2",
				"quote":             `he said "hi"`,
			},
		},
		Spec: api.PodSpec{NodeName: "node-1", ServiceAccountName: "builder"},
	}
}

func testContext() *Context {
	return &Context{
		Node: &api.Node{
			ObjectMeta: api.ObjectMeta{Name: "node-1"},
			Status: api.NodeStatus{Addresses: []api.NodeAddress{
				{Type: api.NodeHostName, Address: "node-1"},
				{Type: api.NodeExternalIP, Address: "203.0.113.9"},
				{Type: api.NodeInternalIP, Address: "fd00::0b01"},
				{Type: api.NodeInternalIP, Address: "192.168.0.7"},
			}},
		},
		PodIP:  "10.244.0.7",
		PodIPs: []string{"fd00:10:244::7", "10.244.0.7", "10.244.9.9"},
	}
}

func TestFieldRef(t *testing.T) {
	cases := []struct {
		name    string
		path    string
		version string
		mode    Mode
		want    string
		err     error
	}{
		{name: "name env", path: "metadata.name", mode: Env, want: "web-0"},
		{name: "name volume", path: "metadata.name", mode: Volume, want: "web-0"},
		{name: "namespace", path: "metadata.namespace", mode: Env, want: "shop"},
		{name: "uid", path: "metadata.uid", mode: Volume, want: "6f1c3f4e-0000-4000-8000-000000000001"},
		{name: "label", path: "metadata.labels['app']", mode: Env, want: "web"},
		{name: "prefixed label", path: "metadata.labels['app.kubernetes.io/name']", mode: Volume, want: "web"},
		{name: "missing label is empty", path: "metadata.labels['zone']", mode: Env, want: ""},
		{name: "annotation checked lowercased, read as written", path: "metadata.annotations['Build']", mode: Volume, want: "two"},
		{name: "annotation raw value", path: "metadata.annotations['example.com/owner']", mode: Env, want: "line1\nline2"},
		{name: "whole labels", path: "metadata.labels", mode: Volume, want: "app=\"web\"\napp.kubernetes.io/name=\"web\"\ntier=\"\""},
		{name: "whole annotations, Go quoting", path: "metadata.annotations", mode: Env,
			want: "Build=\"two\"\nexample.com/owner=\"line1\\nline2\"\nquote=\"he said \\\"hi\\\"\""},
		{name: "nodeName env", path: "spec.nodeName", mode: Env, want: "node-1"},
		{name: "spec.host alias", path: "spec.host", mode: Env, want: "node-1"},
		{name: "serviceAccountName", path: "spec.serviceAccountName", mode: Env, want: "builder"},
		{name: "hostIP prefers InternalIP", path: "status.hostIP", mode: Env, want: "fd00::b01"},
		{name: "hostIPs one per family", path: "status.hostIPs", mode: Env, want: "fd00::b01,192.168.0.7"},
		{name: "podIP by node family", path: "status.podIP", mode: Env, want: "10.244.0.7"},
		{name: "podIPs IPv4 first", path: "status.podIPs", mode: Env, want: "10.244.0.7,fd00:10:244::7"},
		{name: "explicit v1", path: "metadata.name", version: "v1", mode: Env, want: "web-0"},

		{name: "volume ignores apiVersion", path: "metadata.name", version: "apps/v1", mode: Volume, want: "web-0"},
		{name: "env checks apiVersion", path: "metadata.name", version: "v2", mode: Env, err: ErrUnsupportedVersion},
		{name: "nodeName not in volumes", path: "spec.nodeName", mode: Volume, err: ErrUnsupportedField},
		{name: "podIP not in volumes", path: "status.podIP", mode: Volume, err: ErrUnsupportedField},
		{name: "restartPolicy passes conversion, fails kubelet", path: "spec.restartPolicy", mode: Env, err: ErrUnsupportedField},
		{name: "schedulerName", path: "spec.schedulerName", mode: Env, err: ErrUnsupportedField},
		{name: "status.phase", path: "status.phase", mode: Env, err: ErrUnsupportedField},
		{name: "unknown path", path: "metadata.ownerReferences", mode: Env, err: ErrUnsupportedField},
		{name: "subscript on name", path: "metadata.name['x']", mode: Env, err: ErrUnsupportedField},
		{name: "subscript on name, volume", path: "metadata.name['x']", mode: Volume, err: ErrUnsupportedField},
		{name: "empty key", path: "metadata.labels['']", mode: Env, err: ErrInvalidKey},
		{name: "bad label key", path: "metadata.labels['-x']", mode: Volume, err: ErrInvalidKey},
		{name: "two slashes", path: "metadata.annotations['a/b/c']", mode: Env, err: ErrInvalidKey},
		{name: "unquoted subscript", path: "metadata.labels[app]", mode: Env, err: ErrUnsupportedField},
		{name: "unterminated subscript", path: "metadata.labels['app'", mode: Volume, err: ErrUnsupportedField},
		{name: "subscript only", path: "['app']", mode: Env, err: ErrUnsupportedField},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := FieldRef(testPod(), api.ObjectFieldSelector{APIVersion: c.version, FieldPath: c.path}, c.mode, testContext())
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("FieldRef(%q, %v) = %q, %v; want error %v", c.path, c.mode, got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("FieldRef(%q, %v) = %q, %v; want %q", c.path, c.mode, got, err, c.want)
			}
		})
	}
}

func TestFieldRefWithoutNode(t *testing.T) {
	pod := testPod()
	for _, p := range []string{"status.hostIP", "status.hostIPs"} {
		if _, err := FieldRef(pod, api.ObjectFieldSelector{FieldPath: p}, Env, nil); !errors.Is(err, ErrNoNode) {
			t.Errorf("%s with no node: err %v, want ErrNoNode", p, err)
		}
	}
	ctx := &Context{Node: &api.Node{Status: api.NodeStatus{Addresses: []api.NodeAddress{{Type: api.NodeHostName, Address: "n"}}}}}
	if _, err := FieldRef(pod, api.ObjectFieldSelector{FieldPath: "status.hostIP"}, Env, ctx); !errors.Is(err, ErrNoNode) {
		t.Errorf("hostIP with only a Hostname address: err %v, want ErrNoNode", err)
	}
	// Without runtime IPs the pod IPs are empty; a lone runtime podIP is used as is.
	got, err := FieldRef(pod, api.ObjectFieldSelector{FieldPath: "status.podIP"}, Env, &Context{PodIP: "10.0.0.5"})
	if err != nil || got != "10.0.0.5" {
		t.Errorf("podIP = %q, %v; want 10.0.0.5", got, err)
	}
	got, err = FieldRef(pod, api.ObjectFieldSelector{FieldPath: "status.podIPs"}, Env, &Context{PodIP: "10.0.0.5"})
	if err != nil || got != "" {
		t.Errorf("podIPs = %q, %v; want empty", got, err)
	}
	if _, err := FieldRef(nil, api.ObjectFieldSelector{FieldPath: "metadata.name"}, Env, nil); err == nil {
		t.Error("nil pod: no error")
	}
	if _, err := FieldRef(pod, api.ObjectFieldSelector{FieldPath: "metadata.name"}, Mode(7), nil); err == nil {
		t.Error("unknown mode: no error")
	}
}

func TestSplitSubscript(t *testing.T) {
	cases := []struct {
		in, path, key string
		ok            bool
	}{
		{"metadata.annotations['myKey']", "metadata.annotations", "myKey", true},
		{"metadata.annotations['a[b]c']", "metadata.annotations", "a[b]c", true},
		{"metadata.labels['']", "metadata.labels", "", true},
		{"metadata.labels", "metadata.labels", "", false},
		{"['app']", "['app']", "", false},
		{"metadata.labels[app]", "metadata.labels[app]", "", false},
		{"x['a']['b']", "x", "a']['b", true},
	}
	for _, c := range cases {
		p, k, ok := SplitSubscript(c.in)
		if p != c.path || k != c.key || ok != c.ok {
			t.Errorf("SplitSubscript(%q) = %q, %q, %v; want %q, %q, %v", c.in, p, k, ok, c.path, c.key, c.ok)
		}
	}
}

func TestFormatMap(t *testing.T) {
	if got := FormatMap(nil); got != "" {
		t.Errorf("FormatMap(nil) = %q", got)
	}
	got := FormatMap(map[string]string{"b": "tab\there", "a.b": "x", "a": "üñ", "c": "\x00"})
	want := "a=\"üñ\"\na.b=\"x\"\nb=\"tab\\there\"\nc=\"\\x00\""
	if got != want {
		t.Errorf("FormatMap = %q, want %q", got, want)
	}
}

func TestCanonicalFieldPath(t *testing.T) {
	for in, want := range map[string]string{
		"spec.host":               "spec.nodeName",
		"spec.restartPolicy":      "spec.restartPolicy",
		"status.phase":            "status.phase",
		"metadata.labels['-x']":   "metadata.labels['-x']",
		"metadata.annotations":    "metadata.annotations",
		"status.hostIPs":          "status.hostIPs",
		"spec.serviceAccountName": "spec.serviceAccountName",
	} {
		if got, err := CanonicalFieldPath("v1", in); err != nil || got != want {
			t.Errorf("CanonicalFieldPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"spec.nodeName['x']", "metadata.generateName", "", "spec.terminationGracePeriodSeconds"} {
		if got, err := CanonicalFieldPath("v1", in); err == nil {
			t.Errorf("CanonicalFieldPath(%q) = %q, want error", in, got)
		}
	}
	if _, err := CanonicalFieldPath("v1beta1", "metadata.name"); !errors.Is(err, ErrUnsupportedVersion) {
		t.Errorf("v1beta1: err %v", err)
	}
}

func TestHostIPs(t *testing.T) {
	node := func(addrs ...api.NodeAddress) *api.Node {
		return &api.Node{Status: api.NodeStatus{Addresses: addrs}}
	}
	in, ex := api.NodeInternalIP, api.NodeExternalIP
	cases := []struct {
		node *api.Node
		want []string
	}{
		{node(api.NodeAddress{Type: ex, Address: "203.0.113.1"}), []string{"203.0.113.1"}},
		{node(api.NodeAddress{Type: ex, Address: "203.0.113.1"}, api.NodeAddress{Type: in, Address: "192.168.0.1"}), []string{"192.168.0.1"}},
		{node(api.NodeAddress{Type: in, Address: "192.168.0.1"}, api.NodeAddress{Type: ex, Address: "2001:db8::1"}), []string{"192.168.0.1", "2001:db8::1"}},
		{node(api.NodeAddress{Type: in, Address: "010.001.002.003"}), []string{"10.1.2.3"}},
		{node(api.NodeAddress{Type: in, Address: "::ffff:10.1.2.3"}, api.NodeAddress{Type: in, Address: "fd00::1"}), []string{"10.1.2.3", "fd00::1"}},
		{node(api.NodeAddress{Type: in, Address: "not-an-ip"}, api.NodeAddress{Type: in, Address: "256.1.1.1"}, api.NodeAddress{Type: in, Address: "1.2.3.4"}), []string{"1.2.3.4"}},
	}
	for i, c := range cases {
		got, err := HostIPs(c.node)
		if err != nil || !equalStrings(got, c.want) {
			t.Errorf("case %d: HostIPs = %v, %v; want %v", i, got, err, c.want)
		}
	}
}

func TestSortPodIPs(t *testing.T) {
	ips := []string{"fd00::2", "10.0.0.2", "fd00::3", "10.0.0.3", "junk"}
	if got := SortPodIPs(ips, nil); !equalStrings(got, []string{"10.0.0.2", "fd00::2"}) {
		t.Errorf("default family: %v", got)
	}
	if got := SortPodIPs(ips, []string{"fd00::1"}); !equalStrings(got, []string{"fd00::2", "10.0.0.2"}) {
		t.Errorf("IPv6 node: %v", got)
	}
	if got := SortPodIPs([]string{"fd00::2"}, []string{"10.0.0.1"}); !equalStrings(got, []string{"fd00::2"}) {
		t.Errorf("single family: %v", got)
	}
	if got := SortPodIPs(nil, nil); len(got) != 0 {
		t.Errorf("none: %v", got)
	}
}

// The kubelet parses each runtime IP leniently and prints it back in Go's
// canonical form, so irregular spellings never reach status.podIPs or the
// downward API as written (checked against v1.36.3 sortPodIPs).
func TestSortPodIPsCanonicalForm(t *testing.T) {
	cases := []struct {
		pod, node []string
		want      []string
	}{
		{[]string{"10.244.0.7", "FD00::A"}, nil, []string{"10.244.0.7", "fd00::a"}},
		{[]string{"fd00:10:244::0001"}, nil, []string{"fd00:10:244::1"}},
		{[]string{"::ffff:10.1.2.3"}, nil, []string{"10.1.2.3"}},
		{[]string{"010.001.002.003"}, []string{"fd00::1"}, []string{"10.1.2.3"}},
		{[]string{"::ffff:010.001.002.003", "fd00::010.1.2.3"}, nil, []string{"10.1.2.3", "fd00::a01:203"}},
		{[]string{"::ffff:1.2.3", "1.2.3.4.5"}, nil, []string{}},
	}
	for _, c := range cases {
		if got := SortPodIPs(c.pod, c.node); !equalStrings(got, c.want) {
			t.Errorf("SortPodIPs(%q, %q) = %q, want %q", c.pod, c.node, got, c.want)
		}
	}
	pod := &api.Pod{}
	got, err := FieldRef(pod, api.ObjectFieldSelector{FieldPath: "status.podIP"}, Env,
		&Context{PodIP: "10.9.9.9", PodIPs: []string{"::ffff:10.1.2.3"}})
	if err != nil || got != "10.1.2.3" {
		t.Errorf("status.podIP = %q, %v; want 10.1.2.3", got, err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
