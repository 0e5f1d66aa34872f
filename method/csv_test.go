package method

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecords pins the registry's CSV dialect: what a record, a field and a
// line are, including what encoding/csv would refuse (blanks around a quoted
// field, a quote inside an unquoted one).
func TestRecords(t *testing.T) {
	type rec struct {
		Line   int
		Raw    string
		Fields []string
		Bad    string
	}
	for _, tc := range []struct {
		name, in string
		want     []rec
	}{
		{"plain", "a,b\nc,d\n", []rec{{1, "a,b", []string{"a", "b"}, ""}, {2, "c,d", []string{"c", "d"}, ""}}},
		{"crlf, no final break", "a,b\r\nc", []rec{{1, "a,b", []string{"a", "b\r"}, ""}, {2, "c", []string{"c"}, ""}}},
		{"byte order mark", "\ufeffnum,x\n", []rec{{1, "num,x", []string{"num", "x"}, ""}}},
		{"blank lines skipped, counted", "\n  \na\n", []rec{{3, "a", []string{"a"}, ""}}},
		{"quoted comma, break and quote", "1,\"a,b\nc \"\"d\"\"\",e\n2\n", []rec{
			{1, "1,\"a,b\nc \"\"d\"\"\",e", []string{"1", "a,b\nc \"d\"", "e"}, ""}, {3, "2", []string{"2"}, ""}}},
		{"blanks around a quoted field", "a, \"b\" ,c", []rec{{1, "a, \"b\" ,c", []string{"a", "b", "c"}, ""}}},
		{"blanks kept without quote", "a, b ,", []rec{{1, "a, b ,", []string{"a", " b ", ""}, ""}}},
		{"quote inside a plain field", "a\"b,c", []rec{{1, "a\"b,c", []string{"a\"b", "c"}, ""}}},
		{"text after closing quote", "\"a\"b,c\n", []rec{{1, "\"a\"b,c", []string{"ab", "c"}, "text after a closing quote"}}},
		{"never closed", "x,\"a\nb,c\n", []rec{{1, "x,\"a\nb,c", []string{"x", "a\nb,c\n"}, "a quoted field is never closed"}}},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []rec
			for r := range records(tc.in) {
				got = append(got, rec{r.line, r.raw, slices.Clone(r.fields), r.bad})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
