package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// writeText prints a report as plain text sections.
func writeText(b *strings.Builder, r *report, now time.Time) {
	from := r.at.file + ", " + docText(r.at)
	if r.origin != "" {
		from = r.origin + "; " + from
	}
	fmt.Fprintf(b, "== Pod %s/%s (%s)\n", r.pod.Namespace, r.pod.Name, from)

	b.WriteString("\nvalidation (the API server's checks on create, after v1 defaulting)\n")
	if r.admission != nil {
		fmt.Fprintf(b, "  %s admission: %v\n", r.admissionPlugin, r.admission)
	}
	if len(r.findings) == 0 && r.admission == nil {
		b.WriteString("  no findings: the API server accepts the pod\n")
	}
	if r.privileged {
		b.WriteString("  " + privilegedNote + "\n")
	}
	for _, f := range r.findings {
		fmt.Fprintf(b, "  %s\n", f.Error())
	}

	b.WriteString("\nresources and QoS (the pod as stored)\n")
	fmt.Fprintf(b, "  requests  %s   (as kube-scheduler's NodeResourcesFit counts them)\n", resourceText(r.requests))
	fmt.Fprintf(b, "  limits    %s\n", resourceText(r.limits))
	fmt.Fprintf(b, "  QoS class %s\n", r.qos)
	if r.priority != "" {
		fmt.Fprintf(b, "  priority  %s\n", r.priority)
	}
	if r.refused() {
		b.WriteString("\nThe API server refuses the pod as it is, so it never runs: the other sections need the findings fixed.\n\n")
		return
	}

	if r.statusOf == r.pod {
		fmt.Fprintf(b, "\nstatus (the pod as read, at %s)\n", now.Format(time.RFC3339))
	} else {
		fmt.Fprintf(b, "\nstatus (none was read: the pod as just created, at %s)\n", now.Format(time.RFC3339))
	}
	switch read := r.pod.Status.Phase; {
	case r.statusOf != r.pod:
		fmt.Fprintf(b, "  phase %s (computed: %s)\n", r.phase.Phase, r.phase.Why)
	case read == r.phase.Phase:
		fmt.Fprintf(b, "  phase %s (as read, and as the kubelet computes it from the container statuses read: %s)\n", read, r.phase.Why)
	default:
		fmt.Fprintf(b, "  phase %s as read; the kubelet would compute %s from the container statuses read (%s)\n", read, r.phase.Phase, r.phase.Why)
		b.WriteString("    the kubelet writes the phase it computes at its next status sync; the sections below take the pod as read\n")
	}
	if !r.bound {
		b.WriteString("  conditions: none from a kubelet (the pod is bound to no node)\n")
	} else {
		b.WriteString("  conditions (as the kubelet generates them):\n")
		for _, c := range r.conditions {
			line := fmt.Sprintf("    %-26s %-5s %s", c.Type, c.Status, c.Reason)
			if c.Message != "" {
				line += ": " + c.Message
			}
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	b.WriteString("  kubectl get pods:\n")
	cols := [][2]string{{"NAME", r.pod.Name}, {"READY", r.row.Ready}, {"STATUS", r.row.Status}, {"RESTARTS", r.row.Restarts}, {"AGE", r.row.Age}}
	var head, row strings.Builder
	for i, c := range cols {
		w := max(len(c[0]), len(c[1]))
		if i == len(cols)-1 {
			w = 0
		}
		fmt.Fprintf(&head, "%-*s   ", w, c[0])
		fmt.Fprintf(&row, "%-*s   ", w, c[1])
	}
	fmt.Fprintf(b, "    %s\n    %s\n", strings.TrimRight(head.String(), " "), strings.TrimRight(row.String(), " "))

	b.WriteString("\nlifecycle (a happy path through the kubelet's pod state machine: start, run, `kubectl delete`)\n")
	for _, s := range r.story {
		line := fmt.Sprintf("  %6s  %-42s %-9s %-16s %s", "+"+fmtDur(s.at), eventText(s.event), s.phase, s.row.Status, s.row.Ready)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}

	b.WriteString("\nprobes (t=0 is the container's start; the kubelet's probe workers, every probe succeeding)\n")
	if len(r.probes) == 0 {
		b.WriteString("  none\n")
	}
	for _, p := range r.probes {
		fmt.Fprintf(b, "  %s %s: %s\n", p.container, p.kind, probeSpecText(p.spec))
		if p.err != nil {
			fmt.Fprintf(b, "    %v\n", p.err)
			continue
		}
		var parts []string
		switch {
		case len(p.runs) >= probeRuns:
			parts = append(parts, "probes at "+durList(p.runs)+", ...")
		case len(p.runs) > 0:
			parts = append(parts, "probes at "+durList(p.runs))
		default:
			parts = append(parts, "never probes")
		}
		if p.settles {
			switch p.kind {
			case api.ProbeStartup:
				parts = append(parts, "started at "+fmtDur(p.settled))
			case api.ProbeReadiness:
				parts = append(parts, "ready at "+fmtDur(p.settled))
			}
		}
		if p.kills {
			parts = append(parts, "if every probe fails, killed at "+fmtDur(p.killedAt))
		}
		fmt.Fprintf(b, "    %s\n", strings.Join(parts, "; "))
	}

	fmt.Fprintf(b, "\ntermination (`%s`, no flags, at %s)\n", r.deleteFlags, now.Format(time.RFC3339))
	if r.asGiven != nil {
		fmt.Fprintf(b, "  as read, the pod is bound to no node: %s\n", r.asGiven.Reason)
	}
	if r.timelineErr != nil {
		fmt.Fprintf(b, "  %v\n", r.timelineErr)
	} else {
		fmt.Fprintf(b, "  %s; every process ignores its stop signal (the worst case):\n", runningText(r))
		for _, l := range strings.Split(strings.TrimRight(r.timeline.String(), "\n"), "\n") {
			fmt.Fprintf(b, "  %s\n", l)
		}
	}

	fmt.Fprintf(b, "\ndownward API (%s)\n", runningText(r))
	if len(r.env) == 0 && len(r.files) == 0 {
		b.WriteString("  none: no container sets env or envFrom, no downwardAPI or projected volume\n")
	}
	for _, e := range r.env {
		fmt.Fprintf(b, "  env of %s:\n", e.container)
		if e.err != nil {
			fmt.Fprintf(b, "    error: %v\n", e.err)
		}
		for _, v := range e.vars {
			line := fmt.Sprintf("    %s=%s", v.Name, v.Value)
			if v.Value == "" {
				if n := podIPNote(r, e.container, v.Name); n != "" {
					line += "   <" + n + ">"
				}
			}
			b.WriteString(line + "\n")
		}
	}
	for _, f := range r.files {
		fmt.Fprintf(b, "  files of volume %s:\n", f.volume)
		if f.err != nil {
			fmt.Fprintf(b, "    error: %v\n", f.err)
		}
		for _, file := range f.files {
			fmt.Fprintf(b, "    %s (%04o): %q\n", file.Path, file.Mode, file.Data)
		}
	}

	if r.place != nil {
		b.WriteString("\nplacement (kube-scheduler's filters and scores over the nodes read)\n")
		writePlacement(b, r.place, r.stored)
	}

	b.WriteString("\ndisruption (may it be evicted now? the Eviction API's answer)\n")
	for _, bu := range r.budgets {
		st := bu.pdb.Status
		src := "as read"
		if bu.computed {
			src = "as the disruption controller's next sync computes it"
		}
		fmt.Fprintf(b, "  PodDisruptionBudget %s/%s selects the pod: %s; status %s: expected %d, healthy %d, desired %d, disruptions allowed %d\n",
			bu.pdb.Namespace, bu.pdb.Name, budgetSpecText(bu.pdb), src,
			st.ExpectedPods, st.CurrentHealthy, st.DesiredHealthy, st.DisruptionsAllowed)
	}
	if len(r.budgets) == 0 {
		b.WriteString("  no PodDisruptionBudget read selects the pod\n")
	}
	verdict := "refused"
	if r.eviction.Allowed {
		verdict = "allowed"
	}
	fmt.Fprintf(b, "  eviction now: %s, %s\n", verdict, r.eviction.String())
	if why := evictionWhy(r); why != "" {
		fmt.Fprintf(b, "    %s\n", why)
	}
	b.WriteString("\n")
}

func docText(at where) string {
	s := fmt.Sprintf("document %d", at.doc)
	if at.item >= 0 {
		s += fmt.Sprintf(", items[%d]", at.item)
	}
	return s
}

// runningText says which node the termination and downward sections take
// the pod to run on.
func runningText(r *report) string {
	switch {
	case r.bound:
		return "on its node " + r.pod.Spec.NodeName
	case r.runningOn == "":
		return "running on a node that was not read (no node fits, or none was given)"
	case r.place != nil && r.place.best == r.runningOn:
		return "running on " + r.runningOn + ", the scheduler's choice"
	default:
		return "running on " + r.runningOn + ", nominated after preemption"
	}
}

func resourceText(l api.ResourceList) string {
	if len(l) == 0 {
		return "none"
	}
	var parts []string
	for _, n := range sortedNames(l) {
		q := l[n]
		parts = append(parts, fmt.Sprintf("%s %s", n, q.String()))
	}
	return strings.Join(parts, ", ")
}

func probeSpecText(p api.Probe) string {
	var mech string
	switch {
	case p.HTTPGet != nil:
		mech = fmt.Sprintf("httpGet %s port %s", p.HTTPGet.Path, p.HTTPGet.Port.String())
	case p.TCPSocket != nil:
		mech = "tcpSocket port " + p.TCPSocket.Port.String()
	case p.Exec != nil:
		mech = fmt.Sprintf("exec %q", p.Exec.Command)
	case p.GRPC != nil:
		mech = fmt.Sprintf("grpc port %d", p.GRPC.Port)
	default:
		mech = "no handler"
	}
	return fmt.Sprintf("%s; initial delay %ds, period %ds, timeout %ds, success %d, failure %d",
		mech, p.InitialDelaySeconds, p.PeriodSeconds, p.TimeoutSeconds, p.SuccessThreshold, p.FailureThreshold)
}

func budgetSpecText(p *api.PodDisruptionBudget) string {
	switch {
	case p.Spec.MinAvailable != nil:
		return "minAvailable " + p.Spec.MinAvailable.String()
	case p.Spec.MaxUnavailable != nil:
		return "maxUnavailable " + p.Spec.MaxUnavailable.String()
	}
	return "no minAvailable or maxUnavailable"
}

// fmtDur prints a duration in seconds ("0s", "12s", "2.5s").
func fmtDur(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

func durList(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = fmtDur(d)
	}
	return strings.Join(s, ", ")
}

// podIPNote says why a variable from status.podIP or status.podIPs is
// empty: the pod has no IP yet, as read or as explain builds it.
func podIPNote(r *report, container, name string) string {
	if r.running.Status.PodIP != "" {
		return ""
	}
	for _, c := range append(append([]api.Container(nil), r.running.Spec.InitContainers...), r.running.Spec.Containers...) {
		if c.Name != container {
			continue
		}
		for _, e := range c.Env {
			if e.Name != name || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil {
				continue
			}
			switch e.ValueFrom.FieldRef.FieldPath {
			case "status.podIP", "status.podIPs":
				if readFromCluster(r.pod) {
					return "empty: the pod read has no status.podIP yet; the network plugin assigns it when the kubelet starts the pod's sandbox"
				}
				return "assigned by the network plugin when the kubelet starts the pod's sandbox; no status.podIP was read"
			}
		}
	}
	return ""
}

// evictionWhy explains an Eviction API answer that carries no message of
// its own: which rule let the pod go, and why it applies.
func evictionWhy(r *report) string {
	d := r.eviction
	if d.Message != "" {
		return ""
	}
	switch d.Rule {
	case disruption.RuleBudgetIgnored:
		why := fmt.Sprintf("the pod is %s", r.stored.Status.Phase)
		if r.stored.DeletionTimestamp != nil {
			why = "the pod is already terminating (it has a deletionTimestamp)"
		} else if r.statusOf == r.stored && r.stored.Status.Phase == api.PodPending {
			why = "the pod is Pending (as just created: no kubelet runs it yet)"
		}
		return why + ", and the Eviction API deletes a Pending, Succeeded or Failed pod, or one already terminating, without consulting any PodDisruptionBudget"
	case disruption.RuleNoBudget:
		return "no PodDisruptionBudget selects the pod, so nothing limits its eviction"
	case disruption.RuleBudgetAllows:
		return fmt.Sprintf("PodDisruptionBudget %s allows a disruption: the eviction uses one (disruptionsAllowed goes down by 1)", d.Budget)
	case disruption.RuleUnhealthyAlwaysAllow:
		return fmt.Sprintf("the pod is not Ready and PodDisruptionBudget %s has unhealthyPodEvictionPolicy AlwaysAllow: evicted without using the budget", d.Budget)
	case disruption.RuleUnhealthyHealthyBudget:
		return fmt.Sprintf("the pod is not Ready and PodDisruptionBudget %s is met (currentHealthy >= desiredHealthy; unhealthyPodEvictionPolicy IfHealthyBudget): evicted without using the budget", d.Budget)
	}
	return ""
}
