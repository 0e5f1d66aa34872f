package hosts

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// messagesStub is a scripted Anthropic Messages API server for the real
// Claude Code: it answers POST /v1/messages, streaming Server-Sent Events as
// the real API does (message_start, content_block_start/delta/stop,
// message_delta, message_stop) or one JSON message, with a reply chosen by
// a function of the request, and records every request.
type messagesStub struct {
	URL   string
	reply func(messagesRequest) stubReply
	srv   *http.Server

	mu       sync.Mutex
	requests []messagesRequest
}

// messagesRequest is what Claude Code sent.
type messagesRequest struct {
	Model    string
	Stream   bool
	Tools    []string
	System   string
	Messages []json.RawMessage
	Raw      json.RawMessage
}

// toolResult returns the text of the tool_result block answering id.
func (r messagesRequest) toolResult(id string) (string, bool) {
	for _, m := range r.Messages {
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m, &msg)
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == id {
				var s string
				if json.Unmarshal(b.Content, &s) == nil {
					return s, true
				}
				var parts []struct{ Text string }
				json.Unmarshal(b.Content, &parts)
				var sb strings.Builder
				for _, p := range parts {
					sb.WriteString(p.Text)
				}
				return sb.String(), true
			}
		}
	}
	return "", false
}

// stubReply is one assistant turn: text, or a tool call.
type stubReply struct {
	Text      string
	ToolUseID string
	ToolName  string
	ToolInput string // a JSON object
}

func startMessagesStub(t *testing.T, reply func(messagesRequest) stubReply) *messagesStub {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &messagesStub{URL: "http://" + ln.Addr().String(), reply: reply}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *messagesStub) Requests() []messagesRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]messagesRequest(nil), s.requests...)
}

func (s *messagesStub) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var body struct {
		Model    string            `json:"model"`
		Stream   bool              `json:"stream"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(raw, &body)
	req := messagesRequest{Model: body.Model, Stream: body.Stream, System: string(body.System), Messages: body.Messages, Raw: raw}
	for _, tool := range body.Tools {
		req.Tools = append(req.Tools, tool.Name)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	rep := s.reply(req)

	block := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": rep.Text}
	final := map[string]any{"type": "text", "text": rep.Text}
	stop := "end_turn"
	if rep.ToolName != "" {
		block = map[string]any{"type": "tool_use", "id": rep.ToolUseID, "name": rep.ToolName, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": rep.ToolInput}
		var input any
		json.Unmarshal([]byte(rep.ToolInput), &input)
		final = map[string]any{"type": "tool_use", "id": rep.ToolUseID, "name": rep.ToolName, "input": input}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	msg := map[string]any{"id": fmt.Sprintf("msg_%d", len(s.Requests())), "type": "message", "role": "assistant", "model": body.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}
	w.Header().Set("request-id", "req_stub")
	if !body.Stream {
		msg["content"], msg["stop_reason"] = []any{final}, stop
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	events := []map[string]any{
		{"type": "message_start", "message": msg},
		{"type": "content_block_start", "index": 0, "content_block": block},
		{"type": "content_block_delta", "index": 0, "delta": delta},
		{"type": "content_block_stop", "index": 0},
		{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}},
		{"type": "message_stop"},
	}
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
		w.(http.Flusher).Flush()
	}
}
