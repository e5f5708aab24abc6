package nodepressure_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings nodepressure.Settings
		want     []string // Threshold.String of each, in order
		period   time.Duration
		err      string // part of the error; "" for none
	}{
		{name: "defaults", want: []string{
			"memory.available<100Mi", "nodefs.available<10%", "nodefs.inodesFree<5%", "imagefs.available<15%",
			"imagefs.inodesFree<5%", "allocatableMemory.available<100Mi"}, period: 5 * time.Minute},
		{name: "empty evictionHard replaces the default", settings: nodepressure.Settings{Hard: map[string]string{}}, period: 5 * time.Minute},
		{name: "0% and 100% are dropped, 10%% is 10%", settings: nodepressure.Settings{
			Hard: map[string]string{"memory.available": "0%", "nodefs.available": "100%", "imagefs.available": "10%%"}},
			want: []string{"imagefs.available<10%"}, period: 5 * time.Minute},
		{name: "soft with grace, minimum reclaim on every threshold of the signal, no allocatable copy of soft", settings: nodepressure.Settings{
			Hard:                     map[string]string{"memory.available": "500Mi"},
			Soft:                     map[string]string{"memory.available": "1.5Gi"},
			SoftGracePeriod:          map[string]string{"memory.available": "1m30s", "pid.available": "10s"},
			MinimumReclaim:           map[string]string{"memory.available": "0.5Gi"},
			PressureTransitionPeriod: "0s",
			EnforceNodeAllocatable:   []string{"pods", "system-reserved"},
		}, want: []string{
			"memory.available<500Mi (minimum reclaim 512Mi)",
			"memory.available<1536Mi (grace 1m30s) (minimum reclaim 512Mi)",
			"allocatableMemory.available<500Mi (minimum reclaim 512Mi)",
		}},
		{name: "no allocatable copy without pods enforcement", settings: nodepressure.Settings{
			Hard: map[string]string{"memory.available": "1Gi"}, EnforceNodeAllocatable: []string{}},
			want: []string{"memory.available<1Gi"}, period: 5 * time.Minute},
		{name: "a soft threshold with 0s grace counts as hard", settings: nodepressure.Settings{
			Hard: map[string]string{}, Soft: map[string]string{"memory.available": "1Gi"}, SoftGracePeriod: map[string]string{"memory.available": "0s"}},
			want: []string{"memory.available<1Gi", "allocatableMemory.available<1Gi"}, period: 5 * time.Minute},
		{name: "unknown signal", settings: nodepressure.Settings{Hard: map[string]string{"memory.free": "1Gi"}}, err: `evictionHard["memory.free"] = "1Gi": unsupported eviction signal`},
		{name: "bad quantity", settings: nodepressure.Settings{Soft: map[string]string{"nodefs.available": "1.5.5"}}, err: `evictionSoft["nodefs.available"] = "1.5.5"`},
		{name: "empty value", settings: nodepressure.Settings{Hard: map[string]string{"memory.available": ""}}, err: `evictionHard["memory.available"] = ""`},
		{name: "negative quantity", settings: nodepressure.Settings{Hard: map[string]string{"nodefs.available": "-1Gi"}}, err: "must be positive"},
		{name: "zero quantity", settings: nodepressure.Settings{Hard: map[string]string{"pid.available": "0"}}, err: "must be positive"},
		{name: "above 100%", settings: nodepressure.Settings{Hard: map[string]string{"memory.available": "110%"}}, err: "<= 100%"},
		{name: "below 0%", settings: nodepressure.Settings{Hard: map[string]string{"memory.available": "-5%"}}, err: ">= 0%"},
		{name: "soft without grace", settings: nodepressure.Settings{Soft: map[string]string{"memory.available": "1Gi"}}, err: "needs an evictionSoftGracePeriod"},
		{name: "negative grace", settings: nodepressure.Settings{SoftGracePeriod: map[string]string{"memory.available": "-1m"}}, err: "must not be negative"},
		{name: "bad grace", settings: nodepressure.Settings{SoftGracePeriod: map[string]string{"memory.available": "soon"}}, err: `"soon"`},
		{name: "0% minimum reclaim", settings: nodepressure.Settings{MinimumReclaim: map[string]string{"memory.available": "0%"}}, err: "must be positive"},
		{name: "negative minimum reclaim", settings: nodepressure.Settings{MinimumReclaim: map[string]string{"memory.available": "-1Gi"}}, err: "must not be negative"},
		{name: "unknown signal in minimum reclaim", settings: nodepressure.Settings{MinimumReclaim: map[string]string{"foo.available": "1Gi"}}, err: "unsupported eviction signal"},
		{name: "bad transition period", settings: nodepressure.Settings{PressureTransitionPeriod: "5"}, err: "evictionPressureTransitionPeriod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := nodepressure.ParseSettings(tc.settings)
			if tc.err != "" {
				if err == nil || !errors.Is(err, nodepressure.ErrInvalidSetting) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, th := range p.Thresholds {
				got = append(got, th.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("thresholds (-want +got):\n%s", diff)
			}
			if p.PressureTransitionPeriod != tc.period {
				t.Errorf("transition period %v, want %v", p.PressureTransitionPeriod, tc.period)
			}
		})
	}
}

// Percentages are float32 fractions, as in the kubelet: 10% of 100Gi is
// not exactly a tenth.
func TestThresholdValueFloat32(t *testing.T) {
	p, err := nodepressure.ParseSettings(nodepressure.Settings{Hard: map[string]string{"nodefs.available": "10%"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Thresholds) == 0 || p.Thresholds[0].Signal != nodepressure.SignalNodeFsAvailable {
		t.Fatalf("thresholds %v, want nodefs.available first", p.Thresholds)
	}
	got := p.Thresholds[0].Value.Of(api.NewQuantity(100<<30, api.BinarySI))
	if v, _ := got.AsInt64(); v != 10737418400 {
		t.Errorf("10%% of 100Gi = %d, want 10737418400", v)
	}
	if p.Thresholds[0].Value.Percentage != float32(0.1) {
		t.Errorf("percentage %v", p.Thresholds[0].Value.Percentage)
	}
}

func TestParseFlag(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        map[string]string
		err         bool
	}{
		{"eviction-hard", "memory.available<100Mi, nodefs.available<10%,", map[string]string{"memory.available": "100Mi", "nodefs.available": "10%"}, false},
		{"eviction-soft", "memory.available<1Gi,memory.available<2Gi", map[string]string{"memory.available": "2Gi"}, false},
		{"eviction-soft-grace-period", "memory.available=1m30s", map[string]string{"memory.available": "1m30s"}, false},
		{"eviction-minimum-reclaim", "", map[string]string{}, false},
		{"eviction-hard", "memory.available=100Mi", nil, true},
		{"eviction-minimum-reclaim", "memory.available", nil, true},
		{"eviction-max", "x<1", nil, true},
	} {
		got, err := nodepressure.ParseFlag(tc.name, tc.value)
		if (err != nil) != tc.err || (err != nil && !errors.Is(err, nodepressure.ErrInvalidSetting)) {
			t.Errorf("%s %q: error %v, want error %v", tc.name, tc.value, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); !tc.err && diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.name, tc.value, diff)
		}
	}
}

func TestObserveSignals(t *testing.T) {
	s := nodeSummary(t0, 80*mi, 4*1024*mi, gi(5), gi(100))
	s.Node.SystemContainers = []nodepressure.ContainerStats{{Name: "kubelet"}, {Name: "pods",
		Memory: &nodepressure.MemoryStats{AvailableBytes: u(10 * mi), WorkingSetBytes: u(3 * 1024 * mi)}}}
	s.Node.Runtime.ContainerFs = &nodepressure.FsStats{AvailableBytes: u(gi(1))} // no capacity: not observed
	got := map[nodepressure.Signal]string{}
	for _, o := range nodepressure.ObserveSignals(&s) {
		got[o.Signal] = o.Available.String() + "/" + o.Capacity.String()
	}
	want := map[nodepressure.Signal]string{
		nodepressure.SignalMemoryAvailable:            "80Mi/4176Mi",
		nodepressure.SignalAllocatableMemoryAvailable: "10Mi/3082Mi",
		nodepressure.SignalNodeFsAvailable:            "5Gi/100Gi",
		nodepressure.SignalNodeFsInodesFree:           "900k/1M",
		nodepressure.SignalImageFsAvailable:           "50Gi/100Gi",
		nodepressure.SignalImageFsInodesFree:          "900k/1M",
		nodepressure.SignalPIDAvailable:               "4193804/4194304",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if nodepressure.ObserveSignals(nil) != nil {
		t.Error("nil summary observed something")
	}
}

func TestSignalMetadata(t *testing.T) {
	for _, tc := range []struct {
		s    nodepressure.Signal
		res  api.ResourceName
		cond api.NodeConditionType
	}{
		{nodepressure.SignalMemoryAvailable, api.ResourceMemory, api.NodeMemoryPressure},
		{nodepressure.SignalAllocatableMemoryAvailable, api.ResourceMemory, api.NodeMemoryPressure},
		{nodepressure.SignalNodeFsAvailable, api.ResourceEphemeralStorage, api.NodeDiskPressure},
		{nodepressure.SignalContainerFsInodesFree, nodepressure.ResourceInodes, api.NodeDiskPressure},
		{nodepressure.SignalPIDAvailable, nodepressure.ResourcePIDs, api.NodePIDPressure},
		{"memory.free", "", ""},
	} {
		if tc.s.Resource() != tc.res || tc.s.NodeCondition() != tc.cond || tc.s.Valid() != (tc.res != "") {
			t.Errorf("%s: %s %s %v", tc.s, tc.s.Resource(), tc.s.NodeCondition(), tc.s.Valid())
		}
	}
}

func FuzzParseSettings(f *testing.F) {
	f.Add("memory.available", "100Mi", "1m30s", "500Mi", "5m")
	f.Add("nodefs.available", "10%%", "0s", "5%", "0s")
	f.Add("imagefs.inodesFree", "NaN%", "-1s", "0%", "")
	f.Add("pid.available", "1e3", "1h", "0", "x")
	f.Fuzz(func(t *testing.T, signal, value, grace, reclaim, period string) {
		p, err := nodepressure.ParseSettings(nodepressure.Settings{
			Hard:                     map[string]string{signal: value},
			Soft:                     map[string]string{signal: value},
			SoftGracePeriod:          map[string]string{signal: grace},
			MinimumReclaim:           map[string]string{signal: reclaim},
			PressureTransitionPeriod: period,
		})
		if err != nil {
			if !errors.Is(err, nodepressure.ErrInvalidSetting) && !strings.Contains(err.Error(), "invalid eviction setting") {
				t.Fatalf("error does not wrap ErrInvalidSetting: %v", err)
			}
			return
		}
		for _, th := range p.Thresholds {
			if !th.Signal.Valid() || th.Operator != nodepressure.OpLessThan {
				t.Fatalf("bad threshold %+v", th)
			}
			if q := th.Value.Quantity; q != nil && q.Sign() <= 0 {
				t.Fatalf("non-positive quantity %s", q)
			}
			if pc := th.Value.Percentage; th.Value.Quantity == nil && !math.IsNaN(float64(pc)) && (pc < 0 || pc > 1) {
				t.Fatalf("percentage %v out of range", pc)
			}
			if th.GracePeriod < 0 {
				t.Fatalf("negative grace %v", th.GracePeriod)
			}
			_ = th.Value.Of(api.NewQuantity(1<<40, api.BinarySI))
			_ = th.String()
		}
	})
}

func FuzzParseFlag(f *testing.F) {
	f.Add(true, "memory.available<100Mi,nodefs.available<10%")
	f.Add(false, "memory.available=1m, ,=,a=b=c")
	f.Fuzz(func(t *testing.T, threshold bool, value string) {
		name, sep := "eviction-minimum-reclaim", "="
		if threshold {
			name, sep = "eviction-hard", "<"
		}
		m, err := nodepressure.ParseFlag(name, value)
		if err != nil {
			return
		}
		for k := range m {
			if strings.Contains(k, ",") || strings.Contains(k, sep) {
				t.Fatalf("key %q holds a separator", k)
			}
		}
	})
}
