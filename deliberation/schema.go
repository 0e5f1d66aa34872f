package deliberation

import _ "embed"

//go:embed evaluation.schema.json
var evaluationSchema []byte

// EvaluationSchema returns the JSON Schema (draft 2020-12) of the
// evaluation document.
func EvaluationSchema() []byte {
	return append([]byte(nil), evaluationSchema...)
}
