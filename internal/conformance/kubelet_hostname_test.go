package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

func init() {
	register("kubelet.hostname", runKubeletHostname)
}

func runKubeletHostname(input, want json.RawMessage) error {
	var in struct {
		Pod           api.Pod  `json:"pod"`
		ClusterDomain string   `json:"cluster_domain"`
		PodIPs        []string `json:"pod_ips"`
		NodeEtcHosts  string   `json:"node_etc_hosts"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Error           bool    `json:"error"`
		ErrorStage      string  `json:"error_stage"`
		Hostname        string  `json:"hostname"`
		HostDomain      string  `json:"host_domain"`
		SandboxHostname *string `json:"sandbox_hostname"`
		EtcHostsMounted bool    `json:"etc_hosts_mounted"`
		EtcHosts        *string `json:"etc_hosts"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	h, err := lifecycle.Hostname(&in.Pod, in.ClusterDomain)
	if w.Error {
		var he *lifecycle.HostnameError
		if !errors.As(err, &he) {
			return Mismatch("error", fmt.Sprintf("stage %s", w.ErrorStage), fmt.Sprintf("%+v, %v", h, err))
		}
		if string(he.Stage) != w.ErrorStage {
			return Mismatch("error_stage", w.ErrorStage, string(he.Stage)+": "+he.Message)
		}
		return nil
	}
	if err != nil {
		return Mismatch("error", "none", err.Error())
	}
	if h.Hostname != w.Hostname {
		return Mismatch("hostname", w.Hostname, h.Hostname)
	}
	if h.Domain != w.HostDomain {
		return Mismatch("host_domain", w.HostDomain, h.Domain)
	}
	var sandbox *string
	if !h.HostNetwork {
		sandbox = &h.Sandbox
	}
	if (sandbox == nil) != (w.SandboxHostname == nil) || sandbox != nil && *sandbox != *w.SandboxHostname {
		return Mismatch("sandbox_hostname", w.SandboxHostname, sandbox)
	}
	content, mounted := lifecycle.EtcHosts(&in.Pod, h, in.PodIPs, in.NodeEtcHosts)
	if mounted != w.EtcHostsMounted {
		return Mismatch("etc_hosts_mounted", w.EtcHostsMounted, mounted)
	}
	if w.EtcHosts != nil && content != *w.EtcHosts {
		return Mismatch("etc_hosts", *w.EtcHosts, content)
	}
	if w.EtcHosts == nil && mounted {
		return Mismatch("etc_hosts", "absent", content)
	}
	return nil
}
