package form

import "strconv"

// loc is where a problem is in a form document: fields[2].options[1],
// fields[0].progress_items[3].status, title. It is built without
// allocating and turned into a string only when a problem is reported.
type loc struct {
	field int    // index in fields, or -1 at form level
	name  string // a key of the form or of the field
	index int    // an index inside that key's list, or -1
	sub   string // a key below that
	// subAt is 1 + an index inside sub's list, or 0.
	subAt int
}

// formLoc locates a key of the form itself.
func formLoc(key string) loc { return loc{field: -1, name: key, index: -1} }

// fieldLoc locates field i.
func fieldLoc(i int) loc { return loc{field: i, index: -1} }

// key descends into a key: the field's own key first, then a key below it.
func (l loc) key(k string) loc {
	if l.name == "" {
		l.name = k
	} else {
		l.sub = k
	}
	return l
}

// at descends into element i of the current key's list.
func (l loc) at(i int) loc {
	if l.sub != "" {
		l.subAt = i + 1
		return l
	}
	l.index = i
	return l
}

func (l loc) String() string {
	var b []byte
	if l.field >= 0 {
		b = append(b, "fields["...)
		b = strconv.AppendInt(b, int64(l.field), 10)
		b = append(b, ']')
	}
	if l.name != "" {
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, l.name...)
	}
	if l.index >= 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(l.index), 10)
		b = append(b, ']')
	}
	if l.sub != "" {
		b = append(b, '.')
		b = append(b, l.sub...)
	}
	if l.subAt > 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(l.subAt-1), 10)
		b = append(b, ']')
	}
	return string(b)
}
