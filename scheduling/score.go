package scheduling

import "fmt"

// String renders a node score with its breakdown.
func (s NodeScore) String() string {
	out := fmt.Sprintf("%s: %d", s.Node, s.Total)
	for i, p := range s.Plugins {
		if i == 0 {
			out += " ("
		} else {
			out += ", "
		}
		out += fmt.Sprintf("%s %d×%d", p.Plugin, p.Score, p.Weight)
		if i == len(s.Plugins)-1 {
			out += ")"
		}
	}
	return out
}
