package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit/elicit/method"
)

// TestNumberArguments: every argument that sizes or times something takes
// a bounded whole number, and a number out of range is a problem naming the
// range, never a crash, a wrapped duration or a dropped budget. (A top of
// 1e11 ran the server out of memory; 9007199254740993 panicked in
// makeslice; max_time_seconds 1e13 wrapped round, 9.3e9 was dropped.)
func TestNumberArguments(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir()})
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Retry on 429?"})
	id := started["id"]
	all := len(method.Default().Methods)
	tests := []struct {
		name, tool string
		args       map[string]any
		problem    string // "" when the call succeeds
	}{
		{"top 1e11", "elicitation_select_methods", map[string]any{"phase": "forge:3", "title": "Architecture design", "top": int64(100000000000)}, ""},
		{"top 2^53+1", "elicitation_select_methods", map[string]any{"phase": "forge:3", "title": "Architecture design", "top": int64(9007199254740993)},
			"top: is 9007199254740993, want a whole number, 0 to 9007199254740991"},
		{"top 1e300", "elicitation_select_methods", map[string]any{"phase": "forge:3", "top": 1e300},
			"top: is 1e+300, want a whole number, 0 to 9007199254740991"},
		{"top 2.5", "elicitation_select_methods", map[string]any{"phase": "forge:3", "top": 2.5},
			"top: is 2.5, want a whole number, 0 to 9007199254740991"},
		{"top string", "elicitation_select_methods", map[string]any{"phase": "forge:3", "top": "5"},
			"top: must be a whole number, 0 to 9007199254740991"},
		{"per section huge top", "elicitation_select_methods", map[string]any{"phase": "forge:3", "title": "Architecture design", "top": int64(1) << 50, "per_section": true}, ""},
		{"tier huge", "elicitation_list_methods", map[string]any{"tier": 1e19},
			"tier: is 10000000000000000000, want a whole number, 0 to 2 (1 or 2; 0: every tier)"},
		{"ledger budget", "deliberation_start", map[string]any{"question": "q", "ledger_budget": 1e20},
			"ledger_budget: is 100000000000000000000, want a whole number, 0 to 9007199254740991"},
		{"max_time wraps", "deliberation_send", map[string]any{"id": id, "max_time_seconds": int64(10000000000000)},
			"max_time_seconds: is 10000000000000, want a whole number of seconds, 0 to 31536000 (at most 365 days)"},
		{"max_time dropped", "deliberation_send", map[string]any{"id": id, "max_time_seconds": int64(9300000000)},
			"max_time_seconds: is 9300000000, want a whole number of seconds, 0 to 31536000"},
		{"timeout", "deliberation_send", map[string]any{"id": id, "timeout_seconds": 31536001},
			"timeout_seconds: is 31536001, want a whole number of seconds, 0 to 31536000"},
		{"idle timeout", "deliberation_send", map[string]any{"id": id, "idle_timeout_seconds": -1},
			"idle_timeout_seconds: is -1, want a whole number of seconds, 0 to 31536000"},
		{"max tokens", "deliberation_send", map[string]any{"id": id, "max_tokens": 1e19},
			"max_tokens: is 10000000000000000000, want a whole number, 0 to 9007199254740991"},
		{"wait", "deliberation_wait", map[string]any{"id": id, "timeout_seconds": int64(1) << 62},
			"timeout_seconds: is 4611686018427387904, want a whole number of seconds, 1 to 50"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr := call(t, cs, tt.tool, tt.args)
			if tt.problem == "" {
				if isErr {
					t.Fatalf("%v", got)
				}
				if n := len(got["methods"].([]any)); n == 0 || n > all {
					t.Errorf("%d methods", n)
				}
				return
			}
			probs, _ := got["problems"].([]any)
			if !isErr || len(probs) != 1 || !strings.HasPrefix(probs[0].(string), tt.problem) {
				t.Errorf("got %v, want the one problem %q", got, tt.problem)
			}
		})
	}
}

// TestMethodByNumber: a method (or a cross-model run id) given as a number,
// as the Inspector CLI sends --tool-arg method=34, is the number's string.
func TestMethodByNumber(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test", Project: t.TempDir()})
	byString, _ := call(t, cs, "elicitation_inject_method", map[string]any{"method": "34"})
	got, isErr := call(t, cs, "elicitation_inject_method", map[string]any{"method": 34})
	if isErr || got["num"] != 34.0 || got["block"] != byString["block"] {
		t.Errorf("method 34: %v", got)
	}
	for _, tt := range []struct {
		v    any
		want string
	}{
		{3.5, `method: is 3.5, want a method's name or number (a string, or a whole number: 34 or "34")`},
		{true, `method: must be a method's name or number (a string, or a whole number: 34 or "34")`},
		{nil, `method: missing (a method's name or number (a string, or a whole number: 34 or "34") is required)`},
	} {
		got, isErr := call(t, cs, "elicitation_inject_method", map[string]any{"method": tt.v})
		if probs, _ := got["problems"].([]any); !isErr || len(probs) != 1 || probs[0] != tt.want {
			t.Errorf("method %v: %v, want %q", tt.v, got, tt.want)
		}
	}
	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": 34, "topic": "t", "section": "s", "id": 42})
	if raw, _ := json.Marshal(got); isErr || !strings.Contains(string(raw), "42") {
		t.Errorf("cross model with id 42: %s", raw)
	}
}

// TestDeepArguments: an argument nested past the parser's depth limit is
// named, with its depth and the limit, not called "not a JSON object".
func TestDeepArguments(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test"})
	var deep any = "Quick"
	for range 80 {
		deep = []any{deep}
	}
	got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}, "answers": map[string]any{"mode": deep}})
	want := "answers: nests arrays and objects 82 levels deep (counting the arguments object); at most 64 are allowed"
	if probs, _ := got["problems"].([]any); !isErr || len(probs) != 1 || probs[0] != want {
		t.Errorf("got %v, want %q", got, want)
	}
}
