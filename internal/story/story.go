// Package story replays the scripted stories every podsem state machine
// tells in its package's testdata/ directory: inputs fed at given times,
// each followed by the output the machine gave, in the manner of
// go.etcd.io/raft's data-driven tests. A story reads
//
//	# comments and blank lines are kept as they are
//	config max-pods 110            (a directive, handed to the adapter)
//	pod                            (a block directive: its body runs to "end")
//	{"metadata": {...}}
//	end
//	at 5s ContainerExited(app, 1)  (feed an input at 5 s after the start)
//	=> Running | Error | 0/1 | StartContainer(app)
//	run 10m                        (jump from deadline to deadline up to 10 m)
//	=> at 14s Tick: Running | Error | 0/1 | StartContainer(app)
//
// Lines starting with "=>" are the machine's answers: Run checks them, and
// with -update (go test -run TestStories -update) rewrites them from what
// the machine now says. A "run D" line drives the machine the way a
// simulator does, by its next deadline instead of a ticking clock: while
// the adapter reports a deadline not after D, the runner feeds the
// adapter's tick input at that deadline and records the answer with its
// time. The machine's package supplies an Adapter that parses inputs and
// renders answers; the runner owns the file format, times and -update.
package story

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the expected answers (=> lines) of the testdata stories")

// Adapter is one machine under a story: the package's test code implements
// it around its own machine type.
type Adapter interface {
	// Block reports whether the directive named cmd takes a body: the
	// lines after it up to a line "end".
	Block(cmd string) bool
	// Directive sets the story up (configuration, objects) before or
	// between inputs; args are the directive line's fields after its
	// name, body the block's lines joined by newlines ("" for none).
	Directive(cmd string, args []string, body string) error
	// Step feeds input at elapsed time at (since the story's start) and
	// returns the answer's lines, each written after "=> ".
	Step(at time.Duration, input string) ([]string, error)
	// Next returns the machine's next deadline as elapsed time since the
	// story's start, and false when it has none (it needs no step until
	// an input arrives).
	Next() (time.Duration, bool)
	// Tick is the input that tells the machine time has passed (fed at
	// each deadline by "run").
	Tick() string
}

// maxRunSteps bounds one "run" line: a machine whose deadline stops
// advancing fails the story instead of looping.
const maxRunSteps = 10000

// Run replays every story matching glob (relative to the test's
// directory), one subtest each, with a fresh adapter per story.
func Run(t *testing.T, glob string, newAdapter func() Adapter) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("story: no stories match %s (%v)", glob, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Replay(string(data), newAdapter())
			if err != nil {
				t.Fatalf("%s:%v", file, err)
			}
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if line, g, w, differ := firstDifference(got, string(data)); differ {
				t.Fatalf("%s:%d:\n got: %s\nwant: %s\n(check the change, then rewrite with go test -run %s -update)",
					file, line, g, w, t.Name())
			}
		})
	}
}

// Replay runs one story's text through a and returns the text with every
// answer rewritten from what a says. Errors carry the story's line number.
func Replay(text string, a Adapter) (string, error) {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	lineNo := 0
	var last time.Duration
	for sc.Scan() {
		line := sc.Text()
		lineNo++
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "=>") {
			continue // answers are regenerated
		}
		out = append(out, line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		fields := strings.Fields(trimmed)
		switch fields[0] {
		case "at":
			if len(fields) < 3 {
				return "", fmt.Errorf("%d: want \"at DURATION INPUT\", got %q", lineNo, trimmed)
			}
			at, err := time.ParseDuration(fields[1])
			if err != nil {
				return "", fmt.Errorf("%d: %v", lineNo, err)
			}
			if at < last {
				return "", fmt.Errorf("%d: time goes back from %v to %v", lineNo, last, at)
			}
			last = at
			input := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(trimmed, "at"), " "+fields[1]))
			ans, err := a.Step(at, input)
			if err != nil {
				return "", fmt.Errorf("%d: %v", lineNo, err)
			}
			out = appendAnswer(out, "", ans)
		case "run":
			if len(fields) != 2 {
				return "", fmt.Errorf("%d: want \"run DURATION\", got %q", lineNo, trimmed)
			}
			until, err := time.ParseDuration(fields[1])
			if err != nil {
				return "", fmt.Errorf("%d: %v", lineNo, err)
			}
			steps := 0
			for {
				next, ok := a.Next()
				if !ok || next > until {
					break
				}
				if next < last {
					next = last // an overdue deadline runs now
				}
				if steps++; steps > maxRunSteps {
					return "", fmt.Errorf("%d: the deadline stopped advancing at %v", lineNo, next)
				}
				last = next
				ans, err := a.Step(next, a.Tick())
				if err != nil {
					return "", fmt.Errorf("%d: at %v: %v", lineNo, next, err)
				}
				out = appendAnswer(out, "at "+Format(next)+" "+a.Tick()+": ", ans)
			}
			if until > last {
				last = until
			}
		default:
			var body []string
			if a.Block(fields[0]) {
				closed := false
				for sc.Scan() {
					lineNo++
					l := sc.Text()
					out = append(out, l)
					if strings.TrimSpace(l) == "end" {
						closed = true
						break
					}
					body = append(body, l)
				}
				if !closed {
					return "", fmt.Errorf("%d: %s: no \"end\" line", lineNo, fields[0])
				}
			}
			if err := a.Directive(fields[0], fields[1:], strings.Join(body, "\n")); err != nil {
				return "", fmt.Errorf("%d: %s: %v", lineNo, fields[0], err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return strings.Join(out, "\n") + "\n", nil
}

func appendAnswer(out []string, prefix string, ans []string) []string {
	if len(ans) == 0 {
		return append(out, "=> "+prefix+"(nothing)")
	}
	for _, l := range ans {
		out = append(out, strings.TrimRight("=> "+prefix+l, " "))
	}
	return out
}

// Format writes an elapsed time as stories do: Go's duration syntax with
// the zero units dropped ("90s" reads "1m30s", "10m0s" reads "10m").
func Format(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func firstDifference(got, want string) (line int, g, w string, differ bool) {
	if got == want {
		return 0, "", "", false
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(wl) {
			b = wl[i]
		}
		if a != b {
			return i + 1, a, b, true
		}
	}
	return 0, "", "", false
}
