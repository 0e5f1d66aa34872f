package form

import (
	"fmt"
	"strings"
)

// typedRanking reads a typed ranking, best first: options by number or
// name, separated by commas, semicolons or ">" ("2, 1, 3", "Reliability >
// Performance"). Collect checks the length and repeats.
func (f *Field) typedRanking(s string) (any, string) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '>' })
	order := make([]string, 0, len(parts))
	var bad []string
	l := newLabels(f.Options)
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		o, msg := f.pickOne(l, part)
		switch {
		case msg != "":
			bad = append(bad, msg)
		case o == "":
			bad = append(bad, fmt.Sprintf("%q is not one of the options", part))
		default:
			order = append(order, o)
		}
	}
	if len(bad) > 0 {
		return nil, joinSome(bad) + " (options: " + optionList(f.Options) + ")"
	}
	if len(order) == 0 {
		return nil, ""
	}
	return order, ""
}
