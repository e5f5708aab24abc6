package downward

import (
	"strings"
	"unicode/utf8"
)

// Expand replaces the $(VAR) references in s the way the kubelet expands
// environment variable values, command and args
// (third_party/forked/golang/expansion):
//
//   - $(NAME) becomes resolve(NAME) when that reports ok, and stays
//     $(NAME) as written otherwise; NAME is everything up to the first
//     ")", so $(A$(B) names "A$(B" and $() names "";
//   - $$ becomes a single $, so $$(NAME) gives the literal $(NAME);
//   - $( with no closing ) stays as written, and scanning resumes right
//     after the "(" (so "$(x$$" gives "$(x$");
//   - $ followed by any other byte stays as written, and so does a $ at
//     the end of s.
//
// One upstream quirk is kept: the byte after a lone $ is copied as the
// rune of that byte value, so a $ directly before a multi-byte UTF-8
// character changes it ("$é" does not come back unchanged). Strings
// without a $ are returned as they are. resolve is called once per
// complete reference, left to right. A nil resolve resolves nothing:
// references stay as written ($$ still becomes $).
//
// The work is linear in len(s) plus the length of the result. The result
// is as long as s plus the values substituted, with no limit of its own:
// Environment, where values feed later references and can double with
// each redefinition, bounds the total (MaxExpandedEnvironmentBytes).
func Expand(s string, resolve func(name string) (value string, ok bool)) string {
	out, _ := expand(s, resolve, -1)
	return out
}

// expand is Expand that gives up, returning false, as soon as its output
// would pass limit bytes (a negative limit is none). It reads s once: the
// position of the next ")" is remembered, so a long run of "$(" without
// one costs no more than its length.
func expand(s string, resolve func(name string) (value string, ok bool), limit int) (string, bool) {
	i := strings.IndexByte(s, '$')
	if i < 0 || i == len(s)-1 {
		if limit >= 0 && len(s) > limit {
			return "", false
		}
		return s, true
	}
	if resolve == nil {
		resolve = func(string) (string, bool) { return "", false }
	}
	var b strings.Builder
	if limit < 0 || len(s) <= limit {
		b.Grow(len(s))
	}
	fits := func(n int) bool { return limit < 0 || b.Len()+n <= limit }
	last := 0
	closing := -1 // index of the next ')' at or after the last search start; len(s) when there is none
	for ; i < len(s)-1; i++ {
		if s[i] != '$' {
			continue
		}
		if !fits(i - last) {
			return "", false
		}
		b.WriteString(s[last:i])
		switch next := s[i+1]; next {
		case '$':
			if !fits(1) {
				return "", false
			}
			b.WriteByte('$')
			i++
		case '(':
			if closing < i+2 {
				closing = len(s)
				if end := strings.IndexByte(s[i+2:], ')'); end >= 0 {
					closing = i + 2 + end
				}
			}
			if closing == len(s) {
				if !fits(2) {
					return "", false
				}
				b.WriteString("$(")
				i++
				break
			}
			name := s[i+2 : closing]
			v, ok := resolve(name)
			if !ok {
				v = s[i : closing+1]
			}
			if !fits(len(v)) {
				return "", false
			}
			b.WriteString(v)
			i = closing
		default:
			if !fits(1 + utf8.RuneLen(rune(next))) {
				return "", false
			}
			b.WriteByte('$')
			b.WriteRune(rune(next))
			i++
		}
		last = i + 1
	}
	if last < len(s) {
		if !fits(len(s) - last) {
			return "", false
		}
		b.WriteString(s[last:])
	}
	return b.String(), true
}

// ExpandVars is Expand resolving names in vars, the first map holding a
// name winning (the kubelet's MappingFuncFor): the container's own
// variables first, then the service variables.
func ExpandVars(s string, vars ...map[string]string) string {
	return Expand(s, func(name string) (string, bool) {
		for _, m := range vars {
			if v, ok := m[name]; ok {
				return v, true
			}
		}
		return "", false
	})
}
