// Package podsecurity is Pod Security admission, the API server's built-in
// plugin that enforces the Pod Security Standards, as
// k8s.io/pod-security-admission v0.36.3 (its policy and api packages, and
// the plugin's admission.EvaluatePod) runs it in kube-apiserver v1.36.3.
//
// # The standards
//
// A namespace labelled pod-security.kubernetes.io/enforce=<level> (and
// optionally enforce-version=<version>) refuses pods that break its
// level:
//
//   - privileged: anything goes;
//   - baseline: no host namespaces, privileged containers, added
//     capabilities beyond the runtime defaults, hostPath volumes, host
//     ports, unconfined AppArmor or seccomp, custom SELinux user, role or
//     type, unmasked /proc, unsafe sysctls, Windows HostProcess
//     containers, or probe and lifecycle hosts;
//   - restricted: baseline, plus allowPrivilegeEscalation=false,
//     runAsNonRoot=true, no runAsUser=0, a RuntimeDefault or Localhost
//     seccomp profile, capabilities dropped to ALL (NET_BIND_SERVICE may be
//     added back), and only the configMap, csi, downwardAPI, emptyDir,
//     ephemeral, image, persistentVolumeClaim, projected and secret volume
//     types.
//
// The version pins the standards as a Kubernetes minor release wrote them:
// "v1.25" runs each check in the variant it had then (a check born later
// does not run at all: restricted's capabilities check from v1.22,
// runAsUser=0 from v1.23, baseline's probe and lifecycle hosts from v1.34;
// before v1.19 seccomp is judged by the alpha annotations). "latest", and
// any version newer than the newest variant of any check, runs the newest
// variants: v1.35's in this release.
//
// # The API
//
// ParseLevel, ParseVersion and ParsePolicy read the label values; Evaluate
// runs the checks of a Policy on a pod and returns a Result listing each
// failing check's reason and detail in upstream's order and words (the
// baseline checks by ID, then the restricted ones by ID); Result.Message
// and Admit give the API server's answer to the create:
//
//	pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), ...
//
// an *admission.Error with status reason Forbidden (HTTP 403).
//
// Not modelled: the plugin's exemptions (usernames, runtime classes,
// namespaces), the audit and warn modes (they evaluate the same way and
// only word the answer differently), and the API server's emulated
// version (v1.36, which does not lower the newest policy version).
package podsecurity
