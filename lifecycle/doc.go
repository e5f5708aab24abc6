// Package lifecycle answers what the kubelet answers about a pod's life:
// its phase, container states and their reasons, the kubelet-owned
// conditions (PodReadyToStartContainers — formerly PodHasNetwork —,
// Initialized, ContainersReady, Ready) with readiness gates, the QoS
// class, restart policy and crash-loop back-off, init and sidecar
// container sequencing, activeDeadlineSeconds, the kubectl STATUS column,
// and a side-effect-free pod state machine that composes them for a node
// agent to drive.
package lifecycle
