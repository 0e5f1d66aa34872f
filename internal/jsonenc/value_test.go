package jsonenc

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestValueMatchesEncodingJSON(t *testing.T) {
	for _, v := range []any{
		nil, true, false, "", "a<b>&c\u2028\x01\xff", 0.0, math.Copysign(0, -1), 1.0, -3.25, 1e-6, 1e-7, 9.999e-7,
		1e20, 1e21, 123456789.123, 5e-324, math.MaxFloat64, -1e-300, 42,
		[]string(nil), []string{}, []string{"x", "<y>"}, []any(nil), []any{}, []any{1.5, "a", nil, []string{"b"}},
		map[string]any(nil), map[string]any{}, map[string]any{"b": 1.0, "a": []any{"x"}, "é": map[string]string{"z": "1", "y": "2"}},
		map[string]string(nil), map[string]string{"k&": "<v>"},
		map[string][]string{"other": {"types", "go through Any"}},
		struct{ A int }{A: 1},
	} {
		got, err := Value([]byte("x:"), v)
		if err != nil {
			t.Fatalf("Value(%#v): %v", v, err)
		}
		if want := "x:" + std(t, v); string(got) != want {
			t.Errorf("Value(%#v) = %s, want %s", v, got, want)
		}
	}
}

func TestValueRefusesWhatJSONCannotHold(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}, map[string]any{"a": math.NaN()}, func() {}} {
		if got, err := Value(nil, v); err == nil {
			t.Errorf("Value(%v) = %s and no error", v, got)
		}
	}
}

// TestValueRandom compares Value with encoding/json on random nested
// answers: every type Value writes itself, at every depth.
func TestValueRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		v := randomValue(r, 3)
		got, err := Value(nil, v)
		if err != nil {
			t.Fatalf("Value(%#v): %v", v, err)
		}
		if want := std(t, v); string(got) != want {
			t.Fatalf("Value(%#v) = %s, want %s", v, got, want)
		}
	}
}

func randomValue(r *rand.Rand, depth int) any {
	n := 6
	if depth > 0 {
		n = 9
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randomString(r)
	case 3:
		return math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(0x7ff))<<52) // finite
	case 4:
		return r.IntN(2000) - 1000
	case 5:
		l := make([]string, r.IntN(4))
		for i := range l {
			l[i] = randomString(r)
		}
		return l
	case 6:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return l
	case 7:
		m := map[string]any{}
		for range r.IntN(4) {
			m[randomString(r)] = randomValue(r, depth-1)
		}
		return m
	default:
		m := map[string]string{}
		for range r.IntN(4) {
			m[randomString(r)] = randomString(r)
		}
		return m
	}
}

func randomString(r *rand.Rand) string {
	const alphabet = "ab<>&\"\\\n\x00\u2028é\xff"
	var sb strings.Builder
	for range r.IntN(6) {
		sb.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return sb.String()
}

func FuzzFloat(f *testing.F) {
	for _, v := range []float64{0, 1, -1.5, 1e-7, 1e21, 5e-324, math.MaxFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		got, err := Float(nil, v)
		if math.IsInf(v, 0) || math.IsNaN(v) {
			if err == nil {
				t.Fatalf("Float(%v) gave no error", v)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := std(t, v); string(got) != want {
			t.Fatalf("Float(%v) = %s, want %s", v, got, want)
		}
	})
}
