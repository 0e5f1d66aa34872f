package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Type is a field type.
type Type string

// The fifteen field types: seven plain controls and eight constructs.
const (
	SingleSelect Type = "single_select"
	MultiSelect  Type = "multi_select"
	Boolean      Type = "boolean"
	TextInput    Type = "text_input"
	Number       Type = "number"
	Date         Type = "date"
	Textarea     Type = "textarea"
	Decision     Type = "decision"
	Pushback     Type = "pushback"
	Progress     Type = "progress"
	// Deliberation shows which voices endorse which position; the user
	// chairs the pick.
	Deliberation Type = "deliberation"
	// Triage asks for one ruling (a disposition) per reviewed item.
	Triage Type = "triage"
	// Confirm is a two-way approval gate for a consequential action.
	Confirm Type = "confirm"
	// Ranking orders the options, all of them or the top N.
	Ranking Type = "ranking"
	// AssumptionReview asks the user to accept, reject or edit each
	// assumption the agent inferred.
	AssumptionReview Type = "assumption_review"
)

// Types lists every field type: the seed's ten, then attune-forms' five
// later constructs. The list is a copy: changing it changes nothing.
func Types() []Type { return slices.Clone(types) }

// SingleChoice reports whether the answer is one of the options: the plain
// single-select and the constructs built on it.
func (t Type) SingleChoice() bool {
	switch t {
	case SingleSelect, Decision, Pushback, Progress, Deliberation, Confirm:
		return true
	}
	return false
}

// Expands reports whether flat surfaces ask the field as several
// questions whose answers come back under dotted keys: one per item of a
// triage board or an assumption review ("<id>.<item key>", and
// "<id>.<item key>.text" for an edited assumption) and one per rank slot
// of a ranking ("<id>.<slot>", from 1). Collect folds them back.
func (t Type) Expands() bool {
	return t == Triage || t == Ranking || t == AssumptionReview
}

// RichControl reports whether the type needs a control AskUserQuestion does
// not have.
func (t Type) RichControl() bool {
	return t == Number || t == Date || t == Textarea
}

// Form is a form definition. One from Parse (or a template cast) satisfies
// every definition rule; check one built or changed in Go code with
// Validate (the entry points that take a form check it too).
type Form struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// FormID is the author's id for the form (attune-forms' form_id): 1-64
	// letters, digits, '.', '_' or '-', starting with a letter or digit.
	// Collect copies it into the response and the response log records it,
	// so that answers to one form can be found and joined.
	FormID string  `json:"form_id,omitempty"`
	Fields []Field `json:"fields"`
}

// Field is one question of a form.
type Field struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Type Type   `json:"type"`
	// Options are the choices of a select-like field and the suggestions of
	// a text_input (a path field's are PathOptions).
	Options []string `json:"options,omitempty"`
	// PathKind makes a text_input a path field (attune-forms' path picker):
	// its answer is a path to a file, a directory or either (PathFile,
	// PathDirectory, PathEither). PathOptions are the suggested paths,
	// relative to the project.
	PathKind    string   `json:"path_kind,omitempty"`
	PathOptions []string `json:"path_options,omitempty"`
	Required    bool     `json:"required"`
	// Default is a string, a []string (multi_select) or a float64 (number).
	Default      any    `json:"default,omitempty"`
	InferredFrom string `json:"inferred_from,omitempty"`
	// Recall, RecallLast, says the field's last answer in the project is a
	// fair guess: a door that keeps a decision ledger offers it as the
	// default (with an InferredFrom naming the day) when the field has none
	// and the answer still holds.
	Recall   string `json:"recall,omitempty"`
	HelpText string `json:"help_text,omitempty"`
	// ListStyle is "ordered" or "unordered" on the two select types.
	ListStyle string   `json:"list_style,omitempty"`
	Minimum   *float64 `json:"minimum,omitempty"`
	Maximum   *float64 `json:"maximum,omitempty"`
	// MaxLength caps text answers, counted in characters (runes).
	MaxLength     int               `json:"max_length,omitempty"`
	Recommended   string            `json:"recommended,omitempty"`
	Rationale     string            `json:"rationale,omitempty"`
	OptionNotes   map[string]string `json:"option_notes,omitempty"`
	UserPosition  string            `json:"user_position,omitempty"`
	ProgressItems []ProgressItem    `json:"progress_items,omitempty"`
	// ProgressStyle is "" (a task report) or "report" (a neutral digest).
	ProgressStyle string `json:"progress_style,omitempty"`
	// Endorsements maps a deliberation's options to the voices that
	// endorse them.
	Endorsements map[string][]string `json:"endorsements,omitempty"`
	// TriageItems are the rows of a triage board; Dispositions the rulings
	// each row may get.
	TriageItems  []Item    `json:"triage_items,omitempty"`
	Dispositions []string  `json:"dispositions,omitempty"`
	Suggested    Suggested `json:"suggested,omitzero"`
	// Consequences are what a confirm's action will do.
	Consequences []Consequence `json:"consequences,omitempty"`
	// TopN is how many options a ranking orders; 0 means all of them.
	TopN int `json:"top_n,omitempty"`
	// Assumptions are the rows of an assumption review.
	Assumptions []Item `json:"assumptions,omitempty"`
}

// Item is one row of a triage board or an assumption review. Its answer
// key is its ID, or its Label when it has no ID.
type Item struct {
	ID     string `json:"id,omitempty"`
	Label  string `json:"label"`
	Detail string `json:"detail,omitempty"`
	// Tag is a triage item's category (a severity, a file).
	Tag string `json:"tag,omitempty"`
	// Source is where an assumption was inferred from.
	Source string `json:"source,omitempty"`
}

// Key is the key the item's ruling comes back under.
func (it Item) Key() string {
	if it.ID != "" {
		return it.ID
	}
	return it.Label
}

// Consequence is one thing a confirmed action will do.
type Consequence struct {
	Label    string `json:"label"`
	Severity string `json:"severity,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// Suggested is the agent's proposal, shown as a proposal and never taken as
// the answer: a ruling per item key (triage: a disposition; assumption
// review: only "accept"), or a ranking's proposed order.
type Suggested struct {
	Rulings map[string]string
	Order   []string
}

// isZero reports whether nothing is suggested.
func (s Suggested) isZero() bool { return len(s.Rulings) == 0 && len(s.Order) == 0 }

// MarshalJSON writes the rulings as an object or the order as a list.
func (s Suggested) MarshalJSON() ([]byte, error) {
	if s.Order != nil {
		return json.Marshal(s.Order)
	}
	return json.Marshal(s.Rulings)
}

// UnmarshalJSON reads what MarshalJSON writes: an object of rulings (a
// triage, an assumption review), a list (a ranking's order) or null
// (nothing suggested). Rules beyond the shape are Parse's (or Validate's).
func (s *Suggested) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '[':
		*s = Suggested{}
		return json.Unmarshal(data, &s.Order)
	case bytes.Equal(data, []byte("null")):
		*s = Suggested{}
		return nil
	}
	var rulings map[string]string
	if err := json.Unmarshal(data, &rulings); err != nil {
		return fmt.Errorf("suggested: must be an object of rulings by item key or a list of options in order: %w", err)
	}
	*s = Suggested{Rulings: rulings}
	return nil
}

// The rulings of an assumption review, in the order they are offered.
const (
	RulingAccept = "accept"
	RulingEdit   = "edit"
	RulingReject = "reject"
)

// AssumptionRulings returns an assumption review's fixed rulings (see
// Field.Rulings), a fresh copy each call.
func AssumptionRulings() []string { return []string{RulingAccept, RulingEdit, RulingReject} }

// EditTextSuffix ends the dotted key of an edited assumption's replacement
// text on flat surfaces: "<id>.<item key>.text".
const EditTextSuffix = ".text"

// ConfirmOptions returns a confirm's options when the form names none, a
// fresh copy each call.
func ConfirmOptions() []string { return slices.Clone(confirmOptions) }

// confirmOptions are a confirm's options when the form names none.
var confirmOptions = []string{"Approve", "Abort"}

// ProgressItem is one reported item of a progress field.
type ProgressItem struct {
	Label  string `json:"label"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// The task-style progress statuses.
const (
	StatusDone     = "done"
	StatusInFlight = "in_flight"
	StatusBlocked  = "blocked"
)

// DisplayOnly reports whether the field asks nothing: a progress report with
// no pickable options.
func (f *Field) DisplayOnly() bool {
	return f.Type == Progress && len(f.Options) == 0
}

// Inferred reports whether the field's default is a guess from context.
func (f *Field) Inferred() bool { return f.InferredFrom != "" }

// RecallLast is the one value of a field's recall: its last answer.
const RecallLast = "last"

// AllGuessed reports whether every field that asks something has an
// inferred default (and at least one does): the form is then one
// confirmation of the guesses.
func (f *Form) AllGuessed() bool {
	asks := false
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() {
			continue
		}
		if !fl.Inferred() {
			return false
		}
		asks = true
	}
	return asks
}

// Field returns the field with the given id, or nil. It scans the fields:
// to look up many ids, use ByID.
func (f *Form) Field(id string) *Field {
	for i := range f.Fields {
		if f.Fields[i].ID == id {
			return &f.Fields[i]
		}
	}
	return nil
}

// ByID maps each field's id to the field (the first, for an id given
// twice): for looking up many ids at once, where Field scans the fields
// each time.
func (f *Form) ByID() map[string]*Field {
	out := make(map[string]*Field, len(f.Fields))
	for i := range f.Fields {
		if _, dup := out[f.Fields[i].ID]; !dup {
			out[f.Fields[i].ID] = &f.Fields[i]
		}
	}
	return out
}

// Only returns the form restricted to the fields with the given ids, in
// form order: what a follow-up or a re-ask asks. The fields keep every
// rule they had, so the result is as valid as f.
func (f *Form) Only(ids ...string) *Form {
	out := &Form{Title: f.Title, Description: f.Description}
	wanted := memberOf(ids)
	for _, fl := range f.Fields {
		if wanted(fl.ID) {
			out.Fields = append(out.Fields, fl)
		}
	}
	return out
}
