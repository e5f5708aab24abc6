package lifecycle

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// RestartSource names which rule decided a restart.
type RestartSource uint8

// The restart sources, in the order the kubelet consults them.
const (
	// FromPodPolicy: the pod's spec.restartPolicy (empty means Always).
	FromPodPolicy RestartSource = iota
	// FromContainerPolicy: the container's own restartPolicy.
	FromContainerPolicy
	// FromRule: an entry of the container's restartPolicyRules matched the
	// exit code.
	FromRule
	// FromInitCompletion: an init container that exited 0 has done its job
	// and is never run again, whatever the policy.
	FromInitCompletion
	// FromSidecar: a sidecar is restarted whenever it exits.
	FromSidecar
	// FromEphemeral: ephemeral containers are never restarted.
	FromEphemeral
)

// String names the source.
func (s RestartSource) String() string {
	switch s {
	case FromPodPolicy:
		return "pod restartPolicy"
	case FromContainerPolicy:
		return "container restartPolicy"
	case FromRule:
		return "container restartPolicyRules"
	case FromInitCompletion:
		return "init container completed"
	case FromSidecar:
		return "sidecar"
	case FromEphemeral:
		return "ephemeral container"
	}
	return fmt.Sprintf("RestartSource(%d)", uint8(s))
}

// RestartDecision is whether the kubelet runs a container again after it
// exited with a given code, and why.
type RestartDecision struct {
	// Restart is true when the container itself is to be started again
	// (after its crash-loop back-off).
	Restart bool
	// RestartAll is true when a restartPolicyRules entry with action
	// RestartAllContainers matched: the kubelet then restarts every
	// container of the pod in place (RestartAllContainersOnContainerExits,
	// on by default in v1.36.3), and Restart is true as well, as upstream's
	// ContainerShouldRestart answers with that gate on.
	RestartAll bool
	// Source is the rule that decided Restart.
	Source RestartSource
	// Rule is the index of the matching restartPolicyRules entry, or -1.
	Rule int
	// Policy is the restart policy that applied (the container's, the
	// pod's, or Always for sidecars and Never for ephemeral containers);
	// empty when an init container completed or a rule decided.
	Policy api.RestartPolicy
}

// String explains the decision in a sentence.
func (d RestartDecision) String() string {
	verb := "not restarted"
	if d.Restart {
		verb = "restarted"
	}
	s := verb + " by " + d.Source.String()
	switch {
	case d.Source == FromRule:
		s += fmt.Sprintf(" [%d]", d.Rule)
	case d.Policy != "":
		s += " " + string(d.Policy)
	}
	if d.RestartAll {
		s += fmt.Sprintf("; rule [%d] restarts all containers", d.Rule)
	}
	return s
}

// PodRestartPolicy is the pod's restart policy with the API default applied:
// an empty spec.restartPolicy means Always.
func PodRestartPolicy(spec *api.PodSpec) api.RestartPolicy {
	if spec == nil || spec.RestartPolicy == "" {
		return api.RestartPolicyAlways
	}
	return spec.RestartPolicy
}

// matchRestartRule returns the index of the first restartPolicyRules entry
// whose exit-code clause matches code, or -1. A rule without an exitCodes
// clause or with an unknown operator never matches (kubelet semantics of
// ContainerRestartRules, KEP-5307).
func matchRestartRule(rules []api.ContainerRestartRule, code int32) int {
	for i := range rules {
		ec := rules[i].ExitCodes
		if ec == nil {
			continue
		}
		in := false
		for _, v := range ec.Values {
			if v == code {
				in = true
				break
			}
		}
		switch ec.Operator {
		case api.ExitCodesOpIn:
			if in {
				return i
			}
		case api.ExitCodesOpNotIn:
			if !in {
				return i
			}
		}
	}
	return -1
}

// policyRestarts applies a restart policy to an exit code; ok is false for
// an unknown policy value.
func policyRestarts(p api.RestartPolicy, code int32) (restart, ok bool) {
	switch p {
	case api.RestartPolicyAlways:
		return true, true
	case api.RestartPolicyOnFailure:
		return code != 0, true
	case api.RestartPolicyNever:
		return false, true
	}
	return false, false
}

// ContainerShouldRestart is the kubelet's per-container restart rule for a
// container that exited with code (pkg/api/v1/pod ContainerShouldRestart,
// with ContainerRestartRules on as in v1.36.3): when the container sets its
// own restartPolicy, its restartPolicyRules are tried in order and the first
// match restarts it (action Restart alone, RestartAllContainers with every
// other container of the pod, RestartAll set); otherwise the container's
// restartPolicy decides; a container
// without one follows the pod's restartPolicy, whose empty value means
// Always. Rules are ignored on a container without its own restartPolicy.
//
// It does not know the container's kind; ShouldRestart does.
func ContainerShouldRestart(spec *api.PodSpec, c *api.Container, code int32) RestartDecision {
	d := RestartDecision{Rule: -1}
	if c != nil && c.RestartPolicy != nil {
		if i := matchRestartRule(c.RestartPolicyRules, code); i >= 0 {
			d.Rule = i
			switch c.RestartPolicyRules[i].Action {
			case api.RestartRuleActionRestart:
				d.Restart, d.Source = true, FromRule
				return d
			case api.RestartRuleActionRestartAllContainers:
				// RestartAllContainersOnContainerExits is on in v1.36.3:
				// the whole pod restarts, this container with it.
				d.Restart, d.RestartAll, d.Source = true, true, FromRule
				return d
			}
		}
		if r, ok := policyRestarts(*c.RestartPolicy, code); ok {
			d.Restart, d.Source, d.Policy = r, FromContainerPolicy, *c.RestartPolicy
			return d
		}
	}
	p := PodRestartPolicy(spec)
	r, ok := policyRestarts(p, code)
	if !ok {
		// An unknown pod policy behaves as the default, Always.
		r, p = true, api.RestartPolicyAlways
	}
	d.Restart, d.Source, d.Policy = r, FromPodPolicy, p
	return d
}

// ShouldRestart is the kubelet's decision for a container of the given kind
// that exited with code:
//
//   - an ephemeral container is never restarted;
//   - a sidecar is restarted whenever it exits (its restartPolicy is
//     Always; a matching Restart rule says the same);
//   - an init container that exited 0 is complete and never runs again, so
//     under pod restartPolicy Always init containers behave as OnFailure;
//     one that failed follows ContainerShouldRestart (restarted unless the
//     effective policy is Never);
//   - a regular container follows ContainerShouldRestart.
func ShouldRestart(spec *api.PodSpec, kind api.ContainerKind, c *api.Container, code int32) RestartDecision {
	switch kind {
	case api.ContainerKindEphemeral:
		return RestartDecision{Source: FromEphemeral, Rule: -1, Policy: api.RestartPolicyNever}
	case api.ContainerKindSidecar:
		d := ContainerShouldRestart(spec, c, code)
		if d.Source != FromRule {
			d.Source, d.Policy = FromSidecar, api.RestartPolicyAlways
		}
		d.Restart = true
		return d
	case api.ContainerKindInit:
		if code == 0 {
			return RestartDecision{Source: FromInitCompletion, Rule: -1}
		}
	}
	return ContainerShouldRestart(spec, c, code)
}

// IsContainerRestartable reports whether a container can ever be restarted
// by the kubelet, whatever its exit code (pkg/api/v1/pod
// IsContainerRestartable): a container with its own restartPolicy is
// restartable when some rule has action Restart or its policy is not Never;
// otherwise when the pod's restartPolicy is not Never. Sidecars are always
// restartable and ephemeral containers never.
func IsContainerRestartable(spec *api.PodSpec, kind api.ContainerKind, c *api.Container) bool {
	switch kind {
	case api.ContainerKindEphemeral:
		return false
	case api.ContainerKindSidecar:
		return true
	}
	if c != nil && c.RestartPolicy != nil {
		for i := range c.RestartPolicyRules {
			if c.RestartPolicyRules[i].Action == api.RestartRuleActionRestart {
				return true
			}
		}
		return *c.RestartPolicy != api.RestartPolicyNever
	}
	return PodRestartPolicy(spec) != api.RestartPolicyNever
}
