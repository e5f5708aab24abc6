package downward

import "strings"

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
func Expand(s string, resolve func(name string) (value string, ok bool)) string {
	i := strings.IndexByte(s, '$')
	if i < 0 || i == len(s)-1 {
		return s
	}
	if resolve == nil {
		resolve = func(string) (string, bool) { return "", false }
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for ; i < len(s)-1; i++ {
		if s[i] != '$' {
			continue
		}
		b.WriteString(s[last:i])
		switch next := s[i+1]; next {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString("$(")
				i++
				break
			}
			name := s[i+2 : i+2+end]
			if v, ok := resolve(name); ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(")
				b.WriteString(name)
				b.WriteByte(')')
			}
			i += 2 + end
		default:
			b.WriteByte('$')
			b.WriteRune(rune(next))
			i++
		}
		last = i + 1
	}
	if last < len(s) {
		b.WriteString(s[last:])
	}
	return b.String()
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
