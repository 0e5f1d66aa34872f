package form

import "github.com/elicit/elicit/internal/jsonnode"

// validFormID reports whether s may be a form's form_id, as attune-forms
// (0.8) takes it: `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`, checked without a
// regexp. It keys the response log and joins answers, so it stays plain.
func validFormID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// formIDPattern is validFormID as a JSON Schema pattern.
const formIDPattern = `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`

// formID decodes a form's form_id.
func (d *decoder) formID(path loc, v *jsonnode.Node) string {
	s, ok := d.word(path, v)
	if ok && !validFormID(s) {
		d.add(path, "%q is not a valid form_id (use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit)", s)
		return ""
	}
	return s
}
