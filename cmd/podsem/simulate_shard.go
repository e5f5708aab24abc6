package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// jobCompletionIndex is the variable the Job controller sets in every
// container of an Indexed Job's pod: the pod's completion index, from 0.
const jobCompletionIndex = "JOB_COMPLETION_INDEX"

// shard is one share of a directory's scenarios: the scenarios whose index
// in name order is index modulo count.
type shard struct {
	index, count int
}

// parseShard reads --shard: "" (everything: 0/1), "I/N" with 0 ≤ I < N, or
// "/N", whose I is $JOB_COMPLETION_INDEX (an error when it is unset, so
// that a misconfigured Job does not run share 0 N times).
func parseShard(s string, getenv func(string) string) (shard, error) {
	if s == "" {
		return shard{0, 1}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return shard{}, fmt.Errorf("--shard %q: want I/N (0 ≤ I < N), or /N with I from $%s", s, jobCompletionIndex)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 1 {
		return shard{}, fmt.Errorf("--shard %q: N %q: want a whole number ≥ 1", s, ns)
	}
	from := "I"
	if is == "" {
		is = getenv(jobCompletionIndex)
		if is == "" {
			return shard{}, fmt.Errorf("--shard %q: $%s is not set: give I/N", s, jobCompletionIndex)
		}
		from = "$" + jobCompletionIndex
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return shard{}, fmt.Errorf("--shard %q: %s %q: want a whole number from 0 to %d", s, from, is, n-1)
	}
	return shard{i, n}, nil
}

// of is the share's scenarios of names, in order.
func (s shard) of(names []string) []string {
	var out []string
	for k, n := range names {
		if k%s.count == s.index {
			out = append(out, n)
		}
	}
	return out
}

// jsonString is s as a JSON string, HTML characters left as they are (as
// cluster.WriteJSON writes records).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// runMerge is `podsem simulate --merge`: it reads the json outputs of a
// directory's shards and prints them as one run of the directory prints
// them: each scenario's lines in the order read, the scenarios sorted by
// name. Lines of several shards may come interleaved (as `kubectl logs`
// of several pods may give them) as long as each scenario's own lines are
// in order. A scenario whose result (its "final" or "error" line) is read
// twice is an error: a share run twice, or a shard's output given twice.
func runMerge(names []string, stdin io.Reader, stdout, stderr io.Writer) int {
	blocks := map[string][][]byte{}
	done := map[string]string{}
	code := 0
	for _, name := range names {
		var r io.Reader = stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(stderr, "podsem simulate --merge: %s: %v\n", name, unwrapPath(err))
				code = 1
				continue
			}
			defer f.Close()
			r = f
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<30)
		for n := 1; sc.Scan(); n++ {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var head struct {
				Scenario *string         `json:"scenario"`
				Final    json.RawMessage `json:"final"`
				Error    *string         `json:"error"`
			}
			if err := json.Unmarshal(line, &head); err != nil || head.Scenario == nil || *head.Scenario == "" {
				fmt.Fprintf(stderr, "podsem simulate --merge: %s: line %d: not a line of `podsem simulate -o json DIRECTORY` (no \"scenario\" field)\n", name, n)
				code = 1
				continue
			}
			s := *head.Scenario
			if head.Final != nil || head.Error != nil {
				if prev, ok := done[s]; ok {
					fmt.Fprintf(stderr, "podsem simulate --merge: %s: line %d: scenario %q has a result already (in %s): a share given twice?\n", name, n, s, prev)
					code = 1
					continue
				}
				done[s] = fmt.Sprintf("%s line %d", name, n)
			}
			l := make([]byte, len(line)+1)
			copy(l, line)
			l[len(line)] = '\n'
			blocks[s] = append(blocks[s], l)
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(stderr, "podsem simulate --merge: %s: %v\n", name, err)
			code = 1
		}
	}
	keys := make([]string, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w := bufio.NewWriter(stdout)
	for _, k := range keys {
		if _, ok := done[k]; !ok {
			fmt.Fprintf(stderr, "podsem simulate --merge: scenario %q has no result (no \"final\" or \"error\" line): a shard's output cut short?\n", k)
			code = 1
		}
		for _, l := range blocks[k] {
			w.Write(l)
		}
	}
	w.Flush()
	return code
}
