package scheduling

import (
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
)

// TestConfigValidate: NewCluster refuses the plugin arguments
// kube-scheduler refuses, with its field names and messages. The spread
// settings used to be accepted and then reported as a plugin error on
// every node while ScheduleOne said nothing; the weights were used as
// given.
func TestConfigValidate(t *testing.T) {
	zone := func(skew int32, action api.UnsatisfiableConstraintAction) api.TopologySpreadConstraint {
		return api.TopologySpreadConstraint{MaxSkew: skew, TopologyKey: "zone", WhenUnsatisfiable: action}
	}
	list := func(cs ...api.TopologySpreadConstraint) SpreadArgs {
		return SpreadArgs{DefaultingType: SpreadDefaultingList, DefaultConstraints: cs}
	}
	for _, tc := range []struct {
		name   string
		cfg    Config
		spread bool
		want   string
	}{
		{"bogus defaulting type", Config{Spread: SpreadArgs{DefaultingType: "Bogus"}}, true,
			`Config.Spread: defaultingType: Unsupported value: "Bogus": supported values: "System", "List"`},
		{"system with constraints", Config{Spread: SpreadArgs{DefaultConstraints: []api.TopologySpreadConstraint{zone(1, api.DoNotSchedule)}}}, true,
			`Config.Spread: defaultingType: Invalid value: "System": when .defaultConstraints are not empty`},
		{"maxSkew 0", Config{Spread: list(zone(0, api.ScheduleAnyway))}, true,
			`Config.Spread: defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)`},
		{"empty key", Config{Spread: list(api.TopologySpreadConstraint{MaxSkew: 1, WhenUnsatisfiable: api.DoNotSchedule})}, true,
			`Config.Spread: defaultConstraints[0].topologyKey: Required value: can not be empty`},
		{"bad action", Config{Spread: list(zone(1, "Maybe"))}, true,
			`Config.Spread: defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		{"selector", Config{Spread: list(api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{}})}, true,
			`Config.Spread: defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`},
		{"repeated", Config{Spread: list(zone(1, api.DoNotSchedule), zone(2, api.DoNotSchedule))}, true,
			`Config.Spread: defaultConstraints[1]: Duplicate value: "{zone, DoNotSchedule}"`},
		{"weight -5", Config{HardPodAffinityWeight: i32(-5)}, false,
			`Config.HardPodAffinityWeight: hardPodAffinityWeight: Invalid value: -5: not in valid range [0, 100]`},
		{"weight 1000", Config{HardPodAffinityWeight: i32(1000)}, false,
			`Config.HardPodAffinityWeight: hardPodAffinityWeight: Invalid value: 1000: not in valid range [0, 100]`},
		{"group with slash", Config{IgnoredResourceGroups: []string{"example.com/gpu"}}, false,
			`Config.IgnoredResourceGroups: ignoredResourceGroups[0]: Invalid value: "example.com/gpu": resource group name can't contain '/'`},
		{"unknown plugin", Config{Plugins: []string{"Bogus"}}, false, `Config.Plugins: unknown plugin "Bogus"`},
		{"two problems", Config{HardPodAffinityWeight: i32(101), Plugins: []string{"Bogus"}}, false,
			`[Config.Plugins: unknown plugin "Bogus", Config.HardPodAffinityWeight: hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCluster(nil, nil, tc.cfg)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, api.ErrInvalidInput) || errors.Is(err, ErrInvalidSpreadArgs) != tc.spread {
				t.Fatalf("error %v: wraps ErrInvalidInput %v, ErrInvalidSpreadArgs %v", err, errors.Is(err, api.ErrInvalidInput), errors.Is(err, ErrInvalidSpreadArgs))
			}
			want := "scheduling: invalid input: " + tc.want
			if tc.spread {
				want = "scheduling: invalid input: " + ErrInvalidSpreadArgs.Error() + ": " + tc.want
			}
			if err.Error() != want {
				t.Fatalf("error\n got %s\nwant %s", err, want)
			}
		})
	}
	for _, cfg := range []Config{{}, {HardPodAffinityWeight: i32(0)}, {HardPodAffinityWeight: i32(100)},
		{Spread: SpreadArgs{DefaultingType: SpreadDefaultingSystem}}, {Spread: list()},
		{Spread: list(zone(1, api.DoNotSchedule), zone(1, api.ScheduleAnyway))},
		{IgnoredResources: []string{"example.com/gpu"}, IgnoredResourceGroups: []string{"example.com"}}} {
		if err := cfg.Validate(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}
