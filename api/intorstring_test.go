package api

import (
	"encoding/json"
	"testing"
)

func TestIntOrStringJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want IntOrString
		err  bool
	}{
		{`5`, FromInt32(5), false},
		{`"50%"`, FromString("50%"), false},
		{`"http"`, FromString("http"), false},
		{`1.5`, IntOrString{}, true},
		{`4294967296`, IntOrString{}, true},
		{`true`, IntOrString{}, true},
	} {
		var v IntOrString
		err := json.Unmarshal([]byte(tc.in), &v)
		if (err != nil) != tc.err {
			t.Errorf("%s: err = %v", tc.in, err)
			continue
		}
		if err == nil && v != tc.want {
			t.Errorf("%s: got %+v", tc.in, v)
		}
		if err == nil {
			out, _ := json.Marshal(v)
			if string(out) != tc.in {
				t.Errorf("%s: re-encoded as %s", tc.in, out)
			}
		}
	}
}

func TestScaledValueFromIntOrPercent(t *testing.T) {
	for _, tc := range []struct {
		v       IntOrString
		total   int
		roundUp bool
		want    int
		err     bool
	}{
		{FromInt32(3), 10, true, 3, false},
		{FromString("50%"), 5, true, 3, false},
		{FromString("50%"), 5, false, 2, false},
		{FromString("0%"), 5, true, 0, false},
		{FromString("100%"), 7, false, 7, false},
		{FromString("33%"), 3, true, 1, false},
		{FromString("half"), 3, true, 0, true},
		{FromString("x%"), 3, true, 0, true},
		// Rounding down is a floor, also for negative percentages.
		{FromString("-10%"), 5, false, -1, false},
		{FromString("-10%"), 5, true, 0, false},
		{FromString("+20%"), 5, false, 1, false},
		// The product is a float64: past 2^53 it rounds as Kubernetes does.
		{FromString("99999999999999%"), 99, true, 98999999999999, false},
		{FromString("99999999999999%"), 1000, true, 999999999999991, false},
	} {
		got, err := ScaledValueFromIntOrPercent(&tc.v, tc.total, tc.roundUp)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%v of %d (up=%v): got %d, %v; want %d", tc.v, tc.total, tc.roundUp, got, err, tc.want)
		}
	}
}
