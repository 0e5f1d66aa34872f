package method

import (
	"bufio"
	"bytes"
	"io"
)

// record is one CSV record: the line it starts on, its raw text (for
// warnings) and its field values. bad is set when its quoting is malformed.
// raw and fields point into the reader's buffers: they are valid until the
// reader's next call.
type record struct {
	line   int
	raw    []byte
	fields [][]byte
	bad    string
}

// recordReader reads CSV records one at a time, in one pass over a stream:
// fields separated by commas, double-quoted fields may hold commas, line
// breaks and "" for a quote, records end at LF or CRLF. A leading UTF-8 byte
// order mark and blank lines are skipped. It never fails on the text itself
// (malformed quoting is reported in record.bad); a read error ends the
// records and is kept in err.
type recordReader struct {
	br   *bufio.Reader
	line int // the line the next record starts on
	read int64
	err  error // the first read error other than io.EOF

	raw    []byte   // the current record's text, line break included
	vals   []byte   // its field values, one after another
	ends   []int    // where each value ends in vals
	fields [][]byte // the values, sliced from vals
}

// Scanner states, between two bytes of a record.
const (
	fieldStart = iota // before a field: blanks, then maybe an opening quote
	unquoted          // in a field without quotes
	quoted            // inside quotes
	quoteSeen         // just after a quote inside quotes: closing, or the first of ""
	afterQuote        // after the closing quote, before the comma or line break
	recordEnd         // past the line break that ends the record
)

func newRecordReader(r io.Reader, bufSize int) *recordReader {
	br := bufio.NewReaderSize(r, bufSize)
	if bom, _ := br.Peek(3); string(bom) == "\ufeff" {
		br.Discard(3)
	}
	return &recordReader{br: br, line: 1}
}

// next returns the next record that is not blank; false at the end.
func (rr *recordReader) next() (record, bool) {
	for {
		rec, ok := rr.scan()
		if !ok {
			return record{}, false
		}
		if len(bytes.TrimSpace(rec.raw)) > 0 {
			return rec, true
		}
	}
}

// scanState is where the scanner is inside the record being read.
type scanState struct {
	st    int
	begin int // where the current field starts in raw
	trail int // afterQuote: where the text after the closing quote starts
	bad   string
}

// scan reads one record, blank or not; false at the end of the stream.
func (rr *recordReader) scan() (record, bool) {
	chunk, err := rr.br.ReadSlice('\n')
	rr.read += int64(len(chunk))
	if err == nil && rr.split(chunk) {
		rec := record{line: rr.line, raw: bytes.TrimRight(chunk, "\r\n"), fields: rr.fields}
		rr.line++
		return rec, true
	}
	rr.raw, rr.vals, rr.ends = rr.raw[:0], rr.vals[:0], rr.ends[:0]
	s := scanState{st: fieldStart}
	for {
		from := len(rr.raw)
		rr.raw = append(rr.raw, chunk...)
		rr.consume(&s, from)
		if s.st == recordEnd {
			break
		}
		if err != nil && err != bufio.ErrBufferFull {
			if err != io.EOF {
				rr.err = err
			}
			if len(rr.raw) == 0 {
				return record{}, false
			}
			rr.endAtEOF(&s)
			break
		}
		chunk, err = rr.br.ReadSlice('\n')
		rr.read += int64(len(chunk))
	}
	rr.fields = rr.fields[:0]
	start := 0
	for _, end := range rr.ends {
		rr.fields = append(rr.fields, rr.vals[start:end:end])
		start = end
	}
	rec := record{line: rr.line, raw: bytes.TrimRight(rr.raw, "\r\n"), fields: rr.fields, bad: s.bad}
	rr.line += bytes.Count(rr.raw, []byte{'\n'})
	return rec, true
}

// split splits a record that is one whole line (line break included) when
// its fields are plain: without quotes, or quoted without "" and closed
// right before a comma or the line break. The fields point into line. It
// returns false for anything else, which the scanner then reads.
func (rr *recordReader) split(line []byte) bool {
	rr.fields = rr.fields[:0]
	last := len(line) - 1 // the line break
	for i := 0; ; {
		if line[i] == '"' {
			j := i + 1 + bytes.IndexByte(line[i+1:], '"')
			if j <= i { // closes on a later line
				return false
			}
			rr.fields = append(rr.fields, line[i+1:j:j])
			switch {
			case line[j+1] == ',':
				i = j + 2
				continue
			case j+1 == last, j+2 == last && line[j+1] == '\r':
				return true
			}
			return false // "" or text after the closing quote
		}
		if line[i] == ' ' || line[i] == '\t' { // blanks, maybe before a quote
			return false
		}
		j := i // unquoted fields are short: a loop beats IndexByte's call
		for j < last && line[j] != ',' {
			j++
		}
		rr.fields = append(rr.fields, line[i:j:j])
		if j == last {
			return true
		}
		i = j + 1
	}
}

// consume advances the scanner over raw[i:], which holds at most one line
// break, at its end.
func (rr *recordReader) consume(s *scanState, i int) {
	raw := rr.raw
	for i < len(raw) {
		switch s.st {
		case fieldStart:
			switch raw[i] {
			case ' ', '\t':
				i++
			case '"':
				s.st = quoted
				i++
			default:
				s.st = unquoted
			}
		case quoted:
			k := bytes.IndexByte(raw[i:], '"')
			if k < 0 {
				rr.vals = append(rr.vals, raw[i:]...)
				return
			}
			rr.vals = append(rr.vals, raw[i:i+k]...)
			i += k + 1
			s.st = quoteSeen
		case quoteSeen:
			if raw[i] == '"' {
				rr.vals = append(rr.vals, '"')
				s.st = quoted
				i++
				continue
			}
			s.st, s.trail = afterQuote, i
		case unquoted, afterQuote:
			// raw[i:] has a line break only at its end.
			j := i + bytes.IndexByte(raw[i:], ',')
			if j < i {
				if raw[len(raw)-1] != '\n' {
					return
				}
				j = len(raw) - 1
			}
			rr.endField(s, j)
			if raw[j] == '\n' {
				s.st = recordEnd
				return
			}
			s.st, s.begin = fieldStart, j+1
			i = j + 1
		}
	}
}

// endField ends the field before raw[j] (a comma, a line break or the end).
func (rr *recordReader) endField(s *scanState, j int) {
	switch s.st {
	case fieldStart, unquoted: // blanks before the value are kept
		rr.vals = append(rr.vals, rr.raw[s.begin:j]...)
	case afterQuote:
		if trail := rr.raw[s.trail:j]; len(bytes.TrimSpace(trail)) > 0 {
			s.bad = "text after a closing quote"
			rr.vals = append(rr.vals, trail...)
		}
	}
	rr.ends = append(rr.ends, len(rr.vals))
}

// endAtEOF ends a record that the stream ends without a line break.
func (rr *recordReader) endAtEOF(s *scanState) {
	if s.st == quoted {
		s.bad = "a quoted field is never closed"
	}
	rr.endField(s, len(rr.raw))
}
