// Package surfaces is the set of surfaces a form can be asked on, in one
// place: Collect reads answer documents from any of them (answers keyed by
// field id, the widget's postback or the chat message carrying it, the
// AskUserQuestion tool's output or the sentence Claude Code shows after it,
// request_user_input's result, a person's markdown reply), merges them and
// hands the result to form.Collect. ParseAnswers reads the JSON shapes only. Each surface lives in a package of its
// own under form/ (ask, native, widget, ...); this package is the only one that
// knows them all.
package surfaces
