package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioMatchesTheSDK sends the same requests to elicit's server as
// `elicit serve` runs it (stdioTransport) and to the same server framed
// by the SDK alone (its IOTransport), on every protocol version: the
// responses must say the same, with their members in the same order.
func TestStdioMatchesTheSDK(t *testing.T) {
	form := `{"title":"Ship <it> & go","fields":[{"id":"track","text":"Which track?","type":"single_select","options":["stable","beta"]},{"id":"n","text":"How many?","type":"number"}]}`
	calls := []string{
		`"method":"tools/list"`,
		`"method":"tools/call","params":{"name":"elicitation_render_form","arguments":{"form":` + form + `}}`,
		`"method":"tools/call","params":{"name":"elicitation_render_form","arguments":{"form":{"title":"x","fields":[]},"bogus":1}}`,
		`"method":"tools/call","params":{"name":"elicitation_collect_response","arguments":{"form":` + form + `,"answers":{"track":"gamma","n":"3"}}}`,
		`"method":"tools/call","params":{"name":"elicitation_list_templates","arguments":{}}`,
		`"method":"tools/call","params":{"name":"elicitation_select_methods","arguments":{"phase":"forge:3","title":"Pre-mortem of the cache"}}`,
		`"method":"tools/call","params":{"name":"elicitation_ask","arguments":{"form":` + form + `}}`,
		`"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}`,
		`"method":"ping"`,
	}
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			ours := startPipeServerAt(t, New(nil), elicitStdio, "", nil, version)
			sdk := startPipeServerAt(t, New(nil), sdkStdio, "", nil, version)
			for i, call := range calls {
				line := fmt.Sprintf(`{"jsonrpc":"2.0","id":"r%d",%s}`, i, call)
				ours.send(t, line)
				sdk.send(t, line)
				got, want := ours.line(t), sdk.line(t)
				sameJSON(t, call[:min(len(call), 60)], got, want)
			}
		})
	}
}

// sameJSON fails unless a and b decode to the same value with object
// members in the same order.
func sameJSON(t *testing.T, what string, a, b []byte) {
	t.Helper()
	var av, bv any
	if err := json.Unmarshal(a, &av); err != nil {
		t.Fatalf("%s: %v in %s", what, err, a)
	}
	if err := json.Unmarshal(b, &bv); err != nil {
		t.Fatalf("%s: %v in %s", what, err, b)
	}
	if !reflect.DeepEqual(av, bv) {
		t.Fatalf("%s:\n got %s\nwant %s", what, a, b)
	}
	an, _ := jsonnode.Parse(a)
	bn, _ := jsonnode.Parse(b)
	if ak, bk := keyOrder(&an), keyOrder(&bn); ak != bk {
		t.Fatalf("%s: member order\n got %s\nwant %s", what, ak, bk)
	}
}

func keyOrder(n *jsonnode.Node) string {
	var b strings.Builder
	for _, m := range n.Members {
		b.WriteString(m.Key + "{" + keyOrder(&m.Value) + "}")
	}
	for i := range n.Items {
		b.WriteString("[" + keyOrder(&n.Items[i]) + "]")
	}
	return b.String()
}

// frames reads the input as the SDK's transport would: its values, and
// the errors it answers as "error: " and the message, until it ends.
func frames(in *input) ([]string, error) {
	var got []string
	out := in.s.out.w.(*syncBuffer)
	for {
		written := len(out.String())
		data, err := in.next()
		switch {
		case err != nil:
			return got, err
		case data != nil:
			got = append(got, string(data))
		default:
			var e struct{ Error jsonrpc.Error }
			json.Unmarshal([]byte(out.String()[written:]), &e)
			got = append(got, "error: "+e.Error.Message)
		}
	}
}

// testInput reads text in chunks of 16 bytes (size, if more) with a limit
// of 64 bytes per message.
func testInput(text string, out *syncBuffer, size ...int) *input {
	return &input{r: bufio.NewReaderSize(strings.NewReader(text), max(16, slices.Max(append(size, 0)))), closer: io.NopCloser(nil), s: newSession(out, nil), limit: 64}
}

func TestStdioFrames(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
		size  int // of the chunks read, when not 16
	}{
		{"one per line", "{\"a\":1}\n{\"b\":2}\n", []string{`{"a":1}`, `{"b":2}`}, 0},
		{"CRLF and blank lines", "\r\n{\"a\":1}\r\n\n  \n{\"b\":2}", []string{`{"a":1}`, `{"b":2}`}, 0},
		{"a value over several lines", "{\"a\":\n [1,\n  2]}\n{\"s\":\"x\\\"}{\"}\n", []string{"{\"a\":\n [1,\n  2]}", `{"s":"x\"}{"}`}, 0},
		{"a newline escaped in a string", "{\"s\":\"a\\nb\"}\n", []string{`{"s":"a\nb"}`}, 0},
		{"an escape split across reads", "{\"s\":\"aaaaaaaaa\\\"]\"}\n{}\n", []string{`{"s":"aaaaaaaaa\"]"}`, `{}`}, 0},
		{"values back to back", "{\"a\":1}{\"b\":2} [3]\t{}\n", []string{`{"a":1}`, `{"b":2}`, `[3]`, `{}`}, 0},
		{"over the limit, then the next line", "{\"a\":\"" + strings.Repeat("x", 100) + "\"}\n{\"b\":1}\n", []string{"error: invalid request: a message over 64 bytes", `{"b":1}`}, 0},
		{"a bad line, then the next", "not json {\"a\":1}\n{\"b\":1}\n", []string{"error: parse error: invalid character 'o' in literal null (expecting 'u')", `{"b":1}`}, 0},
		{"unterminated at the end", "{\"a\":[1,", []string{"error: parse error: a message ends with a string, object or array left open: {\"a\":[1,"}, 0},
		{"left open before a whole message", "{\"a\":[1,\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", []string{
			"error: parse error: a message ends with a string, object or array left open: {\"a\":[1,", `{"jsonrpc":"2.0","id":1,"method":"ping"}`}, 64},
		{"left open before a line too long to judge whole", "{\"a\":[1,\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", []string{
			"error: parse error: a message ends with a string, object or array left open: {\"a\":[1,\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := frames(testInput(tt.input, &syncBuffer{}, tt.size))
			if !reflect.DeepEqual(got, tt.want) || err != io.EOF {
				t.Errorf("frames %q, then %v; want %q, then EOF", got, err, tt.want)
			}
		})
	}
}

// TestStdioBatches: protocols before 2025-06-18 allow JSON-RPC batches,
// answered by one array in the order of the calls, a notification among
// them or not; later ones refuse them with an error, and the session goes
// on.
func TestStdioBatches(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"elicitation_list_templates","arguments":{}}},` +
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":"p","method":"ping"}]`
	old := startPipeServerAt(t, New(nil), elicitStdio, "", nil, "2025-03-26")
	old.send(t, batch)
	var got []map[string]any
	if line := lineWithin(t, old); json.Unmarshal(line, &got) != nil || len(got) != 2 {
		t.Fatalf("batch answer %s, want an array of 2 responses", line)
	}
	if got[0]["id"] != float64(2) || got[1]["id"] != "p" || got[0]["result"] == nil {
		t.Errorf("batch answer %v, want the call's result then the ping's", got)
	}

	current := startPipeServerAt(t, New(nil), elicitStdio, "", nil, "2025-11-25")
	current.send(t, batch)
	if line := lineWithin(t, current); !strings.Contains(string(line), `"id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported in 2025-06-18 and later`) {
		t.Errorf("a batch on 2025-11-25 was answered %s, want an invalid-request error", line)
	}
	current.send(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if line := lineWithin(t, current); !strings.Contains(string(line), `"id":4,"result":{}`) {
		t.Errorf("after the refused batch, ping got %s", line)
	}
}

// lineWithin reads one line from p, failing if none comes within 10 s.
func lineWithin(t *testing.T, p *pipeServer) []byte {
	t.Helper()
	got := make(chan []byte, 1)
	go func() {
		line, _ := p.out.ReadBytes('\n')
		got <- line
	}()
	select {
	case line := <-got:
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("no answer within 10 s")
		return nil
	}
}

// TestStdioCloseUnblocksRead: closing the connection ends a Read waiting for
// input that never comes.
func TestStdioCloseUnblocksRead(t *testing.T) {
	inR, _ := io.Pipe()
	_, outW := io.Pipe()
	conn, err := (&stdioTransport{in: inR, out: outW}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { _, err := conn.Read(context.Background()); done <- err }()
	time.Sleep(10 * time.Millisecond)
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Read after Close: %v, want EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
}

// runPiped serves New(nil) on input that ends after the given lines and
// returns what the server wrote, failing if it does not exit.
func runPiped(t *testing.T, lines ...string) string {
	t.Helper()
	var out syncBuffer
	done := make(chan error, 1)
	in := io.NopCloser(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	go func() { done <- New(nil).Run(context.Background(), &stdioTransport{in: in, out: &out}) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the server did not exit when its input ended; it wrote:\n%s", out.String())
	}
	return out.String()
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *syncBuffer) Close() error { return nil }

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":%s,"clientInfo":{"name":"t","version":"0"}}}`

// TestStdioAnswersPipedInput: requests piped into `elicit serve` are all
// answered before it exits at the end of its input.
func TestStdioAnswersPipedInput(t *testing.T) {
	out := runPiped(t,
		fmt.Sprintf(initLine, `{}`),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"elicitation_render_form","arguments":{"form":{"title":"T","fields":[{"id":"a","text":"A?","type":"boolean"}]}}}}`,
		`{"jsonrpc":"2.0","id":"three","method":"ping"}`)
	for _, id := range []string{`"id":0,`, `"id":1,`, `"id":2,`, `"id":"three",`} {
		if !strings.Contains(out, id) {
			t.Errorf("no response with %s; the server wrote:\n%s", id, out)
		}
	}
}

// TestStdioEOFWhileAskingTheClient: when the input ends while the server
// waits for the client's answer to elicitation/create, it exits instead of
// waiting for an answer that cannot come.
func TestStdioEOFWhileAskingTheClient(t *testing.T) {
	out := runPiped(t,
		fmt.Sprintf(initLine, `{"elicitation":{}}`),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"elicitation_ask","arguments":{"form":{"title":"T","fields":[{"id":"a","text":"A?","type":"boolean"}]}}}}`)
	if !strings.Contains(out, `"method":"elicitation/create"`) {
		t.Errorf("the server did not ask the client; it wrote:\n%s", out)
	}
}

// FuzzStdioInput: whatever the client writes, the session reads it to
// the end without an error (the SDK would end the session at one) and
// writes one JSON-RPC message (or batch answer) a line; the values framed
// are trimmed and within the limit, and compact JSON values one per line
// come back as they were sent.
func FuzzStdioInput(f *testing.F) {
	for _, s := range []string{"{\"a\":1}\n{\"b\":[2]}\n", "{\"a\":\n1}\n", "\n\n[1,\n2]", "{\"s\":\"\\\"}\"}\n", "\"open\n",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","method":"x"}` + "\n" + `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"y"}]` + "\n",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\n\"method\":\"ping\"} x\n[]\n{\"id\":4}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := frames(testInput(string(data), &syncBuffer{}))
		if err != io.EOF {
			t.Fatalf("frames of %q end with %v", data, err)
		}
		for _, frame := range got {
			if !strings.HasPrefix(frame, "error: ") && (len(frame) == 0 || len(frame) > 64 || strings.TrimSpace(frame) != frame) {
				t.Fatalf("frame %q from %q", frame, data)
			}
		}

		var out syncBuffer
		in := testInput(string(data), &out)
		conn, err := (&mcp.IOTransport{Reader: in, Writer: in.s.out, MaxLineLength: -1}).Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conn = &stdioConn{Connection: conn, s: in.s}
		for range len(data) + 1 {
			var msg jsonrpc.Message
			if msg, err = conn.Read(context.Background()); err != nil {
				break
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				conn.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			}
		}
		conn.Close()
		if err != io.EOF {
			t.Fatalf("the session read %q as %v", data, err)
		}
		for line := range strings.Lines(out.String()) {
			var e struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   jsonrpc.Error   `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &e); line[0] == '{' && (err != nil || e.JSONRPC != "2.0" || e.ID == nil || e.Error.Code == 0 && !strings.Contains(line, `"result":{}`) || !strings.HasSuffix(line, "}\n")) {
				t.Fatalf("line %q: %v", line, err)
			}
		}

		var values []string
		var lines [][]byte
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			var c bytes.Buffer
			json.Compact(&c, v)
			if c.Len() <= 64 {
				values = append(values, c.String())
				lines = append(lines, c.Bytes())
			}
		}
		if len(values) == 0 {
			return
		}
		got, _ = frames(testInput(string(append(bytes.Join(lines, []byte("\n")), '\n')), &syncBuffer{}))
		if !reflect.DeepEqual(got, values) {
			t.Fatalf("frames %q; want %q", got, values)
		}
	})
}

// TestStdioDrain: at the end of the input, Read waits for the calls it has
// returned to be answered; a cancelled call, or the server asking the client,
// ends the wait.
func TestStdioDrain(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	tests := []struct {
		name  string
		lines []string
		then  func(mcp.Connection) // what the server writes once the input has ended
	}{
		{"answered", []string{call}, func(c mcp.Connection) {
			id, _ := jsonrpc.MakeID(float64(1))
			c.Write(context.Background(), &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)})
		}},
		{"cancelled", []string{call, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`}, nil},
		{"asking the client", []string{call}, func(c mcp.Connection) {
			id, _ := jsonrpc.MakeID(float64(100))
			c.Write(context.Background(), &jsonrpc.Request{ID: id, Method: "elicitation/create", Params: json.RawMessage(`{}`)})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := io.NopCloser(strings.NewReader(strings.Join(tt.lines, "\n") + "\n"))
			conn, err := (&stdioTransport{in: in, out: &syncBuffer{}}).Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for range tt.lines {
				if _, err := conn.Read(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() { _, err := conn.Read(context.Background()); done <- err }()
			if tt.then != nil {
				select {
				case err := <-done:
					t.Fatalf("Read returned %v with a call unanswered", err)
				case <-time.After(20 * time.Millisecond):
				}
				tt.then(conn)
			}
			select {
			case err := <-done:
				if err != io.EOF {
					t.Errorf("Read = %v, want EOF", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Read still waiting")
			}
		})
	}
}

// TestStdioRejectsBadMessages: a message the server cannot take gets a
// JSON-RPC error naming what is wrong, and the session goes on.
func TestStdioRejectsBadMessages(t *testing.T) {
	out := runPiped(t,
		fmt.Sprintf(initLine, `{}`),
		`not json at all`,
		`{"id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","method":"ping"`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: `,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: `,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not supported`,
		`{"jsonrpc":"2.0","id":8,"result":{}}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
	if got := strings.Count(out, `"code":-32700`); got != 2 {
		t.Errorf("%d parse errors, want 2 (the text and the unclosed object) in:\n%s", got, out)
	}
}

// TestStdioBadBatchLeavesNothingPending: a batch refused for one bad item
// runs none of its calls, so the end of input does not wait for them.
func TestStdioBadBatchLeavesNothingPending(t *testing.T) {
	out := runPiped(t,
		strings.Replace(fmt.Sprintf(initLine, `{}`), "2025-11-25", "2025-03-26", 1),
		`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"x":1}]`)
	if !strings.Contains(out, `"message":"batch item 1: invalid request: `) || strings.Contains(out, `"id":5`) {
		t.Errorf("the bad batch was answered:\n%s", out)
	}
}

// TestTwoMessagesOnOneLine: two JSON-RPC requests written on one line are
// both answered (the second used to be dropped with a parse error).
func TestTwoMessagesOnOneLine(t *testing.T) {
	p := startPipeServer(t, New(nil), elicitStdio, "", nil)
	p.send(t, `{"jsonrpc":"2.0","id":11,"method":"ping"}{"jsonrpc":"2.0","id":12,"method":"tools/list"} {"jsonrpc":"2.0","id":13,"method":"ping"}`)
	ids := map[float64]bool{}
	for range 3 {
		var resp struct {
			ID     float64          `json:"id"`
			Result json.RawMessage  `json:"result"`
			Error  *json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(p.line(t), &resp); err != nil || resp.Error != nil || resp.Result == nil {
			t.Fatalf("response %+v: %v", resp, err)
		}
		ids[resp.ID] = true
	}
	if !ids[11] || !ids[12] || !ids[13] {
		t.Errorf("answered %v, want 11, 12 and 13", ids)
	}
}

// TestStdioResultAsEncoded: a successful response goes out byte for byte
// as jsonrpc.EncodeMessage writes it, without its scan of the result.
func TestStdioResultAsEncoded(t *testing.T) {
	for _, id := range []any{float64(7), "req-1", `a<b&"c`} {
		id, err := jsonrpc.MakeID(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, result := range []string{`{}`, `[1,2]`, `{"content":[{"type":"text","text":"<a> & é \u2028` + "\u2028" + `"}],"isError":false}`} {
			resp := &jsonrpc.Response{ID: id, Result: json.RawMessage(result)}
			want, err := jsonrpc.EncodeMessage(resp)
			if err != nil {
				t.Fatal(err)
			}
			var out syncBuffer
			if err := newSession(&out, nil).writeResult(context.Background(), resp); err != nil || out.String() != string(want)+"\n" {
				t.Errorf("writeResult = %q, %v; EncodeMessage = %q", out.String(), err, want)
			}
		}
	}
}

// TestNullIDAnswered: a request with "id": null gets a JSON-RPC error of
// id null, over stdio, alone or in a batch (the SDK took it for a
// notification and never answered), and the session goes on.
func TestNullIDAnswered(t *testing.T) {
	out := runPiped(t,
		strings.Replace(fmt.Sprintf(initLine, `{}`), "2025-11-25", "2025-03-26", 1),
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":null,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id is null`
	if got := strings.Count(out, want); got != 2 {
		t.Errorf("%d null-id errors, want 2, in:\n%s", got, out)
	}
	for _, want := range []string{`"message":"batch item 1: invalid request: the id is null`, `{"jsonrpc":"2.0","id":4,"result":{}}`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"id":3`) {
		t.Errorf("the batch with a null id was run:\n%s", out)
	}
}
