// Command downward-env prints what the downward API shows a pod's
// containers on a node: each container's resolved environment (fieldRef,
// resourceFieldRef, ConfigMap and Secret keys, $(VAR) expansion) and the
// files of each downwardAPI or projected volume, with their modes.
//
// With no argument it uses an embedded sample: the Kubernetes
// documentation's downward API pod on a dual-stack node. With one
// argument it reads a JSON file of the same shape:
//
//	{"pod": {...}, "node": {...}, "nodeIPs": ["..."], "podIPs": ["..."],
//	 "configMaps": {"ns/name": {"key": "value"}},
//	 "secrets": {"ns/name": {"key": "value"}},
//	 "serviceEnv": {"NAME": "value"}}
//
// Usage:
//
//	go run ./examples/downward-env [input.json]
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

type input struct {
	Pod        api.Pod                      `json:"pod"`
	Node       *api.Node                    `json:"node"`
	NodeIPs    []string                     `json:"nodeIPs"`
	PodIPs     []string                     `json:"podIPs"`
	ConfigMaps map[string]map[string]string `json:"configMaps"`
	Secrets    map[string]map[string]string `json:"secrets"`
	ServiceEnv map[string]string            `json:"serviceEnv"`
}

func main() {
	raw := []byte(sample)
	if len(os.Args) > 1 {
		b, err := os.ReadFile(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		raw = b
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fmt.Fprintln(os.Stderr, "decoding input:", err)
		os.Exit(1)
	}
	if err := run(&in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(in *input) error {
	pod := &in.Pod
	ctx := &downward.Context{Node: in.Node, NodeIPs: in.NodeIPs, PodIPs: in.PodIPs, ServiceEnv: in.ServiceEnv}
	objects := downward.Objects{ConfigMaps: in.ConfigMaps, Secrets: map[string]map[string][]byte{}}
	for name, data := range in.Secrets {
		m := make(map[string][]byte, len(data))
		for k, v := range data {
			m[k] = []byte(v)
		}
		objects.Secrets[name] = m
	}
	nodeName := "(no node)"
	if in.Node != nil {
		nodeName = in.Node.Name
	}
	fmt.Printf("pod %s/%s on node %s\n", pod.Namespace, pod.Name, nodeName)

	var containers []string
	for _, c := range pod.Spec.InitContainers {
		containers = append(containers, c.Name)
	}
	for _, c := range pod.Spec.Containers {
		containers = append(containers, c.Name)
	}
	for _, name := range containers {
		fmt.Printf("\ncontainer %s environment:\n", name)
		env, err := downward.Environment(pod, name, ctx, objects)
		if err != nil {
			fmt.Printf("  error: %v\n", err)
			continue
		}
		for _, e := range env {
			fmt.Printf("  %s=%s\n", e.Name, e.Value)
		}
	}

	var alloc api.ResourceList
	if in.Node != nil {
		alloc = in.Node.Status.Allocatable
	}
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		if vol.DownwardAPI == nil && vol.Projected == nil {
			continue
		}
		fmt.Printf("\nvolume %s files:\n", vol.Name)
		files, err := downward.VolumeFiles(pod, vol, alloc, objects)
		if err != nil {
			fmt.Printf("  error: %v\n", err)
		}
		for _, f := range files {
			fmt.Printf("  %s (mode %#o, on disk %#o):\n", f.Path, f.Mode, downward.OnDiskMode(pod, f.Mode))
			for _, line := range strings.Split(f.Data, "\n") {
				fmt.Printf("    %s\n", line)
			}
		}
	}
	return nil
}

const sample = `{
  "pod": {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {
      "name": "kubernetes-downwardapi-volume-example", "namespace": "default",
      "uid": "f4b5c8a6-5c83-4b6f-9a48-2f1d3c8e0b7a",
      "labels": {"zone": "us-est-coast", "cluster": "test-cluster1", "rack": "rack-22"},
      "annotations": {"build": "two", "builder": "john-doe", "note": "line1\nline2 \"quoted\""}
    },
    "spec": {
      "nodeName": "node-1",
      "serviceAccountName": "default",
      "securityContext": {"fsGroup": 2000},
      "initContainers": [{
        "name": "init-config", "image": "busybox",
        "env": [{"name": "MY_CPU_LIMIT", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1m"}}}]
      }],
      "containers": [{
        "name": "client-container", "image": "busybox",
        "resources": {
          "limits": {"cpu": "250m", "memory": "64Mi"},
          "requests": {"cpu": "125m", "memory": "32Mi"}
        },
        "envFrom": [{"prefix": "CFG_", "configMapRef": {"name": "app-config"}}],
        "env": [
          {"name": "MY_NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
          {"name": "MY_POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
          {"name": "MY_POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
          {"name": "MY_POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
          {"name": "MY_POD_IPS", "valueFrom": {"fieldRef": {"fieldPath": "status.podIPs"}}},
          {"name": "MY_HOST_IPS", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIPs"}}},
          {"name": "MY_POD_SERVICE_ACCOUNT", "valueFrom": {"fieldRef": {"fieldPath": "spec.serviceAccountName"}}},
          {"name": "MY_ZONE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['zone']"}}},
          {"name": "MY_CPU_REQUEST", "valueFrom": {"resourceFieldRef": {"containerName": "client-container", "resource": "requests.cpu", "divisor": "1m"}}},
          {"name": "MY_MEM_LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": "client-container", "resource": "limits.memory", "divisor": "1Mi"}}},
          {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}},
          {"name": "API_URL", "value": "https://$(CFG_API_HOST):$(KUBERNETES_SERVICE_PORT)/$(MY_POD_NAMESPACE)"},
          {"name": "LITERAL", "value": "$$(MY_POD_NAME) and $(UNDEFINED)"}
        ],
        "volumeMounts": [{"name": "podinfo", "mountPath": "/etc/podinfo"}]
      }],
      "volumes": [
        {"name": "podinfo", "downwardAPI": {"items": [
          {"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
          {"path": "annotations", "fieldRef": {"fieldPath": "metadata.annotations"}},
          {"path": "cpu_limit", "resourceFieldRef": {"containerName": "client-container", "resource": "limits.cpu", "divisor": "1m"}},
          {"path": "mem_request", "resourceFieldRef": {"containerName": "client-container", "resource": "requests.memory", "divisor": "1Mi"}, "mode": 256}
        ]}},
        {"name": "all-in-one", "projected": {"defaultMode": 420, "sources": [
          {"downwardAPI": {"items": [{"path": "name", "fieldRef": {"fieldPath": "metadata.name"}}]}},
          {"configMap": {"name": "app-config", "items": [{"key": "API_HOST", "path": "config/api-host"}]}},
          {"secret": {"name": "db"}}
        ]}}
      ]
    }
  },
  "node": {
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "node-1"},
    "status": {
      "addresses": [
        {"type": "Hostname", "address": "node-1"},
        {"type": "InternalIP", "address": "192.168.49.2"},
        {"type": "InternalIP", "address": "fd00::2"}
      ],
      "allocatable": {"cpu": "4", "memory": "8Gi", "ephemeral-storage": "100Gi", "pods": "110"}
    }
  },
  "nodeIPs": ["192.168.49.2"],
  "podIPs": ["fd00:10:244::7", "10.244.0.7"],
  "configMaps": {"default/app-config": {"API_HOST": "api.example.com", "LOG_LEVEL": "info"}},
  "secrets": {"default/db": {"password": "s3cret"}},
  "serviceEnv": {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"}
}`
