package form

import (
	"slices"

	"github.com/elicit/elicit/internal/strictjson"
)

// formKeys are the keys of a form object.
var formKeys = []string{"title", "description", "form_id", "fields"}

// The aliases attune-forms documents, accepted and normalized: a form may
// list its fields under "questions" and a field may give its question
// under "label". Parse keeps only the canonical keys.
const (
	fieldsAlias = "questions"
	textAlias   = "label"
)

// commonKeys belong to every field type.
var commonKeys = []string{"id", "text", "type", "required", "default", "inferred_from", "recall", "help_text"}

// fieldTypes is the one table of field types: each type, in the order
// Types returns them (the seed's ten, then attune-forms' five later
// constructs), with the keys it adds to commonKeys and the keys it refuses
// for a reason of its own, said in the problem (the gates take no
// pre-filled answer). The type list, the keys a field may have, their bits
// and the keys each type allows are derived from it.
var fieldTypes = []fieldType{
	{SingleSelect, []string{"options", "list_style"}, nil},
	{MultiSelect, []string{"options", "list_style"}, nil},
	{Boolean, nil, nil},
	{TextInput, []string{"options", "max_length", "path_kind", "path_options"}, nil},
	{Number, []string{"minimum", "maximum"}, nil},
	{Date, nil, nil},
	{Textarea, []string{"max_length"}, nil},
	{Decision, []string{"options", "recommended", "rationale", "option_notes"}, nil},
	{Pushback, []string{"options", "recommended", "rationale", "option_notes", "user_position"}, nil},
	{Progress, []string{"options", "recommended", "rationale", "option_notes", "progress_items", "progress_style"}, nil},
	{Deliberation, []string{"options", "recommended", "rationale", "option_notes", "endorsements"}, nil},
	{Triage, []string{"triage_items", "dispositions", "suggested", "rationale"}, nil},
	{Confirm, []string{"options", "consequences", "rationale"}, []refusal{
		{"default", "nothing is pre-selected on a confirm: approving must be an explicit act"},
		{"recall", "nothing is pre-selected on a confirm, not even the last answer: approving must be an explicit act"},
		{"recommended", "a confirm recommends neither option: approving must be an explicit act"},
	}},
	{Ranking, []string{"options", "top_n", "suggested", "rationale", "option_notes"}, []refusal{
		{"default", "a ranking takes no default order: give a proposed order as suggested, which is shown as a proposal"},
		{"recall", "a ranking takes no default order, so it recalls none: give a proposed order as suggested"},
	}},
	// An assumption review's rulings are fixed: accept, edit, reject.
	{AssumptionReview, []string{"assumptions", "suggested", "rationale"}, []refusal{
		{"default", "an assumption review takes no default rulings: pre-mark accepts with suggested"},
		{"recall", "an assumption review takes no default rulings, so it recalls none: pre-mark accepts with suggested"},
		{"dispositions", "an assumption review's rulings are fixed (accept, edit, reject)"},
	}},
}

// fieldType is a row of fieldTypes.
type fieldType struct {
	typ     Type
	keys    []string  // the keys the type adds to commonKeys
	refused []refusal // keys the type refuses, and why
}

// refusal is a key a type refuses, and why.
type refusal struct{ key, why string }

// types lists the field types, in table order.
var types = typesOf(fieldTypes)

func typesOf(table []fieldType) []Type {
	out := make([]Type, len(table))
	for i, ft := range table {
		out[i] = ft.typ
	}
	return out
}

// keyset is fieldTypes in the forms the decoder asks it, for every key of
// every field: a set of keys is a bit mask.
var keyset = newKeyTable(fieldTypes)

type keyTable struct {
	fieldKeys []string          // every key a field may have: commonKeys, then each type's, once each
	bits      map[string]uint32 // each of fieldKeys: 1 << its index there
	masks     []uint32          // the keys each type allows, by its index in types
	nullable  uint32            // the keys a null value leaves out
}

func newKeyTable(table []fieldType) keyTable {
	k := keyTable{fieldKeys: slices.Clone(commonKeys), bits: map[string]uint32{}, masks: make([]uint32, len(table))}
	for _, ft := range table {
		for _, key := range ft.keys {
			if !slices.Contains(k.fieldKeys, key) {
				k.fieldKeys = append(k.fieldKeys, key)
			}
		}
	}
	if len(k.fieldKeys) > 32 {
		panic("form: more field keys than a uint32 has bits")
	}
	for i, key := range k.fieldKeys {
		k.bits[key] = 1 << i
		// Null stands for "not given" on every key but id, text, type
		// (which a field needs) and required (attune-forms read a null
		// there as false, silently).
		if key != "id" && key != "text" && key != "type" && key != "required" {
			k.nullable |= 1 << i
		}
	}
	for i := range table {
		for _, key := range allowedKeys(&table[i]) {
			k.masks[i] |= k.bits[key]
		}
	}
	return k
}

// keyBit is key's bit in a set of keys, or 0 for a key no field has.
func keyBit(key string) uint32 { return keyset.bits[key] }

// allowedKeys are the keys a type allows, in table order.
func allowedKeys(ft *fieldType) []string {
	var out []string
	for _, k := range append(slices.Clone(commonKeys), ft.keys...) {
		if ft.refusal(k) == "" {
			out = append(out, k)
		}
	}
	return out
}

// refusal says why the type refuses key, or "" when it does not.
func (ft *fieldType) refusal(key string) string {
	for _, r := range ft.refused {
		if r.key == key {
			return r.why
		}
	}
	return ""
}

// aliases are names people reach for that mean one of our keys.
var aliases = map[string]string{
	"question": "text", "prompt": "text",
	"choices": "options", "name": "id", "key": "id", "min": "minimum", "max": "maximum",
	"maxLength": "max_length", "maxlength": "max_length", "help": "help_text",
	"helpText": "help_text", "optional": "required", "listStyle": "list_style",
	"inferredFrom": "inferred_from", "userPosition": "user_position", "notes": "option_notes",
	"optionNotes": "option_notes", "items": "progress_items", "style": "progress_style",
	"progressItems": "progress_items", "progressStyle": "progress_style",
	"triageItems": "triage_items", "topN": "top_n", "top": "top_n", "suggestion": "suggested",
	"suggestions": "suggested", "consequence": "consequences", "assumption": "assumptions",
	"pathKind": "path_kind", "pathOptions": "path_options", "paths": "path_options", "kind": "path_kind",
	"formId": "form_id", "formID": "form_id", "id": "form_id",
}

// suggest returns the candidate word most likely means: the key an alias
// stands for, else the closest (strictjson.Suggest), or "" when none is
// close.
func suggest(word string, candidates []string) string {
	if a, ok := aliases[word]; ok && slices.Contains(candidates, a) {
		return a
	}
	return strictjson.Suggest(word, candidates)
}

// typesWith lists the types that have key, for "belongs to" hints.
func typesWith(key string) []string {
	var out []string
	for _, ft := range fieldTypes {
		if slices.Contains(ft.keys, key) {
			out = append(out, string(ft.typ))
		}
	}
	return out
}
