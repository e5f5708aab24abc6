package cluster

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A kubelet's Lease computed when read (leaseAt) is the Lease a kubelet
// renewing at every tick of its cadence would have written: the machine
// settles at every tick (each is a kubelet deadline), the node lifecycle
// controller reads the Leases before the kubelets run at an instant, and a
// kubelet gone silent keeps its last renewal. The instants are random:
// ticks, other settles (at, before or between ticks), reads, and the
// moment the kubelet goes silent.
func TestPropertyLeaseComputedWhenRead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		k := newKubelet("node-1", 0)
		k.leaseAnchor, k.nextLease = t0, t0
		k.tick(t0) // the registration renews at once

		// The eager kubelet: the renewTime it last wrote, and the next
		// tick it renews at.
		written, next := t0, t0.Add(NodeLeaseRenewInterval)
		phase := t0 // the kubelets ran at t0 (the registration's instant)
		now := t0
		silentAt := time.Duration(rapid.IntRange(-1, 300).Draw(t, "silent")) * time.Second
		for i := range rapid.IntRange(1, 60).Draw(t, "instants") {
			// The next instant the machine looks at: at most the next
			// tick (a kubelet deadline is never skipped), maybe the same
			// instant again.
			step := time.Duration(rapid.IntRange(0, 10_000).Draw(t, "ms")) * time.Millisecond
			at := now.Add(step)
			if !k.silent && at.After(next) {
				at = next
			}
			now = at
			// At an instant: the controller reads, an action may silence
			// the kubelet, then the kubelets run.
			if rapid.Bool().Draw(t, "read") {
				if got := k.leaseAt(now, phase); !got.Equal(written) {
					t.Fatalf("instant %d at %v: leaseAt %v, the kubelet wrote %v (ran last at %v)", i, now.Sub(t0), got.Sub(t0), written.Sub(t0), phase.Sub(t0))
				}
			}
			if silentAt >= 0 && !k.silent && !now.Before(t0.Add(silentAt)) {
				k.silencedLease = k.leaseAt(now, phase)
				k.silent = true
				if !k.silencedLease.Equal(written) {
					t.Fatalf("silenced at %v: lease %v, the kubelet wrote %v", now.Sub(t0), k.silencedLease.Sub(t0), written.Sub(t0))
				}
			}
			if rapid.IntRange(0, 3).Draw(t, "runs") > 0 || now.Equal(next) {
				phase = now
				if !k.silent && !now.Before(next) {
					written, next = now, now.Add(NodeLeaseRenewInterval)
				}
			}
		}
	})
}

// The status check runs at the ticks of the Lease's cadence, once each:
// tick reports a tick not yet checked, pendingTick the next one to check.
func TestKubeletTicks(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := newKubelet("node-1", 0)
	k.leaseAnchor, k.nextLease = t0, t0
	if !k.tick(t0) || k.tick(t0) {
		t.Fatal("the tick at registration is checked once")
	}
	s := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	if k.tick(s(7)) {
		t.Fatal("7 s is no tick")
	}
	// Ticks skipped (the kubelet was not due) are not checked late: the
	// next is the first after the run.
	if k.tick(s(25)) || !k.nextLease.Equal(s(30)) {
		t.Fatalf("a run at 25 s: next tick %v, want 30s", k.nextLease.Sub(t0))
	}
	if !k.tick(s(30)) || !k.nextLease.Equal(s(40)) {
		t.Fatalf("the tick at 30 s: next %v", k.nextLease.Sub(t0))
	}
	// After a skip, the pending tick is the one at or after now, unless
	// the kubelets already ran at now.
	k.nextLease = s(40)
	if got := k.pendingTick(s(60), s(59)); !got.Equal(s(60)) {
		t.Fatalf("pending at 60 s before the kubelets ran: %v", got.Sub(t0))
	}
	if got := k.pendingTick(s(60), s(60)); !got.Equal(s(70)) {
		t.Fatalf("pending at 60 s after the kubelets ran: %v", got.Sub(t0))
	}
	if got := k.pendingTick(s(61), s(60)); !got.Equal(s(70)) {
		t.Fatalf("pending at 61 s: %v", got.Sub(t0))
	}
}
