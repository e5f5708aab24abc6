package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// writeMermaid prints a report as Markdown with Mermaid diagrams, which
// GitHub and most Markdown viewers draw: the lifecycle as a state diagram,
// the probe schedule and the termination timeline as Gantt charts, and the
// scheduling answer as a flowchart of nodes grouped by zone with a table
// of fit, spread verdict, skew if placed and score.
func writeMermaid(b *strings.Builder, r *report) {
	fmt.Fprintf(b, "## Pod %s/%s\n\n", r.pod.Namespace, r.pod.Name)
	from := r.at.file + ", " + docText(r.at)
	if r.origin != "" {
		from = mdEscape(r.origin) + "; " + from
	}
	fmt.Fprintf(b, "From %s. QoS class %s; requests %s; limits %s.\n\n",
		from, r.qos, resourceText(r.requests), resourceText(r.limits))
	if r.privileged {
		b.WriteString(mdEscape(privilegedNote) + "\n\n")
	}
	if len(r.findings) > 0 || r.admission != nil {
		b.WriteString("The API server would refuse it:\n\n")
		if r.admission != nil {
			fmt.Fprintf(b, "- %s admission: %s\n", r.admissionPlugin, mdEscape(r.admission.Error()))
		}
		for _, f := range r.findings {
			fmt.Fprintf(b, "- %s\n", mdEscape(f.Error()))
		}
		b.WriteString("\nIt never runs, so there is nothing to draw.\n\n")
		return
	}

	b.WriteString("### Lifecycle\n\n")
	b.WriteString("A happy path through the kubelet's pod state machine: each state is the `kubectl get pods` STATUS, the phase and READY.\n\n")
	mermaidLifecycle(b, r.story)

	b.WriteString("### Probe schedule\n\n")
	if len(r.probes) == 0 {
		b.WriteString("The pod has no probes.\n\n")
	} else {
		b.WriteString("t=0 is the container's start; every probe succeeds, and each bar lasts the probe's timeout. A red mark is when the container is killed if every probe fails instead.\n\n")
		mermaidProbes(b, r)
	}

	fmt.Fprintf(b, "### Termination timeline\n\n`%s` with no flags, %s; every process ignores its stop signal (the worst case).\n\n", r.deleteFlags, runningText(r))
	if r.timelineErr != nil {
		fmt.Fprintf(b, "No timeline: %s\n\n", mdEscape(r.timelineErr.Error()))
	} else {
		mermaidTimeline(b, r)
	}

	if r.place != nil {
		b.WriteString("### Placement\n\n")
		mermaidPlacement(b, r)
	}

	if len(r.env) > 0 || len(r.files) > 0 {
		fmt.Fprintf(b, "### Downward API\n\n%s.\n\n| container or volume | name | value |\n|---|---|---|\n", upperFirst(runningText(r)))
		for _, e := range r.env {
			if e.err != nil {
				fmt.Fprintf(b, "| %s | (error) | %s |\n", cell(e.container), cell(e.err.Error()))
			}
			for _, v := range e.vars {
				val := "`" + cell(v.Value) + "`"
				if v.Value == "" {
					if n := podIPNote(r, e.container, v.Name); n != "" {
						val = "(" + cell(mdEscape(n)) + ")"
					}
				}
				fmt.Fprintf(b, "| %s | %s | %s |\n", cell(e.container), cell(v.Name), val)
			}
		}
		for _, f := range r.files {
			if f.err != nil {
				fmt.Fprintf(b, "| volume %s | (error) | %s |\n", cell(f.volume), cell(f.err.Error()))
			}
			for _, file := range f.files {
				fmt.Fprintf(b, "| volume %s | %s | `%s` |\n", cell(f.volume), cell(file.Path), cell(fmt.Sprintf("%q", file.Data)))
			}
		}
		b.WriteString("\n")
	}

	b.WriteString("### Eviction\n\n")
	for _, bu := range r.budgets {
		st := bu.pdb.Status
		fmt.Fprintf(b, "PodDisruptionBudget %s/%s (%s) selects the pod: %d healthy of %d desired, %d disruption(s) allowed.\n",
			bu.pdb.Namespace, bu.pdb.Name, budgetSpecText(bu.pdb), st.CurrentHealthy, st.DesiredHealthy, st.DisruptionsAllowed)
	}
	verdict := "refused"
	if r.eviction.Allowed {
		verdict = "allowed"
	}
	fmt.Fprintf(b, "The Eviction API now: **%s**, %s.", verdict, mdEscape(r.eviction.String()))
	if why := evictionWhy(r); why != "" {
		fmt.Fprintf(b, " %s.", mdEscape(upperFirst(why)))
	}
	b.WriteString("\n\n")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// mermaidLifecycle draws the story as a stateDiagram-v2.
func mermaidLifecycle(b *strings.Builder, story []storyStep) {
	b.WriteString("```mermaid\nstateDiagram-v2\n")
	ids := map[string]string{}
	prev := "[*]"
	for _, s := range story {
		if s.row.Status == "removed" {
			fmt.Fprintf(b, "    %s --> [*] : object removed\n", prev)
			break
		}
		key := s.state() + "|" + string(s.phase)
		id, ok := ids[key]
		if !ok {
			id = fmt.Sprintf("s%d", len(ids))
			ids[key] = id
			fmt.Fprintf(b, "    state %s as %s\n", mmQuote(fmt.Sprintf("%s (%s, %s ready)", s.row.Status, s.phase, s.row.Ready)), id)
		}
		fmt.Fprintf(b, "    %s --> %s : %s\n", prev, id, mmText(eventText(s.event)))
		prev = id
	}
	b.WriteString("```\n\n")
}

// mermaidProbes draws the probe schedule as a Gantt chart in
// milliseconds since the container's start.
func mermaidProbes(b *strings.Builder, r *report) {
	b.WriteString("```mermaid\ngantt\n    dateFormat x\n    axisFormat %M:%S\n")
	for _, p := range r.probes {
		fmt.Fprintf(b, "    section %s %s\n", mmText(p.container), p.kind)
		if p.err != nil {
			fmt.Fprintf(b, "    %s :crit, milestone, 0, 0ms\n", mmText(p.err.Error()))
			continue
		}
		if d := time.Duration(p.spec.InitialDelaySeconds) * time.Second; d > 0 {
			fmt.Fprintf(b, "    initial delay :done, 0, %dms\n", d.Milliseconds())
		}
		timeout := time.Duration(p.spec.TimeoutSeconds) * time.Second
		for i, at := range p.runs {
			fmt.Fprintf(b, "    probe %d :%d, %dms\n", i+1, at.Milliseconds(), timeout.Milliseconds())
		}
		if p.settles {
			what := "started"
			if p.kind == api.ProbeReadiness {
				what = "ready"
			}
			fmt.Fprintf(b, "    %s :milestone, %d, 0ms\n", what, p.settled.Milliseconds())
		}
		if p.kills {
			fmt.Fprintf(b, "    killed if failing :crit, milestone, %d, 0ms\n", p.killedAt.Milliseconds())
		}
	}
	b.WriteString("```\n\n")
}

// mermaidTimeline draws the termination timeline as a Gantt chart: the
// grace period, each container's preStop hook and stop, and the pod's
// milestones.
func mermaidTimeline(b *strings.Builder, r *report) {
	tl := r.timeline
	b.WriteString("```mermaid\ngantt\n    dateFormat x\n    axisFormat %M:%S\n")
	b.WriteString("    section pod\n")
	if g := tl.Deadline.Sub(tl.Start); g > 0 {
		fmt.Fprintf(b, "    grace period %ds :done, 0, %dms\n", tl.Grace.GracePeriodSeconds, g.Milliseconds())
	}
	var containers []string
	open := map[string]map[termination.TimelineEventKind]time.Duration{}
	bars := map[string][]string{}
	for _, e := range tl.Events {
		ms := e.Offset.Milliseconds()
		if e.Container == "" {
			switch e.Kind {
			case termination.TimelineMarkedTerminating, termination.TimelineRemovedFromEndpoints,
				termination.TimelineStatusReported, termination.TimelineObjectRemoved:
				fmt.Fprintf(b, "    %s :milestone, %d, 0ms\n", milestoneName(e.Kind), ms)
			}
			continue
		}
		c := e.Container
		if _, ok := open[c]; !ok {
			containers = append(containers, c)
			open[c] = map[termination.TimelineEventKind]time.Duration{}
		}
		switch e.Kind {
		case termination.TimelinePreStopStarted, termination.TimelineStopSignal:
			open[c][e.Kind] = e.Offset
		case termination.TimelinePreStopFinished, termination.TimelinePreStopTimedOut:
			if s, ok := open[c][termination.TimelinePreStopStarted]; ok {
				tag := ""
				if e.Kind == termination.TimelinePreStopTimedOut {
					tag = "crit, "
				}
				bars[c] = append(bars[c], fmt.Sprintf("    preStop hook :%s%d, %dms", tag, s.Milliseconds(), (e.Offset-s).Milliseconds()))
			}
		case termination.TimelineKilled, termination.TimelineExited:
			if s, ok := open[c][termination.TimelineStopSignal]; ok {
				name, tag := "stop signal to exit", ""
				if e.Kind == termination.TimelineKilled {
					name, tag = "stop signal to SIGKILL", "crit, "
				}
				bars[c] = append(bars[c], fmt.Sprintf("    %s :%s%d, %dms", name, tag, s.Milliseconds(), (e.Offset-s).Milliseconds()))
			}
		}
	}
	for _, c := range containers {
		fmt.Fprintf(b, "    section %s\n", mmText(c))
		for _, l := range bars[c] {
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("```\n\n")
}

func milestoneName(k termination.TimelineEventKind) string {
	switch k {
	case termination.TimelineMarkedTerminating:
		return "marked Terminating"
	case termination.TimelineRemovedFromEndpoints:
		return "out of endpoints"
	case termination.TimelineStatusReported:
		return "status reported"
	case termination.TimelineObjectRemoved:
		return "object removed"
	}
	return string(k)
}

// mermaidPlacement draws the nodes grouped by zone, coloured by fit, with
// the pod's edge to the chosen node, and the same facts as a table.
func mermaidPlacement(b *strings.Builder, r *report) {
	pl := r.place
	if pl.noNodes {
		b.WriteString(mdEscape(upperFirst(noNodesText)) + ".\n\n")
		return
	}
	if pl.err != nil {
		fmt.Fprintf(b, "The nodes could not be indexed: %s\n\n", mdEscape(pl.err.Error()))
		return
	}
	b.WriteString("```mermaid\nflowchart TB\n")
	fmt.Fprintf(b, "    pod([%s])\n", mmQuote(fmt.Sprintf("%s/%s: %s", r.pod.Namespace, r.pod.Name, resourceText(r.requests))))
	var fit, nofit []string
	ids := map[string]string{}
	for zi, z := range pl.zones {
		name := z.name
		if name == "" {
			name = "no zone label"
		}
		fmt.Fprintf(b, "    subgraph z%d[%s]\n", zi, mmQuote("zone "+name))
		for _, n := range z.nodes {
			id := fmt.Sprintf("n%d", len(ids))
			ids[n.node] = id
			label := n.node
			if n.fits {
				label += "<br/>fits"
				if n.scored {
					label += fmt.Sprintf(", score %d", n.score)
				}
				fit = append(fit, id)
			} else {
				nofit = append(nofit, id)
			}
			for _, w := range n.why {
				label += "<br/>" + w
			}
			if len(n.victim) > 0 {
				label += "<br/>preempts " + strings.Join(n.victim, ", ")
			}
			fmt.Fprintf(b, "        %s[%s]\n", id, mmQuote(label))
		}
		b.WriteString("    end\n")
	}
	switch {
	case pl.best != "":
		fmt.Fprintf(b, "    pod ==>|scheduled| %s\n", ids[pl.best])
	case pl.chosen != "":
		fmt.Fprintf(b, "    pod -.->|nominated after preemption| %s\n", ids[pl.chosen])
	}
	b.WriteString("    classDef fit fill:#d8f5d8,stroke:#2e7d32\n    classDef nofit fill:#fbe0e0,stroke:#c62828\n")
	if len(fit) > 0 {
		fmt.Fprintf(b, "    class %s fit\n", strings.Join(fit, ","))
	}
	if len(nofit) > 0 {
		fmt.Fprintf(b, "    class %s nofit\n", strings.Join(nofit, ","))
	}
	b.WriteString("```\n\n")

	b.WriteString("| zone | node | fits | topology spread | skew if placed | score | why not |\n|---|---|---|---|---|---|---|\n")
	for _, z := range pl.zones {
		for _, n := range z.nodes {
			fits, score := "no", ""
			if n.fits {
				fits = "yes"
			}
			if n.scored {
				score = fmt.Sprint(n.score)
			}
			why := strings.Join(n.why, "; ")
			if len(n.victim) > 0 {
				why = strings.TrimPrefix(why+"; preempts "+strings.Join(n.victim, ", "), "; ")
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", cell(z.name), cell(n.node), fits, cell(n.spread), cell(strings.Join(n.skew, ", ")), score, cell(why))
		}
	}
	b.WriteString("\n")
	if pl.explanation.Message != "" {
		fmt.Fprintf(b, "%s\n\n", mdEscape(messageText(pl.explanation.Message)))
	}
}

// mmQuote quotes text for a Mermaid label: inside the quotes only a
// double quote would end it.
func mmQuote(s string) string {
	return `"` + strings.NewReplacer(`"`, "'", "\n", " ").Replace(s) + `"`
}

// mmText makes text safe where Mermaid reads it unquoted (Gantt task and
// section names, edge texts): no colons, semicolons or hashes.
func mmText(s string) string {
	return strings.NewReplacer(":", " -", ";", ",", "#", "no. ", "\n", " ").Replace(s)
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// mdEscape keeps Markdown from reading text as markup.
func mdEscape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "'", "<", "&lt;").Replace(s)
}
