package api

import "testing"

func TestZoneKey(t *testing.T) {
	for _, tc := range []struct {
		labels       map[string]string
		want         string
		region, zone string
	}{
		{nil, "", "", ""},
		{map[string]string{LabelTopologyZone: "z", LabelTopologyRegion: "r"}, "r:\x00:z", "r", "z"},
		// The deprecated labels come first, as in component-helpers.
		{map[string]string{LabelTopologyZone: "z", LabelFailureDomainBetaZone: "old"}, ":\x00:old", "", "old"},
		{map[string]string{LabelFailureDomainBetaRegion: "", LabelTopologyRegion: "r"}, "", "", ""},
		{map[string]string{LabelTopologyZone: "a:b"}, ":\x00:a:b", "", "a:b"},
	} {
		got := ZoneKey(&Node{ObjectMeta: ObjectMeta{Labels: tc.labels}})
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.labels, got, tc.want)
		}
		if r, z := SplitZoneKey(got); r != tc.region || z != tc.zone {
			t.Errorf("SplitZoneKey(%q) = %q, %q", got, r, z)
		}
	}
	if ZoneKey(nil) != "" {
		t.Error("nil node")
	}
}
