package jsonenc

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Value appends v as encoding/json writes it with HTML escaping off,
// without reflection for the types answers and defaults are made of: nil,
// bool, string, float64, int, []string, []any, map[string]any and
// map[string]string (keys sorted, as encoding/json sorts them). Any other
// type goes through Any.
func Value(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return Bool(b, v), nil
	case string:
		return String(b, v), nil
	case float64:
		return Float(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		return Strings(b, v), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = Value(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		return object(b, v, Value)
	case map[string]string:
		return object(b, v, func(b []byte, s string) ([]byte, error) { return String(b, s), nil })
	}
	return Any(b, v)
}

// object appends m with its keys sorted; a nil map is null.
func object[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		var err error
		if b, err = value(Key(b, k, i == 0), m[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// Float appends f as encoding/json writes a float64: the shortest decimal
// that reads back as f, in exponent form below 1e-6 and from 1e21 on, with
// a one-digit negative exponent unpadded (1e-7, not 1e-07). NaN and the
// infinities are not JSON and are an error, as they are for encoding/json.
func Float(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
