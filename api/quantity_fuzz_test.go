package api

import (
	"encoding/json"
	"testing"
)

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{
		"0", "1", "+1", "-1", ".5", "5.", "1.5", "100m", "1Gi", "1.5Gi", "0.5Ki",
		"1e3", "1E-3", "1e-10", "0.0001m", "1Ei", "9Ei", "1000E",
		"9223372036854775807000", "-9223372036854775809", "1e2147483647",
		"1e-2147483648", "1e4294967296", "-", ".", "Ki", "Pi", "e-10", "",
		"1 Gi", "1.2.3", "--1", "12x", "1Ki5", "0.000000000001Ki",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			if q != (Quantity{}) {
				t.Fatalf("ParseQuantity(%q) failed but returned %#v", s, q)
			}
			return
		}
		canonical := q.String()
		back, err := ParseQuantity(canonical)
		if err != nil {
			t.Fatalf("ParseQuantity(%q) = %#v prints %q, which does not parse: %v", s, q, canonical, err)
		}
		if !back.Equal(q) || back.Cmp(q) != 0 || q.Cmp(back) != 0 {
			t.Fatalf("ParseQuantity(%q) prints %q, which reads back as a different value %q", s, canonical, back.String())
		}
		// Stable: printing is idempotent once read back. (A BinarySI value
		// printed without a binary suffix reads back as DecimalSI, so only
		// the second round must be identical.)
		again := back.String()
		if again != canonical && q.Format() != BinarySI {
			t.Fatalf("ParseQuantity(%q) prints %q, then %q", s, canonical, again)
		}
		if third := MustParseQuantity(again).String(); third != again {
			t.Fatalf("%q prints %q after reading back", again, third)
		}
		if q.Sign() != back.Sign() || q.IsZero() != back.IsZero() {
			t.Fatalf("sign of %q changed when printed as %q", s, canonical)
		}
		data, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Quantity
		if err := json.Unmarshal(data, &fromJSON); err != nil || !fromJSON.Equal(q) {
			t.Fatalf("JSON %s of %q reads back as %v, %v", data, s, fromJSON, err)
		}
		// The accessors never panic.
		_ = q.Value()
		_ = q.MilliValue()
		_, _ = q.AsInt64()
		_ = q.AsApproximateFloat64()
		_ = q.Neg().String()
	})
}
