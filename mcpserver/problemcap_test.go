package mcpserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
)

// TestEveryResultCapsItsProblems: however many problems a megabyte of
// input has, a tool result lists problem.Max of them and ends with how many
// more there were, and stays a small multiple of what it shows.
func TestEveryResultCapsItsProblems(t *testing.T) {
	t.Parallel()
	f := map[string]any{"title": "T", "fields": []any{
		map[string]any{"id": "a", "text": "A?", "type": "text_input"},
		map[string]any{"id": "b", "text": "B?", "type": "single_select", "options": []string{"x", "y"}},
	}}
	// Under the 1 MiB cap on arguments, with room for the rest.
	fill := func(line func(i int) string) string {
		var b strings.Builder
		for i := 0; b.Len() < 900_000; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	unknown := map[string]any{}
	for i := 0; len(unknown) < 60_000; i++ {
		unknown[fmt.Sprintf("k%d", i)] = 1
	}
	badFields := []any{}
	for i := range 20_000 {
		badFields = append(badFields, map[string]any{"id": fmt.Sprintf("f%d", i), "type": "nope"})
	}
	tests := []struct {
		name string
		tool string
		args map[string]any
	}{
		{name: "a reply that answers one field again and again", tool: "elicitation_collect_response",
			args: map[string]any{"form": f, "reply": fill(func(i int) string { return fmt.Sprintf("b: nope%d\n", i) })}},
		{name: "a reply of unknown ids", tool: "elicitation_collect_response",
			args: map[string]any{"form": f, "reply": fill(func(i int) string { return fmt.Sprintf("zz%d: hello\n", i) })}},
		{name: "answers of unknown ids", tool: "elicitation_collect_response", args: map[string]any{"form": f, "answers": unknown}},
		{name: "unknown arguments", tool: "elicitation_render_form", args: unknown},
		{name: "a form of bad fields", tool: "elicitation_render_form", args: map[string]any{"form": map[string]any{"title": "T", "fields": badFields}}},
	}
	more := regexp.MustCompile(`^… and (\d+) more problems \(fix the ones above and check again\)$`)
	cs := connect(t, protocols[0], nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, _ := json.Marshal(tt.args)
			if len(data) > maxArguments {
				t.Fatalf("arguments of %d bytes, over the cap", len(data))
			}
			got, text, isErr := callRaw(t, cs, tt.tool, tt.args)
			probs, _ := got["problems"].([]any)
			if !isErr || len(probs) != problem.Max+1 {
				t.Fatalf("error %v, %d problems; want %d and how many more", isErr, len(probs), problem.Max+1)
			}
			m := more.FindStringSubmatch(probs[problem.Max].(string))
			if n, _ := strconv.Atoi(m[min(1, len(m)-1)]); m == nil || n < 1 {
				t.Errorf("last problem %q", probs[problem.Max])
			}
			if len(text) > 512<<10 {
				t.Errorf("a result of %d bytes for %d bytes of arguments", len(text), len(data))
			}
		})
	}
}
