package api

import (
	"slices"
	"strings"
)

// Labels is read access to a set of labels, independent of how they are
// stored (apimachinery pkg/labels.Labels). Selectors match against it.
type Labels interface {
	// Has reports whether the label key is present.
	Has(key string) bool
	// Get returns the label's value, or "" when the key is absent.
	Get(key string) string
}

// Set is a plain map of labels and implements Labels (apimachinery
// pkg/labels.Set). A nil Set is an empty one.
type Set map[string]string

var _ Labels = Set(nil)

// Has reports whether key is present in the set (pkg/labels.Set.Has).
func (s Set) Has(key string) bool {
	_, ok := s[key]
	return ok
}

// Get returns the value of key, or "" when absent (pkg/labels.Set.Get).
func (s Set) Get(key string) string { return s[key] }

// String renders the set as "k=v" pairs sorted and joined by commas, which
// is also a valid selector string when keys and values are valid
// (pkg/labels.Set.String). An empty set renders as "".
func (s Set) String() string {
	pairs := make([]string, 0, len(s))
	for k, v := range s {
		pairs = append(pairs, k+"="+v)
	}
	slices.Sort(pairs)
	return strings.Join(pairs, ",")
}

// AsSelector returns a selector requiring every pair of the set, without
// validating it (pkg/labels.Set.AsSelector); see SelectorFromSet.
func (s Set) AsSelector() Selector { return SelectorFromSet(s) }

// FormatLabels renders labels like Set.String but gives "<none>" for an
// empty map, as kubectl shows them (pkg/labels.FormatLabels).
func FormatLabels(labels map[string]string) string {
	if s := Set(labels).String(); s != "" {
		return s
	}
	return "<none>"
}
