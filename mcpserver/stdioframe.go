package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// framer splits the input into messages: one per line, several on one
// line when one value follows another ({...}{...}), or one over several
// lines when a JSON value spans them (the SDK accepts those too). Blank
// lines are skipped.
type framer struct {
	r     *bufio.Reader
	limit int
	held  [][]byte // messages read after the one returned
}

func (f *framer) next() ([]byte, error) {
	if len(f.held) > 0 {
		msg := f.held[0]
		f.held = f.held[1:]
		return msg, nil
	}
	var buf []byte
	var value openValue
	for {
		line, err := f.r.ReadSlice('\n')
		if len(buf)+len(line) > f.limit {
			return nil, f.skipLine(err)
		}
		if value.open() && wholeMessage(line) {
			// The open value was cut short: a message of its own follows.
			f.held = splitValues(append([]byte(nil), bytes.TrimSpace(line)...))
			return nil, &rejection{code: jsonrpc.CodeParseError, message: "parse error: a message ends with a string, object or array left open: " + clip(buf)}
		}
		buf = append(buf, line...)
		value.feed(line)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && (err != io.EOF || len(bytes.TrimSpace(buf)) == 0):
			return nil, err
		}
		msg := bytes.TrimSpace(buf)
		if len(msg) == 0 {
			buf = buf[:0]
			continue
		}
		if err == nil && value.open() {
			continue
		}
		values := splitValues(msg)
		f.held = values[1:]
		return values[0], nil
	}
}

// splitValues splits text holding one JSON value after another on a line
// ({...}{...}, or with white space between) into the values: a split comes
// where an object or array closes and another opens. Text that is not
// such a sequence comes back whole, or from its first part that is not,
// for the parser to refuse.
func splitValues(text []byte) [][]byte {
	var out [][]byte
	depth, start := 0, 0
	inString, escape := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case escape:
			escape = false
			continue
		case inString:
			escape, inString = c == '\\', c != '"'
			continue
		case c == '"':
			inString = true
			continue
		case c == '{' || c == '[':
			depth++
			continue
		case c != '}' && c != ']':
			continue
		}
		if depth--; depth > 0 {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n') {
			j++
		}
		if j < len(text) && (text[j] == '{' || text[j] == '[') {
			out = append(out, text[start:i+1])
			start, i, depth = j, j-1, 0
		}
	}
	return append(out, text[start:])
}

// skipLine skips the rest of an oversized message's line.
func (f *framer) skipLine(err error) error {
	for err == bufio.ErrBufferFull {
		_, err = f.r.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return err
	}
	return &rejection{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: a message over %d bytes", f.limit)}
}

// wholeMessage reports whether a line is by itself a JSON-RPC message, or a
// batch of them.
func wholeMessage(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || (line[0] != '{' && line[0] != '[') {
		return false
	}
	var v openValue
	if v.feed(line); v.open() {
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

// clip shortens a message for an error.
func clip(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// openValue follows the strings and brackets of JSON text fed to it piece by
// piece, to tell whether a value goes on past the end of a line.
type openValue struct {
	depth            int
	inString, escape bool
}

func (v *openValue) feed(data []byte) {
	for _, c := range data {
		switch {
		case v.escape:
			v.escape = false
		case v.inString && c == '\\':
			v.escape = true
		case c == '"':
			v.inString = !v.inString
		case v.inString:
		case c == '{' || c == '[':
			v.depth++
		case c == '}' || c == ']':
			v.depth--
		}
	}
}

// open reports whether the text so far leaves a string, object or array
// open.
func (v *openValue) open() bool { return v.inString || v.depth > 0 }
