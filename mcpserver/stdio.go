package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one incoming JSON-RPC message, as the SDK's stdio
// transport does (16 MiB); tool arguments have their own 1 MiB limit.
const maxFrame = 16 << 20

// stdioTransport is the SDK's IOTransport with what `elicit serve` needs
// of it on standard input and output and go-sdk v1.8.0 does not do
// (docs/decisions.md, "elicit serve speaks stdio through the SDK's
// transport, wrapped"):
//
//   - at the end of the input, the calls read are answered before the
//     session ends (the SDK cancels them and drops their answers);
//   - a message the server cannot take (not JSON, not JSON-RPC, over
//     16 MiB, a batch the session does not allow) gets a JSON-RPC error
//     and the session goes on (the SDK ends the session);
//   - messages written back to back on one line are each answered (the
//     SDK ends the session at the second);
//   - a JSON-RPC batch with a notification in it is answered (the SDK
//     waits for a response to the notification, which never comes).
//
// The input goes through [input] on its way to the SDK, which reads only
// JSON values, each on a line of its own, and a batch's messages one by
// one; the connection goes through [stdioConn], which sees every message
// read and written and answers those the SDK cannot decode.
type stdioTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
	// ended, when not nil, runs once when the input ends, before the
	// calls read are awaited.
	ended func()
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	s := newSession(t.out, t.ended)
	in := &input{r: bufio.NewReaderSize(t.in, 64<<10), closer: t.in, s: s, limit: maxFrame}
	// The SDK's own cap would end the session; input enforces it instead.
	conn, err := (&mcp.IOTransport{Reader: in, Writer: s.out, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &stdioConn{Connection: conn, s: s}, nil
}

// session is what the input and the connection share.
type session struct {
	out   *lockedWriter
	ended func()
	once  sync.Once

	mu sync.Mutex // guards what follows
	// frames are the values the input has handed the SDK and the
	// connection has not read yet, in order: one each.
	frames [][]byte
	// pending are the calls read and not yet answered, asking the calls
	// sent to the client and not yet answered; settled is signalled when
	// either changes or the connection closes.
	pending map[jsonrpc.ID]bool
	asking  int
	closed  bool
	settled *sync.Cond
	// batches are the calls of incoming batches not yet answered, by id.
	batches map[jsonrpc.ID]*batch
	initID  jsonrpc.ID // the initialize request, until its response is written
	version string     // the protocol version, requested, then negotiated
}

func newSession(out io.WriteCloser, ended func()) *session {
	s := &session{out: &lockedWriter{w: out}, ended: ended, pending: map[jsonrpc.ID]bool{}, batches: map[jsonrpc.ID]*batch{}}
	s.settled = sync.NewCond(&s.mu)
	return s
}

// batch collects the responses to one incoming batch's calls.
type batch struct {
	index     map[jsonrpc.ID]int
	responses []*jsonrpc.Response
	missing   int
}

// lockedWriter serializes the SDK's writes, each one whole message, with
// the errors and batch answers written beside it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// reject answers a message the server cannot take with a JSON-RPC error:
// id is the message's id when it has one, else nil for null.
func (s *session) reject(id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	text, _ := json.Marshal(msg)
	_, err := fmt.Fprintf(s.out, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", id, code, text)
	return err
}

// stdioConn is the SDK's connection, watched: it answers the values the
// SDK cannot decode as messages, keeps count of the calls to answer,
// answers batches, and at the end of the input waits for the calls read
// to be answered.
type stdioConn struct {
	mcp.Connection
	s *session
}

// Read returns the next message. The SDK decodes each value the input
// handed it in turn, and an error decoding one leaves the rest to read:
// that value is answered with the error, and the next read.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err == nil {
			c.s.popFrame()
			c.s.note(msg)
			return msg, nil
		}
		if errors.Is(err, io.EOF) {
			c.s.inputEnded()
			return nil, err
		}
		frame, ok := c.s.popFrame()
		if !ok || ctx.Err() != nil {
			return nil, err
		}
		if err := c.s.reject(idOf(frame), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error()); err != nil {
			return nil, err
		}
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.s.mu.Lock()
			c.s.asking++
			c.s.settled.Broadcast()
			c.s.mu.Unlock()
		}
		return c.Connection.Write(ctx, msg)
	}
	defer c.s.answered(resp)
	if answered, err := c.s.answerBatch(ctx, resp); answered {
		return err
	}
	if resp.Error == nil && resp.ID.IsValid() && len(resp.Result) > 0 && bytes.IndexByte(resp.Result, '\n') < 0 {
		return c.s.writeResult(ctx, resp)
	}
	return c.Connection.Write(ctx, msg)
}

// writeResult writes a successful response with its result as the SDK
// encoded it (compact encoding/json output), around it the envelope as
// jsonrpc.EncodeMessage writes it, without HTML escaping.
// jsonrpc.EncodeMessage would scan the result once more to write the same
// bytes, which for a rendered form is a fifth of elicitation_render_form's
// time per call (docs/decisions.md, the same entry).
func (s *session) writeResult(ctx context.Context, resp *jsonrpc.Response) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Grow(len(resp.Result) + 64)
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp.ID.Raw()); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteString(`,"result":`)
	buf.Write(resp.Result)
	buf.WriteString("}\n")
	_, err := s.out.Write(buf.Bytes())
	return err
}

func (c *stdioConn) Close() error {
	c.s.mu.Lock()
	c.s.closed = true
	c.s.settled.Broadcast()
	c.s.mu.Unlock()
	return c.Connection.Close()
}

// pushFrame records a value handed to the SDK, before the SDK can read it.
func (s *session) pushFrame(frame []byte) {
	s.mu.Lock()
	s.frames = append(s.frames, frame)
	s.mu.Unlock()
}

// popFrame takes the value the SDK has just read.
func (s *session) popFrame() ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.frames) == 0 {
		return nil, false
	}
	frame := s.frames[0]
	s.frames[0] = nil
	if s.frames = s.frames[1:]; len(s.frames) == 0 {
		s.frames = nil
	}
	return frame, true
}

// note records an incoming message: a call to answer, the client's answer
// to a call of ours, a cancellation.
func (s *session) note(msg jsonrpc.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.settled.Broadcast()
	switch m := msg.(type) {
	case *jsonrpc.Response:
		s.asking = max(s.asking-1, 0)
	case *jsonrpc.Request:
		switch {
		case m.IsCall():
			s.pending[m.ID] = true
		case m.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					delete(s.pending, id)
				}
			}
		}
	}
}

// answered records a response written.
func (s *session) answered(resp *jsonrpc.Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pending, resp.ID)
	if s.initID.IsValid() && resp.ID == s.initID {
		s.version, s.initID = negotiated(resp), jsonrpc.ID{}
	}
	s.settled.Broadcast()
}

// inputEnded runs ended, then waits until every call read has been
// answered, so that requests piped into the server all get their responses
// before it exits. It stops waiting when the server is itself waiting for
// the client (whose answer can no longer come) or the connection closes.
func (s *session) inputEnded() {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	if s.ended != nil {
		s.once.Do(s.ended)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.pending) > 0 && s.asking == 0 && !s.closed {
		s.settled.Wait()
	}
}

// answerBatch records a response to a call of a batch, and writes the
// batch's responses as one array once all are in. It reports whether resp
// belonged to a batch.
func (s *session) answerBatch(ctx context.Context, resp *jsonrpc.Response) (bool, error) {
	s.mu.Lock()
	b := s.batches[resp.ID]
	if b == nil {
		s.mu.Unlock()
		return false, nil
	}
	delete(s.batches, resp.ID)
	b.responses[b.index[resp.ID]] = resp
	b.missing--
	s.mu.Unlock()
	if b.missing > 0 {
		return true, nil
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	out := []byte{'['}
	for i, r := range b.responses {
		data, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return true, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, data...)
	}
	_, err := s.out.Write(append(out, ']', '\n'))
	return true, err
}

// input is the server's standard input as the SDK's transport reads it:
// the JSON values the client sent, each on a line of its own, a batch's
// messages one by one. Text that is no JSON value, and batches the session
// cannot take, are answered with a JSON-RPC error in their place.
//
// A line that is one JSON value by itself is taken as it is. Any other
// line goes to encoding/json's Decoder, until the values it holds are
// read: a value may span lines (as the SDK accepts) or share a line with
// others. Where text is no value, the rest of its line is skipped. A value
// left open at the end of a line normally continues on the next, but a
// next line that is a whole message by itself ends it: the broken one is
// reported and the whole one served, so that one truncated line does not
// swallow the message after it.
type input struct {
	r      *bufio.Reader
	closer io.Closer
	s      *session
	limit  int

	dec *json.Decoder // while a line needs one
	// fed counts the bytes dec has read, lastText is the offset of the
	// last of them that is not white space, valueEnd the offset where the
	// last value decoded ends: a value is open when lastText >= valueEnd.
	// An open value started at start, or after valueEnd when that is later.
	fed, lastText, valueEnd, start int64
	chunk                          []byte // read from r and not yet taken
	lineEnded                      bool   // the last chunk read from r ended its line
	readErr                        error  // r's error, after the last chunk
	ready                          []byte // values for the SDK, from off on
	off                            int
	err                            error // the end of ready: r's error, or a write's
}

var (
	errLeftOpen = errors.New("a message ends with a string, object or array left open")
	errTooLarge = errors.New("message too large")
)

// Read gives the SDK's reader the next values.
func (in *input) Read(p []byte) (int, error) {
	for in.off == len(in.ready) && in.err == nil {
		v, err := in.next()
		if v != nil {
			err = in.take(v)
		}
		in.err = err
	}
	if in.off == len(in.ready) {
		return 0, in.err
	}
	n := copy(p, in.ready[in.off:])
	if in.off += n; in.off == len(in.ready) {
		in.ready, in.off = nil, 0 // not reused: frames point into it
	}
	return n, nil
}

func (in *input) Close() error { return in.closer.Close() }

// next returns the next JSON value of the input, or nil when it answered
// text that is none with a JSON-RPC error, or the input's end.
func (in *input) next() ([]byte, error) {
	if in.dec == nil {
		if v, err := in.line(); v != nil || err != nil {
			return v, err
		}
		in.dec = json.NewDecoder(readerFunc(in.feed))
		in.fed, in.lastText, in.valueEnd, in.start = 0, -1, 0, 0
	}
	var v json.RawMessage
	err := in.dec.Decode(&v)
	if err == nil {
		in.valueEnd = in.dec.InputOffset()
		if rest, _ := io.ReadAll(in.dec.Buffered()); len(in.chunk) == 0 && in.lineEnded && len(bytes.TrimSpace(rest)) == 0 {
			in.dec = nil // the line is read: back to taking lines whole
		}
		if len(v) > in.limit {
			return nil, in.tooLarge()
		}
		return v, nil
	}
	buffered, _ := io.ReadAll(io.LimitReader(in.dec.Buffered(), 256))
	in.dec = nil
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, errLeftOpen), err == io.ErrUnexpectedEOF:
		return nil, in.s.reject(nil, jsonrpc.CodeParseError, "parse error: "+errLeftOpen.Error()+": "+clip(buffered))
	case errors.Is(err, errTooLarge):
		in.skipLine()
		return nil, in.tooLarge()
	case errors.As(err, &syntax):
		in.skipLine()
		return nil, in.s.reject(nil, jsonrpc.CodeParseError, "parse error: "+err.Error())
	}
	return nil, err
}

func (in *input) tooLarge() error {
	return in.s.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message over %d bytes", in.limit))
}

// readChunk reads up to the end of the line, or as much of it as r holds.
func (in *input) readChunk() ([]byte, error) {
	chunk, err := in.r.ReadSlice('\n')
	in.lineEnded = err == nil
	if err != bufio.ErrBufferFull {
		in.readErr = err
	}
	return chunk, err
}

// line reads up to the next line that is not blank and returns it, trimmed,
// when it is one JSON value; else it leaves what it read to the Decoder.
func (in *input) line() ([]byte, error) {
	for len(in.chunk) == 0 {
		if in.readErr != nil {
			return nil, in.readErr
		}
		chunk, err := in.readChunk()
		text := bytes.TrimSpace(chunk)
		switch {
		case len(text) == 0:
		case (err == nil || err == io.EOF) && len(text) <= in.limit && json.Valid(text):
			return text, nil
		default:
			in.chunk = chunk
		}
	}
	return nil, nil
}

// feed is the Decoder's reader: the input a chunk at a time, blank lines
// between values left out.
func (in *input) feed(p []byte) (int, error) {
	open := in.lastText >= in.valueEnd
	if open && in.fed-max(in.start, in.valueEnd) > int64(in.limit) {
		return 0, errTooLarge // and the value goes on
	}
	for len(in.chunk) == 0 {
		if in.readErr != nil {
			return 0, in.readErr
		}
		atLineStart := in.lineEnded
		chunk, err := in.readChunk()
		switch {
		case open && atLineStart && (err == nil || err == io.EOF) && wholeMessage(chunk):
			in.chunk = chunk // for the next line
			return 0, errLeftOpen
		case open || len(bytes.TrimSpace(chunk)) > 0:
			in.chunk = chunk
		}
	}
	n := copy(p, in.chunk)
	in.chunk = in.chunk[n:]
	if i := bytes.IndexFunc(p[:n], notSpace); i >= 0 && !open {
		in.start = in.fed + int64(i)
	}
	if i := bytes.LastIndexFunc(p[:n], notSpace); i >= 0 {
		in.lastText = in.fed + int64(i)
	}
	in.fed += int64(n)
	return n, nil
}

// skipLine skips the rest of the line of a bad message.
func (in *input) skipLine() {
	in.chunk = nil
	for !in.lineEnded && in.readErr == nil {
		in.readChunk()
	}
	in.lineEnded = true
}

// take hands a value to the SDK: a batch's messages one by one, anything
// else as it is, for the SDK to decode (stdioConn answers what it cannot).
func (in *input) take(v []byte) error {
	if v[0] == '[' {
		return in.takeBatch(v)
	}
	if nullID(v) {
		return in.s.reject(nil, jsonrpc.CodeInvalidRequest, errNullID)
	}
	if bytes.Contains(v, []byte(`"initialize"`)) {
		in.noteInitialize(v)
	}
	in.queue(v)
	return nil
}

// queue copies v into ready, and records it as a frame.
func (in *input) queue(v []byte) {
	start := len(in.ready)
	in.ready = append(in.ready, v...)
	in.s.pushFrame(in.ready[start:len(in.ready):len(in.ready)])
	in.ready = append(in.ready, '\n')
}

// noteInitialize records the protocol version an initialize request asks
// for: batches are judged by it until the response says which was agreed.
func (in *input) noteInitialize(v []byte) {
	msg, err := jsonrpc.DecodeMessage(v)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() || req.Method != "initialize" {
		return
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(req.Params, &p)
	in.s.mu.Lock()
	in.s.initID, in.s.version = req.ID, p.ProtocolVersion
	in.s.mu.Unlock()
}

// takeBatch hands the messages of a JSON-RPC batch to the SDK one by one,
// its calls noted so that their responses go out together as one array. A
// batch with any bad message is refused whole.
func (in *input) takeBatch(v []byte) error {
	bad := func(msg string, args ...any) error {
		return in.s.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(msg, args...))
	}
	in.s.mu.Lock()
	version := in.s.version
	in.s.mu.Unlock()
	if version >= "2025-06-18" {
		return bad("invalid request: JSON-RPC batches are not supported in 2025-06-18 and later (this session: %s)", version)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(v, &raws); err != nil {
		return bad("invalid request: %v", err)
	}
	if len(raws) == 0 {
		return bad("invalid request: an empty batch")
	}
	b := &batch{index: map[jsonrpc.ID]int{}}
	for i, raw := range raws {
		if nullID(raw) {
			return bad("batch item %d: %s", i, errNullID)
		}
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return bad("batch item %d: invalid request: %v", i, err)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			if _, dup := b.index[req.ID]; dup {
				return bad("invalid request: batch item %d: request id %v given twice", i, req.ID.Raw())
			}
			b.index[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
	}
	in.s.mu.Lock()
	for id := range b.index {
		if in.s.batches[id] != nil || in.s.pending[id] {
			in.s.mu.Unlock()
			return bad("invalid request: batch: request id %v is still being answered", id.Raw())
		}
	}
	b.missing = len(b.responses)
	for id := range b.index {
		in.s.batches[id] = b
	}
	in.s.mu.Unlock()
	for _, raw := range raws {
		in.queue(raw)
	}
	return nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func notSpace(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }

// wholeMessage reports whether a line is by itself a JSON-RPC message, or
// a batch of them.
func wholeMessage(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || (line[0] != '{' && line[0] != '[') || !json.Valid(line) {
		return false
	}
	var items []json.RawMessage // decoded into fresh memory: line is the reader's buffer
	switch {
	case line[0] == '{':
		items = []json.RawMessage{line}
	case json.Unmarshal(line, &items) != nil || len(items) == 0:
		return false
	}
	for _, item := range items {
		if _, err := jsonrpc.DecodeMessage(item); err != nil {
			return false
		}
	}
	return true
}

// idOf is the id of a JSON object when it is a string or a number.
func idOf(data []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.ID) == 0 || (m.ID[0] != '"' && m.ID[0] != '-' && (m.ID[0] < '0' || m.ID[0] > '9')) {
		return nil
	}
	return m.ID
}

// clip shortens a message for an error.
func clip(data []byte) string {
	s := string(bytes.TrimSpace(data))
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// negotiated reads the protocol version from the initialize response; the
// SDK takes a session that did not negotiate one as 2025-03-26.
func negotiated(resp *jsonrpc.Response) string {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if resp.Error != nil || json.Unmarshal(resp.Result, &r) != nil || r.ProtocolVersion == "" {
		return "2025-03-26"
	}
	return r.ProtocolVersion
}

// errNullID answers a request whose id is null, which the SDK would take
// for a notification and never answer.
const errNullID = "invalid request: the id is null; a request's id is a string or a number (MCP), and a notification has no id"

// nullID reports whether a message is a request with "id": null.
func nullID(msg []byte) bool {
	if !bytes.Contains(msg, []byte("null")) {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	return json.Unmarshal(msg, &m) == nil && m.Method != nil && string(m.ID) == "null"
}
