package jsonenc

// Compact appends src to dst without the white space between tokens, as
// json.Compact does, for src that has already been parsed as JSON (a form
// file elicit has just read): it checks only that every byte outside a
// string can belong to JSON and that strings end and hold no raw control
// characters, not the grammar. ok is false, and dst is returned unchanged,
// when that check fails; the caller then falls back to json.Compact.
func Compact(dst, src []byte) (_ []byte, ok bool) {
	start := len(dst)
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] < 0x20 {
					return dst[:start], false
				}
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return dst[:start], false
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '}', '[', ']', ',', ':', '-', '+', '.',
			'0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
			'a', 'e', 'E', 'f', 'l', 'n', 'r', 's', 't', 'u':
			dst = append(dst, c)
		default:
			return dst[:start], false
		}
	}
	return dst, true
}
