package form

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
)

// The kinds of a path field (path_kind): what its answer names.
const (
	PathFile      = "file"
	PathDirectory = "directory"
	PathEither    = "either"
)

// PathKinds returns the values of path_kind, a fresh copy each call.
func PathKinds() []string { return []string{PathFile, PathDirectory, PathEither} }

// IsPath reports whether f is a path field: a text_input with a path_kind,
// whose answer is a path (attune-forms' path picker). The widget and the
// local page offer its PathOptions in a picker beside the text box; the
// other surfaces ask for the path as text, saying its kind (PathHint).
func (f *Field) IsPath() bool { return f.PathKind != "" }

// PathNoun names what a path field's answer is: "a file path", "a
// directory path" or "a path to a file or a directory".
func (f *Field) PathNoun() string {
	switch f.PathKind {
	case PathFile:
		return "a file path"
	case PathDirectory:
		return "a directory path"
	}
	return "a path to a file or a directory"
}

// pathsListed is how many suggested paths PathNote names.
const pathsListed = 10

// PathNote says what a path field takes beyond its kind: a path relative
// to the project or absolute, and the suggested paths. It is "" for a
// field that is not a path field.
func (f *Field) PathNote() string {
	if !f.IsPath() {
		return ""
	}
	note := "Relative to the project or absolute."
	if n := len(f.PathOptions); n > 0 {
		note += " Suggested: " + strings.Join(f.PathOptions[:min(n, pathsListed)], ", ")
		if n > pathsListed {
			note += fmt.Sprintf(" (and %d more)", n-pathsListed)
		}
		note += "."
	}
	return note
}

// PathHint is the kind and the note of a path field in one line, for a
// surface that asks it as text with one place for help ("A file path.
// Relative to the project or absolute. Suggested: …"); "" for a field that
// is not a path field.
func (f *Field) PathHint() string {
	if !f.IsPath() {
		return ""
	}
	return Sentences(capitalize(f.PathNoun()), f.PathNote())
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// pathOptions decodes the suggested paths: unique, trimmed, each relative
// to the project and staying inside it (see relativePathProblem).
func (d *decoder) pathOptions(path loc, v *jsonnode.Node) []string {
	opts := d.labels(path, v, "path")
	for i, p := range opts {
		if why := relativePathProblem(p); why != "" {
			d.add(path.at(slices.Index(nodeStrings(v), p)), "%q %s", p, why)
			opts[i] = ""
		}
	}
	return slices.DeleteFunc(opts, func(s string) bool { return s == "" })
}

// nodeStrings lists the string items of a JSON array ("" for the others),
// to find an item's index again.
func nodeStrings(v *jsonnode.Node) []string {
	out := make([]string, len(v.Items))
	for i := range v.Items {
		if v.Items[i].Kind == jsonnode.String {
			out[i] = v.Items[i].Text
		}
	}
	return out
}

// relativePathProblem says why p cannot be a suggested path, or "": a
// suggested path is relative to the project (attune-forms' path_options are
// project-relative) and stays inside it, on one line.
func relativePathProblem(p string) string {
	switch {
	case strings.ContainsAny(p, "\n\t"):
		return "is not a path (a path is one line, without tabs)"
	case absolutePath(p):
		return "is an absolute path (suggested paths are relative to the project: write it from the project's top folder)"
	case slices.Contains(strings.FieldsFunc(p, isSeparator), ".."):
		return "leaves the project through \"..\" (suggested paths stay inside the project)"
	}
	return ""
}

func isSeparator(r rune) bool { return r == '/' || r == '\\' }

// absolutePath reports whether p is absolute on any system: "/x", "\x", a
// drive "C:" or a home "~/x".
func absolutePath(p string) bool {
	switch {
	case p == "":
		return false
	case isSeparator(rune(p[0])), p == "~" || strings.HasPrefix(p, "~/"):
		return true
	}
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// namesDirectory reports whether p can only name a directory: it ends
// with a separator, or is "." or "..", or ends in one.
func namesDirectory(p string) bool {
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "\\") {
		return true
	}
	parts := strings.FieldsFunc(p, isSeparator)
	last := p
	if len(parts) > 0 {
		last = parts[len(parts)-1]
	}
	return last == "." || last == ".."
}

// checkPathField runs the rules of a path field that relate its keys: a
// kind for the suggestions, the suggestions as path_options, each of the
// kind.
func (d *decoder) checkPathField(s *fieldState) {
	if !s.has("path_kind") {
		if s.has("path_options") {
			d.add(s.path.key("path_options"), "needs path_kind (%s: what the paths name)", quoteList(PathKinds(), ", "))
		}
		return
	}
	if s.has("options") {
		d.add(s.path.key("options"), "a path field's suggestions are path_options (paths relative to the project); remove options")
	}
	if s.PathKind != PathFile {
		return
	}
	for i, p := range s.PathOptions {
		if namesDirectory(p) {
			d.add(s.path.key("path_options").at(i), "%q names a directory, but path_kind is %q (give file paths, or path_kind %q)", p, PathFile, PathEither)
		}
	}
}

// checkPath validates a path field's answer: one line of text, of the
// field's kind (a file path cannot end with a separator), within its
// max_length. It is the path, trimmed; relative or absolute, as the person
// wrote it: nothing is looked up on disk.
func checkPath(f *Field, v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Sprintf("must be %s as a string (got %s)", f.PathNoun(), DescribeValue(v))
	}
	p := strings.TrimSpace(s)
	switch {
	case strings.ContainsAny(p, "\n\r\t\x00"):
		return nil, fmt.Sprintf("%s is not a path: a path is one line, without tabs (give %s)", DescribeValue(s), f.PathNoun())
	case f.PathKind == PathFile && namesDirectory(p):
		return nil, fmt.Sprintf("%q names a directory; give a file path", p)
	}
	return checkText(f, p)
}
