package form

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/golden"
	"github.com/google/jsonschema-go/jsonschema"
)

func resolvedSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestSchemaGolden(t *testing.T) { golden.Check(t, "form.schema.json", Schema()) }

// TestSchemaAgreesWithParser feeds every test form through the schema and the
// parser: every form the parser accepts, the schema accepts, and the
// structural problems are caught by both. The rest (unique ids, membership in
// options, defaults that validate, ...) only the parser can see.
func TestSchemaAgreesWithParser(t *testing.T) {
	rs := resolvedSchema(t)
	validate := func(data []byte) error {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		return rs.Validate(v)
	}
	for name, data := range testForms(t) {
		if err := validate(data); err != nil {
			t.Errorf("%s: parser accepts, schema rejects: %v", name, err)
		}
	}
	for _, tc := range append(parseProblemCases, constructProblemCases...) {
		if len(tc.in) > MaxInput {
			continue
		}
		err := validate([]byte(tc.in))
		if (err != nil) != schemaCatches[tc.name] {
			t.Errorf("%s: schema error = %v, want caught = %v", tc.name, err, schemaCatches[tc.name])
		}
	}
}

// schemaCatches names the parseProblemCases whose problems the JSON Schema
// can express; the others need the parser's cross-checks.
var schemaCatches = map[string]bool{
	"deliberation without endorsements or options": true,
	"deliberation endorsements malformed":          true,
	"deliberation endorsements empty":              true,
	"endorsements on a decision":                   true,
	"triage without items or dispositions":         true,
	"triage items malformed":                       true,
	"triage items empty":                           true,
	"triage dispositions malformed":                true,
	"triage suggested malformed":                   true,
	"triage suggested a list":                      true,
	"suggested on a select":                        true,
	"confirm without consequences":                 true,
	"confirm consequences malformed":               true,
	"confirm consequences empty":                   true,
	"consequences on a boolean":                    true,
	"ranking too few options":                      true,
	"ranking without options":                      true,
	"ranking with an empty list of options":        true,
	"ranking top_n malformed":                      true,
	"ranking suggested malformed":                  true,
	"top_n on a select":                            true,
	"assumption review without assumptions":        true,
	"assumptions malformed":                        true,
	"alias hint":                                   true,
	"bad options":                                  true,
	"defaults fail their own validation":           true,
	"empty form":                                   true,
	"field not an object":                          true,
	"fields and its alias":                         true,
	"fields alias empty":                           true,
	"problems under the fields alias":              true,
	"form keys":                                    true,
	"inferred without default":                     true,
	"invalid type still checked":                   true,
	"key of another type":                          true,
	"list style on a non-select":                   true,
	"list style value":                             true,
	"max length":                                   true,
	"max length fraction":                          true,
	"missing options":                              true,
	"not an object":                                true,
	"not json":                                     true,
	"not utf-8":                                    true,
	"options on boolean":                           true,
	"progress items malformed":                     true,
	"progress without items":                       true,
	"required as string":                           true,
	"typo with hint":                               true,
}

// TestToolSchemaNamesEveryKey holds the compact tool schema to the key
// table: every form key, every field key and every type is named, and the
// description of type lists each type's own keys.
func TestToolSchemaNamesEveryKey(t *testing.T) {
	s := ToolSchema()
	props := s["properties"].(obj)
	for _, k := range formKeys {
		if props[k] == nil {
			t.Errorf("form key %s is not in the tool schema", k)
		}
	}
	field := props["fields"].(obj)["items"].(obj)
	fprops := field["properties"].(obj)
	for _, k := range keyset.fieldKeys {
		if fprops[k] == nil {
			t.Errorf("field key %s is not in the tool schema", k)
		}
	}
	typ := fprops["type"].(obj)
	if len(typ["enum"].([]string)) != len(types) {
		t.Errorf("type enum %v", typ["enum"])
	}
	// Each type that adds keys is named in one part of the description,
	// "a, b: keys" or "c: a's + more keys", with every key it adds.
	desc := strings.TrimSuffix(typ["description"].(string), ".")
	_, list, _ := strings.Cut(desc, "(* needed): ")
	keysOf := func(typ string) (string, string) {
		for _, p := range strings.Split(list, "; ") {
			names, keys, _ := strings.Cut(p, ": ")
			if slices.Contains(strings.Split(names, ", "), typ) {
				return p, keys
			}
		}
		return "", ""
	}
	for _, ft := range fieldTypes {
		part, keys := keysOf(string(ft.typ))
		if part == "" {
			if len(ft.keys) > 0 {
				t.Errorf("type's description does not name %s: %s", ft.typ, desc)
			}
			continue
		}
		if base, rest, ok := strings.Cut(keys, "'s + "); ok {
			_, baseKeys := keysOf(base)
			keys = baseKeys + " " + rest
		}
		for _, k := range ft.keys {
			if !slices.Contains(strings.Fields(strings.ReplaceAll(keys, "*", "")), k) {
				t.Errorf("type's description gives %s without %s: %q", ft.typ, k, part)
			}
		}
	}
	if !strings.Contains(desc, "triage: triage_items* dispositions* suggested rationale") {
		t.Errorf("type's description does not mark what triage needs: %s", desc)
	}
}

// TestToolSchemaAcceptsWhatParseAccepts feeds every test form, the widget's
// and attune's (aliases included) through the compact tool schema: a host
// that checks arguments against it lets every valid form through, and it
// catches a wrong type or a key of the wrong kind. The one exception is a
// null for a key not given (attune's nulls.json): the tool schema has no
// null unions, which some hosts do not take.
func TestToolSchemaAcceptsWhatParseAccepts(t *testing.T) {
	raw, _ := json.Marshal(ToolSchema())
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	validate := func(data []byte) error {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		return rs.Validate(v)
	}
	files, _ := filepath.Glob("testdata/forms/*.json")
	more, _ := filepath.Glob("widget/testdata/forms/*.json")
	attune, _ := filepath.Glob("testdata/attune/loads/*.json")
	for _, p := range append(append(files, more...), attune...) {
		data, _ := os.ReadFile(p)
		if _, err := Parse(data); err != nil || filepath.Base(p) == "nulls.json" {
			continue
		}
		if err := validate(data); err != nil {
			t.Errorf("%s: Parse accepts, the tool schema rejects: %v", p, err)
		}
	}
	for _, bad := range []string{
		`{"title": "T", "fields": [{"id": "a", "text": "Q", "type": "nope"}]}`,
		`{"title": "T", "fields": [{"id": "a", "text": "Q", "type": "single_select", "options": "x"}]}`,
		`{"title": "T", "fields": [{"id": "a", "text": "Q", "type": "text_input", "path_kind": "folder"}]}`,
		`{"fields": [{"id": "a", "text": "Q", "type": "boolean"}]}`,
	} {
		if validate([]byte(bad)) == nil {
			t.Errorf("the tool schema accepts %s", bad)
		}
	}
}
