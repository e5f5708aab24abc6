package api

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ErrInvalidSelector is wrapped by every error that rejects a label
// selector, whether a selector string, a LabelSelector or a single
// requirement; test for it with errors.Is.
var ErrInvalidSelector = errors.New("invalid label selector")

// SelectionOperator is the operator of a Requirement: the operators of
// apimachinery's pkg/selection that label selectors use. Its values are the
// upstream spellings.
type SelectionOperator string

// The operators a Requirement may use (apimachinery pkg/selection).
const (
	// SelectionEquals ("=") requires the label to exist with the one value.
	SelectionEquals SelectionOperator = "="
	// SelectionDoubleEquals ("==") means the same as SelectionEquals.
	SelectionDoubleEquals SelectionOperator = "=="
	// SelectionNotEquals ("!=") requires the label to be absent or to have
	// another value.
	SelectionNotEquals SelectionOperator = "!="
	// SelectionIn requires the label to exist with one of the values.
	SelectionIn SelectionOperator = "in"
	// SelectionNotIn requires the label to be absent or to have none of the
	// values.
	SelectionNotIn SelectionOperator = "notin"
	// SelectionExists requires the label to exist.
	SelectionExists SelectionOperator = "exists"
	// SelectionDoesNotExist requires the label to be absent.
	SelectionDoesNotExist SelectionOperator = "!"
	// SelectionGreaterThan requires the label to exist with a base-10 int64
	// value greater than the one value.
	SelectionGreaterThan SelectionOperator = "gt"
	// SelectionLessThan requires the label to exist with a base-10 int64
	// value less than the one value.
	SelectionLessThan SelectionOperator = "lt"
)

// Requirement is one condition of a selector: a key, an operator and the
// values it relates them to (apimachinery pkg/labels.Requirement). Build
// one with NewRequirement; the zero Requirement is invalid and matches
// nothing.
type Requirement struct {
	key    string
	op     SelectionOperator
	values []string
	// num is the parsed single value of a gt/lt requirement; numOK is false
	// when it could not be parsed (only possible for unvalidated
	// requirements), in which case the requirement matches nothing.
	num   int64
	numOK bool
}

// NewRequirement builds a Requirement after apimachinery's checks
// (pkg/labels.NewRequirement): the key must be a qualified name; in/notin
// need at least one value; =, == and != exactly one; exists and ! none; gt
// and lt exactly one base-10 int64; and every value must be a valid label
// value. The empty string is a valid value. Errors wrap ErrInvalidSelector.
// vals is copied.
func NewRequirement(key string, op SelectionOperator, vals []string) (Requirement, error) {
	r, errs := newRequirement(key, op, vals, "")
	if len(errs) > 0 {
		return Requirement{}, joinSelectorErrors(errs)
	}
	return r, nil
}

// newRequirement validates and builds a requirement. path prefixes the field
// names in the messages ("" gives "key", "values[0]", ...). The requirement
// is returned even when invalid, for callers that only want the errors.
func newRequirement(key string, op SelectionOperator, vals []string, path string) (Requirement, []string) {
	var errs []string
	if msgs := IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, invalidMsg(joinPath(path, "key"), key, strings.Join(msgs, "; ")))
	}
	valuesPath := joinPath(path, "values")
	r := Requirement{key: key, op: op}
	switch op {
	case SelectionIn, SelectionNotIn:
		if len(vals) == 0 {
			errs = append(errs, invalidMsg(valuesPath, "[]", "for 'in', 'notin' operators, values set can't be empty"))
		}
	case SelectionEquals, SelectionDoubleEquals, SelectionNotEquals:
		if len(vals) != 1 {
			errs = append(errs, invalidMsg(valuesPath, fmtValues(vals), "exact-match compatibility requires one single value"))
		}
	case SelectionExists, SelectionDoesNotExist:
		if len(vals) != 0 {
			errs = append(errs, invalidMsg(valuesPath, fmtValues(vals), "values set must be empty for exists and does not exist"))
		}
	case SelectionGreaterThan, SelectionLessThan:
		if len(vals) != 1 {
			errs = append(errs, invalidMsg(valuesPath, fmtValues(vals), "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range vals {
			n, ok := parseInt64(v)
			if !ok {
				errs = append(errs, invalidMsg(indexPath(valuesPath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			} else if len(vals) == 1 {
				r.num, r.numOK = n, true
			}
		}
	default:
		errs = append(errs, fmt.Sprintf("%s: Unsupported value: %q: supported values: %s", joinPath(path, "operator"), string(op),
			`"in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`))
	}
	for i, v := range vals {
		if msgs := IsValidLabelValue(v); len(msgs) > 0 {
			errs = append(errs, invalidMsg(indexPath(valuesPath, i)+"["+key+"]", v, strings.Join(msgs, "; ")))
		}
	}
	if len(vals) > 0 {
		r.values = slices.Clone(vals)
	}
	return r, errs
}

// invalidMsg formats one problem the way apimachinery's field errors read:
// "<field>: Invalid value: "<value>": <detail>".
func invalidMsg(field, value, detail string) string {
	if field == "" {
		return fmt.Sprintf("Invalid value: %q: %s", value, detail)
	}
	return fmt.Sprintf("%s: Invalid value: %q: %s", field, value, detail)
}

func joinPath(path, child string) string {
	if path == "" {
		return child
	}
	return path + "." + child
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func fmtValues(vals []string) string {
	if len(vals) == 0 {
		return "[]"
	}
	return "[" + strings.Join(vals, ",") + "]"
}

// joinSelectorErrors turns messages into one error wrapping
// ErrInvalidSelector.
func joinSelectorErrors(msgs []string) error {
	return fmt.Errorf("%w: %s", ErrInvalidSelector, strings.Join(msgs, "; "))
}

// parseInt64 is strconv.ParseInt(s, 10, 64) without the allocation of its
// error: an optional sign, then one or more decimal digits, in range.
func parseInt64(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	i := 0
	switch s[0] {
	case '+':
		i = 1
	case '-':
		neg, i = true, 1
	}
	if i == len(s) {
		return 0, false
	}
	const cutoff = uint64(1) << 63
	var n uint64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > cutoff/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > cutoff {
			return 0, false
		}
	}
	if neg {
		return -int64(n), true // n == cutoff wraps to MinInt64, as intended
	}
	if n == cutoff {
		return 0, false
	}
	return int64(n), true
}

// Key returns the label key the requirement tests.
func (r Requirement) Key() string { return r.key }

// Operator returns the requirement's operator.
func (r Requirement) Operator() SelectionOperator { return r.op }

// Values returns the requirement's distinct values, sorted (like the set
// upstream's Requirement.Values returns).
func (r Requirement) Values() []string {
	out := slices.Clone(r.values)
	slices.Sort(out)
	return slices.Compact(out)
}

// ValuesUnsorted returns a copy of the values as given, duplicates included
// (pkg/labels.Requirement.ValuesUnsorted).
func (r Requirement) ValuesUnsorted() []string { return slices.Clone(r.values) }

// Equal reports whether two requirements have the same key, operator and
// values in the same order (pkg/labels.Requirement.Equal).
func (r Requirement) Equal(o Requirement) bool {
	return r.key == o.key && r.op == o.op && slices.Equal(r.values, o.values)
}

func (r *Requirement) hasValue(v string) bool {
	for _, x := range r.values {
		if x == v {
			return true
		}
	}
	return false
}

// Matches reports whether the labels satisfy the requirement, by the rules
// of pkg/labels.Requirement.Matches: in/=/== need the key present with a
// listed value; notin/!= hold when the key is absent or its value is not
// listed; exists/! test presence; gt/lt need the key present with a value
// that parses as a base-10 int64 and compares strictly. Anything else, and
// the zero Requirement, matches nothing. Nil labels are an empty set.
func (r Requirement) Matches(ls Labels) bool {
	if s, ok := ls.(Set); ok {
		v, has := s[r.key]
		return r.matchValue(v, has)
	}
	if ls == nil {
		return r.matchValue("", false)
	}
	has := ls.Has(r.key)
	var v string
	if has {
		v = ls.Get(r.key)
	}
	return r.matchValue(v, has)
}

func (r *Requirement) matchValue(v string, has bool) bool {
	switch r.op {
	case SelectionIn, SelectionEquals, SelectionDoubleEquals:
		return has && r.hasValue(v)
	case SelectionNotIn, SelectionNotEquals:
		return !has || !r.hasValue(v)
	case SelectionExists:
		return has
	case SelectionDoesNotExist:
		return !has
	case SelectionGreaterThan, SelectionLessThan:
		if !has || !r.numOK {
			return false
		}
		n, ok := parseInt64(v)
		if !ok {
			return false
		}
		if r.op == SelectionGreaterThan {
			return n > r.num
		}
		return n < r.num
	}
	return false
}

// String renders the requirement in selector syntax as
// pkg/labels.Requirement.String does: "!k", "k", "k=v", "k==v", "k!=v",
// "k>v", "k<v", "k in (a,b)", "k notin (a,b)", with several values sorted
// (duplicates kept).
func (r Requirement) String() string {
	var b strings.Builder
	if r.op == SelectionDoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.op {
	case SelectionEquals, SelectionDoubleEquals, SelectionNotEquals:
		b.WriteString(string(r.op))
	case SelectionIn:
		b.WriteString(" in ")
	case SelectionNotIn:
		b.WriteString(" notin ")
	case SelectionGreaterThan:
		b.WriteByte('>')
	case SelectionLessThan:
		b.WriteByte('<')
	case SelectionExists, SelectionDoesNotExist:
		return b.String()
	}
	set := r.op == SelectionIn || r.op == SelectionNotIn
	if set {
		b.WriteByte('(')
	}
	if len(r.values) == 1 {
		b.WriteString(r.values[0])
	} else {
		vals := r.values
		if !slices.IsSorted(vals) {
			vals = slices.Clone(vals)
			slices.Sort(vals)
		}
		b.WriteString(strings.Join(vals, ","))
	}
	if set {
		b.WriteByte(')')
	}
	return b.String()
}

// Selector is a compiled label query (apimachinery pkg/labels.Selector).
// Implementations are immutable and safe for concurrent use.
type Selector interface {
	// Matches reports whether the labels satisfy the selector.
	Matches(Labels) bool
	// Empty reports whether the selector places no restriction (matches
	// everything). Nothing() is not empty.
	Empty() bool
	// String renders the selector in selector-string syntax; Nothing()
	// renders as "".
	String() string
	// Requirements returns a copy of the requirements, sorted by key; nil
	// for Nothing() and empty for Everything().
	Requirements() []Requirement
	// Add returns a new selector with the requirements added (and sorted by
	// key); the receiver is unchanged. Nothing() stays Nothing().
	Add(reqs ...Requirement) Selector
	// RequiresExactMatch reports whether the first requirement on label is
	// an =, == or one-value in requirement, and if so its value.
	RequiresExactMatch(label string) (value string, found bool)
}

// requirementsSelector is the conjunction of its requirements, kept sorted
// by key (stably, so equal keys stay in the order given).
type requirementsSelector []Requirement

// nothingSelector matches nothing (pkg/labels.Nothing).
type nothingSelector struct{}

// Everything returns the selector that matches all labels; it is Empty and
// renders as "" (pkg/labels.Everything).
func Everything() Selector { return requirementsSelector(nil) }

// Nothing returns the selector that matches no labels; it is not Empty and
// renders as "" (pkg/labels.Nothing).
func Nothing() Selector { return nothingSelector{} }

// SelectsNothing reports whether sel is the Nothing() selector
// (pkg/labels.MatchesNothing). A nil selector is not.
func SelectsNothing(sel Selector) bool {
	_, ok := sel.(nothingSelector)
	return ok
}

func (nothingSelector) Matches(Labels) bool                      { return false }
func (nothingSelector) Empty() bool                              { return false }
func (nothingSelector) String() string                           { return "" }
func (nothingSelector) Requirements() []Requirement              { return nil }
func (n nothingSelector) Add(...Requirement) Selector            { return n }
func (nothingSelector) RequiresExactMatch(string) (string, bool) { return "", false }

func (s requirementsSelector) Matches(ls Labels) bool {
	if set, ok := ls.(Set); ok {
		for i := range s {
			v, has := set[s[i].key]
			if !s[i].matchValue(v, has) {
				return false
			}
		}
		return true
	}
	for i := range s {
		if !s[i].Matches(ls) {
			return false
		}
	}
	return true
}

func (s requirementsSelector) Empty() bool { return len(s) == 0 }

func (s requirementsSelector) String() string {
	var b strings.Builder
	for i := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i].String())
	}
	return b.String()
}

func (s requirementsSelector) Requirements() []Requirement {
	return append([]Requirement{}, s...)
}

func (s requirementsSelector) Add(reqs ...Requirement) Selector {
	out := make(requirementsSelector, 0, len(s)+len(reqs))
	out = append(out, s...)
	out = append(out, reqs...)
	sortByKey(out)
	return out
}

func (s requirementsSelector) RequiresExactMatch(label string) (string, bool) {
	for i := range s {
		if s[i].key != label {
			continue
		}
		switch s[i].op {
		case SelectionEquals, SelectionDoubleEquals, SelectionIn:
			if len(s[i].values) == 1 {
				return s[i].values[0], true
			}
		}
		return "", false
	}
	return "", false
}

func sortByKey(reqs []Requirement) {
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].key < reqs[j].key })
}

// SelectorFromSet returns a selector requiring every key of the set with
// its value; a nil or empty set gives Everything(). Nothing is validated
// (pkg/labels.SelectorFromSet).
func SelectorFromSet(ls Set) Selector { return SelectorFromValidatedSet(ls) }

// SelectorFromValidatedSet is SelectorFromSet for a set the caller has
// already validated (pkg/labels.SelectorFromValidatedSet); the set is
// copied.
func SelectorFromValidatedSet(ls Set) Selector {
	if len(ls) == 0 {
		return Everything()
	}
	reqs := make(requirementsSelector, 0, len(ls))
	for k, v := range ls {
		reqs = append(reqs, Requirement{key: k, op: SelectionEquals, values: []string{v}})
	}
	sortByKey(reqs)
	return reqs
}

// ValidatedSelectorFromSet is SelectorFromSet with every key and value
// checked as NewRequirement does (pkg/labels.ValidatedSelectorFromSet).
// Errors wrap ErrInvalidSelector and cover every bad pair, in key order.
func ValidatedSelectorFromSet(ls Set) (Selector, error) {
	if len(ls) == 0 {
		return Everything(), nil
	}
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []string
	reqs := make(requirementsSelector, 0, len(ls))
	for _, k := range keys {
		r, msgs := newRequirement(k, SelectionEquals, []string{ls[k]}, "")
		errs = append(errs, msgs...)
		reqs = append(reqs, r)
	}
	if len(errs) > 0 {
		return nil, joinSelectorErrors(errs)
	}
	return reqs, nil
}

// labelSelectorOperators lists the LabelSelector operators, for messages.
const labelSelectorOperators = `"DoesNotExist", "Exists", "In", "NotIn"`

// LabelSelectorAsSelector compiles the API form of a label selector, as
// apimachinery pkg/apis/meta/v1.LabelSelectorAsSelector does: nil gives
// Nothing(), a selector with no matchLabels and no matchExpressions gives
// Everything(), and otherwise the conjunction of one = requirement per
// matchLabels pair and one requirement per expression, checked by
// NewRequirement's rules (In/NotIn need values, Exists/DoesNotExist take
// none, keys and values must be valid, and only the four LabelSelector
// operators are allowed). The error wraps ErrInvalidSelector and names
// every bad field ("matchLabels", "matchExpressions[0].operator", ...) and
// its value; upstream stops at the first problem but rejects the same
// selectors. The result matches without allocating.
func LabelSelectorAsSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
		return Everything(), nil
	}
	reqs := make(requirementsSelector, 0, len(ls.MatchLabels)+len(ls.MatchExpressions))
	var errs []string
	if len(ls.MatchLabels) > 0 {
		keys := make([]string, 0, len(ls.MatchLabels))
		for k := range ls.MatchLabels {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := ls.MatchLabels[k]
			if msgs := IsQualifiedName(k); len(msgs) > 0 {
				errs = append(errs, invalidMsg("matchLabels", k, strings.Join(msgs, "; ")))
			}
			if msgs := IsValidLabelValue(v); len(msgs) > 0 {
				errs = append(errs, invalidMsg("matchLabels["+k+"]", v, strings.Join(msgs, "; ")))
			}
			reqs = append(reqs, Requirement{key: k, op: SelectionEquals, values: []string{v}})
		}
	}
	for i, e := range ls.MatchExpressions {
		path := indexPath("matchExpressions", i)
		var op SelectionOperator
		switch e.Operator {
		case LabelSelectorOpIn:
			op = SelectionIn
		case LabelSelectorOpNotIn:
			op = SelectionNotIn
		case LabelSelectorOpExists:
			op = SelectionExists
		case LabelSelectorOpDoesNotExist:
			op = SelectionDoesNotExist
		default:
			errs = append(errs, fmt.Sprintf("%s.operator: Unsupported value: %q: supported values: %s",
				path, string(e.Operator), labelSelectorOperators))
			continue
		}
		r, msgs := newRequirement(e.Key, op, e.Values, path)
		errs = append(errs, msgs...)
		reqs = append(reqs, r)
	}
	if len(errs) > 0 {
		return nil, joinSelectorErrors(errs)
	}
	sortByKey(reqs)
	return reqs, nil
}
