package api

import "testing"

var (
	benchQuantitySink Quantity
	benchIntSink      int
	benchStringSink   string
)

func BenchmarkParseQuantity(b *testing.B) {
	for _, s := range []string{"100m", "1Gi", "2", "1.5Gi", "500Mi", "0.5", "1e3", "123456789012345678901234567890"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q, err := ParseQuantity(s)
				if err != nil {
					b.Fatal(err)
				}
				benchQuantitySink = q
			}
		})
	}
}

func BenchmarkQuantityCmp(b *testing.B) {
	cases := []struct{ name, a, b string }{
		{"same-scale", "100m", "250m"},
		{"cross-scale", "1Gi", "1500M"},
		{"equal-cross-scale", "1000m", "1"},
		{"wide", "1Ei", "123456789012345678901234567890"},
	}
	for _, c := range cases {
		x, y := MustParseQuantity(c.a), MustParseQuantity(c.b)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchIntSink = x.Cmp(y)
			}
		})
	}
}

func BenchmarkQuantityAdd(b *testing.B) {
	cases := []struct{ name, a, b string }{
		{"same-scale", "100m", "250m"},
		{"cross-scale", "1Gi", "100m"},
		{"overflow-to-big", "9223372036854775807", "1"},
	}
	for _, c := range cases {
		x, y := MustParseQuantity(c.a), MustParseQuantity(c.b)
		if c.name == "overflow-to-big" {
			x = NewQuantity(9223372036854775807, DecimalSI)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchQuantitySink = x.Add(y)
			}
		})
	}
}

func BenchmarkQuantityString(b *testing.B) {
	for _, s := range []string{"100m", "1536Mi", "1e3"} {
		q := MustParseQuantity(s)
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchStringSink = q.String()
			}
		})
	}
}
