package widget

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget/internal/htmlesc"
)

// The widget's HTML, written by hand: one function per block of the
// former widget template (testdata/widget.tmpl, which the tests still run
// with html/template and compare with these byte for byte). html/template
// cost every CLI call its package initialisation; these functions cost
// nothing until a widget is rendered. Every value goes through the helper
// for its context (text, attr, rcdata, unquoted, jsValue), each matching
// the html/template escaper named in its comment; the CSS and the script
// are the package's own and go in as they are.

// writer collects a fragment. add writes its parts as they are: the
// caller escapes every value for its context.
type writer struct{ strings.Builder }

func (w *writer) add(parts ...string) {
	for _, p := range parts {
		w.WriteString(p)
	}
}

// head opens the form: its styles, title, description and, when every
// answer is a guess, the note that says so.
func head(w *writer, p *page) {
	w.add(`<form class=el id="`, attr(p.ID), `" data-form="`, attr(p.FormID), `" data-title="`, attr(p.Title),
		`" aria-labelledby="`, attr(p.ID), `-t" novalidate><style>`, p.CSS, "</style>\n",
		`<h2 id="`, attr(p.ID), `-t">`, text(p.Title), "</h2>\n")
	if p.Description != "" {
		w.add(`<p class=ds>`, text(p.Description), "</p>\n")
	}
	if p.AllGuessed {
		w.add("<p class=b>Every answer below is a guess from context: check them, then confirm.</p>\n")
	}
}

// foot closes the form: status line, buttons and the script, called with
// the form element.
func foot(w *writer, p *page) {
	w.add(`<p class=st role=status></p><button type=submit>`, text(p.Submit), `</button>`)
	if p.Cancel {
		w.add(`<button type=button class=cn>Cancel</button>`)
	}
	w.add("\n<script>", p.JS, `(document.getElementById(`, jsValue(p.ID), "))</script></form>\n")
}

// field writes the block of a field of type typ. The blocks that were
// only {{template "choices" .}} or {{template "rows" .}} are those.
func field(w *writer, typ form.Type, v *fieldView) error {
	switch typ {
	case form.MultiSelect, form.Boolean, form.Decision, form.Pushback, form.Deliberation:
		choices(w, v)
	case form.SingleSelect:
		singleSelect(w, v)
	case form.TextInput:
		textInput(w, v)
	case form.Textarea:
		textarea(w, v)
	case form.Number:
		number(w, v)
	case form.Date:
		date(w, v)
	case form.Progress:
		progress(w, v)
	case form.Confirm:
		confirm(w, v)
	case form.Triage, form.AssumptionReview:
		rows(w, v)
	case form.Ranking:
		ranking(w, v)
	default:
		return fmt.Errorf("the widget has no block for field type %q", typ)
	}
	return nil
}

// Pieces every block uses.

// req carries collect's message for the field left unanswered.
func req(w *writer, v *fieldView) {
	if v.Req != "" {
		w.add(` data-r="`, attr(v.Req), `"`)
	}
}

// desc names the elements that describe the control.
func desc(w *writer, v *fieldView) {
	w.add(` aria-describedby="`, attr(v.Desc), `"`)
}

// hint is the short note after the question.
func hint(w *writer, v *fieldView) {
	if v.Hint != "" {
		w.add(` <span class=o>(`, text(v.Hint), `)</span>`)
	}
}

// label is a single control's label, then its notes.
func label(w *writer, v *fieldView) {
	w.add(`<label for="`, attr(v.P), `">`, text(v.Text))
	hint(w, v)
	w.add(`</label>`)
	notes(w, v)
}

// notes are the guess's reason and the help text.
func notes(w *writer, v *fieldView) {
	if v.Guess != "" {
		w.add(`<p class=g id="`, attr(v.P), `g">`, text(v.Guess), `</p>`)
	}
	if v.Help != "" {
		w.add(`<p class=h id="`, attr(v.P), `h">`, text(v.Help), `</p>`)
	}
}

// errLine is the "err" block: where the script shows the field's problem.
func errLine(w *writer, v *fieldView) {
	w.add(`<p class=x id="`, attr(v.P), `x"></p>`)
}

// why is the rationale under its heading.
func why(w *writer, v *fieldView) {
	if v.Rationale != "" {
		w.add(`<p class=w><b>`, text(v.WhyHead), `</b> `, text(v.Rationale), `</p>`)
	}
}

// writeChoice is the "choice" block: one radio or checkbox with its label,
// tag, badges and note.
func writeChoice(w *writer, c *choice) {
	w.add(`<label class="k`)
	if c.Card {
		w.add(` c`)
	}
	w.add(`"><input type=`, unquoted(c.Kind), ` name=`, unquoted(c.Name), ` value="`, attr(c.Value), `"`)
	if c.Checked {
		w.add(` checked`)
	}
	w.add(`>`)
	if c.Tag == "" && len(c.Badges) == 0 && c.Note == "" {
		w.add(text(c.Label), `</label>`)
		return
	}
	w.add(`<span>`, text(c.Label))
	if c.Tag != "" {
		w.add(`<em class=tg>`, text(c.Tag), `</em>`)
	}
	for _, b := range c.Badges {
		w.add(`<em class=bd>`, text(b), `</em>`)
	}
	if c.Note != "" {
		w.add(`<small>`, text(c.Note), `</small>`)
	}
	w.add(`</span></label>`)
}

// The pieces below repeat within blocks; the template wrote them out.

// open starts a field's fieldset through its legend and notes; t is the
// data-t attribute's value as written (quoted or not, and for a ranking
// the data-w attribute after it).
func open(w *writer, v *fieldView, t string) {
	w.add(`<fieldset class=f data-id="`, attr(v.ID), `" data-t=`, t)
	req(w, v)
	desc(w, v)
	legend(w, v)
}

// legend is a fieldset's question, hint and notes.
func legend(w *writer, v *fieldView) {
	w.add(`><legend>`, text(v.Text))
	hint(w, v)
	w.add(`</legend>`)
	notes(w, v)
}

// tagDetail is a listed item's tag and detail.
func tagDetail(w *writer, tag, detail string) {
	if tag != "" {
		w.add(`<em class=tg>`, text(tag), `</em>`)
	}
	if detail != "" {
		w.add(`<small>`, text(detail), `</small>`)
	}
}

// option is one entry of a dropdown.
func option(w *writer, c *choice) {
	w.add(`<option value="`, attr(c.Value), `"`)
	if c.Checked {
		w.add(` selected`)
	}
	w.add(`>`, text(c.Label), `</option>`)
}

// closeDiv ends the block of a single control.
func closeDiv(w *writer, v *fieldView) {
	errLine(w, v)
	w.add("</div>\n")
}

// closeFieldset ends the block of a group: rationale, problem line.
func closeFieldset(w *writer, v *fieldView) {
	why(w, v)
	errLine(w, v)
	w.add("</fieldset>\n")
}

// The blocks.

// choices is a radio or checkbox group: multi_select, boolean, a
// single_select with a list_style, decision, pushback and deliberation.
func choices(w *writer, v *fieldView) {
	open(w, v, `"`+attr(v.Mode)+`"`)
	list := ""
	switch v.ListStyle {
	case "ordered":
		list = "ol"
	case "unordered":
		list = "ul"
	}
	if list != "" {
		w.add(`<`, list, `>`)
	}
	for i := range v.Choices {
		if list != "" {
			w.add(`<li>`)
		}
		writeChoice(w, &v.Choices[i])
		if list != "" {
			w.add(`</li>`)
		}
	}
	if list != "" {
		w.add(`</`, list, `>`)
	}
	closeFieldset(w, v)
}

// singleSelect is a dropdown, or a radio group with a list_style.
func singleSelect(w *writer, v *fieldView) {
	if v.ListStyle != "" {
		choices(w, v)
		return
	}
	w.add(`<div class=f data-id="`, attr(v.ID), `" data-t="s"`)
	req(w, v)
	w.add(`>`)
	label(w, v)
	w.add(`<select id="`, attr(v.P), `"`)
	desc(w, v)
	w.add(`><option value="">— choose —</option>`)
	for i := range v.Choices {
		option(w, &v.Choices[i])
	}
	w.add(`</select>`)
	closeDiv(w, v)
}

// textOpen starts a text_input's or a textarea's div, through its label.
func textOpen(w *writer, v *fieldView) {
	w.add(`<div class=f data-id="`, attr(v.ID), `" data-t="t"`)
	if v.MaxLength != 0 {
		w.add(` data-l="`, strconv.Itoa(v.MaxLength), `"`)
	}
	req(w, v)
	w.add(`>`)
	label(w, v)
}

// textInput is a one-line text box with its suggestions.
func textInput(w *writer, v *fieldView) {
	textOpen(w, v)
	w.add(`<input id="`, attr(v.P), `"`)
	if v.Value != "" {
		w.add(` value="`, attr(v.Value), `"`)
	}
	if len(v.Choices) > 0 {
		w.add(` list="`, attr(v.P), `s"`)
	}
	desc(w, v)
	w.add(`>`)
	if len(v.Choices) > 0 {
		w.add(`<datalist id="`, attr(v.P), `s">`)
		for _, c := range v.Choices {
			w.add(`<option value="`, attr(c.Value), `">`)
		}
		w.add(`</datalist>`)
	}
	closeDiv(w, v)
}

// textarea is a text box of several lines.
func textarea(w *writer, v *fieldView) {
	textOpen(w, v)
	w.add(`<textarea id="`, attr(v.P), `" rows="4"`)
	desc(w, v)
	w.add(`>`, rcdata(v.Value), `</textarea>`)
	closeDiv(w, v)
}

// inputOpen starts a number's or a date's div, through its label and the
// opening of its input of type typ.
func inputOpen(w *writer, v *fieldView, t, typ string) {
	w.add(`<div class=f data-id="`, attr(v.ID), `" data-t="`, t, `"`)
	req(w, v)
	w.add(`>`)
	label(w, v)
	w.add(`<input id="`, attr(v.P), `" type="`, typ, `"`)
}

// inputEnd closes a number's or a date's input and div.
func inputEnd(w *writer, v *fieldView) {
	if v.Value != "" {
		w.add(` value="`, attr(v.Value), `"`)
	}
	desc(w, v)
	w.add(`>`)
	closeDiv(w, v)
}

// number is a number box with its bounds.
func number(w *writer, v *fieldView) {
	inputOpen(w, v, "n", "number")
	if v.Min != "" {
		w.add(` min="`, attr(v.Min), `"`)
	}
	if v.Max != "" {
		w.add(` max="`, attr(v.Max), `"`)
	}
	inputEnd(w, v)
}

// date is a date picker.
func date(w *writer, v *fieldView) {
	inputOpen(w, v, "d", "date")
	inputEnd(w, v)
}

// progress is a progress report: done and in-flight items (or, in report
// style, the items not offered) as lists, then the picker. Display-only
// when nothing is offered: then it is no field (no data-id) and takes no
// answer.
func progress(w *writer, v *fieldView) {
	w.add(`<fieldset class="f"`)
	if len(v.Choices) > 0 {
		w.add(` data-id="`, attr(v.ID), `" data-t="r"`)
		req(w, v)
		desc(w, v)
	}
	legend(w, v)
	for _, b := range v.Buckets {
		w.add(`<p class=pb>`, text(b.Name), `</p><ul class=pg>`)
		for _, it := range b.Items {
			if it.Done {
				w.add(`<li><s>`, text(it.Label), `</s>`)
			} else {
				w.add(`<li>`, text(it.Label))
			}
			tagDetail(w, it.Tag, it.Detail)
			w.add(`</li>`)
		}
		w.add(`</ul>`)
	}
	if len(v.Choices) == 0 {
		why(w, v)
		w.add("</fieldset>\n")
		return
	}
	w.add(`<p class=pb>`, text(v.PickHead), `</p>`)
	for i := range v.Choices {
		writeChoice(w, &v.Choices[i])
	}
	closeFieldset(w, v)
}

// confirm is choice cards after the consequences of approving.
func confirm(w *writer, v *fieldView) {
	open(w, v, `"r"`)
	if len(v.Consequences) > 0 {
		w.add(`<p class=pb>If approved</p><ul class=pg>`)
		for _, it := range v.Consequences {
			w.add(`<li>`, text(it.Label))
			tagDetail(w, it.Tag, it.Detail)
			w.add(`</li>`)
		}
		w.add(`</ul>`)
	}
	for i := range v.Choices {
		writeChoice(w, &v.Choices[i])
	}
	closeFieldset(w, v)
}

// rows is a triage board or an assumption review: one group of rulings
// per row (and, for an assumption, a box for the corrected text).
func rows(w *writer, v *fieldView) {
	open(w, v, `"g"`)
	for _, r := range v.Rows {
		w.add(`<fieldset class=rw data-k="`, attr(r.Key), `"><legend>`, text(r.Label))
		tagDetail(w, r.Tag, r.Detail)
		w.add(`</legend>`)
		for i := range r.Choices {
			writeChoice(w, &r.Choices[i])
		}
		if v.Edit {
			w.add(`<input class=ed aria-label="Corrected: `, attr(r.Label), `">`)
		}
		w.add(`</fieldset>`)
	}
	closeFieldset(w, v)
}

// ranking is one dropdown per rank slot, the suggested order preselected,
// after the options' notes.
func ranking(w *writer, v *fieldView) {
	open(w, v, `k data-w="`+attr(v.SlotsWhy)+`"`)
	if v.Notes {
		w.add(`<ul class=pg>`)
		for _, c := range v.Choices {
			w.add(`<li>`, text(c.Label))
			if c.Note != "" {
				w.add(`<small>`, text(c.Note), `</small>`)
			}
			w.add(`</li>`)
		}
		w.add(`</ul>`)
	}
	for _, s := range v.Slots {
		w.add(`<label class="k rk">`, text(s.Label), `<select><option value="">—</option>`)
		for i := range s.Choices {
			option(w, &s.Choices[i])
		}
		w.add(`</select></label>`)
	}
	closeFieldset(w, v)
}

// Escaping, one helper per context (internal/htmlesc holds the tables):
// each gives the bytes html/template's escaper for that context gives for a
// string.

// text escapes s for an HTML text node (htmlesc.Text).
func text(s string) string { return htmlesc.Text(s) }

// attr escapes s for a quoted attribute value. It matches html/template's
// attrEscaper, which for a string uses htmlEscaper's table: text's bytes.
// (Every attribute the widget fills is of html/template's plain or unsafe
// type, data-* ones by the name after "data-": none is a URL, script or
// style.)
func attr(s string) string { return htmlesc.Text(s) }

// rcdata escapes s for the body of a <textarea>. It matches html/template's
// rcdataEscaper, which for a string uses htmlEscaper's table: text's bytes.
func rcdata(s string) string { return htmlesc.Text(s) }

// unquoted escapes s for an unquoted attribute value (type=radio)
// (htmlesc.Unquoted).
func unquoted(s string) string { return htmlesc.Unquoted(s) }

// jsValue writes s as a value in a script (htmlesc.JSValue).
func jsValue(s string) string { return htmlesc.JSValue(s) }
