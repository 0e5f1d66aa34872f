package form

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// How a field is presented, shared by every surface so that a question
// reads the same wherever it is asked: which option is recommended and
// offered first, the notes beside options, the progress report, and the
// suffixes AskUserQuestion-style hosts show and collect strips again.

// Label suffixes of the chat-tool surfaces (AskUserQuestion, Codex's
// request_user_input); their answer readers strip them again.
const (
	RecommendedSuffix  = " (Recommended)"
	userPositionSuffix = " (your approach)"
	// optionSuffix marks an option named "Other" (any case): the chat
	// hosts add a free-text "Other" of their own beside the options.
	optionSuffix = " (option)"
)

// Unsupported is a field a surface cannot ask: why, which surface can, and
// how to reach that surface.
type Unsupported struct {
	QuestionID string `json:"question_id"`
	Type       Type   `json:"type"`
	Reason     string `json:"reason"`
	Surface    string `json:"surface"`
	// How says how to reach Surface in the words of the door that rendered
	// (the CLI's commands, the MCP server's tools); the renderers leave it
	// empty.
	How string `json:"how,omitempty"`
}

// UnsupportedHere describes field f as one the current surface cannot ask,
// for the reason given, and names surface s as one that can.
func UnsupportedHere(f *Field, reason string, s Surface) Unsupported {
	return Unsupported{QuestionID: f.ID, Type: f.Type, Reason: reason, Surface: string(s)}
}

// Recommendation is the option to put first and mark as recommended: a
// construct's recommendation, or a single-choice field's default.
func (f *Field) Recommendation() string {
	if f.Recommended != "" {
		return f.Recommended
	}
	if s, ok := f.Default.(string); ok && f.Type != MultiSelect {
		return s
	}
	return ""
}

// Choices lists what a picker offers for f, recommendation first: the
// options, "Yes" and "No" for a boolean, and a text field's default before
// its suggestions.
func (f *Field) Choices() []string {
	opts := f.Options
	switch f.Type {
	case Boolean:
		opts = []string{"Yes", "No"}
	case TextInput:
		if d, ok := f.Default.(string); ok && !contains(opts, d) {
			opts = append([]string{d}, opts...)
		}
	}
	rec := f.Recommendation()
	if rec == "" || len(opts) == 0 || opts[0] == rec {
		return opts
	}
	out := make([]string, 0, len(opts))
	out = append(out, rec)
	for _, o := range opts {
		if o != rec {
			out = append(out, o)
		}
	}
	return out
}

// IsDefault reports whether option o is (part of) f's default.
func (f *Field) IsDefault(o string) bool {
	switch d := f.Default.(type) {
	case string:
		return d == o
	case []string:
		return contains(d, o)
	}
	return false
}

// OptionNote is what the form says beside option o: its option note (the
// trade-off), or for a progress report the matching item's detail.
func (f *Field) OptionNote(o string) string {
	note := f.OptionNotes[o]
	if note == "" && f.Type == Progress {
		for _, it := range f.ProgressItems {
			if it.Label == o {
				note = it.Detail
			}
		}
	}
	return note
}

// GuessNote is the mark beside an inferred default, "Guessed from <why>.",
// or "" when o is not a guessed default.
func (f *Field) GuessNote(o string) string {
	if f.Inferred() && f.IsDefault(o) {
		return "Guessed from " + f.InferredFrom + "."
	}
	return ""
}

// DefaultNote marks option o as part of a multi-select's default, "Part of
// the default answer.", for the chat tools, which preselect nothing (a
// single choice's default is its recommendation, first and badged; a
// guessed default has its GuessNote instead). "" for any other option.
func (f *Field) DefaultNote(o string) string {
	if f.Type == MultiSelect && !f.Inferred() && f.IsDefault(o) {
		return "Part of the default answer."
	}
	return ""
}

// Notes returns OptionNote, EndorsementNote and GuessNote joined with
// spaces, as one lookup for a renderer that describes every option: it
// indexes the progress items and the default once, where OptionNote and
// GuessNote scan them for each option (for many options, time growing with
// the square).
func (f *Field) Notes() func(o string) string {
	var details map[string]string
	if f.Type == Progress && len(f.ProgressItems) > 0 {
		details = make(map[string]string, len(f.ProgressItems))
		for _, it := range f.ProgressItems {
			details[it.Label] = it.Detail // the last wins, as in OptionNote
		}
	}
	var guessed map[string]bool
	if f.Inferred() {
		guessed = map[string]bool{}
		switch d := f.Default.(type) {
		case string:
			guessed[d] = true
		case []string:
			for _, o := range d {
				guessed[o] = true
			}
		}
	}
	guess := "Guessed from " + f.InferredFrom + "."
	return func(o string) string {
		note := f.OptionNotes[o]
		if note == "" {
			note = details[o]
		}
		parts := [3]string{note, f.EndorsementNote(o)}
		if guessed[o] {
			parts[2] = guess
		}
		return joinNonEmpty(parts[:])
	}
}

// Sentences joins notes, ending each but the last with a full stop when it
// has no closing punctuation ("Industry default. I'd push back: …").
func Sentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	for i := 0; i < len(out)-1; i++ {
		if !strings.ContainsAny(out[i][len(out[i])-1:], ".!?") {
			out[i] += "."
		}
	}
	return strings.Join(out, " ")
}

// joinNonEmpty joins the parts that are not empty with spaces.
func joinNonEmpty(parts []string) string {
	out := ""
	for _, p := range parts {
		switch {
		case p == "":
		case out == "":
			out = p
		default:
			out += " " + p
		}
	}
	return out
}

// ProgressReport is a progress field's items as one line: grouped as
// "done: …; in flight: …; blocked: …." for a task report, or each item
// with its tag for the neutral report style.
func (f *Field) ProgressReport() string {
	return strings.Join(f.ProgressLines(), "; ") + "."
}

// ProgressBuckets are the task-report statuses in the order they are shown,
// with their display names.
var ProgressBuckets = []struct{ Status, Name string }{
	{StatusDone, "done"}, {StatusInFlight, "in flight"}, {StatusBlocked, "blocked"},
}

// text is the item's label with its detail in parentheses.
func (it ProgressItem) text() string {
	if it.Detail == "" {
		return it.Label
	}
	return it.Label + " (" + it.Detail + ")"
}

// FormatValue renders an answer or default for people: a list joined with
// commas, a number in its shortest form.
func FormatValue(v any) string {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ", ")
	case float64:
		return fmtNum(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// Header derives a short chip label from a field id: words capitalized, at
// most max UTF-16 units (as the chat hosts count), cut at a word boundary
// where one exists.
func Header(id string, max int) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' || r == '.' || unicode.IsSpace(r) })
	if len(words) == 0 {
		return "Question"
	}
	out := ""
	for _, w := range words {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if UTF16Len(next) > max {
			break
		}
		out = next
	}
	if out == "" {
		out = cutUTF16(words[0], max)
	}
	r := []rune(out)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// UTF16Len is the length of s in UTF-16 code units, as JavaScript hosts
// count it.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func cutUTF16(s string, max int) string {
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > max {
			return s[:i]
		}
		n += utf16.RuneLen(r)
	}
	return s
}

// NotNow is the second choice the chat tools (AskUserQuestion, Codex's
// request_user_input) offer beside the only blocked item of a progress
// report, since they need at least two options. Choosing it is no answer:
// nothing is tackled now (collect reports it when the field is required).
const NotNow = "Not now"

// NeedsNotNow reports whether a chat tool asks f with the NotNow choice: a
// progress pick with a single blocked item.
func (f *Field) NeedsNotNow() bool { return f.Type == Progress && len(f.Options) == 1 }

// Groups splits n options into the fewest balanced groups of at most size,
// as the two-tier pickers of the chat tools show them; it returns the
// length of each group, longer groups first.
func Groups(n, size int) []int {
	g := (n + size - 1) / size
	out := make([]int, g)
	for k := range out {
		out[k] = n / g
		if k < n%g {
			out[k]++
		}
	}
	return out
}

// RangeText says a number field's bounds as a phrase to follow "a number":
// " from 1 to 40", " of at least 1", " of at most 40", or "".
func (f *Field) RangeText() string {
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		return " from " + fmtNum(*f.Minimum) + " to " + fmtNum(*f.Maximum)
	case f.Minimum != nil:
		return " of at least " + fmtNum(*f.Minimum)
	case f.Maximum != nil:
		return " of at most " + fmtNum(*f.Maximum)
	}
	return ""
}

// ProgressLines are a progress report one line each, for the text
// surfaces: a task report's buckets ("done: T1 model, T2 docs"), or in the
// report style each item with its tag ("Recall benchmarks [reference]").
func (f *Field) ProgressLines() []string {
	var out []string
	if f.Type != Progress {
		return nil
	}
	if f.ProgressStyle == "report" {
		for _, it := range f.ProgressItems {
			out = append(out, it.text()+" ["+it.Status+"]")
		}
		return out
	}
	for _, b := range ProgressBuckets {
		var items []string
		for _, it := range f.ProgressItems {
			if it.Status == b.Status {
				items = append(items, it.text())
			}
		}
		if len(items) > 0 {
			out = append(out, b.Name+": "+strings.Join(items, ", "))
		}
	}
	return out
}

// Fold folds what people get wrong when typing a name (an id, a label):
// case, white space, '-' and '_'.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsSpace(r) || r == '-' || r == '_' {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// NoAnswer reports whether an answer value counts as unanswered: null, a
// string of white space only, or an empty list.
func NoAnswer(v any) bool { return isNoAnswer(v) }
