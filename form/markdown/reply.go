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
// as its text. Code fences, blank lines and a byte order mark at the start
// are skipped. It returns the
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
	if out, probs, ok := form.ConfirmReply(f, strings.TrimPrefix(reply, form.BOM), opts.Bare); ok {
		return out, probs.Err() // "keep all", "yep, all good", "change some": the one-tap confirm
	}
	p := &parser{form: f, byID: f.ByID(), name: name, out: map[string]any{}, lines: map[string]int{}}
	p.parts, p.partIDs = partIndex(f)
	p.index(f)
	p.read(strings.TrimPrefix(reply, form.BOM), opts.Bare)
	return p.out, p.probs.Err()
}

type parser struct {
	form  *form.Form
	byID  map[string]*form.Field
	parts map[string]*form.Part // the rows and rank slots, by dotted key
	// partIDs are each expanding field's dotted keys, in order.
	partIDs map[string][]string
	name    string
	// exact maps every key a line may name exactly to its id (a field's or
	// a row's or rank slot's dotted key): the keys, their one-line form
	// (lineKey) and the question numbers. folded maps the keys folded
	// (form.Fold) to the ids that fold so, for keys typed in another case
	// or spacing. keyLens are the lengths of the exact keys.
	exact   map[string]string
	folded  map[string][]string
	keyLens map[int]bool
	maxKey  int
	out     map[string]any
	lines   map[string]int // field id -> line it was answered on
	probs   problem.List
	// The field being read and its text so far (a textarea's lines).
	cur   *form.Field
	start int
	text  []string
}

// index lists every way a line may name a question: its key exactly (the
// field's id, a row's or rank slot's dotted key, in its one-line form
// too), its number, or its key folded.
func (p *parser) index(f *form.Form) {
	p.exact = make(map[string]string, 2*len(f.Fields))
	p.folded = make(map[string][]string, len(f.Fields))
	p.keyLens = map[int]bool{}
	for i := range f.Fields {
		n := strconv.Itoa(i + 1)
		p.exact[n] = f.Fields[i].ID // "2: answer" as "2. answer"
		p.keyLens[len(n)] = true
		p.maxKey = max(p.maxKey, len(n))
	}
	add := func(id string) {
		for _, k := range []string{id, lineKey(id)} {
			p.exact[k] = id
			p.keyLens[len(k)] = true
			p.maxKey = max(p.maxKey, len(k))
		}
		fk := form.Fold(id)
		if ids := p.folded[fk]; len(ids) == 0 || ids[len(ids)-1] != id {
			p.folded[fk] = append(ids, id)
		}
	}
	for i := range f.Fields { // ids win over numbers
		add(f.Fields[i].ID)
		for _, id := range p.partIDs[f.Fields[i].ID] { // rows and rank slots (constructs.go)
			add(id)
		}
	}
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
		if k, ids := p.ambiguous(trimmed, textarea); len(ids) > 1 {
			keyed = true
			p.finish()
			p.probs.Add("answers."+ids[0], "%s line %d: %q could mean %s: write the key exactly as the questionnaire shows it",
				p.name, n, k, joinOr(ids))
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

// key reads "id: value" from a line. The key is, in this order: the
// longest key of the form the line starts with exactly, followed by ':' or
// '=' (so a row key may hold ':' itself, and keys that differ only in case
// or spacing are told apart); a question number ("2. answer"); the text
// before the first ':' or '=' folded (form.Fold), when it folds to one key
// only. Markup around the key (bold, backticks) and a list marker are
// dropped. In a textarea's text only "key:" and "N:" count, so a numbered
// list ("1. check") stays text.
func (p *parser) key(line string, inText bool) (string, string, bool) {
	s := p.unmark(line, inText)
	if id, value, ok := p.exactKey(s); ok {
		return id, value, true
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
			if id, ok := p.exact[s[:j]]; ok {
				return id, strings.TrimSpace(s[j+1:]), true
			}
		}
	}
	if !sepOK || i > 80 {
		return "", "", false
	}
	ids := p.folded[form.Fold(strings.Trim(strings.TrimSpace(s[:i]), "*`_"))]
	if len(ids) != 1 {
		return "", "", false
	}
	return ids[0], value(s[i+1:]), true
}

// unmark drops what a line may have before its key: a quote marker and,
// outside a textarea's text, a list marker.
func (p *parser) unmark(line string, inText bool) string {
	s := strings.TrimSpace(strings.TrimLeft(line, ">"))
	if !inText {
		for _, m := range []string{"- ", "* ", "+ "} {
			s = strings.TrimPrefix(s, m)
		}
	}
	return s
}

// value is an answer after its key's separator, without the markup that
// closed the key.
func value(s string) string {
	return strings.TrimPrefix(strings.TrimLeft(s, "*`_"), " ")
}

// exactKey finds the longest key of the form s starts with, as written or
// inside bold or backticks, followed by ':' or '='.
func (p *parser) exactKey(s string) (string, string, bool) {
	id, rest, n := p.longestKey(s, false)
	if t := strings.TrimLeft(s, "*`_"); len(t) < len(s) {
		if id2, rest2, n2 := p.longestKey(t, true); n2 > n {
			id, rest, n = id2, rest2, n2
		}
	}
	if n < 0 {
		return "", "", false
	}
	return id, value(rest), true
}

// longestKey tries each ':' or '=' of s, from the last that can end a key
// of the form: the text before it, without trailing spaces (and closing
// markup when marked), is a key. It returns the key's id, the text after
// the separator and the key's length, or -1.
func (p *parser) longestKey(s string, marked bool) (string, string, int) {
	end := min(len(s), p.maxKey+16) // room for spaces and markup after the key
	for i := end - 1; i > 0; i-- {
		if s[i] != ':' && s[i] != '=' {
			continue
		}
		k := strings.TrimRight(s[:i], " \t")
		for {
			if p.keyLens[len(k)] {
				if id, ok := p.exact[k]; ok {
					return id, s[i+1:], len(k)
				}
			}
			t := strings.TrimRight(k, "*`_")
			if !marked || t == k {
				break
			}
			k = t
		}
	}
	return "", "", -1
}

// ambiguous reports a line whose key, folded, could mean several keys of
// the form: the key as typed and those keys, in form order.
func (p *parser) ambiguous(line string, inText bool) (string, []string) {
	s := p.unmark(line, inText)
	i := strings.IndexAny(s, ":=")
	if i <= 0 || i > 80 {
		return "", nil
	}
	k := strings.Trim(strings.TrimSpace(s[:i]), "*`_")
	return k, p.folded[form.Fold(k)]
}

// joinOr writes keys as "a, b or c".
func joinOr(keys []string) string {
	shown := make([]string, len(keys))
	for i, k := range keys {
		shown[i] = lineKey(k)
	}
	if len(shown) == 1 {
		return shown[0]
	}
	return strings.Join(shown[:len(shown)-1], ", ") + " or " + shown[len(shown)-1]
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
	case p.parts[fl.ID] != nil && fl.Required && strings.TrimSpace(text) != "":
		// "skip" on a row of a required board: say so on its line.
		p.probs.Add("answers."+fl.ID, "%s line %d: %q is no answer, but %s needs one (%s)",
			p.name, p.start, strings.TrimSpace(text), p.parts[fl.ID].What, strings.Join(fl.Choices(), ", "))
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
