package api

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidNodeSelector is wrapped by every error that rejects a node
// selector, a node selector term or its requirements; test for it with
// errors.Is.
var ErrInvalidNodeSelector = errors.New("invalid node selector")

// NodeFieldName is the only node field that matchFields can usefully test
// (k8s.io/component-helpers nodeaffinity).
const NodeFieldName = "metadata.name"

// nodeSelectorOperators lists the label operators of a node selector
// requirement, for messages.
const nodeSelectorOperators = `"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"`

// nodeLabelRequirements compiles matchExpressions, following
// k8s.io/component-helpers nodeaffinity's nodeSelectorRequirementsAsSelector;
// path names the list in messages.
func nodeLabelRequirements(reqs []NodeSelectorRequirement, path string) (Selector, []string) {
	if len(reqs) == 0 {
		return Nothing(), nil
	}
	var errs []string
	out := make(requirementsSelector, 0, len(reqs))
	for i, e := range reqs {
		p := indexPath(path, i)
		var op SelectionOperator
		switch e.Operator {
		case NodeSelectorOpIn:
			op = SelectionIn
		case NodeSelectorOpNotIn:
			op = SelectionNotIn
		case NodeSelectorOpExists:
			op = SelectionExists
		case NodeSelectorOpDoesNotExist:
			op = SelectionDoesNotExist
		case NodeSelectorOpGt:
			op = SelectionGreaterThan
		case NodeSelectorOpLt:
			op = SelectionLessThan
		default:
			errs = append(errs, fmt.Sprintf("%s.operator: Unsupported value: %q: supported values: %s", p, string(e.Operator), nodeSelectorOperators))
			continue
		}
		r, msgs := newRequirement(e.Key, op, e.Values, p)
		errs = append(errs, msgs...)
		out = append(out, r)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	sortByKey(out)
	return out, nil
}

// NodeSelectorRequirementsAsSelector compiles node selector requirements
// into a label selector (the rule of k8s.io/kubernetes pkg/apis/core/v1/helper
// and k8s.io/component-helpers nodeaffinity): an empty list gives Nothing();
// In, NotIn, Exists and DoesNotExist behave as in label selectors; Gt and Lt
// need exactly one value that is a base-10 int64 and a valid label value
// (so "-1" is rejected), and match a node label whose value parses as an
// int64 strictly above (Gt) or below (Lt) it; a missing or unparsable label
// does not match. Errors wrap ErrInvalidNodeSelector and ErrInvalidSelector
// and name each bad field ("matchExpressions[0].values", ...) and value.
func NodeSelectorRequirementsAsSelector(reqs []NodeSelectorRequirement) (Selector, error) {
	sel, errs := nodeLabelRequirements(reqs, "matchExpressions")
	if len(errs) > 0 {
		return nil, nodeSelectorError(errs)
	}
	return sel, nil
}

func nodeSelectorError(msgs []string) error {
	return fmt.Errorf("%w: %w: %s", ErrInvalidNodeSelector, ErrInvalidSelector, strings.Join(msgs, "; "))
}

// nodeFieldRequirement is one compiled matchFields entry: the field must
// (In) or must not (NotIn) equal value.
type nodeFieldRequirement struct {
	key   string
	value string
	not   bool
}

// NodeSelectorTermMatcher is a compiled NodeSelectorTerm (the term type of
// k8s.io/component-helpers nodeaffinity): its matchExpressions and
// matchFields are ANDed. A term with neither list, and a term that failed
// to compile, matches no node. Safe for concurrent use.
type NodeSelectorTermMatcher struct {
	labels Selector // nil when the term has no matchExpressions
	fields []nodeFieldRequirement
	hasFld bool
	never  bool  // empty or invalid term
	err    error // why the term is invalid, if it is
}

// NewNodeSelectorTermMatcher compiles one term, as component-helpers does
// for required and preferred node affinity terms. matchExpressions follow
// NodeSelectorRequirementsAsSelector. matchFields allow only In and NotIn,
// each with exactly one value; the key is not checked here (API validation
// limits it to metadata.name) and any other key reads as the empty string.
// A term with no expressions and no fields matches nothing and is not an
// error. An invalid term yields a matcher that matches nothing together
// with an error wrapping ErrInvalidNodeSelector that lists every problem;
// the matcher is never nil.
func NewNodeSelectorTermMatcher(term NodeSelectorTerm) (*NodeSelectorTermMatcher, error) {
	return newNodeSelectorTermMatcher(&term, "")
}

func newNodeSelectorTermMatcher(term *NodeSelectorTerm, path string) (*NodeSelectorTermMatcher, error) {
	m := &NodeSelectorTermMatcher{}
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		m.never = true
		return m, nil
	}
	var errs []string
	if len(term.MatchExpressions) > 0 {
		sel, msgs := nodeLabelRequirements(term.MatchExpressions, joinPath(path, "matchExpressions"))
		errs = append(errs, msgs...)
		m.labels = sel
	}
	if len(term.MatchFields) > 0 {
		m.hasFld = true
		fp := joinPath(path, "matchFields")
		for i, f := range term.MatchFields {
			p := indexPath(fp, i)
			switch f.Operator {
			case NodeSelectorOpIn, NodeSelectorOpNotIn:
				if len(f.Values) != 1 {
					errs = append(errs, invalidMsg(p+".values", fmtValues(f.Values), "must have one element"))
					continue
				}
				m.fields = append(m.fields, nodeFieldRequirement{key: f.Key, value: f.Values[0], not: f.Operator == NodeSelectorOpNotIn})
			default:
				errs = append(errs, fmt.Sprintf("%s.operator: Unsupported value: %q: supported values: \"In\", \"NotIn\"", p, string(f.Operator)))
			}
		}
	}
	if len(errs) > 0 {
		m.labels, m.fields = nil, nil
		m.never = true
		m.err = nodeSelectorError(errs)
		return m, m.err
	}
	return m, nil
}

// Err returns why the term failed to compile, or nil (also for a nil
// matcher, which matches nothing).
func (m *NodeSelectorTermMatcher) Err() error {
	if m == nil {
		return nil
	}
	return m.err
}

// Match reports whether a node with this name and these labels satisfies
// the term. As in component-helpers, matchFields are only consulted when
// nodeName is non-empty: a node without a name passes them. A nil matcher
// matches no node.
func (m *NodeSelectorTermMatcher) Match(nodeName string, nodeLabels map[string]string) bool {
	if m == nil || m.never {
		return false
	}
	if m.labels != nil && !m.labels.Matches(Set(nodeLabels)) {
		return false
	}
	if m.hasFld && nodeName != "" {
		for _, f := range m.fields {
			var v string
			if f.key == NodeFieldName {
				v = nodeName
			}
			if (v == f.value) == f.not {
				return false
			}
		}
	}
	return true
}

// NodeSelectorMatcher is a compiled NodeSelector (required node affinity,
// as k8s.io/component-helpers nodeaffinity evaluates it): a node matches
// when any term matches. Safe for concurrent use.
type NodeSelectorMatcher struct {
	all   bool // nil NodeSelector: no constraint
	terms []*NodeSelectorTermMatcher
	errs  error
}

// NewNodeSelectorMatcher compiles a node selector.
//
// A nil selector places no constraint and matches every node (what
// nodeaffinity.GetRequiredNodeAffinity does when a pod has no required node
// affinity). A selector with no terms, or whose terms are all empty,
// matches no node.
//
// Invalid terms follow the scheduler's LazyErrorNodeSelector: each is kept
// as a term that never matches while the valid terms still work, and the
// problems of all invalid terms are returned joined in an error wrapping
// ErrInvalidNodeSelector (with paths such as
// "nodeSelectorTerms[1].matchExpressions[0].operator"). The matcher is
// returned even then; a caller wanting nodeaffinity.NewNodeSelector's strict
// behaviour treats the error as fatal, and MatchWithError reports the
// errors the way LazyErrorNodeSelector.Match does.
func NewNodeSelectorMatcher(ns *NodeSelector) (*NodeSelectorMatcher, error) {
	if ns == nil {
		return &NodeSelectorMatcher{all: true}, nil
	}
	m := &NodeSelectorMatcher{}
	var errs []error
	for i := range ns.NodeSelectorTerms {
		term := &ns.NodeSelectorTerms[i]
		if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
			continue // an empty term selects nothing
		}
		tm, err := newNodeSelectorTermMatcher(term, indexPath("nodeSelectorTerms", i))
		if err != nil {
			errs = append(errs, err)
		}
		m.terms = append(m.terms, tm)
	}
	m.errs = errors.Join(errs...)
	return m, m.errs
}

// Match reports whether a node with this name and these labels satisfies
// the selector: some valid term matches (or the selector was nil). A nil
// *NodeSelectorMatcher (as opposed to the matcher of a nil selector)
// matches no node.
func (m *NodeSelectorMatcher) Match(nodeName string, nodeLabels map[string]string) bool {
	ok, _ := m.MatchWithError(nodeName, nodeLabels)
	return ok
}

// MatchWithError is Match that also returns the compile errors of the
// invalid terms, but only when no term matched (the contract of
// nodeaffinity.LazyErrorNodeSelector.Match). A nil matcher matches no node
// and reports no error.
func (m *NodeSelectorMatcher) MatchWithError(nodeName string, nodeLabels map[string]string) (bool, error) {
	if m == nil {
		return false, nil
	}
	if m.all {
		return true, nil
	}
	var errs []error
	for _, t := range m.terms {
		if t.err != nil {
			errs = append(errs, t.err)
			continue
		}
		if t.Match(nodeName, nodeLabels) {
			return true, nil
		}
	}
	return false, errors.Join(errs...)
}
