package podsecurity

import (
	"strings"
	"testing"
)

// TestCheckTable holds the registry to the rules upstream's NewEvaluator
// validates, and to the order upstream runs the checks in: the baseline
// checks sorted by ID, then the restricted ones sorted by ID (byte order,
// so "seLinuxOptions" sorts before "seccompProfile_baseline"). It also
// pins newestPolicyMinor to the newest variant of any check.
func TestCheckTable(t *testing.T) {
	ids := map[string]Level{}
	newest := 0
	for i, c := range checks {
		if _, dup := ids[c.id]; dup {
			t.Errorf("check %s registered twice", c.id)
		}
		ids[c.id] = c.level
		if c.level != LevelBaseline && c.level != LevelRestricted {
			t.Errorf("check %s: level %q", c.id, c.level)
		}
		if i > 0 {
			prev := checks[i-1]
			if prev.level.rank() > c.level.rank() || (prev.level == c.level && strings.Compare(prev.id, c.id) >= 0) {
				t.Errorf("check %s follows %s: want baseline then restricted, each sorted by ID", c.id, prev.id)
			}
		}
		if len(c.variants) == 0 {
			t.Errorf("check %s has no variant", c.id)
		}
		for j, v := range c.variants {
			if v.fn == nil || v.since < 0 || (j > 0 && v.since <= c.variants[j-1].since) {
				t.Errorf("check %s: variants must have functions and strictly increasing versions", c.id)
			}
			newest = max(newest, v.since)
		}
	}
	for _, c := range checks {
		if len(c.overrides) > 0 && c.level != LevelRestricted {
			t.Errorf("check %s: only restricted checks replace others", c.id)
		}
		for _, o := range c.overrides {
			if ids[o] != LevelBaseline {
				t.Errorf("check %s replaces %s, which is not a baseline check", c.id, o)
			}
		}
	}
	if newest != newestPolicyMinor {
		t.Errorf("newest variant is v1.%d, newestPolicyMinor says v1.%d", newest, newestPolicyMinor)
	}
}
