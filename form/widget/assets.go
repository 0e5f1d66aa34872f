package widget

import (
	"embed"
	"html/template"
	"strings"
	"sync"

	"github.com/elicit/elicit/form"
)

//go:embed assets
var assetFS embed.FS

// parsed holds the widget's template, script and styles, ready to use.
type parsed struct {
	// tmpl is assets/widget.tmpl: "head", one block per field type, "foot".
	tmpl *template.Template
	// The script is head + the extensions a form needs + tail; rows reads
	// rulings and ranks, suggest fills a text box from its suggestions,
	// path is the path picker.
	jsHead, jsTail, jsRows, jsSuggest, jsPath string
	// base styles every widget; cards, progress, rows, suggest and path
	// only those with such fields.
	base, cards, progress, rows, suggest, path string
}

// assets reads and parses the embedded files once, on first use: most CLI
// calls never render a widget.
var assets = sync.OnceValue(parseAssets)

func parseAssets() *parsed {
	read := func(name string) string {
		data, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			panic("widget: missing embedded asset " + name)
		}
		return string(data)
	}
	head, tail, ok := strings.Cut(read("widget.js"), "// @ext\n")
	if !ok {
		panic("widget: widget.js has no @ext line")
	}
	return &parsed{
		tmpl:      template.Must(template.New("widget").Parse(read("widget.tmpl"))),
		jsHead:    minifyJS(head),
		jsTail:    minifyJS(tail),
		jsRows:    minifyJS(read("rows.js")),
		jsSuggest: minifyJS(read("suggest.js")),
		jsPath:    minifyJS(read("path.js")),
		base:      minifyCSS(read("base.css")),
		cards:     minifyCSS(read("cards.css")),
		progress:  minifyCSS(read("progress.css")),
		rows:      minifyCSS(read("rows.css")),
		suggest:   minifyCSS(read("suggest.css")),
		path:      minifyCSS(read("path.css")),
	}
}

// needs says which optional styles and script a form's fields use.
type needs struct{ cards, progress, rows, suggest, path bool }

func needsOf(f *form.Form) needs {
	var n needs
	for i := range f.Fields {
		n.path = n.path || f.Fields[i].IsPath()
		switch f.Fields[i].Type {
		case form.Decision, form.Pushback, form.Deliberation:
			n.cards = true
		case form.Progress, form.Confirm:
			n.cards, n.progress = true, true
		case form.Triage, form.AssumptionReview, form.Ranking:
			n.cards, n.progress, n.rows = true, true, true
		case form.TextInput:
			n.suggest = n.suggest || len(f.Fields[i].Options) > 0
		}
	}
	return n
}

// css is the style sheet for f: the base, plus the styles of cards,
// progress reports and rows when f has such fields.
func (p *parsed) css(n needs) string {
	css := p.base
	if n.cards {
		css += p.cards
	}
	if n.progress {
		css += p.progress
	}
	if n.rows {
		css += p.rows
	}
	if n.suggest {
		css += p.suggest
	}
	if n.path {
		css += p.path
	}
	return css
}

// js is the script for f: the rows and ranks reader, the suggestions'
// buttons and the path picker, only when f has them.
func (p *parsed) js(n needs) string {
	js := p.jsHead
	if n.rows {
		js += p.jsRows
	}
	if n.suggest {
		js += p.jsSuggest
	}
	if n.path {
		js += p.jsPath
	}
	return js + p.jsTail
}

// minifyJS drops comment lines, indentation and the line breaks JavaScript
// does not need. The script is written for it (see its first comment).
func minifyJS(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		if b.Len() > 0 && !joins(b.String(), line) {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// joins reports whether line can follow the text so far without a line
// break: after an opening brace, a semicolon or a comma, or when it closes
// a block.
func joins(s, line string) bool {
	switch s[len(s)-1] {
	case '{', ';', ',':
		return true
	}
	return line[0] == '}'
}

// minifyCSS drops comments, line breaks and the spaces around punctuation.
func minifyCSS(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "/*") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
