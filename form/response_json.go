package form

import "github.com/elicit/elicit/internal/jsonenc"

// AppendJSON appends the response's JSON, compact, to b: what encoding/json
// writes for it with HTML escaping off, without building reflection-based
// encoders at the start of each CLI process (internal/jsonenc). A nil
// response is null. TestResponseAppendJSONMatchesReflection holds the two
// byte for byte.
func (r *Response) AppendJSON(b []byte) ([]byte, error) {
	if r == nil {
		return append(b, "null"...), nil
	}
	b = jsonenc.Bool(jsonenc.Key(append(b, '{'), "success", true), r.Success)
	b, err := jsonenc.Value(jsonenc.Key(b, "responses", false), r.Responses)
	if err != nil {
		return nil, err
	}
	b = jsonenc.Field(b, "response_id", r.ResponseID, false)
	b = jsonenc.Field(b, "template_id", r.TemplateID, false)
	return append(b, '}'), nil
}
