package downward_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

// The pod and node of the Kubernetes documentation's downward API
// pages: the pod's name, namespace, node and IPs as environment
// variables, its labels and annotations as volume files.
func examplePod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name:        "kubernetes-downwardapi-volume-example",
			Namespace:   "default",
			UID:         "f4b5c8a6-5c83-4b6f-9a48-2f1d3c8e0b7a",
			Labels:      map[string]string{"zone": "us-est-coast", "cluster": "test-cluster1", "rack": "rack-22"},
			Annotations: map[string]string{"build": "two", "builder": "john-doe"},
		},
		Spec: api.PodSpec{
			NodeName:           "node-1",
			ServiceAccountName: "default",
			Containers: []api.Container{{
				Name:  "client-container",
				Image: "busybox",
				Resources: api.ResourceRequirements{
					Limits:   api.ResourceList{"cpu": api.MustParseQuantity("250m"), "memory": api.MustParseQuantity("64Mi")},
					Requests: api.ResourceList{"cpu": api.MustParseQuantity("125m"), "memory": api.MustParseQuantity("32Mi")},
				},
			}},
		},
	}
}

func exampleContext() *downward.Context {
	return &downward.Context{
		Node: &api.Node{
			ObjectMeta: api.ObjectMeta{Name: "node-1"},
			Status: api.NodeStatus{
				Addresses: []api.NodeAddress{
					{Type: api.NodeInternalIP, Address: "192.168.49.2"},
					{Type: api.NodeInternalIP, Address: "fd00::2"},
				},
				Allocatable: api.ResourceList{"cpu": api.MustParseQuantity("4"), "memory": api.MustParseQuantity("8Gi")},
			},
		},
		NodeIPs: []string{"192.168.49.2"},
		PodIPs:  []string{"fd00:10:244::7", "10.244.0.7"},
	}
}

func ExampleFieldRef() {
	pod, ctx := examplePod(), exampleContext()
	for _, path := range []string{"metadata.name", "spec.nodeName", "status.hostIP", "status.podIPs", "metadata.labels['zone']"} {
		v, err := downward.FieldRef(pod, api.ObjectFieldSelector{FieldPath: path}, downward.Env, ctx)
		fmt.Printf("env %s = %q %v\n", path, v, err)
	}
	// Whole maps are what downwardAPI volume files show; the node name is
	// not available there.
	v, _ := downward.FieldRef(pod, api.ObjectFieldSelector{FieldPath: "metadata.labels"}, downward.Volume, nil)
	fmt.Println(v)
	_, err := downward.FieldRef(pod, api.ObjectFieldSelector{FieldPath: "spec.nodeName"}, downward.Volume, nil)
	fmt.Println(err)
	// Output:
	// env metadata.name = "kubernetes-downwardapi-volume-example" <nil>
	// env spec.nodeName = "node-1" <nil>
	// env status.hostIP = "192.168.49.2" <nil>
	// env status.podIPs = "10.244.0.7,fd00:10:244::7" <nil>
	// env metadata.labels['zone'] = "us-est-coast" <nil>
	// cluster="test-cluster1"
	// rack="rack-22"
	// zone="us-est-coast"
	// unsupported field path: "spec.nodeName"
}

func ExampleResourceFieldRef() {
	pod := examplePod()
	alloc := exampleContext().Node.Status.Allocatable
	show := func(resource, divisor string) {
		ref := api.ResourceFieldSelector{ContainerName: "client-container", Resource: resource}
		if divisor != "" {
			d := api.MustParseQuantity(divisor)
			ref.Divisor = &d
		}
		v, err := downward.ResourceFieldRef(pod, "client-container", ref, alloc)
		if divisor == "" {
			divisor = "(default 1)"
		}
		fmt.Printf("%s / %s = %s %v\n", resource, divisor, v, err)
	}
	show("limits.cpu", "1m")
	show("limits.cpu", "") // 250m rounds up to 1 core
	show("requests.memory", "1Mi")
	show("limits.memory", "1M") // 67.108864 MB rounds up
	// A container without limits sees the node's allocatable.
	pod.Spec.Containers[0].Resources = api.ResourceRequirements{}
	show("limits.memory", "1Gi")
	// Output:
	// limits.cpu / 1m = 250 <nil>
	// limits.cpu / (default 1) = 1 <nil>
	// requests.memory / 1Mi = 32 <nil>
	// limits.memory / 1M = 68 <nil>
	// limits.memory / 1Gi = 8 <nil>
}

func ExampleContainerResource() {
	c := &api.Container{Resources: api.ResourceRequirements{
		Limits: api.ResourceList{"hugepages-2Mi": api.MustParseQuantity("6Mi")},
	}}
	v, _ := downward.ContainerResource(c, "limits.hugepages-2Mi", api.MustParseQuantity("1Mi"))
	fmt.Println(v)
	_, err := downward.ContainerResource(c, "limits.nvidia.com/gpu", api.Quantity{})
	fmt.Println(err)
	// Output:
	// 6
	// unsupported container resource: "limits.nvidia.com/gpu"
}

func ExampleEnvironment() {
	pod := examplePod()
	pod.Spec.Containers[0].EnvFrom = []api.EnvFromSource{
		{Prefix: "CFG_", ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "app-config"}}},
	}
	pod.Spec.Containers[0].Env = []api.EnvVar{
		{Name: "MY_POD_NAME", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: "MY_CPU_LIMIT", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: ptr(api.MustParseQuantity("1m"))}}},
		{Name: "GREETING", Value: "$(MY_POD_NAME) at $(CFG_SITE), literally $$(MY_POD_NAME), unknown $(NOPE)"},
		{Name: "DB_PASSWORD", ValueFrom: &api.EnvVarSource{SecretKeyRef: &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: "db"}, Key: "password"}}},
	}
	objects := downward.Objects{
		ConfigMaps: map[string]map[string]string{"default/app-config": {"SITE": "example.com"}},
		Secrets:    map[string]map[string][]byte{"default/db": {"password": []byte("s3cret")}},
	}
	env, err := downward.Environment(pod, "client-container", exampleContext(), objects)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range env {
		fmt.Printf("%s=%s\n", e.Name, e.Value)
	}
	// Output:
	// CFG_SITE=example.com
	// MY_POD_NAME=kubernetes-downwardapi-volume-example
	// MY_CPU_LIMIT=250
	// GREETING=kubernetes-downwardapi-volume-example at example.com, literally $(MY_POD_NAME), unknown $(NOPE)
	// DB_PASSWORD=s3cret
}

func ExampleVolumeFiles() {
	pod := examplePod()
	vol := &api.Volume{Name: "podinfo", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
		Items: []api.DownwardAPIVolumeFile{
			{Path: "labels", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.labels"}},
			{Path: "annotations", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.annotations"}},
			{Path: "cpu_limit", ResourceFieldRef: &api.ResourceFieldSelector{ContainerName: "client-container", Resource: "limits.cpu", Divisor: ptr(api.MustParseQuantity("1m"))}},
		},
	}}}
	files, err := downward.VolumeFiles(pod, vol, exampleContext().Node.Status.Allocatable, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Printf("%s (%#o):\n%s\n", f.Path, f.Mode, f.Data)
	}
	// Output:
	// annotations (0644):
	// build="two"
	// builder="john-doe"
	// cpu_limit (0644):
	// 250
	// labels (0644):
	// cluster="test-cluster1"
	// rack="rack-22"
	// zone="us-est-coast"
}

func ExampleExpand() {
	vars := map[string]string{"HOST": "db", "PORT": "5432"}
	for _, s := range []string{"postgres://$(HOST):$(PORT)", "$$(HOST)", "$(MISSING)", "$(HOST", "100$"} {
		fmt.Printf("%q\n", downward.ExpandVars(s, vars))
	}
	// Output:
	// "postgres://db:5432"
	// "$(HOST)"
	// "$(MISSING)"
	// "$(HOST"
	// "100$"
}

func ExampleFormatMap() {
	fmt.Println(downward.FormatMap(map[string]string{"owner": "line1\nline2", "note": `say "hi"`}))
	// Output:
	// note="say \"hi\""
	// owner="line1\nline2"
}

func ExampleHostIPs() {
	node := &api.Node{Status: api.NodeStatus{Addresses: []api.NodeAddress{
		{Type: api.NodeExternalIP, Address: "203.0.113.5"},
		{Type: api.NodeInternalIP, Address: "fd00::0a"},
		{Type: api.NodeInternalIP, Address: "192.168.0.5"},
	}}}
	ips, _ := downward.HostIPs(node)
	fmt.Println(ips)
	fmt.Println(downward.SortPodIPs([]string{"fd00:10::5", "10.244.0.5", "10.244.0.6"}, []string{"192.168.0.5"}))
	// Output:
	// [fd00::a 192.168.0.5]
	// [10.244.0.5 fd00:10::5]
}

func ptr[T any](v T) *T { return &v }

// A downwardAPI item whose path climbs out of the volume is refused
// with the API server's error and its file is not returned, so a node
// agent writing the files cannot be steered outside the volume.
func ExampleVolumeFiles_pathOutsideVolume() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-0"}}
	pod.Spec.Volumes = []api.Volume{{Name: "podinfo", VolumeSource: api.VolumeSource{DownwardAPI: &api.DownwardAPIVolumeSource{
		Items: []api.DownwardAPIVolumeFile{
			{Path: "../../etc/passwd", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}},
			{Path: "name", FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}},
		},
	}}}}
	files, err := downward.VolumeFiles(pod, &pod.Spec.Volumes[0], nil, nil)
	for _, f := range files {
		fmt.Printf("%s: %s\n", f.Path, f.Data)
	}
	fmt.Println(err)
	// Output:
	// name: web-0
	// volume "podinfo": invalid volume file path: spec.volumes[0].downwardAPI.path: Invalid value: "../../etc/passwd": must not contain '..'
}

// Each redefinition A=$(A)$(A) doubles A in the kubelet; Environment
// stops at MaxExpandedEnvironmentBytes and names the entry.
func ExampleEnvironment_expansionLimit() {
	env := []api.EnvVar{{Name: "A", Value: "xx"}}
	for range 30 {
		env = append(env, api.EnvVar{Name: "A", Value: "$(A)$(A)"})
	}
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Env: env}}}}
	_, err := downward.Environment(pod, "app", nil, nil)
	fmt.Println(err)
	// Output:
	// downward: invalid input: env[21] "A": expanded environment too large: the expanded values would pass 6291456 bytes
}
