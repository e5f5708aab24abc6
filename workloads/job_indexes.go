package workloads

import (
	"math"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// indexRange is a closed range of completion indexes.
type indexRange struct{ first, last int }

// indexRanges is a sorted list of disjoint, non-adjacent ranges: the form
// of status.completedIndexes and status.failedIndexes ("1,3-5").
type indexRanges []indexRange

// parseIndexRanges reads "1,3-5" the way the Job controller does
// (parseIndexesFromString): indexes at or above completions end the list,
// a range end beyond it is clipped, an interval that does not parse is
// skipped, and a range touching the previous one is merged into it.
func parseIndexRanges(s string, completions int) indexRanges {
	if s == "" {
		return nil
	}
	var out indexRanges
	for _, part := range strings.Split(s, ",") {
		bounds := strings.Split(part, "-")
		first, err := strconv.Atoi(bounds[0])
		if err != nil {
			continue
		}
		if first >= completions {
			break
		}
		last := first
		if len(bounds) > 1 {
			if last, err = strconv.Atoi(bounds[1]); err != nil {
				continue
			}
			if last >= completions {
				last = completions - 1
			}
		}
		if n := len(out); n > 0 && out[n-1].last == first-1 {
			out[n-1].last = last
		} else {
			out = append(out, indexRange{first, last})
		}
	}
	return out
}

// withIndexes returns r with the ascending indexes added.
func (r indexRanges) withIndexes(ix []int) indexRanges {
	add := make(indexRanges, len(ix))
	for i, v := range ix {
		add[i] = indexRange{v, v}
	}
	return r.merge(add)
}

// merge returns the union of r and o (each sorted by first index).
func (r indexRanges) merge(o indexRanges) indexRanges {
	var out indexRanges
	push := func(x indexRange) {
		n := len(out)
		switch {
		case n == 0 || x.first > out[n-1].last+1:
			out = append(out, x)
		case out[n-1].last < x.last:
			out[n-1].last = x.last
		}
	}
	i, j := 0, 0
	for i < len(r) && j < len(o) {
		if r[i].first < o[j].first {
			push(r[i])
			i++
		} else {
			push(o[j])
			j++
		}
	}
	for ; i < len(r); i++ {
		push(r[i])
	}
	for ; j < len(o); j++ {
		push(o[j])
	}
	return out
}

// total counts the indexes in r.
func (r indexRanges) total() int {
	n := 0
	for _, x := range r {
		n += x.last - x.first + 1
	}
	return n
}

// has reports whether ix is in r.
func (r indexRanges) has(ix int) bool {
	for _, x := range r {
		if ix < x.first {
			return false
		}
		if ix <= x.last {
			return true
		}
	}
	return false
}

// String writes r as the Job status does: "0,1" for two adjacent indexes
// alone, "0-2" from three on.
func (r indexRanges) String() string {
	var b strings.Builder
	for _, x := range r {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x.first))
		switch {
		case x.last == x.first+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(x.last))
		case x.last > x.first:
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(x.last))
		}
	}
	return b.String()
}

// noIndex is the completion index of a pod without a valid one.
const noIndex = -1

// completionIndex is the pod's completion index annotation, noIndex when
// it is missing, not a number or negative.
func completionIndex(p *api.Pod) int {
	v, ok := p.Annotations[JobCompletionIndexAnnotation]
	if !ok {
		return noIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return noIndex
	}
	return i
}

// annotationCount reads a failure-count annotation; a missing, malformed,
// negative or larger-than-int32 value is 0, as upstream reads it.
func annotationCount(p *api.Pod, key string) int32 {
	v, ok := p.Annotations[key]
	if !ok {
		return 0
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i > math.MaxInt32 {
		return 0
	}
	return int32(i)
}

// matchSuccessPolicy reports whether an Indexed Job's successPolicy is met
// by the succeeded indexes, and the message of the SuccessCriteriaMet
// condition ("Matched rules at index 0"), as pkg/controller/job
// success_policy.go decides.
func matchSuccessPolicy(sp *api.SuccessPolicy, completions int, succeeded indexRanges) (string, bool) {
	if sp == nil || len(succeeded) == 0 {
		return "", false
	}
	for i, rule := range sp.Rules {
		switch {
		case rule.SucceededIndexes != nil:
			want := parseIndexRanges(*rule.SucceededIndexes, completions)
			if len(want) == 0 {
				continue
			}
			if succeededIndexesRuleMet(want, succeeded, rule.SucceededCount) {
				return "Matched rules at index " + strconv.Itoa(i), true
			}
		case rule.SucceededCount != nil && succeeded.total() >= int(*rule.SucceededCount):
			return "Matched rules at index " + strconv.Itoa(i), true
		}
	}
	return "", false
}

// succeededIndexesRuleMet: every index of want has succeeded, or at least
// count of them have.
func succeededIndexesRuleMet(want, succeeded indexRanges, count *int32) bool {
	contains, s, w := 0, 0, 0
	for w < len(want) && s < len(succeeded) {
		if overlap := min(want[w].last, succeeded[s].last) - max(want[w].first, succeeded[s].first) + 1; overlap > 0 {
			contains += overlap
		}
		switch {
		case succeeded[s].last < want[w].last:
			s++
		case succeeded[s].last > want[w].last:
			w++
		default:
			s++
			w++
		}
	}
	return contains == want.total() || (count != nil && contains >= int(*count))
}
