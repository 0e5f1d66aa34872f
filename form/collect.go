package form

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// Response is a validated set of answers.
type Response struct {
	Success bool `json:"success"`
	// Responses maps field ids to values: a string (single choice, boolean,
	// text, date), a []string (multi_select) or a float64 (number).
	// Unanswered optional fields without a default are left out.
	Responses  map[string]any `json:"responses"`
	ResponseID string         `json:"response_id"`
	TemplateID string         `json:"template_id"`
	// FormID is the form's form_id, when it has one.
	FormID string `json:"form_id,omitempty"`
}

// CollectOptions configures Collect. A nil *CollectOptions means defaults.
type CollectOptions struct {
	// TemplateID is copied into the response, so answers to forms cast from
	// the same template can be joined.
	TemplateID string
	// Now gives the time for the response id; default time.Now.
	Now func() time.Time
	// Random supplies the response id's random part; default math/rand/v2's
	// generator (the id is a label that tells responses apart, not a secret).
	Random io.Reader
}

// Collect validates answers keyed by field id against the form. It reports
// every problem (unknown keys first, then each field in form order) and
// injects defaults for unanswered fields that have one. A form that breaks
// a definition rule (see Validate) is refused with its problems.
func Collect(f *Form, answers map[string]any, opts *CollectOptions) (*Response, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	return collect(f, answers, opts)
}

// CheckAnswer checks one answer to fl with Collect's rules and returns
// Collect's problems, or nil: what a surface that asks one question at a
// time says before the next. The field itself is not checked (it may be
// one row of a construct, keyed as flat surfaces key it).
func CheckAnswer(fl *Field, v any) error {
	_, err := collect(&Form{Fields: []Field{*fl}}, map[string]any{fl.ID: v}, nil)
	return err
}

func collect(f *Form, answers map[string]any, opts *CollectOptions) (*Response, error) {
	if opts == nil {
		opts = &CollectOptions{}
	}
	var probs report
	answers, bad := invalidUTF8Answers(answers, &probs)
	var folding problem.List
	answers, reported := foldDotted(f, answers, &folding)
	probs.addList(folding)
	unknownAnswers(f, answers, &probs)
	for k := range bad {
		if reported == nil {
			reported = map[string]bool{}
		}
		id, _, _ := strings.Cut(k, ".")
		reported[k], reported[id] = true, true
	}
	out := make(map[string]any, len(f.Fields))
	for i := range f.Fields {
		if !reported[f.Fields[i].ID] {
			collectField(&f.Fields[i], answers, out, &probs)
		}
	}
	if probs.count() > 0 {
		return nil, probs.problems()
	}
	return &Response{Success: true, Responses: out, ResponseID: responseID(opts), TemplateID: opts.TemplateID, FormID: f.FormID}, nil
}

// invalidUTF8Answers reports each answer whose key or text is not valid
// UTF-8, as a JSON document with such bytes is refused whole: written out,
// the bytes would become U+FFFD and the answer change. It returns the
// answers without those keys, and the keys.
func invalidUTF8Answers(answers map[string]any, probs *report) (map[string]any, map[string]bool) {
	var bad map[string]bool
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		v := answers[k]
		at, where := -1, "text"
		if !utf8.ValidString(k) {
			at, where = jsonnode.FirstInvalidUTF8([]byte(k)), "key"
		} else {
			at = firstInvalidUTF8In(v)
		}
		if at < 0 {
			continue
		}
		if bad == nil {
			bad = map[string]bool{}
		}
		bad[k] = true
		probs.add(keyPath("answers", k), "the %s is not valid UTF-8 (first bad byte at offset %d); give UTF-8 text", where, at)
	}
	if bad == nil {
		return answers, nil
	}
	kept := make(map[string]any, len(answers))
	for k, v := range answers {
		if !bad[k] {
			kept[k] = v
		}
	}
	return kept, bad
}

// firstInvalidUTF8In is the offset of the first byte that is not UTF-8 in
// the first string of v (an answer: a string, a list or map of them) that
// has one, or -1.
func firstInvalidUTF8In(v any) int {
	check := func(s string) int {
		if utf8.ValidString(s) {
			return -1
		}
		return jsonnode.FirstInvalidUTF8([]byte(s))
	}
	switch v := v.(type) {
	case string:
		return check(v)
	case []string:
		for _, s := range v {
			if at := check(s); at >= 0 {
				return at
			}
		}
	case []any:
		for _, e := range v {
			if at := firstInvalidUTF8In(e); at >= 0 {
				return at
			}
		}
	case map[string]string:
		for k, s := range v {
			if at := max(check(k), check(s)); at >= 0 {
				return at
			}
		}
	case map[string]any:
		for k, e := range v {
			if at := max(check(k), firstInvalidUTF8In(e)); at >= 0 {
				return at
			}
		}
	}
	return -1
}

// suggestBudget bounds the "did you mean" work for unknown answer keys:
// at most this many key-to-id comparisons in all, so that many unknown keys
// against many fields stay linear.
const suggestBudget = 20000

func unknownAnswers(f *Form, answers map[string]any, probs *report) {
	ids := make([]string, len(f.Fields))
	known := make(map[string]bool, len(f.Fields))
	for i := range f.Fields {
		ids[i] = f.Fields[i].ID
		known[ids[i]] = true
	}
	var unknown []string
	for k := range answers {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	budget := suggestBudget
	fields := quote(ids)
	for _, k := range unknown {
		if probs.full() {
			probs.more++ // skip the suggestion
			continue
		}
		if budget -= len(ids); budget >= 0 {
			if s := suggest(k, ids); s != "" {
				probs.add("answers."+k, "no field has this id (did you mean '%s'?)", s)
				continue
			}
		}
		probs.add("answers."+k, "no field has this id (fields: %s)", fields)
	}
}

func collectField(f *Field, answers map[string]any, out map[string]any, probs *report) {
	path := "answers." + f.ID
	raw, given := answers[f.ID]
	if f.DisplayOnly() {
		if given && !isNoAnswer(raw) {
			probs.add(path, "this progress report is display-only and takes no answer")
		}
		return
	}
	v, bad := checkAnswer(f, raw)
	switch {
	case len(bad) > 0:
		for _, b := range bad {
			probs.add(path+b.at, "%s", b.msg)
		}
	case v != nil:
		out[f.ID] = v
	case f.Default != nil:
		out[f.ID] = f.Default
	case f.Required:
		probs.add(path, "%s", f.Unanswered())
	}
}

// Unanswered is collect's message for a required field without a default
// left unanswered; surfaces that check answers before sending them (the
// widget) show the same words.
func (f *Field) Unanswered() string {
	return "required, but not answered (" + expected(f) + ")"
}

// expected says what a valid answer to f looks like.
func expected(f *Field) string {
	switch {
	case f.Type.SingleChoice():
		return "one of " + quoteSome(f.Options, ", ")
	case f.Type == MultiSelect:
		return "a list of one or more of " + quoteSome(f.Options, ", ")
	case f.Type == Boolean:
		return `"Yes" or "No"`
	case f.Type == Number:
		return "a number"
	case f.Type == Date:
		return "a date YYYY-MM-DD"
	case f.Type == Triage:
		return "a ruling for every row: {row key: one of " + quoteList(f.Dispositions, ", ") + "}"
	case f.Type == AssumptionReview:
		return `a ruling for every row: {row key: "accept", "reject" or {"edit": "text"}}`
	case f.Type == Ranking:
		return fmt.Sprintf("a list of %d of %s, best first", f.RankSlots(), quoteList(f.Options, ", "))
	case f.IsPath():
		return f.PathNoun()
	}
	return "some text"
}

func responseID(opts *CollectOptions) string {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	var b [4]byte
	if opts.Random != nil {
		_, _ = io.ReadFull(opts.Random, b[:])
	} else {
		binary.LittleEndian.PutUint32(b[:], rand.Uint32())
	}
	return "resp-" + now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
