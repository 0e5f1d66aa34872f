package form

// Type is a field type.
type Type string

// The ten field types.
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
)

// Types lists every field type in the order the seed introduces them.
var Types = []Type{SingleSelect, MultiSelect, Boolean, TextInput, Number, Date, Textarea, Decision, Pushback, Progress}

// SingleChoice reports whether the answer is one of the options: the plain
// single-select and the three constructs built on it.
func (t Type) SingleChoice() bool {
	switch t {
	case SingleSelect, Decision, Pushback, Progress:
		return true
	}
	return false
}

// RichControl reports whether the type needs a control AskUserQuestion does
// not have.
func (t Type) RichControl() bool {
	return t == Number || t == Date || t == Textarea
}

// Form is a validated form definition. Values of this type come from Parse
// (or a template cast) and satisfy every definition rule.
type Form struct {
	Title       string  `json:"title"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields"`
}

// Field is one question of a form.
type Field struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Type Type   `json:"type"`
	// Options are the choices of a select-like field and the suggestions of
	// a text_input.
	Options  []string `json:"options,omitempty"`
	Required bool     `json:"required"`
	// Default is a string, a []string (multi_select) or a float64 (number).
	Default      any    `json:"default,omitempty"`
	InferredFrom string `json:"inferred_from,omitempty"`
	HelpText     string `json:"help_text,omitempty"`
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
}

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

// Field returns the field with the given id, or nil.
func (f *Form) Field(id string) *Field {
	for i := range f.Fields {
		if f.Fields[i].ID == id {
			return &f.Fields[i]
		}
	}
	return nil
}
