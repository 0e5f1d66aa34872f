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

// lineTransport is MCP's stdio transport: newline-delimited JSON-RPC over a
// reader and a writer, with JSON-RPC batches for protocols before
// 2025-06-18. It behaves like the SDK's IOTransport with two differences:
// a response's result, which the SDK has already encoded, is written as it
// is rather than re-scanned by encoding/json (for a rendered form that scan
// was a third of the server's own time per call), and at the end of its input
// it first lets the calls it has read be answered.
type lineTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
	// ended, when not nil, runs once when the input ends, before the
	// calls read are awaited.
	ended func()
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{in: t.in, out: t.out, ended: t.ended, frames: make(chan frame), closed: make(chan struct{}), pending: map[jsonrpc.ID]bool{}}
	c.settled = sync.NewCond(&c.mu)
	go c.readLoop(bufio.NewReaderSize(t.in, 64<<10), maxFrame)
	return c, nil
}

type frame struct {
	data []byte
	err  error
}

type lineConn struct {
	in     io.ReadCloser
	ended  func()
	frames chan frame    // from readLoop
	closed chan struct{} // closed by Close
	once   sync.Once
	queue  []jsonrpc.Message // the rest of an incoming batch (Read is never concurrent)

	mu      sync.Mutex // guards what follows
	out     io.WriteCloser
	buf     []byte
	batches map[jsonrpc.ID]*batch
	initID  jsonrpc.ID // the initialize request, until its response is written
	version string     // the negotiated protocol version
	// pending are the calls read and not yet answered, asking the calls
	// sent to the client and not yet answered; settled is signalled when
	// either shrinks or grows, or the connection closes.
	pending  map[jsonrpc.ID]bool
	asking   int
	isClosed bool
	settled  *sync.Cond
}

// batch collects the responses to one incoming batch's calls.
type batch struct {
	index     map[jsonrpc.ID]int
	responses []*jsonrpc.Response
	missing   int
}

func (c *lineConn) readLoop(r *bufio.Reader, limit int) {
	f := &framer{r: r, limit: limit}
	for {
		data, err := f.next()
		select {
		case c.frames <- frame{data, err}:
		case <-c.closed:
			return
		}
		if _, rejected := err.(*rejection); err != nil && !rejected {
			return
		}
	}
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			msg := c.queue[0]
			c.queue = c.queue[1:]
			return msg, nil
		}
		var f frame
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case f = <-c.frames:
		}
		if f.err == io.EOF {
			if c.ended != nil {
				c.ended()
			}
			c.drain()
		}
		var bad *rejection
		switch {
		case errors.As(f.err, &bad):
		case f.err != nil:
			return nil, f.err
		case f.data[0] == '[':
			bad = c.readBatch(f.data)
		default:
			var msg jsonrpc.Message
			if msg, bad = decode(f.data); bad == nil {
				c.mu.Lock()
				c.note(msg)
				c.mu.Unlock()
				return msg, nil
			}
		}
		if bad != nil {
			if err := c.reject(bad); err != nil {
				return nil, err
			}
		}
	}
}

// rejection is a message the server cannot take: it is answered with a
// JSON-RPC error, and the session goes on.
type rejection struct {
	id      json.RawMessage // the message's id when it has one, else null
	code    int64
	message string
}

func (r *rejection) Error() string { return r.message }

// decode decodes one message, or says why it cannot be taken.
func decode(data []byte) (jsonrpc.Message, *rejection) {
	msg, err := jsonrpc.DecodeMessage(data)
	switch {
	case err == nil:
		return msg, nil
	case !json.Valid(data):
		return nil, &rejection{code: jsonrpc.CodeParseError, message: "parse error: " + err.Error()}
	}
	return nil, &rejection{id: idOf(data), code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + err.Error()}
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

// reject answers a message the server cannot take with a JSON-RPC error.
func (c *lineConn) reject(r *rejection) error {
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	message, _ := json.Marshal(r.message)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := fmt.Fprintf(c.out, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", id, r.code, message)
	return err
}

// note records an incoming message: a call to answer, the client's answer to
// a call of ours, a cancellation, the initialize request.
func (c *lineConn) note(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.asking = max(c.asking-1, 0)
	case *jsonrpc.Request:
		switch {
		case m.IsCall():
			c.pending[m.ID] = true
			if m.Method == "initialize" {
				c.initID, c.version = m.ID, requested(m)
			}
		case m.Method == "notifications/cancelled":
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					delete(c.pending, id)
				}
			}
		}
	}
	c.settled.Broadcast()
}

// drain waits, once the input has ended, until every call read has been
// answered, so that requests piped into the server all get their responses
// before it exits. It stops waiting when the server is itself waiting for
// the client (whose answer can no longer come) or the connection closes.
func (c *lineConn) drain() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.pending) > 0 && c.asking == 0 && !c.isClosed {
		c.settled.Wait()
	}
}

// readBatch decodes a JSON-RPC batch and notes its calls, whose responses
// go out together as one array. A batch with any bad message is refused
// whole.
func (c *lineConn) readBatch(data []byte) *rejection {
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if version >= "2025-06-18" {
		return &rejection{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: JSON-RPC batches are not supported in 2025-06-18 and later (this session: %s)", version)}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return &rejection{code: jsonrpc.CodeParseError, message: "parse error: " + err.Error()}
	}
	if len(raws) == 0 {
		return &rejection{code: jsonrpc.CodeInvalidRequest, message: "invalid request: an empty batch"}
	}
	msgs := make([]jsonrpc.Message, len(raws))
	b := &batch{index: map[jsonrpc.ID]int{}}
	for i, raw := range raws {
		msg, bad := decode(raw)
		if bad != nil {
			bad.id, bad.message = nil, fmt.Sprintf("batch item %d: %s", i, bad.message)
			return bad
		}
		msgs[i] = msg
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			if _, dup := b.index[req.ID]; dup {
				return &rejection{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: batch item %d: request id %v given twice", i, req.ID.Raw())}
			}
			b.index[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
	}
	if err := c.addBatch(b); err != nil {
		return &rejection{code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + err.Error()}
	}
	c.mu.Lock()
	for _, msg := range msgs {
		c.note(msg)
	}
	c.mu.Unlock()
	c.queue = msgs
	return nil
}

func (c *lineConn) addBatch(b *batch) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range b.index {
		if c.batches[id] != nil {
			return fmt.Errorf("batch: request id %v is still being answered", id.Raw())
		}
	}
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*batch{}
	}
	for id := range b.index {
		c.batches[id] = b
	}
	b.missing = len(b.responses)
	return nil
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.settled.Broadcast()
	var err error
	resp, isResponse := msg.(*jsonrpc.Response)
	if isResponse {
		delete(c.pending, resp.ID)
	} else if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.asking++
	}
	switch {
	case isResponse && c.batches[resp.ID] != nil:
		return c.answerBatch(resp)
	case isResponse && c.initID.IsValid() && resp.ID == c.initID:
		c.version = negotiated(resp)
		c.initID = jsonrpc.ID{}
	}
	c.buf, err = appendMessage(c.buf[:0], msg)
	if err != nil {
		return err
	}
	_, err = c.out.Write(append(c.buf, '\n'))
	return err
}

// answerBatch records one response to a batch and writes the batch's
// responses once all are in.
func (c *lineConn) answerBatch(resp *jsonrpc.Response) error {
	b := c.batches[resp.ID]
	delete(c.batches, resp.ID)
	b.responses[b.index[resp.ID]] = resp
	if b.missing--; b.missing > 0 {
		return nil
	}
	out := append(c.buf[:0], '[')
	for i, r := range b.responses {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = appendMessage(out, r); err != nil {
			return err
		}
	}
	c.buf = append(out, ']', '\n')
	_, err := c.out.Write(c.buf)
	return err
}

// requested reads the protocol version an initialize request asks for: the
// version batches are judged by until the response says which was agreed.
func requested(req *jsonrpc.Request) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(req.Params, &p)
	return p.ProtocolVersion
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

// appendMessage appends msg's wire form to dst. A successful response's
// result comes from the SDK's encoding/json call, compact and valid, so it
// is copied as it is; everything else goes through jsonrpc.EncodeMessage.
func appendMessage(dst []byte, msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || !resp.ID.IsValid() || len(resp.Result) == 0 || bytes.IndexByte(resp.Result, '\n') >= 0 {
		data, err := jsonrpc.EncodeMessage(msg)
		return append(dst, data...), err
	}
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = append(dst, id...)
	dst = append(dst, `,"result":`...)
	dst = append(dst, resp.Result...)
	return append(dst, '}'), nil
}

func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		c.mu.Lock()
		c.isClosed = true
		c.settled.Broadcast()
		c.mu.Unlock()
		close(c.closed)
		err = errors.Join(c.in.Close(), c.out.Close())
	})
	return err
}

func (c *lineConn) SessionID() string { return "" }
