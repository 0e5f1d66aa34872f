package markdown

import (
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/spelling"
	"github.com/elicit/elicit/problem"
)

// ParseOptions configure Parse. A nil *ParseOptions means defaults.
type ParseOptions struct {
	// Name names the reply in problems (default "reply").
	Name string
	// Bare is the field a reply answers when none of its lines names a
	// question: the only question that was asked.
	Bare string
}

// Parse reads a person's reply to a questionnaire: lines `id: answer`
// (the id in any case, with or without '-', '_' or spaces, bold or in
// backticks, after a list marker; or the question's number, `2: answer`),
// answers as form.Field.Typed reads them, the lines under a textarea's id
// as its text. Code fences and blank lines are skipped. It returns the
// answers keyed by field id and every problem (a problem.List): lines that
// answer nothing, questions answered twice, answers that cannot be read.
// The answers it could read come back even with problems, so that they can
// be merged and only the rest asked again. Problems about a field are
// reported under answers.<id>, so a re-ask can find them.
func Parse(f *form.Form, reply string, opts *ParseOptions) (map[string]any, error) {
	if opts == nil {
		opts = &ParseOptions{}
	}
	name := opts.Name
	if name == "" {
		name = "reply"
	}
	p := &parser{form: f, byID: f.ByID(), name: name, out: map[string]any{}, lines: map[string]int{}, keys: keyIndex(f), parts: partIndex(f)}
	p.read(reply, opts.Bare)
	return p.out, p.probs.Err()
}

type parser struct {
	form  *form.Form
	byID  map[string]*form.Field
	parts map[string]*form.Part // the rows and rank slots, by dotted key
	name  string
	keys  map[string]string // normalized key -> field id
	out   map[string]any
	lines map[string]int // field id -> line it was answered on
	probs problem.List
	// The field being read and its text so far (a textarea's lines).
	cur   *form.Field
	start int
	text  []string
}

// keyIndex maps every way a line may name a field to its id: the id
// normalized, and the field's number.
func keyIndex(f *form.Form) map[string]string {
	idx := make(map[string]string, 2*len(f.Fields))
	for i := range f.Fields {
		idx[strconv.Itoa(i+1)] = f.Fields[i].ID
	}
	for i := range f.Fields { // ids win over numbers
		idx[form.Fold(f.Fields[i].ID)] = f.Fields[i].ID
		for _, pt := range f.Fields[i].Parts() { // rows and rank slots (constructs.go)
			idx[form.Fold(pt.Field.ID)] = pt.Field.ID
		}
	}
	return idx
}

func (p *parser) read(reply string, bare string) {
	lines := strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n")
	keyed := false
	var loose []int // lines that answer nothing, by number
	inFence := false
	for i, raw := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		textarea := p.cur != nil && p.cur.Type == form.Textarea
		if id, value, ok := p.key(trimmed, textarea); ok {
			keyed = true
			p.finish()
			p.begin(id, value, n)
			continue
		}
		switch {
		case textarea:
			p.text = append(p.text, strings.TrimRight(raw, " \t"))
		case trimmed == "":
		default:
			loose = append(loose, n)
		}
	}
	p.finish()
	if !keyed && bare != "" && len(loose) > 0 {
		text := strings.TrimSpace(stripFences(reply))
		if fl := p.byID[bare]; fl != nil {
			p.cur, p.start, p.text = fl, loose[0], []string{text}
			p.finish()
			return
		}
	}
	for _, n := range loose {
		p.unknown(n, strings.TrimSpace(lines[n-1]))
	}
}

func stripFences(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// key reads "id: value" from a line. In a textarea's text only "id:" and
// "N:" count, so a numbered list ("1. check") stays text.
func (p *parser) key(line string, inText bool) (string, string, bool) {
	s := strings.TrimLeft(line, ">")
	s = strings.TrimSpace(s)
	if !inText {
		for _, m := range []string{"- ", "* ", "+ "} {
			s = strings.TrimPrefix(s, m)
		}
	}
	i := strings.IndexAny(s, ":=")
	sepOK := i > 0
	if !inText {
		// "2. answer", "2) answer": a question number.
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > 0 && j < len(s) && (s[j] == '.' || s[j] == ')') && (!sepOK || j < i) {
			if id, ok := p.keys[s[:j]]; ok {
				return id, s[j+1:], true
			}
		}
	}
	if !sepOK || i > 80 {
		return "", "", false
	}
	k := strings.Trim(strings.TrimSpace(s[:i]), "*`_")
	id, ok := p.keys[form.Fold(k)]
	if !ok {
		return "", "", false
	}
	value := s[i+1:]
	value = strings.TrimPrefix(strings.TrimLeft(value, "*`_"), " ")
	return id, value, true
}

func (p *parser) begin(id, value string, n int) {
	fl := p.field(id)
	if prev, dup := p.lines[id]; dup {
		p.probs.Add("answers."+id, "%s line %d: %s is answered again (first on line %d); answer each question once", p.name, n, id, prev)
		p.cur = nil
		return
	}
	p.lines[id] = n
	p.cur, p.start, p.text = fl, n, []string{value}
}

// finish reads the answer of the field being read.
func (p *parser) finish() {
	fl := p.cur
	if fl == nil {
		return
	}
	p.cur = nil
	text := strings.Join(p.text, "\n")
	if fl.DisplayOnly() {
		if strings.TrimSpace(text) != "" {
			p.probs.Add("answers."+fl.ID, "%s line %d: %s is a report with nothing to answer; leave it out", p.name, p.start, fl.ID)
		}
		return
	}
	if pt := p.parts[fl.ID]; pt != nil && pt.Edit {
		p.editAnswer(fl, text)
		return
	}
	v, msg := fl.Typed(text)
	switch {
	case msg != "":
		p.probs.Add("answers."+fl.ID, "%s line %d: %s", p.name, p.start, msg)
	case v != nil:
		p.out[fl.ID] = v
	}
}

// unknown reports a line that answers nothing, with the ids it could have
// meant.
func (p *parser) unknown(n int, line string) {
	ids := make([]string, len(p.form.Fields))
	for i := range p.form.Fields {
		ids[i] = p.form.Fields[i].ID
	}
	shown := line
	if r := []rune(shown); len(r) > 40 {
		shown = string(r[:40]) + "…"
	}
	if k, _, ok := strings.Cut(line, ":"); ok {
		k = strings.Trim(strings.TrimSpace(strings.TrimLeft(k, "-*+> ")), "*`_")
		if s := spelling.Closest(form.Fold(k), ids, len(k)/3+2); s != "" {
			p.probs.Add(p.name, "line %d: %q answers no question: no question has the id %q (did you mean '%s'?)", n, shown, k, s)
			return
		}
	}
	p.probs.Add(p.name, "line %d: %q answers no question (write id: answer, with one of the ids %s)", n, shown, strings.Join(ids, ", "))
}
