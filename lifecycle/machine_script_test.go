package lifecycle

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

var updateScripts = flag.Bool("update", false, "rewrite the expectations of testdata/machine/*.txt")

// TestMachineScripts replays the stories in testdata/machine. A script is:
//
//	# comments
//	images busybox:1.28 envoy:v1     (MachineConfig.ImagesPresent)
//	backoff-max 45s                  (Backoff.MaxContainerRestartPeriod)
//	pod                              (the pod as JSON, up to a line "end")
//	{...}
//	end
//	at 5s ContainerExited(app, 1)    (time since creation, event)
//	=> Running | Error | 0/1 | StartContainer(app) ReportStatus
//
// Each "=>" line is the phase, kubectl STATUS, READY and the actions after
// the step; `go test -run TestMachineScripts -update` rewrites them.
func TestMachineScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/machine/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { runScript(t, file) })
	}
}

func runScript(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cfg MachineConfig
	var m *Machine
	var podJSON []string
	inPod := false
	created := time.Time{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	lineNo := 0
	for sc.Scan() {
		line := sc.Text()
		lineNo++
		trimmed := strings.TrimSpace(line)
		switch {
		case inPod:
			out = append(out, line)
			if trimmed == "end" {
				inPod = false
				pod := &api.Pod{}
				if err := json.Unmarshal([]byte(strings.Join(podJSON, "\n")), pod); err != nil {
					t.Fatalf("%s:%d: pod: %v", file, lineNo, err)
				}
				created = pod.CreationTimestamp.Time
				m = NewMachine(pod, cfg)
			} else {
				podJSON = append(podJSON, line)
			}
			continue
		case strings.HasPrefix(trimmed, "=>"):
			continue // regenerated below
		}
		out = append(out, line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(trimmed, "images "):
			cfg.ImagesPresent = strings.Fields(strings.TrimPrefix(trimmed, "images "))
		case strings.HasPrefix(trimmed, "backoff-max "):
			d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(trimmed, "backoff-max ")))
			if err != nil {
				t.Fatalf("%s:%d: %v", file, lineNo, err)
			}
			cfg.Backoff.MaxContainerRestartPeriod = d
		case trimmed == "pod":
			inPod = true
		case strings.HasPrefix(trimmed, "at "):
			if m == nil {
				t.Fatalf("%s:%d: step before the pod", file, lineNo)
			}
			at, evText, _ := strings.Cut(strings.TrimPrefix(trimmed, "at "), " ")
			d, err := time.ParseDuration(at)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, lineNo, err)
			}
			ev, err := ParseEvent(evText)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, lineNo, err)
			}
			now := created.Add(d)
			st, acts := m.Step(ev, now)
			out = append(out, "=> "+renderStep(m, st, acts, now))
		default:
			t.Fatalf("%s:%d: cannot read %q", file, lineNo, line)
		}
	}
	got := strings.Join(out, "\n") + "\n"
	if *updateScripts {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := string(data)
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s:%d:\n got: %s\nwant: %s\n(run with -update after checking the change)", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", file, len(gl), len(wl))
	}
}
