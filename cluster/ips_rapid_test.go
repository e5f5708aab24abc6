package cluster

import (
	"fmt"
	"net"
	"testing"

	"pgregory.net/rapid"
)

// TestRuntimeModelIPs: the runtime model's node and pod addresses are the
// harness's for the node indexes and pod counts it numbers validly, and
// valid, distinct IPv4 addresses for any node index and pod count.
func TestRuntimeModelIPs(t *testing.T) {
	if got := nodeIP(0); got != "10.0.0.1" {
		t.Errorf("nodeIP(0) = %s", got)
	}
	if got := podIP(3, 12); got != "10.244.3.12" {
		t.Errorf("podIP(3, 12) = %s", got)
	}
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.IntRange(0, 16383).Draw(t, "a")
		b := rapid.IntRange(0, 16383).Draw(t, "b")
		n := rapid.IntRange(10, 100000).Draw(t, "n")
		for _, ip := range []string{nodeIP(a), podIP(a, n)} {
			if p := net.ParseIP(ip); p == nil || p.To4() == nil {
				t.Fatalf("%s is not an IPv4 address", ip)
			}
		}
		if a != b && nodeIP(a) == nodeIP(b) {
			t.Fatalf("nodes %d and %d share %s", a, b, nodeIP(a))
		}
		if a != b && podIP(a, n) == podIP(b, n) {
			t.Fatalf("pods of nodes %d and %d share %s", a, b, podIP(a, n))
		}
		if a < 255 && n < 256 && podIP(a, n) != fmt.Sprintf("10.244.%d.%d", a, n) {
			t.Fatalf("podIP(%d, %d) = %s, not the harness's", a, n, podIP(a, n))
		}
	})
}
