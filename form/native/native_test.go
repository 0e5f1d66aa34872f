package native

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/google/go-cmp/cmp"
)

func TestRenderGolden(t *testing.T) {
	for name, data := range formtest.Forms(t) {
		t.Run(name, func(t *testing.T) {
			golden.Check(t, name+".json", golden.JSON(t, Render(formtest.MustParse(t, data))))
		})
	}
}

// TestRenderIsSpecValid checks every requestedSchema against the
// shape MCP 2025-11-25 allows: a flat object of primitive properties.
func TestRenderIsSpecValid(t *testing.T) {
	allowed := map[string]map[string]bool{
		"string":  {"type": true, "title": true, "description": true, "minLength": true, "maxLength": true, "format": true, "default": true, "enum": true, "oneOf": true},
		"number":  {"type": true, "title": true, "description": true, "minimum": true, "maximum": true, "default": true},
		"boolean": {"type": true, "title": true, "description": true, "default": true},
		"array":   {"type": true, "title": true, "description": true, "minItems": true, "maxItems": true, "items": true, "default": true},
	}
	for name, data := range formtest.Forms(t) {
		r := Render(formtest.MustParse(t, data))
		raw, _ := json.Marshal(r.Schema)
		var s map[string]any
		json.Unmarshal(raw, &s)
		if s["type"] != "object" {
			t.Errorf("%s: type %v", name, s["type"])
		}
		for id, p := range s["properties"].(map[string]any) {
			prop := p.(map[string]any)
			typ, _ := prop["type"].(string)
			for k := range prop {
				if !allowed[typ][k] {
					t.Errorf("%s.%s: key %q not allowed on a %s property", name, id, k, typ)
				}
			}
			if one, ok := prop["oneOf"].([]any); ok {
				for _, o := range one {
					if m := o.(map[string]any); m["const"] == nil || m["title"] == nil {
						t.Errorf("%s.%s: untitled oneOf entry %v", name, id, m)
					}
				}
			}
		}
	}
}

func TestAnswers(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["six"])
	got := Answers(f, map[string]any{"notify": false, "budget": 3.0, "platforms": []any{"linux"}, "x": 1})
	want := map[string]any{"notify": "No", "budget": 3.0, "platforms": []any{"linux"}, "x": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLongRankingUnsupported: a ranking whose ranks times options pass
// MaxRankChoices goes to the widget instead of a dialog of millions of
// choices (a 40 KB form of 5,000 options made 25 million).
func TestLongRankingUnsupported(t *testing.T) {
	opts := make([]string, 101)
	for i := range opts {
		opts[i] = fmt.Sprintf("o%d", i)
	}
	f := &form.Form{Title: "t", Fields: []form.Field{{ID: "r", Text: "Rank", Type: form.Ranking, Options: opts}}}
	r := Render(f)
	if len(r.Unsupported) != 1 || r.Unsupported[0].QuestionID != "r" || r.Unsupported[0].Surface != "widget" {
		t.Fatalf("unsupported = %+v", r.Unsupported)
	}
	f.Fields[0].TopN = 99 // 99 × 101 = 9,999 choices: still a dialog
	if r := Render(f); len(r.Unsupported) != 0 {
		t.Fatalf("99 ranks: unsupported = %+v", r.Unsupported)
	}
}

// TestRenderKeepsFormOrder: the dialog's properties come in the form's
// order, not sorted by id, on the wire.
func TestRenderKeepsFormOrder(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "zeta", "text": "Z?", "type": "boolean"},
		{"id": "alpha", "text": "A?", "type": "text_input", "required": false},
		{"id": "mid", "text": "M?", "type": "number"}]}`))
	raw, err := json.Marshal(Render(f).Schema)
	if err != nil {
		t.Fatal(err)
	}
	z, a, m := strings.Index(string(raw), `"zeta"`), strings.Index(string(raw), `"alpha"`), strings.Index(string(raw), `"mid"`)
	if !(z >= 0 && z < a && a < m) {
		t.Errorf("properties out of form order: %s", raw)
	}
	want := `{"type":"object","properties":{"zeta":{"title":"Z?","type":"boolean"},"alpha":{"title":"A?","type":"string"},"mid":{"title":"M?","type":"number"}},"required":["zeta","mid"]}`
	if string(raw) != want {
		t.Errorf("schema\n got %s\nwant %s", raw, want)
	}
}
