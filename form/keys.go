package form

import (
	"slices"

	"github.com/elicit/elicit/internal/lazy"
	"github.com/elicit/elicit/internal/spelling"
)

// formKeys are the keys of a form object.
var formKeys = []string{"title", "description", "fields"}

// The aliases attune-forms documents, accepted and normalized: a form may
// list its fields under "questions" and a field may give its question
// under "label". Parse keeps only the canonical keys.
const (
	fieldsAlias = "questions"
	textAlias   = "label"
)

// commonKeys belong to every field type.
var commonKeys = []string{"id", "text", "type", "required", "default", "inferred_from", "help_text"}

// typeKeys are the keys each type adds to commonKeys. The tables here are
// built on first use, not at package initialisation, which every call of the
// binary would pay for (docs/decisions.md, "Start-up").
var typeKeys = lazy.Of(buildTypeKeys)

func buildTypeKeys() map[Type][]string {
	return map[Type][]string{
		SingleSelect: {"options", "list_style"},
		MultiSelect:  {"options", "list_style"},
		Boolean:      nil,
		TextInput:    {"options", "max_length"},
		Number:       {"minimum", "maximum"},
		Date:         nil,
		Textarea:     {"max_length"},
		Decision:     {"options", "recommended", "rationale", "option_notes"},
		Pushback:     {"options", "recommended", "rationale", "option_notes", "user_position"},
		Progress:     {"options", "recommended", "rationale", "option_notes", "progress_items", "progress_style"},
		Deliberation: {"options", "recommended", "rationale", "option_notes", "endorsements"},
		Triage:       {"triage_items", "dispositions", "suggested", "rationale"},
		Confirm:      {"options", "consequences", "rationale"},
		Ranking:      {"options", "top_n", "suggested", "rationale", "option_notes"},
		// AssumptionReview's rulings are fixed: accept, edit, reject.
		AssumptionReview: {"assumptions", "suggested", "rationale"},
	}
}

// forbidden are keys a type refuses for a reason of its own, said in the
// problem: the gates take no pre-filled answer.
var forbidden = lazy.Of(buildForbidden)

func buildForbidden() map[Type]map[string]string {
	return map[Type]map[string]string{
		Confirm: {
			"default":     "nothing is pre-selected on a confirm: approving must be an explicit act",
			"recommended": "a confirm recommends neither option: approving must be an explicit act",
		},
		Ranking: {
			"default": "a ranking takes no default order: give a proposed order as suggested, which is shown as a proposal",
		},
		AssumptionReview: {
			"default":      "an assumption review takes no default rulings: pre-mark accepts with suggested",
			"dispositions": "an assumption review's rulings are fixed (accept, edit, reject)",
		},
	}
}

// fieldKeys are all keys any field may have.
var fieldKeys = lazy.Of(buildFieldKeys)

func buildFieldKeys() []string {
	keys := slices.Clone(commonKeys)
	for _, t := range types {
		for _, k := range typeKeys.Get()[t] {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// keyBit is key's bit in a set of fieldKeys (1 << its index there), or 0
// for an unknown key. A switch, because it runs for every key of every field
// and beats a map lookup; TestKeyBits keeps it equal to fieldKeys.
func keyBit(key string) uint32 {
	switch key {
	case "id":
		return 1 << 0
	case "text":
		return 1 << 1
	case "type":
		return 1 << 2
	case "required":
		return 1 << 3
	case "default":
		return 1 << 4
	case "inferred_from":
		return 1 << 5
	case "help_text":
		return 1 << 6
	case "options":
		return 1 << 7
	case "list_style":
		return 1 << 8
	case "max_length":
		return 1 << 9
	case "minimum":
		return 1 << 10
	case "maximum":
		return 1 << 11
	case "recommended":
		return 1 << 12
	case "rationale":
		return 1 << 13
	case "option_notes":
		return 1 << 14
	case "user_position":
		return 1 << 15
	case "progress_items":
		return 1 << 16
	case "progress_style":
		return 1 << 17
	case "endorsements":
		return 1 << 18
	case "triage_items":
		return 1 << 19
	case "dispositions":
		return 1 << 20
	case "suggested":
		return 1 << 21
	case "consequences":
		return 1 << 22
	case "top_n":
		return 1 << 23
	case "assumptions":
		return 1 << 24
	}
	return 0
}

// nullableKeys are the keys a null value leaves out, as code that builds
// forms from optional values writes them ("recommended": null): every key
// but id, text, type (which a field needs) and required (attune-forms read
// a null there as false, silently).
var nullableKeys = lazy.Of(buildNullableKeys)

func buildNullableKeys() uint32 {
	var m uint32
	for _, k := range fieldKeys.Get() {
		if k != "id" && k != "text" && k != "type" && k != "required" {
			m |= keyBit(k)
		}
	}
	return m
}

// allowedKeys are the keys type t allows, in table order.
func allowedKeys(t Type) []string {
	var out []string
	for _, k := range append(slices.Clone(commonKeys), typeKeys.Get()[t]...) {
		if forbidden.Get()[t][k] == "" {
			out = append(out, k)
		}
	}
	return out
}

// typeMask is the set of keys type t allows (allowedKeys as bits, without
// building the list).
func typeMask(t Type) uint32 {
	var m uint32
	refused := forbidden.Get()[t]
	for _, keys := range [][]string{commonKeys, typeKeys.Get()[t]} {
		for _, k := range keys {
			if refused[k] == "" {
				m |= keyBit(k)
			}
		}
	}
	return m
}

// typeMasks holds typeMask for each of types, by index, written out: every
// parse checks each key against it, and computing it builds typeKeys and
// forbidden (maps of slices and maps: about 30,000 instructions and 40
// allocations, in every CLI call that reads a form). TestTypeMasks keeps it
// equal to typeMask.
var typeMasks = [...]uint32{
	0x1ff,     // single_select
	0x1ff,     // multi_select
	0x7f,      // boolean
	0x2ff,     // text_input
	0xc7f,     // number
	0x7f,      // date
	0x27f,     // textarea
	0x70ff,    // decision
	0xf0ff,    // pushback
	0x370ff,   // progress
	0x470ff,   // deliberation
	0x38207f,  // triage
	0x4020ef,  // confirm
	0xa060ef,  // ranking
	0x120206f, // assumption_review
}

// aliases are names people reach for that mean one of our keys.
var aliases = lazy.Of(buildAliases)

func buildAliases() map[string]string {
	return map[string]string{
		"question": "text", "prompt": "text",
		"choices": "options", "name": "id", "key": "id", "min": "minimum", "max": "maximum",
		"maxLength": "max_length", "maxlength": "max_length", "help": "help_text",
		"helpText": "help_text", "optional": "required", "listStyle": "list_style",
		"inferredFrom": "inferred_from", "userPosition": "user_position", "notes": "option_notes",
		"optionNotes": "option_notes", "items": "progress_items", "style": "progress_style",
		"progressItems": "progress_items", "progressStyle": "progress_style",
		"triageItems": "triage_items", "topN": "top_n", "top": "top_n", "suggestion": "suggested",
		"suggestions": "suggested", "consequence": "consequences", "assumption": "assumptions",
	}
}

// suggest returns the candidate closest to word, or "" when none is close.
func suggest(word string, candidates []string) string {
	if a, ok := aliases.Get()[word]; ok && slices.Contains(candidates, a) {
		return a
	}
	return spelling.Closest(word, candidates, len(word)/3+2)
}

// typesWith lists the types that have key, for "belongs to" hints.
func typesWith(key string) []string {
	var out []string
	for _, t := range types {
		if slices.Contains(typeKeys.Get()[t], key) {
			out = append(out, string(t))
		}
	}
	return out
}
