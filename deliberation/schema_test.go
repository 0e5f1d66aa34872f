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
		{"concession", prop(def("challenge"), "concession"), Concession{}},
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
	if got := schema.Properties["response"].Enum; !slices.Equal(got, []string{ResponseValid, ResponseFormatFailure, ResponseQualityFailure}) {
		t.Errorf("response enum = %v", got)
	}
}
