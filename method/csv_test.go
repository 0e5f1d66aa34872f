package method

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// oracleRecord is a record as the whole-text splitter below returns it.
type oracleRecord struct {
	line   int
	raw    string
	fields []string
	bad    string
}

// readAll reads every record from r with the streaming reader, its read
// buffer bufSize bytes.
func readAll(r io.Reader, bufSize int) []oracleRecord {
	rr := newRecordReader(r, bufSize)
	var out []oracleRecord
	for {
		rec, ok := rr.next()
		if !ok {
			return out
		}
		o := oracleRecord{line: rec.line, raw: string(rec.raw), bad: rec.bad}
		for _, f := range rec.fields {
			o.fields = append(o.fields, string(f))
		}
		out = append(out, o)
	}
}

func TestRecordReader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []oracleRecord
	}{
		{"plain", "a,b\nc,d\n", []oracleRecord{{1, "a,b", []string{"a", "b"}, ""}, {2, "c,d", []string{"c", "d"}, ""}}},
		{"crlf, no final break", "a,b\r\nc", []oracleRecord{{1, "a,b", []string{"a", "b\r"}, ""}, {2, "c", []string{"c"}, ""}}},
		{"byte order mark", "\ufeffnum,x\n", []oracleRecord{{1, "num,x", []string{"num", "x"}, ""}}},
		{"blank lines skipped, counted", "\n  \na\n", []oracleRecord{{3, "a", []string{"a"}, ""}}},
		{"quoted comma, break and quote", "1,\"a,b\nc \"\"d\"\"\",e\n2\n", []oracleRecord{
			{1, "1,\"a,b\nc \"\"d\"\"\",e", []string{"1", "a,b\nc \"d\"", "e"}, ""}, {3, "2", []string{"2"}, ""}}},
		{"blanks before a quote", "a, \"b\" ,c", []oracleRecord{{1, "a, \"b\" ,c", []string{"a", "b", "c"}, ""}}},
		{"blanks kept without quote", "a, b ,", []oracleRecord{{1, "a, b ,", []string{"a", " b ", ""}, ""}}},
		{"quote inside a plain field", "a\"b,c", []oracleRecord{{1, "a\"b,c", []string{"a\"b", "c"}, ""}}},
		{"text after closing quote", "\"a\"b,c\n", []oracleRecord{{1, "\"a\"b,c", []string{"ab", "c"}, "text after a closing quote"}}},
		{"never closed", "x,\"a\nb,c\n", []oracleRecord{{1, "x,\"a\nb,c", []string{"x", "a\nb,c\n"}, "a quoted field is never closed"}}},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int{16, 4096} {
				if diff := cmp.Diff(tc.want, readAll(strings.NewReader(tc.in), size), cmp.AllowUnexported(oracleRecord{})); diff != "" {
					t.Errorf("buffer %d (-want +got):\n%s", size, diff)
				}
			}
			if diff := cmp.Diff(splitAll(tc.in), readAll(strings.NewReader(tc.in), 16), cmp.AllowUnexported(oracleRecord{})); diff != "" {
				t.Errorf("reader and whole-text splitter differ (-splitter +reader):\n%s", diff)
			}
		})
	}
}

// FuzzRecordReader checks the streaming reader against the whole-text
// splitter the parser used before, with a read buffer that cuts lines and
// a reader that returns one byte at a time.
func FuzzRecordReader(f *testing.F) {
	f.Add(string(DefaultCSV()))
	f.Add("\ufeff\"a\"\"\n\"x,\r\n\n, \"q\" ,\"z")
	f.Add("a,\"b\nc\"d,e\n\"")
	f.Fuzz(func(t *testing.T, in string) {
		want := splitAll(in)
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(bytes.NewReader([]byte(in)))} {
			if diff := cmp.Diff(want, readAll(r, 16), cmp.AllowUnexported(oracleRecord{})); diff != "" {
				t.Fatalf("(-splitter +reader):\n%s", diff)
			}
		}
	})
}

// The whole-text splitter the parser used before the streaming reader, kept
// as the reader's oracle.

// splitAll splits CSV text into records: fields separated by commas,
// double-quoted fields may hold commas, newlines and "" for a quote, records
// end at LF or CRLF. A leading UTF-8 byte order mark and blank lines are
// ignored. It never fails; malformed quoting is reported in record.bad.
func splitAll(s string) []oracleRecord {
	s = strings.TrimPrefix(s, "\ufeff")
	var recs []oracleRecord
	line := 1
	// One backing array for the records' fields (grown by append past the
	// cap, which bounds what a file of blank lines can reserve).
	buf := make([]string, 0, min(11*(strings.Count(s, "\n")+1), 1<<16))
	for len(s) > 0 {
		rec, rest, lines := nextRecordOracle(s, buf)
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

// nextRecordOracle reads one record from the start of s, appending its fields to
// buf, and returns it, the text after it, and how many line breaks it
// consumed.
func nextRecordOracle(s string, buf []string) (rec oracleRecord, rest string, lines int) {
	i := 0
	rec.fields = buf
	for {
		var f string
		if q := quoteStartOracle(s, i); q >= 0 {
			var n int
			f, i, n = quotedFieldOracle(s, q, &rec)
			lines += n
		} else {
			j := fieldEndOracle(s, i)
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

// quoteStartOracle returns the index of the opening quote when the field at i is
// quoted (after optional blanks), else -1.
func quoteStartOracle(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return i
	}
	return -1
}

// fieldEndOracle returns the index of the comma or line feed ending the field at i.
func fieldEndOracle(s string, i int) int {
	for i < len(s) && s[i] != ',' && s[i] != '\n' {
		i++
	}
	return i
}

// quotedFieldOracle reads the quoted field whose opening quote is at q. It returns
// the field, the index after it and the line breaks inside it.
func quotedFieldOracle(s string, q int, rec *oracleRecord) (string, int, int) {
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
	j := fieldEndOracle(s, i)
	switch {
	case !closed:
		rec.bad = "a quoted field is never closed"
	case strings.TrimSpace(s[i:j]) != "":
		rec.bad = "text after a closing quote"
		f += s[i:j]
	}
	return f, j, lines
}
