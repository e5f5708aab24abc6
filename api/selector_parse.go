package api

import (
	"fmt"
	"slices"
	"strings"
)

// This file implements the selector-string syntax of apimachinery's
// pkg/labels.Parse. The grammar, the tokenisation quirks and the accepted
// inputs follow upstream; the error texts carry upstream's "found ...,
// expected ..." wording plus the byte offset of the offending token.

type tokenKind uint8

const (
	tokEnd tokenKind = iota
	tokIdent
	tokOpen     // (
	tokClose    // )
	tokComma    // ,
	tokBang     // !
	tokEq       // =
	tokDoubleEq // ==
	tokNotEq    // !=
	tokGt       // >
	tokLt       // <
	tokIn       // in
	tokNotIn    // notin
)

type token struct {
	kind tokenKind
	lit  string
	pos  int
}

func (t token) describe() string {
	if t.kind == tokEnd {
		return "end of string"
	}
	return "'" + t.lit + "'"
}

func isSelectorSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSelectorSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// lexSelector splits s into tokens, ending with one tokEnd. Like upstream's
// lexer, a NUL byte ends the input when a token would start there, and
// otherwise ends the token before it and is skipped.
func lexSelector(s string) []token {
	var toks []token
	pos := 0
	for {
		for pos < len(s) && isSelectorSpace(s[pos]) {
			pos++
		}
		start := pos
		if pos >= len(s) || s[pos] == 0 {
			return append(toks, token{kind: tokEnd, pos: start})
		}
		c := s[pos]
		var t token
		if isSelectorSymbol(c) {
			pos++
			switch {
			case c == '=' && pos < len(s) && s[pos] == '=':
				pos++
				t.kind = tokDoubleEq
			case c == '!' && pos < len(s) && s[pos] == '=':
				pos++
				t.kind = tokNotEq
			case c == '=':
				t.kind = tokEq
			case c == '!':
				t.kind = tokBang
			case c == '(':
				t.kind = tokOpen
			case c == ')':
				t.kind = tokClose
			case c == ',':
				t.kind = tokComma
			case c == '>':
				t.kind = tokGt
			default:
				t.kind = tokLt
			}
		} else {
			for pos < len(s) && s[pos] != 0 && !isSelectorSymbol(s[pos]) && !isSelectorSpace(s[pos]) {
				pos++
			}
			t.kind = tokIdent
			switch s[start:pos] {
			case "in":
				t.kind = tokIn
			case "notin":
				t.kind = tokNotIn
			}
		}
		t.lit, t.pos = s[start:pos], start
		if pos < len(s) && s[pos] == 0 {
			pos++ // upstream's reader swallows the NUL that ended a token
		}
		toks = append(toks, t)
	}
}

// selectorParser walks the tokens of one selector string.
type selectorParser struct {
	input string
	toks  []token
	i     int
}

// peek returns the next token. In value position (asValue) the keywords in
// and notin are plain identifiers, as upstream's Values context makes them.
func (p *selectorParser) peek(asValue bool) token {
	t := p.toks[p.i]
	if asValue && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *selectorParser) next(asValue bool) token {
	t := p.peek(asValue)
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *selectorParser) fail(t token, format string, args ...any) error {
	return fmt.Errorf("%w: %q: position %d: %s", ErrInvalidSelector, p.input, t.pos, fmt.Sprintf(format, args...))
}

func (p *selectorParser) expected(t token, what string) error {
	return p.fail(t, "found %s, expected: %s", t.describe(), what)
}

// ParseSelector parses the selector-string syntax of apimachinery's
// pkg/labels.Parse:
//
//	selector    = [ requirement { "," requirement } ]
//	requirement = [ "!" ] KEY
//	            | KEY ( "=" | "==" | "!=" | ">" | "<" ) [ VALUE ]
//	            | KEY ( "in" | "notin" ) "(" [ VALUE { "," [ VALUE ] } ] ")"
//
// Blanks (space, tab, CR, LF) may separate tokens; the empty string selects
// everything. A bare KEY means the key exists and "!KEY" that it does not.
// A missing VALUE is the empty value: "x=" requires x to be "", "x in ()"
// has the single value "", and empty entries in a list add "". The words in and notin are keywords after a key but ordinary values
// elsewhere. ">" and "<" need a base-10 integer value. Keys must be
// qualified names and values valid label values (see NewRequirement); list
// values are de-duplicated and sorted, and requirements are sorted by key.
// Errors wrap ErrInvalidSelector and give the offending token and its byte
// offset.
func ParseSelector(s string) (Selector, error) {
	reqs, err := ParseToRequirements(s)
	if err != nil {
		return nil, err
	}
	return requirementsSelector(reqs), nil
}

// ParseToRequirements parses a selector string like ParseSelector and
// returns its requirements, sorted by key (pkg/labels.ParseToRequirements).
func ParseToRequirements(s string) ([]Requirement, error) {
	p := &selectorParser{input: s, toks: lexSelector(s)}
	var reqs []Requirement
	for {
		t := p.peek(true)
		switch t.kind {
		case tokIdent, tokBang:
			r, err := p.requirement()
			if err != nil {
				return nil, err
			}
			reqs = append(reqs, r)
			after := p.next(true)
			switch after.kind {
			case tokEnd:
				sortByKey(reqs)
				return reqs, nil
			case tokComma:
				if n := p.peek(true); n.kind != tokIdent && n.kind != tokBang {
					return nil, p.expected(n, "identifier after ','")
				}
			default:
				return nil, p.expected(after, "',' or 'end of string'")
			}
		case tokEnd:
			sortByKey(reqs)
			return reqs, nil
		default:
			return nil, p.expected(t, "!, identifier, or 'end of string'")
		}
	}
}

func (p *selectorParser) requirement() (Requirement, error) {
	var op SelectionOperator
	t := p.next(true)
	if t.kind == tokBang {
		op = SelectionDoesNotExist
		t = p.next(true)
	}
	if t.kind != tokIdent {
		return Requirement{}, p.expected(t, "identifier")
	}
	keyTok := t
	if msgs := IsQualifiedName(keyTok.lit); len(msgs) > 0 {
		return Requirement{}, p.fail(keyTok, "invalid label key %q: %s", keyTok.lit, strings.Join(msgs, "; "))
	}
	if n := p.peek(true); (n.kind == tokEnd || n.kind == tokComma) && op == "" {
		op = SelectionExists
	}
	var vals []string
	if op == "" {
		opTok := p.next(false)
		switch opTok.kind {
		case tokIn:
			op = SelectionIn
		case tokNotIn:
			op = SelectionNotIn
		case tokEq:
			op = SelectionEquals
		case tokDoubleEq:
			op = SelectionDoubleEquals
		case tokNotEq:
			op = SelectionNotEquals
		case tokGt:
			op = SelectionGreaterThan
		case tokLt:
			op = SelectionLessThan
		default:
			return Requirement{}, p.expected(opTok, "in, notin, =, ==, !=, gt, lt")
		}
		var err error
		if op == SelectionIn || op == SelectionNotIn {
			vals, err = p.valueSet()
		} else {
			vals, err = p.exactValue()
		}
		if err != nil {
			return Requirement{}, err
		}
	}
	r, msgs := newRequirement(keyTok.lit, op, vals, "")
	if len(msgs) > 0 {
		return Requirement{}, p.fail(keyTok, "requirement on %q: %s", keyTok.lit, strings.Join(msgs, "; "))
	}
	return r, nil
}

// exactValue reads the one value after =, ==, !=, > or <; nothing there
// means the empty value.
func (p *selectorParser) exactValue() ([]string, error) {
	if n := p.peek(true); n.kind == tokEnd || n.kind == tokComma {
		return []string{""}, nil
	}
	t := p.next(true)
	if t.kind != tokIdent {
		return nil, p.expected(t, "identifier")
	}
	return []string{t.lit}, nil
}

// valueSet reads "(" list ")" after in or notin and returns the distinct
// values, sorted.
func (p *selectorParser) valueSet() ([]string, error) {
	if t := p.next(true); t.kind != tokOpen {
		return nil, p.expected(t, "'('")
	}
	var vals []string
	switch n := p.peek(true); n.kind {
	case tokClose:
		p.next(true)
		return []string{""}, nil
	case tokIdent, tokComma:
	default:
		return nil, p.expected(n, "',', ')' or identifier")
	}
	for done := false; !done; {
		t := p.next(true)
		switch t.kind {
		case tokIdent:
			vals = append(vals, t.lit)
			switch n := p.peek(true); n.kind {
			case tokComma:
			case tokClose:
				done = true
			default:
				return nil, p.expected(n, "',' or ')'")
			}
		case tokComma:
			// A comma with nothing before it, after it, or between it and
			// the next comma stands for the empty value.
			if len(vals) == 0 {
				vals = append(vals, "")
			}
			switch p.peek(true).kind {
			case tokClose:
				vals = append(vals, "")
				done = true
			case tokComma:
				vals = append(vals, "")
			}
		default:
			return nil, p.expected(t, "',', or identifier")
		}
	}
	p.next(true) // the ')' seen by peek
	slices.Sort(vals)
	return slices.Compact(vals), nil
}
