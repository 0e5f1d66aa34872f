package responselog

import (
	"bytes"
	"encoding/json"
)

// encodeJSON is v as encoding/json writes it, compact and with <, > and &
// as themselves (answers and forms are often code): a record's journal
// line (without its newline) or a response's answers.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// line is r's journal line without its newline; nil, after a warning, when
// r cannot be encoded (its Responses or Form not JSON, a time outside
// years 0-9999).
func (l *Log) line(r *Record) []byte {
	b, err := encodeJSON(r)
	if err != nil {
		l.warn("record %s of %q cannot be written: %v (not logged)", r.ID, r.Title, err)
		return nil
	}
	return b
}
