package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// workload.replicaset: one sync of the ReplicaSet controller, through
// workloads.SyncReplicaSet.

func init() {
	register("workload.replicaset", runReplicaSet)
}

// rsQuotaMessage is the API error the vectors' API server answers a pod
// creation beyond podCreateQuota with (a ResourceQuota's 403).
const rsQuotaMessage = "pods is forbidden: exceeded quota: pod-count, requested: pods=1, used: pods=10, limited: pods=10"

type rsExpectations struct {
	Add int `json:"add"`
	Del int `json:"del"`
}

type rsInput struct {
	Now                 time.Time         `json:"now"`
	ReplicaSet          api.ReplicaSet    `json:"replicaSet"`
	OtherReplicaSets    []*api.ReplicaSet `json:"otherReplicaSets"`
	Pods                []*api.Pod        `json:"pods"`
	PodCreateQuota      *int              `json:"podCreateQuota"`
	PendingExpectations *rsExpectations   `json:"pendingExpectations"`
}

type rsCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type rsStatus struct {
	Replicas             int32         `json:"replicas"`
	FullyLabeledReplicas int32         `json:"fullyLabeledReplicas"`
	ReadyReplicas        int32         `json:"readyReplicas"`
	AvailableReplicas    int32         `json:"availableReplicas"`
	TerminatingReplicas  *int32        `json:"terminatingReplicas"`
	ObservedGeneration   int64         `json:"observedGeneration"`
	Conditions           []rsCondition `json:"conditions"`
}

type rsWant struct {
	Adopted        []string       `json:"adopted"`
	Released       []string       `json:"released"`
	CreateAttempts int            `json:"createAttempts"`
	Created        int            `json:"created"`
	Deleted        []string       `json:"deleted"`
	StatusUpdated  bool           `json:"statusUpdated"`
	Status         rsStatus       `json:"status"`
	SyncError      bool           `json:"syncError"`
	Expectations   rsExpectations `json:"expectations"`
}

func runReplicaSet(input, want json.RawMessage) error {
	var in rsInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w rsWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	var pending workloads.ReplicaSetExpectations
	if e := in.PendingExpectations; e != nil {
		pending = workloads.ReplicaSetExpectations{Add: e.Add, Del: e.Del}
	}
	res, err := workloads.SyncReplicaSet(workloads.ReplicaSetInput{
		ReplicaSet:       &in.ReplicaSet,
		Pods:             in.Pods,
		OtherReplicaSets: in.OtherReplicaSets,
		AcceptCreates:    in.PodCreateQuota,
		CreateError:      errors.New(rsQuotaMessage),
	}, pending, in.Now)
	if err != nil {
		return fmt.Errorf("SyncReplicaSet: %w", err)
	}
	names := func(pods []*api.Pod, sorted bool) []string {
		out := []string{}
		for _, p := range pods {
			out = append(out, p.Name)
		}
		if sorted {
			slices.Sort(out)
		}
		return out
	}
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	if got := names(res.Adopted, true); !slices.Equal(got, nonNil(slices.Sorted(slices.Values(w.Adopted)))) {
		return Mismatch("adopted", w.Adopted, got)
	}
	if got := names(res.Released, true); !slices.Equal(got, nonNil(slices.Sorted(slices.Values(w.Released)))) {
		return Mismatch("released", w.Released, got)
	}
	if res.CreateAttempts != w.CreateAttempts {
		return Mismatch("createAttempts", w.CreateAttempts, res.CreateAttempts)
	}
	if res.Created != w.Created {
		return Mismatch("created", w.Created, res.Created)
	}
	if got := names(res.Delete, false); !slices.Equal(got, nonNil(w.Deleted)) {
		return Mismatch("deleted", w.Deleted, got)
	}
	if res.StatusUpdated != w.StatusUpdated {
		return Mismatch("statusUpdated", w.StatusUpdated, res.StatusUpdated)
	}
	if (res.Err != nil) != w.SyncError {
		return Mismatch("syncError", w.SyncError, fmt.Sprint(res.Err))
	}
	if got := (rsExpectations{Add: res.Expectations.Add, Del: res.Expectations.Del}); got != w.Expectations {
		return Mismatch("expectations", w.Expectations, got)
	}
	st := res.Status
	got := rsStatus{
		Replicas: st.Replicas, FullyLabeledReplicas: st.FullyLabeledReplicas, ReadyReplicas: st.ReadyReplicas,
		AvailableReplicas: st.AvailableReplicas, TerminatingReplicas: st.TerminatingReplicas, ObservedGeneration: st.ObservedGeneration,
		Conditions: []rsCondition{},
	}
	for _, c := range st.Conditions {
		got.Conditions = append(got.Conditions, rsCondition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message})
	}
	wantStatus := w.Status
	if wantStatus.Conditions == nil {
		wantStatus.Conditions = []rsCondition{}
	}
	if jsonString(got) != jsonString(wantStatus) {
		return Mismatch("status", wantStatus, got)
	}
	return nil
}
