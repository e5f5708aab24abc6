package preemption_test

import (
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

var t0 = time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)

func node(name, cpu, mem string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{api.LabelHostname: name}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.MustParseQuantity(cpu),
		api.ResourceMemory: api.MustParseQuantity(mem),
		api.ResourcePods:   api.MustParseQuantity("110"),
	}
	return n
}

// bound is a running pod on nodeName with a cpu request, a priority and a
// start time minutes after t0 (negative: no start time).
func bound(name, nodeName, cpu string, prio int32, startMin int) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace = name, "default"
	p.UID = "uid-" + name
	p.Labels = map[string]string{"app": name}
	p.Spec.NodeName = nodeName
	p.Spec.Priority = &prio
	p.Spec.Containers = []api.Container{{Name: "c", Image: "pause", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}}}}
	p.Status.Phase = api.PodRunning
	if startMin >= 0 {
		p.Status.StartTime = api.NewTimePtr(t0.Add(time.Duration(startMin) * time.Minute))
	}
	return p
}

func pending(name, cpu string, prio int32) *api.Pod {
	p := bound(name, "", cpu, prio, -1)
	p.Status.Phase = api.PodPending
	return p
}

func cluster(nodes []*api.Node, pods ...*api.Pod) *scheduling.Cluster {
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		panic(err)
	}
	return c
}

// preempt makes the scheduling decision for pod on c and runs Preempt on
// it, as a scheduler does after a cycle finds no node for the pod.
func preempt(c *scheduling.Cluster, pod *api.Pod, pdbs []*api.PodDisruptionBudget, cfg preemption.Config, now time.Time) preemption.Result {
	cy := c.NewCycle(pod)
	return preemption.Preempt(cy, cy.Decide(nil), pdbs, cfg, now)
}

// preemptWithFilters is preempt with every dry run going through the
// WhatIf filters.
func preemptWithFilters(c *scheduling.Cluster, pod *api.Pod, pdbs []*api.PodDisruptionBudget, cfg preemption.Config, now time.Time) preemption.Result {
	cy := c.NewCycle(pod)
	return preemption.PreemptWithFilters(cy, cy.Decide(nil), pdbs, cfg, now)
}

func names(pods []*api.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		if p == nil {
			out[i] = "<nil>"
			continue
		}
		out[i] = p.Name
	}
	return out
}

func pdb(name string, matchApp string, allowed int32, disrupted ...string) *api.PodDisruptionBudget {
	b := &api.PodDisruptionBudget{}
	b.Name, b.Namespace = name, "default"
	b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": matchApp}}
	b.Status.DisruptionsAllowed = allowed
	if len(disrupted) > 0 {
		b.Status.DisruptedPods = map[string]api.Time{}
		for _, d := range disrupted {
			b.Status.DisruptedPods[d] = api.NewTime(t0)
		}
	}
	return b
}
