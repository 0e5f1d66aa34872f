package relay

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{name: "points and challenges",
			in: `{"points":[{"text":"Honour Retry-After","label":"EVIDENCE","support":"client.py:88 parses it"},{"text":"Retry 5\ntimes","label":"GUESS","support":"common default"}],
			      "challenges":[{"id":"C1","stance":"defend","argument":"5 bounds the wait"},{"id":"C2","stance":"concede","argument":"the cap is arbitrary"}]}`,
			want: "1. Honour Retry-After EVIDENCE: client.py:88 parses it\n2. Retry 5 times GUESS: common default\n\nRe C1: I defend C1. 5 bounds the wait\nRe C2: I concede C2. the cap is arbitrary\n", ok: true},
		{name: "plain text stays", in: "1. A point. GUESS.", want: "1. A point. GUESS."},
		{name: "other JSON stays", in: `{"answer": 1}`, want: `{"answer": 1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := render(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("render = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestAnswerSchemaIsStrict checks what OpenAI's strict structured outputs
// require: every object closes its properties and requires them all.
func TestAnswerSchemaIsStrict(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(AnswerSchema, &schema); err != nil {
		t.Fatal(err)
	}
	var check func(path string, s map[string]any)
	check = func(path string, s map[string]any) {
		if s["type"] == "object" {
			props, _ := s["properties"].(map[string]any)
			var req []string
			for _, r := range s["required"].([]any) {
				req = append(req, r.(string))
			}
			for name, p := range props {
				if !slices.Contains(req, name) {
					t.Errorf("%s.%s is not required", path, name)
				}
				check(path+"."+name, p.(map[string]any))
			}
			if s["additionalProperties"] != false {
				t.Errorf("%s allows additional properties", path)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			check(path+"[]", items)
		}
	}
	check("$", schema)
}

func TestSendStructured(t *testing.T) {
	answer := `{"points":[{"text":"Honour Retry-After","label":"EVIDENCE","support":"client.py:88"}],"challenges":[]}`
	sc := &consult.Scripted{Schemas: true, Replies: []consult.ScriptedReply{reply("t1", answer, 1, 1)}}
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, _ := st.Start("Should the importer retry on HTTP 429?", nil)
	r, err := Send(context.Background(), st, id, sc, &Options{Structured: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Answer != "1. Honour Retry-After EVIDENCE: client.py:88\n" || string(sc.Calls()[0].Request.Schema) != string(AnswerSchema) {
		t.Errorf("answer %q, schema sent %v", r.Answer, sc.Calls()[0].Request.Schema != nil)
	}
	s, _ := st.Load(id)
	if s.Responses[0].Text != r.Answer {
		t.Errorf("recorded %q", s.Responses[0].Text)
	}

	plain := &consult.Scripted{}
	_, err = Send(context.Background(), st, id, plain, &Options{Structured: true})
	if err == nil || !strings.Contains(err.Error(), "consultant scripted cannot be held to a response schema") {
		t.Errorf("err = %v", err)
	}
}
