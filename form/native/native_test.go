package native

import (
	"encoding/json"
	"testing"

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
