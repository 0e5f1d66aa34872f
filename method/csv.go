package method

import "strings"

// record is one CSV record: the line it starts on, its raw text (for
// warnings) and its fields. bad is set when its quoting is malformed.
type record struct {
	line   int
	raw    string
	fields []string
	bad    string
}

// splitRecords splits CSV text into records: fields separated by commas,
// double-quoted fields may hold commas, newlines and "" for a quote, records
// end at LF or CRLF. A leading UTF-8 byte order mark and blank lines are
// ignored. It never fails; malformed quoting is reported in record.bad.
func splitRecords(s string) []record {
	s = strings.TrimPrefix(s, "\ufeff")
	var recs []record
	line := 1
	// One backing array for the records' fields (grown by append past the
	// cap, which bounds what a file of blank lines can reserve).
	buf := make([]string, 0, min(11*(strings.Count(s, "\n")+1), 1<<16))
	for len(s) > 0 {
		rec, rest, lines := nextRecord(s, buf)
		n := len(rec.fields)
		buf = rec.fields[n:]          // the capacity left, for the next record
		rec.fields = rec.fields[:n:n] // so that nothing appends into the next record's fields
		rec.line = line
		line += lines
		s = rest
		if strings.TrimSpace(rec.raw) != "" {
			recs = append(recs, rec)
		}
	}
	return recs
}

// nextRecord reads one record from the start of s, appending its fields to
// buf, and returns it, the text after it, and how many line breaks it
// consumed.
func nextRecord(s string, buf []string) (rec record, rest string, lines int) {
	i := 0
	rec.fields = buf
	for {
		var f string
		if q := quoteStart(s, i); q >= 0 {
			var n int
			f, i, n = quotedField(s, q, &rec)
			lines += n
		} else {
			j := fieldEnd(s, i)
			f, i = s[i:j], j
		}
		rec.fields = append(rec.fields, f)
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		break
	}
	rec.raw = strings.TrimRight(s[:i], "\r\n")
	if i < len(s) { // s[i] == '\n'
		i++
		lines++
	}
	return rec, s[i:], lines
}

// quoteStart returns the index of the opening quote when the field at i is
// quoted (after optional blanks), else -1.
func quoteStart(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return i
	}
	return -1
}

// fieldEnd returns the index of the comma or line feed ending the field at i.
func fieldEnd(s string, i int) int {
	for i < len(s) && s[i] != ',' && s[i] != '\n' {
		i++
	}
	return i
}

// quotedField reads the quoted field whose opening quote is at q. It returns
// the field, the index after it and the line breaks inside it.
func quotedField(s string, q int, rec *record) (string, int, int) {
	var b []byte // only when the field holds "" escapes
	i := q + 1
	start := i
	closed := false
	for {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			i = len(s)
			break
		}
		i += k
		if i+1 < len(s) && s[i+1] == '"' {
			b = append(b, s[start:i+1]...)
			i += 2
			start = i
			continue
		}
		closed = true
		break
	}
	f := s[start:i]
	if b != nil {
		f = string(append(b, f...))
	}
	lines := strings.Count(s[q:i], "\n")
	if closed {
		i++
	}
	j := fieldEnd(s, i)
	switch {
	case !closed:
		rec.bad = "a quoted field is never closed"
	case strings.TrimSpace(s[i:j]) != "":
		rec.bad = "text after a closing quote"
		f += s[i:j]
	}
	return f, j, lines
}
