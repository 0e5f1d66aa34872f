package cli

import "strings"

// repeatable is a flag that may be given many times, each value kept as
// given, commas included: what pflag's StringArray does, except that
// pflag's String writes the values as CSV, and pflag calls String when the
// flag is defined, for its default. encoding/csv's writer allocated a 4 KiB
// buffer there in every call of every command with such a flag.
type repeatable struct{ values *[]string }

// Set adds a value.
func (r repeatable) Set(v string) error {
	*r.values = append(*r.values, v)
	return nil
}

// String is the values in brackets; none is "", which help takes for no
// default (StringArray's "[]" is special-cased in pflag).
func (r repeatable) String() string {
	if r.values == nil || len(*r.values) == 0 {
		return ""
	}
	return "[" + strings.Join(*r.values, ",") + "]"
}

// Type names the kind in help, where a flag's usage names no value, as
// pflag names a StringArray's.
func (repeatable) Type() string { return "stringArray" }
