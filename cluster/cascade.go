package cluster

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// At one instant the components react to each other's writes in rounds
// (settle): every write is delivered, every component runs, again, until
// nothing is left. A real control plane takes tens to hundreds of
// milliseconds per reaction (measured on the e2e harness: a bind's median
// 38 ms, a kubelet's Killing 0.17 s), which the simulation, reacting at
// once, leaves out. That changes no outcome while a cascade ends after a
// few rounds (the deepest in the goldens and benchmarks takes 11; the
// limit is more than twice that). A
// cascade that does not end — a replacement bound to a node whose
// NoExecute taint it tolerates for 0 s, evicted, replaced and bound
// there again, until the node lifecycle controller's next pass lifts the
// taint — is a loop upstream runs at API speed for as long as its cause
// lasts. So after Cascade.Rounds rounds at one instant the cascade is
// slowed: each further round takes Cascade.Latency, and the rest of the
// cluster (monitor passes, kubelets, scenario actions) goes on meanwhile,
// until the cascade comes to rest. podsem records CascadeSlowed when it
// starts and CascadeSettled when it ends.

// DefaultCascadeRounds and DefaultReactionLatency are CascadeConfig's
// defaults.
const (
	DefaultCascadeRounds   = 25
	DefaultReactionLatency = 50 * time.Millisecond
)

// CascadeConfig is how a cascade of reactions that does not come to rest
// at one instant is run (see Machine).
type CascadeConfig struct {
	// Rounds is how many rounds of reactions the components take at one
	// instant before the cascade is slowed; 0 means DefaultCascadeRounds.
	Rounds int
	// Latency is how long each round takes once the cascade is slowed
	// (one reaction of the control plane); 0 means DefaultReactionLatency.
	Latency time.Duration
}

func (c CascadeConfig) rounds() int {
	if c.Rounds <= 0 {
		return DefaultCascadeRounds
	}
	return c.Rounds
}

func (c CascadeConfig) latency() time.Duration {
	if c.Latency <= 0 {
		return DefaultReactionLatency
	}
	return c.Latency
}

// cascade is the state of a slowed cascade: the instant of its next
// round (zero when none is slowed) and the rounds it took so far.
type cascade struct {
	next   time.Time
	rounds int
}

// roundLimit is how many rounds settle may run at now: the configured
// rounds, or one for a slowed cascade.
func (m *Machine) roundLimit() int {
	if !m.slow.next.IsZero() {
		return 1
	}
	return m.cfg.Cascade.rounds()
}

// slowDown defers the rest of the cascade by one reaction latency,
// recording CascadeSlowed when it starts.
func (m *Machine) slowDown(now time.Time) {
	if m.slow.next.IsZero() {
		m.rec.add(now, Record{Component: SourcePodsem, Type: api.EventTypeWarning, Reason: "CascadeSlowed", Source: SourcePodsem,
			Message: fmt.Sprintf("the components did not come to rest after %d rounds at this instant; each further round takes %v", m.cfg.Cascade.rounds(), m.cfg.Cascade.latency())})
	}
	m.slow.rounds++
	m.slow.next = now.Add(m.cfg.Cascade.latency())
}

// atRest ends a slowed cascade, recording CascadeSettled.
func (m *Machine) atRest(now time.Time) {
	if m.slow.next.IsZero() {
		return
	}
	m.rec.add(now, Record{Component: SourcePodsem, Type: api.EventTypeNormal, Reason: "CascadeSettled", Source: SourcePodsem,
		Message: fmt.Sprintf("the components came to rest after %d slowed rounds", m.slow.rounds)})
	m.slow = cascade{}
}
