package form_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

const numberForm = `{"title": "Big", "fields": [
	{"id": "notes", "text": "Notes?", "type": "textarea", "required": false},
	{"id": "n", "text": "Count?", "type": "number", "required": false}]}`

// TestNumbersKeptExactly: a number with more significant digits than a
// float64 keeps is refused wherever it is read, naming the field and what
// it would have become, instead of being stored as another number.
func TestNumbersKeptExactly(t *testing.T) {
	tooMany := "has more digits than a number keeps exactly"
	tests := []struct {
		text string
		want float64
		msg  string // "" when the number is kept
		// typed is Typed's message when it differs from msg.
		typed string
	}{
		{text: "12", want: 12},
		{text: "2.5", want: 2.5},
		{text: "0.1", want: 0.1},
		{text: "1.50", want: 1.5},
		{text: "-0", want: 0},
		{text: "1e21", want: 1e21},
		{text: "123456789012345", want: 123456789012345},
		{text: "9007199254740992", want: 9007199254740992},
		{text: "0.30000000000000004", want: 0.30000000000000004},
		{text: "9007199254740993", msg: "9007199254740993 " + tooMany + " (it would become 9007199254740992): write at most 15 significant digits"},
		{text: "123456789012345678901234567890", msg: "123456789012345678901234567890 " + tooMany + " (it would become 1.2345678901234568e+29)"},
		{text: "0.1000000000000000000001", msg: "0.1000000000000000000001 " + tooMany + " (it would become 0.1)"},
		{text: "1e-400", msg: "1e-400 is too close to zero to keep as a number (it would become 0)"},
		{text: "1e400", msg: "must be a number within ±1.8e308 (got 1e400)", typed: `"1e400" is not a number`},
	}
	f, err := form.Parse([]byte(numberForm))
	if err != nil {
		t.Fatal(err)
	}
	fl := f.Field("n")
	check := func(t *testing.T, how string, got any, msg string, want float64, wantMsg string) {
		t.Helper()
		if wantMsg == "" {
			if msg != "" || got != want {
				t.Errorf("%s = %v, %q; want %v", how, got, msg, want)
			}
			return
		}
		if !strings.Contains(msg, wantMsg) {
			t.Errorf("%s message = %q; want it to contain %q", how, msg, wantMsg)
		}
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			// JSON answers: the number as written in the document.
			doc, err := form.DecodeJSON([]byte(`{"notes": "a", "n": `+tt.text+`}`), "answers", false)
			if err != nil {
				t.Fatal(err)
			}
			r, err := form.Collect(f, doc.Value.(map[string]any), nil)
			switch {
			case tt.msg == "" && err != nil:
				t.Errorf("JSON answer: %v", err)
			case tt.msg == "" && r.Responses["n"] != tt.want:
				t.Errorf("JSON answer = %v; want %v", r.Responses["n"], tt.want)
			case tt.msg != "":
				check(t, "JSON answer", nil, errText(err), 0, "answers.n: "+tt.msg)
			}
			// A library caller's json.Number.
			_, err = form.Collect(f, map[string]any{"n": json.Number(tt.text)}, nil)
			if tt.msg != "" {
				check(t, "json.Number", nil, errText(err), 0, "answers.n: "+tt.msg)
			}
			// Typed, as a markdown reply or a terminal reads it.
			got, msg := fl.Typed(tt.text)
			typedMsg := tt.msg
			if tt.typed != "" {
				typedMsg = tt.typed
			}
			check(t, "Typed", got, msg, tt.want, typedMsg)
			// A form definition's default, minimum and maximum.
			for _, key := range []string{"default", "minimum", "maximum"} {
				_, err := form.Parse([]byte(`{"title": "T", "fields": [{"id": "n", "text": "N?", "type": "number", "` + key + `": ` + tt.text + `}]}`))
				if tt.msg == "" {
					if err != nil && strings.Contains(err.Error(), "fields[0]."+key+":") {
						t.Errorf("%s %s: %v", key, tt.text, err)
					}
					continue
				}
				check(t, key, nil, errText(err), 0, "fields[0]."+key+": "+tt.msg)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
