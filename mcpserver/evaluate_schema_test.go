package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/elicit/elicit/deliberation"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// evaluateInput is deliberation_evaluate's evaluation argument as a client
// lists it.
func evaluateInput(t *testing.T, cs *mcp.ClientSession) map[string]any {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "deliberation_evaluate" {
			raw, _ := json.Marshal(tool.InputSchema)
			var s map[string]any
			json.Unmarshal(raw, &s)
			return s["properties"].(map[string]any)["evaluation"].(map[string]any)
		}
	}
	t.Fatal("no deliberation_evaluate in tools/list")
	return nil
}

// shape is what a schema says an agent can send, path by path: each
// property's enum, the required keys of each object, and the type of each
// leaf ($ref resolved; annotations and the constraints the engine checks
// left out).
func shape(t *testing.T, schema, defs map[string]any) []string {
	t.Helper()
	var out []string
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		if ref, ok := s["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/$defs/")
			def, found := defs[name].(map[string]any)
			if !found {
				t.Fatalf("%s: $ref %q is not one of the $defs", path, ref)
			}
			walk(path, def)
		}
		if e, ok := s["enum"]; ok {
			out = append(out, fmt.Sprintf("%s enum %v", path, e))
		}
		if r, ok := s["required"]; ok {
			out = append(out, fmt.Sprintf("%s required %v", path, r))
		}
		if typ, ok := s["type"].(string); ok && typ != "object" && typ != "array" {
			out = append(out, fmt.Sprintf("%s type %s", path, typ))
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				out = append(out, path+"."+name)
				walk(path+"."+name, p.(map[string]any))
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(path+"[]", items)
		}
	}
	walk("evaluation", schema)
	sort.Strings(out)
	return slices.Compact(out)
}

// compacted is a shape as compactSchema leaves it: no type for a free-text
// value, and what an object requires only for the evaluation itself, its
// keys and their items.
func compacted(shape []string) []string {
	return slices.DeleteFunc(slices.Clone(shape), func(line string) bool {
		if strings.HasSuffix(line, " type string") {
			return true
		}
		path, _, isRequired := strings.Cut(line, " required ")
		return isRequired && strings.Count(strings.TrimSuffix(path, "[]"), ".") > 1
	})
}

// TestEvaluateSchemaIsTheDocumentSchema: deliberation_evaluate's input
// schema in tools/list is the evaluation document's JSON Schema, generated
// from its one file: every field, every enum and every required key of
// the file, nothing else, without $ref or descriptions (the resource keeps
// those, self-contained). The documentation's examples pass it, and a
// wrong value is refused by it. (It was {"type": "object"}: an agent had
// to read the 21 KB resource to send anything.)
func TestEvaluateSchemaIsTheDocumentSchema(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir()})
	compact := evaluateInput(t, cs)

	var full map[string]any
	if err := json.Unmarshal(deliberation.EvaluationSchema(), &full); err != nil {
		t.Fatal(err)
	}
	want, got := compacted(shape(t, full, full["$defs"].(map[string]any))), shape(t, compact, nil)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the tool's schema is not the file's (-file +tool):\n%s", diff)
	}
	raw, _ := json.Marshal(compact)
	for _, kw := range []string{`"$ref"`, `"$defs"`, `"description"`, `"$schema"`} {
		if strings.Contains(string(raw), kw) {
			t.Errorf("the tool's schema has %s: %s", kw, raw)
		}
	}
	if compact["type"] != "object" {
		t.Errorf("the evaluation argument's type is %v, want object", compact["type"])
	}
	t.Logf("the evaluation argument is %d bytes in tools/list (the resource: %d)", len(raw), len(deliberation.EvaluationSchema()))

	// The resource is the file itself, and stands alone: MCP serves no docs.
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "elicit://schema/evaluation"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Contents[0].Text
	if text != string(deliberation.EvaluationSchema()) {
		t.Error("the resource is not the evaluation schema file")
	}
	if strings.Contains(text, "docs/") || strings.Contains(text, ".md") {
		t.Errorf("the resource points to a page MCP does not serve: %s", regexp.MustCompile(`[^"]*(docs/|\.md)[^"]*`).FindString(text))
	}

	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := regexp.MustCompile("(?s)<!-- (?:verdict|evaluation) example: [a-z0-9 ]+ -->\n```json\n(.*?)```").FindAllSubmatch(page, -1)
	if len(examples) < 10 {
		t.Fatalf("only %d examples in docs/deliberation.md", len(examples))
	}
	for _, ex := range examples {
		var doc map[string]any
		if err := json.Unmarshal(ex[1], &doc); err != nil {
			t.Fatalf("%s: %v", ex[1], err)
		}
		if err := resolved.Validate(doc); err != nil {
			t.Errorf("the tool's schema refuses a documented example: %v\n%s", err, ex[1])
		}
	}
	for _, bad := range []string{
		`{"iteration": 1, "response": "maybe"}`,
		`{"iteration": 1}`,
		`{"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "won"}]}`,
		`{"iteration": 1, "response": "valid", "points": [{"text": "x"}]}`,
	} {
		var doc map[string]any
		json.Unmarshal([]byte(bad), &doc)
		if resolved.Validate(doc) == nil {
			t.Errorf("the tool's schema accepts %s", bad)
		}
	}
}

// TestCompactSchemaProblems: a $ref the compaction cannot resolve is an
// error, never a panic or a silently partial schema.
func TestCompactSchemaProblems(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{`{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}`, `$ref "#/$defs/missing" is not one of its $defs`},
		{`{"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}}`, `$ref "other.json#/x" is not one of its $defs`},
		{`{"$defs": {"a": {"properties": {"b": {"$ref": "#/$defs/a"}}}}, "properties": {"a": {"$ref": "#/$defs/a"}}}`, "a $ref cycle"},
		{`[1, 2`, "the evaluation schema: unexpected end of JSON input"},
	} {
		if _, err := compactSchema([]byte(tt.doc)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("compactSchema(%s) = %v, want %q", tt.doc, err, tt.want)
		}
	}
	// A property named like a keyword is a name, kept.
	got, err := compactSchema([]byte(`{"type": "object", "properties": {"description": {"type": "integer", "description": "d"}}}`))
	if err != nil || !cmp.Equal(got, obj{"type": "object", "properties": obj{"description": obj{"type": "integer"}}}) {
		t.Errorf("got %v, %v", got, err)
	}
}
