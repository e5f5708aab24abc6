package story

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// counter is a toy machine: "add N" raises a level that drains by one
// every 10 s; its deadline is the next drain while the level is positive.
type counter struct {
	level    int
	drainAt  time.Duration
	capacity int
}

func (c *counter) Block(cmd string) bool { return cmd == "note" }
func (c *counter) Tick() string          { return "Tick" }

func (c *counter) Directive(cmd string, args []string, body string) error {
	switch cmd {
	case "capacity":
		n, err := strconv.Atoi(args[0])
		c.capacity = n
		return err
	case "note":
		if body == "" {
			return fmt.Errorf("empty note")
		}
		return nil
	}
	return fmt.Errorf("unknown directive")
}

func (c *counter) Next() (time.Duration, bool) { return c.drainAt, c.level > 0 }

func (c *counter) Step(at time.Duration, input string) ([]string, error) {
	for c.level > 0 && c.drainAt <= at {
		c.level--
		c.drainAt += 10 * time.Second
	}
	switch {
	case input == "Tick":
	case strings.HasPrefix(input, "add "):
		n, err := strconv.Atoi(strings.TrimPrefix(input, "add "))
		if err != nil {
			return nil, err
		}
		if c.level == 0 {
			c.drainAt = at + 10*time.Second
		}
		c.level = min(c.level+n, c.capacity)
	default:
		return nil, fmt.Errorf("unknown input %q", input)
	}
	if c.level == 0 {
		return nil, nil
	}
	return []string{"level " + strconv.Itoa(c.level), "next " + Format(c.drainAt)}, nil
}

func TestReplay(t *testing.T) {
	in := `# a toy story
capacity 5
note
free text
end
at 0s add 3
=> stale answer
run 1m
at 1m add 9
`
	want := `# a toy story
capacity 5
note
free text
end
at 0s add 3
=> level 3
=> next 10s
run 1m
=> at 10s Tick: level 2
=> at 10s Tick: next 20s
=> at 20s Tick: level 1
=> at 20s Tick: next 30s
=> at 30s Tick: (nothing)
at 1m add 9
=> level 5
=> next 1m10s
`
	got, err := Replay(in, &counter{})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// A replayed story replays to itself.
	again, err := Replay(got, &counter{})
	if err != nil || again != got {
		t.Fatalf("replay is not stable: %v\n%s", err, again)
	}
}

func TestReplayErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"at 5s\n", "1: want \"at DURATION INPUT\""},
		{"at 5x add 1\n", "1: time: unknown unit"},
		{"capacity 5\nat 5s add 1\nat 4s add 1\n", "3: time goes back"},
		{"note\nno end\n", "no \"end\" line"},
		{"bogus\n", "1: bogus: unknown directive"},
		{"run\n", "1: want \"run DURATION\""},
		{"capacity 5\nat 0s eat 1\n", "2: unknown input"},
	} {
		_, err := Replay(tc.in, &counter{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Replay(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}

// stuck never moves its deadline: run must give up instead of looping.
type stuck struct{ counter }

func (s *stuck) Next() (time.Duration, bool) { return time.Second, true }

func TestRunStopsOnAStuckDeadline(t *testing.T) {
	_, err := Replay("run 1m\n", &stuck{})
	if err == nil || !strings.Contains(err.Error(), "stopped advancing") {
		t.Fatalf("got %v", err)
	}
}

func TestFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 90 * time.Second: "1m30s", 10 * time.Minute: "10m", 2 * time.Hour: "2h",
		1500 * time.Millisecond: "1.5s", 2*time.Hour + 5*time.Minute: "2h5m",
	} {
		if got := Format(d); got != want {
			t.Errorf("Format(%v) = %q, want %q", d, got, want)
		}
	}
}
