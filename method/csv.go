package method

import (
	"iter"
	"strings"
)

// record is one CSV record: the line it starts on, its raw text (for
// warnings) and its field values. bad is set when its quoting is malformed.
// fields is valid until the next record.
type record struct {
	line   int
	raw    string
	fields []string
	bad    string
}

// records yields the records of CSV text that are not blank. Fields are
// separated by commas; a field may be double-quoted, after blanks (spaces,
// tabs), to hold commas, line breaks and "" for a quote, and blanks may
// follow its closing quote; a quote inside a field that does not start with
// one is an ordinary character. Records end at LF or CRLF. A leading UTF-8
// byte order mark is skipped. Malformed quoting (text after a closing
// quote, a quote never closed) is reported in record.bad, never an error.
//
// This is more lenient than encoding/csv, which refuses blanks around a
// quoted field and a quote inside an unquoted one: registries written by
// hand have both, and have always been read.
func records(text string) iter.Seq[record] {
	return func(yield func(record) bool) {
		s := strings.TrimPrefix(text, "\ufeff")
		var fields []string
		for line := 1; s != ""; {
			rec, rest, lines := nextRecord(s, fields[:0])
			rec.line, fields = line, rec.fields
			line += lines
			s = rest
			if strings.TrimSpace(rec.raw) != "" && !yield(rec) {
				return
			}
		}
	}
}

// nextRecord reads one record from the start of s, appending its fields to
// fields, and returns it, the text after it, and how many line breaks it
// took.
func nextRecord(s string, fields []string) (rec record, rest string, lines int) {
	i := 0
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
		fields = append(fields, f)
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		break
	}
	rec.fields = fields
	rec.raw = strings.TrimRight(s[:i], "\r\n")
	if i < len(s) { // s[i] == '\n'
		i++
		lines++
	}
	return rec, s[i:], lines
}

// quoteStart returns where the opening quote is when the field at i is
// quoted (after blanks), else -1.
func quoteStart(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return i
	}
	return -1
}

// fieldEnd returns where the comma or line feed ending the field at i is.
func fieldEnd(s string, i int) int {
	if j := strings.IndexAny(s[i:], ",\n"); j >= 0 {
		return i + j
	}
	return len(s)
}

// quotedField reads the quoted field whose opening quote is at q. It returns
// the field, where the text after it starts and the line breaks inside it.
func quotedField(s string, q int, rec *record) (string, int, int) {
	var b strings.Builder // only when the field holds "" escapes
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
			b.WriteString(s[start : i+1])
			i += 2
			start = i
			continue
		}
		closed = true
		break
	}
	f := s[start:i]
	if b.Len() > 0 {
		b.WriteString(f)
		f = b.String()
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
