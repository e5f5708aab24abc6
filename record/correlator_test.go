package record_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/record"
	"pgregory.net/rapid"
)

var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

func scaled(i int) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: "ScalingReplicaSet", Source: "deployment-controller",
		Regarding: api.ObjectReference{Kind: "Deployment", Namespace: "default", Name: "web", UID: "u1", APIVersion: "apps/v1"},
		Note:      fmt.Sprintf("Scaled up replica set web-1 from %d to %d", i, i+1)}
}

// From the 10th distinct message within 10 minutes, Events are combined
// into one Event whose count then grows.
func TestAggregation(t *testing.T) {
	c := record.NewCorrelator()
	for i := 0; i < 14; i++ {
		out, err := c.Step(record.Input{Event: scaled(i)}, t0.Add(time.Duration(i)*time.Second))
		if err != nil || out.Skip {
			t.Fatalf("%d: %+v %v", i, out, err)
		}
		wantCombined := i >= 9
		if out.Combined != wantCombined {
			t.Fatalf("%d: combined %v", i, out.Combined)
		}
		if wantCombined && (out.Event.Note != record.CombinedPrefix+scaled(i).Note || out.Count != int32(i-8)) {
			t.Fatalf("%d: %q count %d", i, out.Event.Note, out.Count)
		}
		if !wantCombined && out.Count != 1 {
			t.Fatalf("%d: count %d", i, out.Count)
		}
	}
	// Ten minutes and a second later the group starts again.
	out, _ := c.Step(record.Input{Event: scaled(100)}, t0.Add(13*time.Second+601*time.Second))
	if out.Combined || out.Count != 1 {
		t.Errorf("after the interval: %+v", out)
	}
}

// An Event sent again counts up; past 25 Events about one object the
// spam filter drops them, one more getting through every 300 s.
func TestCountAndSpamFilter(t *testing.T) {
	c := record.NewCorrelator()
	e := api.Event{Type: api.EventTypeNormal, Reason: "FailedBinding", Source: "persistentvolume-controller",
		Regarding: api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: "default", Name: "data", UID: "u"},
		Note:      "no persistent volumes available for this claim and no storage class is set"}
	var sent []int32
	for i := 0; i < 40; i++ {
		out, err := c.Step(record.Input{Event: e}, t0.Add(time.Duration(i)*15*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if !out.Skip {
			sent = append(sent, out.Count)
		}
	}
	// The bucket holds 25 and refills 0.05 per 15 s: the 26th Event (at
	// 375 s) still finds 1.25 tokens, the next would need 0.75 more, which
	// take 225 s after the last accepted Event — beyond the 585 s run.
	if len(sent) != 26 {
		t.Fatalf("sent %v, want 26", sent)
	}
	for i, n := range sent {
		if n != int32(i+1) {
			t.Fatalf("sent %v: counts 1 to 26", sent)
		}
	}
}

// Whatever the Events and times, per source and object no more Events get
// through than the bucket allows: 25, plus one per 300 s elapsed since
// the first; and each Event key's counts only grow.
func TestPropertySpamBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := record.NewCorrelator()
		now := t0
		sent := map[string]int{}
		first := map[string]time.Time{}
		last := map[string]int32{}
		for i, n := 0, rapid.IntRange(1, 200).Draw(t, "n"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "dt")) * time.Second)
			obj := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "obj")
			e := api.Event{Type: api.EventTypeNormal, Reason: rapid.SampledFrom([]string{"R1", "R2"}).Draw(t, "reason"),
				Source: "c", Regarding: api.ObjectReference{Kind: "Pod", Name: obj},
				Note: rapid.SampledFrom([]string{"m1", "m2", "m3"}).Draw(t, "note")}
			out, err := c.Step(record.Input{Event: e}, now)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := first[obj]; !ok {
				first[obj] = now
			}
			if out.Skip {
				continue
			}
			sent[obj]++
			if max := 25 + int(now.Sub(first[obj])/(300*time.Second)) + 1; sent[obj] > max {
				t.Fatalf("%s: %d Events sent by %v, at most %d", obj, sent[obj], now.Sub(first[obj]), max)
			}
			k := obj + e.Reason + out.Event.Note
			if out.Count <= last[k] {
				t.Fatalf("%s: count %d after %d", k, out.Count, last[k])
			}
			last[k] = out.Count
		}
	})
}

func TestNilCorrelator(t *testing.T) {
	var c *record.Correlator
	_, err := c.Step(record.Input{}, t0)
	niltest.Invalid(t, err, api.ErrInvalidInput, "correlator")
	if !c.NextDeadline().IsZero() {
		t.Error("nil NextDeadline")
	}
}

func TestNilTableComplete(t *testing.T) {
	niltest.Check(t, ".", map[string]func(*testing.T){"(*Correlator).Step": TestNilCorrelator, "(*Correlator).NextDeadline": TestNilCorrelator,
		"(*Series).Step": TestNilSeries, "(*Series).NextDeadline": TestNilSeries}, nil)
}

// A controller that scales a ReplicaSet eleven times within a minute: the
// tenth and eleventh Events are sent as one combined Event, counted twice.
func ExampleCorrelator_Step() {
	c := record.NewCorrelator()
	for i := 0; i < 11; i++ {
		out, _ := c.Step(record.Input{Event: scaled(i)}, t0.Add(time.Duration(i)*5*time.Second))
		fmt.Printf("count=%d %s\n", out.Count, out.Event.Note)
	}
	// Output:
	// count=1 Scaled up replica set web-1 from 0 to 1
	// count=1 Scaled up replica set web-1 from 1 to 2
	// count=1 Scaled up replica set web-1 from 2 to 3
	// count=1 Scaled up replica set web-1 from 3 to 4
	// count=1 Scaled up replica set web-1 from 4 to 5
	// count=1 Scaled up replica set web-1 from 5 to 6
	// count=1 Scaled up replica set web-1 from 6 to 7
	// count=1 Scaled up replica set web-1 from 7 to 8
	// count=1 Scaled up replica set web-1 from 8 to 9
	// count=1 (combined from similar events): Scaled up replica set web-1 from 9 to 10
	// count=2 (combined from similar events): Scaled up replica set web-1 from 10 to 11
}

// Each cache keeps 4096 entries: once 4096 other objects have had Events
// since, an object's exhausted bucket is forgotten, and it starts full
// again.
func TestCacheEviction(t *testing.T) {
	c := record.NewCorrelator()
	ev := func(name string) api.Event {
		return api.Event{Type: api.EventTypeWarning, Reason: "BackOff", Source: "kubelet",
			Regarding: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: name}, Note: "Back-off restarting failed container"}
	}
	for i := 0; i < 26; i++ {
		c.Step(record.Input{Event: ev("a"), Host: "node-1"}, t0)
	}
	if out, _ := c.Step(record.Input{Event: ev("a"), Host: "node-1"}, t0); !out.Skip {
		t.Fatal("the 27th Event at once got through")
	}
	for i := 0; i < record.CacheSize; i++ {
		c.Step(record.Input{Event: ev(fmt.Sprint("p", i)), Host: "node-1"}, t0)
	}
	out, _ := c.Step(record.Input{Event: ev("a"), Host: "node-1"}, t0)
	if out.Skip || out.Count != 1 {
		t.Errorf("after eviction: %+v, want sent with count 1", out)
	}
}
