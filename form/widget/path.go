package widget

import "github.com/elicit/elicit/form"

// block is the template block that shows field f: the one named after its
// type, or "path" for a path field (a text_input with a path_kind).
func block(f *form.Field) string {
	if f.IsPath() {
		return "path"
	}
	return string(f.Type)
}

// path fills a path field's view: its kind, said in the hint ("a file
// path"), and the suggested paths the picker offers beside the text box.
func (v *fieldView) path(f *form.Field) {
	v.PathKind, v.Paths = f.PathKind, f.PathOptions
	v.Choices = nil
	if v.Hint == "" {
		v.Hint = f.PathNoun()
	} else {
		v.Hint = f.PathNoun() + ", " + v.Hint
	}
}
