package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

func init() {
	register("workload.job-pod-failure", runJobPodFailure)
}

type jobPodFailureInput struct {
	Op   string     `json:"op"`
	Job  api.Job    `json:"job"`
	Pod  *api.Pod   `json:"pod"`
	Pods []*api.Pod `json:"pods"`
	Now  time.Time  `json:"now"`
}

func runJobPodFailure(input, want json.RawMessage) error {
	var in jobPodFailureInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	switch in.Op {
	case "match":
		return runJobMatch(&in, want)
	case "sync":
		return runJobSync(&in, want)
	}
	return fmt.Errorf("unknown op %q", in.Op)
}

func runJobMatch(in *jobPodFailureInput, want json.RawMessage) error {
	var w struct {
		JobFailureMessage *string `json:"jobFailureMessage"`
		CountFailed       bool    `json:"countFailed"`
		Action            *string `json:"action"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	v, err := workloads.MatchPodFailurePolicy(in.Job.Spec.PodFailurePolicy, in.Pod)
	if err != nil {
		return err
	}
	if got := optString(v.JobFailureMessage); !sameOptString(w.JobFailureMessage, got) {
		return Mismatch("jobFailureMessage", w.JobFailureMessage, got)
	}
	if v.CountFailed != w.CountFailed {
		return Mismatch("countFailed", w.CountFailed, v.CountFailed)
	}
	if got := optString(v.Action); !sameOptString(w.Action, got) {
		return Mismatch("action", w.Action, got)
	}
	return nil
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func sameOptString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

type jobCreatedWant struct {
	GenerateName             string `json:"generateName"`
	Index                    string `json:"index,omitempty"`
	IndexFailureCount        string `json:"indexFailureCount,omitempty"`
	IndexIgnoredFailureCount string `json:"indexIgnoredFailureCount,omitempty"`
}

func runJobSync(in *jobPodFailureInput, want json.RawMessage) error {
	var w struct {
		Status            json.RawMessage  `json:"status"`
		StatusWrites      int              `json:"statusWrites"`
		PodsCreated       []jobCreatedWant `json:"podsCreated"`
		PodsDeleted       []string         `json:"podsDeleted"`
		FinalizersRemoved []string         `json:"finalizersRemoved"`
		SyncError         bool             `json:"syncError"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	res, err := workloads.SyncJob(&in.Job, in.Pods, workloads.JobConfig{}, in.Now)
	if gotErr := err != nil || res.Err != nil; gotErr != w.SyncError {
		return Mismatch("syncError", w.SyncError, fmt.Sprint(err, res.Err))
	}
	if err != nil {
		return nil
	}
	// The vectors come from a fake clientset, whose DELETE removes a pod
	// at once whatever its finalizers: a finalizer patch that follows the
	// pod's own deletion in the same sync finds no pod and is not seen.
	var deleted, finalizers []string
	gone := map[string]bool{}
	var created []jobCreatedWant
	var last *api.JobStatus
	for _, a := range res.Actions {
		switch a.Kind {
		case workloads.JobDeletePod:
			deleted = append(deleted, a.Pod.Name)
			gone[a.Pod.Name] = true
		case workloads.JobReleasePod:
			for _, f := range a.Pod.Finalizers {
				if f == workloads.JobTrackingFinalizer {
					finalizers = append(finalizers, a.Pod.Name)
				}
			}
		case workloads.JobRemoveFinalizer:
			if !gone[a.Pod.Name] {
				finalizers = append(finalizers, a.Pod.Name)
			}
		case workloads.JobCreatePod:
			created = append(created, jobCreatedWant{
				GenerateName:             a.Pod.GenerateName,
				Index:                    a.Pod.Annotations[workloads.JobCompletionIndexAnnotation],
				IndexFailureCount:        a.Pod.Annotations[workloads.JobIndexFailureCountAnnotation],
				IndexIgnoredFailureCount: a.Pod.Annotations[workloads.JobIndexIgnoredFailureCountAnnotation],
			})
		case workloads.JobWriteStatus:
			last = a.Status
		}
	}
	if got := res.StatusWrites(); got != w.StatusWrites {
		return Mismatch("statusWrites", w.StatusWrites, got)
	}
	if !sameStringSet(w.PodsDeleted, deleted) {
		return Mismatch("podsDeleted", w.PodsDeleted, deleted)
	}
	if !sameStringSet(w.FinalizersRemoved, finalizers) {
		return Mismatch("finalizersRemoved", w.FinalizersRemoved, finalizers)
	}
	if d := sameCreated(w.PodsCreated, created); d != "" {
		return Mismatch("podsCreated ("+d+")", w.PodsCreated, created)
	}
	wantStatus, err := DecodeNumbers(orNull(w.Status))
	if err != nil {
		return fmt.Errorf("decoding want status: %w", err)
	}
	var gotStatus any
	if last != nil {
		b, err := json.Marshal(last)
		if err != nil {
			return err
		}
		if gotStatus, err = DecodeNumbers(b); err != nil {
			return err
		}
	}
	if (wantStatus == nil) != (gotStatus == nil) {
		return Mismatch("status", wantStatus, gotStatus)
	}
	if d := SameJSON(wantStatus, gotStatus, "status"); d != "" {
		return Mismatch("status ("+d+")", wantStatus, gotStatus)
	}
	return nil
}

func orNull(b json.RawMessage) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

func sameStringSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// sameCreated compares the created pods as a list ordered by index; the
// order among pods of equal index (all of them, for a NonIndexed Job) is
// not significant.
func sameCreated(want, got []jobCreatedWant) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d pods, want %d", len(got), len(want))
	}
	key := func(c jobCreatedWant) string {
		return fmt.Sprintf("%08s|%s|%s|%s", c.Index, c.GenerateName, c.IndexFailureCount, c.IndexIgnoredFailureCount)
	}
	ks := func(l []jobCreatedWant) []string {
		out := make([]string, len(l))
		for i, c := range l {
			out[i] = key(c)
		}
		sort.Strings(out)
		return out
	}
	wk, gk := ks(want), ks(got)
	for i := range wk {
		if wk[i] != gk[i] {
			return fmt.Sprintf("%s vs %s", gk[i], wk[i])
		}
	}
	return ""
}
