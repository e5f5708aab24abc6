package podsecurity

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// Forbidden is one check a pod fails: upstream's forbidden reason (short,
// always shown: "host namespaces", "runAsNonRoot != true") and detail
// (which containers, fields and values; may be empty).
type Forbidden struct {
	// Check is the check's ID in k8s.io/pod-security-admission's registry
	// ("hostNamespaces", "capabilities_restricted", ...).
	Check string
	// Reason is the check's forbidden reason.
	Reason string
	// Detail says what the pod set; "" when the reason says it all.
	Detail string
}

// Result is Pod Security admission's verdict on one pod at one policy:
// upstream's AggregateCheckResult, with the policy it was asked at and the
// version whose check variants ran.
type Result struct {
	// Policy is the policy asked for, as given ("restricted:latest").
	Policy Policy
	// Evaluated is the policy version whose check variants ran: the asked
	// version, or the newest policy version this release defines (v1.35
	// in v1.36.3) when asked for "latest" or a newer version.
	Evaluated Version
	// Allowed: no check forbids the pod.
	Allowed bool
	// Forbidden lists the failing checks in the order upstream runs them:
	// the baseline checks by ID, then the restricted ones by ID.
	Forbidden []Forbidden
}

// ForbiddenReasons are the reasons of the failing checks, in order.
func (r Result) ForbiddenReasons() []string {
	out := make([]string, len(r.Forbidden))
	for i, f := range r.Forbidden {
		out[i] = f.Reason
	}
	return out
}

// ForbiddenDetail renders the failing checks as upstream's
// AggregateCheckResult.ForbiddenDetail does: "reason (detail)" per check,
// the parentheses left out where the detail is empty, joined by ", ".
func (r Result) ForbiddenDetail() string {
	var b strings.Builder
	for i, f := range r.Forbidden {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Reason)
		if f.Detail != "" {
			b.WriteString(" (")
			b.WriteString(f.Detail)
			b.WriteString(")")
		}
	}
	return b.String()
}

// Message is the API server's error message for a create of the pod named
// podName refused by r, as kubectl prints it after "Error from server
// (Forbidden):":
//
//	pods "x" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), ...
//
// It is "" when r allows the pod. Admit picks the name the API server
// uses when a pod has none yet.
func (r Result) Message(podName string) string {
	if r.Allowed {
		return ""
	}
	return r.refusal(podName).Error()
}

// refusal is the API server's answer to a create r refuses.
func (r Result) refusal(name string) *admission.Error {
	return &admission.Error{
		Reason:   "Forbidden",
		Resource: "pods",
		Name:     name,
		Detail:   fmt.Sprintf("violates PodSecurity %q: %s", r.Policy.String(), r.ForbiddenDetail()),
	}
}

// Evaluate runs the Pod Security Standards checks of policy on pod, as
// k8s.io/pod-security-admission v0.36.3's evaluator does for the API
// server of v1.36.3 (policy.DefaultChecks at emulation version 1.36):
// nothing for privileged; for baseline the baseline checks; for restricted
// the restricted checks plus the baseline checks no restricted check
// replaces; each check in its variant for the policy version. It reads the
// pod as the API server holds it after defaulting, including
// metadata.annotations (the legacy AppArmor and seccomp annotations).
//
// A nil pod, or a level or version upstream cannot parse (the zero Policy
// among them), is an error naming it, wrapping api.ErrInvalidInput.
//
// Cost: one pass over the containers per check; nothing is allocated for a
// check that passes.
func Evaluate(pod *api.Pod, policy Policy) (Result, error) {
	if pod == nil {
		return Result{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if err := policy.validate(); err != nil {
		return Result{}, err
	}
	res := Result{Policy: policy, Evaluated: effectiveVersion(policy.Version), Allowed: true}
	if policy.Level == LevelPrivileged {
		return res, nil
	}
	minor := res.Evaluated.minor
	for i := range checks {
		c := &checks[i]
		fn := c.variant(minor)
		if fn == nil || !c.applies(policy.Level, minor) {
			continue
		}
		if f, bad := fn(pod); bad {
			f.Check = c.id
			res.Forbidden = append(res.Forbidden, f)
		}
	}
	res.Allowed = len(res.Forbidden) == 0
	return res, nil
}

// Admit is Pod Security admission's answer to a pod create in a namespace
// that enforces policy: nil when the pod is allowed, else the API server's
// refusal, an *admission.Error with reason Forbidden (HTTP 403) whose
// message is
//
//	pods "x" is forbidden: violates PodSecurity "<level>:<version>": reason (detail), ...
//
// The name is the pod's name, or its generateName before the API server
// has generated one, or "Unknown" (apiserver's admission.NewForbidden).
// Bad input is an error as Evaluate's.
func Admit(pod *api.Pod, policy Policy) error {
	res, err := Evaluate(pod, policy)
	if err != nil || res.Allowed {
		return err
	}
	name := pod.Name
	if name == "" {
		name = pod.GenerateName
	}
	if name == "" {
		name = "Unknown"
	}
	return res.refusal(name)
}
