package form

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

//go:embed templates/*.json
var embedded embed.FS

// validTemplateName reports whether s may name a template (nothing that
// could traverse paths): `^[a-z0-9][a-z0-9-]*$`.
func validTemplateName(s string) bool { return lowerName(s, "-") }

// ValidTemplateName reports whether s may name a template: lower-case
// ASCII letters, digits and dashes, starting with a letter or digit.
func ValidTemplateName(s string) bool { return validTemplateName(s) }

// validSlotName reports whether s may name a slot (placeholder):
// `^[a-z0-9][a-z0-9_-]*$`.
func validSlotName(s string) bool { return lowerName(s, "_-") }

// lowerName reports whether s is ASCII lowercase letters and digits, with
// the bytes of punct allowed after the first. Plain code rather than
// regexps, so that nothing is compiled at package initialisation.
func lowerName(s, punct string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') && (i == 0 || strings.IndexByte(punct, c) < 0) {
			return false
		}
	}
	return s != ""
}

// Templates is the template library: the embedded templates, overridden and
// extended by a folder of NAME.json files.
type Templates struct {
	// Folder holds user templates; nil means the embedded ones only.
	Folder fs.FS
	// FolderName names the folder in errors as the user gave it, such as
	// "--templates ./tpl"; default "the template folder".
	FolderName string
}

// TemplateInfo describes one template.
type TemplateInfo struct {
	Name   string   `json:"name"`
	Title  string   `json:"title"`
	Slots  []string `json:"slots"`
	Fields int      `json:"fields"`
	// Source is "embedded" or "folder".
	Source string `json:"source"`
	// Error says why a folder template cannot be used.
	Error string `json:"error,omitempty"`
}

// Check reports a folder that cannot be used: one that does not exist, is
// not a folder, or cannot be read. Source and Cast check it first; List
// does not (call Check before it).
func (ts *Templates) Check() error {
	if ts.Folder == nil {
		return nil
	}
	name := ts.FolderName
	if name == "" {
		name = "the template folder"
	}
	fi, err := fs.Stat(ts.Folder, ".")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such folder (give a folder of NAME.json templates)", name)
	case err != nil && !errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	case err != nil || !fi.IsDir():
		return fmt.Errorf("%s: not a folder (give a folder of NAME.json templates)", name)
	}
	if _, err := fs.ReadDir(ts.Folder, "."); err != nil {
		return fmt.Errorf("%s: cannot read the folder: %w", name, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops a *fs.PathError's operation and path (the caller names
// the folder its own way).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// List describes every template, sorted by name. It reads the folder once
// and each template once. A template is unusable (Error says why) when it
// cannot be read, is not JSON, or would fail every cast whatever the slot
// values (see Lint); a NAME.json file whose NAME is not a template name is
// listed as unusable too, with the name to rename it to.
func (ts *Templates) List() []TemplateInfo {
	names, misnamed := ts.names()
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]TemplateInfo, 0, len(keys)+len(misnamed))
	for _, name := range keys {
		out = append(out, ts.info(name, names[name]))
	}
	for _, file := range misnamed {
		out = append(out, TemplateInfo{Name: strings.TrimSuffix(file, ".json"), Source: "folder", Slots: []string{}, Error: misnamedError(file)})
	}
	slices.SortStableFunc(out, func(a, b TemplateInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// misnamedError says why a folder's file cannot be a template, and what to
// rename it to.
func misnamedError(file string) string {
	msg := fmt.Sprintf("file %q is not named as a template (NAME.json, NAME lowercase letters, digits and '-')", file)
	if to := templateNameFor(strings.TrimSuffix(file, ".json")); to != "" {
		msg += fmt.Sprintf("; rename it %s.json", to)
	}
	return msg
}

// templateNameFor is s lowercased with each run of other characters made
// one '-', or "" when nothing valid is left.
func templateNameFor(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// names maps every template name to its source, reading no template, and
// lists the folder's .json files whose names are not template names.
func (ts *Templates) names() (map[string]string, []string) {
	names := map[string]string{}
	ts.collect(embedded, "templates", "embedded", names)
	if ts.Folder == nil {
		return names, nil
	}
	return names, ts.collect(ts.Folder, ".", "folder", names)
}

// collect adds the templates of dir to names and returns the .json files
// whose names are not template names.
func (ts *Templates) collect(fsys fs.FS, dir, source string, names map[string]string) []string {
	var misnamed []string
	entries, _ := fs.ReadDir(fsys, dir)
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		switch {
		case !ok || e.IsDir() || strings.HasPrefix(name, "."): // not a template; .NAME.* are templates save's temporary files
		case validTemplateName(name):
			names[name] = source
		default:
			misnamed = append(misnamed, e.Name())
		}
	}
	return misnamed
}

func (ts *Templates) info(name, source string) TemplateInfo {
	ti := TemplateInfo{Name: name, Source: source, Slots: []string{}}
	data, from, err := ts.source(name)
	if err != nil {
		ti.Error = err.Error()
		return ti
	}
	doc, probs := parseDocument(data, ts.what(name, from), false)
	if probs != nil {
		ti.Error = probs.Error()
		return ti
	}
	root := &doc.Root
	if t := root.Get("title"); t != nil {
		ti.Title = t.Text
	}
	if f := root.Get("fields"); f != nil {
		ti.Fields = len(f.Items)
	}
	if s := root.Get("slots"); s != nil {
		for _, it := range s.Items {
			ti.Slots = append(ti.Slots, it.Text)
		}
	}
	if _, err := castNode(root, len(data), nil, true); err != nil { // last: it changes root
		ti.Error = oneLineError(err)
	}
	return ti
}

// Source returns a template's file and where it came from ("embedded" or
// "folder"); a folder template overrides an embedded one of the same name.
func (ts *Templates) Source(name string) ([]byte, string, error) {
	if !validTemplateName(name) {
		return nil, "", notFound{fmt.Errorf("invalid template name %q (use lowercase letters, digits and '-')", name)}
	}
	if err := ts.Check(); err != nil {
		return nil, "", err
	}
	return ts.source(name)
}

// Embedded reports whether name is a template built into elicit (which a
// folder template of the same name overrides).
func Embedded(name string) bool {
	if !validTemplateName(name) {
		return false
	}
	_, err := fs.Stat(embedded, "templates/"+name+".json")
	return err == nil
}

// ErrNoTemplate matches (errors.Is) the error of a template name that names
// no template: unknown, or not a valid name.
var ErrNoTemplate = errors.New("no such template")

// SlotHints rewrites the message of each missing slot in err (see
// ErrMissingSlot) with hint(name), which says how the caller's users give
// one; err is returned as it is otherwise.
func SlotHints(err error, hint func(name string) string) error {
	probs, ok := err.(problem.List)
	if !ok {
		return err
	}
	for i, p := range probs {
		if errors.Is(p.Err, ErrMissingSlot) {
			probs[i].Message = "missing value (" + hint(strings.TrimPrefix(p.Path, "slots.")) + ")"
		}
	}
	return probs
}

// ErrMissingSlot matches (errors.Is) the problem list of a cast that lacks
// a declared slot's value; the problem's Err is it, and its Path
// "slots.<name>", so a caller can say how its users give one (the CLI:
// --slot name=VALUE).
var ErrMissingSlot = errors.New("missing slot value")

type notFound struct{ error }

func (notFound) Is(target error) bool { return target == ErrNoTemplate }

// maxTemplate is the cap on a template file in bytes: a form's (1 MiB). A
// larger one is listed as unusable, and casting it is an error.
const maxTemplate = MaxInput

var templateInput = infile.Limit{Max: maxTemplate, What: "a template", Fix: "split it into smaller templates"}

// source is Source for a valid name in a checked folder.
func (ts *Templates) source(name string) ([]byte, string, error) {
	if ts.Folder != nil {
		file := name + ".json"
		data, err := infile.ReadFS(ts.Folder, file, templateInput)
		if err == nil {
			return data, "folder", nil
		}
		if fi, lerr := fs.Lstat(ts.Folder, file); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("template %s: %s is a dangling symlink (its target does not exist; fix or remove the link)", name, file)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("read template %s: %w", name, err)
		}
	}
	data, err := embedded.ReadFile("templates/" + name + ".json")
	if err != nil {
		avail := make([]string, 0, 8)
		names, _ := ts.names()
		for n := range names {
			avail = append(avail, n)
		}
		slices.Sort(avail)
		return nil, "", notFound{fmt.Errorf("unknown template %q (available: %s)", name, strings.Join(avail, ", "))}
	}
	return data, "embedded", nil
}

// Cast fills a template's slots and decodes the result as a form. Slot
// problems (missing, unexpected, undeclared, unused, empty) and form
// problems are reported together.
func (ts *Templates) Cast(name string, slots map[string]string) (*Form, error) {
	data, from, err := ts.Source(name)
	if err != nil {
		return nil, problem.List{{Path: "template", Message: err.Error(), Err: err}}
	}
	return cast(ts.what(name, from), data, slots, false)
}

// Lint reports, as Cast would, the problems of a template that no slot
// values could mend: its structure, undeclared or unused placeholders, bad
// slot declarations. nil means it casts once its slots are given.
func (ts *Templates) Lint(name string) error {
	data, from, err := ts.Source(name)
	if err != nil {
		return err
	}
	return lint(ts.what(name, from), data)
}

// what names template name from source ("folder" or "embedded") in
// messages: a folder template by its file too, "template x (x.json in
// --templates ./tpl)".
func (ts *Templates) what(name, source string) string {
	if source != "folder" {
		return "template " + name
	}
	folder := ts.FolderName
	if folder == "" {
		folder = "the template folder"
	}
	return fmt.Sprintf("template %s (%s.json in %s)", name, name, folder)
}

// lint is Lint for a template's file; what names it (Templates.what).
func lint(what string, data []byte) error {
	_, err := cast(what, data, nil, true)
	return err
}

// oneLineError is err on one line: a problem list's problems joined by
// "; ".
func oneLineError(err error) string {
	if probs, ok := err.(problem.List); ok && len(probs) > 1 {
		return fmt.Sprintf("%d problems: %s", len(probs), strings.Join(probs.Strings(), "; "))
	}
	return err.Error()
}

// cast fills the slots of the template data and decodes the result. dry
// casts without values, for Lint: each slot is filled with its own name,
// and the form's problems at strings a slot filled are left out (they may
// depend on the values).
func cast(what string, data []byte, slots map[string]string, dry bool) (*Form, error) {
	doc, probs := parseDocument(data, what, false)
	if probs != nil {
		return nil, probs
	}
	return castNode(&doc.Root, len(data), slots, dry)
}

// castNode is cast for the parsed template root, of size bytes. It changes
// root.
func castNode(root *jsonnode.Node, size int, slots map[string]string, dry bool) (*Form, error) {
	c := &caster{values: slots, used: map[string]bool{}, isDeclared: map[string]bool{}, room: MaxInput - size}
	c.declare(root)
	if dry {
		c.values = make(map[string]string, len(c.declared))
		for _, s := range c.declared {
			c.values[s] = s
		}
		c.filled = map[string]bool{}
	}
	c.fill(root, "")
	c.checkSlots()
	f, err := fromNode(root)
	if err != nil {
		for _, p := range err.(problem.List) {
			if !c.filled[p.Path] {
				c.probs.add(p.Path, "%s", p.Message)
			}
		}
	}
	if c.probs.count() > 0 {
		return nil, c.probs.problems()
	}
	return f, nil
}

// caster fills placeholders and records slot problems.
type caster struct {
	declared   []string
	isDeclared map[string]bool
	values     map[string]string
	used       map[string]bool
	probs      report
	// room is how many bytes the slot values may still add: the cast form
	// stays within a form's cap however often a template repeats a slot.
	room     int
	overfull bool
	filled   map[string]bool // dry casts: the paths of strings a slot filled
}

// declare reads and removes the "slots" member.
func (c *caster) declare(root *jsonnode.Node) {
	i := slices.IndexFunc(root.Members, func(m jsonnode.Member) bool { return m.Key == "slots" })
	if i < 0 {
		return
	}
	v := root.Members[i].Value
	root.Members = slices.Delete(root.Members, i, i+1)
	if v.Kind != jsonnode.Array {
		c.probs.add("slots", "must be a list of slot names (got %s)", describe(&v))
		return
	}
	for k, it := range v.Items {
		path := fmt.Sprintf("slots[%d]", k)
		switch {
		case it.Kind != jsonnode.String:
			c.probs.add(path, "must be a string (got %s)", describe(&it))
		case !validSlotName(it.Text):
			c.probs.add(path, "%q is not a valid slot name (use lowercase letters, digits, '_' and '-')", it.Text)
		case c.isDeclared[it.Text]:
			c.probs.add(path, "slot %q is declared twice", it.Text)
		default:
			c.declared = append(c.declared, it.Text)
			c.isDeclared[it.Text] = true
		}
	}
}

// fill substitutes placeholders in every string value (never in keys).
func (c *caster) fill(n *jsonnode.Node, path string) {
	switch n.Kind {
	case jsonnode.String:
		n.Text = c.substitute(n.Text, path)
	case jsonnode.Array:
		for i := range n.Items {
			c.fill(&n.Items[i], strictjson.Index(path, i))
		}
	case jsonnode.Object:
		for i := range n.Members {
			c.fill(&n.Members[i].Value, strictjson.Key(path, n.Members[i].Key))
		}
	}
}

// substitute replaces {name} placeholders; "{{" is a literal "{".
func (c *caster) substitute(s, path string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			b.WriteByte(s[i])
			continue
		}
		if strings.HasPrefix(s[i:], "{{") {
			b.WriteByte('{')
			i++
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 || !validSlotName(s[i+1:i+end]) {
			b.WriteByte('{')
			continue
		}
		b.WriteString(c.value(s[i+1:i+end], path))
		i += end
	}
	return b.String()
}

func (c *caster) value(name, path string) string {
	c.used[name] = true
	if !c.isDeclared[name] {
		c.probs.add(path, "uses undeclared placeholder {%s} (declare it in \"slots\", or write {{%s} for a literal brace)", name, name)
		return "{" + name + "}"
	}
	v, ok := c.values[name]
	if !ok {
		return "{" + name + "}"
	}
	if c.room -= len(v) - len(name) - 2; c.room < 0 {
		if !c.overfull {
			c.overfull = true
			c.probs.add("slots", "the slot values make the form more than %d bytes, over the 1 MiB limit for a form (shorten the values, or use each slot less often)", MaxInput)
		}
		return "{" + name + "}"
	}
	if c.filled != nil {
		c.filled[path] = true
	}
	return v
}

// checkSlots reports missing, unexpected, empty and unused slots.
func (c *caster) checkSlots() {
	for _, name := range c.declared {
		v, ok := c.values[name]
		switch {
		case !ok:
			c.probs.addErr("slots."+name, ErrMissingSlot, "missing value (give the slot %q a value)", name)
		case !utf8.ValidString(v):
			c.probs.add("slots."+name, "value %q is not valid UTF-8 (first bad byte at offset %d; give the slot UTF-8 text)", v, jsonnode.FirstInvalidUTF8([]byte(v)))
		case strings.TrimSpace(v) == "":
			c.probs.add("slots."+name, "empty value (give the slot some text)")
		}
		if !c.used[name] {
			c.probs.add("slots."+name, "declared but never used in the template")
		}
	}
	var extra []string
	for name := range c.values {
		if !c.isDeclared[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		c.probs.add("slots."+name, "unexpected value: the template declares %s", declaredList(c.declared))
	}
}

func declaredList(names []string) string {
	if len(names) == 0 {
		return "no slots"
	}
	if len(names) > listedMax {
		return fmt.Sprintf("only %s, … %d more", strings.Join(names[:listedMax], ", "), len(names)-listedMax)
	}
	return "only " + strings.Join(names, ", ")
}
