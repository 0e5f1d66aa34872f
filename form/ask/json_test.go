package ask

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/internal/jsonenc"
)

// TestAppendJSONMatchesReflection fills every field of a Result, and of
// every type inside it, with random values (so a field added later is
// filled too, and left out by AppendJSON only at the price of this test)
// and compares AppendJSON, indented, with encoding/json's reflection, byte
// for byte.
func TestAppendJSONMatchesReflection(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		var r Result
		fill(reflect.ValueOf(&r).Elem(), rnd, 0)
		b, err := r.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		got := append(jsonenc.Indent(nil, b, "  "), '\n')
		if want := golden.JSON(t, &r); !bytes.Equal(got, want) {
			t.Fatalf("round %d: AppendJSON wrote\n%s\nreflection writes\n%s", i, got, want)
		}
	}
}

var samples = []string{"", "a", "Which track?", `quo"te \ back`, "new\nline\ttab", "<b>&</b>", "\u2028\u2029",
	"bad \xff", "\x1b[8m", "é 日本 🎉", "\x00\x1f\x7f", "(Recommended)"}

// fill sets v, and everything inside it, to random values; depth bounds
// the nesting.
func fill(v reflect.Value, rnd *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(samples[rnd.IntN(len(samples))])
	case reflect.Bool:
		v.SetBool(rnd.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(rnd.Int64N(100))
	case reflect.Float64:
		v.SetFloat(rnd.Float64() * 100)
	case reflect.Pointer:
		if rnd.IntN(3) == 0 || depth > 6 {
			return // nil
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), rnd, depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := rnd.IntN(5); {
		case n == 0 || depth > 6: // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1) // empty or 1-3 items
			for j := range s.Len() {
				fill(s.Index(j), rnd, depth+1)
			}
			v.Set(s)
		}
	case reflect.Struct:
		for j := range v.NumField() {
			if v.Type().Field(j).IsExported() {
				fill(v.Field(j), rnd, depth+1)
			}
		}
	case reflect.Interface: // a default: what a field's default can be
		switch rnd.IntN(6) {
		case 0: // nil
		case 1:
			v.Set(reflect.ValueOf(samples[rnd.IntN(len(samples))]))
		case 2:
			v.Set(reflect.ValueOf([]string{samples[rnd.IntN(len(samples))], "<x>"}))
		case 3:
			v.Set(reflect.ValueOf(rnd.Float64() * 1e6))
		case 4:
			v.Set(reflect.ValueOf(map[string]string{"b<": "x&", "a": samples[rnd.IntN(len(samples))]}))
		case 5:
			v.Set(reflect.ValueOf(true))
		}
	default:
		panic("fill: no case for " + v.Kind().String())
	}
}
