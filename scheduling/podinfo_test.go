package scheduling

import (
	"maps"
	"testing"
	"time"

	"github.com/podsem/podsem/api"

	"pgregory.net/rapid"
)

// TestPodInfoAccessors: through any sequence of snapshot updates, every
// pod's accessors read what its API object says, and pods sharing a
// non-zero LabelSet are in one namespace with equal labels.
func TestPodInfoAccessors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, err := NewCluster(nil, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		podNames := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"}
		for i, steps := 0, rapid.IntRange(5, 40).Draw(t, "steps"); i < steps; i++ {
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0:
				_ = c.AddNode(genSnapNode(t, rapid.SampledFrom(snapNodeNames).Draw(t, "addnode")))
			case 1:
				_ = c.RemoveNode(rapid.SampledFrom(snapNodeNames).Draw(t, "rmnode"))
			case 2:
				p := genSnapPod(t, rapid.SampledFrom(podNames).Draw(t, "addpod"))
				if rapid.Bool().Draw(t, "same labels") {
					p.Labels = map[string]string{"app": "a"}
				}
				switch rapid.IntRange(0, 2).Draw(t, "start") {
				case 1:
					p.Status.StartTime = &api.Time{}
				case 2:
					p.Status.StartTime = api.NewTimePtr(time.Date(2025, 3, 1, 8, 0, rapid.IntRange(0, 59).Draw(t, "second"), 0, time.UTC))
				}
				_ = c.AddPod(p)
			case 3:
				_ = c.RemovePod(rapid.SampledFrom([]string{"ns0", "ns1"}).Draw(t, "rmns"), rapid.SampledFrom(podNames).Draw(t, "rmpod"))
			case 4:
				_ = c.UpdatePod(genSnapPod(t, rapid.SampledFrom(podNames).Draw(t, "updpod")))
			}
		}
		bySet := map[LabelSet]*PodInfo{}
		check := func(p *PodInfo) {
			pod := p.pod
			var start int64
			started := pod.Status.StartTime != nil && !pod.Status.StartTime.IsZero()
			if started {
				start = pod.Status.StartTime.UnixNano()
			}
			nanos, ok := p.StartUnixNano()
			if p.Priority() != api.PodPriority(pod) || nanos != start || ok != started || p.Namespace() != pod.Namespace ||
				p.Name() != pod.Name || p.HasLabels() != (len(pod.Labels) > 0) {
				t.Fatalf("%s: accessors %d %d %v %q %q %v disagree with the pod", p.key, p.Priority(), nanos, ok, p.Namespace(), p.Name(), p.HasLabels())
			}
			for k, v := range pod.Labels {
				if !p.Labels().Has(k) || p.Labels().Get(k) != v {
					t.Fatalf("%s: label %s=%s not read", p.key, k, v)
				}
			}
			if p.Labels().Has("absent") || p.Labels().Get("absent") != "" {
				t.Fatalf("%s: reads a label it does not have", p.key)
			}
			set := p.LabelSet()
			if set.IsZero() != (len(pod.Labels) == 0) {
				t.Fatalf("%s: LabelSet zero %v with labels %v", p.key, set.IsZero(), pod.Labels)
			}
			if q := bySet[set]; q != nil && !set.IsZero() && (q.Namespace() != p.Namespace() || !maps.Equal(q.pod.Labels, pod.Labels)) {
				t.Fatalf("%s and %s share a LabelSet: %s %v, %s %v", p.key, q.key, p.Namespace(), pod.Labels, q.Namespace(), q.pod.Labels)
			}
			bySet[set] = p
		}
		for _, p := range c.pods {
			check(p)
		}
		in := genSnapPod(t, "incoming")
		pi := c.NewCycle(in).Pod()
		if pi.Priority() != api.PodPriority(in) || pi.Namespace() != in.Namespace || pi.Name() != in.Name || !pi.LabelSet().IsZero() {
			t.Fatalf("incoming pod's accessors disagree with the pod")
		}
		for k, v := range in.Labels {
			if pi.Labels().Get(k) != v {
				t.Fatalf("incoming pod: label %s=%s not read", k, v)
			}
		}
	})
}

func TestPodInfoAccessorsNil(t *testing.T) {
	var p *PodInfo
	if _, ok := p.StartUnixNano(); p.Priority() != 0 || ok || p.Namespace() != "" || p.Name() != "" || p.HasLabels() ||
		!p.LabelSet().IsZero() || p.Labels().Has("a") || p.Labels().Get("a") != "" {
		t.Fatal("a nil PodInfo reads as something")
	}
}
