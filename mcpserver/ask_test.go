package mcpserver

import (
	"context"
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
			`answers.platforms: "linux" chosen more than once`, `answers.ship_date: "2026-02-30" is not a real calendar date`}}, true},
		{"decline", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return elicitingClient(&mcp.ElicitResult{Action: "decline"}, s)
		}, map[string]any{"success": false, "action": "decline"}, true},
		{"cancel", func(s *[]*mcp.ElicitParams) *mcp.ClientOptions {
			return elicitingClient(&mcp.ElicitResult{Action: "cancel"}, s)
		}, map[string]any{"success": false, "action": "cancel"}, true},
		{"no capability", func(*[]*mcp.ElicitParams) *mcp.ClientOptions { return nil },
			map[string]any{"success": false, "action": "unsupported"}, false},
	}
	for _, v := range protocols {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				var seen []*mcp.ElicitParams
				cs := connect(t, v, tt.client(&seen))
				got, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": six, "message": "Plan the release"})
				if isErr {
					t.Fatalf("tool error: %v", got)
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
				if !tt.asked && len(got["ask_user_question"].([]any)) == 0 {
					t.Error("the unsupported answer must carry the AskUserQuestion fallback")
				}
				if tt.name == "accept" && !strings.HasPrefix(got["response_id"].(string), "resp-") {
					t.Errorf("response_id = %v", got["response_id"])
				}
			})
		}
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
