package preemption_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// The plugin's answers to the loop, one per outcome of Preempt.
func TestPostFilter(t *testing.T) {
	nominee := pending("report", "1", 10)
	nominee.Status.NominatedNodeName = "n1"
	for _, tc := range []struct {
		name      string
		pods      []*api.Pod
		preemptor *api.Pod
		want      scheduling.PostFilterResult
	}{{
		name:      "nominated, victims, lower nominations cleared",
		pods:      []*api.Pod{bound("low", "n1", "2", 0, 1), nominee},
		preemptor: pending("high", "2", 100),
		want: scheduling.PostFilterResult{Code: scheduling.Success, Nominate: true, NominatedNodeName: "n1",
			Victims: []*api.Pod{{}}, ClearNominations: []*api.Pod{{}}},
	}, {
		name: "every victim terminating already: nothing to delete, no nomination cleared",
		pods: func() []*api.Pod {
			low := bound("low", "n1", "2", 0, 1)
			low.DeletionTimestamp = api.NewTimePtr(t0)
			return []*api.Pod{low, nominee}
		}(),
		preemptor: pending("high", "2", 100),
		want: scheduling.PostFilterResult{Code: scheduling.Success, Nominate: true, NominatedNodeName: "n1",
			Victims: []*api.Pod{{}}},
	}, {
		name:      "no node helps: the nomination is cleared",
		pods:      []*api.Pod{bound("vip", "n1", "2", 1000, 1)},
		preemptor: pending("high", "2", 100),
		want: scheduling.PostFilterResult{Code: scheduling.Unschedulable, Nominate: true,
			Message: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
	}, {
		name: "not eligible: the nomination is kept",
		pods: []*api.Pod{bound("low", "n1", "2", 0, 1)},
		preemptor: func() *api.Pod {
			p := pending("polite", "2", 100)
			never := api.PreemptNever
			p.Spec.PreemptionPolicy = &never
			return p
		}(),
		want: scheduling.PostFilterResult{Code: scheduling.Unschedulable,
			Message: "preemption: not eligible due to preemptionPolicy=Never."},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster([]*api.Node{node("n1", "2", "4Gi")}, tc.pods...)
			cy := c.NewCycle(tc.preemptor)
			got := defaultPostFilter(t).PostFilter(cy, cy.Decide(nil), t0)
			w := tc.want
			if got.Code != w.Code || got.Nominate != w.Nominate || got.NominatedNodeName != w.NominatedNodeName ||
				got.Message != w.Message || len(got.Victims) != len(w.Victims) ||
				len(got.ClearNominations) != len(w.ClearNominations) || got.Err != nil {
				t.Errorf("got %+v\nwant %+v", got, w)
			}
		})
	}
	// A nil cycle is an Error status, as Preempt's error.
	if got := defaultPostFilter(t).PostFilter(nil, nil, t0); got.Code != scheduling.Error || got.Err == nil {
		t.Errorf("nil cycle: got %+v", got)
	}
}

// defaultPostFilter is DefaultPreemption with its default arguments.
func defaultPostFilter(t *testing.T) scheduling.PostFilter {
	t.Helper()
	post, err := preemption.New(preemption.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return post
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  preemption.Config
		want string
	}{
		{preemption.Config{}, ""},
		{preemption.Config{MinCandidateNodesPercentage: 100, MinCandidateNodesAbsolute: 1}, ""},
		{preemption.Config{MinCandidateNodesPercentage: 101}, "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]"},
		{preemption.Config{MinCandidateNodesPercentage: -1}, "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]"},
		{preemption.Config{MinCandidateNodesAbsolute: -3}, "minCandidateNodesAbsolute: Invalid value: -3: not in valid range [0, inf)"},
		{preemption.Config{MinCandidateNodesPercentage: 200, MinCandidateNodesAbsolute: -1}, "[minCandidateNodesPercentage: Invalid value: 200: not in valid range [0, 100], minCandidateNodesAbsolute"},
	} {
		err := tc.cfg.Validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v, want valid", tc.cfg, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an invalid-input error containing %q", tc.cfg, err, tc.want)
		}
		if post, err := preemption.New(tc.cfg); post != nil || err == nil {
			t.Errorf("New(%+v) = %v, %v; want the config refused", tc.cfg, post, err)
		}
	}
}
