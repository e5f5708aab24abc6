package scheduling

// nodePortsPlugin is NodePorts: the pod's host ports (hostPort with its
// hostIP and protocol) must not conflict with those of the node's pods. A
// port bound on 0.0.0.0 conflicts with the same protocol and port on any
// IP.
type nodePortsPlugin struct {
	basePlugin
	ports []hostPort
}

func newNodePortsPlugin(p *PodInfo) nodePortsPlugin { return nodePortsPlugin{ports: p.ports} }

func (pl *nodePortsPlugin) name() string       { return PluginNodePorts }
func (pl *nodePortsPlugin) clone() cyclePlugin { return pl }

// preFilter skips pods without host ports, as upstream's PreFilter does.
func (pl *nodePortsPlugin) preFilter() Status {
	if len(pl.ports) == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

func (pl *nodePortsPlugin) fits(v *nodeView) bool {
	for _, p := range pl.ports {
		if v.portConflict(p) {
			return false
		}
	}
	return true
}

func (pl *nodePortsPlugin) filter(v *nodeView) Status {
	for _, p := range pl.ports {
		if v.portConflict(p) {
			return Status{Code: Unschedulable, Reasons: reasonsNodePorts}
		}
	}
	return Status{}
}
