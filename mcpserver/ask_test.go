package mcpserver

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitingClient answers every elicitation with result and records the
// requests it saw.
func elicitingClient(result *mcp.ElicitResult, seen *[]*mcp.ElicitParams) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		*seen = append(*seen, r.Params)
		return result, nil
	}}
}

func TestAsk(t *testing.T) {
	six := readForm(t, "six")
	accept := map[string]any{"track": "beta", "platforms": []any{"linux", "macos"}, "notify": false, "budget": 8.0, "ship_date": "2026-12-01"}
	tests := []struct {
		name   string
		client func(*[]*mcp.ElicitParams) *mcp.ClientOptions
		want   map[string]any
		asked  bool
	}{
		{"accept", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return elicitingClient(&mcp.ElicitResult{Action: "accept", Content: accept}, s)
		}, map[string]any{"success": true, "action": "accept", "responses": map[string]any{
			"track": "beta", "platforms": []any{"linux", "macos"}, "notify": "No", "budget": 8.0, "ship_date": "2026-12-01"}}, true},
		{"accept invalid content", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			bad := map[string]any{"track": "beta", "platforms": []any{"linux", "linux"}, "budget": 8.0, "ship_date": "2026-02-30"}
			return elicitingClient(&mcp.ElicitResult{Action: "accept", Content: bad}, s)
		}, map[string]any{"success": false, "action": "accept", "problems": []any{
			`answers.platforms: "linux" chosen more than once`, `answers.ship_date: "2026-02-30" is not a real calendar date`},
			"kept": map[string]any{"track": "beta", "budget": 8.0, "notify": "Yes"}}, true},
		{"decline", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return elicitingClient(&mcp.ElicitResult{Action: "decline"}, s)
		}, map[string]any{"success": false, "action": "decline", "fallback": "ask"}, true},
		{"cancel", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return elicitingClient(&mcp.ElicitResult{Action: "cancel"}, s)
		}, map[string]any{"success": false, "action": "cancel", "fallback": "ask"}, true},
		{"client error", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				*s = append(*s, r.Params)
				return nil, errors.New("boom")
			}}
		}, map[string]any{"success": false, "action": "error", "fallback": "ask"}, true},
		{"no capability", func(*[]*mcp.ElicitParams) *mcp.ClientOptions { return nil },
			map[string]any{"success": false, "action": "unsupported"}, false},
	}
	for _, v := range protocols {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				if tt.name == "client error" && v >= "2026-07-28" {
					t.Skip("on 2026-07-28 the client fulfils the input request itself: its handler's error stays in the client")
				}
				var seen []*mcp.ElicitParams
				cs := connect(t, v, tt.client(&seen))
				got, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": six, "message": "Plan the release"})
				if isErr != (tt.name == "accept invalid content") { // answers with problems are an error
					t.Fatalf("tool error %v: %v", isErr, got)
				}
				for k, want := range tt.want {
					if diff := cmp.Diff(want, got[k]); diff != "" {
						t.Errorf("%s (-want +got):\n%s", k, diff)
					}
				}
				if tt.asked != (len(seen) == 1) {
					t.Fatalf("client saw %d elicitations", len(seen))
				}
				if tt.asked && seen[0].Message != "Plan the release" {
					t.Errorf("message = %q", seen[0].Message)
				}
				if tt.name != "accept" && !strings.HasPrefix(tt.name, "accept") {
					// Nothing answered: the AskUserQuestion fallback, the
					// markdown follow-up for the rest, and a hint.
					if aq, _ := got["ask_user_question"].([]any); len(aq) == 0 || got["markdown_followup"] == nil {
						t.Errorf("no fallback in %v", got)
					}
					if hint, _ := got["hint"].(string); !strings.Contains(hint, "elicitation_collect_response") {
						t.Errorf("hint = %q", hint)
					}
				}
				if tt.asked && tt.name != "client error" && !strings.HasPrefix(tt.name, "accept") && !strings.Contains(got["hint"].(string), "faster than anyone reads a form") {
					t.Errorf("an instant %s is not called out: %q", tt.name, got["hint"])
				}
				if hint, _ := got["hint"].(string); tt.name == "client error" && !strings.HasPrefix(hint, `The client's dialog failed ("boom")`) {
					t.Errorf("hint = %q, want the client's error", hint)
				}
				if tt.name == "accept" && !strings.HasPrefix(got["response_id"].(string), "resp-") {
					t.Errorf("response_id = %v", got["response_id"])
				}
			})
		}
	}
}

// TestAskOutOfSchema: accepted content that breaks the requested schema
// (an option not in the enum, a number over the maximum) is collect's to
// judge like any other, so the caller gets the documented result with
// every problem by field path, not a bare protocol error. The Go client
// checks the schema itself before it answers, so this client answers
// elicitation/create in a middleware, as a client that does not check
// (the TypeScript SDK's) does; on the multi-round-trip protocol the
// client answers in its own retry loop, where a middleware cannot.
func TestAskOutOfSchema(t *testing.T) {
	six := readForm(t, "six")
	bad := map[string]any{"track": "zzz", "platforms": []any{"linux"}, "budget": 500.0, "ship_date": "2026-12-01"}
	for _, v := range protocols[1:] {
		t.Run(v, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, elicitingClient(&mcp.ElicitResult{Action: "decline"}, new([]*mcp.ElicitParams)))
			c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					if method == "elicitation/create" {
						return &mcp.ElicitResult{Action: "accept", Content: bad}, nil
					}
					return next(ctx, method, req)
				}
			})
			ctx := context.Background()
			ct, st := mcp.NewInMemoryTransports()
			ss, err := New(&Options{Version: "test", Project: t.TempDir()}).Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			// An accept with bad values is an error result: what holds is
			// kept, the rest re-asked in the fallback surface, and collect
			// continues from there with just the new answers.
			got, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": six})
			want := []any{`answers.track: "zzz" is not one of the options ("stable", "beta", "nightly")`, `answers.budget: 500 is above the maximum 40`}
			if diff := cmp.Diff(want, got["problems"]); !isErr || diff != "" {
				t.Errorf("isError %v, problems (-want +got):\n%s", isErr, diff)
			}
			if diff := cmp.Diff(map[string]any{"platforms": []any{"linux"}, "ship_date": "2026-12-01"}, got["kept"]); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			reask, _ := got["reask"].(map[string]any)
			if reask == nil || reask["surface"] != "ask" || cmp.Diff([]any{"track", "budget"}, reask["field_ids"]) != "" {
				t.Errorf("re-ask = %v", got["reask"])
			}
			got, isErr = call(t, cs, "elicitation_collect_response", map[string]any{"continue": got["collect_id"],
				"answers": map[string]any{"track": "beta", "budget": 30}})
			if r, _ := got["responses"].(map[string]any); isErr || r["platforms"] == nil || r["track"] != "beta" {
				t.Errorf("continued collect = %v", got)
			}
		})
	}
}

func TestAskBadArguments(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	got, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": map[string]any{"title": "T"}, "message": 3})
	want := []any{"form.fields: missing (a form needs a list of 1 or more fields)", "message: must be a string"}
	if !isErr || !cmp.Equal(want, got["problems"]) {
		t.Errorf("got %v, want problems %v", got, want)
	}
}

// TestAskHostProfiles: the hosts measured to dismiss form requests unseen
// get the fallback without a request; later versions are asked.
func TestAskHostProfiles(t *testing.T) {
	six := readForm(t, "six")
	tests := []struct {
		client, version string
		asked           bool
		fallback        string
	}{
		{"claude-code", "2.1.332", false, "ask"},
		{"codex-mcp-client", "0.171.0", false, "codex"},
		{"claude-code", "2.2.0", true, "ask"},
		{"codex-mcp-client", "0.200.1", true, "codex"},
	}
	for _, v := range protocols {
		for _, tt := range tests {
			t.Run(v+"/"+tt.client+"@"+tt.version, func(t *testing.T) {
				var seen []*mcp.ElicitParams
				cs := dial(t, New(&Options{Version: "test", Project: t.TempDir()}), v,
					elicitingClient(&mcp.ElicitResult{Action: "decline"}, &seen), &mcp.Implementation{Name: tt.client, Version: tt.version})
				got, _ := call(t, cs, "elicitation_ask", map[string]any{"form": six})
				if tt.asked != (len(seen) == 1) {
					t.Fatalf("client saw %d elicitations, want asked=%t", len(seen), tt.asked)
				}
				if got["fallback"] != tt.fallback || got["host"] != tt.client+" "+tt.version {
					t.Errorf("fallback %v, host %v", got["fallback"], got["host"])
				}
				hint, _ := got["hint"].(string)
				if !tt.asked && (got["action"] != "unsupported" || !strings.Contains(hint, "without showing anything")) {
					t.Errorf("action %v, hint %q", got["action"], hint)
				}
				switch tt.fallback {
				case "codex":
					if got["request_user_input"] == nil || got["markdown"] == nil {
						t.Errorf("no Codex fallback in %v", got)
					}
				case "ask":
					if got["ask_user_question"] == nil {
						t.Errorf("no AskUserQuestion fallback in %v", got)
					}
				}
			})
		}
	}
}

// TestCollectReply: elicitation_collect_response merges AskUserQuestion's
// output (answers) with a markdown reply (reply); a failure carries the
// re-ask of exactly the failing fields.
func TestCollectReply(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	contract := map[string]any{"template": "session-contract", "slots": map[string]any{"project": "demo"}}
	with := func(extra map[string]any) map[string]any {
		out := maps.Clone(contract)
		maps.Copy(out, extra)
		return out
	}
	output := map[string]any{"questions": []any{}, "answers": map[string]any{
		"What kind of session is this for demo?": "Fix what is broken", "How much effort may it take at most?": "2 hours"}}
	got, isErr := call(t, cs, "elicitation_collect_response", with(map[string]any{"answers": output,
		"reply": "outcome: a tagged release\ndone_when:\nmake test passes"}))
	want := map[string]any{"mode": "Fix what is broken", "effort_cap": "2 hours", "outcome": "a tagged release", "done_when": "make test passes"}
	if isErr || !cmp.Equal(want, got["responses"]) || got["template_id"] != "session-contract" {
		t.Fatalf("got %v", got)
	}
	got, isErr = call(t, cs, "elicitation_collect_response", with(map[string]any{"reply": "mode: 9\noutcome: x\ndone_when: y"}))
	reask, _ := got["reask"].(map[string]any)
	if !isErr || got["success"] != false || reask == nil || !cmp.Equal([]any{"mode"}, reask["field_ids"]) {
		t.Fatalf("got %v", got)
	}
	if md, _ := reask["markdown"].(string); !strings.Contains(md, "`mode`") || strings.Contains(md, "`outcome`") {
		t.Errorf("re-ask markdown:\n%s", md)
	}
}

func TestRenderSurfaces(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	contract := map[string]any{"template": "session-contract", "slots": map[string]any{"project": "demo"}}
	for surface, key := range map[string]string{"markdown": "markdown", "codex": "request_user_input", "ask": "ask_user_question"} {
		args := map[string]any{"surface": surface}
		for k, v := range contract {
			args[k] = v
		}
		got, isErr := call(t, cs, "elicitation_render_form", args)
		if isErr || got["success"] != true || got[key] == nil || got["surface"] == nil {
			t.Errorf("%s: got %v", surface, got)
		}
	}
	got, isErr := call(t, cs, "elicitation_render_form", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}, "surface": "widgetz"})
	if !isErr || !cmp.Equal([]any{`surface: "widgetz" is not a surface render_form produces (ask, markdown, codex)`}, got["problems"]) {
		t.Errorf("got %v", got)
	}
	// A missing slot tells an MCP caller how to give it over MCP.
	got, isErr = call(t, cs, "elicitation_render_form", map[string]any{"template": "session-contract"})
	probs, _ := got["problems"].([]any)
	if !isErr || len(probs) != 1 || !strings.Contains(probs[0].(string), `"slots": {"project": "VALUE"}`) {
		t.Errorf("missing slot: got %v", got)
	}
}

// TestCollectReplyAsGiven: reply takes text as the agent got it, read as
// `elicit form collect` reads a file: the widget's chat message (its
// fenced block, or the bare JSON line), and the sentence Claude Code shows
// the model after AskUserQuestion.
func TestCollectReplyAsGiven(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	scope := readForm(t, "scope")
	got, _ := call(t, cs, "elicitation_render_widget", map[string]any{"form": scope})
	html, _ := got["html"].(string)
	_, rest, _ := strings.Cut(html, `data-form="`)
	id, _, _ := strings.Cut(rest, `"`)
	if id == "" {
		t.Fatalf("no data-form in %.200s", html)
	}
	postback := `{"__elicitation_response__":true,"form_id":"` + id + `","title":"Scope this work","answers":{"goal":"Refactor","focus":["correctness","tests"]}}`
	want := map[string]any{"goal": "Refactor", "focus": []any{"correctness", "tests"}}
	for name, reply := range map[string]string{
		"message":                "I answered the form.\n\n```json\n" + postback + "\n```",
		"fenced block":           "```json\n" + postback + "\n```",
		"bare JSON":              postback,
		"AskUserQuestion's text": `Your questions have been answered: "What are you trying to accomplish?"="Refactor", "Which areas matter here?"="correctness, tests". You can now continue with these answers in mind.`,
	} {
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": scope, "reply": reply})
		if isErr || !cmp.Equal(want, got["responses"]) {
			t.Errorf("%s: got %v", name, got)
		}
	}
}

// TestAskAnswerCap: a dialog's answers over 1 MiB are refused as collect
// refuses them, in the same words, and nothing is kept to continue from
// (a 3 MiB answer used to be read, and kept in part).
func TestAskAnswerCap(t *testing.T) {
	f := map[string]any{"title": "Notes", "fields": []any{map[string]any{"id": "notes", "text": "Anything else?", "type": "textarea"}}}
	big := strings.Repeat("x", 3<<20)
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			var seen []*mcp.ElicitParams
			cs := connect(t, v, elicitingClient(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"notes": big}}, &seen))
			got, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": f})
			want := []any{"answers: 3145740 bytes, over the 1 MiB limit (1048576 bytes)"}
			if !isErr || !cmp.Equal(got["problems"], want) || got["collect_id"] != nil || got["success"] != false {
				t.Errorf("got error %v, problems %v, collect_id %v; want %v and nothing kept", isErr, got["problems"], got["collect_id"], want)
			}
			collected, _ := call(t, cs, "elicitation_collect_response", map[string]any{"form": f, "answers": map[string]any{"notes": big}})
			if p, _ := collected["problems"].([]any); len(p) != 1 || !strings.HasSuffix(p[0].(string), " bytes, over the 1 MiB limit (1048576 bytes)") {
				t.Errorf("collect: %v; want the same words", collected["problems"])
			}
		})
	}
}
