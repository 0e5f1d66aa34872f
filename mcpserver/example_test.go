package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/elicit/elicit/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A program serves elicit's tools from its own process: here to a client
// in the same process over go-sdk's in-memory transports (mcp.StdioTransport
// or mcp.NewStreamableHTTPHandler serve other processes). The client
// validates a person's answers to a form.
func Example() {
	ctx := context.Background()
	server := mcpserver.New(&mcpserver.Options{Version: "example"})
	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "my-agent", Version: "1.0"}, nil)
	cs, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	form := map[string]any{"title": "Scope", "fields": []any{map[string]any{
		"id": "goal", "text": "What is the goal?", "type": "single_select", "options": []any{"Fix a bug", "Refactor"}}}}
	for _, answers := range []map[string]any{{"goal": "Refactor"}, {"goal": "Rewrite"}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "elicitation_collect_response",
			Arguments: map[string]any{"form": form, "answers": answers}})
		if err != nil {
			log.Fatal(err)
		}
		var out struct {
			Responses map[string]any `json:"responses"`
			Problems  []string       `json:"problems"`
		}
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.IsError, out.Responses, out.Problems)
	}
	// Output:
	// false map[goal:Refactor] []
	// true map[] [answers.goal: "Rewrite" is not one of the options ("Fix a bug", "Refactor")]
}
