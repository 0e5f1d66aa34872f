// Package surfaces is the set of surfaces a form can be asked on, in one
// place: it reads an answer document from any of them (answers keyed by
// field id, the widget's postback or the chat message carrying it, the
// AskUserQuestion tool's output) and
// hands the result to form.Collect. Each surface lives in a package of its
// own under form/ (ask, native, widget, ...); this package is the only one that
// knows them all.
package surfaces
