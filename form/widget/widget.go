package widget

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
)

// Result is a rendered widget: what elicitation_render_widget and
// `elicit form render --surface widget` return.
type Result struct {
	Success bool   `json:"success"`
	Title   string `json:"title"`
	// FieldIDs lists every field's id in form order.
	FieldIDs []string `json:"field_ids"`
	// HTML is the self-contained fragment to show.
	HTML string `json:"html"`
	// Problems, for a form that breaks a definition rule (see
	// form.Validate), name every problem; Success is then false and HTML is
	// only a notice naming them.
	Problems []string `json:"problems,omitempty"`
}

// Options configures Render. A nil *Options means the chat widget.
type Options struct {
	// Cancel adds a Cancel button, which fires an elicit-cancel event on
	// the form (the local page turns it into "no answer").
	Cancel bool
}

// Render renders a validated form as one self-contained HTML fragment: a
// <form> with its own <style> and <script>, no external requests. On
// submit the script checks the answers as collect would and posts them
// back through the host's sendPrompt as a fenced __elicitation_response__
// JSON block (see Postback), unless a page that embeds the fragment
// handles the elicit-submit event itself.
//
// A form that breaks a definition rule is not rendered: Success is false, Problems names every problem and HTML is a
// notice that says so, never a panic.
func Render(f *form.Form, opts *Options) *Result {
	if opts == nil {
		opts = &Options{}
	}
	if err := f.Check(); err != nil {
		return failed(form.ProblemStrings(err))
	}
	out, err := render(f, opts)
	if err != nil { // Check lets through only the types widget.tmpl has blocks for
		return failed([]string{err.Error()})
	}
	ids := make([]string, len(f.Fields))
	for i := range f.Fields {
		ids[i] = f.Fields[i].ID
	}
	return &Result{Success: true, Title: f.Title, FieldIDs: ids, HTML: out}
}

// failed is the Result for a form that cannot be shown: a notice naming
// its problems.
func failed(probs []string) *Result {
	var b strings.Builder
	b.WriteString(`<div class="elicit-error" role="alert"><p>This form cannot be shown: it breaks these rules.</p><ul>`)
	for _, p := range probs {
		b.WriteString("<li>" + html.EscapeString(p) + "</li>")
	}
	b.WriteString("</ul></div>")
	return &Result{FieldIDs: []string{}, HTML: b.String(), Problems: probs}
}

// FormID identifies a form by its content: 16 hex digits of the SHA-256 of
// its canonical JSON. The widget's postback carries it, so collect can
// refuse answers meant for another form.
func FormID(f *form.Form) string {
	data, err := json.Marshal(f)
	if err != nil { // a Form holds only strings, numbers, lists and maps
		panic(fmt.Sprintf("widget: form not encodable: %v", err))
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// page is what the "head" and "foot" blocks show.
type page struct {
	ID, FormID, Title, Description, Submit string
	AllGuessed, Cancel                     bool
	// CSS and JS are the package's own styles and script, which the
	// template writes as they are.
	CSS template.CSS
	JS  template.JS
}

func newPage(f *form.Form, opts *Options) *page {
	a := assets()
	fid := FormID(f)
	p := &page{ID: "e" + fid[:4], FormID: fid, Title: f.Title, Description: f.Description,
		Submit: "Submit", AllGuessed: f.AllGuessed(), Cancel: opts.Cancel}
	n := needsOf(f)
	p.JS, p.CSS = template.JS(a.js(n)), template.CSS(a.css(n))
	if p.AllGuessed {
		p.Submit = "Confirm"
	}
	return p
}

// render runs the template's "head", the block named after each field's
// type and "foot". A type without a block is an error, never a panic.
func render(f *form.Form, opts *Options) (string, error) {
	tmpl := assets().tmpl
	p := newPage(f, opts)
	var b strings.Builder
	b.Grow(4096)
	if err := tmpl.ExecuteTemplate(&b, "head", p); err != nil {
		return "", fmt.Errorf("render the widget's head: %w", err)
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		if tmpl.Lookup(block(fl)) == nil {
			return "", fmt.Errorf("the widget has no block for field type %q", fl.Type)
		}
		if err := tmpl.ExecuteTemplate(&b, block(fl), view(fl, p.ID+strconv.Itoa(i))); err != nil {
			return "", fmt.Errorf("render field %q: %w", fl.ID, err)
		}
	}
	if err := tmpl.ExecuteTemplate(&b, "foot", p); err != nil {
		return "", fmt.Errorf("render the widget's foot: %w", err)
	}
	return b.String(), nil
}

// fieldView is what a field's block shows.
type fieldView struct {
	ID, Text string
	// P prefixes the ids of the field's elements.
	P string
	// Mode is how the script reads a choice group: "r" one radio, "m"
	// checkboxes.
	Mode string
	// Req is what the field left unanswered says (need), when collect
	// would refuse that.
	Req string
	// Hint is a short note after the question: "optional", a number's
	// range, a text's length cap.
	Hint, Help, Guess string
	// Desc lists the ids that describe the control (aria-describedby).
	Desc      string
	ListStyle string
	Choices   []choice
	// Value is a text, number or date default.
	Value              string
	Min, Max           string
	MaxLength          int
	Rationale, WhyHead string
	Buckets            []bucket
	PickHead           string
	// Consequences are a confirm's, as items (Tag: the severity).
	Consequences []item
	// Rows are a triage board's or an assumption review's; Edit says each
	// row has a corrected-text box.
	Rows []row
	Edit bool
	// Slots are a ranking's; SlotsWhy says why there are that many (as
	// collect says it); Notes says an option has a note to list.
	Slots    []slot
	SlotsWhy string
	Notes    bool
	// PathKind and Paths are a path field's kind and suggested paths.
	PathKind string
	Paths    []string
}

// row is one row of rulings.
type row struct {
	Key, Label, Tag, Detail string
	Choices                 []choice
}

// slot is one rank of a ranking.
type slot struct {
	Label   string
	Choices []choice
}

// choice is one radio, checkbox or option.
type choice struct {
	Value, Label, Kind, Name, Note, Tag string
	Badges                              []string
	Checked, Card                       bool
}

// bucket is a group of reported progress items.
type bucket struct {
	Name  string
	Items []item
}

type item struct {
	Label, Tag, Detail string
	Done               bool
}

func view(f *form.Field, p string) *fieldView {
	v := &fieldView{ID: f.ID, Text: f.Text, P: p, Help: f.HelpText, ListStyle: f.ListStyle, MaxLength: f.MaxLength, Rationale: f.Rationale}
	if f.Required && f.Default == nil && !f.DisplayOnly() {
		v.Req = need(f)
	}
	if f.Inferred() {
		v.Guess = "Guessed from " + f.InferredFrom + "."
	}
	var hints []string
	if !f.Required && !f.DisplayOnly() {
		hints = append(hints, "optional")
	}
	switch f.Type {
	case form.Number:
		v.Min, v.Max = bound(f.Minimum), bound(f.Maximum)
		if h := numberHint(v.Min, v.Max); h != "" {
			hints = append(hints, h)
		}
	case form.TextInput, form.Textarea:
		if f.MaxLength > 0 {
			hints = append(hints, fmt.Sprintf("up to %d characters", f.MaxLength))
		}
	}
	v.Hint = strings.Join(hints, ", ")
	if s, ok := f.Default.(string); ok && !f.Type.SingleChoice() && f.Type != form.Boolean {
		v.Value = s
	} else if n, ok := f.Default.(float64); ok {
		v.Value = form.FormatValue(n)
	}
	v.choices(f)
	switch f.Type {
	case form.Progress:
		v.progress(f)
	case form.Confirm:
		for _, c := range f.Consequences {
			v.Consequences = append(v.Consequences, item{Label: c.Label, Tag: c.Severity, Detail: c.Detail})
		}
	case form.Triage, form.AssumptionReview:
		v.rows(f)
	case form.Ranking:
		v.slots(f)
	}
	if f.IsPath() {
		v.path(f)
	}
	v.Desc = describedBy(v)
	return v
}

func bound(b *float64) string {
	if b == nil {
		return ""
	}
	return form.FormatValue(*b)
}

func numberHint(lo, hi string) string {
	switch {
	case lo != "" && hi != "":
		return lo + " to " + hi
	case lo != "":
		return "at least " + lo
	case hi != "":
		return "at most " + hi
	}
	return ""
}

func describedBy(v *fieldView) string {
	ids := []string{v.P + "x"}
	if v.Guess != "" {
		ids = append(ids, v.P+"g")
	}
	if v.Help != "" {
		ids = append(ids, v.P+"h")
	}
	return strings.Join(ids, " ")
}

// choices fills the options of every type that offers some, the
// recommendation first, with their badges and notes.
func (v *fieldView) choices(f *form.Field) {
	kind, card := "radio", false
	switch f.Type {
	case form.MultiSelect:
		kind, v.Mode = "checkbox", "m"
	case form.Decision, form.Pushback, form.Progress, form.Deliberation, form.Confirm:
		card, v.Mode = true, "r"
	case form.Boolean, form.SingleSelect:
		v.Mode = "r"
	case form.Ranking:
		kind, v.Mode = "", "k" // listed with their notes; the slots choose
	case form.TextInput:
		for _, o := range f.Options {
			v.Choices = append(v.Choices, choice{Value: o})
		}
		return
	default:
		return
	}
	if f.DisplayOnly() {
		v.WhyHead = "Summary"
		return
	}
	switch f.Type {
	case form.Decision:
		v.WhyHead = "Why"
	case form.Pushback:
		v.WhyHead = "Why I'd push back"
	case form.Progress:
		v.WhyHead = "Summary"
	case form.Deliberation:
		v.WhyHead = "Synthesis"
	case form.Confirm:
		v.WhyHead = "Why"
	}
	for _, o := range f.Choices() {
		c := choice{Value: o, Label: o, Kind: kind, Name: v.P, Card: card, Checked: f.IsDefault(o), Note: note(f, o)}
		c.Badges = badges(f, o)
		v.Choices = append(v.Choices, c)
	}
	if kind == "radio" && !f.Required && (f.Type != form.SingleSelect || f.ListStyle != "") {
		// A radio cannot be unchecked: an optional group offers "no answer".
		v.Choices = append(v.Choices, choice{Label: "No answer", Kind: kind, Name: v.P})
	}
}

// badges are the marks beside option o.
func badges(f *form.Field, o string) []string {
	var out []string
	if o == f.UserPosition {
		out = append(out, "your approach")
	}
	if o == f.Recommended {
		switch f.Type {
		case form.Pushback:
			out = append(out, "I'd suggest instead")
		case form.Progress:
			out = append(out, "suggested next")
		case form.Deliberation:
			out = append(out, "Synthesis pick")
		default:
			out = append(out, "Recommended")
		}
	}
	return out
}

// progress fills the report's buckets and the picker's heading.
func (v *fieldView) progress(f *form.Field) {
	offered := map[string]bool{}
	for _, o := range f.Options {
		offered[o] = true
	}
	if f.ProgressStyle == "report" {
		v.PickHead = "Pick one to go deeper"
		var rows []item
		for _, it := range f.ProgressItems {
			if !offered[it.Label] {
				rows = append(rows, item{Label: it.Label, Tag: it.Status, Detail: it.Detail})
			}
		}
		if len(rows) > 0 {
			v.Buckets = []bucket{{Name: "Reported", Items: rows}}
		}
		for i := range v.Choices {
			for _, it := range f.ProgressItems {
				if it.Label == v.Choices[i].Value {
					v.Choices[i].Tag = it.Status
				}
			}
		}
		return
	}
	v.PickHead = "Blocked: which one next?"
	for _, s := range form.ProgressBuckets {
		if s.Status == form.StatusBlocked {
			continue
		}
		var items []item
		for _, it := range f.ProgressItems {
			if it.Status == s.Status {
				items = append(items, item{Label: it.Label, Detail: it.Detail, Done: s.Status == form.StatusDone})
			}
		}
		if len(items) > 0 {
			v.Buckets = append(v.Buckets, bucket{Name: upperFirst(s.Name), Items: items})
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// note is what a card says under option o: its note, and for a
// deliberation the voices that endorse it.
func note(f *form.Field, o string) string {
	n := f.OptionNote(o)
	if e := f.EndorsementNote(o); e != "" {
		n = strings.TrimSpace(n + " " + e)
	}
	return n
}

// rows fills a triage board's or an assumption review's rows: the
// rulings as radios, the default (or else the suggestion) checked, the
// suggestion badged.
func (v *fieldView) rows(f *form.Field) {
	v.Mode, v.WhyHead = "g", "Why"
	rulings := f.Rulings()
	v.Edit = f.Type == form.AssumptionReview
	defaults, _ := f.Default.(map[string]string)
	for i, it := range f.Items() {
		r := row{Key: it.Key(), Label: it.Label, Tag: it.Tag, Detail: it.Detail}
		if it.Source != "" {
			r.Detail = strings.TrimSpace(r.Detail + " (from " + it.Source + ")")
		}
		name := v.P + "-" + strconv.Itoa(i)
		pick := defaults[r.Key]
		if pick == "" {
			pick = f.SuggestedRuling(r.Key)
		}
		for _, d := range rulings {
			c := choice{Value: d, Label: d, Kind: "radio", Name: name, Checked: d == pick}
			if f.Type == form.AssumptionReview {
				c.Label = upperFirst(d)
			}
			if d == f.SuggestedRuling(r.Key) {
				c.Badges = []string{"suggested"}
			}
			r.Choices = append(r.Choices, c)
		}
		if !f.Required {
			r.Choices = append(r.Choices, choice{Label: "No ruling", Kind: "radio", Name: name})
		}
		v.Rows = append(v.Rows, r)
	}
}

// slots fills a ranking's rank slots, the suggested order preselected.
func (v *fieldView) slots(f *form.Field) {
	v.Mode, v.WhyHead = "k", "Why"
	v.SlotsWhy = "every option"
	if f.TopN > 0 {
		v.SlotsWhy = "top_n"
	}
	for _, c := range v.Choices {
		v.Notes = v.Notes || c.Note != ""
	}
	for k := 1; k <= f.RankSlots(); k++ {
		s := slot{Label: upperFirst(f.RankLabel(k))}
		for _, o := range f.Options {
			s.Choices = append(s.Choices, choice{Value: o, Label: o, Checked: f.SuggestedAt(k) == o})
		}
		v.Slots = append(v.Slots, s)
	}
	if len(f.Suggested.Order) > 0 {
		v.Hint = strings.TrimPrefix(v.Hint+", suggested order filled in", ", ")
	}
}
