package deliberation

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestSchemaMatchesTypes holds the published schema and the Go types to
// the same field names, at every level, so they cannot drift apart.
func TestSchemaMatchesTypes(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(EvaluationSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	def := func(name string) map[string]any { return defs[name].(map[string]any) }
	prop := func(obj map[string]any, name string) map[string]any {
		return obj["properties"].(map[string]any)[name].(map[string]any)
	}
	cases := []struct {
		name   string
		obj    map[string]any
		goType any
	}{
		{"evaluation", schema, Evaluation{}},
		{"point", def("point"), PointEval{}},
		{"blocked", def("blocked"), Blocked{}},
		{"dependency", prop(def("point"), "dependency"), Dependency{}},
		{"challenge", def("challenge"), ChallengeEval{}},
		{"binding", def("binding"), BindingEval{}},
		{"concession", def("concession"), Concession{}},
		{"fact", def("fact"), FactEval{}},
		{"coverage", def("coverage"), CoverageEval{}},
		{"stress_test", def("stress_test"), StressEval{}},
		{"arbitration", def("arbitration"), ArbitrationEval{}},
	}
	for _, c := range cases {
		if c.obj["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties must be false", c.name)
		}
		var inSchema []string
		for k := range c.obj["properties"].(map[string]any) {
			inSchema = append(inSchema, k)
		}
		sort.Strings(inSchema)
		if got := jsonFields(c.goType); !slices.Equal(got, inSchema) {
			t.Errorf("%s: Go fields %v, schema properties %v", c.name, got, inSchema)
		}
	}
}

func jsonFields(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// TestSchemaEnumsMatchValidation: every enum value of the schema is
// accepted by the engine's validation and nothing else.
func TestSchemaEnumsMatchValidation(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	json.Unmarshal(EvaluationSchema(), &schema)
	if got := schema.Properties["response"].Enum; !slices.Equal(got, []string{ResponseValid, ResponseFormatFailure, ResponseQualityFailure, ResponseDegraded}) {
		t.Errorf("response enum = %v", got)
	}
}

// TestSchemaEnumsAcceptedByValidation: every enum value the schema
// publishes passes the engine's own enum checks.
func TestSchemaEnumsAcceptedByValidation(t *testing.T) {
	var schema map[string]any
	json.Unmarshal(EvaluationSchema(), &schema)
	defs := schema["$defs"].(map[string]any)
	enum := func(def, prop string) []string {
		p := defs[def].(map[string]any)["properties"].(map[string]any)[prop].(map[string]any)
		var out []string
		for _, v := range p["enum"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	cases := []struct {
		def, prop, path string
		doc             func(v string) string
	}{
		{"point", "classification", "points[0].classification", func(v string) string {
			return `{"points":[{"text":"x","triage":"in-scope","classification":"` + v + `"}]}`
		}},
		{"point", "triage", "points[0].triage", func(v string) string { return `{"points":[{"text":"x","triage":"` + v + `"}]}` }},
		{"point", "kind", "points[0].kind", func(v string) string {
			return `{"points":[{"text":"x","triage":"in-scope","kind":"` + v + `"}]}`
		}},
		{"challenge", "outcome", "challenges[0].outcome", func(v string) string { return `{"challenges":[{"id":"C1","outcome":"` + v + `"}]}` }},
		{"challenge", "deadlock", "challenges[0].deadlock", func(v string) string {
			return `{"challenges":[{"id":"C1","outcome":"rejected","deadlock":"` + v + `"}]}`
		}},
		{"fact", "tag", "facts[0].tag", func(v string) string { return `{"facts":[{"tag":"` + v + `","text":"x"}]}` }},
		{"point", "drift", "points[0].drift", func(v string) string {
			return `{"points":[{"text":"x","triage":"out-of-scope","drift":"` + v + `"}]}`
		}},
	}
	for _, c := range cases {
		for _, v := range enum(c.def, c.prop) {
			s := start(t, nil)
			step(t, s, "1. x", points(skeptical("x", "fx")))
			s.Iteration = 5
			respond(t, s, "Re C1")
			_, err := evalJSON(s, c.doc(v))
			if err != nil && strings.Contains(err.Error(), c.path+`: is "`+v+`", want`) {
				t.Errorf("schema enum %s.%s value %q is refused by validation: %v", c.def, c.prop, v, err)
			}
		}
	}
}

// TestSchemaDescribesEveryField: every property of the evaluation schema
// says what it is for, itself or through the definition it refers to, so
// the schema alone teaches the document.
func TestSchemaDescribesEveryField(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(EvaluationSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	described := func(p map[string]any) bool {
		if d, _ := p["description"].(string); d != "" {
			return true
		}
		ref, _ := p["$ref"].(string)
		def, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		d, _ := def["description"].(string)
		return d != ""
	}
	var walk func(path string, obj map[string]any)
	walk = func(path string, obj map[string]any) {
		props, _ := obj["properties"].(map[string]any)
		for name, v := range props {
			p := v.(map[string]any)
			if !described(p) {
				t.Errorf("%s.%s has no description", path, name)
			}
			walk(path+"."+name, p)
			if items, ok := p["items"].(map[string]any); ok {
				walk(path+"."+name+"[]", items)
			}
		}
	}
	walk("", schema)
	for name, d := range defs {
		walk("$defs."+name, d.(map[string]any))
	}
}
