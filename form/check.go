package form

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// needsOptions are the types that need at least one option.
var needsOptions = []Type{SingleSelect, MultiSelect, Decision, Pushback, Deliberation, Ranking}

// checkType runs the rules that depend on the field's (valid) type.
func (d *decoder) checkType(s *fieldState) {
	if slices.Contains(needsOptions, s.Type) && len(s.Options) == 0 && !s.hadProblem("options") {
		least := 1
		if s.Type == Ranking {
			least = minRankOptions
		}
		d.add(s.path.key("options"), "type %s needs a list of %d or more options", s.Type, least)
	}
	isOption, options := memberOf(s.Options), quote(s.Options)
	d.checkMembership(s, isOption, "recommended", s.Recommended)
	d.checkMembership(s, isOption, "user_position", s.UserPosition)
	if s.Recommended != "" && s.Recommended == s.UserPosition {
		d.add(s.path.key("recommended"), "is the user's own position %q (a pushback recommends an alternative)", s.Recommended)
	}
	for _, opt := range sortedKeys(s.OptionNotes) {
		if !isOption(opt) {
			d.add(s.path.key("option_notes").key(opt), "%q is not one of the options (%s)", opt, options)
		}
	}
	if s.Minimum != nil && s.Maximum != nil && *s.Minimum > *s.Maximum {
		d.add(s.path, "minimum %s is greater than maximum %s", fmtNum(*s.Minimum), fmtNum(*s.Maximum))
	}
	if s.Type == Progress {
		d.checkProgress(s)
	}
	d.checkPathField(s)
	d.checkConstruct(s)
	d.checkDefault(s)
}

func (d *decoder) checkMembership(s *fieldState, isOption func(string) bool, key, value string) {
	if value != "" && len(s.Options) > 0 && !isOption(value) {
		d.add(s.path.key(key), "%q is not one of the options (%s)", value, quoteSome(s.Options, ", "))
	}
}

// checkProgress enforces the progress construct's rules.
func (d *decoder) checkProgress(s *fieldState) {
	if !s.has("progress_items") {
		d.add(s.path.key("progress_items"), "missing (a progress field reports a list of {label, status, detail?} items)")
	}
	report := s.ProgressStyle == "report"
	labels := make([]string, 0, len(s.ProgressItems))
	var blocked []string
	for i, it := range s.ProgressItems {
		labels = append(labels, it.Label)
		switch {
		case report:
		case it.Status == StatusBlocked:
			blocked = append(blocked, it.Label)
		case it.Status != StatusDone && it.Status != StatusInFlight && it.Status != "":
			d.add(s.path.key("progress_items").at(i).key("status"),
				"%q is not a task status (one of \"done\", \"in_flight\", \"blocked\"; or set progress_style \"report\" for free tags)", it.Status)
		}
	}
	if report {
		if extra := missingFrom(s.Options, labels); len(extra) > 0 {
			d.add(s.path.key("options"), "in report style options must be item labels; not items: %s", quoteList(extra, ", "))
		}
	} else if s.has("progress_items") {
		d.checkBlocked(s, blocked)
	}
	if len(s.Options) == 0 {
		if s.requiredSet && s.Required {
			d.add(s.path.key("required"), "a progress field with no options is display-only and cannot be required (set \"required\": false)")
		}
		s.Required = false
	}
}

func (d *decoder) checkBlocked(s *fieldState, blocked []string) {
	notOptions := missingFrom(blocked, s.Options)
	notBlocked := missingFrom(s.Options, blocked)
	if len(notOptions) == 0 && len(notBlocked) == 0 {
		return
	}
	var parts []string
	if len(notOptions) > 0 {
		parts = append(parts, "blocked but not options: "+quoteList(notOptions, ", "))
	}
	if len(notBlocked) > 0 {
		parts = append(parts, "options but not blocked items: "+quoteList(notBlocked, ", "))
	}
	d.add(s.path.key("options"), "must equal the labels of the blocked items (%s)", strings.Join(parts, "; "))
}

// missingFrom lists the items of a that are not in b.
func missingFrom(a, b []string) []string {
	var out []string
	inB := memberOf(b)
	for _, x := range a {
		if !inB(x) {
			out = append(out, x)
		}
	}
	return out
}

// smallList is the length up to which a linear search beats building a
// set.
const smallList = 16

// memberOf returns a test for membership of list, in constant time per call
// when the list is long.
func memberOf(list []string) func(string) bool {
	if len(list) <= smallList {
		return func(s string) bool { return contains(list, s) }
	}
	set := make(map[string]struct{}, len(list))
	for _, x := range list {
		set[x] = struct{}{}
	}
	return func(s string) bool {
		_, ok := set[s]
		return ok
	}
}

// checkDefault runs the default through the field's own answer validation.
func (d *decoder) checkDefault(s *fieldState) {
	if s.defaultNode == nil {
		return
	}
	path := s.path.key("default")
	if s.DisplayOnly() {
		d.add(path, "a display-only progress field takes no default")
		return
	}
	v, bad := checkAnswer(&s.Field, jsonValue(s.defaultNode))
	switch {
	case len(bad) > 0:
		for _, b := range bad {
			d.probs.add(d.path(path)+b.at, "%s", b.msg)
		}
	case v == nil:
		d.add(path, "is empty (give a value or remove the default)")
	default:
		if text, ok := v.(string); ok {
			d.checkText(path, text) // shown as the value a person keeps
		}
		s.Default = v
	}
}

// checkInference enforces that a guess names its value.
func (d *decoder) checkInference(s *fieldState) {
	if s.has("inferred_from") && s.defaultNode == nil {
		d.add(s.path.key("inferred_from"), "needs a default (the inferred value itself)")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fmtNum writes a number as people write it: 20260101, not 2.0260101e+07;
// exponents only for the very large or very small, as JavaScript writes
// numbers (the widget's own messages agree).
func fmtNum(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64) // 1e-07: JavaScript writes 1e-7
	if i := strings.IndexByte(s, 'e'); i >= 0 && len(s) > i+3 && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return s
}
