// Package codexstub is a scripted OpenAI Responses-API server for testing
// the real codex CLI offline: codex POSTs /v1/responses with stream: true
// and reads Server-Sent Events; the stub answers each request with a reply
// chosen by a function of the request and records every request.
package codexstub

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// KeyEnv is the environment variable the stub's provider reads its key from.
const KeyEnv = "ELICIT_STUB_KEY"

// Message is one text message of a request's input.
type Message struct {
	Role string
	Text string
}

// Request is what codex sent.
type Request struct {
	Model    string
	Stream   bool
	Messages []Message
	// Metadata is codex's x-codex-turn-metadata header (sandbox_mode,
	// reasoning_effort, model, ...).
	Metadata string
	// Tools are the names of the functions offered to the model (codex's
	// MCP tools among them).
	Tools []string
	// Outputs are the function-call results sent back, by call id.
	Outputs map[string]string
	Raw     json.RawMessage
}

// Said reports whether a message with the role contains text.
func (r Request) Said(role, text string) bool {
	for _, m := range r.Messages {
		if m.Role == role && strings.Contains(m.Text, text) {
			return true
		}
	}
	return false
}

// LastUser is the text of the last user message.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text
		}
	}
	return ""
}

// Reply is how the stub answers one request.
type Reply struct {
	// Text is the assistant message.
	Text string
	// Status, when not 0 or 200, is an HTTP error with Text as its message.
	Status int
	// Hang holds the connection open without an event until the server
	// closes.
	Hang bool
	// InputTokens and OutputTokens are reported in usage.
	InputTokens, OutputTokens int
	// Call, when set, makes the reply a function call instead of a message:
	// codex runs the tool and sends its output in the next request.
	Call *Call
}

// Call is a function call the model asks codex to make. codex offers an
// MCP server's tools as the functions of a namespace (mcp__SERVER).
type Call struct {
	ID, Namespace, Name string
	Arguments           string // a JSON object
}

// Server is a running stub.
type Server struct {
	URL   string
	srv   *http.Server
	ln    net.Listener
	reply func(Request) Reply
	done  chan struct{}

	mu       sync.Mutex
	requests []Request
}

// Start starts a stub on a loopback port.
func Start(reply func(Request) Reply) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1", ln: ln, reply: reply, done: make(chan struct{})}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the stub, ending hanging replies.
func (s *Server) Close() {
	close(s.done)
	s.srv.Close()
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Home writes a CODEX_HOME folder whose config.toml names the stub as the
// model provider, and returns the environment entries codex needs.
func (s *Server) Home(dir string) ([]string, error) {
	cfg := fmt.Sprintf(`model = "stub-model"
model_provider = "stub"

[model_providers.stub]
name = "stub"
base_url = %q
wire_api = "responses"
env_key = %q
`, s.URL, KeyEnv)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	return []string{"CODEX_HOME=" + dir, KeyEnv + "=stub-key-not-secret"}, nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	req, err := decode(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Metadata = r.Header.Get("x-codex-turn-metadata")
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	rep := s.reply(req)
	switch {
	case rep.Status != 0 && rep.Status != http.StatusOK:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": rep.Text, "type": "invalid_request_error"}})
	case rep.Hang:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-s.done:
		case <-r.Context().Done():
		}
	default:
		stream(w, rep)
	}
}

func decode(r *http.Request) (Request, error) {
	var body struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Input []struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			CallID  string          `json:"call_id"`
			Output  json.RawMessage `json:"output"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"input"`
	}
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		return Request{}, err
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return Request{}, err
	}
	req := Request{Model: body.Model, Stream: body.Stream, Raw: raw, Outputs: map[string]string{}}
	for _, t := range body.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	for _, in := range body.Input {
		if in.Type == "function_call_output" {
			req.Outputs[in.CallID] = outputText(in.Output)
		}
		if in.Type != "message" {
			continue
		}
		var text strings.Builder
		for _, c := range in.Content {
			text.WriteString(c.Text)
		}
		req.Messages = append(req.Messages, Message{Role: in.Role, Text: text.String()})
	}
	return req, nil
}

// outputText is a function_call_output's output: a string, or the text of
// its content items.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &items)
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.Text)
	}
	return b.String()
}

// stream writes the Server-Sent Events of one assistant message, or of one
// function call.
func stream(w http.ResponseWriter, rep Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_1",
		"content": []any{map[string]any{"type": "output_text", "text": rep.Text}}}
	middle := []map[string]any{
		{"type": "response.output_item.added", "output_index": 0, "item": map[string]any{"type": "message", "role": "assistant", "id": "msg_1", "content": []any{}}},
		{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": "msg_1", "delta": rep.Text},
		{"type": "response.output_item.done", "output_index": 0, "item": item},
	}
	if c := rep.Call; c != nil {
		call := func(args string) map[string]any {
			fc := map[string]any{"type": "function_call", "id": "fc_" + c.ID, "call_id": c.ID, "name": c.Name, "arguments": args, "status": "completed"}
			if c.Namespace != "" {
				fc["namespace"] = c.Namespace
			}
			return fc
		}
		middle = []map[string]any{
			{"type": "response.output_item.added", "output_index": 0, "item": call("")},
			{"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_" + c.ID, "delta": c.Arguments},
			{"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_" + c.ID, "arguments": c.Arguments},
			{"type": "response.output_item.done", "output_index": 0, "item": call(c.Arguments)},
		}
	}
	events := []map[string]any{{"type": "response.created", "response": map[string]any{"id": "resp_1"}}}
	events = append(events, middle...)
	events = append(events, []map[string]any{
		{"type": "response.completed", "response": map[string]any{"id": "resp_1", "usage": map[string]any{
			"input_tokens": rep.InputTokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": rep.OutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": rep.InputTokens + rep.OutputTokens}}},
	}...)
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
		w.(http.Flusher).Flush()
	}
}

// FindCodex returns the codex installed by `npm ci` in e2e/node, searching
// from dir upward, or "" when it is not installed.
func FindCodex(dir string) string {
	for {
		p := filepath.Join(dir, "e2e", "node", "node_modules", ".bin", "codex")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Locate returns the codex binary for end-to-end tests: $ELICIT_E2E_CODEX_BIN,
// else the one `npm ci` installs in e2e/node above the working directory, or
// "". Required reports ELICIT_E2E_CODEX=1: a missing codex is then a failure,
// not a reason to skip.
func Locate() (path string, required bool) {
	required = os.Getenv("ELICIT_E2E_CODEX") == "1"
	if p := os.Getenv("ELICIT_E2E_CODEX_BIN"); p != "" {
		return p, required
	}
	wd, _ := os.Getwd()
	return FindCodex(wd), required
}

// Require returns the codex binary for an end-to-end test, skips the test
// when there is none, and fails it instead when ELICIT_E2E_CODEX=1 demands
// the real CLI.
func Require(t testing.TB) string {
	t.Helper()
	path, required := Locate()
	if path == "" {
		if required {
			t.Fatal("ELICIT_E2E_CODEX=1 but the codex CLI is missing (run: cd e2e/node && npm ci)")
		}
		t.Skip(SkipMessage)
	}
	return path
}

// Serve starts a stub for the length of t, with codex's home in home, and
// returns it with the environment the real codex runs in against it
// (CleanEnv plus the stub's settings).
func Serve(t testing.TB, home string, reply func(Request) Reply) (*Server, []string) {
	t.Helper()
	stub, err := Start(reply)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stub.Close)
	env, err := stub.Home(home)
	if err != nil {
		t.Fatal(err)
	}
	return stub, append(CleanEnv(), env...)
}

// SkipMessage explains a skipped end-to-end test.
const SkipMessage = "the real codex CLI is not installed; run `cd e2e/node && npm ci` (make e2e does) to run the end-to-end tests with it"

// CleanEnv is the process environment without real codex credentials or
// home, for a codex pointed at the stub.
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CODEX_HOME", "OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL":
			continue
		}
		out = append(out, kv)
	}
	return out
}
