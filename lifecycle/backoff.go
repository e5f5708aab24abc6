package lifecycle

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Crash-loop back-off constants of the Kubernetes v1.36.3 kubelet
// (pkg/kubelet newCrashLoopBackOff and its back-off expiry rule).
const (
	// DefaultInitialBackoff is the delay before the second restart of a
	// crashing container (the first restart is immediate).
	DefaultInitialBackoff = 10 * time.Second
	// DefaultMaxBackoff caps the delay (the kubelet's MaxContainerBackOff,
	// overridable by crashLoopBackOff.maxContainerRestartPeriod).
	DefaultMaxBackoff = 300 * time.Second
	// BackoffResetAfter: a container whose run ended more than this long
	// after its back-off was last advanced (i.e. it ran that long) starts
	// over from the initial delay.
	BackoffResetAfter = 600 * time.Second
	// reducedInitialBackoff and reducedMaxBackoff are the KEP-4603 values
	// of the ReduceDefaultCrashLoopBackOffDecay feature gate.
	reducedInitialBackoff = 1 * time.Second
	reducedMaxBackoff     = 60 * time.Second
)

// Backoff is the kubelet's crash-loop back-off policy, a pure calculator
// over a container's restart history: the delay starts at Initial, doubles
// with every restart up to Max, and starts over when a run lasted longer
// than BackoffResetAfter or when the container's spec (image, resources)
// changed. The zero value is Kubernetes v1.36.3's default: 10 s doubling to
// 300 s.
type Backoff struct {
	// MaxContainerRestartPeriod is the kubelet configuration's
	// crashLoopBackOff.maxContainerRestartPeriod (feature
	// KubeletCrashLoopBackOffMax, on in v1.36.3). Zero means unset. When
	// set it replaces the cap, and when it is below the initial delay the
	// initial delay becomes equal to it.
	MaxContainerRestartPeriod time.Duration
	// ReduceDefaultDecay turns on the ReduceDefaultCrashLoopBackOffDecay
	// feature gate (off in v1.36.3): initial 1 s and cap 60 s before
	// MaxContainerRestartPeriod applies.
	ReduceDefaultDecay bool
}

// Initial is the first non-zero delay.
func (b Backoff) Initial() time.Duration {
	i, _ := b.params()
	return i
}

// Max is the cap on the delay.
func (b Backoff) Max() time.Duration {
	_, m := b.params()
	return m
}

func (b Backoff) params() (initial, max time.Duration) {
	initial, max = DefaultInitialBackoff, DefaultMaxBackoff
	if b.ReduceDefaultDecay {
		initial, max = reducedInitialBackoff, reducedMaxBackoff
	}
	if b.MaxContainerRestartPeriod > 0 {
		max = b.MaxContainerRestartPeriod
		if max < initial {
			initial = max
		}
	}
	return initial, max
}

// BackoffEntry is the back-off state the kubelet keeps for one back-off key
// (client-go flowcontrol.Backoff's per-item entry), as a value.
type BackoffEntry struct {
	// Delay is the current back-off: how long after its next exit the
	// container must wait before it is restarted.
	Delay time.Duration
	// LastUpdate is when the entry last advanced: the time of the last
	// restart.
	LastUpdate time.Time
}

// expired: the run that ended at finishedAt began more than
// BackoffResetAfter after the entry's last update.
func expired(e *BackoffEntry, finishedAt time.Time) bool {
	return finishedAt.Sub(e.LastUpdate) > BackoffResetAfter
}

// InBackOff reports whether a container whose last run ended at finishedAt
// must still wait at now, and until when, given its entry (nil: the key has
// none). This is the kubelet's doBackOff check: no entry or an expired one
// never holds a restart back; otherwise the restart waits until
// finishedAt + e.Delay.
func (b Backoff) InBackOff(e *BackoffEntry, finishedAt, now time.Time) (wait bool, until time.Time) {
	if e == nil || expired(e, finishedAt) {
		return false, finishedAt
	}
	until = finishedAt.Add(e.Delay)
	return now.Before(until), until
}

// Advance is the bookkeeping the kubelet does when it restarts a container
// whose last run ended at finishedAt, at time now: a missing or expired
// entry starts at Initial, otherwise the delay doubles, capped at Max.
func (b Backoff) Advance(e *BackoffEntry, finishedAt, now time.Time) BackoffEntry {
	initial, max := b.params()
	if e == nil || expired(e, finishedAt) {
		return BackoffEntry{Delay: initial, LastUpdate: now}
	}
	d := e.Delay * 2
	if d > max || d < e.Delay { // the second test guards overflow
		d = max
	}
	return BackoffEntry{Delay: d, LastUpdate: now}
}

// Run is one run of a container: the back-off key of the spec it ran with,
// and when it started and finished.
type Run struct {
	// Key identifies the container spec the run used (see BackoffKey);
	// each key has its own back-off.
	Key string
	// StartedAt is when the kubelet started the run; FinishedAt when it
	// exited (zero while it is still running).
	StartedAt, FinishedAt time.Time
}

// RestartHistory is a container's runs, oldest first, and the key of its
// spec as it stands now.
type RestartHistory struct {
	Runs []Run
	// Key is the back-off key the next restart uses (the current spec);
	// empty means the key of the last run.
	Key string
}

// BackoffCode says why a restart may or may not happen now.
type BackoffCode uint8

// The back-off outcomes.
const (
	// NeverStarted: no run yet; the first start is never held back.
	NeverStarted BackoffCode = iota
	// StillRunning: the last run has not finished; nothing to restart.
	StillRunning
	// NoBackoff: the key has no back-off yet (first restart, or the spec
	// changed): restart at once.
	NoBackoff
	// BackoffReset: the last run outlasted BackoffResetAfter, so the
	// back-off starts over: restart at once.
	BackoffReset
	// InBackoff: the back-off has not elapsed; the container waits in
	// CrashLoopBackOff.
	InBackoff
	// BackoffElapsed: the back-off has elapsed: restart now.
	BackoffElapsed
)

// String names the code.
func (c BackoffCode) String() string {
	switch c {
	case NeverStarted:
		return "NeverStarted"
	case StillRunning:
		return "StillRunning"
	case NoBackoff:
		return "NoBackoff"
	case BackoffReset:
		return "BackoffReset"
	case InBackoff:
		return "InBackoff"
	case BackoffElapsed:
		return "BackoffElapsed"
	}
	return fmt.Sprintf("BackoffCode(%d)", uint8(c))
}

// BackoffDecision is when a crashed container may be restarted and why.
type BackoffDecision struct {
	Code BackoffCode
	// Allowed: the kubelet may restart the container at now.
	Allowed bool
	// At is the earliest restart time (the last run's finish plus Delay).
	At time.Time
	// Delay is the back-off applying to the last exit (0: at once).
	Delay time.Duration
	// Entry is the key's back-off state once the container is restarted
	// at the later of now and At; Entry.Delay is the minimum wait that will
	// follow its next exit.
	Entry BackoffEntry
	// Reason is "CrashLoopBackOff" while the container has to wait, as its
	// waiting state shows; empty otherwise.
	Reason string
	// Message explains the decision with the numbers, like the kubelet's
	// "back-off 20s restarting failed container".
	Message string
}

// ErrBadHistory is wrapped by NextRestart errors about an inconsistent
// restart history.
var ErrBadHistory = errors.New("inconsistent restart history")

// NextRestart replays the container's history through the kubelet's
// crash-loop back-off (pkg/kubelet/kuberuntime doBackOff over client-go's
// flowcontrol.Backoff with the kubelet's 600 s expiry) and says when its
// last exit may be followed by a restart. Each earlier restart, at the next
// run's StartedAt, advanced the back-off of that run's key from the
// previous run's FinishedAt. The first restart of a key is immediate; each
// further one waits Initial, 2×Initial, 4×Initial, ... capped at Max after
// the exit; a run longer than BackoffResetAfter resets the key.
//
// Runs must be in order: each run starts no earlier than the previous one
// finished and finishes no earlier than it started; only the last run may
// be unfinished. Otherwise the error wraps ErrBadHistory and names the run.
func (b Backoff) NextRestart(h RestartHistory, now time.Time) (BackoffDecision, error) {
	runs := h.Runs
	if len(runs) == 0 {
		return BackoffDecision{Code: NeverStarted, Allowed: true, At: now, Message: "never started: start at once"}, nil
	}
	for i := range runs {
		r := &runs[i]
		if !r.FinishedAt.IsZero() && r.FinishedAt.Before(r.StartedAt) {
			return BackoffDecision{}, fmt.Errorf("%w: runs[%d] finished at %s, before it started at %s",
				ErrBadHistory, i, r.FinishedAt.Format(time.RFC3339), r.StartedAt.Format(time.RFC3339))
		}
		if i == 0 {
			continue
		}
		p := &runs[i-1]
		if p.FinishedAt.IsZero() {
			return BackoffDecision{}, fmt.Errorf("%w: runs[%d] has no finishedAt but runs[%d] follows it", ErrBadHistory, i-1, i)
		}
		if r.StartedAt.Before(p.FinishedAt) {
			return BackoffDecision{}, fmt.Errorf("%w: runs[%d] started at %s, before runs[%d] finished at %s",
				ErrBadHistory, i, r.StartedAt.Format(time.RFC3339), i-1, p.FinishedAt.Format(time.RFC3339))
		}
	}

	// Replay: one entry per key, as the kubelet's back-off map holds them.
	type keyed struct {
		key   string
		entry BackoffEntry
	}
	var entries []keyed
	lookup := func(key string) *BackoffEntry {
		for i := range entries {
			if entries[i].key == key {
				return &entries[i].entry
			}
		}
		return nil
	}
	for i := 1; i < len(runs); i++ {
		k := runs[i].Key
		e := lookup(k)
		next := b.Advance(e, runs[i-1].FinishedAt, runs[i].StartedAt)
		if e != nil {
			*e = next
		} else {
			entries = append(entries, keyed{k, next})
		}
	}

	last := &runs[len(runs)-1]
	if last.FinishedAt.IsZero() {
		return BackoffDecision{Code: StillRunning, Message: "the container is still running"}, nil
	}
	key := h.Key
	if key == "" {
		key = last.Key
	}
	e := lookup(key)
	wait, at := b.InBackOff(e, last.FinishedAt, now)
	d := BackoffDecision{At: at, Delay: at.Sub(last.FinishedAt), Allowed: !wait}
	restartAt := now
	if wait {
		restartAt = at
	}
	d.Entry = b.Advance(e, last.FinishedAt, restartAt)
	switch {
	case e == nil:
		d.Code = NoBackoff
		d.Message = "no back-off recorded for this container spec: restart at once"
	case expired(e, last.FinishedAt):
		d.Code = BackoffReset
		d.Message = fmt.Sprintf("the run lasted %s, over %s: back-off reset, restart at once",
			last.FinishedAt.Sub(e.LastUpdate), BackoffResetAfter)
	case wait:
		d.Code = InBackoff
		d.Reason = CrashLoopBackOff
		d.Message = fmt.Sprintf("back-off %s restarting failed container (until %s)", e.Delay, at.Format(time.RFC3339))
	default:
		d.Code = BackoffElapsed
		d.Message = fmt.Sprintf("back-off %s elapsed: restart", e.Delay)
	}
	return d, nil
}

// BackoffKey is the key under which the kubelet keeps a container's
// back-off: the pod's name, namespace and UID, the container's name, its
// image and its resources (pkg/kubelet/kuberuntime GetBackoffKey). A change
// of image or resources therefore starts a fresh back-off. The text is
// podsem's own rendering; only equality of keys matters. A nil pod or
// container has no key: the result is "".
func BackoffKey(pod *api.Pod, c *api.Container) string {
	if pod == nil || c == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(pod.Name)
	b.WriteByte('_')
	b.WriteString(pod.Namespace)
	b.WriteByte('_')
	b.WriteString(pod.UID)
	b.WriteByte('_')
	b.WriteString(c.Name)
	b.WriteByte('_')
	b.WriteString(c.Image)
	b.WriteString("_limits{")
	writeResources(&b, c.Resources.Limits)
	b.WriteString("}requests{")
	writeResources(&b, c.Resources.Requests)
	b.WriteString("}claims{")
	for i, cl := range c.Resources.Claims {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(cl.Name)
		b.WriteByte('/')
		b.WriteString(cl.Request)
	}
	b.WriteByte('}')
	return b.String()
}

func writeResources(b *strings.Builder, l api.ResourceList) {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		q := l[api.ResourceName(n)]
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(q.String())
	}
}
