package lifecycle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// ErrBadEvent is wrapped by ParseEvent errors.
var ErrBadEvent = errors.New("invalid machine event")

// ParseEvent reads an event in the form Event.String writes it, so that
// scenarios can be scripted as text: "Scheduled(node-1)",
// "Rejected(node-1, OutOfcpu, Node didn't have enough resource: cpu, ...)",
// "SandboxReady(10.0.0.5)", "SandboxDied", "ImagePulled(app)",
// "ContainerStarted(app)", "PostStartFinished(app)", "PostStartFailed(app,
// message)", "PreStopFinished(app)", "PreStopFailed(app)",
// "ContainerExited(app, 1)" or "ContainerExited(app, 137, OOMKilled)",
// "ProbeResult(app, readiness, true)", "DeletionRequested(30)",
// "Killed(1, Evicted, The node was low on resource: memory. ...)",
// "NodeLost", "Tick". Arguments are trimmed of surrounding spaces; a container name
// may not contain a comma or a parenthesis, an admission reason neither;
// a message (the last argument) may contain anything. Errors wrap
// ErrBadEvent and quote the input.
func ParseEvent(s string) (Event, error) {
	bad := func(why string) (Event, error) {
		return Event{}, fmt.Errorf("%w %q: %s", ErrBadEvent, s, why)
	}
	name, inside, hasArgs := strings.Cut(strings.TrimSpace(s), "(")
	var args []string
	if hasArgs {
		if !strings.HasSuffix(inside, ")") {
			return bad("missing closing parenthesis")
		}
		inside = strings.TrimSuffix(inside, ")")
	}
	kind := EventKind(0)
	for k := range eventNames {
		if k > 0 && eventNames[k] == name {
			kind = EventKind(k)
		}
	}
	failed := false
	switch name {
	case "PostStartFailed":
		kind, failed = EventPostStartFinished, true
	case "PreStopFailed":
		kind, failed = EventPreStopFinished, true
	}
	if kind == 0 {
		return bad("unknown event name " + strconv.Quote(name))
	}
	split := func(n int) {
		if !hasArgs {
			return
		}
		args = strings.SplitN(inside, ",", n)
		for i := range args {
			args[i] = strings.TrimSpace(args[i])
		}
	}
	want := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				return fmt.Errorf("%w %q: %s takes %d argument(s), got %d", ErrBadEvent, s, name, lo, len(args))
			}
			return fmt.Errorf("%w %q: %s takes %d to %d arguments, got %d", ErrBadEvent, s, name, lo, hi, len(args))
		}
		return nil
	}
	container := func(i int) (string, error) {
		c := args[i]
		if c == "" || strings.ContainsAny(c, ",()") {
			return "", fmt.Errorf("%w %q: bad container name %q", ErrBadEvent, s, c)
		}
		return c, nil
	}
	ev := Event{Kind: kind, Failed: failed}
	var err error
	switch {
	case kind == EventPostStartFinished && failed:
		split(2)
		if err = want(2, 2); err != nil {
			return Event{}, err
		}
		ev.Container, err = container(0)
		ev.Message = args[1]
		if err != nil {
			return Event{}, err
		}
		return ev, nil
	case kind == EventRejected:
		split(3)
		if err = want(3, 3); err != nil {
			return Event{}, err
		}
		if args[0] == "" || strings.ContainsAny(args[0], "()") {
			return bad("bad node name " + strconv.Quote(args[0]))
		}
		if args[1] == "" || strings.ContainsAny(args[1], "()") {
			return bad("bad reason " + strconv.Quote(args[1]))
		}
		ev.Node, ev.Reason, ev.Message = args[0], args[1], args[2]
		return ev, nil
	case kind == EventKilled:
		split(3)
		if err = want(3, 3); err != nil {
			return Event{}, err
		}
		g, perr := strconv.ParseInt(args[0], 10, 64)
		if perr != nil {
			return bad("grace period " + strconv.Quote(args[0]) + " is not an integer")
		}
		if args[1] == "" || strings.ContainsAny(args[1], "()") {
			return bad("bad reason " + strconv.Quote(args[1]))
		}
		ev.GraceSeconds, ev.Reason, ev.Message = g, args[1], args[2]
		return ev, nil
	}
	switch kind {
	case EventScheduled, EventSandboxReady:
		split(1)
		if err = want(1, 1); err != nil {
			return Event{}, err
		}
		if strings.ContainsAny(args[0], "()") {
			return bad("parentheses in the argument")
		}
		if kind == EventScheduled {
			ev.Node = args[0]
		} else {
			ev.IP = args[0]
		}
	case EventImagePulled, EventContainerStarted, EventPreStopFinished, EventPostStartFinished:
		split(1)
		if err = want(1, 1); err != nil {
			return Event{}, err
		}
		ev.Container, err = container(0)
	case EventContainerExited:
		split(3)
		if err = want(2, 3); err != nil {
			return Event{}, err
		}
		if ev.Container, err = container(0); err != nil {
			return Event{}, err
		}
		code, perr := strconv.ParseInt(args[1], 10, 32)
		if perr != nil {
			return bad("exit code " + strconv.Quote(args[1]) + " is not a 32-bit integer")
		}
		ev.ExitCode = int32(code)
		if len(args) == 3 {
			if args[2] == "" || strings.ContainsAny(args[2], "()") {
				return bad("bad reason " + strconv.Quote(args[2]))
			}
			ev.Reason = args[2]
		}
	case EventProbeResult:
		split(3)
		if err = want(3, 3); err != nil {
			return Event{}, err
		}
		if ev.Container, err = container(0); err != nil {
			return Event{}, err
		}
		var perr error
		if ev.Probe, perr = api.ParseProbeKind(args[1]); perr != nil {
			return bad("probe kind " + strconv.Quote(args[1]) + " is not liveness, readiness or startup")
		}
		b, perr := strconv.ParseBool(args[2])
		if perr != nil || (args[2] != "true" && args[2] != "false") {
			return bad("probe result " + strconv.Quote(args[2]) + " is not true or false")
		}
		ev.Success = b
	case EventDeletionRequested:
		split(1)
		if err = want(1, 1); err != nil {
			return Event{}, err
		}
		g, perr := strconv.ParseInt(args[0], 10, 64)
		if perr != nil {
			return bad("grace period " + strconv.Quote(args[0]) + " is not an integer")
		}
		ev.GraceSeconds = g
	default: // SandboxDied, NodeLost, Tick
		if hasArgs && strings.TrimSpace(inside) != "" {
			return bad(name + " takes no arguments")
		}
	}
	if err != nil {
		return Event{}, err
	}
	return ev, nil
}
